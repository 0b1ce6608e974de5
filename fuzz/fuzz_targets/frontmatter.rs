#![no_main]
//! Fuzz target `frontmatter`: see `skillguard::fuzzing::frontmatter_split`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::frontmatter_split(data));

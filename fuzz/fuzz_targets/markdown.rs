#![no_main]
//! Fuzz target `markdown`: see `skillguard::fuzzing::markdown_regions`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::markdown_regions(data));

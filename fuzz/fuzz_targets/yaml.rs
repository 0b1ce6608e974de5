#![no_main]
//! Fuzz target `yaml`: see `skillguard::fuzzing::yaml_tree`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::yaml_tree(data));

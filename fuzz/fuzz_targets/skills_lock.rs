#![no_main]
//! Fuzz target `skills_lock`: see `skillguard::fuzzing::skills_lock`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::skills_lock(data));

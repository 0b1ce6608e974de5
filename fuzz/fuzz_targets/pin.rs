#![no_main]
//! Fuzz target `pin`: see `skillguard::fuzzing::pin_file`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::pin_file(data));

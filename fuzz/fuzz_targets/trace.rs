#![no_main]
//! Fuzz target `trace`: see `skillguard::fuzzing::trace`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::trace(data));

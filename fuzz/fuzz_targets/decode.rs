#![no_main]
//! Fuzz target `decode`: see `skillguard::fuzzing::decoders`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::decoders(data));

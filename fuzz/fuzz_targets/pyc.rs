#![no_main]
//! Fuzz target `pyc`: see `skillguard::fuzzing::pyc_header`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::pyc_header(data));

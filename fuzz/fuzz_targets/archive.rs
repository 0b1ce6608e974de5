#![no_main]
//! Fuzz target `archive`: see `skillguard::fuzzing::archive_listing`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::archive_listing(data));

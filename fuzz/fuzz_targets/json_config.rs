#![no_main]
//! Fuzz target `json_config`: see `skillguard::fuzzing::json_config`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::json_config(data));

#![no_main]
//! Fuzz target `toml_config`: see `skillguard::fuzzing::toml_config`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::toml_config(data));

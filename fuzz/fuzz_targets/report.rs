#![no_main]
//! Fuzz target `report`: see `skillguard::fuzzing::shard_report`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::shard_report(data));

#![no_main]
//! Fuzz target `ledger`: see `skillguard::fuzzing::ledger_snapshot`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::ledger_snapshot(data));

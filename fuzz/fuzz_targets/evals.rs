#![no_main]
//! Fuzz target `evals`: see `skillguard::fuzzing::eval_results`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skillguard::fuzzing::eval_results(data));

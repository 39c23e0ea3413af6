//! Fuzz target `solve`: see fuzz/harness.rs for what it feeds and what it checks.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::solve(data));

//! Definition text: parse + read + validate + compile (see `workload_map_fuzz::definition`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| workload_map_fuzz::definition(data));

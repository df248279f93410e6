//! Resolve: a fuzzed definition and fixed objects (see `workload_map_fuzz::resolve_definition`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| workload_map_fuzz::resolve_definition(data));

//! Resolve: a catalog definition picked by the first byte, and fuzzed manifest text (see `workload_map_fuzz::resolve_object`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| workload_map_fuzz::resolve_object(data));

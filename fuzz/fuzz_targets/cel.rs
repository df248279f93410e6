//! CEL: compile + evaluate a fuzzed expression, optionally NUL + JSON input (see `workload_map_fuzz::cel`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| workload_map_fuzz::cel(data));

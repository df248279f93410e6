//! Manifest text: `parse_objects` (see `workload_map_fuzz::objects`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| workload_map_fuzz::objects(data));

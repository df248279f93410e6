//! Quantities: parse, print, read back (see `workload_map_fuzz::quantity`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| workload_map_fuzz::quantity(data));

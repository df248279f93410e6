//! CEL: compile + evaluate a fuzzed expression on the seed JobSet or on JSON given after a
//! NUL byte, with the same invariants as the jq target.
#![no_main]

use libfuzzer_sys::fuzz_target;
use workload_map::definition::Language;

mod common;
mod expr;

fuzz_target!(|data: &[u8]| expr::run(Language::Cel, data));

//! jq: compile + evaluate a fuzzed expression on the seed JobSet or on JSON given after a
//! NUL byte. Errors carry `expr/…` codes with ranges inside the expression; evaluation is
//! deterministic and bounded (a runaway expression ends with `expr/budget-exceeded`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use workload_map::definition::Language;

mod common;
mod expr;

fuzz_target!(|data: &[u8]| expr::run(Language::Jq, data));

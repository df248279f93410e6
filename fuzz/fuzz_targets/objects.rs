//! Manifest text: `parse_objects`. A syntax error has a known code and a range inside the
//! text; parsing is deterministic; every object serialises back to JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use workload_map::object::parse_objects;

mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let first = parse_objects(text);
    match &first {
        Err(d) => {
            common::check_diagnostics(std::slice::from_ref(d), None, Some(text));
            assert!(
                d.range.is_some(),
                "a syntax error without a range: {}",
                d.message
            );
        }
        Ok(objects) => {
            for object in objects {
                serde_json::to_string(object).expect("objects serialise");
            }
        }
    }
    assert_eq!(first, parse_objects(text), "parsing twice differs");
});

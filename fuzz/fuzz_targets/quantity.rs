//! Quantities: parsing never panics; a parsed amount prints in canonical form and reads back
//! to the same amount (unless it saturated); JSON strings and numbers agree with text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use workload_map::quantity::Quantity;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = Quantity::parse(text);
    let from_json = Quantity::from_json(&Value::String(text.to_owned()));
    if text.trim() == text {
        assert_eq!(
            parsed.as_ref().map(Quantity::nanos).ok(),
            from_json.as_ref().map(Quantity::nanos).ok(),
            "text and JSON string disagree"
        );
    }
    let Ok(q) = parsed else {
        return;
    };
    let _ = (
        q.milli_value_ceil(),
        q.value_ceil(),
        q.to_f64(),
        q.human(),
        q.is_integer(),
    );
    let printed = q.format();
    let saturated = q.nanos() == i128::MAX || q.nanos() == -i128::MAX || q.nanos() == i128::MIN;
    if !saturated {
        let again = Quantity::parse(&printed).unwrap_or_else(|e| {
            panic!("{text:?} prints as {printed:?}, which does not parse: {e:?}")
        });
        assert_eq!(again.nanos(), q.nanos(), "{text:?} prints as {printed:?}");
    }
});

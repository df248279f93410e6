//! Shared by the jq and CEL targets.

use serde_json::Value;
use workload_map::definition::Language;
use workload_map::expr::{ExprError, ExprSetBuilder, Input, MAX_RESULTS};

use crate::common;

fn check_errors(source: &str, errors: &[ExprError]) {
    assert!(!errors.is_empty(), "a failure without an error");
    for e in errors {
        assert!(
            e.code.starts_with("expr/") && common::known_codes().contains(e.code),
            "unexpected code {:?}: {}",
            e.code,
            e.message
        );
        if let Some(r) = e.range {
            common::check_range(e.code, r.start as usize, r.end as usize, source);
        }
    }
}

/// `data` is the expression, optionally followed by a NUL byte and a JSON input.
pub fn run(language: Language, data: &[u8]) {
    let (source, input) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], serde_json::from_slice(&data[at + 1..]).ok()),
        None => (data, None),
    };
    let Ok(source) = std::str::from_utf8(source) else {
        return;
    };
    let input: Value = input.unwrap_or_else(|| common::seed_object().clone());
    let mut builder = ExprSetBuilder::new();
    let id = match builder.add(language, source) {
        Ok(id) => id,
        Err(errors) => return check_errors(source, &errors),
    };
    let (set, failed) = builder.finish();
    if let Some((_, errors)) = failed.first() {
        return check_errors(source, errors);
    }
    let input = Input::new(input);
    let first = set.eval(id, &input);
    match &first {
        Ok(outputs) => assert!(outputs.len() < MAX_RESULTS, "{} results", outputs.len()),
        Err(e) => check_errors(source, std::slice::from_ref(e)),
    }
    assert_eq!(first, set.eval(id, &input), "evaluating twice differs");
}

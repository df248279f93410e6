//! Invariants every fuzz target checks. A broken invariant panics, which libFuzzer reports
//! as a crash and saves under `fuzz/artifacts/<target>/`.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde_json::Value;
use workload_map::diagnostic::{Diagnostic, Source};
use workload_map::view::View;

/// The stable codes, read from the `codes` module's source so that new codes count at once.
pub fn known_codes() -> &'static BTreeSet<String> {
    static CODES: OnceLock<BTreeSet<String>> = OnceLock::new();
    CODES.get_or_init(|| {
        let source = include_str!("../../src/diagnostic.rs");
        let start = source.find("pub mod codes").expect("a codes module");
        let body = &source[start..];
        let end = body.find("\n}\n").unwrap_or(body.len());
        body[..end]
            .lines()
            .filter_map(|line| {
                let rest = line.trim().strip_prefix("pub const ")?;
                let value = rest.split_once("= \"")?.1;
                Some(value.split('"').next()?.to_owned())
            })
            .collect()
    })
}

/// `range` (bytes) lies inside `text`, on character boundaries.
pub fn check_range(what: &str, start: usize, end: usize, text: &str) {
    assert!(
        start <= end && end <= text.len(),
        "{what}: range {start}..{end} outside a text of {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(start) && text.is_char_boundary(end),
        "{what}: range {start}..{end} not on character boundaries"
    );
}

/// Every diagnostic has a known code, and a range inside the text its `source` names (when
/// that text is given).
pub fn check_diagnostics(
    diagnostics: &[Diagnostic],
    definition_text: Option<&str>,
    object_text: Option<&str>,
) {
    for d in diagnostics {
        assert!(
            known_codes().contains(d.code),
            "unknown code {:?}: {}",
            d.code,
            d.message
        );
        let text = match d.source {
            Source::Definition => definition_text,
            Source::Object => object_text,
        };
        if let (Some(range), Some(text)) = (d.range, text) {
            check_range(d.code, range.start as usize, range.end as usize, text);
        }
    }
}

/// The view serialises, its diagnostics hold, and the workload totals are the root's.
pub fn check_view(view: &View, definition_text: &str) {
    check_diagnostics(&view.diagnostics, Some(definition_text), None);
    assert!(!view.phases.is_empty(), "a view always has a phase");
    if let Some(root) = &view.root {
        assert_eq!(
            root.resources, view.resources,
            "workload totals differ from the root's"
        );
    }
    serde_json::to_string(view).expect("views serialise");
}

/// The seed JobSet object of `tests/fixtures/resolve/seed-jobset.yaml`.
pub fn seed_object() -> &'static Value {
    static OBJECT: OnceLock<Value> = OnceLock::new();
    OBJECT.get_or_init(|| {
        let text = include_str!("../../tests/fixtures/resolve/seed-jobset.yaml");
        let mut docs = workload_map::object::parse_objects(text).expect("the seed fixture parses");
        docs.remove(0)["object"].take()
    })
}

//! The fuzz targets' bodies and the invariants they check, as plain functions: each
//! `fuzz_targets/<target>.rs` is `fuzz_target!(|data| workload_map_fuzz::<target>(data))`, and
//! `examples/smoke.rs` runs the same functions on stable Rust over the catalog's files and the
//! committed seeds (`npm test` runs it), so that the harness cannot rot unnoticed. A broken
//! invariant panics, which libFuzzer reports as a crash and saves under
//! `fuzz/artifacts/<target>/`.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde_json::{json, Value};
use workload_map::diagnostic::{codes, Diagnostic, Source};
use workload_map::expr::{ExprError, ExprSetBuilder, Input, Language, MAX_RESULTS};
use workload_map::quantity::Quantity;
use workload_map::view::View;
use workload_map::{catalog, CompiledDefinition};

/// A target's body: checks one input, panicking when an invariant breaks.
pub type Target = fn(&[u8]);

/// Every target: its name (as in `Cargo.toml` and `cargo fuzz run NAME`) and its body.
pub const TARGETS: [(&str, Target); 7] = [
    ("definition", definition),
    ("objects", objects),
    ("resolve_object", resolve_object),
    ("resolve_definition", resolve_definition),
    ("jq", jq),
    ("cel", cel),
    ("quantity", quantity),
];

// ----- invariants -----------------------------------------------------------------------------

/// The stable codes, as the crate lists them (`codes::ALL`).
pub fn known_codes() -> &'static BTreeSet<&'static str> {
    static CODES: OnceLock<BTreeSet<&'static str>> = OnceLock::new();
    CODES.get_or_init(|| codes::ALL.iter().map(|c| c.code).collect())
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

/// The texts a diagnostic's `source` may name; `None` when the target has no such text.
#[derive(Default, Clone, Copy)]
pub struct Texts<'t> {
    /// The definition text.
    pub definition: Option<&'t str>,
    /// The manifest text.
    pub object: Option<&'t str>,
    /// A test case's text.
    pub case: Option<&'t str>,
    /// An API schema's text (a CRD or an OpenAPI document).
    pub schema: Option<&'t str>,
}

/// Every diagnostic has a known code, and a range inside the text its `source` names (when
/// that text is given).
pub fn check_diagnostics(diagnostics: &[Diagnostic], texts: Texts<'_>) {
    for d in diagnostics {
        assert!(
            known_codes().contains(d.code),
            "unknown code {:?}: {}",
            d.code,
            d.message
        );
        let text = match d.source {
            Source::Definition => texts.definition,
            Source::Object => texts.object,
            Source::Case => texts.case,
            Source::Schema => texts.schema,
        };
        if let (Some(range), Some(text)) = (d.range, text) {
            check_range(d.code, range.start as usize, range.end as usize, text);
        }
    }
}

/// The view serialises, its diagnostics hold, and the workload totals are the root's.
pub fn check_view(view: &View, definition_text: &str) {
    let texts = Texts {
        definition: Some(definition_text),
        ..Texts::default()
    };
    check_diagnostics(&view.diagnostics, texts);
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

// ----- the targets ----------------------------------------------------------------------------

/// Definition text: parse + read + validate + compile. Diagnostics carry known codes and
/// ranges inside the text; compiling twice gives the same result.
pub fn definition(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let first = CompiledDefinition::from_text(text);
    assert_eq!(first.text(), text);
    let texts = Texts {
        definition: Some(text),
        ..Texts::default()
    };
    check_diagnostics(first.diagnostics(), texts);
    let _ = (
        first.name(),
        first.root_gvk(),
        first.component_names(),
        first.is_valid(),
    );
    let second = CompiledDefinition::from_text(text);
    assert_eq!(
        first.diagnostics(),
        second.diagnostics(),
        "compiling twice differs"
    );
}

/// Manifest text: `parse_objects`. A syntax error has a known code and a range inside the
/// text; parsing is deterministic; every object serialises back to JSON.
pub fn objects(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let first = workload_map::object::parse_objects(text);
    match &first {
        Err(d) => {
            let texts = Texts {
                object: Some(text),
                ..Texts::default()
            };
            check_diagnostics(std::slice::from_ref(d), texts);
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
    assert_eq!(
        first,
        workload_map::object::parse_objects(text),
        "parsing twice differs"
    );
}

thread_local! {
    /// Each catalog definition, compiled once (compile once, evaluate many).
    static COMPILED: RefCell<BTreeMap<usize, CompiledDefinition>> = RefCell::default();
}

/// Resolve: a fixed catalog definition (chosen by the first byte) and fuzzed manifest text.
/// Views hold their invariants and resolving twice gives the same view.
pub fn resolve_object(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(objects) = workload_map::object::parse_objects(text) else {
        return;
    };
    let entries = catalog::entries();
    let index = usize::from(pick) % entries.len();
    COMPILED.with(|compiled| {
        let mut compiled = compiled.borrow_mut();
        let definition = compiled
            .entry(index)
            .or_insert_with(|| CompiledDefinition::from_text(entries[index].text));
        for object in objects.iter().take(4) {
            let view = definition.resolve(object);
            check_view(&view, definition.text());
            assert_eq!(view, definition.resolve(object), "resolving twice differs");
        }
    });
}

/// Resolve: a fuzzed definition and fixed objects (the seed JobSet, and an object of the
/// definition's own root kind). Views hold their invariants and are deterministic.
pub fn resolve_definition(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let definition = CompiledDefinition::from_text(text);
    let texts = Texts {
        definition: Some(text),
        ..Texts::default()
    };
    check_diagnostics(definition.diagnostics(), texts);
    let mut objects = vec![seed_object().clone()];
    if let Some(gvk) = definition.root_gvk() {
        let api_version = if gvk.group.is_empty() {
            gvk.version.clone()
        } else {
            format!("{}/{}", gvk.group, gvk.version)
        };
        objects.push(json!({
            "apiVersion": api_version,
            "kind": gvk.kind,
            "metadata": {"name": "x"},
            "spec": {"replicas": 2},
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}
        }));
    }
    for object in &objects {
        let view = definition.resolve(object);
        check_view(&view, text);
        assert_eq!(view, definition.resolve(object), "resolving twice differs");
    }
}

/// jq: compile + evaluate a fuzzed expression on the seed JobSet or on JSON given after a
/// NUL byte. Errors carry `expr/…` codes with ranges inside the expression; evaluation is
/// deterministic and bounded (a runaway expression ends with `expr/budget-exceeded`).
pub fn jq(data: &[u8]) {
    expression(Language::Jq, data);
}

/// CEL: as [`jq`].
pub fn cel(data: &[u8]) {
    expression(Language::Cel, data);
}

fn check_errors(source: &str, errors: &[ExprError]) {
    assert!(!errors.is_empty(), "a failure without an error");
    for e in errors {
        assert!(
            e.code.starts_with("expr/") && known_codes().contains(e.code),
            "unexpected code {:?}: {}",
            e.code,
            e.message
        );
        if let Some(r) = e.range {
            check_range(e.code, r.start as usize, r.end as usize, source);
        }
    }
}

/// `data` is the expression, optionally followed by a NUL byte and a JSON input.
fn expression(language: Language, data: &[u8]) {
    let (source, input) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], serde_json::from_slice(&data[at + 1..]).ok()),
        None => (data, None),
    };
    let Ok(source) = std::str::from_utf8(source) else {
        return;
    };
    let input: Value = input.unwrap_or_else(|| seed_object().clone());
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

/// Quantities: parsing never panics; a parsed amount prints in canonical form and reads back
/// to the same amount (unless it saturated); JSON strings and text agree.
pub fn quantity(data: &[u8]) {
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
}

//! Provenance, data-driven: every `tests/fixtures/provenance/*.yaml` case gives a definition and
//! an object as text, and where each component, instance and status matcher of the view came
//! from. Places are written `line:column-line:column` (1-based, columns in characters) so a
//! case reads against its text; `""` means absent.
//!
//! Each case is also resolved with the object as a plain value (pointers stay, object ranges
//! go) and with the definition compiled from JSON (definition ranges go).
//!
//! `expect.diagnostics` maps a code to where its (first) diagnostic is: `source`, `path`, and
//! `object` (the place in the object text). A problem with a value of the manifest is about
//! the manifest, and is shown at that value, never in the definition that read it. The same
//! diagnostic from the plain value has the same source and path, and no range.

use crate::common;

use serde_json::Value;
use workload_map::compile::CompiledDefinition;
use workload_map::diagnostic::{ColumnUnit, LineIndex, TextRange};
use workload_map::view::{Instance, View};

use common::Found;

/// `line:column-line:column` of a range of `text`, or `""` for none.
fn place(text: &str, range: Option<TextRange>) -> String {
    let Some(range) = range else {
        return String::new();
    };
    let index = LineIndex::new(text);
    let start = index.line_col(text, range.start, ColumnUnit::Char);
    let end = index.line_col(text, range.end, ColumnUnit::Char);
    format!(
        "{}:{}-{}:{}",
        start.line, start.column, end.line, end.column
    )
}

/// The instance a path names: `name[id]`, or a single-instance component's only instance.
fn instance<'v>(view: &'v View, path: &str) -> Option<&'v Instance> {
    match common::find(view, path)? {
        Found::Instance(i) => Some(i),
        Found::Component(c) => match c.instances.as_slice() {
            [only] if only.id.is_none() => Some(only),
            _ => None,
        },
    }
}

fn entries(value: &Value) -> impl Iterator<Item = (&String, &Value)> {
    value.as_object().into_iter().flatten()
}

fn run_case(path: &std::path::Path) -> Vec<String> {
    let case = common::read_yaml(path);
    let (Some(definition_text), Some(object_text)) =
        (case["definition"].as_str(), case["object"].as_str())
    else {
        return vec!["definition and object must be texts".to_owned()];
    };
    let expect = &case["expect"];
    let definition = CompiledDefinition::from_text(definition_text);
    let mut problems: Vec<String> = definition
        .diagnostics()
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("definition: {} {}", d.code, d.message))
        .collect();
    let view = definition.resolve_text(object_text);
    let value = |text: &str| {
        workload_map::object::parse_objects(text)
            .ok()
            .and_then(|mut objects| objects.pop())
            .unwrap_or_default()
    };
    let object = value(object_text);
    let from_value = definition.resolve(&object);
    let from_json = CompiledDefinition::from_json(&value(definition_text)).resolve(&object);

    for (path, want) in entries(&expect["components"]) {
        let Some(Found::Component(c)) = common::find(&view, path) else {
            problems.push(format!("{path}: no such component"));
            continue;
        };
        let got = place(definition_text, c.source.definition);
        if want.as_str() != Some(got.as_str()) {
            problems.push(format!("{path}: definition range {got:?}, expected {want}"));
        }
        if let Some(Found::Component(c)) = common::find(&from_json, path) {
            if c.source.definition.is_some() {
                problems.push(format!("{path}: a definition from JSON has no ranges"));
            }
        }
    }
    for (path, want) in entries(&expect["instances"]) {
        let Some(i) = instance(&view, path) else {
            problems.push(format!("{path}: no such instance"));
            continue;
        };
        let pointer = i.source.pointer.clone();
        let want_pointer = want["pointer"].as_str().map(str::to_owned);
        if pointer != want_pointer {
            problems.push(format!(
                "{path}: pointer {pointer:?}, expected {want_pointer:?}"
            ));
        }
        let got = place(object_text, i.source.object);
        let want_object = want["object"].as_str().unwrap_or_default();
        if got != want_object {
            problems.push(format!(
                "{path}: object range {got:?}, expected {want_object:?}"
            ));
        }
        match instance(&from_value, path) {
            Some(plain) if plain.source.pointer == pointer && plain.source.object.is_none() => {}
            other => problems.push(format!(
                "{path}: from a plain value, expected the same pointer and no range, got {:?}",
                other.map(|i| &i.source)
            )),
        }
    }
    for (key, want) in entries(&expect["matchers"]) {
        let (phase, index) = key.split_once('/').unwrap_or((key, "0"));
        let matcher = view
            .status
            .mappings
            .iter()
            .find(|m| m.status.as_str() == phase)
            .and_then(|m| m.matchers.get(index.parse::<usize>().unwrap_or(usize::MAX)));
        let Some(matcher) = matcher else {
            problems.push(format!("{key}: no such matcher"));
            continue;
        };
        let got = place(definition_text, matcher.source.definition);
        if want.as_str() != Some(got.as_str()) {
            problems.push(format!("{key}: definition range {got:?}, expected {want}"));
        }
    }
    for (code, want) in entries(&expect["diagnostics"]) {
        let Some(d) = view.diagnostics.iter().find(|d| d.code == code.as_str()) else {
            problems.push(format!(
                "{code}: no such diagnostic in {:?}",
                view.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
            ));
            continue;
        };
        let source = serde_json::to_value(d.source).unwrap_or_default();
        if source != want["source"] {
            problems.push(format!(
                "{code}: source {source}, expected {}",
                want["source"]
            ));
        }
        if want["path"].as_str() != Some(d.path.as_str()) {
            problems.push(format!(
                "{code}: path {:?}, expected {}",
                d.path, want["path"]
            ));
        }
        let got = place(object_text, d.range);
        if want["object"].as_str() != Some(got.as_str()) {
            problems.push(format!(
                "{code}: object range {got:?}, expected {}",
                want["object"]
            ));
        }
        match from_value
            .diagnostics
            .iter()
            .find(|p| p.code == code.as_str())
        {
            Some(plain) if plain.source == d.source && plain.path == d.path => {
                if plain.source == workload_map::diagnostic::Source::Object && plain.range.is_some()
                {
                    problems.push(format!("{code}: from a plain value, a range into no text"));
                }
            }
            other => problems.push(format!(
                "{code}: from a plain value, expected the same source and path, got {:?}",
                other.map(|p| (p.source, &p.path))
            )),
        }
    }
    let ranged_matchers = from_json
        .status
        .mappings
        .iter()
        .flat_map(|m| &m.matchers)
        .filter(|m| m.source.definition.is_some())
        .count();
    if ranged_matchers > 0 {
        problems.push("a definition from JSON gives matchers no ranges".to_owned());
    }
    problems
}

#[test]
fn every_provenance_fixture_places_components_instances_and_matchers() {
    common::check_fixture_folder("provenance", 3, run_case);
}

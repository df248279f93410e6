//! No input makes the core panic, and what it cannot read it says: damaged definitions and
//! damaged objects give a view and diagnostics, never a silent nothing. Inputs are our own
//! catalog and fixtures, damaged deterministically (truncated text, flipped bytes, every value
//! in an object replaced by values of other types). Every diagnostic must carry a documented
//! code, a message, and a range inside the text it points into; a text that does not parse
//! must say so with an error.

use crate::common;

use serde_json::Value;
use workload_map::catalog;
use workload_map::compile::CompiledDefinition;
use workload_map::diagnostic::{codes, Diagnostic, Source};
use workload_map::object::{parse_objects, read_objects};

/// Checks what every diagnostic must be: a documented code, a message, and a range (when it has
/// one) inside the text of its source (`definition` / `object`: that text's length in bytes,
/// when there is one).
fn assert_well_formed(
    diagnostics: &[Diagnostic],
    definition: Option<&str>,
    object: Option<&str>,
    context: &str,
) {
    for d in diagnostics {
        assert!(
            codes::ALL.iter().any(|c| c.code == d.code),
            "{context}: undocumented code {} ({})",
            d.code,
            d.message
        );
        assert!(
            !d.message.trim().is_empty(),
            "{context}: {} has no message",
            d.code
        );
        let text = match d.source {
            Source::Definition => definition,
            Source::Object => object,
            _ => None,
        };
        if let (Some(range), Some(text)) = (d.range, text) {
            assert!(
                range.start <= range.end && range.end as usize <= text.len(),
                "{context}: {} ({}) points at {}..{}, outside the text ({} bytes)",
                d.code,
                d.message,
                range.start,
                range.end,
                text.len()
            );
        }
    }
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Cuts and corrupts `text` in `count` ways; every result is valid UTF-8.
fn damaged_texts(text: &str, rng: &mut Rng, count: usize) -> Vec<String> {
    const NOISE: &[&str] = &[
        "{", "}", "[", "]", ":", "- ", "\n", "\t", "'", "\"", "&a", "*a", "!!str ", "é", "|", "?",
        "#", "  ",
    ];
    let boundaries: Vec<usize> = (0..=text.len())
        .filter(|i| text.is_char_boundary(*i))
        .collect();
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let at = boundaries[rng.below(boundaries.len())];
        let (head, tail) = text.split_at(at);
        out.push(match rng.below(3) {
            0 => head.to_owned(),
            1 => format!("{head}{}{tail}", NOISE[rng.below(NOISE.len())]),
            _ => {
                let skip = tail
                    .char_indices()
                    .nth(1 + rng.below(8))
                    .map_or(tail.len(), |(i, _)| i);
                format!("{head}{}", &tail[skip..])
            }
        });
    }
    out
}

/// Every path to a value in `value`.
fn paths(value: &Value, prefix: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(prefix.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                prefix.push(Value::String(k.clone()));
                paths(v, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                prefix.push(Value::from(i));
                paths(v, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn set(value: &mut Value, path: &[Value], replacement: Value) {
    let mut current = value;
    for segment in path {
        current = match segment {
            Value::String(k) => &mut current[k.as_str()],
            Value::Number(n) => &mut current[n.as_u64().unwrap_or(0) as usize],
            _ => return,
        };
    }
    *current = replacement;
}

#[test]
fn damaged_definition_texts_give_diagnostics_not_panics() {
    let mut rng = Rng(0x5eed);
    let mut compiled = 0;
    let mut unparsable = 0;
    for entry in catalog::entries() {
        for text in damaged_texts(entry.text, &mut rng, 25) {
            let definition = CompiledDefinition::from_text(&text);
            let context = format!("{} damaged", entry.name);
            assert_well_formed(definition.diagnostics(), Some(&text), None, &context);
            // Text that is not YAML, or not one mapping, must say so with an error.
            if workload_map::yaml::parse_single(&text).is_err() {
                unparsable += 1;
                assert!(
                    definition.diagnostics().iter().any(Diagnostic::is_error)
                        && !definition.is_valid(),
                    "{context}: text that does not parse gave no error:\n{text}"
                );
            }
            compiled += 1;
        }
    }
    assert!(
        unparsable > 0,
        "no damaged definition failed to parse: the damage does nothing"
    );
    println!("{compiled} damaged definitions compiled ({unparsable} unparsable, each an error)");
}

#[test]
fn damaged_manifest_texts_give_diagnostics_not_panics() {
    let mut rng = Rng(0xfeed);
    let dir = common::repo().join("tests/fixtures/resolve");
    let (mut resolved, mut refused) = (0, 0);
    for file in common::yaml_files(&dir) {
        let text = std::fs::read_to_string(&file).expect("fixture");
        for damaged in damaged_texts(&text, &mut rng, 60) {
            let context = format!("{} damaged", file.display());
            let read = read_objects(&damaged);
            assert_well_formed(&read.diagnostics, None, Some(&damaged), &context);
            match parse_objects(&damaged) {
                Ok(objects) => {
                    for object in objects {
                        let definition = CompiledDefinition::from_json(&object["definition"]);
                        let view = definition.resolve(&object["object"]);
                        assert_well_formed(&view.diagnostics, None, None, &context);
                        resolved += 1;
                    }
                }
                Err(problem) => {
                    // What stopped the reading is an error, and the reading itself has it.
                    assert!(
                        problem.is_error(),
                        "{context}: {} is not an error",
                        problem.code
                    );
                    assert!(read.has_errors(), "{context}: read_objects saw no error");
                    refused += 1;
                }
            }
            // The same text as the object of a resolve: no object read is an error in the view.
            let view = CompiledDefinition::from_text("").resolve_text(&damaged);
            assert_well_formed(&view.diagnostics, None, Some(&damaged), &context);
            if read.objects.is_empty() {
                assert!(
                    view.diagnostics
                        .iter()
                        .any(|d| d.is_error() && d.source == Source::Object),
                    "{context}: a text holding no object resolved without an object error"
                );
            }
        }
    }
    assert!(
        refused > 0,
        "no damaged manifest failed to read: the damage does nothing"
    );
    // Damage rarely cuts a text to nothing at all: those texts are checked as such.
    for nothing in ["", "# only a comment\n", "---\n", "\u{feff}"] {
        let view = CompiledDefinition::from_text("").resolve_text(nothing);
        assert!(
            view.diagnostics
                .iter()
                .any(|d| d.is_error() && d.source == Source::Object),
            "{nothing:?}: a text holding no object resolved without an object error"
        );
    }
    println!("{resolved} damaged manifests resolved, {refused} refused with an error");
}

#[test]
fn damaged_json_of_plain_objects_gives_diagnostics_not_panics() {
    // What the wasm boundary reads for a plain JavaScript object: JSON.stringify's text.
    let mut rng = Rng(0xbeef);
    let dir = common::repo().join("tests/fixtures/resolve");
    let mut read = 0;
    let mut refused = 0;
    for file in common::yaml_files(&dir) {
        let text = common::read_yaml(&file)["object"].to_string();
        for damaged in damaged_texts(&text, &mut rng, 40) {
            let context = format!("{} damaged JSON", file.display());
            match workload_map::yaml::parse_json(&damaged) {
                Ok(object) => {
                    let view = CompiledDefinition::from_text("").resolve(&object);
                    assert_well_formed(&view.diagnostics, None, None, &context);
                }
                Err(problem) => {
                    assert!(
                        problem.is_error(),
                        "{context}: {} is not an error",
                        problem.code
                    );
                    assert_well_formed(&[problem], None, Some(&damaged), &context);
                    refused += 1;
                }
            }
            read += 1;
        }
    }
    assert!(
        refused > 0,
        "no damaged JSON failed to parse: the damage does nothing"
    );
    println!("{read} damaged JSON texts read, {refused} refused with an error");
}

#[test]
fn objects_with_values_of_the_wrong_type_resolve_with_diagnostics() {
    let replacements = [
        Value::Null,
        Value::from("x"),
        Value::from(-1),
        Value::Array(vec![Value::Null]),
        serde_json::json!({"a": [1, {"b": null}]}),
    ];
    let (mut resolved, mut noticed) = (0, 0);
    for entry in catalog::entries() {
        let mut entry_noticed = 0;
        let definition = CompiledDefinition::from_text(entry.text);
        let dir = common::repo()
            .join("catalog")
            .join(entry.name)
            .join("tests");
        for case in common::yaml_files(&dir).into_iter().take(1) {
            let object = common::read_yaml(&case)["object"].clone();
            let known: Vec<&str> = definition
                .resolve(&object)
                .diagnostics
                .iter()
                .map(|d| d.code)
                .collect();
            let mut all = Vec::new();
            paths(&object, &mut Vec::new(), &mut all);
            for path in all.iter().skip(1) {
                for replacement in &replacements {
                    let mut damaged = object.clone();
                    set(&mut damaged, path, replacement.clone());
                    let view = definition.resolve(&damaged);
                    assert!(!view.phases.is_empty());
                    let context = format!("{} with {path:?} = {replacement}", entry.name);
                    assert_well_formed(&view.diagnostics, None, None, &context);
                    if view
                        .diagnostics
                        .iter()
                        .any(|d| d.source == Source::Object && !known.contains(&d.code))
                    {
                        entry_noticed += 1;
                    }
                    resolved += 1;
                }
            }
        }
        // A value of the wrong type where the definition reads must be said, not passed over:
        // every definition reads some field of its own example object.
        assert!(
            entry_noticed > 0,
            "{}: no damaged value of its example object gave an object diagnostic",
            entry.name
        );
        noticed += entry_noticed;
    }
    println!("{resolved} damaged objects resolved, {noticed} with a new object diagnostic");
}

//! No input makes the core panic: damaged definitions and damaged objects always give a view
//! or diagnostics. Inputs are our own catalog and fixtures, damaged deterministically
//! (truncated text, flipped bytes, every value in an object replaced by values of other types).

mod common;

use serde_json::Value;
use workload_map::catalog;
use workload_map::compile::CompiledDefinition;
use workload_map::object::parse_objects;

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
    for entry in catalog::entries() {
        for text in damaged_texts(entry.text, &mut rng, 25) {
            let definition = CompiledDefinition::from_text(&text);
            let _ = definition.diagnostics();
            compiled += 1;
        }
    }
    println!("{compiled} damaged definitions compiled without a panic");
}

#[test]
fn damaged_manifest_texts_give_diagnostics_not_panics() {
    let mut rng = Rng(0xfeed);
    let dir = common::repo().join("tests/fixtures/resolve");
    for file in common::yaml_files(&dir) {
        let text = std::fs::read_to_string(&file).expect("fixture");
        for damaged in damaged_texts(&text, &mut rng, 60) {
            if let Ok(objects) = parse_objects(&damaged) {
                for object in objects {
                    let definition = CompiledDefinition::from_json(&object["definition"]);
                    let _ = definition.resolve(&object["object"]);
                }
            }
        }
    }
}

#[test]
fn damaged_json_of_plain_objects_gives_diagnostics_not_panics() {
    // What the wasm boundary reads for a plain JavaScript object: JSON.stringify's text.
    let mut rng = Rng(0xbeef);
    let dir = common::repo().join("tests/fixtures/resolve");
    let mut read = 0;
    for file in common::yaml_files(&dir) {
        let text = common::read_yaml(&file)["object"].to_string();
        for damaged in damaged_texts(&text, &mut rng, 40) {
            if let Ok(object) = workload_map::yaml::parse_json(&damaged) {
                let _ = CompiledDefinition::from_text("").resolve(&object);
            }
            read += 1;
        }
    }
    println!("{read} damaged JSON texts read without a panic");
}

#[test]
fn objects_with_values_of_the_wrong_type_resolve_without_panics() {
    let replacements = [
        Value::Null,
        Value::from("x"),
        Value::from(-1),
        Value::Array(vec![Value::Null]),
        serde_json::json!({"a": [1, {"b": null}]}),
    ];
    let mut resolved = 0;
    for entry in catalog::entries() {
        let definition = CompiledDefinition::from_text(entry.text);
        let dir = common::repo()
            .join("catalog")
            .join(entry.name)
            .join("tests");
        for case in common::yaml_files(&dir).into_iter().take(1) {
            let object = common::read_yaml(&case)["object"].clone();
            let mut all = Vec::new();
            paths(&object, &mut Vec::new(), &mut all);
            for path in all.iter().skip(1) {
                for replacement in &replacements {
                    let mut damaged = object.clone();
                    set(&mut damaged, path, replacement.clone());
                    let view = definition.resolve(&damaged);
                    assert!(!view.phases.is_empty());
                    resolved += 1;
                }
            }
        }
    }
    println!("{resolved} damaged objects resolved without a panic");
}

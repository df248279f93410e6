//! A short run of every fuzz target's checks on stable Rust, with no fuzzer and no sanitizer:
//! each target's body (`workload_map_fuzz::TARGETS`) over the catalog's files (definitions,
//! the objects of their test cases, the expressions the definitions hold, the quantities the
//! objects request) and over the committed seeds in `fuzz/seeds/<target>/`. `npm test` runs
//! it (`cargo run --manifest-path fuzz/Cargo.toml --example smoke`), so that the harness keeps
//! compiling and its invariants keep holding on real inputs; a broken invariant panics.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;
use workload_map::catalog;

fn main() {
    let started = Instant::now();
    let fuzz = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let repo = fuzz.parent().expect("the repository").to_path_buf();
    let mut inputs: BTreeMap<&str, Vec<Vec<u8>>> = BTreeMap::new();
    let mut add =
        |target: &'static str, data: Vec<u8>| inputs.entry(target).or_default().push(data);

    let entries = catalog::entries();
    for (index, entry) in entries.iter().enumerate() {
        add("definition", entry.text.as_bytes().to_vec());
        add("resolve_definition", entry.text.as_bytes().to_vec());
        let definition = workload_map::yaml::parse_single(entry.text)
            .map(|n| n.to_json())
            .unwrap_or_default();
        let mut expressions = Vec::new();
        collect_expressions(&definition, "", Language::Jq, &mut expressions);
        let objects = case_objects(&repo.join("catalog").join(entry.name).join("tests"));
        assert!(!objects.is_empty(), "{}: no test objects", entry.name);
        for (language, expression) in &expressions {
            let target = match language {
                Language::Jq => "jq",
                Language::Cel => "cel",
            };
            add(target, expression.as_bytes().to_vec());
            // Each expression also on the definition's first test object.
            let mut data = expression.as_bytes().to_vec();
            data.push(0);
            data.extend(serde_json::to_vec(&objects[0]).unwrap_or_default());
            add(target, data);
        }
        for object in &objects {
            let text = serde_json::to_string_pretty(object).unwrap_or_default();
            add("objects", text.as_bytes().to_vec());
            let pick = u8::try_from(index).expect("fewer than 256 catalog entries");
            let mut data = vec![pick];
            data.extend(text.as_bytes());
            add("resolve_object", data);
            let mut quantities = Vec::new();
            collect_quantities(object, false, &mut quantities);
            for q in quantities {
                add("quantity", q.into_bytes());
            }
        }
    }
    for file in files(&repo.join("catalog")) {
        // The case files themselves, as manifest text.
        add("objects", std::fs::read(file).unwrap_or_default());
    }
    for (target, _) in workload_map_fuzz::TARGETS {
        for file in files(&fuzz.join("seeds").join(target)) {
            add(target, std::fs::read(&file).expect("a seed"));
        }
    }

    for (target, run) in workload_map_fuzz::TARGETS {
        let target_started = Instant::now();
        let data = inputs.get(target).map(Vec::as_slice).unwrap_or_default();
        assert!(!data.is_empty(), "no input for the {target} target");
        for input in data {
            run(input);
        }
        println!(
            "{target:>18}: {:>5} inputs checked in {:.1} s",
            data.len(),
            target_started.elapsed().as_secs_f64()
        );
    }
    println!(
        "fuzz smoke run: every target's checks held ({:.1} s)",
        started.elapsed().as_secs_f64()
    );
}

#[derive(Clone, Copy, PartialEq)]
enum Language {
    Jq,
    Cel,
}

/// The expressions of a definition (as JSON): every string under a key naming a path or an
/// expression, and the entries of `groupByKeyPaths` and `filters`, in the language its
/// `byExpression` says.
fn collect_expressions(
    value: &Value,
    key: &str,
    language: Language,
    out: &mut Vec<(Language, String)>,
) {
    match value {
        Value::String(s) => {
            let expression = key.ends_with("Path")
                || key.ends_with("Paths")
                || matches!(key, "path" | "expression" | "filters");
            if expression && !s.trim().is_empty() {
                out.push((language, s.clone()));
            }
        }
        Value::Array(items) => {
            for item in items {
                collect_expressions(item, key, language, out);
            }
        }
        Value::Object(map) => {
            let language = match map.get("language").and_then(Value::as_str) {
                Some("cel") => Language::Cel,
                Some(_) => Language::Jq,
                None => language,
            };
            for (k, v) in map {
                collect_expressions(v, k, language, out);
            }
        }
        _ => {}
    }
}

/// The objects of a catalog test folder's cases (`object:`, and the `related:` objects).
fn case_objects(dir: &Path) -> Vec<Value> {
    let mut out = Vec::new();
    for file in files(dir) {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let Ok(case) = workload_map::yaml::parse_single(&text).map(|n| n.to_json()) else {
            continue;
        };
        if case["object"].is_object() {
            out.push(case["object"].clone());
        }
        if let Some(related) = case["related"].as_array() {
            out.extend(related.iter().filter(|o| o.is_object()).cloned());
        }
    }
    out
}

/// The values under `resources` `requests`/`limits` (and pod `overhead`) of an object.
fn collect_quantities(value: &Value, in_amounts: bool, out: &mut Vec<String>) {
    match value {
        Value::String(s) if in_amounts => out.push(s.clone()),
        Value::Number(n) if in_amounts => out.push(n.to_string()),
        Value::Array(items) => {
            for item in items {
                collect_quantities(item, false, out);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                let amounts =
                    in_amounts || matches!(k.as_str(), "requests" | "limits" | "overhead");
                collect_quantities(v, amounts, out);
            }
        }
        _ => {}
    }
}

/// The files of a folder and its subfolders, sorted; none when it does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(read) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in read.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files(&path));
        } else if path.is_file() {
            out.push(path);
        }
    }
    out.sort();
    out
}

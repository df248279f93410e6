//! `cargo bench`: parsing a manifest versus resolving it with a compiled definition, side by
//! side on the same inputs, for the seed JobSet and every STATE event of every recording in the
//! conformance corpus (one row per recording, summed over its events).
//!
//! A plain harness (medians of repeated runs) keeps the build light; numbers are for
//! comparing stages and catching regressions, not for absolute claims.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;
use workload_map::compile::CompiledDefinition;
use workload_map::object::parse_objects;

fn median(mut f: impl FnMut()) -> Duration {
    // Warm up, then size the batch so one sample takes about 2 ms.
    f();
    let start = Instant::now();
    f();
    let once = start.elapsed().max(Duration::from_nanos(50));
    let batch = (Duration::from_millis(2).as_nanos() / once.as_nanos()).clamp(1, 10_000) as u32;
    let mut samples: Vec<Duration> = (0..15)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..batch {
                f();
            }
            start.elapsed() / batch
        })
        .collect();
    samples.sort();
    samples[samples.len() / 2]
}

/// A small block-YAML writer, so the parse side reads YAML as users write it.
fn to_yaml(value: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                out.push_str(&format!(
                    "{pad}{}:",
                    serde_json::to_string(k).unwrap_or_default()
                ));
                match v {
                    Value::Object(m) if !m.is_empty() => {
                        out.push('\n');
                        to_yaml(v, indent + 2, out);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        to_yaml(v, indent, out);
                    }
                    scalar => out.push_str(&format!(" {scalar}\n")),
                }
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for item in items {
                out.push_str(&format!("{pad}- "));
                match item {
                    Value::Object(m) if !m.is_empty() => {
                        let mut inner = String::new();
                        to_yaml(item, indent + 2, &mut inner);
                        out.push_str(inner.trim_start());
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        to_yaml(item, indent + 2, out);
                    }
                    scalar => out.push_str(&format!("{scalar}\n")),
                }
            }
        }
        scalar => out.push_str(&format!("{pad}{scalar}\n")),
    }
}

struct Case {
    label: String,
    definition: std::rc::Rc<CompiledDefinition>,
    /// One YAML text per event.
    yamls: Vec<String>,
}

fn corpus_cases(dir: &Path) -> Vec<Case> {
    let Ok(text) = std::fs::read_to_string(dir.join("expectations.yaml")) else {
        return Vec::new();
    };
    let expectations = parse_objects(&text)
        .ok()
        .and_then(|mut d| d.pop())
        .unwrap_or_default();
    let mut defs: std::collections::BTreeMap<String, std::rc::Rc<CompiledDefinition>> =
        Default::default();
    let mut cases = Vec::new();
    for rec in expectations["recordings"].as_array().into_iter().flatten() {
        let (Some(file), Some(def)) = (rec["file"].as_str(), rec["definition"].as_str()) else {
            continue;
        };
        let definition = defs
            .entry(def.to_owned())
            .or_insert_with(|| {
                let text = std::fs::read_to_string(dir.join(def)).unwrap_or_default();
                std::rc::Rc::new(CompiledDefinition::from_text(&text))
            })
            .clone();
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            continue;
        };
        let Some(recording) = parse_objects(&text).ok().and_then(|mut d| d.pop()) else {
            continue;
        };
        // Every STATE event of the recording: the whole flow, as a client would see it.
        let yamls: Vec<String> = recording["events"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e["kind"] == "STATE" && e["object"].is_object())
            .map(|e| {
                let mut yaml = String::new();
                to_yaml(&e["object"], 0, &mut yaml);
                yaml
            })
            .collect();
        if !yamls.is_empty() {
            let short = file.rsplit('/').take(2).collect::<Vec<_>>();
            cases.push(Case {
                label: format!(
                    "{}/{}",
                    short.get(1).unwrap_or(&""),
                    short.first().unwrap_or(&"")
                ),
                definition,
                yamls,
            });
        }
    }
    cases
}

fn main() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let seed_text = std::fs::read_to_string(repo.join("tests/fixtures/resolve/seed-jobset.yaml"))
        .expect("seed fixture");
    let seed = parse_objects(&seed_text)
        .expect("seed parses")
        .pop()
        .expect("one document");
    let mut seed_yaml = String::new();
    to_yaml(&seed["object"], 0, &mut seed_yaml);
    let mut cases = vec![Case {
        label: "seed JobSet".to_owned(),
        definition: std::rc::Rc::new(CompiledDefinition::from_json(&seed["definition"])),
        yamls: vec![seed_yaml],
    }];
    let corpus = repo.join("../shared/conformance");
    if corpus.is_dir() {
        cases.extend(corpus_cases(&corpus));
    } else {
        println!(
            "conformance corpus not found at {}: benchmarking the seed only",
            corpus.display()
        );
    }

    println!(
        "{:<58} {:>6} {:>7} {:>11} {:>11} {:>7}",
        "input", "events", "bytes", "parse", "resolve", "ratio"
    );
    let (mut parse_sum, mut resolve_sum, mut events) = (Duration::ZERO, Duration::ZERO, 0);
    for case in &cases {
        let objects: Vec<Value> = case
            .yamls
            .iter()
            .map(|yaml| {
                parse_objects(yaml)
                    .expect("bench input parses")
                    .pop()
                    .expect("object")
            })
            .collect();
        let parse = median(|| {
            for yaml in &case.yamls {
                black_box(parse_objects(black_box(yaml)).ok());
            }
        });
        let resolve = median(|| {
            for object in &objects {
                black_box(case.definition.resolve(black_box(object)));
            }
        });
        parse_sum += parse;
        resolve_sum += resolve;
        events += objects.len();
        println!(
            "{:<58} {:>6} {:>7} {:>9.1}µs {:>9.1}µs {:>7.2}",
            case.label,
            objects.len(),
            case.yamls.iter().map(String::len).sum::<usize>(),
            parse.as_secs_f64() * 1e6,
            resolve.as_secs_f64() * 1e6,
            resolve.as_secs_f64() / parse.as_secs_f64()
        );
    }
    println!(
        "all {} inputs ({events} events): parse {:.1} µs, resolve {:.1} µs, resolve / parse = {:.2}",
        cases.len(),
        parse_sum.as_secs_f64() * 1e6,
        resolve_sum.as_secs_f64() * 1e6,
        resolve_sum.as_secs_f64() / parse_sum.as_secs_f64()
    );
}

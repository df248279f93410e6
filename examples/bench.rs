//! The native side of `npm run bench` (scripts/bench.mjs): the same corpus pass as the Node
//! benchmark, on the same texts, without WebAssembly. Not part of the package.
//!
//! Usage: `cargo run --release --example bench -- CASES.json`, where CASES.json is
//! `{ "definitions": [text, ...], "events": [{ "definition": index, "text": yaml }, ...],
//! "large": { "definition": text, "text": yaml } }` (`large` optional).
//! Prints one JSON line: the median milliseconds of one pass over all events, from parsed
//! objects (`objectsMs`) and from text (`textMs`), the same with plain paths run by jaq
//! (`objectsMsWithoutFastPaths`, `textMsWithoutFastPaths`), the pass from objects with jq
//! given the whole input instead of the parts each expression reads
//! (`objectsMsWholeInput`), the large object's resolve both ways (`largeMs`,
//! `largeMsWholeInput`), and how many passes were timed.

use std::time::{Duration, Instant};

use serde_json::Value;
use workload_map::object::read_objects;
use workload_map::CompiledDefinition;

/// Times `pass` until about `budget` has gone by (at least 5 runs, at most 200); the median.
fn median_ms(budget: Duration, mut pass: impl FnMut()) -> (f64, usize) {
    pass();
    let started = Instant::now();
    let mut samples = Vec::new();
    while samples.len() < 5 || (started.elapsed() < budget && samples.len() < 200) {
        let start = Instant::now();
        pass();
        samples.push(start.elapsed().as_secs_f64() * 1e3);
    }
    samples.sort_by(f64::total_cmp);
    (samples[samples.len() / 2], samples.len())
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: bench CASES.json");
        std::process::exit(2);
    };
    let cases: Value = match std::fs::read_to_string(&path)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
    {
        Ok(cases) => cases,
        Err(problem) => {
            eprintln!("bench: cannot read {path}: {problem}");
            std::process::exit(2);
        }
    };
    let definitions: Vec<CompiledDefinition> = cases["definitions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|text| CompiledDefinition::from_text(text.as_str().unwrap_or_default()))
        .collect();
    let events: Vec<(&CompiledDefinition, &str, Value)> = cases["events"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|event| {
            let definition = definitions.get(event["definition"].as_u64()? as usize)?;
            let text = event["text"].as_str()?;
            let object = read_objects(text).objects.pop()?.0;
            Some((definition, text, object))
        })
        .collect();

    let budget = Duration::from_millis(1500);
    let pass = |budget| {
        let objects = median_ms(budget, || {
            for (definition, _, object) in &events {
                std::hint::black_box(definition.resolve(object));
            }
        });
        let text = median_ms(budget, || {
            for (definition, text, _) in &events {
                std::hint::black_box(definition.resolve_text(text));
            }
        });
        (objects, text)
    };
    // WM_BENCH_FAST_PATHS=on or off times only that setting (for profiling one of them), and
    // gives its times for both.
    let only = std::env::var("WM_BENCH_FAST_PATHS").ok();
    workload_map::expr::jq::set_fast_paths(only.as_deref() != Some("off"));
    let ((objects_ms, object_passes), (text_ms, text_passes)) = pass(budget);
    // The lever of plain paths (src/expr/jq/fast.rs): the same passes with every expression
    // run by jaq.
    let ((objects_jaq_ms, _), (text_jaq_ms, _)) = if only.is_some() {
        ((objects_ms, 0), (text_ms, 0))
    } else {
        workload_map::expr::jq::set_fast_paths(false);
        let jaq = pass(budget);
        workload_map::expr::jq::set_fast_paths(true);
        jaq
    };
    // The lever of one value tree (src/expr/jq/project.rs): jq given the whole input.
    let whole_input = |budget| {
        workload_map::expr::jq::set_projections(false);
        let (ms, _) = median_ms(budget, || {
            for (definition, _, object) in &events {
                std::hint::black_box(definition.resolve(object));
            }
        });
        workload_map::expr::jq::set_projections(true);
        ms
    };
    let objects_whole_ms = if only.is_some() {
        objects_ms
    } else {
        whole_input(budget)
    };
    // One large object (a JobSet of a thousand replicated jobs), both ways.
    let large = cases["large"]["text"].as_str().and_then(|text| {
        let definition = CompiledDefinition::from_text(cases["large"]["definition"].as_str()?);
        let object = read_objects(text).objects.pop()?.0;
        let time = |projections| {
            workload_map::expr::jq::set_projections(projections);
            let (ms, _) = median_ms(budget, || {
                std::hint::black_box(definition.resolve(&object));
            });
            workload_map::expr::jq::set_projections(true);
            ms
        };
        Some((time(true), time(false)))
    });
    println!(
        "{}",
        serde_json::json!({
            "events": events.len(),
            "objectsMs": objects_ms,
            "textMs": text_ms,
            "objectsMsWithoutFastPaths": objects_jaq_ms,
            "textMsWithoutFastPaths": text_jaq_ms,
            "objectsMsWholeInput": objects_whole_ms,
            "largeMs": large.map(|l| l.0),
            "largeMsWholeInput": large.map(|l| l.1),
            "passes": object_passes.min(text_passes),
        })
    );
}

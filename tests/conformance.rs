//! Conformance: replay upstream's recordings through upstream's own definitions.
//!
//! For every recording listed in `../shared/conformance/expectations.yaml`, every STATE event's
//! object is resolved with the definition the expectations name; the recorded `state` must be
//! among our matched phases (upstream's replay test asserts exactly this containment). We also
//! count how many events match the recorded `phases` list exactly and print it.
//!
//! The corpus is read in place and never copied. When it is absent this test says so and
//! passes (our own fixtures in `resolve.rs` still run).

mod common;

use std::collections::BTreeMap;

use serde_json::Value;
use workload_map::compile::CompiledDefinition;

/// Events that the stored definitions cannot reproduce, with today's result asserted
/// explicitly. Key: (recording file relative to the corpus, event index).
///
/// - JobSet (`real-data/jobset/v0.12.0/*`): recorded with a definition version that is not
///   stored (INDEX.md, "Known inconsistencies"): its `running` matched
///   `any(.active > 0 or .ready > 0)`, the stored one needs `.ready > 0 and .active > 0`.
/// - LLMInferenceService v1alpha2 (`test/e2e/recorded_data/kserve/v0.20.0/*`): the newest
///   upstream definition (not stored) maps `Ready=False, reason=Stopped` to Suspended and a
///   failed preset to Failed; the stored 5fce966 version does neither.
const UNREPRODUCIBLE: &[(&str, usize, &[&str], &str)] = &[
    (
        "recordings/real-data/jobset/v0.12.0/jobset-x-k8s-io-jobset-v1alpha2/completed.yaml",
        1,
        &["Initializing"],
        JOBSET,
    ),
    (
        "recordings/real-data/jobset/v0.12.0/jobset-x-k8s-io-jobset-v1alpha2/completed.yaml",
        3,
        &["Initializing"],
        JOBSET,
    ),
    (
        "recordings/real-data/jobset/v0.12.0/jobset-x-k8s-io-jobset-v1alpha2/completed.yaml",
        4,
        &["Undefined"],
        JOBSET,
    ),
    (
        "recordings/real-data/jobset/v0.12.0/jobset-x-k8s-io-jobset-v1alpha2/failed.yaml",
        1,
        &["Initializing"],
        JOBSET,
    ),
    (
        "recordings/real-data/jobset/v0.12.0/jobset-x-k8s-io-jobset-v1alpha2/failed.yaml",
        3,
        &["Initializing"],
        JOBSET,
    ),
    (
        "recordings/real-data/jobset/v0.12.0/jobset-x-k8s-io-jobset-v1alpha2/resumed.yaml",
        6,
        &["Initializing"],
        JOBSET,
    ),
    (
        "recordings/real-data/jobset/v0.12.0/jobset-x-k8s-io-jobset-v1alpha2/running.yaml",
        1,
        &["Initializing"],
        JOBSET,
    ),
    (
        "recordings/test/e2e/recorded_data/kserve/v0.20.0/serving-kserve-io-llminferenceservice-v1alpha2/missing-preset.yaml",
        1,
        &["Initializing"],
        LLMIS_PRESET,
    ),
    (
        "recordings/test/e2e/recorded_data/kserve/v0.20.0/serving-kserve-io-llminferenceservice-v1alpha2/stopped.yaml",
        6,
        &["Failed"],
        LLMIS_STOPPED,
    ),
];

const JOBSET: &str =
    "recorded with an unstored JobSet definition whose running matched active or ready";
const LLMIS_PRESET: &str =
    "the newest LLMInferenceService definition (not stored) maps a failed preset to Failed";
const LLMIS_STOPPED: &str = "the newest LLMInferenceService definition (not stored) maps Ready=False reason Stopped to Suspended";

#[derive(Default)]
struct Tally {
    events: usize,
    contained: usize,
    exact: usize,
    known: usize,
}

#[test]
fn recorded_states_are_among_matched_phases() {
    let Some(dir) = common::conformance_dir() else {
        return;
    };
    let expectations = common::read_yaml(&dir.join("expectations.yaml"));
    let recordings = expectations["recordings"]
        .as_array()
        .expect("recordings list");
    let mut definitions: BTreeMap<String, CompiledDefinition> = BTreeMap::new();
    let mut per_kind: BTreeMap<String, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut unexpected_known = Vec::new();
    let mut notes = Vec::new();

    for rec in recordings {
        let file = rec["file"].as_str().expect("file");
        let def_path = rec["definition"].as_str().expect("definition");
        let definition = definitions.entry(def_path.to_owned()).or_insert_with(|| {
            let text = std::fs::read_to_string(dir.join(def_path)).expect("definition file");
            let d = CompiledDefinition::from_text(&text);
            assert!(d.is_valid(), "{def_path}: {:#?}", d.diagnostics());
            d
        });
        let recording = common::read_yaml(&dir.join(file));
        let tally = per_kind
            .entry(format!(
                "{} {}",
                rec["apiVersion"].as_str().unwrap_or(""),
                rec["kind"].as_str().unwrap_or("")
            ))
            .or_default();
        for (index, event) in recording["events"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            if event["kind"] != "STATE" {
                continue;
            }
            tally.events += 1;
            let view = definition.resolve(&event["object"]);
            let phases: Vec<&str> = view.phases.iter().map(|p| p.as_str()).collect();
            let state = event["state"].as_str().unwrap_or("Undefined");
            let recorded: Vec<&str> = event["phases"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if phases == recorded {
                tally.exact += 1;
            }
            for d in view.diagnostics.iter().filter(|d| d.is_error()) {
                notes.push(format!(
                    "{file} event {index}: {} {} ({})",
                    d.code, d.message, d.path
                ));
            }
            if let Some((_, _, today, why)) = UNREPRODUCIBLE
                .iter()
                .find(|(f, i, _, _)| *f == file && *i == index)
            {
                tally.known += 1;
                assert_eq!(
                    &phases, today,
                    "{file} event {index}: today's result changed ({why})"
                );
                if phases.contains(&state) {
                    unexpected_known.push(format!("{file} event {index} now contains {state}"));
                }
                continue;
            }
            if phases.contains(&state) {
                tally.contained += 1;
            } else {
                failures.push(format!(
                    "{file} event {index}: recorded state {state}, matched {phases:?} (recorded list {recorded:?})"
                ));
            }
        }
    }

    for note in &notes {
        println!("error diagnostic: {note}");
    }
    println!(
        "{:<55} {:>6} {:>9} {:>6} {:>7}",
        "type", "events", "contained", "exact", "known"
    );
    let mut total = Tally::default();
    for (kind, t) in &per_kind {
        println!(
            "{kind:<55} {:>6} {:>9} {:>6} {:>7}",
            t.events, t.contained, t.exact, t.known
        );
        total.events += t.events;
        total.contained += t.contained;
        total.exact += t.exact;
        total.known += t.known;
    }
    println!(
        "{:<55} {:>6} {:>9} {:>6} {:>7}",
        "TOTAL", total.events, total.contained, total.exact, total.known
    );
    println!(
        "exact phase-list matches: {} of {} events; recorded state contained in {} (+{} documented unreproducible)",
        total.exact, total.events, total.contained, total.known
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        unexpected_known.is_empty(),
        "update UNREPRODUCIBLE: {unexpected_known:#?}"
    );
    assert!(total.events > 0, "no events replayed");
}

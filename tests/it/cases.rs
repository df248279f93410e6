//! The case runner (`src/cases.rs`) on its own inputs: malformed cases give located
//! diagnostics and run nothing; a failed expectation carries the expected and the actual value
//! and where it was written; a case whose object is a List reads the same as one with
//! `related:`. The catalog's own cases run through it in `tests/it/catalog.rs`.

use crate::common;

use serde_json::Value;
use workload_map::cases::{run_case, CaseOutcome};
use workload_map::catalog;
use workload_map::compile::CompiledDefinition;
use workload_map::diagnostic::{ColumnUnit, LineIndex, Source};

const JOB: &str = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: train, namespace: ml}\nspec:\n  parallelism: 2\n  completions: 2\n  template: {spec: {containers: [{name: m, resources: {limits: {nvidia.com/gpu: 2}}}]}}\nstatus: {active: 2, ready: 2}\n";

/// Runs `case` (YAML text) with the catalog's Job definition; `running.yaml` is the one other
/// case file of its folder.
fn run(case: &str) -> CaseOutcome {
    let entry = catalog::entries()
        .iter()
        .find(|e| e.name == "batch-job-v1")
        .expect("the catalog has batch-job-v1");
    let definition = CompiledDefinition::from_text(entry.text);
    let running = format!(
        "description: running\nobject:\n{}expect: {{phases: [Running]}}\n",
        indent(JOB)
    );
    run_case(&definition, case, &|name| {
        (name == "running.yaml").then(|| running.clone())
    })
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}

fn with_object(rest: &str) -> String {
    format!("description: d\nobject:\n{}{rest}", indent(JOB))
}

/// The case's diagnostics as `code line:column`, located in `text`.
fn located(outcome: &CaseOutcome, text: &str) -> Vec<String> {
    let lines = LineIndex::new(text);
    outcome
        .diagnostics
        .iter()
        .map(|d| {
            assert_eq!(d.source, Source::Case, "{d:?}");
            let at = d
                .range
                .map(|r| lines.line_col(text, r.start, ColumnUnit::Char));
            format!(
                "{} {}",
                d.code,
                at.map(|p| format!("{}:{}", p.line, p.column))
                    .unwrap_or_default()
            )
        })
        .collect()
}

/// A malformed case: not passed, nothing compared, these diagnostics at these places.
fn malformed(text: &str, want: &[&str]) {
    let outcome = run(text);
    assert!(!outcome.passed && outcome.is_malformed(), "{outcome:#?}");
    assert!(outcome.expectations.is_empty(), "{outcome:#?}");
    assert_eq!(located(&outcome, text), want, "{text}");
}

#[test]
fn a_passing_case_compares_every_expectation_it_writes() {
    let outcome = run(&with_object("expect:\n  phases: [Running]\n  resources: {gpus: 4}\n  components:\n  - {path: job, desired: 2, podGpus: 2}\n"));
    assert!(outcome.passed, "{outcome:#?}");
    let labels: Vec<&str> = outcome
        .expectations
        .iter()
        .map(|e| e.label.as_str())
        .collect();
    assert_eq!(
        labels,
        [
            "phases",
            "resources.gpus",
            "component job: desired",
            "component job: podGpus"
        ]
    );
}

#[test]
fn a_failed_expectation_has_expected_actual_path_and_the_line_it_was_written_on() {
    let text = with_object("expect:\n  phases: [Running]\n  resources: {gpus: 5}\n");
    let outcome = run(&text);
    assert!(!outcome.passed && !outcome.is_malformed());
    let failed: Vec<_> = outcome.failures().collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(
        (
            failed[0].path.as_str(),
            &failed[0].expected,
            &failed[0].actual
        ),
        ("expect.resources.gpus", &Value::from(5), &Value::from(4))
    );
    let at = LineIndex::new(&text).line_col(
        &text,
        failed[0].range.expect("a range").start,
        ColumnUnit::Char,
    );
    assert_eq!((at.line, at.column), (13, 21));
}

#[test]
fn a_component_not_found_fails_and_names_the_paths_the_tree_has() {
    let outcome = run(&with_object(
        "expect:\n  components:\n  - {path: job/worker, desired: 2}\n",
    ));
    let failed: Vec<_> = outcome.failures().collect();
    assert_eq!(failed.len(), 1, "{outcome:#?}");
    assert_eq!(failed[0].path, "expect.components[0].path");
    assert!(
        failed[0]
            .note
            .as_deref()
            .unwrap_or_default()
            .ends_with("the tree has: job"),
        "{:?}",
        failed[0].note
    );
}

#[test]
fn an_action_case_compares_patch_and_diagnostics_even_when_diagnostics_are_not_written() {
    let outcome = run("description: d\naction: suspend\nobjectFrom: running.yaml\nexpect:\n  patch: [{op: add, path: /spec/suspend, value: true}]\n");
    assert!(outcome.passed, "{outcome:#?}");
    let labels: Vec<&str> = outcome
        .expectations
        .iter()
        .map(|e| e.label.as_str())
        .collect();
    assert_eq!(labels, ["patch", "edit diagnostics"]);
}

#[test]
fn a_case_that_is_not_yaml_is_located() {
    malformed(
        "description: d\nobject: {a: [1, 2}\n",
        &["syntax/invalid 2:18"],
    );
}

#[test]
fn an_unknown_key_is_an_error_at_the_key_not_an_unchecked_expectation() {
    malformed(
        &with_object("expect:\n  phase: [Running]\n"),
        &["case/unknown-field 12:3"],
    );
    malformed(
        &with_object("expect:\n  components:\n  - {path: job, gpu: 4}\n"),
        &["case/unknown-field 13:17"],
    );
    malformed(
        &with_object("expect: {phases: [Running]}\nexpected: {}\n"),
        &["case/unknown-field 12:1"],
    );
}

#[test]
fn wrong_shapes_are_errors_where_they_are_written() {
    malformed(
        &with_object("expect:\n  components: {path: job}\n"),
        &["case/invalid 12:15"],
    );
    malformed(
        &with_object("expect:\n  components:\n  - {desired: 2}\n"),
        &["case/invalid 13:5"],
    );
    malformed(
        &with_object("expect: {phases: [Running]}\nrelated: {}\n"),
        &["case/invalid 12:10"],
    );
    malformed(
        "description: d\naction: pause\nobjectFrom: running.yaml\nexpect: {patch: []}\n",
        &["case/invalid 2:9"],
    );
    malformed("- a list\n", &["case/invalid 1:1"]);
}

#[test]
fn missing_parts_are_errors() {
    malformed(
        "description: d\nexpect: {phases: [Running]}\n",
        &["case/missing-field 1:1"],
    );
    malformed(&with_object(""), &["case/missing-field 1:1"]);
    malformed(
        "description: d\naction: resume\nobjectFrom: running.yaml\nexpect: {diagnostics: []}\n",
        &["case/missing-field 4:9"],
    );
}

#[test]
fn object_from_must_name_a_case_file_of_the_folder_with_an_object() {
    malformed(
        "objectFrom: stopped.yaml\nexpect: {phases: [Running]}\n",
        &["case/object-from 1:13"],
    );
    malformed(
        "objectFrom: ../x/running.yaml\nexpect: {phases: [Running]}\n",
        &["case/object-from 1:13"],
    );
    malformed(
        &format!(
            "objectFrom: running.yaml\n{}",
            with_object("expect: {phases: [Running]}\n")
        ),
        &["case/invalid 1:13"],
    );
}

/// Every catalog case with `related:` objects gives the same result written as one List
/// (the workload and its related objects), as `kubectl get ... -o yaml` returns them.
#[test]
fn a_list_object_reads_as_the_workload_with_its_related_objects() {
    let mut checked = 0;
    for entry in catalog::entries() {
        let definition = CompiledDefinition::from_text(entry.text);
        let folder = common::repo()
            .join("catalog")
            .join(entry.name)
            .join("tests");
        for file in common::yaml_files(&folder) {
            let mut case = common::read_yaml(&file);
            let Some(related) = case.get("related").and_then(Value::as_array).cloned() else {
                continue;
            };
            let object = match case["objectFrom"].as_str() {
                Some(from) => common::read_yaml(&folder.join(from))["object"].clone(),
                None => case["object"].clone(),
            };
            let map = case.as_object_mut().expect("a case is a mapping");
            map.remove("related");
            map.remove("objectFrom");
            let items: Vec<Value> = [object].into_iter().chain(related).collect();
            map.insert(
                "object".into(),
                serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items}),
            );
            let text = serde_json::to_string(&case).unwrap_or_default();
            let outcome = run_case(&definition, &text, &|_| None);
            assert!(outcome.passed, "{}: {outcome:#?}", file.display());
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} cases with related objects");
}

//! Many workloads at once (`batch::resolve_all`): which objects of a List are workloads, the
//! catalog definition each is read with, and the List's pods shared out among them.
//!
//! Two kinds of cases: `tests/fixtures/batch/*.yaml` (`objects`, optional `related` objects
//! given apart, and `expect`: one entry per workload, in order, with its index, catalog
//! definition (or null), the codes of its own diagnostics and an optional `view:` block checked
//! as in `tests/README.md`; and `unowned`: each object that belongs to no workload, as
//! `{index, code}`, in order), and every
//! catalog `pods.yaml` case put into ONE List together: each workload's view must be the view
//! that resolving it alone with its own related objects gives.

use crate::common;

use std::path::Path;

use serde_json::Value;
use workload_map::batch::{resolve_all, Batch};

/// The helper: resolves a case's objects and describes each result as the fixtures write it.
fn resolve_case(case: &Value) -> Batch {
    let objects = case["objects"].as_array().cloned().unwrap_or_default();
    let related = case.get("related").and_then(Value::as_array).cloned();
    resolve_all(&objects, related.as_deref())
}

fn run_fixture(path: &Path) -> Vec<String> {
    let case = common::read_yaml(path);
    let batch = resolve_case(&case);
    let results = &batch.workloads;
    let expect = case["expect"].as_array().cloned().unwrap_or_default();
    let mut problems = Vec::new();
    let unowned: Vec<Value> = batch
        .unowned
        .iter()
        .map(|u| serde_json::json!({"index": u.index, "code": u.diagnostic.code}))
        .collect();
    let want_unowned = case["unowned"].as_array().cloned().unwrap_or_default();
    if unowned != want_unowned {
        problems.push(format!(
            "unowned {}, expected {}",
            Value::Array(unowned),
            Value::Array(want_unowned)
        ));
    }
    if results.len() != expect.len() {
        let got: Vec<usize> = results.iter().map(|r| r.index).collect();
        problems.push(format!(
            "expected {} workloads, got {} (indices {got:?})",
            expect.len(),
            results.len()
        ));
        return problems;
    }
    for (result, want) in results.iter().zip(&expect) {
        let at = format!("workload {}", result.index);
        if want["index"].as_u64() != Some(result.index as u64) {
            problems.push(format!("{at}: expected index {}", want["index"]));
        }
        let definition = result.definition.map(|l| l.entry.name);
        if want["definition"].as_str() != definition {
            problems.push(format!(
                "{at}: definition {definition:?}, expected {}",
                want["definition"]
            ));
        }
        let codes: Vec<&str> = result.diagnostics.iter().map(|d| d.code).collect();
        let want_codes: Vec<&str> = want["diagnostics"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if codes != want_codes {
            problems.push(format!(
                "{at}: diagnostics {codes:?}, expected {want_codes:?}"
            ));
        }
        match (&result.view, want.get("view")) {
            (Some(view), Some(block)) => problems.extend(
                common::check(view, block)
                    .into_iter()
                    .map(|p| format!("{at}: {p}")),
            ),
            (None, Some(_)) => problems.push(format!("{at}: no view")),
            (Some(_), None) if definition.is_none() => {
                problems.push(format!("{at}: a view without a definition"))
            }
            _ => {}
        }
    }
    problems
}

#[test]
fn every_batch_fixture_gives_its_expected_workloads() {
    common::check_fixture_folder("batch", 6, run_fixture);
}

/// The view of a workload resolved alone with `related`, as JSON without the pods summary (in
/// one List a workload is not given the other workloads' pods, so it does not list them as
/// unattributed; everything else must be the same).
fn comparable(view: &workload_map::View) -> Value {
    let mut json = serde_json::to_value(view).expect("views serialise");
    if let Some(pods) = json.get_mut("pods").and_then(Value::as_object_mut) {
        pods.remove("unattributed");
        pods.remove("total");
    }
    json
}

#[test]
fn every_catalog_pods_case_in_one_list_resolves_as_it_does_alone() {
    let mut objects = Vec::new();
    let mut cases = Vec::new();
    for entry in workload_map::catalog::entries() {
        let dir = common::repo()
            .join("catalog")
            .join(entry.name)
            .join("tests");
        let path = dir.join("pods.yaml");
        if !path.exists() {
            continue;
        }
        let case = common::read_yaml(&path);
        let object = match case["objectFrom"].as_str() {
            Some(file) => common::read_yaml(&dir.join(file))["object"].clone(),
            None => case["object"].clone(),
        };
        let related = case["related"].as_array().cloned().unwrap_or_default();
        // Each case in a namespace of its own, so owners named alike in two cases stay apart.
        let in_namespace = |mut o: Value| {
            if let Some(meta) = o.get_mut("metadata").and_then(Value::as_object_mut) {
                let ns = meta
                    .get("namespace")
                    .and_then(Value::as_str)
                    .unwrap_or("default");
                meta.insert(
                    "namespace".into(),
                    Value::String(format!("{}-{ns}", entry.name)),
                );
            }
            o
        };
        let object = in_namespace(object);
        let related: Vec<Value> = related.into_iter().map(in_namespace).collect();
        let compiled = workload_map::CompiledDefinition::from_text(entry.text);
        let alone = compiled.resolve_related(
            object.clone(),
            Some(&workload_map::Related::from_objects(related.clone())),
        );
        cases.push((entry.name, objects.len(), alone));
        objects.push(object);
        objects.extend(related);
    }
    assert!(
        cases.len() >= 20,
        "expected the catalog's pods cases, found {}",
        cases.len()
    );
    let batch = resolve_all(&objects, None);
    let mut failures = Vec::new();
    for (name, index, alone) in &cases {
        let Some(result) = batch.workloads.iter().find(|r| r.index == *index) else {
            failures.push(format!("{name}: the workload is not among the results"));
            continue;
        };
        if result.definition.map(|l| l.entry.name) != Some(*name) {
            failures.push(format!(
                "{name}: read with {:?}",
                result.definition.map(|l| l.entry.name)
            ));
            continue;
        }
        let view = result.view.as_ref().expect("a catalog workload has a view");
        if comparable(view) != comparable(alone) {
            failures.push(format!(
                "{name}: in one List\n  {}\nalone\n  {}",
                comparable(view),
                comparable(alone)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

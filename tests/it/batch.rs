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

/// Every catalog `pods.yaml` case in one List: the objects, and per case its entry name, the
/// workload's index and its view resolved alone.
fn catalog_list() -> (Vec<Value>, Vec<(&'static str, usize, workload_map::View)>) {
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
    (objects, cases)
}

#[test]
fn every_catalog_pods_case_in_one_list_resolves_as_it_does_alone() {
    let (objects, cases) = catalog_list();
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

/// A batch as JSON, for comparing two of them whole.
fn whole(batch: &Batch) -> Value {
    let workloads: Vec<Value> = batch
        .workloads
        .iter()
        .map(|r| {
            serde_json::json!({
                "index": r.index,
                "definition": r.definition.map(|l| l.entry.name),
                "view": r.view.as_deref(),
                "diagnostics": r.diagnostics,
            })
        })
        .collect();
    let unowned: Vec<Value> = batch
        .unowned
        .iter()
        .map(|u| serde_json::json!({"index": u.index, "diagnostic": u.diagnostic}))
        .collect();
    serde_json::json!({"workloads": workloads, "unowned": unowned})
}

/// Changes an object the way the API server would see a change: a label, and a new
/// `resourceVersion` when it has one (an object without one counts by its content).
fn touch(object: &mut Value, what: &str) {
    let meta = object["metadata"]
        .as_object_mut()
        .expect("objects have metadata");
    if let Some(Value::String(version)) = meta.get_mut("resourceVersion") {
        version.push_str("-2");
    }
    let labels = meta
        .entry("labels")
        .or_insert_with(|| serde_json::json!({}));
    labels["refreshed"] = Value::String(what.to_owned());
}

#[test]
fn a_refresh_resolves_only_what_changed_and_equals_a_full_resolve() {
    use workload_map::batch::{resolve_all_with, CompiledCatalog};
    let (mut objects, cases) = catalog_list();
    let mut cache = CompiledCatalog::default();
    let first = resolve_all_with(&objects, None, &mut cache);
    let with_views = first.workloads.iter().filter(|r| r.view.is_some()).count();
    assert_eq!(cache.computed_views(), with_views);

    // The same List again: nothing is resolved, and the answer is the same.
    let again = resolve_all_with(&objects, None, &mut cache);
    assert_eq!(cache.computed_views(), 0);
    assert_eq!(whole(&again), whole(&first));

    // Change every third case: its workload, or one of its pods (a phase that changes the
    // view), or drop its last related object; the others stay as they were.
    let (mut changed, mut direct) = (0, 0);
    let mut removed = Vec::new();
    for (n, (name, index, _)) in cases.iter().enumerate().filter(|(n, _)| n % 3 == 0) {
        let next = cases.get(n + 1).map_or(objects.len(), |c| c.1);
        match n % 9 {
            0 => {
                touch(&mut objects[*index], name);
                direct += 1;
            }
            3 if next > index + 1 => {
                let pod = objects[index + 1..next]
                    .iter()
                    .position(|o| o["kind"] == "Pod")
                    .map(|p| index + 1 + p);
                let Some(pod) = pod else { continue };
                touch(&mut objects[pod], name);
                objects[pod]["status"]["phase"] = Value::String("Failed".into());
            }
            6 if next > index + 1 => removed.push(next - 1),
            _ => continue,
        }
        changed += 1;
    }
    for i in removed.iter().rev() {
        objects.remove(*i);
    }
    assert!(changed >= 5, "only {changed} cases changed");
    let refreshed = resolve_all_with(&objects, None, &mut cache);
    // A changed pod or object that belongs to no workload (no controller chain to it) changes
    // no view: between the workloads changed directly and every case touched.
    let computed = cache.computed_views();
    assert!(
        direct <= computed && computed <= changed && direct > 0,
        "a refresh resolves the changed workloads only: {computed} resolved, {direct} workloads \
         and {changed} cases changed"
    );
    // Only the workloads changed directly are evaluated again: the others whose pods changed
    // or went have their kept phases, status and role tree, with their pods placed again.
    assert_eq!(cache.computed_parts(), direct);
    let full = resolve_all_with(&objects, None, &mut CompiledCatalog::default());
    assert_eq!(whole(&refreshed), whole(&full));
    assert_ne!(whole(&refreshed), whole(&first));
}

#[test]
fn a_kept_refresh_sends_only_the_changed_objects_and_equals_a_full_resolve() {
    use workload_map::batch::{resolve_all_with, resolve_catalog_kept, CompiledCatalog};
    let (objects, cases) = catalog_list();
    let mut cache = CompiledCatalog::default();
    let (first, token) = resolve_catalog_kept(objects.clone(), None, &mut cache);
    assert_eq!(cache.kept_objects(), &objects[..]);
    let parts = cache.kept_parts();
    assert!(parts > 0 && parts <= first.workloads.len());

    // Nothing changed: nothing is resolved again.
    let none = cache.refresh(token, Vec::new()).expect("a refresh");
    assert!(none.workloads.is_empty());
    assert_eq!(cache.computed_views(), 0);

    // Change a workload in every fourth case, and a pod in the others' every fourth.
    let mut current = objects.clone();
    let mut changes = Vec::new();
    let mut direct = 0;
    for (n, (name, index, _)) in cases.iter().enumerate() {
        let at = match n % 4 {
            0 => *index,
            2 => match current[index + 1..]
                .iter()
                .take_while(|o| o["kind"] != current[*index]["kind"])
                .position(|o| o["kind"] == "Pod")
            {
                Some(p) => index + 1 + p,
                None => continue,
            },
            _ => continue,
        };
        touch(&mut current[at], name);
        if current[at]["kind"] == "Pod" {
            current[at]["status"]["phase"] = Value::String("Failed".into());
        }
        // A workload object (a bare pod can be one), not a pod of a workload.
        if cases.iter().any(|(_, index, _)| *index == at) {
            direct += 1;
        }
        changes.push((at, current[at].clone()));
    }
    assert!(changes.len() >= 5, "only {} objects changed", changes.len());
    let mut patched = whole(&first);
    let refreshed = cache.refresh(none.token, changes).expect("a refresh");
    assert!(!refreshed.workloads.is_empty());
    assert!(refreshed.workloads.len() < first.workloads.len());
    // Workloads whose pod changed have only their pods placed again; the changed workload
    // objects are evaluated again, and their old parts make way for the new ones.
    assert!(direct > 0 && refreshed.workloads.len() > direct);
    assert_eq!(cache.computed_parts(), direct);
    assert_eq!(cache.kept_parts(), parts);
    for (position, result) in &refreshed.workloads {
        patched["workloads"][*position] = serde_json::json!({
            "index": result.index,
            "definition": result.definition.map(|l| l.entry.name),
            "view": result.view.as_deref(),
            "diagnostics": result.diagnostics,
        });
    }
    let full = resolve_all_with(&current, None, &mut CompiledCatalog::default());
    assert_eq!(patched, whole(&full));
    assert_eq!(cache.kept_objects(), &current[..]);

    // An old token is no refresh, and drops what was kept.
    assert!(cache.refresh(token, Vec::new()).is_none());
    assert!(cache.kept_objects().is_empty());

    // A change the reading sees (a pod given another owner) is no refresh either.
    let (_, token) = resolve_catalog_kept(current.clone(), None, &mut cache);
    let pod = current
        .iter()
        .position(|o| o["kind"] == "Pod" && o["metadata"]["ownerReferences"].is_array())
        .expect("a pod with an owner");
    let mut moved = current[pod].clone();
    moved["metadata"]["ownerReferences"][0]["uid"] = Value::String("another".into());
    assert!(cache.refresh(token, vec![(pod, moved)]).is_none());
    // An index past the objects neither.
    let (_, token) = resolve_catalog_kept(current.clone(), None, &mut cache);
    assert!(cache
        .refresh(token, vec![(current.len(), current[0].clone())])
        .is_none());
}

//! Edits, data-driven: every `tests/fixtures/edit/*.yaml` case names a definition (`catalog:`
//! an entry's name, or an inline `definition:`), an `object`, an `edit` (`{action: suspend}`,
//! `{action: resume}` or `{action: editPodSpec, component, instance?, merge}`) and expects:
//!
//! ```yaml
//! expect:
//!   patch: [{op: replace, path: /spec/suspend, value: true}]   # exact RFC 6902 operations
//!   diagnostics: [edit/no-change]                              # exact codes of the edit, in order
//!   definitionDiagnostics: [definition/path-not-writable]      # optional: the definition's codes
//! ```
//!
//! Every case also checks the contract: applying the patch (RFC 6902, applied here
//! independently) to the input gives the returned object, and a refused edit returns the input
//! unchanged with an empty patch.

use crate::common;

use serde_json::Value;
use workload_map::catalog;
use workload_map::compile::CompiledDefinition;
use workload_map::edit::{Edit, PodSpecEdit};

/// Runs one case file; returns one line per mismatch.
fn run_case(path: &std::path::Path) -> Vec<String> {
    let case = common::read_yaml(path);
    let definition = match case["catalog"].as_str() {
        Some(name) => {
            let entry = catalog::entries().iter().find(|e| e.name == name);
            match entry {
                Some(e) => CompiledDefinition::from_text(e.text),
                None => return vec![format!("no catalog entry {name}")],
            }
        }
        None => CompiledDefinition::from_json(&case["definition"]),
    };
    let object = &case["object"];
    let edit = &case["edit"];
    let result = match edit["action"].as_str() {
        Some("suspend") => definition.suspend(object),
        Some("resume") => definition.resume(object),
        Some("editPodSpec") => definition.edit_pod_spec(
            object,
            &PodSpecEdit {
                component: edit["component"].as_str().unwrap_or_default(),
                instance: edit["instance"].as_str(),
                merge: &edit["merge"],
            },
        ),
        other => return vec![format!("unknown edit action {other:?}")],
    };
    let mut problems = contract(object, &result);
    let expect = &case["expect"];
    let patch = serde_json::to_value(&result.patch).unwrap_or_default();
    if expect["patch"] != patch {
        problems.push(format!("patch: expected {}, got {patch}", expect["patch"]));
    }
    let codes = |ds: &[workload_map::diagnostic::Diagnostic]| -> Value {
        ds.iter().map(|d| Value::from(d.code)).collect()
    };
    let got = codes(&result.diagnostics);
    if expect["diagnostics"] != got {
        problems.push(format!(
            "diagnostics: expected {}, got {got}: {:?}",
            expect["diagnostics"],
            result
                .diagnostics
                .iter()
                .map(|d| &d.message)
                .collect::<Vec<_>>()
        ));
    }
    if let Some(want) = expect.get("definitionDiagnostics") {
        let got = codes(definition.diagnostics());
        if *want != got {
            problems.push(format!(
                "definition diagnostics: expected {want}, got {got}"
            ));
        }
    }
    problems
}

/// The patch turns the input into the object; a refused edit changes nothing.
fn contract(input: &Value, result: &Edit) -> Vec<String> {
    let mut problems = Vec::new();
    match common::apply_patch(
        input,
        &serde_json::to_value(&result.patch).unwrap_or_default(),
    ) {
        Ok(patched) if patched == result.object => {}
        Ok(patched) => problems.push(format!(
            "applying the patch gives {patched}, not the returned object {}",
            result.object
        )),
        Err(e) => problems.push(format!("the patch does not apply: {e}")),
    }
    if !result.applied() && (&result.object != input || !result.patch.is_empty()) {
        problems.push("a refused edit changed the object".to_owned());
    }
    problems
}

#[test]
fn every_edit_fixture_gives_its_expected_patch() {
    common::check_fixture_folder("edit", 10, run_case);
}

/// Suspend then resume through every catalog definition that has actions: both edits are
/// made, and resuming the suspended object undoes what suspending wrote where the resume
/// actions write the same locations.
#[test]
fn every_catalog_definition_with_actions_suspends_and_resumes() {
    let object = serde_json::json!({"apiVersion": "x/v1", "kind": "X", "metadata": {"name": "n"}, "spec": {}});
    let mut problems = Vec::new();
    for entry in catalog::entries() {
        let definition = CompiledDefinition::from_text(entry.text);
        let has_actions = definition
            .definition()
            .structure
            .as_ref()
            .and_then(|s| s.root_component.as_ref())
            .is_some_and(|r| r.suspend_definition.is_some());
        if !has_actions {
            continue;
        }
        let suspended = definition.suspend(&object);
        let resumed = definition.resume(&suspended.object);
        for (what, edit, input) in [
            ("suspend", &suspended, &object),
            ("resume", &resumed, &suspended.object),
        ] {
            if !edit.applied() || edit.patch.is_empty() {
                problems.push(format!(
                    "{}: {what} did nothing: {:?}",
                    entry.name, edit.diagnostics
                ));
            }
            problems.extend(
                contract(input, edit)
                    .into_iter()
                    .map(|p| format!("{}: {what}: {p}", entry.name)),
            );
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every catalog case object through every edit its definition allows: suspend, resume and,
/// for each component, two merge patches on all instances. Whatever the outcome (made,
/// refused, nothing to change), the contract holds and nothing panics.
#[test]
fn every_edit_of_every_catalog_case_keeps_the_contract() {
    let merges = [
        serde_json::json!({"schedulerName": "kai-scheduler"}),
        serde_json::json!({"containers": [{"name": "main", "image": "main:2"}], "labels": null}),
    ];
    let mut problems = Vec::new();
    let mut made = 0;
    for entry in catalog::entries() {
        let definition = CompiledDefinition::from_text(entry.text);
        let dir = common::repo()
            .join("catalog")
            .join(entry.name)
            .join("tests");
        for file in common::yaml_files(&dir) {
            let object = common::read_yaml(&file)["object"].clone();
            if object.is_null() {
                continue;
            }
            let mut edits = vec![("suspend".to_owned(), definition.suspend(&object))];
            edits.push(("resume".to_owned(), definition.resume(&object)));
            for component in definition.component_names() {
                for merge in &merges {
                    let edit = PodSpecEdit {
                        component: &component,
                        instance: None,
                        merge,
                    };
                    edits.push((
                        format!("edit {component} {merge}"),
                        definition.edit_pod_spec(&object, &edit),
                    ));
                }
            }
            for (what, edit) in &edits {
                made += usize::from(edit.applied() && !edit.patch.is_empty());
                for p in contract(&object, edit) {
                    problems.push(format!("{}/{}: {what}: {p}", entry.name, file.display()));
                }
            }
        }
    }
    println!("{made} edits made");
    assert!(made > 100, "only {made} edits were made");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

//! The catalog, data-driven: every `catalog/<name>/tests/*.yaml` case is resolved with its
//! folder's definition and checked against its `expect:` block (format: `tests/README.md`).
//! Every definition must load without errors or warnings, and the embedded list in
//! `src/catalog.rs` must match the folders and each definition's own root kind.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use workload_map::cases::{self, CaseKind};
use workload_map::catalog;
use workload_map::compile::CompiledDefinition;
use workload_map::diagnostic::Severity;

fn catalog_dir() -> std::path::PathBuf {
    common::repo().join("catalog")
}

/// Runs one case file with the definition of its folder through the core's case runner
/// (`workload_map::cases`, the one the CLI's `workload-map test` uses) and lists the problems:
/// the case's own diagnostics and every failed expectation. An action case's patch is also
/// applied independently of the crate: it must give the edited object.
fn run_case(definition: &CompiledDefinition, path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let outcome = cases::run_case(definition, &text, &|name| case_file(path, name));
    let mut problems: Vec<String> = outcome
        .diagnostics
        .iter()
        .map(|d| format!("malformed case at {}: {} {}", d.path, d.code, d.message))
        .collect();
    problems.extend(outcome.failures().map(common::failure_line));
    if outcome.kind != CaseKind::View && !outcome.is_malformed() {
        problems.extend(patch_applies(definition, path, outcome.kind));
    }
    problems
}

/// Another case file of the folder of `case` (for `objectFrom`).
fn case_file(case: &Path, name: &str) -> Option<String> {
    std::fs::read_to_string(case.with_file_name(name)).ok()
}

fn folders() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(catalog_dir())
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.path().is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn embedded_list_matches_the_catalog_folders() {
    let embedded: Vec<&str> = catalog::entries().iter().map(|e| e.name).collect();
    assert_eq!(
        embedded,
        folders(),
        "src/catalog.rs lists other entries than catalog/ holds"
    );
}

#[test]
fn every_definition_loads_without_errors_or_warnings() {
    let mut problems = Vec::new();
    for entry in catalog::entries() {
        let definition = CompiledDefinition::from_text(entry.text);
        for d in definition
            .diagnostics()
            .iter()
            .filter(|d| d.severity >= Severity::Warning)
        {
            problems.push(format!(
                "{}: {} {} ({:?})",
                entry.name, d.code, d.message, d.range
            ));
        }
        if definition.name() != Some(entry.name) {
            problems.push(format!(
                "{}: metadata.name is {:?}",
                entry.name,
                definition.name()
            ));
        }
        match definition.root_gvk() {
            Some(gvk) => {
                let api_version = if gvk.group.is_empty() {
                    gvk.version.clone()
                } else {
                    format!("{}/{}", gvk.group, gvk.version)
                };
                if (api_version.as_str(), gvk.kind.as_str()) != (entry.api_version, entry.kind) {
                    problems.push(format!(
                        "{}: listed as {} {}, root is {api_version} {}",
                        entry.name, entry.api_version, entry.kind, gvk.kind
                    ));
                }
            }
            None => problems.push(format!("{}: no root kind", entry.name)),
        }
        if entry.origin != "catalog" {
            problems.push(format!("{}: origin {}", entry.name, entry.origin));
        }
        // Listing reads the names without compiling; they must be the compiled ones.
        if entry.component_names() != definition.component_names() {
            problems.push(format!(
                "{}: read component names {:?}, compiled {:?}",
                entry.name,
                entry.component_names(),
                definition.component_names()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_catalog_case_gives_its_expected_view() {
    let mut failures = Vec::new();
    let mut total = 0;
    for entry in catalog::entries() {
        let definition = CompiledDefinition::from_text(entry.text);
        let files = common::yaml_files(&catalog_dir().join(entry.name).join("tests"));
        if files.is_empty() {
            failures.push(format!("{}: no test cases", entry.name));
        }
        for file in &files {
            total += 1;
            let problems = run_case(&definition, file);
            let name = format!(
                "{}/{}",
                entry.name,
                file.file_name().unwrap_or_default().to_string_lossy()
            );
            if problems.is_empty() {
                println!("ok   {name}");
            } else {
                failures.push(format!("{name}:\n  {}", problems.join("\n  ")));
            }
        }
    }
    println!("{total} catalog cases");
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_entry_has_a_case_for_each_phase_it_maps() {
    let mut missing = Vec::new();
    for entry in catalog::entries() {
        let definition = CompiledDefinition::from_text(entry.text);
        let mapped: BTreeSet<String> = definition
            .definition()
            .structure
            .as_ref()
            .and_then(|s| s.root_component.as_ref())
            .and_then(|r| r.status_definition.as_ref())
            .map(|s| {
                s.status_mappings
                    .iter()
                    .map(|m| m.phase.as_str().to_owned())
                    .collect()
            })
            .unwrap_or_default();
        let mut seen = BTreeSet::new();
        for file in common::yaml_files(&catalog_dir().join(entry.name).join("tests")) {
            let case = common::read_yaml(&file);
            for p in case["expect"]["phases"].as_array().into_iter().flatten() {
                seen.insert(p.as_str().unwrap_or_default().to_owned());
            }
        }
        for phase in mapped.difference(&seen) {
            missing.push(format!("{}: no case ends in {phase}", entry.name));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Every entry has a case with pods (`related` objects and expected pod counts), and every
/// entry with gang-scheduling instructions a case that expects its groups.
#[test]
fn every_entry_has_a_pods_case_and_a_gang_case_where_it_has_gang_instructions() {
    let mut missing = Vec::new();
    for entry in catalog::entries() {
        let definition = CompiledDefinition::from_text(entry.text);
        let gang = definition
            .definition()
            .instructions
            .as_ref()
            .is_some_and(|i| i.gang_scheduling.is_some());
        let (mut pods, mut groups) = (false, false);
        for file in common::yaml_files(&catalog_dir().join(entry.name).join("tests")) {
            let case = common::read_yaml(&file);
            let counts = case["expect"]["components"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|c| c.get("current").is_some());
            pods |= case.get("related").is_some() && counts && case["expect"].get("pods").is_some();
            groups |= case["expect"]["groups"]
                .as_array()
                .is_some_and(|g| !g.is_empty());
        }
        if !pods {
            missing.push(format!("{}: no case with pods", entry.name));
        }
        if gang && !groups {
            missing.push(format!(
                "{}: gang instructions but no case expects groups",
                entry.name
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// A lookup case: (apiVersion, kind) → (entry, exact version), or no entry.
type LookupCase = (&'static str, &'static str, Option<(&'static str, bool)>);

/// The lookup cases, one line each.
#[test]
fn lookup_finds_exact_versions_and_falls_back_within_group_and_kind() {
    let cases: &[LookupCase] = &[
        ("batch/v1", "Job", Some(("batch-job-v1", true))),
        ("v1", "Pod", Some(("core-pod-v1", true))),
        (
            "batch.volcano.sh/v1alpha1",
            "Job",
            Some(("batch-volcano-sh-job-v1alpha1", true)),
        ),
        (
            "jobset.x-k8s.io/v1alpha1",
            "JobSet",
            Some(("jobset-x-k8s-io-jobset-v1alpha2", false)),
        ),
        (
            "serving.kserve.io/v1alpha2",
            "LLMInferenceService",
            Some(("serving-kserve-io-llminferenceservice-v1alpha2", true)),
        ),
        (
            "serving.kserve.io/v1",
            "LLMInferenceService",
            Some(("serving-kserve-io-llminferenceservice-v1alpha2", false)),
        ),
        (
            "nvidia.com/v1",
            "DynamoGraphDeployment",
            Some(("nvidia-com-dynamographdeployment-v1beta1", false)),
        ),
        ("batch/v2", "Job", Some(("batch-job-v1", false))),
        ("apps/v1", "Job", None),
        ("example.com/v1", "Widget", None),
        ("v2", "Service", None),
    ];
    for (api_version, kind, want) in cases {
        let got = catalog::find(api_version, kind).map(|l| (l.entry.name, l.exact_version));
        assert_eq!(got, *want, "find({api_version}, {kind})");
    }
}

// --- suspend / resume cases -------------------------------------------------------------------

/// The patch of an action case, applied by `common::apply_patch` (written from the RFC,
/// independent of the crate) to the object, must give the object the edit returned.
fn patch_applies(definition: &CompiledDefinition, path: &Path, kind: CaseKind) -> Vec<String> {
    let case = common::read_yaml(path);
    let object = match case["objectFrom"].as_str() {
        Some(file) => common::read_yaml(&path.with_file_name(file))["object"].clone(),
        None => case["object"].clone(),
    };
    let edit = match kind {
        CaseKind::Suspend => definition.suspend(&object),
        _ => definition.resume(&object),
    };
    match common::apply_patch(
        &object,
        &serde_json::to_value(&edit.patch).unwrap_or_default(),
    ) {
        Ok(patched) if patched == edit.object => Vec::new(),
        Ok(_) => vec!["the patch applied to the object does not give the edited object".into()],
        Err(e) => vec![format!("the patch does not apply: {e}")],
    }
}

#[test]
fn every_entry_with_actions_has_a_suspend_and_a_resume_case() {
    let mut missing = Vec::new();
    for entry in catalog::entries() {
        let definition = CompiledDefinition::from_text(entry.text);
        let has_actions = definition
            .definition()
            .structure
            .as_ref()
            .and_then(|s| s.root_component.as_ref())
            .is_some_and(|r| r.suspend_definition.is_some());
        let mut actions = BTreeSet::new();
        for file in common::yaml_files(&catalog_dir().join(entry.name).join("tests")) {
            if let Some(action) = common::read_yaml(&file)["action"].as_str() {
                actions.insert(action.to_owned());
            }
        }
        for action in ["suspend", "resume"] {
            if has_actions != actions.contains(action) {
                missing.push(format!(
                    "{}: {} a {action} case",
                    entry.name,
                    if has_actions {
                        "has actions but no"
                    } else {
                        "has no actions but"
                    }
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

// --- the case runner is strict ----------------------------------------------------------------

/// The places an expected value is written in a case: each key of `expect`, of each
/// `expect.resources` and of each `expect.components` entry (with its `path`).
fn expected_places(case: &Value) -> Vec<Vec<Value>> {
    let mut places = Vec::new();
    for (k, v) in case["expect"].as_object().into_iter().flatten() {
        let here = vec![Value::from("expect"), Value::from(k.as_str())];
        match (k.as_str(), v) {
            ("resources", Value::Object(r)) => {
                places.extend(
                    r.keys()
                        .map(|r| [here.clone(), vec![Value::from(r.as_str())]].concat()),
                );
            }
            ("components", Value::Array(entries)) => {
                for (i, entry) in entries.iter().enumerate() {
                    for c in entry.as_object().into_iter().flatten().map(|(c, _)| c) {
                        places.push(
                            [here.clone(), vec![Value::from(i), Value::from(c.as_str())]].concat(),
                        );
                    }
                }
            }
            _ => places.push(here),
        }
    }
    places
}

fn value_at<'v>(value: &'v mut Value, place: &[Value]) -> &'v mut Value {
    place.iter().fold(value, |v, step| match step {
        Value::String(k) => &mut v[k.as_str()],
        _ => &mut v[step.as_u64().unwrap_or_default() as usize],
    })
}

/// Every expected value a catalog case writes is compared: the case fails when any one of them
/// is changed (so no expectation key is read and then ignored by the runner).
#[test]
fn changing_any_expected_value_of_a_catalog_case_makes_it_fail() {
    let mut unchecked = Vec::new();
    let mut mutants = 0;
    for entry in catalog::entries() {
        let definition = CompiledDefinition::from_text(entry.text);
        for file in common::yaml_files(&catalog_dir().join(entry.name).join("tests")) {
            let case = common::read_yaml(&file);
            for place in expected_places(&case) {
                let mut mutant = case.clone();
                *value_at(&mut mutant, &place) = Value::from("not what the view says");
                // JSON is YAML: the mutant is read by the same reader as the case files.
                let text = serde_json::to_string(&mutant).unwrap_or_default();
                let outcome = cases::run_case(&definition, &text, &|name| case_file(&file, name));
                mutants += 1;
                if outcome.passed {
                    unchecked.push(format!("{}: {place:?}", file.display()));
                }
            }
        }
    }
    println!("{mutants} mutated expectations, all caught");
    assert!(mutants > 500, "only {mutants} expectations mutated");
    assert!(
        unchecked.is_empty(),
        "not compared:\n{}",
        unchecked.join("\n")
    );
}

/// The resources table over every catalog case: its rows add up to the view's total, amount
/// by amount, with a lower bound in the total exactly when a row has one (or something the
/// rows cannot show, e.g. a grouping component whose instances could not be read, made it so),
/// and the table's pod count is the sum of the rows'. The CLI, the playground and the element
/// print these rows, so this is the one place the sum is checked for the numbers.
#[test]
fn every_catalog_case_table_rows_add_up_to_the_total() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in catalog::entries() {
        let definition = CompiledDefinition::from_text(entry.text);
        let dir = catalog_dir().join(entry.name).join("tests");
        for path in common::yaml_files(&dir) {
            let case = common::read_yaml(&path);
            let object = match case["objectFrom"].as_str() {
                Some(file) => common::read_yaml(&dir.join(file))["object"].clone(),
                None => case["object"].clone(),
            };
            if !object.is_object() {
                continue;
            }
            let view = common::resolve_case(&definition, &case, &object);
            checked += 1;
            let table = &view.table;
            let sum = |field: fn(&workload_map::view::Resources) -> u64| {
                table
                    .rows
                    .iter()
                    .fold(0u64, |a, r| a.saturating_add(field(&r.total)))
            };
            let at = format!(
                "{}/{}",
                entry.name,
                path.file_name().unwrap().to_string_lossy()
            );
            let total = &view.resources;
            for (name, field) in [
                (
                    "gpus",
                    (|r| r.gpus) as fn(&workload_map::view::Resources) -> u64,
                ),
                ("cpuMillis", |r| r.cpu_millis),
                ("memoryBytes", |r| r.memory_bytes),
            ] {
                if sum(field) != field(total) {
                    failures.push(format!(
                        "{at}: rows add up to {name} {}, the total is {}",
                        sum(field),
                        field(total)
                    ));
                }
            }
            let rows_bounded = table.rows.iter().any(|r| r.total.incomplete);
            if rows_bounded && !total.incomplete {
                failures.push(format!("{at}: a row is a lower bound, the total is not"));
            }
            let pods = table.rows.iter().fold(0u64, |a, r| a + r.pods.desired);
            if pods != table.pods.desired {
                failures.push(format!(
                    "{at}: rows ask for {pods} pods, the table's count is {}",
                    table.pods.desired
                ));
            }
        }
    }
    assert!(
        checked >= 200,
        "expected the catalog's cases, checked {checked}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A LeaderWorkerSet's groups are counted replicas: `group` reads "× 3" (unit `groups`), its
/// rows count every group's pods, and the tree's pod count per group is the leader and workers.
#[test]
fn leaderworkerset_groups_are_replicas_of_the_tree_and_rows_count_every_group() {
    let entry = catalog::entries()
        .iter()
        .find(|e| e.name == "leaderworkerset-x-k8s-io-leaderworkerset-v1")
        .expect("the LeaderWorkerSet entry");
    let definition = CompiledDefinition::from_text(entry.text);
    let case = common::read_yaml(
        &catalog_dir()
            .join(entry.name)
            .join("tests/three-groups-of-two.yaml"),
    );
    let view = definition.resolve(&case["object"]);
    let json = serde_json::to_value(&view).expect("views serialise");
    let group = &json["root"]["instances"][0]["children"][0];
    assert_eq!(group["name"], "group");
    assert_eq!(group["replicas"]["unit"], "groups");
    assert_eq!(group["replicas"]["text"], "3");
    let rows: Vec<(String, u64)> = view
        .table
        .rows
        .iter()
        .map(|r| (r.name.clone(), r.pods.desired))
        .collect();
    assert_eq!(rows, [("leader".to_owned(), 3), ("worker".to_owned(), 3)]);
    assert_eq!(view.table.pods.desired, 6);
    assert_eq!(
        json["resources"]["text"]["gpus"],
        view.resources.gpus.to_string()
    );
}

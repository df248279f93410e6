//! Differential: our catalog is never less specific than upstream.
//!
//! Every upstream definition in `../shared/conformance/definitions` and our catalog entry for
//! the same type resolve generated variants of that type's objects (the recorded ones in the
//! corpus and our own catalog cases). Each class applies to every type that has the fields it
//! changes: no status yet; scale-up and scale-down in progress (the status's replica counts, or
//! a Job's active and ready pods, one below or above what the spec asks); partial completion
//! (every status counter of active/succeeded/failed pods or Jobs shows some succeeded and some
//! active) and one failed; suspended, suspending and resuming (the type's own suspend or resume
//! action applied, with or without the Suspended condition); conditions Unknown. Recorded
//! objects are not the only states real clusters show, so the variants push each type through
//! the transitions its status fields describe.
//!
//! A difference is a variant where upstream's phases are not all among ours. Every difference
//! is printed as one line of a table; each must be a deliberate refinement listed in
//! [`REFINEMENTS`] (upstream says `Undefined` and we name the phase), otherwise the test fails
//! and the fix belongs in the catalog: where upstream names a phase, our phases include it (we
//! may name a more specific phase as well). Variants where we add a phase to upstream's are
//! counted, not listed. A listed refinement that no variant needs any more fails the test too.
//!
//! The corpus is read in place and never copied. When it is absent this test says so and passes.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};
use workload_map::catalog;
use workload_map::compile::CompiledDefinition;

const NO_STATUS: &str = "no status, or one that reports nothing decisive yet (no state, \
     conditions Unknown): upstream has no rule; the object is being set up, so Initializing";

/// Deliberate refinements: where upstream says `Undefined`, we may name these phases.
/// (our catalog entry, the phases we name, why). One line each.
const REFINEMENTS: &[(&str, &[&str], &str)] = &[
    ("agents-x-k8s-io-sandbox-v1beta1", &["Initializing"], NO_STATUS),
    ("apps-deployment-v1", &["Initializing", "Running"], "no status yet (or conditions Unknown) is Initializing; Available=True during a rolling update (Progressing reason ReplicaSetUpdated) is Running, upstream knows only NewReplicaSetAvailable"),
    ("apps-nvidia-com-nimcache-v1alpha1", &["Initializing", "Completed"], "no state yet is Initializing; state Ready alone is Completed (upstream also needs the job-completed condition, which conditions Unknown hide)"),
    ("apps-nvidia-com-nimservice-v1alpha1", &["Initializing"], NO_STATUS),
    ("batch-job-v1", &["Initializing"], NO_STATUS),
    ("core-pod-v1", &["Initializing"], NO_STATUS),
    ("jobset-x-k8s-io-jobset-v1alpha2", &["Initializing", "Running", "Degraded", "Suspending", "Resuming"], "upstream needs Jobs both active and ready to say anything: ours is Initializing with no Job ready, Running with any active, Degraded with failed Jobs retried, Suspending when asked to suspend, Resuming when the Suspended condition turned False"),
    ("kubeflow-org-mpijob-v2beta1", &["Initializing", "Suspending"], "no condition yet (or only Unknown ones) is Initializing; asked to suspend without the Suspended condition is Suspending"),
    ("kubeflow-org-pytorchjob-v1", &["Initializing", "Suspending"], "no condition yet (or only Unknown ones) is Initializing; asked to suspend without the Suspended condition is Suspending"),
    ("leaderworkerset-x-k8s-io-leaderworkerset-v1", &["Initializing", "Failed"], "no condition yet is Initializing; Available=False and Progressing=False without an update in progress is Failed (upstream also requires UpdateInProgress=False to be reported)"),
    ("milvus-io-milvus-v1beta1", &["Initializing", "Suspended"], "no status yet is Initializing; a Milvus stopped on purpose (status Stopped) is Suspended"),
    ("nvidia-com-dynamographdeployment-v1alpha1", &["Initializing"], NO_STATUS),
    ("nvidia-com-dynamographdeployment-v1beta1", &["Initializing"], NO_STATUS),
    ("ray-io-raycluster-v1", &["Initializing", "Resuming"], "no state yet (or conditions Unknown) is Initializing; spec.suspend false while the state is still suspended is Resuming"),
    ("ray-io-rayjob-v1", &["Initializing", "Degraded", "Failed", "Suspending"], "no job status yet is Initializing; a retrying job is Degraded; a deadline exceeded is Failed; jobDeploymentStatus Suspending is Suspending"),
    ("ray-io-rayservice-v1", &["Initializing"], NO_STATUS),
    ("serving-knative-dev-service-v1", &["Initializing"], NO_STATUS),
    ("serving-kserve-io-inferenceservice-v1beta1", &["Initializing", "Running", "Failed", "Suspended", "Suspending"], "no status yet (or conditions Unknown) is Initializing; a stopped service is Suspended, or Running and Suspending while it stops; Ready=False with a failed revision (RevisionMissing, RevisionFailed) is Failed"),
    ("serving-kserve-io-llminferenceservice-v1alpha1", &["Initializing", "Suspending"], "no status yet is Initializing; asked to stop without the Stopped reason yet is Suspending"),
    ("serving-kserve-io-llminferenceservice-v1alpha2", &["Initializing", "Suspending"], "no status yet is Initializing; asked to stop without the Stopped reason yet is Suspending"),
];

/// Variant names, in the order they are generated.
const VARIANTS: &[&str] = &[
    "as-is",
    "no-status",
    "scale-up",
    "scale-down",
    "partial-completion",
    "one-failed",
    "suspended",
    "suspending",
    "resuming",
    "conditions-unknown",
];

/// The variant `name` of `object`, or `None` when the object has nothing it would change.
/// Asking to suspend or resume uses the type's own suspend and resume actions (ours, or
/// upstream's when we have none), so every type with such actions gets those variants, wherever
/// its flag lives (`spec.suspend`, `spec.runPolicy.suspend`, `spec.operatingMode`, ...).
fn variant(object: &Value, name: &str, definitions: &[&CompiledDefinition]) -> Option<Value> {
    let mut v = object.clone();
    match name {
        "as-is" => {}
        "no-status" => {
            v.as_object_mut()?.remove("status")?;
        }
        "scale-up" | "scale-down" => {
            // What the spec asks for (replicas, or a Job's parallelism) and the status counts
            // that follow it; the status is one below (scaling up) or one above (down).
            let (desired, keys) = scale_counts(&v)?;
            let current = if name == "scale-up" {
                (desired - 1).max(0)
            } else {
                desired + 1
            };
            let status = status_mut(&mut v)?;
            for key in keys {
                status.insert(key, json!(current));
            }
        }
        "partial-completion" | "one-failed" => {
            let mut counters = Vec::new();
            counter_paths(&v["status"], &mut vec!["status".to_owned()], &mut counters);
            if counters.is_empty() {
                return None;
            }
            for (i, path) in counters.iter().enumerate() {
                let node = pointer_mut(&mut v, path)?.as_object_mut()?;
                if name == "partial-completion" {
                    node.insert("succeeded".to_owned(), json!(1));
                    node.insert("active".to_owned(), json!(1));
                    node.insert("failed".to_owned(), json!(0));
                } else if i == 0 {
                    node.insert("failed".to_owned(), json!(1));
                }
            }
        }
        "suspended" | "suspending" | "resuming" => {
            let asked = name != "resuming";
            v = definitions.iter().find_map(|d| {
                let edit = if asked { d.suspend(&v) } else { d.resume(&v) };
                (edit.applied() && !edit.patch.is_empty()).then_some(edit.object)
            })?;
            let conditions = status_mut(&mut v)?
                .entry("conditions")
                .or_insert_with(|| json!([]))
                .as_array_mut()?;
            conditions.retain(|c| c["type"] != "Suspended");
            if name != "suspending" {
                conditions
                    .push(json!({"type": "Suspended", "status": "True", "reason": "JobSuspended"}));
            }
        }
        "conditions-unknown" => {
            let conditions = v["status"]["conditions"].as_array_mut()?;
            if conditions.is_empty() {
                return None;
            }
            for c in conditions {
                c["status"] = json!("Unknown");
            }
        }
        _ => return None,
    }
    Some(v)
}

fn status_mut(v: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
    let object = v.as_object_mut()?;
    let status = object.entry("status").or_insert_with(|| json!({}));
    if status.is_null() {
        *status = json!({});
    }
    status.as_object_mut()
}

fn pointer_mut<'v>(v: &'v mut Value, path: &[String]) -> Option<&'v mut Value> {
    path.iter().try_fold(v, |v, k| match v {
        Value::Array(items) => items.get_mut(k.parse::<usize>().ok()?),
        Value::Object(m) => m.get_mut(k),
        _ => None,
    })
}

/// Paths of the status objects that count pods or jobs (`active`, `succeeded`, `failed`, `ready`).
fn counter_paths(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Object(m) => {
            if ["active", "succeeded", "failed"]
                .iter()
                .any(|k| m.get(*k).is_some_and(Value::is_number))
            {
                out.push(path.clone());
            }
            for (k, child) in m {
                path.push(k.clone());
                counter_paths(child, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                path.push(i.to_string());
                counter_paths(child, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The count the spec asks for and the status counts that follow it: `spec.replicas` with the
/// status's replica counts (those it reports, or replicas, ready, available and updated when it
/// reports none), or a Job's `spec.parallelism` with its active and ready pods.
fn scale_counts(v: &Value) -> Option<(i64, Vec<String>)> {
    if let Some(desired) = v["spec"]["replicas"].as_i64() {
        let reported: Vec<String> = v["status"]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, value)| {
                let k = k.to_ascii_lowercase();
                value.is_number()
                    && k.ends_with("replicas")
                    && !["min", "max", "desired", "unavailable"]
                        .iter()
                        .any(|prefix| k.starts_with(prefix))
            })
            .map(|(k, _)| k.clone())
            .collect();
        let keys = if reported.is_empty() {
            [
                "replicas",
                "readyReplicas",
                "availableReplicas",
                "updatedReplicas",
            ]
            .map(str::to_owned)
            .to_vec()
        } else {
            reported
        };
        return Some((desired, keys));
    }
    let desired = v["spec"]["parallelism"].as_i64()?;
    Some((desired, vec!["active".to_owned(), "ready".to_owned()]))
}

/// (catalog entry, variant, upstream phases, our phases); the value counts the variants that
/// show it and names one source.
type DifferenceKey = (String, String, Vec<String>, Vec<String>);

fn type_key(api_version: &str, kind: &str) -> String {
    format!("{api_version} {kind}")
}

fn phases(definition: &CompiledDefinition, object: &Value) -> Vec<String> {
    definition
        .resolve(object)
        .phases
        .iter()
        .map(|p| p.as_str().to_owned())
        .collect()
}

/// Why a difference is deliberate, or `None`: a difference is only ever a listed refinement,
/// where upstream says Undefined and every phase we name is listed for that entry.
fn listed(
    name: &str,
    theirs: &[String],
    ours: &[String],
    used: &mut BTreeSet<String>,
) -> Option<String> {
    if theirs != ["Undefined"] {
        return None;
    }
    let (_, allowed, reason) = REFINEMENTS.iter().find(|(n, _, _)| *n == name)?;
    if !ours.iter().all(|p| allowed.contains(&p.as_str())) {
        return None;
    }
    for phase in ours {
        used.insert(format!("{name} {phase}"));
    }
    Some((*reason).to_owned())
}

#[test]
fn our_catalog_is_never_less_specific_than_upstream() {
    let Some(corpus) = common::conformance_dir() else {
        return;
    };
    // Upstream definitions by root type, paired with our catalog entry for the same type.
    let mut pairs: BTreeMap<String, (String, CompiledDefinition, &'static catalog::Entry)> =
        BTreeMap::new();
    for file in common::yaml_files(&corpus.join("definitions")) {
        let upstream = CompiledDefinition::from_text(
            &std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display())),
        );
        let Some(gvk) = upstream.root_gvk() else {
            panic!("{}: no root kind", file.display());
        };
        let api_version = if gvk.group.is_empty() {
            gvk.version.clone()
        } else {
            format!("{}/{}", gvk.group, gvk.version)
        };
        let Some(found) = catalog::find(&api_version, &gvk.kind).filter(|f| f.exact_version) else {
            panic!(
                "{}: no catalog entry for {api_version} {}",
                file.display(),
                gvk.kind
            );
        };
        let name = file
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        pairs.insert(
            type_key(&api_version, &gvk.kind),
            (name, upstream, found.entry),
        );
    }

    // Base objects per type: every recorded STATE object, then our catalog cases.
    let mut bases: BTreeMap<String, Vec<(String, Value)>> = BTreeMap::new();
    for file in common::yaml_files_under(&corpus.join("recordings")) {
        let rel = file
            .strip_prefix(&corpus)
            .unwrap_or(&file)
            .display()
            .to_string();
        for event in common::recorded_events(&file) {
            let key = type_key(
                event.object["apiVersion"].as_str().unwrap_or_default(),
                event.object["kind"].as_str().unwrap_or_default(),
            );
            bases
                .entry(key)
                .or_default()
                .push((format!("{rel}[{}]", event.index), event.object));
        }
    }
    for (key, (_, _, entry)) in &pairs {
        let dir = common::repo()
            .join("catalog")
            .join(entry.name)
            .join("tests");
        for file in common::yaml_files(&dir) {
            let case = common::read_yaml(&file);
            let rel = format!(
                "catalog/{}/tests/{}",
                entry.name,
                file.file_name().unwrap_or_default().to_string_lossy()
            );
            bases
                .entry(key.clone())
                .or_default()
                .push((rel, case["object"].clone()));
        }
    }

    let mut differences: BTreeMap<DifferenceKey, (usize, String)> = BTreeMap::new();
    let mut more_specific = 0;
    let mut agreed = 0;
    let mut compared = 0;
    let mut by_variant: BTreeMap<&str, usize> = BTreeMap::new();
    // Per entry: variants compared, agreeing, where ours adds phases, differing.
    let mut by_entry: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for (key, (_, upstream, entry)) in &pairs {
        let ours = CompiledDefinition::from_text(entry.text);
        let mut seen: BTreeSet<String> = BTreeSet::new();
        for (source, base) in bases.get(key).into_iter().flatten() {
            for name in VARIANTS {
                let Some(object) = variant(base, name, &[&ours, upstream]) else {
                    continue;
                };
                if !seen.insert(format!("{name}\u{0}{object}")) {
                    continue;
                }
                compared += 1;
                *by_variant.entry(name).or_default() += 1;
                let counts = by_entry.entry(entry.name).or_default();
                counts[0] += 1;
                let theirs = phases(upstream, &object);
                let mine = phases(&ours, &object);
                let included = theirs == ["Undefined"] && mine == ["Undefined"]
                    || theirs != ["Undefined"] && theirs.iter().all(|p| mine.contains(p));
                if theirs == mine {
                    agreed += 1;
                    counts[1] += 1;
                } else if included {
                    more_specific += 1;
                    counts[2] += 1;
                } else {
                    let slot = differences
                        .entry((entry.name.to_owned(), (*name).to_owned(), theirs, mine))
                        .or_insert((0, source.clone()));
                    slot.0 += 1;
                    counts[3] += 1;
                }
            }
        }
    }

    // The table: one row per difference (entry, variant, both phase lists), how many generated
    // objects show it and one of them, and whether it is a listed refinement.
    let mut rows = vec![[
        "entry".to_owned(),
        "variant".to_owned(),
        "upstream".to_owned(),
        "ours".to_owned(),
        "seen".to_owned(),
        "listed".to_owned(),
        "e.g.".to_owned(),
    ]];
    let mut unlisted = Vec::new();
    let mut used: BTreeSet<String> = BTreeSet::new();
    for ((name, variant, theirs, mine), (count, example)) in &differences {
        let verdict = if listed(name, theirs, mine, &mut used).is_some() {
            "refinement"
        } else {
            unlisted.push(format!(
                "{name} {variant}: upstream {theirs:?}, ours {mine:?} ({count}x, e.g. {example})"
            ));
            "NO"
        };
        rows.push([
            name.clone(),
            variant.clone(),
            theirs.join(","),
            mine.join(","),
            count.to_string(),
            verdict.to_owned(),
            example.clone(),
        ]);
    }
    let widths: Vec<usize> = (0..6)
        .map(|i| rows.iter().map(|r| r[i].len()).max().unwrap_or(0))
        .collect();
    for row in &rows {
        let mut line = String::new();
        for (cell, width) in row.iter().zip(&widths) {
            line.push_str(&format!("{cell:<width$}  "));
        }
        println!("{}{}", line, row[6]);
    }
    println!("\nrefinements (upstream says Undefined, we name these phases):");
    for (name, allowed, why) in REFINEMENTS {
        println!("  {name}: {}: {why}", allowed.join(", "));
    }
    println!(
        "\n{:<48} {:>8} {:>6} {:>10} {:>8}",
        "entry", "variants", "agree", "ours adds", "differ"
    );
    for (name, [n, same, adds, differ]) in &by_entry {
        println!("{name:<48} {n:>8} {same:>6} {adds:>10} {differ:>8}");
    }
    let unexercised: Vec<&str> = pairs
        .values()
        .map(|(_, _, entry)| entry.name)
        .filter(|name| !by_entry.contains_key(name))
        .collect();
    let classes: Vec<String> = by_variant.iter().map(|(v, n)| format!("{v} {n}")).collect();
    println!(
        "\n{compared} variants compared ({}): {agreed} agree, {more_specific} where ours adds \
         phases, {} differences that are listed refinements, {} unlisted",
        classes.join(", "),
        differences.len() - unlisted.len(),
        unlisted.len()
    );
    let stale: Vec<String> = REFINEMENTS
        .iter()
        .flat_map(|(n, allowed, _)| allowed.iter().map(move |p| format!("{n} {p}")))
        .filter(|key| !used.contains(key))
        .collect();
    assert!(
        stale.is_empty(),
        "listed refinements (entry, phase) that no variant needs any more (remove them):\n{}",
        stale.join("\n")
    );
    assert!(
        unexercised.is_empty(),
        "upstream definitions with no object to compare on (add a catalog case): {unexercised:?}"
    );
    assert!(
        unlisted.is_empty(),
        "our catalog is less specific than upstream (fix the catalog, or list a deliberate \
         refinement where upstream says Undefined):\n{}",
        unlisted.join("\n")
    );
}

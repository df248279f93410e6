//! Conformance of OUR catalog against upstream's recordings of real objects.
//!
//! For every recording under `../shared/conformance/recordings`, each STATE event's object is
//! resolved with the catalog entry for its apiVersion/kind; the recorded `state` must be among
//! our matched phases (upstream's replay test asserts the same containment). Where we
//! deliberately read an object differently, the event is listed in [`DIFFERENCES`] with the
//! phases we give and the reason, and the test asserts exactly those phases, so a listed
//! difference is checked, not skipped. A table per type is printed (events, contained, exact
//! phase-list matches, deliberate differences).
//!
//! The corpus is read in place and never copied. When it is absent this test says so and
//! passes; `tests/it/catalog.rs` still runs our own cases.

use crate::common;

use std::collections::BTreeMap;

use serde_json::Value;
use workload_map::catalog;
use workload_map::compile::CompiledDefinition;

/// Every recorded `Undefined` we replace comes from a transitional state the object clearly
/// shows but upstream's definition has no rule for.
const NO_STATUS_YET: &str =
    "no status, or an empty state, right after creation: upstream has no rule \
     and records Undefined; the object is being set up, so we say Initializing";
const PROVISIONING: &str = "pods are being provisioned (the status says so: Ready Unknown, HeadPodReady False, \
     state empty or not yet reported); upstream has no rule and records Undefined; we say Initializing";
const JOBSET_NOT_ACTIVE: &str =
    "every replicated Job reports 0 active and 0 ready and no terminal condition: \
     upstream records Undefined; nothing has failed or finished, so we say Initializing";
const JOBSET_RESUMING: &str =
    "the Suspended condition turned False after a resume but no Job is active yet: \
     upstream records Undefined; we say Initializing and Resuming";
const RAY_RESUMING: &str =
    "spec.suspend is false while status.state is still `suspended`: upstream records \
     Undefined; the cluster is coming back, so we say Resuming";
const RAYJOB_WAITING: &str =
    "the Ray cluster is up (jobDeploymentStatus Running) but the Ray job has not been \
     submitted yet (no jobStatus): upstream records Undefined; we say Initializing";
const RAYJOB_SUSPENDING: &str =
    "jobDeploymentStatus is Suspending: upstream has no suspending rule and records \
     Undefined; we say Suspending";

/// (recording relative to the corpus, event indexes, the phases we give, why).
const DIFFERENCES: &[(&str, &[usize], &[&str], &str)] = &[
    ("recordings/real-data/dynamo/1.2.1/nvidia-com-dynamographdeployment-v1alpha1/initializing.yaml", &[0, 1], &["Initializing"], NO_STATUS_YET),
    ("recordings/real-data/dynamo/1.2.1/nvidia-com-dynamographdeployment-v1alpha1/running.yaml", &[0, 1], &["Initializing"], NO_STATUS_YET),
    ("recordings/real-data/jobset/v0.12.0/jobset-x-k8s-io-jobset-v1alpha2/completed.yaml", &[0], &["Initializing"], JOBSET_NOT_ACTIVE),
    ("recordings/real-data/jobset/v0.12.0/jobset-x-k8s-io-jobset-v1alpha2/failed.yaml", &[0, 4], &["Initializing"], JOBSET_NOT_ACTIVE),
    ("recordings/real-data/jobset/v0.12.0/jobset-x-k8s-io-jobset-v1alpha2/resumed.yaml", &[4, 5], &["Initializing", "Resuming"], JOBSET_RESUMING),
    ("recordings/real-data/jobset/v0.12.0/jobset-x-k8s-io-jobset-v1alpha2/running.yaml", &[0], &["Initializing"], JOBSET_NOT_ACTIVE),
    ("recordings/real-data/kserve/v0.20.0/serving-kserve-io-inferenceservice-v1beta1/failed.yaml", &[0], &["Initializing"], NO_STATUS_YET),
    ("recordings/real-data/kserve/v0.20.0/serving-kserve-io-inferenceservice-v1beta1/failed.yaml", &[1, 2, 3], &["Initializing"], PROVISIONING),
    ("recordings/real-data/kserve/v0.20.0/serving-kserve-io-inferenceservice-v1beta1/running.yaml", &[0], &["Initializing"], NO_STATUS_YET),
    ("recordings/real-data/kserve/v0.20.0/serving-kserve-io-inferenceservice-v1beta1/running.yaml", &[1, 2, 3, 4, 5], &["Initializing"], PROVISIONING),
    ("recordings/real-data/kuberay/1.7.0/ray-io-raycluster-v1/resumed.yaml", &[2, 3, 4, 5, 6, 7], &["Resuming"], RAY_RESUMING),
    ("recordings/real-data/kuberay/1.7.0/ray-io-raycluster-v1/running.yaml", &[0, 1, 2, 3], &["Initializing"], PROVISIONING),
    ("recordings/real-data/kuberay/1.7.0/ray-io-rayjob-v1/completed.yaml", &[0], &["Initializing"], NO_STATUS_YET),
    ("recordings/real-data/kuberay/1.7.0/ray-io-rayjob-v1/completed.yaml", &[6], &["Initializing"], RAYJOB_WAITING),
    ("recordings/real-data/kuberay/1.7.0/ray-io-rayjob-v1/failed.yaml", &[0], &["Initializing"], NO_STATUS_YET),
    ("recordings/real-data/kuberay/1.7.0/ray-io-rayjob-v1/failed.yaml", &[5], &["Initializing"], RAYJOB_WAITING),
    ("recordings/real-data/kuberay/1.7.0/ray-io-rayjob-v1/running.yaml", &[0], &["Initializing"], NO_STATUS_YET),
    ("recordings/real-data/kuberay/1.7.0/ray-io-rayjob-v1/running.yaml", &[5], &["Initializing"], RAYJOB_WAITING),
    ("recordings/real-data/kuberay/1.7.0/ray-io-rayjob-v1/suspended.yaml", &[2], &["Suspending"], RAYJOB_SUSPENDING),
    ("recordings/real-data/milvus/1.3.9/milvus-io-milvus-v1beta1/initializing.yaml", &[0, 1], &["Initializing"], NO_STATUS_YET),
    ("recordings/real-data/nim/v3.1.2/apps-nvidia-com-nimservice-v1alpha1/initializing.yaml", &[0], &["Initializing"], NO_STATUS_YET),
    ("recordings/real-data/nim/v3.1.2/apps-nvidia-com-nimservice-v1alpha1/initializing.yaml", &[1], &["Initializing"], PROVISIONING),
    ("recordings/real-data/nim/v3.1.2/apps-nvidia-com-nimservice-v1alpha1/running.yaml", &[0], &["Initializing"], NO_STATUS_YET),
    ("recordings/real-data/nim/v3.1.2/apps-nvidia-com-nimservice-v1alpha1/running.yaml", &[1], &["Initializing"], PROVISIONING),
    ("recordings/test/e2e/recorded_data/kserve/v0.20.0/serving-kserve-io-llminferenceservice-v1alpha2/missing-preset.yaml", &[0], &["Initializing"], NO_STATUS_YET),
    ("recordings/test/e2e/recorded_data/kserve/v0.20.0/serving-kserve-io-llminferenceservice-v1alpha2/stopped.yaml", &[0], &["Initializing"], NO_STATUS_YET),
];

fn difference(file: &str, index: usize) -> Option<(&'static [&'static str], &'static str)> {
    DIFFERENCES
        .iter()
        .find(|(f, ix, _, _)| *f == file && ix.contains(&index))
        .map(|(_, _, phases, why)| (*phases, *why))
}

/// The phases our catalog gives `object`, or `None` when no entry covers its type.
fn our_phases(
    cache: &mut BTreeMap<&'static str, CompiledDefinition>,
    object: &Value,
) -> Option<(&'static str, Vec<String>)> {
    let lookup = catalog::find(object["apiVersion"].as_str()?, object["kind"].as_str()?)?;
    let definition = cache
        .entry(lookup.entry.name)
        .or_insert_with(|| CompiledDefinition::from_text(lookup.entry.text));
    let view = definition.resolve(object);
    let phases = view.phases.iter().map(|p| p.as_str().to_owned()).collect();
    Some((lookup.entry.name, phases))
}

#[test]
fn recorded_states_are_among_our_catalog_phases() {
    let Some(corpus) = common::conformance_dir() else {
        return;
    };
    let mut cache = BTreeMap::new();
    let mut table: BTreeMap<String, common::Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut used_differences = 0;
    for path in common::yaml_files_under(&corpus.join("recordings")) {
        let rel = path
            .strip_prefix(&corpus)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        for event in common::recorded_events(&path) {
            let index = event.index;
            let state = &event.state;
            let Some((name, phases)) = our_phases(&mut cache, &event.object) else {
                failures.push(format!(
                    "{rel}[{index}]: no catalog entry for {} {}",
                    event.object["apiVersion"], event.object["kind"]
                ));
                continue;
            };
            let listed = difference(&rel, index);
            table
                .entry(name.to_owned())
                .or_default()
                .count(&phases, &event, listed.is_some());
            match listed {
                Some((ours, why)) => {
                    used_differences += 1;
                    if phases != ours {
                        failures.push(format!(
                            "{rel}[{index}]: listed difference gives {ours:?} ({why}), now {phases:?}"
                        ));
                    } else {
                        println!(
                            "differs {rel}[{index}]: recorded {state}, ours {phases:?}: {why}"
                        );
                    }
                }
                None if !phases.contains(state) => {
                    failures.push(format!("{rel}[{index}]: recorded {state}, ours {phases:?}"));
                }
                None => {}
            }
        }
    }
    let sum = common::print_tally(&table, "different");
    let listed: usize = DIFFERENCES.iter().map(|(_, ix, _, _)| ix.len()).sum();
    assert_eq!(
        used_differences, listed,
        "a listed difference names an event that is not in the corpus"
    );
    assert_eq!(
        sum.contained + sum.listed,
        sum.events,
        "every event is contained or a listed difference"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

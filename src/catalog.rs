//! The built-in catalog: tested definitions for the workload types people run.
//!
//! Each entry is `catalog/<name>/definition.yaml`, embedded at compile time. The list below is
//! written out (one line per entry, with its root apiVersion and kind) so that lookups need no
//! parsing; `tests/it/catalog.rs` checks it against the folder listing and against each
//! definition's own root kind, so it cannot drift.

/// One catalog definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The definition's `metadata.name` (also its folder name).
    pub name: &'static str,
    /// Where it comes from: always `catalog` here (user definitions are `user`).
    pub origin: &'static str,
    /// The root component's apiVersion (`group/version`, or `version` for the core group).
    pub api_version: &'static str,
    /// The root component's kind.
    pub kind: &'static str,
    /// The definition text (YAML).
    pub text: &'static str,
}

/// The result of [`find`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lookup {
    /// The entry found.
    pub entry: &'static Entry,
    /// False when no entry has this exact version and one for the same group and kind at
    /// another version was taken instead (the caller should say so).
    pub exact_version: bool,
}

macro_rules! entry {
    ($name:literal, $api_version:literal, $kind:literal) => {
        Entry {
            name: $name,
            origin: "catalog",
            api_version: $api_version,
            kind: $kind,
            text: include_str!(concat!("../catalog/", $name, "/definition.yaml")),
        }
    };
}

static ENTRIES: &[Entry] = &[
    entry!(
        "agents-x-k8s-io-sandbox-v1beta1",
        "agents.x-k8s.io/v1beta1",
        "Sandbox"
    ),
    entry!("apps-deployment-v1", "apps/v1", "Deployment"),
    entry!(
        "apps-nvidia-com-nimcache-v1alpha1",
        "apps.nvidia.com/v1alpha1",
        "NIMCache"
    ),
    entry!(
        "apps-nvidia-com-nimservice-v1alpha1",
        "apps.nvidia.com/v1alpha1",
        "NIMService"
    ),
    entry!("apps-statefulset-v1", "apps/v1", "StatefulSet"),
    entry!("batch-cronjob-v1", "batch/v1", "CronJob"),
    entry!("batch-job-v1", "batch/v1", "Job"),
    entry!(
        "batch-volcano-sh-job-v1alpha1",
        "batch.volcano.sh/v1alpha1",
        "Job"
    ),
    entry!("core-pod-v1", "v1", "Pod"),
    entry!(
        "grove-io-podcliqueset-v1alpha1",
        "grove.io/v1alpha1",
        "PodCliqueSet"
    ),
    entry!(
        "jobset-x-k8s-io-jobset-v1alpha2",
        "jobset.x-k8s.io/v1alpha2",
        "JobSet"
    ),
    entry!(
        "kubeflow-org-mpijob-v2beta1",
        "kubeflow.org/v2beta1",
        "MPIJob"
    ),
    entry!(
        "kubeflow-org-pytorchjob-v1",
        "kubeflow.org/v1",
        "PyTorchJob"
    ),
    entry!("kubeflow-org-tfjob-v1", "kubeflow.org/v1", "TFJob"),
    entry!(
        "leaderworkerset-x-k8s-io-leaderworkerset-v1",
        "leaderworkerset.x-k8s.io/v1",
        "LeaderWorkerSet"
    ),
    entry!("milvus-io-milvus-v1beta1", "milvus.io/v1beta1", "Milvus"),
    entry!(
        "nvidia-com-dynamographdeployment-v1alpha1",
        "nvidia.com/v1alpha1",
        "DynamoGraphDeployment"
    ),
    entry!(
        "nvidia-com-dynamographdeployment-v1beta1",
        "nvidia.com/v1beta1",
        "DynamoGraphDeployment"
    ),
    entry!("ray-io-raycluster-v1", "ray.io/v1", "RayCluster"),
    entry!("ray-io-rayjob-v1", "ray.io/v1", "RayJob"),
    entry!("ray-io-rayservice-v1", "ray.io/v1", "RayService"),
    entry!(
        "serving-knative-dev-service-v1",
        "serving.knative.dev/v1",
        "Service"
    ),
    entry!(
        "serving-kserve-io-inferenceservice-v1beta1",
        "serving.kserve.io/v1beta1",
        "InferenceService"
    ),
    entry!(
        "serving-kserve-io-llminferenceservice-v1alpha1",
        "serving.kserve.io/v1alpha1",
        "LLMInferenceService"
    ),
    entry!(
        "serving-kserve-io-llminferenceservice-v1alpha2",
        "serving.kserve.io/v1alpha2",
        "LLMInferenceService"
    ),
    entry!(
        "sparkoperator-k8s-io-sparkapplication-v1beta2",
        "sparkoperator.k8s.io/v1beta2",
        "SparkApplication"
    ),
    entry!(
        "trainer-kubeflow-org-trainjob-v1alpha1",
        "trainer.kubeflow.org/v1alpha1",
        "TrainJob"
    ),
];

/// Every catalog entry, sorted by name (a test keeps the table so).
pub fn entries() -> &'static [Entry] {
    ENTRIES
}

/// The entry with this name (its folder's name), if any.
pub fn get(name: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|e| e.name == name)
}

impl Entry {
    /// The component names, root first, as [`CompiledDefinition::component_names`] gives them,
    /// read without compiling: only the YAML is parsed and read, no expression is compiled, so
    /// listing or finding catalog entries costs a fraction of compiling them
    /// (`tests/it/catalog.rs` checks that both give the same names).
    ///
    /// [`CompiledDefinition::component_names`]: crate::compile::CompiledDefinition::component_names
    pub fn component_names(&self) -> Vec<String> {
        match crate::yaml::parse_single(self.text) {
            Ok(node) => crate::definition::read_definition(&node)
                .0
                .components()
                .map(|c| c.name_str().to_owned())
                .collect(),
            Err(_) => Vec::new(),
        }
    }
}

/// Finds the definition for an object's `apiVersion` and `kind`. Without an exact match, takes
/// the entry for the same group and kind at another version, preferring the most mature one
/// by Kubernetes version order (v1 > v1beta2 > v1beta1 > v1alpha2 > ...), and reports
/// `exact_version: false`.
pub fn find(api_version: &str, kind: &str) -> Option<Lookup> {
    if let Some(entry) = ENTRIES
        .iter()
        .find(|e| e.api_version == api_version && e.kind == kind)
    {
        return Some(Lookup {
            entry,
            exact_version: true,
        });
    }
    let group = group_of(api_version);
    ENTRIES
        .iter()
        .filter(|e| e.kind == kind && group_of(e.api_version) == group)
        .max_by_key(|e| version_priority(version_of(e.api_version)))
        .map(|entry| Lookup {
            entry,
            exact_version: false,
        })
}

fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(group, _)| group)
}

fn version_of(api_version: &str) -> &str {
    api_version
        .rsplit_once('/')
        .map_or(api_version, |(_, version)| version)
}

/// Kubernetes' version order as a sortable key: GA above beta above alpha, then by major, then
/// by the pre-release number; versions not of the `vN[alpha|betaM]` form sort lowest.
fn version_priority(version: &str) -> (u8, u64, u64) {
    let Some(rest) = version.strip_prefix('v') else {
        return (0, 0, 0);
    };
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (major, tail) = rest.split_at(digits);
    let Ok(major) = major.parse::<u64>() else {
        return (0, 0, 0);
    };
    if tail.is_empty() {
        return (3, major, 0);
    }
    let (stage, number) = if let Some(n) = tail.strip_prefix("beta") {
        (2, n)
    } else if let Some(n) = tail.strip_prefix("alpha") {
        (1, n)
    } else {
        return (0, 0, 0);
    };
    match number.parse::<u64>() {
        Ok(n) => (stage, major, n),
        Err(_) => (0, 0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_priority_follows_kubernetes_order() {
        let mut versions = [
            "v1alpha1", "v2", "v1beta2", "v1", "v1alpha2", "v1beta1", "vx", "v2beta1",
        ];
        versions.sort_by_key(|v| version_priority(v));
        assert_eq!(
            versions,
            ["vx", "v1alpha1", "v1alpha2", "v1beta1", "v1beta2", "v2beta1", "v1", "v2"]
        );
    }

    #[test]
    fn entries_are_sorted_by_name_and_found_by_it() {
        let names: Vec<&str> = entries().iter().map(|e| e.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted, "catalog::entries() must be sorted by name");
        for entry in entries() {
            assert_eq!(get(entry.name).map(|e| e.name), Some(entry.name));
        }
        assert!(get("no-such-entry").is_none());
    }
}

//! The view: one uniform, serialisable reading of a workload.
//!
//! This is the contract every later layer (npm package, CLI, playground) uses; its JSON shape
//! is documented in ARCHITECTURE.md and kept stable. Field names are camelCase.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::definition::Phase;
use crate::diagnostic::{Diagnostic, TextRange};

/// The resolved view of one workload object.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct View {
    /// The object's `apiVersion`.
    pub api_version: String,
    /// The object's `kind`.
    pub kind: String,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace` (absent for cluster-scoped or unset).
    pub namespace: Option<String>,
    /// Which definition read it.
    pub definition: DefinitionRef,
    /// Matched phases in mapping key order; `["Undefined"]` when nothing matched.
    pub phases: Vec<Phase>,
    /// The object is being deleted: `metadata.deletionTimestamp` is set (for a pod, one that
    /// has not finished: [`crate::pods::is_terminating`]). Its phases are still what its
    /// status says, as a terminating pod's `status.phase` stays `Running`; kubectl shows it as
    /// `Terminating`. Absent in JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub terminating: bool,
    /// The raw status read and how each mapping was decided.
    pub status: StatusView,
    /// Totals for the whole workload (the sum of the tree).
    pub resources: Resources,
    /// The resources table: its rows add up to `resources` (see [`ResourceTable`]).
    pub table: ResourceTable,
    /// The root component (absent only when the definition has no usable root).
    pub root: Option<Component>,
    /// How the pods given with the object were attributed (absent when no pods were given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pods: Option<PodsSummary>,
    /// Gang-scheduling groups from the definition's `gangScheduling` (empty without one).
    pub groups: Vec<Group>,
    /// Every problem found while resolving (and the definition's own diagnostics).
    pub diagnostics: Vec<Diagnostic>,
}

/// What a resolve puts in the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResolveOptions {
    /// Explain every status mapping (`status.mappings`). Without it the view is the same but
    /// for that list, which stays empty: phases, conditions, tree, totals, groups and
    /// diagnostics are unchanged. For dashboards that only show phases and totals.
    pub explain: bool,
}

impl Default for ResolveOptions {
    fn default() -> Self {
        ResolveOptions { explain: true }
    }
}

impl ResolveOptions {
    /// The lean view: no explanations.
    pub const LEAN: ResolveOptions = ResolveOptions { explain: false };
}

/// The definition that produced a view.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DefinitionRef {
    /// `metadata.name` of the definition.
    pub name: String,
}

/// Status as read from the object, with an explanation of every mapping.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusView {
    /// The raw phase string read by `phaseDefinition` (absent without one).
    pub phase: Option<String>,
    /// Conditions read by `conditionsDefinition`, in the order found (duplicates: last wins
    /// for matching, all listed here).
    pub conditions: Vec<Condition>,
    /// One entry per mapped status, in mapping key order.
    pub mappings: Vec<MappingExplanation>,
}

/// One condition as read through the definition's field names.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// The condition type.
    #[serde(rename = "type")]
    pub condition_type: String,
    /// Its status (`True`, `False`, `Unknown`), when present.
    pub status: Option<String>,
    /// Its reason, when present and `reasonFieldName` is set.
    pub reason: Option<String>,
    /// Its message, when present and `messageFieldName` is set.
    pub message: Option<String>,
}

/// Why one status mapping matched or not.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MappingExplanation {
    /// The phase this mapping produces.
    pub status: Phase,
    /// True when any matcher matched.
    pub matched: bool,
    /// Each matcher in order. All are evaluated so each can be explained; the result is the
    /// same as upstream's first-match short circuit because matchers have no side effects.
    pub matchers: Vec<MatcherExplanation>,
}

/// Why one matcher matched or not.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatcherExplanation {
    /// True when every part held.
    pub matched: bool,
    /// Each part of the matcher (byPhase, each byConditions entry, byExpression), in order.
    /// An empty list matches vacuously.
    pub checks: Vec<Check>,
    /// Where the matcher (its `statusMappings.<phase>` list item) was written.
    pub source: DefinitionSource,
}

/// Where a component or a status matcher was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DefinitionSource {
    /// Byte range of its entry in the definition text: a component from its `rootComponent`
    /// key or the first key of its `childComponents` item to its last value, a matcher its
    /// list item. Absent when the definition was not given as text
    /// ([`CompiledDefinition::from_json`](crate::compile::CompiledDefinition::from_json)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub definition: Option<TextRange>,
}

/// Where an instance was read from in the object (see [`crate::provenance`]).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstanceSource {
    /// RFC 6901 JSON Pointer of the part of the object the instance was read from: the
    /// deepest location that holds its id, its counts and its pod template (`/spec/
    /// replicatedJobs/1`); `""` for the root's instance (the object itself). Absent when
    /// none of the component's paths locates it (no path expression, e.g. `keys[]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// Byte range of that part in the object text (absent when the object was not read from
    /// text, or the pointer leads nowhere in it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<TextRange>,
}

/// The outcome of one part of a matcher.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Check {
    /// `byPhase`.
    #[serde(rename_all = "camelCase")]
    Phase {
        /// The phase the matcher wants.
        expected: String,
        /// The phase read (absent without a phaseDefinition).
        actual: Option<String>,
        /// Whether they are equal.
        matched: bool,
    },
    /// One `byConditions` entry.
    #[serde(rename_all = "camelCase")]
    Condition {
        /// The condition type looked for.
        #[serde(rename = "type")]
        condition_type: String,
        /// The status wanted, if any.
        expected_status: Option<String>,
        /// The reason wanted, if any.
        expected_reason: Option<String>,
        /// The condition's status, when the condition exists.
        actual_status: Option<String>,
        /// The condition's reason, when read.
        actual_reason: Option<String>,
        /// Whether the entry held.
        matched: bool,
        /// Why it did not hold: `missing`, `statusDiffers`, `reasonDiffers`,
        /// `reasonNotRead` (no reasonFieldName), `noConditionsDefinition`.
        #[serde(skip_serializing_if = "Option::is_none")]
        failure: Option<&'static str>,
    },
    /// `byExpression`.
    #[serde(rename_all = "camelCase")]
    Expression {
        /// The expression text.
        expression: String,
        /// Its language.
        language: crate::expr::Language,
        /// The expected `tostring` of the first output.
        expected: String,
        /// The `tostring` of the first output (absent with no output or an error).
        actual: Option<String>,
        /// Whether they are equal.
        matched: bool,
        /// The evaluation error, if any (the matcher then does not match).
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}

/// Resource amounts. GPUs first: `nvidia.com/gpu` plus `amd.com/gpu`. Serialised with
/// `text`: each amount as a person reads it ([`AmountsText`]), so that every front end shows
/// the same words for the same number.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Resources {
    /// GPUs (`nvidia.com/gpu` + `amd.com/gpu`).
    pub gpus: u64,
    /// CPU in millicores.
    pub cpu_millis: u64,
    /// Memory in bytes.
    pub memory_bytes: u64,
    /// Every other extended resource (and each GPU resource by its own name), by name,
    /// in whole units (rounded up as Kubernetes does).
    pub extended: BTreeMap<String, u64>,
    /// True when some amount here is a lower bound, not exact (`lower_bounds` says which):
    /// something could not be counted (devices through `resourceClaims`; a quantity that
    /// does not parse; instances, a replica count or a pod spec that could not be read, e.g.
    /// past the 1000-result cap) or an amount is larger than a JavaScript number holds
    /// exactly (it is then shown as 2^53 - 1). Show "≥ n" for such an amount n > 0 and "n/a"
    /// for 0. A diagnostic says why.
    pub incomplete: bool,
    /// Which amounts are lower bounds (empty exactly when `incomplete` is false).
    pub lower_bounds: LowerBounds,
}

/// How [`Resources`] reads in JSON: its fields, then `text`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResourcesJson<'a> {
    gpus: u64,
    cpu_millis: u64,
    memory_bytes: u64,
    extended: &'a BTreeMap<String, u64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    incomplete: bool,
    #[serde(skip_serializing_if = "LowerBounds::is_empty")]
    lower_bounds: LowerBounds,
    text: AmountsText,
}

impl Serialize for Resources {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ResourcesJson {
            gpus: self.gpus,
            cpu_millis: self.cpu_millis,
            memory_bytes: self.memory_bytes,
            extended: &self.extended,
            incomplete: self.incomplete,
            lower_bounds: self.lower_bounds,
            text: self.text(),
        }
        .serialize(serializer)
    }
}

/// Amounts as a person reads them, the one reading every front end shows (the CLI, the
/// playground and the web component print these strings, they do not format numbers):
/// CPU through [`crate::quantity::human_millis`] (`500m`, `2`), memory through
/// [`crate::quantity::human_bytes`] (`16Gi`, `70M`), GPUs and extended resources as whole
/// numbers. A lower bound n > 0 reads `≥ n`, an unknown amount (a lower bound of 0) `n/a`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AmountsText {
    /// GPUs.
    pub gpus: String,
    /// CPU.
    pub cpu: String,
    /// Memory.
    pub memory: String,
    /// Each extended resource by name.
    pub extended: BTreeMap<String, String>,
}

/// An amount as read by a person: `text` of `value`, as a lower bound (`≥ text`) or unknown
/// (`n/a`, a lower bound of 0) when `lower_bound`.
pub fn bounded_text(value: u64, lower_bound: bool, text: impl FnOnce(u64) -> String) -> String {
    match (lower_bound, value) {
        (false, _) => text(value),
        (true, 0) => "n/a".to_owned(),
        (true, _) => format!("≥ {}", text(value)),
    }
}

impl Resources {
    /// The amounts as a person reads them (see [`AmountsText`]).
    pub fn text(&self) -> AmountsText {
        let b = self.lower_bounds;
        AmountsText {
            gpus: bounded_text(self.gpus, b.gpus, |n| n.to_string()),
            cpu: bounded_text(self.cpu_millis, b.cpu_millis, crate::quantity::human_millis),
            memory: bounded_text(
                self.memory_bytes,
                b.memory_bytes,
                crate::quantity::human_bytes,
            ),
            extended: self
                .extended
                .iter()
                .map(|(name, n)| {
                    (
                        name.clone(),
                        bounded_text(*n, b.extended, |n| n.to_string()),
                    )
                })
                .collect(),
        }
    }

    /// The amounts that are not zero.
    pub fn nonzero(&self) -> LowerBounds {
        LowerBounds {
            gpus: self.gpus > 0,
            cpu_millis: self.cpu_millis > 0,
            memory_bytes: self.memory_bytes > 0,
            extended: self.extended.values().any(|n| *n > 0),
        }
    }

    /// Marks `bounds` as lower bounds (and the whole as incomplete when any is).
    pub fn mark(&mut self, bounds: LowerBounds) {
        self.lower_bounds = self.lower_bounds.or(bounds);
        self.incomplete = !self.lower_bounds.is_empty();
    }
}

/// Which amounts of a [`Resources`] are lower bounds; serialised as the list of their field
/// names: `gpus`, `cpuMillis`, `memoryBytes`, `extended` (every extended amount).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LowerBounds {
    /// `gpus`.
    pub gpus: bool,
    /// `cpuMillis`.
    pub cpu_millis: bool,
    /// `memoryBytes`.
    pub memory_bytes: bool,
    /// Every amount in `extended`.
    pub extended: bool,
}

impl LowerBounds {
    /// Every amount: nothing about the part left out is known.
    pub const ALL: LowerBounds = LowerBounds {
        gpus: true,
        cpu_millis: true,
        memory_bytes: true,
        extended: true,
    };
    /// Devices (GPUs and other extended resources), e.g. those requested through
    /// `resourceClaims`, which take no CPU or memory requests.
    pub const DEVICES: LowerBounds = LowerBounds {
        gpus: true,
        cpu_millis: false,
        memory_bytes: false,
        extended: true,
    };

    /// True when every amount is exact.
    pub fn is_empty(&self) -> bool {
        *self == LowerBounds::default()
    }

    /// Either's lower bounds.
    pub fn or(self, other: LowerBounds) -> LowerBounds {
        LowerBounds {
            gpus: self.gpus || other.gpus,
            cpu_millis: self.cpu_millis || other.cpu_millis,
            memory_bytes: self.memory_bytes || other.memory_bytes,
            extended: self.extended || other.extended,
        }
    }
}

impl Serialize for LowerBounds {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let names = [
            (self.gpus, "gpus"),
            (self.cpu_millis, "cpuMillis"),
            (self.memory_bytes, "memoryBytes"),
            (self.extended, "extended"),
        ];
        let mut seq = serializer.serialize_seq(None)?;
        for (_, name) in names.iter().filter(|(set, _)| *set) {
            seq.serialize_element(name)?;
        }
        seq.end()
    }
}

/// Replica counts of a component or instance. Serialised with `text`: `desired` as a person
/// reads it (`3`, `≥ 3`, `n/a`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Replicas {
    /// Desired replicas: replicas, else minReplicas, else 1 (only what is known: see
    /// `incomplete`).
    pub desired: u64,
    /// `replicas` as read, when read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
    /// `minReplicas` as read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// `maxReplicas` as read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    /// True when `desired` is a lower bound: a count that decides it (or the instances)
    /// could not be read, is not a number or is negative (a diagnostic says which). Show
    /// "≥ n" for n > 0 and "n/a" for 0.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub incomplete: bool,
    /// What a replica is: `pods` for a component that runs pods, `groups` for a logical group
    /// whose replicas are copies of its children (a LeaderWorkerSet's groups); absent when
    /// the count stands for nothing (a grouping component with no scale of its own). Show
    /// "× desired" exactly when it is present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<ReplicaUnit>,
    /// `desired` as a person reads it: `3`, `≥ 3` (a lower bound), `n/a` (unknown).
    pub text: String,
}

impl Replicas {
    /// Sets `text` from `desired` and `incomplete` (call after changing either).
    pub fn with_text(mut self) -> Replicas {
        self.text = bounded_text(self.desired, self.incomplete, |n| n.to_string());
        self
    }
}

/// What one replica of a component is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ReplicaUnit {
    /// A pod.
    Pods,
    /// A copy of the component's children (a logical group with a scale).
    Groups,
}

/// A count of pods as the front ends show it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodCount {
    /// Pods asked for (only what is known: see `incomplete`).
    pub desired: u64,
    /// True when `desired` is a lower bound (a count could not be read).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub incomplete: bool,
    /// Pods placed here (present when pods were given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<u64>,
    /// Of those, the ready ones (present when pods were given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready: Option<u64>,
    /// `desired` as a person reads it: `3`, `≥ 3`, `n/a`.
    pub text: String,
}

impl PodCount {
    /// A count of `desired` pods, a lower bound when `incomplete`. A count beyond what a
    /// JavaScript number holds exactly is shown as that bound, a lower bound.
    pub fn new(desired: u64, incomplete: bool) -> PodCount {
        let max = crate::quantity::MAX_EXACT;
        let (desired, incomplete) = if desired > max {
            (max, true)
        } else {
            (desired, incomplete)
        };
        PodCount {
            desired,
            incomplete,
            current: None,
            ready: None,
            text: bounded_text(desired, incomplete, |n| n.to_string()),
        }
    }

    /// The sum of two counts (saturating; a lower bound when either is).
    pub fn plus(&self, other: &PodCount) -> PodCount {
        let mut sum = PodCount::new(
            self.desired.saturating_add(other.desired),
            self.incomplete || other.incomplete,
        );
        sum.current = add_known(self.current, other.current);
        sum.ready = add_known(self.ready, other.ready);
        sum
    }
}

fn add_known(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
    }
}

/// The resources table: one row per instance that runs pods, over the whole workload, whose
/// amounts add up to the view's `resources` (exactly, when no amount is a lower bound).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTable {
    /// The rows, in tree order (a component's instances in order, then its children).
    pub rows: Vec<ResourceRow>,
    /// All pods the workload asks for (the sum of the rows), with the placed and ready ones
    /// when pods were given.
    pub pods: PodCount,
}

/// One row of the resources table: the pods of one instance of a component that runs pods,
/// over the whole workload (an instance under a logical group of N replicas counts N times).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRow {
    /// The component's path from the root (`jobset/replicatedjob`).
    pub component: String,
    /// The instance id (absent for a single-instance component).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    /// The row's label: the component name, with `[id]` for an instance.
    pub name: String,
    /// Pods of this row (desired × the copies of every logical group above it).
    pub pods: PodCount,
    /// The effective request of one pod.
    pub per_pod: Resources,
    /// `per_pod` × `pods.desired`.
    pub total: Resources,
    /// The nodes its placed pods run on, sorted (present when pods were given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<String>>,
}

/// One component of the role tree.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Component {
    /// The component name from the definition.
    pub name: String,
    /// Its kind, or null for logical grouping components.
    pub kind: Option<GvkView>,
    /// Whether the definition says where its pods are.
    pub has_pod_spec: bool,
    /// Replicas summed over instances.
    pub replicas: Replicas,
    /// Effective per-pod request when every instance has the same one.
    pub pod_resources: Option<Resources>,
    /// Subtree total: per-pod request × desired replicas over instances, plus children.
    pub resources: Resources,
    /// Pods the subtree asks for (its own and its children's, a logical group's times its
    /// groups), per copy of the logical groups above it, as the tree shows it; with `current`
    /// and `ready` when pods were given.
    pub pod_count: PodCount,
    /// Instances (one with `id: null` for a single-instance component; none, with
    /// `replicas.incomplete`, when they could not be read).
    pub instances: Vec<Instance>,
    /// The live pods placed in this component (absent when no pods were given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pods: Option<Pods>,
    /// Where the component was written in the definition.
    pub source: DefinitionSource,
}

/// One instance of a component.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Instance {
    /// The instance id, or null for a single-instance component.
    pub id: Option<String>,
    /// Replicas of this instance.
    pub replicas: Replicas,
    /// Effective per-pod request of this instance (absent without a pod spec; zero amounts
    /// marked incomplete when the pod spec could not be read).
    pub pod_resources: Option<Resources>,
    /// This instance's total (per-pod × desired, plus its children).
    pub resources: Resources,
    /// Pods this instance asks for (its own, plus its children's when it is the component's
    /// only instance), with `current` and `ready` when pods were given.
    pub pod_count: PodCount,
    /// Child components (the same subtree for every instance, as upstream builds it; with
    /// pods, each instance's children hold only that instance's pods).
    pub children: Vec<Component>,
    /// The live pods placed in this instance (absent when no pods were given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pods: Option<Pods>,
    /// Where the instance was read from in the object.
    pub source: InstanceSource,
}

/// Live pods of a component or instance.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pods {
    /// How many pods are placed here.
    pub current: u64,
    /// How many of them are ready ([`PodItem::ready`]: `Ready` condition `True`, not
    /// terminating).
    pub ready: u64,
    /// The pods, sorted by name.
    pub items: Vec<PodItem>,
}

/// One live pod.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodItem {
    /// `metadata.name`.
    pub name: String,
    /// `status.phase` (`Unknown` when absent).
    pub phase: String,
    /// The pod is ready: its `Ready` condition is `True` and it is not terminating (as the
    /// ReplicaSet and endpoints controllers count ready pods).
    pub ready: bool,
    /// The pod is being deleted and has not finished: `metadata.deletionTimestamp` is set and
    /// its phase is neither `Succeeded` nor `Failed` ([`crate::pods::is_terminating`]). kubectl
    /// shows it as `Terminating`; it is never ready. Absent in JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub terminating: bool,
    /// Why a pod that is not ready is not: the `PodScheduled=False` reason, else
    /// `status.reason`, else the `Ready=False` reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `spec.nodeName`, when scheduled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// The replica key read by the nearest `replicaSelector` (a LeaderWorkerSet group index).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica: Option<String>,
    /// The pod's own effective request.
    pub resources: Resources,
}

/// How the pods given with an object were attributed to it.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodsSummary {
    /// Pods given.
    pub total: u64,
    /// Pods that belong to this workload.
    pub attributed: u64,
    /// Names of the pods that do not.
    pub unattributed: Vec<String>,
    /// The attributed pods that no component claims (`pods/unplaced` names them), or all of
    /// them when there is no role tree, by name: they belong to the workload alone, and are
    /// nowhere in the tree. Absent in JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unplaced: Vec<PodItem>,
}

/// One gang-scheduling group.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    /// `pg-<root uid>[-<key>...]` as KAI names it; without pods, a `podGroups` entry's name.
    pub name: String,
    /// Pods that must be schedulable together (0 when the group is made of sub-groups).
    pub min_available: u64,
    /// True when `min_available` is a lower bound: a replica count it depends on could not be
    /// read (not a number, negative, its path failed), as [`Replicas::incomplete`] is for
    /// `desired`. Show "≥ n" for n > 0 and "n/a" for 0.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub incomplete: bool,
    /// `min_available` as a person reads it: `4`, `≥ 4`, `n/a`.
    pub min_available_text: String,
    /// The components whose pods the group holds.
    pub members: Vec<String>,
    /// `podGroup.subGroups`, each with its own minimum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub_groups: Option<Vec<SubGroupView>>,
    /// `podGroup.topology`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topology: Option<TopologyView>,
    /// The pods in the group, sorted by name (when pods were given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pods: Option<Vec<String>>,
}

impl Group {
    /// Sets the minimums' texts from their numbers (call once the group is built).
    pub fn with_text(mut self) -> Group {
        self.min_available_text =
            bounded_text(self.min_available, self.incomplete, |n| n.to_string());
        for sub in self.sub_groups.iter_mut().flatten() {
            sub.min_available_text =
                bounded_text(sub.min_available, sub.incomplete, |n| n.to_string());
        }
        self
    }
}

/// One sub-group of a `podGroup`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SubGroupView {
    /// The component name.
    pub name: String,
    /// Its subtree's scale.
    pub min_available: u64,
    /// True when `min_available` is a lower bound (see [`Group::incomplete`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub incomplete: bool,
    /// `min_available` as a person reads it: `4`, `≥ 4`, `n/a`.
    pub min_available_text: String,
    /// Its topology constraint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topology: Option<TopologyView>,
}

/// A topology constraint of a gang.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopologyView {
    /// `topologyName`.
    pub topology_name: String,
    /// `preferredTopologyLevel`.
    pub preferred_topology_level: String,
    /// `requiredTopologyLevel`.
    pub required_topology_level: String,
}

/// A group/version/kind in the view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GvkView {
    /// API group (`""` for core).
    pub group: String,
    /// Version.
    pub version: String,
    /// Kind.
    pub kind: String,
}

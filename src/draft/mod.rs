//! Draft a starting definition from one object of an unknown type.
//!
//! [`draft`] reads the object's shape, never its kind: it walks `.spec` for pod templates
//! (`{spec: {containers}}`), bare pod specs (`{containers}`) and resource fragments
//! (`{resources: {requests|limits}}`), turns lists and `*Specs` maps of them into components
//! with instances, takes replica counts from the fields next to them, and guesses a status
//! definition from what `.status` shows. Every guess is written with a comment saying what it
//! saw, so the author can check it. The text is compiled before it is returned and its
//! diagnostics are passed on: a draft that does not validate is a bug, and the tests say so.

use serde_json::Value;

use crate::compile::CompiledDefinition;
use crate::diagnostic::{codes, Diagnostic, Severity};
use crate::path::Step;

mod jq;
mod shape;
mod yaml;

use yaml::render;

/// A drafted definition.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The definition as commented YAML.
    pub text: String,
    /// What could not be drafted (source `object`), then the draft's own diagnostics from
    /// compiling it (source `definition`, ranges into [`text`](Self::text)).
    pub diagnostics: Vec<Diagnostic>,
}

/// Drafts a commented definition from one object. Never fails: an object that cannot be read
/// gives a skeleton and a diagnostic saying why.
pub fn draft(object: &Value) -> Draft {
    let mut diagnostics = Vec::new();
    let Some(map) = object.as_object() else {
        diagnostics.push(
            Diagnostic::error(codes::OBJECT_INVALID, "the object is not a mapping").in_object(),
        );
        return finish(render(&Plan::empty()), diagnostics);
    };
    let plan = Plan::read(map, &mut diagnostics);
    finish(render(&plan), diagnostics)
}

/// What an API schema tells the drafter beyond the sample object.
#[derive(Debug, Clone, Default)]
pub(crate) struct SchemaFacts {
    /// The values the phase field takes (its enum): `byPhase` matchers are written for those
    /// only.
    pub phase_values: Option<Vec<String>>,
    /// The fields a status condition has: the conditions definition names no other.
    pub condition_fields: Option<Vec<String>>,
}

/// [`draft`], with what the type's API schema says.
pub(crate) fn draft_with_schema_facts(object: &Value, facts: SchemaFacts) -> Draft {
    let mut diagnostics = Vec::new();
    let Some(map) = object.as_object() else {
        return draft(object);
    };
    let mut plan = Plan::read(map, &mut diagnostics);
    plan.phase_values = facts.phase_values.filter(|v| !v.is_empty());
    plan.condition_fields = facts.condition_fields;
    finish(render(&plan), diagnostics)
}

/// The draft with the diagnostics of compiling it added.
pub(crate) fn finish(text: String, mut diagnostics: Vec<Diagnostic>) -> Draft {
    let compiled = CompiledDefinition::from_text(&text);
    diagnostics.extend(
        compiled
            .diagnostics()
            .iter()
            .filter(|d| d.severity >= Severity::Warning)
            .cloned(),
    );
    Draft { text, diagnostics }
}

// --- reading the object -------------------------------------------------------------------

/// How a pod's spec is found at a location.
#[derive(Debug, Clone, Copy, PartialEq)]
enum PodKind {
    /// `{metadata?, spec: {containers}}`.
    Template,
    /// `{containers}`.
    PodSpec,
    /// `{resources: {requests|limits}}` (or `resources*`): a fragment with only resources.
    Resources,
    /// `{image, resources}`: one container standing for the pod.
    Container,
}

/// A place in the object where pods are described.
#[derive(Debug, Clone)]
struct Location {
    /// Path to the node (for `Resources`, the key of the resources field is `field`).
    path: Vec<Step>,
    kind: PodKind,
    /// For `Resources`: the resources field's key.
    field: Option<String>,
}

/// Field names that count replicas, in order of preference.
const REPLICA_FIELDS: &[&str] = &[
    "replicas",
    "parallelism",
    "size",
    "numWorkers",
    "numNodes",
    "workers",
    "instances",
];

/// Wrapper keys that say nothing about a role.
const GENERIC_KEYS: &[&str] = &[
    "spec",
    "template",
    "podTemplate",
    "podSpec",
    "podTemplateSpec",
    "jobTemplate",
    "extraPodSpec",
];

/// A replica count read at one node: the field and where.
#[derive(Debug, Clone)]
struct ReplicaField {
    /// Path of the node relative to the instance element (or to the object).
    node: Vec<String>,
    field: &'static str,
    /// `completions` next to `parallelism`: the pods running at once are the smaller.
    with_completions: bool,
    value: Value,
}

#[derive(Debug, Clone, Default)]
struct Scale {
    /// Multiplied together (outer object count × pods per object).
    factors: Vec<ReplicaField>,
    min: Option<(Vec<String>, String, Value)>,
    max: Option<(Vec<String>, String, Value)>,
}

/// How instances of a component are told apart.
#[derive(Debug, Clone)]
enum Ids {
    /// A string field of every list element (`name`, `groupName`).
    Field(String, Vec<String>),
    /// The list position.
    Index(usize),
    /// The map key.
    Key(Vec<String>),
}

#[derive(Debug, Clone)]
struct ComponentPlan {
    name: String,
    location: Location,
    /// The list or map the instances come from (a prefix of `location.path`).
    each: Option<(Vec<Step>, Ids)>,
    /// The location's path inside one instance (or from the object when single).
    relative: Vec<String>,
    scale: Scale,
}

#[derive(Debug, Clone)]
struct ConditionsSeen {
    types: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
struct StatusPlan {
    phase: Option<(Vec<String>, String)>,
    conditions: Option<ConditionsSeen>,
    /// Counters of pods or jobs at work: (jq condition, what was seen).
    activity: Vec<(String, String)>,
    /// The object has no `.status` at all.
    absent: bool,
}

#[derive(Debug, Clone)]
struct Plan {
    api_version: String,
    group: String,
    version: String,
    kind: String,
    root: String,
    /// The root itself carries the pod spec (one location, not in a list or map).
    root_pods: Option<ComponentPlan>,
    children: Vec<ComponentPlan>,
    status: StatusPlan,
    suspend: Option<(Vec<String>, bool)>,
    /// The only values the phase field takes (its schema's enum), when known.
    phase_values: Option<Vec<String>>,
    /// The fields a condition has (its schema's), when known.
    condition_fields: Option<Vec<String>>,
}

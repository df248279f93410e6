//! The definition format: a `run.ai/v1alpha1` `Karta` (the Workload Map format).
//!
//! These types mirror upstream's API field for field (see ARCHITECTURE.md), with every
//! user-written value wrapped in [`Spanned`] so that problems can point at the exact text.
//! [`read`](self::read) builds them from a parsed YAML/JSON document and reports unknown
//! fields and type errors as diagnostics; [`validate`](crate::validate) checks the rules.

use crate::diagnostic::TextRange;

pub mod read;
pub mod schema;
pub mod writable;

pub use read::read_definition;

/// The `apiVersion` of a definition.
pub const API_VERSION: &str = "run.ai/v1alpha1";
/// The `kind` of a definition.
pub const KIND: &str = "Karta";

/// A value together with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Byte range of the value in the definition text.
    pub range: TextRange,
    /// Dotted document path of the value, e.g.
    /// `spec.structureDefinition.childComponents[0].specDefinition.podTemplateSpecPath`.
    pub path: String,
}

impl<T> Spanned<T> {
    /// Wraps a value.
    pub fn new(value: T, range: TextRange, path: impl Into<String>) -> Self {
        Spanned {
            value,
            range,
            path: path.into(),
        }
    }
}

/// An expression string (jq unless the enclosing field says otherwise).
pub type Expr = Spanned<String>;

/// Where a struct was written: the range of its key (or of the whole node when it has no key)
/// and its document path.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Location {
    /// Byte range to point at for problems with the whole struct.
    pub range: TextRange,
    /// Dotted document path.
    pub path: String,
}

/// A whole definition document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Definition {
    /// `apiVersion` (must be `run.ai/v1alpha1`).
    pub api_version: Option<Spanned<String>>,
    /// `kind` (must be `Karta`).
    pub kind: Option<Spanned<String>>,
    /// `metadata.name`.
    pub name: Option<Spanned<String>>,
    /// `spec.structureDefinition`.
    pub structure: Option<StructureDefinition>,
    /// `spec.optimizationInstructions`.
    pub instructions: Option<Instructions>,
    /// Where `spec` is (or the document root when it is missing).
    pub spec_location: Location,
}

impl Definition {
    /// Whether any expression of the definition is CEL (a `byExpression` with `language:
    /// cel` and an expression): whether compiling it needs a CEL engine.
    pub fn holds_cel(&self) -> bool {
        let Some(structure) = &self.structure else {
            return false;
        };
        structure
            .root_component
            .iter()
            .chain(&structure.child_components)
            .filter_map(|c| c.status_definition.as_ref())
            .flat_map(|s| &s.status_mappings)
            .flat_map(|m| &m.matchers)
            .filter_map(|m| m.by_expression.as_ref())
            .any(|b| b.language == Language::Cel && b.expression.is_some())
    }
}

/// `spec.structureDefinition`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StructureDefinition {
    /// `rootComponent` (required).
    pub root_component: Option<ComponentDefinition>,
    /// `childComponents`, in document order.
    pub child_components: Vec<ComponentDefinition>,
    /// `additionalChildKinds`.
    pub additional_child_kinds: Vec<Gvk>,
    /// Where `structureDefinition` is.
    pub location: Location,
}

/// A Kubernetes group/version/kind.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Gvk {
    /// `group` (`""` for the core group).
    pub group: Option<Spanned<String>>,
    /// `version`.
    pub version: Option<Spanned<String>>,
    /// `kind`.
    pub kind: Option<Spanned<String>>,
    /// Where the GVK is.
    pub location: Location,
}

/// A component: the root or a child; both share the type.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ComponentDefinition {
    /// `name` (unique within the definition).
    pub name: Option<Spanned<String>>,
    /// `kind`: absent for logical grouping components.
    pub kind: Option<Gvk>,
    /// `ownerRef`: the parent component's name; absent on the root.
    pub owner_ref: Option<Spanned<String>>,
    /// `specDefinition`.
    pub spec_definition: Option<SpecDefinition>,
    /// `scaleDefinition`.
    pub scale_definition: Option<ScaleDefinition>,
    /// `statusDefinition` (required on the root).
    pub status_definition: Option<StatusDefinition>,
    /// `suspendDefinition`.
    pub suspend_definition: Option<SuspendDefinition>,
    /// `instanceIdPath`.
    pub instance_id_path: Option<Expr>,
    /// `podSelector`.
    pub pod_selector: Option<PodSelector>,
    /// Where the component is (its list item or the `rootComponent` key).
    pub location: Location,
    /// Its whole entry: from the `rootComponent` key (or the first key of its list item) to
    /// the end of its last value.
    pub entry: TextRange,
}

/// `specDefinition`: where the pod spec data lives.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpecDefinition {
    /// `podTemplateSpecPath`: a full PodTemplateSpec (metadata + spec).
    pub pod_template_spec_path: Option<Expr>,
    /// `podSpecPath`: a bare PodSpec.
    pub pod_spec_path: Option<Expr>,
    /// `metadataPath`: an ObjectMeta (used with podSpecPath).
    pub metadata_path: Option<Expr>,
    /// `fragmentedPodSpecDefinition`: pod fields scattered across the object.
    pub fragmented: Option<FragmentedPodSpecDefinition>,
    /// Where `specDefinition` is.
    pub location: Location,
}

/// `fragmentedPodSpecDefinition`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FragmentedPodSpecDefinition {
    /// `schedulerNamePath`.
    pub scheduler_name_path: Option<Expr>,
    /// `labelsPath`.
    pub labels_path: Option<Expr>,
    /// `annotationsPath`.
    pub annotations_path: Option<Expr>,
    /// `resourcesPath` (CR-level ResourceRequirements).
    pub resources_path: Option<Expr>,
    /// `resourceClaimsPath`.
    pub resource_claims_path: Option<Expr>,
    /// `podAffinityPath`.
    pub pod_affinity_path: Option<Expr>,
    /// `nodeAffinityPath`.
    pub node_affinity_path: Option<Expr>,
    /// `containersPath` (a list of containers per instance).
    pub containers_path: Option<Expr>,
    /// `containerPath` (one main container per instance).
    pub container_path: Option<Expr>,
    /// `priorityClassNamePath`.
    pub priority_class_name_path: Option<Expr>,
    /// `imagePath`.
    pub image_path: Option<Expr>,
    /// Where `fragmentedPodSpecDefinition` is.
    pub location: Location,
}

impl FragmentedPodSpecDefinition {
    /// Every set sub-path with its JSON field name in the fragmented pod spec
    /// (`schedulerName`, `labels`, ...), in declaration order.
    pub fn paths(&self) -> Vec<(&'static str, &Expr)> {
        let all: [(&'static str, &Option<Expr>); 11] = [
            ("schedulerName", &self.scheduler_name_path),
            ("labels", &self.labels_path),
            ("annotations", &self.annotations_path),
            ("resources", &self.resources_path),
            ("resourceClaims", &self.resource_claims_path),
            ("podAffinity", &self.pod_affinity_path),
            ("nodeAffinity", &self.node_affinity_path),
            ("containers", &self.containers_path),
            ("container", &self.container_path),
            ("priorityClassName", &self.priority_class_name_path),
            ("image", &self.image_path),
        ];
        all.into_iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
            .collect()
    }
}

/// `scaleDefinition`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScaleDefinition {
    /// `replicasPath`.
    pub replicas_path: Option<Expr>,
    /// `minReplicasPath`.
    pub min_replicas_path: Option<Expr>,
    /// `maxReplicasPath`.
    pub max_replicas_path: Option<Expr>,
    /// Whether the block holds fields the format does not know (each a
    /// `definition/unknown-field` warning already).
    pub unknown_fields: bool,
    /// Where `scaleDefinition` is.
    pub location: Location,
}

/// `suspendDefinition`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SuspendDefinition {
    /// `suspendActions`.
    pub suspend_actions: Vec<SuspendAction>,
    /// `resumeActions`.
    pub resume_actions: Vec<SuspendAction>,
    /// Where `suspendDefinition` is.
    pub location: Location,
}

/// Decodes an action's `value` text, as upstream does (`json.Unmarshal`).
pub(crate) fn decode_action_value(text: &str) -> Result<serde_json::Value, String> {
    serde_json::from_str(text).map_err(|e| format!("failed to decode value: {e}"))
}

/// One `{path, value}` assignment of a suspend or resume action.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SuspendAction {
    /// `path`: a jq path to assign.
    pub path: Option<Expr>,
    /// `value`: JSON text of the value to assign.
    pub value: Option<Spanned<String>>,
    /// Where the action is.
    pub location: Location,
}

/// `podSelector` (paths evaluated against pods).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PodSelector {
    /// `componentTypeSelector`.
    pub component_type_selector: Option<ComponentTypeSelector>,
    /// `componentInstanceSelector.idPath`.
    pub component_instance_selector: Option<InstanceSelector>,
    /// `replicaSelector.keyPath`.
    pub replica_selector: Option<ReplicaSelector>,
    /// Where `podSelector` is.
    pub location: Location,
}

/// `componentTypeSelector`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ComponentTypeSelector {
    /// `keyPath`.
    pub key_path: Option<Expr>,
    /// `value`.
    pub value: Option<Spanned<String>>,
    /// `matchLabels` (key, value) in document order; `None` when absent.
    pub match_labels: Option<Vec<(Spanned<String>, Spanned<String>)>>,
    /// Where `componentTypeSelector` is.
    pub location: Location,
}

/// `componentInstanceSelector`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InstanceSelector {
    /// `idPath`.
    pub id_path: Option<Expr>,
    /// Where it is.
    pub location: Location,
}

/// `replicaSelector`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReplicaSelector {
    /// `keyPath`.
    pub key_path: Option<Expr>,
    /// Where it is.
    pub location: Location,
}

/// `statusDefinition`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StatusDefinition {
    /// `phaseDefinition.path`.
    pub phase_definition: Option<PhaseDefinition>,
    /// `conditionsDefinition`.
    pub conditions_definition: Option<ConditionsDefinition>,
    /// `statusMappings`, one entry per mapping key present, in the fixed key order
    /// (initializing, running, completed, failed, degraded, suspended, suspending, resuming).
    pub status_mappings: Vec<StatusMapping>,
    /// Whether `statusMappings` was present at all.
    pub has_status_mappings: bool,
    /// Where `statusDefinition` is.
    pub location: Location,
}

/// `phaseDefinition`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PhaseDefinition {
    /// `path`.
    pub path: Option<Expr>,
    /// Where it is.
    pub location: Location,
}

/// `conditionsDefinition`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConditionsDefinition {
    /// `path`: yields an array (or several) of condition objects.
    pub path: Option<Expr>,
    /// `typeFieldName`, default `type`.
    pub type_field_name: String,
    /// `statusFieldName`, default `status`.
    pub status_field_name: String,
    /// `messageFieldName`: when absent, messages are not read (upstream behaviour).
    pub message_field_name: Option<String>,
    /// `reasonFieldName`: when absent, reasons are not read and `reason` matchers never match.
    pub reason_field_name: Option<String>,
    /// Where it is.
    pub location: Location,
}

/// The shared phases, in the order matched phases are listed (the mapping key order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum Phase {
    /// Pods are being created or scheduled.
    Initializing,
    /// The workload is running.
    Running,
    /// The workload finished successfully.
    Completed,
    /// The workload failed.
    Failed,
    /// Running, but some part is unhealthy.
    Degraded,
    /// Suspended.
    Suspended,
    /// Being suspended.
    Suspending,
    /// Being resumed.
    Resuming,
    /// No mapping matched.
    Undefined,
}

impl Phase {
    /// The eight mappable phases in mapping key order.
    pub const MAPPABLE: [Phase; 8] = [
        Phase::Initializing,
        Phase::Running,
        Phase::Completed,
        Phase::Failed,
        Phase::Degraded,
        Phase::Suspended,
        Phase::Suspending,
        Phase::Resuming,
    ];

    /// The `statusMappings` key (`running`, ...); `None` for `Undefined`.
    pub fn mapping_key(self) -> Option<&'static str> {
        Some(match self {
            Phase::Initializing => "initializing",
            Phase::Running => "running",
            Phase::Completed => "completed",
            Phase::Failed => "failed",
            Phase::Degraded => "degraded",
            Phase::Suspended => "suspended",
            Phase::Suspending => "suspending",
            Phase::Resuming => "resuming",
            Phase::Undefined => return None,
        })
    }

    /// The capitalised name (`Running`), as upstream emits it.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Initializing => "Initializing",
            Phase::Running => "Running",
            Phase::Completed => "Completed",
            Phase::Failed => "Failed",
            Phase::Degraded => "Degraded",
            Phase::Suspended => "Suspended",
            Phase::Suspending => "Suspending",
            Phase::Resuming => "Resuming",
            Phase::Undefined => "Undefined",
        }
    }

    /// Parses a capitalised name.
    pub fn from_name(name: &str) -> Option<Phase> {
        Phase::MAPPABLE
            .into_iter()
            .chain([Phase::Undefined])
            .find(|p| p.as_str() == name)
    }
}

/// One `statusMappings.<key>` list.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusMapping {
    /// The phase this list maps to.
    pub phase: Phase,
    /// The matchers; the phase matches when any matches.
    pub matchers: Vec<StatusMatcher>,
    /// Where the key is.
    pub location: Location,
}

/// One matcher; it matches when all of its set parts hold.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StatusMatcher {
    /// `byPhase`.
    pub by_phase: Option<Spanned<String>>,
    /// `byConditions`.
    pub by_conditions: Vec<ExpectedCondition>,
    /// `byExpression`.
    pub by_expression: Option<ByExpression>,
    /// Where the matcher is.
    pub location: Location,
}

/// One `byConditions` entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExpectedCondition {
    /// `type` (required).
    pub condition_type: Option<Spanned<String>>,
    /// `status`.
    pub status: Option<Spanned<String>>,
    /// `reason`.
    pub reason: Option<Spanned<String>>,
    /// Where the entry is.
    pub location: Location,
}

/// The expression language of a `byExpression` (the languages are [`crate::expr`]'s).
pub use crate::expr::Language;

/// `byExpression`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ByExpression {
    /// `expression` (required).
    pub expression: Option<Expr>,
    /// `expectedResult` (required), compared with the first output's `tostring`.
    pub expected_result: Option<Spanned<String>>,
    /// `language` (workload-map extension; default jq).
    pub language: Language,
    /// Where it is.
    pub location: Location,
}

/// `optimizationInstructions`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Instructions {
    /// `gangScheduling`.
    pub gang_scheduling: Option<GangScheduling>,
    /// Where it is.
    pub location: Location,
}

/// `gangScheduling`: the deprecated `podGroups` list and/or the current `podGroup`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GangScheduling {
    /// `podGroups` (alpha, deprecated upstream but used by every upstream catalog entry).
    pub pod_groups: Vec<PodGroupAlpha>,
    /// `podGroup` (current form).
    pub pod_group: Option<PodGroup>,
    /// Where it is.
    pub location: Location,
}

/// One `podGroups` entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PodGroupAlpha {
    /// `name`.
    pub name: Option<Spanned<String>>,
    /// `members`.
    pub members: Vec<PodGroupMember>,
    /// Where it is.
    pub location: Location,
}

/// One `podGroups[].members` entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PodGroupMember {
    /// `componentName`.
    pub component_name: Option<Spanned<String>>,
    /// `groupByKeyPaths` (jq on pods).
    pub group_by_key_paths: Vec<Expr>,
    /// `filters` (jq on pods).
    pub filters: Vec<Expr>,
    /// Where it is.
    pub location: Location,
}

/// `podGroup` (current form).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PodGroup {
    /// `name`.
    pub name: Option<Spanned<String>>,
    /// `subGroups`.
    pub sub_groups: Vec<SubGroup>,
    /// `topology`.
    pub topology: Option<Topology>,
    /// Where it is.
    pub location: Location,
}

/// One `podGroup.subGroups` entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SubGroup {
    /// `componentName`.
    pub component_name: Option<Spanned<String>>,
    /// `topology`.
    pub topology: Option<Topology>,
    /// Where it is.
    pub location: Location,
}

/// A topology constraint.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Topology {
    /// `topologyName`.
    pub topology_name: Option<Spanned<String>>,
    /// `preferredTopologyLevel`.
    pub preferred_topology_level: Option<Spanned<String>>,
    /// `requiredTopologyLevel`.
    pub required_topology_level: Option<Spanned<String>>,
    /// Where it is.
    pub location: Location,
}

impl Definition {
    /// The root component and the children, root first, in document order.
    pub fn components(&self) -> impl Iterator<Item = &ComponentDefinition> {
        let s = self.structure.as_ref();
        s.and_then(|s| s.root_component.as_ref())
            .into_iter()
            .chain(s.into_iter().flat_map(|s| s.child_components.iter()))
    }
}

impl ComponentDefinition {
    /// The component name, or `""` when missing.
    pub fn name_str(&self) -> &str {
        self.name.as_ref().map_or("", |n| n.value.as_str())
    }
}

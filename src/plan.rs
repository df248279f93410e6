//! The plans every stage reads: what compiling a definition produces ([`crate::compile`]),
//! plain data pointing at compiled expressions. Instances, status, tree, pods, groups and edits
//! read them; none of them needs the compiler.

use serde_json::Value;

use crate::definition::Phase;
use crate::diagnostic::TextRange;
use crate::expr::{ExprId, Language};
use crate::view::GvkView;

/// A compiled expression together with where it was written (for diagnostics).
#[derive(Debug, Clone)]
pub(crate) struct CompiledExpr {
    /// The compiled expression; `None` when it did not compile (already reported).
    pub id: Option<ExprId>,
    /// The expression text.
    pub source: String,
    /// Dotted document path of the field.
    pub path: String,
    /// Byte range of the field's value in the definition text.
    pub range: TextRange,
}

/// Where a component's pod spec lives.
#[derive(Debug, Clone)]
pub(crate) enum SpecPlan {
    /// No specDefinition (a logical or placeholder component).
    None,
    /// `podTemplateSpecPath`.
    Template(CompiledExpr),
    /// `podSpecPath` (with an optional `metadataPath`).
    PodSpec(CompiledExpr),
    /// `fragmentedPodSpecDefinition`: (JSON field name, path) pairs.
    Fragmented(Vec<(&'static str, CompiledExpr)>),
}

/// `scaleDefinition` paths.
#[derive(Debug, Clone)]
pub(crate) struct ScalePlan {
    pub replicas: Option<CompiledExpr>,
    pub min: Option<CompiledExpr>,
    pub max: Option<CompiledExpr>,
}

/// A component ready to resolve.
#[derive(Debug, Clone)]
pub(crate) struct ComponentPlan {
    pub name: String,
    pub kind: Option<GvkView>,
    pub children: Vec<usize>,
    pub instance_ids: Option<CompiledExpr>,
    pub spec: SpecPlan,
    pub scale: Option<ScalePlan>,
    /// True when the component has a `specDefinition` (upstream's sole-owner rule counts these).
    pub has_spec_definition: bool,
    /// `podSelector`, evaluated on pods.
    pub pod_selector: Option<PodSelectorPlan>,
    /// The component's entry in the definition text (`None` when it was not given as text).
    pub range: Option<TextRange>,
    /// How its instances are located in the object (see [`crate::provenance`]).
    pub locate: crate::provenance::LocatePlan,
}

/// A component's `podSelector`, ready to evaluate on pods (upstream-semantics §3.6).
#[derive(Debug, Clone, Default)]
pub(crate) struct PodSelectorPlan {
    /// `componentTypeSelector`, when set.
    pub type_selector: Option<TypeSelectorPlan>,
    /// `componentInstanceSelector.idPath`.
    pub instance_id: Option<CompiledExpr>,
    /// `replicaSelector.keyPath`.
    pub replica_key: Option<CompiledExpr>,
}

/// `componentTypeSelector`: every set condition must hold.
#[derive(Debug, Clone, Default)]
pub(crate) struct TypeSelectorPlan {
    /// `keyPath`, or `keyPath == <value as JSON>` when a value is set (upstream concatenates
    /// the two texts without parentheses, and so do we).
    pub key: Option<CompiledExpr>,
    /// True when `key` is the comparison (match on a `true` result), false when it is the bare
    /// keyPath (match on any non-null result).
    pub compares_value: bool,
    /// `matchLabels`, equalities on `metadata.labels`.
    pub match_labels: Vec<(String, String)>,
}

/// `optimizationInstructions.gangScheduling`, ready to evaluate (upstream-semantics §3.8).
#[derive(Debug, Clone, Default)]
pub(crate) struct GangPlan {
    /// `podGroups` (alpha), in document order.
    pub pod_groups: Vec<AlphaGroupPlan>,
    /// `podGroup` (current form); when set, KAI uses it and ignores `podGroups`.
    pub pod_group: Option<PodGroupPlan>,
}

/// One `podGroups` entry.
#[derive(Debug, Clone)]
pub(crate) struct AlphaGroupPlan {
    pub name: String,
    pub members: Vec<MemberPlan>,
}

/// One `podGroups[].members` entry.
#[derive(Debug, Clone)]
pub(crate) struct MemberPlan {
    pub component_name: String,
    /// The component's index in the plans, when it names one.
    pub component: Option<usize>,
    pub group_by: Vec<CompiledExpr>,
    pub filters: Vec<CompiledExpr>,
}

/// `podGroup` (current form).
#[derive(Debug, Clone)]
pub(crate) struct PodGroupPlan {
    pub name: String,
    pub sub_groups: Vec<(String, Option<usize>, Option<crate::view::TopologyView>)>,
    pub topology: Option<crate::view::TopologyView>,
}

/// One `byConditions` entry.
#[derive(Debug, Clone)]
pub(crate) struct ConditionPlan {
    pub condition_type: String,
    pub status: Option<String>,
    pub reason: Option<String>,
}

/// One `byExpression`.
#[derive(Debug, Clone)]
pub(crate) struct ExpressionPlan {
    pub expr: CompiledExpr,
    pub expected: String,
    pub language: Language,
}

/// One status matcher.
#[derive(Debug, Clone, Default)]
pub(crate) struct MatcherPlan {
    pub by_phase: Option<String>,
    pub by_conditions: Vec<ConditionPlan>,
    pub by_expression: Option<ExpressionPlan>,
    /// The matcher's list item in the definition text (`None` when it was not given as text).
    pub range: Option<TextRange>,
}

/// How conditions are read.
#[derive(Debug, Clone)]
pub(crate) struct ConditionsPlan {
    pub path: CompiledExpr,
    pub type_field: String,
    pub status_field: String,
    pub message_field: Option<String>,
    pub reason_field: Option<String>,
}

/// The root's statusDefinition, ready to evaluate.
#[derive(Debug, Clone, Default)]
pub(crate) struct StatusPlan {
    pub phase: Option<CompiledExpr>,
    pub conditions: Option<ConditionsPlan>,
    pub mappings: Vec<(Phase, Vec<MatcherPlan>)>,
}

// --- Write plans: where edits write (src/edit) ------------------------------------------------

/// A path that edits write through: `path(<expression>)` compiled once, next to the reader's
/// own compiled expression, so an edit writes exactly the locations the reader reads.
#[derive(Debug, Clone)]
pub(crate) struct WritePath {
    /// The expression as written, where it was written; `id` is `path(<expression>)`, `None`
    /// when the expression is not writable or did not compile.
    pub expr: CompiledExpr,
    /// Why the expression is not a path expression, when it is not one.
    pub not_writable: Option<String>,
}

/// One suspend or resume action: assign `value` through `path`.
#[derive(Debug, Clone)]
pub(crate) struct ActionPlan {
    /// The path; `None` when the action has none (already reported).
    pub path: Option<WritePath>,
    /// The decoded value, or why the text is not JSON.
    pub value: Result<Value, String>,
    /// Dotted document path and range of the action's value (for diagnostics).
    pub value_at: (String, TextRange),
}

/// Where a component's pod spec is written.
#[derive(Debug, Clone)]
pub(crate) enum SpecWrite {
    /// No specDefinition.
    None,
    /// `podTemplateSpecPath` (edits write its `spec`).
    Template(WritePath),
    /// `podSpecPath`.
    PodSpec(WritePath),
    /// `fragmentedPodSpecDefinition`: (fragmented pod spec field, path) pairs.
    Fragmented(Vec<(&'static str, WritePath)>),
}

/// Everything edits need, compiled with the definition.
#[derive(Debug, Clone, Default)]
pub(crate) struct WritePlans {
    /// The root's `suspendDefinition`: (suspendActions, resumeActions).
    pub suspend: Option<(Vec<ActionPlan>, Vec<ActionPlan>)>,
    /// Per component (same indices as `components`): where its pod spec is written.
    pub specs: Vec<SpecWrite>,
}

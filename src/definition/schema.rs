//! The definition format described once, as data: every object type with its fields.
//!
//! The reader takes its known-field lists (unknown-field warnings, "did you mean" help) from
//! these tables, and [`json_schema`] generates `catalog/definition.schema.json` from them, so
//! the two cannot disagree about which fields exist. Which fields are required is recorded
//! for the schema; the reader and the validator enforce it with their own messages.

use serde_json::{json, Map, Value};

use crate::definition::{API_VERSION, KIND};

/// One object type of the format.
#[derive(Debug)]
pub struct ObjectType {
    /// Key under `$defs` in the JSON Schema (`componentDefinition`).
    pub id: &'static str,
    /// How diagnostics name it (`component`, `byConditions item`).
    pub name: &'static str,
    /// One line on what it is.
    pub description: &'static str,
    /// Whether fields outside [`fields`](Self::fields) get an unknown-field warning. False only
    /// for Kubernetes `metadata`, where labels, annotations and the like are expected.
    pub warns_unknown: bool,
    /// Its fields, in the order the documentation lists them.
    pub fields: &'static [Field],
}

impl ObjectType {
    /// The JSON names of its fields, in order.
    pub fn field_names(&self) -> Vec<&'static str> {
        self.fields.iter().map(|f| f.name).collect()
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// One field of an object type.
#[derive(Debug)]
pub struct Field {
    /// JSON name (`podTemplateSpecPath`).
    pub name: &'static str,
    /// What its value is.
    pub value: ValueKind,
    /// Whether upstream requires it when the enclosing object is present.
    pub required: bool,
    /// Whether a list or map value must have at least one entry.
    pub non_empty: bool,
    /// The value assumed when it is absent, when there is one.
    pub default: Option<&'static str>,
    /// One line on what it means.
    pub description: &'static str,
}

/// What a field's value is.
#[derive(Debug, Clone, Copy)]
pub enum ValueKind {
    /// A plain string.
    String,
    /// An expression string (jq, or the enclosing `byExpression`'s `language`).
    Expression,
    /// A list of jq expressions.
    ExpressionList,
    /// One of these strings.
    Enum(&'static [&'static str]),
    /// An object of this type.
    Object(&'static ObjectType),
    /// A list of objects of this type.
    List(&'static ObjectType),
    /// A map from strings to strings.
    StringMap,
    /// Accepted and not read (the Kubernetes `status` of a definition).
    Ignored,
}

/// Descriptions only serve the generated JSON Schema: the wasm module, which never generates
/// it, keeps none of their text (the tables are evaluated at compile time, so the literals are
/// not emitted there).
const fn doc(description: &'static str) -> &'static str {
    if cfg!(target_arch = "wasm32") {
        ""
    } else {
        description
    }
}

const fn opt(name: &'static str, value: ValueKind, description: &'static str) -> Field {
    Field {
        name,
        value,
        required: false,
        non_empty: false,
        default: None,
        description: doc(description),
    }
}

const fn req(name: &'static str, value: ValueKind, description: &'static str) -> Field {
    Field {
        required: true,
        ..opt(name, value, description)
    }
}

impl Field {
    const fn non_empty(self) -> Field {
        Field {
            non_empty: true,
            ..self
        }
    }

    const fn default(self, value: &'static str) -> Field {
        Field {
            default: Some(value),
            ..self
        }
    }
}

use ValueKind::{Expression, ExpressionList, Ignored, List, Object, StringMap};
const STRING: ValueKind = ValueKind::String;

const fn object(
    id: &'static str,
    name: &'static str,
    description: &'static str,
    fields: &'static [Field],
) -> ObjectType {
    ObjectType {
        id,
        name,
        description: doc(description),
        warns_unknown: true,
        fields,
    }
}

// ----- the tables, from the document root down -------------------------------------------------

/// The whole document.
pub static DEFINITION: ObjectType = object(
    "definition",
    "the definition",
    "A workload definition: how to read one kind of Kubernetes workload.",
    &[
        req(
            "apiVersion",
            ValueKind::Enum(&[API_VERSION]),
            "Always run.ai/v1alpha1.",
        ),
        req("kind", ValueKind::Enum(&[KIND]), "Always Karta."),
        opt("metadata", Object(&METADATA), "Kubernetes object metadata."),
        req("spec", Object(&SPEC), "The definition itself."),
        opt(
            "status",
            Ignored,
            "Written by the upstream operator; ignored here.",
        ),
    ],
);

/// `metadata`: Kubernetes object metadata, of which only the name is read.
pub static METADATA: ObjectType = ObjectType {
    warns_unknown: false,
    ..object(
        "metadata",
        "metadata",
        "Kubernetes object metadata; only the name is read, other fields are accepted silently.",
        &[opt(
            "name",
            STRING,
            "The definition's name, by convention after its root kind (batch-job-v1).",
        )],
    )
};

/// `spec`.
pub static SPEC: ObjectType = object(
    "spec",
    "spec",
    "The structure of the workload and hints for schedulers.",
    &[
        req(
            "structureDefinition",
            Object(&STRUCTURE),
            "The components the workload is made of.",
        ),
        opt(
            "optimizationInstructions",
            Object(&INSTRUCTIONS),
            "Hints for schedulers (gang scheduling).",
        ),
    ],
);

/// `spec.structureDefinition`.
pub static STRUCTURE: ObjectType = object(
    "structureDefinition",
    "structureDefinition",
    "The component tree: one root and its descendants.",
    &[
        req(
            "rootComponent",
            Object(&COMPONENT),
            "The workload object itself.",
        ),
        opt(
            "childComponents",
            List(&COMPONENT),
            "Components below the root, each naming its parent in ownerRef; names are unique.",
        ),
        opt(
            "additionalChildKinds",
            List(&GVK),
            "Other kinds the workload creates that are not components.",
        ),
    ],
);

/// A group/version/kind (a component's `kind`, an `additionalChildKinds` item).
pub static GVK: ObjectType = object(
    "gvk",
    "kind",
    "A Kubernetes group, version and kind.",
    &[
        req(
            "group",
            STRING,
            "API group; must be present, \"\" for the core group.",
        ),
        req("version", STRING, "API version (v1)."),
        req("kind", STRING, "Kind (Job)."),
    ],
);

/// A component: the root or a child.
pub static COMPONENT: ObjectType = object(
    "componentDefinition",
    "component",
    "A part of the workload: the root object or a role inside it.",
    &[
        req(
            "name",
            STRING,
            "Unique name of the component within the definition.",
        ),
        opt(
            "kind",
            Object(&GVK),
            "The Kubernetes kind it is; absent for a purely logical grouping.",
        ),
        opt(
            "ownerRef",
            STRING,
            "The parent component's name; children only, never on the root.",
        ),
        opt(
            "specDefinition",
            Object(&SPEC_DEFINITION),
            "Where this component's pod spec is, on the workload object.",
        ),
        opt(
            "scaleDefinition",
            Object(&SCALE),
            "Where its replica counts are.",
        ),
        opt(
            "statusDefinition",
            Object(&STATUS),
            "How the workload's phase is read; required on the root and only there.",
        ),
        opt(
            "suspendDefinition",
            Object(&SUSPEND),
            "How to suspend and resume the workload natively.",
        ),
        opt(
            "instanceIdPath",
            Expression,
            "jq: the ids of its instances, for a component with several (a list or map of specs).",
        ),
        opt(
            "podSelector",
            Object(&POD_SELECTOR),
            "How a live pod is matched to this component, instance and replica.",
        ),
    ],
);

/// `specDefinition`.
pub static SPEC_DEFINITION: ObjectType = object(
    "specDefinition",
    "specDefinition",
    "Where the pod spec is; at most one of podTemplateSpecPath, podSpecPath and fragmentedPodSpecDefinition.",
    &[
        opt(
            "podTemplateSpecPath",
            Expression,
            "jq: a PodTemplateSpec (metadata and spec) per instance.",
        ),
        opt("podSpecPath", Expression, "jq: a bare PodSpec per instance."),
        opt(
            "metadataPath",
            Expression,
            "jq: an ObjectMeta per instance, to go with podSpecPath.",
        ),
        opt(
            "fragmentedPodSpecDefinition",
            Object(&FRAGMENTED),
            "Pod fields spread over the object, one path per field.",
        ),
    ],
);

/// `fragmentedPodSpecDefinition`.
pub static FRAGMENTED: ObjectType = object(
    "fragmentedPodSpecDefinition",
    "fragmentedPodSpecDefinition",
    "Pod fields spread over the object; each path gives one value per instance.",
    &[
        opt("schedulerNamePath", Expression, "jq: the scheduler name."),
        opt("labelsPath", Expression, "jq: a map of pod labels."),
        opt(
            "annotationsPath",
            Expression,
            "jq: a map of pod annotations.",
        ),
        opt(
            "resourcesPath",
            Expression,
            "jq: a ResourceRequirements, used when the containers request nothing.",
        ),
        opt(
            "resourceClaimsPath",
            Expression,
            "jq: a list of pod resource claims.",
        ),
        opt("podAffinityPath", Expression, "jq: a PodAffinity."),
        opt("nodeAffinityPath", Expression, "jq: a NodeAffinity."),
        opt("containersPath", Expression, "jq: a list of containers."),
        opt("containerPath", Expression, "jq: the one main container."),
        opt(
            "priorityClassNamePath",
            Expression,
            "jq: the priority class name.",
        ),
        opt("imagePath", Expression, "jq: the main container's image."),
    ],
);

/// `scaleDefinition`.
pub static SCALE: ObjectType = object(
    "scaleDefinition",
    "scaleDefinition",
    "Replica counts, one per instance (numbers or numeric strings).",
    &[
        opt("replicasPath", Expression, "jq: the number of replicas."),
        opt(
            "minReplicasPath",
            Expression,
            "jq: the minimum number of replicas.",
        ),
        opt(
            "maxReplicasPath",
            Expression,
            "jq: the maximum number of replicas.",
        ),
    ],
);

/// `suspendDefinition`.
pub static SUSPEND: ObjectType = object(
    "suspendDefinition",
    "suspendDefinition",
    "Assignments that suspend and resume the workload, applied in order.",
    &[
        req(
            "suspendActions",
            List(&SUSPEND_ACTION),
            "What to assign to suspend it.",
        )
        .non_empty(),
        req(
            "resumeActions",
            List(&SUSPEND_ACTION),
            "What to assign to resume it.",
        )
        .non_empty(),
    ],
);

/// A `suspendActions` or `resumeActions` item.
pub static SUSPEND_ACTION: ObjectType = object(
    "suspendAction",
    "action",
    "One assignment: `value` decoded from JSON and written at `path`.",
    &[
        req("path", Expression, "jq: the path to assign through."),
        req(
            "value",
            STRING,
            "The value as JSON text (\"true\", \"0\", \"\\\"Suspended\\\"\").",
        ),
    ],
);

/// `podSelector`.
pub static POD_SELECTOR: ObjectType = object(
    "podSelector",
    "podSelector",
    "How a live pod is matched to this component; paths run on the pod.",
    &[
        opt(
            "componentTypeSelector",
            Object(&COMPONENT_TYPE_SELECTOR),
            "Whether the pod belongs to this component.",
        ),
        opt(
            "componentInstanceSelector",
            Object(&COMPONENT_INSTANCE_SELECTOR),
            "Which instance the pod belongs to; goes with instanceIdPath.",
        ),
        opt(
            "replicaSelector",
            Object(&REPLICA_SELECTOR),
            "Which replica group the pod belongs to; descendants inherit it.",
        ),
    ],
);

/// `componentTypeSelector`.
pub static COMPONENT_TYPE_SELECTOR: ObjectType = object(
    "componentTypeSelector",
    "componentTypeSelector",
    "The pod belongs to the component when every condition that is set holds; keyPath or matchLabels must be set.",
    &[
        opt(
            "keyPath",
            Expression,
            "jq on the pod: must give a value (equal to `value` when that is set).",
        ),
        opt("value", STRING, "The value keyPath must give; needs keyPath."),
        opt(
            "matchLabels",
            StringMap,
            "Labels the pod must carry with these values.",
        )
        .non_empty(),
    ],
);

/// `componentInstanceSelector`.
pub static COMPONENT_INSTANCE_SELECTOR: ObjectType = object(
    "componentInstanceSelector",
    "componentInstanceSelector",
    "Reads the pod's instance id.",
    &[req(
        "idPath",
        Expression,
        "jq on the pod: its instance id, as instanceIdPath gives it.",
    )],
);

/// `replicaSelector`.
pub static REPLICA_SELECTOR: ObjectType = object(
    "replicaSelector",
    "replicaSelector",
    "Reads the pod's replica group.",
    &[req(
        "keyPath",
        Expression,
        "jq on the pod: its replica key (e.g. a group index).",
    )],
);

/// `statusDefinition`.
pub static STATUS: ObjectType = object(
    "statusDefinition",
    "statusDefinition",
    "How the workload's phase is read from its object.",
    &[
        opt(
            "phaseDefinition",
            Object(&PHASE),
            "Where a raw phase string is, for byPhase matchers.",
        ),
        opt(
            "conditionsDefinition",
            Object(&CONDITIONS),
            "Where the conditions are, for byConditions matchers.",
        ),
        req(
            "statusMappings",
            Object(&STATUS_MAPPINGS),
            "Which matchers give which phase.",
        ),
    ],
);

/// `phaseDefinition`.
pub static PHASE: ObjectType = object(
    "phaseDefinition",
    "phaseDefinition",
    "Where the raw phase string is.",
    &[req("path", Expression, "jq: the phase string.")],
);

/// `conditionsDefinition`.
pub static CONDITIONS: ObjectType = object(
    "conditionsDefinition",
    "conditionsDefinition",
    "Where the conditions are and how their fields are named.",
    &[
        req(
            "path",
            Expression,
            "jq: one or more lists of condition objects.",
        ),
        opt(
            "typeFieldName",
            STRING,
            "The field holding a condition's type.",
        )
        .default("type"),
        opt(
            "statusFieldName",
            STRING,
            "The field holding a condition's status.",
        )
        .default("status"),
        opt(
            "messageFieldName",
            STRING,
            "The field holding a condition's message; messages are read only when this is set.",
        ),
        opt(
            "reasonFieldName",
            STRING,
            "The field holding a condition's reason; reason matchers match only when this is set.",
        ),
    ],
);

/// `statusMappings`: one key per phase that can be mapped (every phase but Undefined).
pub static STATUS_MAPPINGS: ObjectType = object(
    "statusMappings",
    "statusMappings",
    "Phase to matchers: a phase holds when any of its matchers matches; Undefined when none does.",
    &[
        opt("initializing", List(&MATCHER), "Matchers for Initializing."),
        opt("running", List(&MATCHER), "Matchers for Running."),
        opt("completed", List(&MATCHER), "Matchers for Completed."),
        opt("failed", List(&MATCHER), "Matchers for Failed."),
        opt("degraded", List(&MATCHER), "Matchers for Degraded."),
        opt("suspended", List(&MATCHER), "Matchers for Suspended."),
        opt("suspending", List(&MATCHER), "Matchers for Suspending."),
        opt("resuming", List(&MATCHER), "Matchers for Resuming."),
    ],
);

/// A matcher in a `statusMappings` list.
pub static MATCHER: ObjectType = object(
    "statusMatcher",
    "status matcher",
    "Matches when every part that is set holds.",
    &[
        opt(
            "byPhase",
            STRING,
            "Equal to the phase phaseDefinition reads.",
        ),
        opt(
            "byConditions",
            List(&EXPECTED_CONDITION),
            "Conditions that must all be present as described.",
        ),
        opt(
            "byExpression",
            Object(&BY_EXPRESSION),
            "An expression with an expected result.",
        ),
    ],
);

/// A `byConditions` item.
pub static EXPECTED_CONDITION: ObjectType = object(
    "expectedCondition",
    "byConditions item",
    "A condition that must be present, with this status and reason when they are given.",
    &[
        req("type", STRING, "The condition type."),
        opt(
            "status",
            STRING,
            "The wanted status (True, False, Unknown).",
        ),
        opt(
            "reason",
            STRING,
            "The wanted reason; needs conditionsDefinition.reasonFieldName.",
        ),
    ],
);

/// `byExpression`.
pub static BY_EXPRESSION: ObjectType = object(
    "byExpression",
    "byExpression",
    "Matches when the first result of the expression, as a string, equals expectedResult.",
    &[
        req(
            "expression",
            Expression,
            "The expression, in `language`, run on the workload object.",
        ),
        req(
            "expectedResult",
            STRING,
            "The wanted result, as a string (\"true\").",
        ),
        opt(
            "language",
            ValueKind::Enum(&["jq", "cel"]),
            "The expression language; an extension of this project, upstream has jq only.",
        )
        .default("jq"),
    ],
);

/// `optimizationInstructions`.
pub static INSTRUCTIONS: ObjectType = object(
    "optimizationInstructions",
    "optimizationInstructions",
    "Hints for schedulers.",
    &[opt(
        "gangScheduling",
        Object(&GANG),
        "Which pods must be scheduled together.",
    )],
);

/// `gangScheduling`.
pub static GANG: ObjectType = object(
    "gangScheduling",
    "gangScheduling",
    "Gang scheduling in one of two forms; podGroup wins when both are given.",
    &[
        opt(
            "podGroups",
            List(&POD_GROUPS_ITEM),
            "Pod groups (the older, alpha form).",
        ),
        opt(
            "podGroup",
            Object(&POD_GROUP),
            "One pod group with sub-groups (the current form).",
        ),
    ],
);

/// A `podGroups` item.
pub static POD_GROUPS_ITEM: ObjectType = object(
    "podGroupsItem",
    "podGroups item",
    "A pod group of the alpha form.",
    &[
        req("name", STRING, "The group's name, unique among podGroups."),
        req(
            "members",
            List(&MEMBER),
            "The components whose pods form the group.",
        ),
    ],
);

/// A `members` item.
pub static MEMBER: ObjectType = object(
    "podGroupMember",
    "members item",
    "A component whose pods are in the group.",
    &[
        req("componentName", STRING, "The component's name."),
        opt(
            "groupByKeyPaths",
            ExpressionList,
            "jq on the pod, each giving one non-empty key; pods with equal keys form one gang.",
        ),
        opt(
            "filters",
            ExpressionList,
            "jq on the pod, each of which must give true for the pod to be a member.",
        ),
    ],
);

/// `podGroup`.
pub static POD_GROUP: ObjectType = object(
    "podGroup",
    "podGroup",
    "One pod group with sub-groups per component.",
    &[
        req("name", STRING, "The group's name."),
        opt(
            "subGroups",
            List(&SUB_GROUP),
            "One sub-group per component, unique by componentName.",
        ),
        opt(
            "topology",
            Object(&TOPOLOGY),
            "Where the whole group should be placed.",
        ),
    ],
);

/// A `subGroups` item.
pub static SUB_GROUP: ObjectType = object(
    "subGroup",
    "subGroups item",
    "The pods of one component within the pod group.",
    &[
        req("componentName", STRING, "The component's name."),
        opt(
            "topology",
            Object(&TOPOLOGY),
            "Where this sub-group should be placed.",
        ),
    ],
);

/// `topology`.
pub static TOPOLOGY: ObjectType = object(
    "topology",
    "topology",
    "A topology placement constraint.",
    &[
        req("topologyName", STRING, "The topology's name."),
        req(
            "preferredTopologyLevel",
            STRING,
            "The level to pack pods within when possible.",
        ),
        req(
            "requiredTopologyLevel",
            STRING,
            "The level pods must be packed within.",
        ),
    ],
);

/// Every object type, the document first, each once.
pub static TYPES: &[&ObjectType] = &[
    &DEFINITION,
    &METADATA,
    &SPEC,
    &STRUCTURE,
    &GVK,
    &COMPONENT,
    &SPEC_DEFINITION,
    &FRAGMENTED,
    &SCALE,
    &SUSPEND,
    &SUSPEND_ACTION,
    &POD_SELECTOR,
    &COMPONENT_TYPE_SELECTOR,
    &COMPONENT_INSTANCE_SELECTOR,
    &REPLICA_SELECTOR,
    &STATUS,
    &PHASE,
    &CONDITIONS,
    &STATUS_MAPPINGS,
    &MATCHER,
    &EXPECTED_CONDITION,
    &BY_EXPRESSION,
    &INSTRUCTIONS,
    &GANG,
    &POD_GROUPS_ITEM,
    &MEMBER,
    &POD_GROUP,
    &SUB_GROUP,
    &TOPOLOGY,
];

// ----- JSON Schema --------------------------------------------------------------------------

/// Where the JSON Schema is published (`$id`); the npm package ships the same file as
/// `workload-map/definition.schema.json`.
pub const SCHEMA_ID: &str =
    "https://raw.githubusercontent.com/workload-map/workload-map/main/catalog/definition.schema.json";

/// The JSON Schema (draft 2020-12) of the definition format, generated from the tables: the
/// document at the root, every other object type under `$defs`.
pub fn json_schema() -> Value {
    let mut root = Map::new();
    root.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    root.insert("$id".into(), json!(SCHEMA_ID));
    root.insert(
        "$comment".into(),
        json!(
            "Generated from src/definition/schema.rs. Strict: a field the format does not know \
             (a misspelt one) is rejected here (additionalProperties: false) everywhere but in \
             metadata, which is Kubernetes's. The reader itself only warns about one \
             (definition/unknown-field), so that definitions written for a newer format still load."
        ),
    );
    root.insert(
        "title".into(),
        json!(format!("Workload definition ({API_VERSION} {KIND})")),
    );
    root.extend(object_schema(&DEFINITION));
    let defs: Map<String, Value> = TYPES
        .iter()
        .filter(|t| t.id != DEFINITION.id)
        .map(|t| (t.id.to_owned(), Value::Object(object_schema(t))))
        .collect();
    root.insert("$defs".into(), Value::Object(defs));
    Value::Object(root)
}

fn object_schema(t: &ObjectType) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("type".into(), json!("object"));
    o.insert("description".into(), json!(t.description));
    // Closed wherever the reader warns about unknown fields; Kubernetes metadata stays open.
    o.insert("additionalProperties".into(), json!(!t.warns_unknown));
    let properties: Map<String, Value> = t
        .fields
        .iter()
        .map(|f| (f.name.to_owned(), field_schema(f)))
        .collect();
    o.insert("properties".into(), Value::Object(properties));
    let required: Vec<&str> = t
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect();
    if !required.is_empty() {
        o.insert("required".into(), json!(required));
    }
    o
}

fn reference(t: &ObjectType) -> Value {
    json!({"$ref": format!("#/$defs/{}", t.id)})
}

fn field_schema(f: &Field) -> Value {
    let mut o = Map::new();
    match f.value {
        ValueKind::String | Expression => {
            o.insert("type".into(), json!("string"));
        }
        ExpressionList => {
            o.insert("type".into(), json!("array"));
            o.insert("items".into(), json!({"type": "string"}));
        }
        ValueKind::Enum([only]) => {
            o.insert("const".into(), json!(only));
        }
        ValueKind::Enum(values) => {
            o.insert("enum".into(), json!(values));
        }
        // `$ref` next to `description` is fine in 2020-12 (it is an applicator there).
        Object(t) => {
            o.insert("$ref".into(), json!(format!("#/$defs/{}", t.id)));
        }
        List(t) => {
            o.insert("type".into(), json!("array"));
            o.insert("items".into(), reference(t));
        }
        StringMap => {
            o.insert("type".into(), json!("object"));
            o.insert("additionalProperties".into(), json!({"type": "string"}));
        }
        Ignored => {}
    }
    if f.non_empty {
        let key = if matches!(f.value, StringMap) {
            "minProperties"
        } else {
            "minItems"
        };
        o.insert(key.into(), json!(1));
    }
    if let Some(default) = f.default {
        o.insert("default".into(), json!(default));
    }
    o.insert("description".into(), json!(f.description));
    Value::Object(o)
}

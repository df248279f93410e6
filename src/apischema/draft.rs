//! Drafting a definition from a type's schema alone (or merged with an object of the type).
//!
//! The schema says where every pod template and pod spec can be, which integer fields sit
//! beside them, what the status holds and whether there is a `spec.suspend`: [`sample_object`]
//! writes the one object that has all of them (a list holds one item with its `name`, a map two
//! entries; integers beside a template are 1; a phase field takes a value of its enum; the
//! conditions take the types the schema documents), and [`draft_from_schema`] drafts from that
//! object with the object drafter ([`crate::draft`]), so both drafts read shapes the same way:
//! every pod template becomes a component, lists and maps of them instances with ids from
//! `name` or the map key, the integer replica fields beside a template its replica paths,
//! documented condition types condition matchers, a `spec.suspend` boolean suspend and resume
//! actions. Given an object too, the object's values are laid over the sample (what the object
//! shows wins, the schema adds the templates it lacks). Bounded: the walk stops at
//! [`MAX_DEPTH`] and never enters a node it is already inside (`$ref` cycles).

use serde_json::{json, Map, Value};

use super::{types, NodeId, Role, SchemaSet, TypeEntry};
use crate::diagnostic::{codes, Diagnostic, Source};
use crate::draft::Draft;

/// Integer fields that count a pod spec's replicas (as the object drafter reads them).
const REPLICA_FIELDS: &[&str] = &[
    "replicas",
    "parallelism",
    "size",
    "numWorkers",
    "numNodes",
    "workers",
    "instances",
];

/// How deep the sample follows the schema.
pub const MAX_DEPTH: usize = 24;

/// Condition types the drafter knows how to map, looked for in the schema's enums and
/// descriptions of `status.conditions`.
const CONDITION_TYPES: &[&str] = &[
    "Ready",
    "Available",
    "Running",
    "Succeeded",
    "Complete",
    "Completed",
    "Failed",
    "Suspended",
    "Progressing",
    "Created",
];

/// The one object that has every pod template, replica field, status field and suspend flag
/// the schema of `entry` describes.
pub fn sample_object(set: &SchemaSet, entry: &TypeEntry) -> Value {
    let mut object = Map::new();
    object.insert("apiVersion".into(), json!(entry.api_version()));
    object.insert("kind".into(), json!(entry.kind));
    object.insert("metadata".into(), json!({"name": "example"}));
    let root = set.resolve(entry.root);
    if root.role == Role::PodTemplateSpec {
        object.insert("spec".into(), pod_spec());
    } else if let Some(spec) = set.field(entry.root, "spec") {
        let mut visiting = Vec::new();
        // Resources written on the custom resource itself count only where the type has no
        // pod template or pod spec at all (a fragmented pod spec, as NIMService's).
        let mut sample = sample(set, spec, 0, false, &mut visiting)
            .or_else(|| sample(set, spec, 0, true, &mut visiting))
            .unwrap_or_else(|| json!({}));
        if let (Some(map), Some(suspend)) = (sample.as_object_mut(), set.field(spec, "suspend")) {
            if set.resolve(suspend).types & types::BOOLEAN != 0 {
                map.insert("suspend".into(), json!(false));
            }
        }
        object.insert("spec".into(), sample);
    }
    if let Some(status) = set.field(entry.root, "status") {
        object.insert("status".into(), status_sample(set, status));
    }
    Value::Object(object)
}

fn pod_spec() -> Value {
    json!({"containers": [{"name": "main", "image": "image"}]})
}

/// The sample of a node when pods are somewhere below it.
fn sample(
    set: &SchemaSet,
    node: NodeId,
    depth: usize,
    resources: bool,
    visiting: &mut Vec<NodeId>,
) -> Option<Value> {
    let r = set.resolve(node);
    match r.role {
        Role::PodTemplateSpec => return Some(json!({"metadata": {}, "spec": pod_spec()})),
        Role::PodSpec => {
            // A pod spec extended with its own counts (KServe's `predictor.minReplicas`).
            let mut spec = pod_spec();
            if let Some(map) = spec.as_object_mut() {
                for name in set.field_names(node) {
                    let counts = REPLICA_FIELDS.contains(&name)
                        || name.ends_with("Replicas")
                        || name.ends_with("replicas");
                    let integer = set
                        .field(node, name)
                        .is_some_and(|c| set.resolve(c).types & types::INTEGER != 0);
                    if counts && integer {
                        map.insert(name.to_owned(), json!(1));
                    }
                }
            }
            return Some(spec);
        }
        Role::Plain => {}
    }
    if depth >= MAX_DEPTH || visiting.contains(&node) || r.open {
        return None;
    }
    visiting.push(node);
    let found = if let Some(items) = r.items {
        sample(set, items, depth + 1, resources, visiting)
            .map(|item| Value::Array(vec![named(item, 0)]))
    } else if let Some(values) = r.additional {
        sample(set, values, depth + 1, resources, visiting)
            .map(|v| json!({"first": v.clone(), "second": v}))
    } else {
        let mut map = Map::new();
        for name in set.field_names(node) {
            let Some(child) = set.field(node, name) else {
                continue;
            };
            if let Some(v) = sample(set, child, depth + 1, resources, visiting) {
                map.insert(name.to_owned(), v);
            }
        }
        if map.is_empty() && resources {
            for name in set.field_names(node) {
                let Some(child) = set.field(node, name) else {
                    continue;
                };
                if name.starts_with("resources") && is_requirements(set, child) {
                    map.insert(
                        name.to_owned(),
                        json!({"requests": {"cpu": "1"}, "limits": {}}),
                    );
                }
            }
        }
        if map.is_empty() {
            None
        } else {
            // The scalars beside the pods: counts, names (instance ids).
            for name in set.field_names(node) {
                let Some(child) = set.field(node, name) else {
                    continue;
                };
                let c = set.resolve(child);
                if map.contains_key(name) || c.open {
                    continue;
                }
                if c.types & types::INTEGER != 0 || c.int_or_string {
                    map.insert(name.to_owned(), json!(1));
                } else if c.types & types::STRING != 0
                    && (name == "name" || name.ends_with("Name"))
                    && name != "schedulerName"
                {
                    map.insert(name.to_owned(), json!(name));
                }
            }
            Some(Value::Object(map))
        }
    };
    visiting.pop();
    found
}

/// A ResourceRequirements: `requests` and `limits` maps.
fn is_requirements(set: &SchemaSet, node: NodeId) -> bool {
    ["requests", "limits"].iter().all(|f| {
        set.field(node, f)
            .is_some_and(|n| set.resolve(n).additional.is_some())
    })
}

/// List items get distinct names (the drafter takes ids from unique `name` fields).
fn named(mut item: Value, index: usize) -> Value {
    if let Some(map) = item.as_object_mut() {
        for (key, value) in map.iter_mut() {
            if (key == "name" || key.ends_with("Name")) && value.is_string() {
                *value = json!(format!("{key}-{index}"));
            }
        }
    }
    item
}

/// The status field the drafter reads as the phase, in its order: `phase`, `state`, a
/// `*Phase`/`*State` string, a `*Status` string, `state`/`phase` one level down.
fn phase_field(set: &SchemaSet, status: NodeId) -> Option<(Vec<String>, NodeId)> {
    let names = set.field_names(status);
    let string = |id: NodeId| set.resolve(id).types & types::STRING != 0;
    let field = |name: &str| set.field(status, name).filter(|id| string(*id));
    for name in ["phase", "state"] {
        if let Some(id) = field(name) {
            return Some((vec![name.to_owned()], id));
        }
    }
    let ends = |suffixes: &[&str]| {
        names.iter().find_map(|n| {
            let lower = n.to_ascii_lowercase();
            suffixes
                .iter()
                .any(|s| lower.ends_with(s))
                .then(|| field(n).map(|id| (vec![(*n).to_owned()], id)))
                .flatten()
        })
    };
    if let Some(found) = ends(&["phase", "state"]).or_else(|| ends(&["status"])) {
        return Some(found);
    }
    names.iter().find_map(|n| {
        let outer = set.field(status, n)?;
        ["state", "phase"].iter().find_map(|inner| {
            let id = set.field(outer, inner).filter(|id| string(*id))?;
            Some((vec![(*n).to_owned(), (*inner).to_owned()], id))
        })
    })
}

/// The status: the phase field with a value of its enum, the conditions with their documented
/// types, the counters the drafter reads.
fn status_sample(set: &SchemaSet, status: NodeId) -> Value {
    let mut map = Map::new();
    for name in set.field_names(status) {
        let Some(child) = set.field(status, name) else {
            continue;
        };
        let c = set.resolve(child);
        if name == "conditions" && c.items.is_some() {
            let types = condition_types(set, child);
            let items: Vec<Value> = types
                .into_iter()
                .map(|t| json!({"type": t, "status": "True"}))
                .collect();
            map.insert(name.to_owned(), Value::Array(items));
        } else if c.types & types::INTEGER != 0
            && ["active", "ready", "readyReplicas", "availableReplicas"].contains(&name)
        {
            map.insert(name.to_owned(), json!(1));
        } else if let Some(items) = c.items {
            let counters: Map<String, Value> = ["active", "ready"]
                .into_iter()
                .filter(|f| {
                    set.field(items, f)
                        .is_some_and(|n| set.resolve(n).types & types::INTEGER != 0)
                })
                .map(|f| (f.to_owned(), json!(1)))
                .collect();
            if !counters.is_empty() {
                map.insert(name.to_owned(), json!([counters]));
            }
        }
    }
    if let Some((path, id)) = phase_field(set, status) {
        let r = set.resolve(id);
        let value = r
            .enum_values
            .iter()
            .find(|v| v.eq_ignore_ascii_case("running"))
            .or_else(|| r.enum_values.first())
            .cloned()
            .unwrap_or_else(|| "Running".to_owned());
        match path.as_slice() {
            [one] => {
                map.insert(one.clone(), json!(value));
            }
            [outer, inner] => {
                map.insert(outer.clone(), json!({ inner.clone(): value }));
            }
            _ => {}
        }
    }
    Value::Object(map)
}

/// The condition types the schema documents: the enum of `type`, else the known types its
/// descriptions name.
fn condition_types(set: &SchemaSet, conditions: NodeId) -> Vec<String> {
    let Some(item) = set.resolve(conditions).items else {
        return Vec::new();
    };
    if let Some(t) = set.field(item, "type") {
        let r = set.resolve(t);
        if !r.enum_values.is_empty() {
            return r.enum_values;
        }
    }
    let mut text = String::new();
    for id in [Some(conditions), Some(item), set.field(item, "type")]
        .into_iter()
        .flatten()
    {
        for part in set.resolve(id).parts {
            if let Some(d) = set.node(part).and_then(|n| n.description.as_deref()) {
                text.push_str(d);
                text.push(' ');
            }
        }
    }
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    CONDITION_TYPES
        .iter()
        .filter(|t| words.contains(t))
        .map(|t| (*t).to_owned())
        .collect()
}

/// The enum of the status field the drafter reads as the phase.
fn phase_values(set: &SchemaSet, entry: &TypeEntry) -> Option<Vec<String>> {
    let status = set.field(entry.root, "status")?;
    let (_, id) = phase_field(set, status)?;
    Some(set.resolve(id).enum_values)
}

/// The fields of one `status.conditions` item, when the schema describes them (an open item,
/// with no fields listed, says nothing).
fn condition_fields(set: &SchemaSet, entry: &TypeEntry) -> Option<Vec<String>> {
    let status = set.field(entry.root, "status")?;
    let conditions = set.field(status, "conditions")?;
    let item = set.resolve(conditions).items?;
    let fields: Vec<String> = set.field_names(item).into_iter().map(str::to_owned).collect();
    (!fields.is_empty()).then_some(fields)
}

/// `over` laid over `base`: objects merge key by key, anything else in `over` wins.
fn overlay(base: Value, over: &Value) -> Value {
    match (base, over) {
        (Value::Object(mut b), Value::Object(o)) => {
            for (k, v) in o {
                let merged = match b.remove(k) {
                    Some(bv) => overlay(bv, v),
                    None => v.clone(),
                };
                b.insert(k.clone(), merged);
            }
            Value::Object(b)
        }
        (_, over) => over.clone(),
    }
}

/// What [`draft_picked`] drafted: the text (empty when nothing could be), the type it was
/// drafted from, and the problems (the draft's, or why no type could be picked).
#[derive(Debug, Clone)]
pub struct SchemaDraft {
    /// The definition as commented YAML, or `""`.
    pub text: String,
    /// The type drafted from, when one was picked.
    pub drafted: Option<super::check::Checked>,
    /// The draft's diagnostics (source `definition`, ranges into [`text`](Self::text), or
    /// `object`), or the `schema/not-found` error saying why no type was picked.
    pub diagnostics: Vec<Diagnostic>,
}

/// Picks the type to draft ([`pick`]: by kind, group and version, each optional) and drafts it
/// ([`draft_from_schema`]) with `object` laid over the schema's sample.
pub fn draft_picked(
    set: &SchemaSet,
    group: Option<&str>,
    kind: Option<&str>,
    version: Option<&str>,
    object: Option<&Value>,
) -> SchemaDraft {
    match pick(set, group, kind, version) {
        Ok(entry) => {
            let drafted = draft_from_schema(set, entry, object);
            SchemaDraft {
                text: drafted.text,
                drafted: Some(super::check::Checked {
                    label: entry.version.clone(),
                    group: entry.group.clone(),
                    version: entry.version.clone(),
                    kind: entry.kind.clone(),
                    source: entry.source.clone(),
                }),
                diagnostics: drafted.diagnostics,
            }
        }
        Err(why) => {
            let mut problem = Diagnostic::error(codes::SCHEMA_NOT_FOUND, why);
            problem.source = Source::Schema;
            SchemaDraft {
                text: String::new(),
                drafted: None,
                diagnostics: vec![problem],
            }
        }
    }
}

/// Drafts a definition for `entry` from its schema, with `object`'s values laid over the
/// schema's sample when one is given. The draft's header says what it was drafted from.
pub fn draft_from_schema(set: &SchemaSet, entry: &TypeEntry, object: Option<&Value>) -> Draft {
    let mut sample = sample_object(set, entry);
    if let Some(object) = object {
        sample = overlay(sample, object);
    }
    let facts = crate::draft::SchemaFacts {
        phase_values: phase_values(set, entry),
        condition_fields: condition_fields(set, entry),
    };
    let drafted = crate::draft::draft_with_schema_facts(&sample, facts);
    let header = format!(
        "# Drafted from the API schema of {} {} ({}){}: every pod template it describes is a\n\
         # component; \"saw\" below means the schema says so.\n",
        entry.api_version(),
        entry.kind,
        entry.source,
        if object.is_some() {
            " and the object given"
        } else {
            ""
        }
    );
    let text = format!("{header}{}", drafted.text);
    // The drafter's notes about the sample object point nowhere the user can see.
    let notes: Vec<_> = drafted
        .diagnostics
        .into_iter()
        .filter(|d| d.source == Source::Object)
        .collect();
    crate::draft::finish(text, notes)
}

/// The type to draft: the one named by `kind` (and `group`), or the one type the schemas
/// describe; at `version`, else its storage version, else its first served one. `Err` says
/// why none is picked, naming what there is.
pub fn pick<'s>(
    set: &'s SchemaSet,
    group: Option<&str>,
    kind: Option<&str>,
    version: Option<&str>,
) -> Result<&'s TypeEntry, String> {
    // OpenAPI documents list every meta type too (DeleteOptions, WatchEvent): a workload
    // type has a spec.
    let workload = |e: &&TypeEntry| set.field(e.root, "spec").is_some();
    let named: Vec<&TypeEntry> = set
        .entries()
        .iter()
        .filter(workload)
        .filter(|e| kind.is_none_or(|k| e.kind == k) && group.is_none_or(|g| e.group == g))
        .collect();
    let mut types: Vec<String> = named
        .iter()
        .map(|e| {
            format!(
                "{} ({})",
                e.kind,
                if e.group.is_empty() { "core" } else { &e.group }
            )
        })
        .collect();
    types.dedup();
    let all = || {
        let mut all: Vec<String> = set
            .entries()
            .iter()
            .filter(workload)
            .map(|e| e.kind.clone())
            .collect();
        all.sort();
        all.dedup();
        all.join(", ")
    };
    match types.len() {
        0 => {
            return Err(format!(
                "the schemas describe no such type; they describe: {}",
                all()
            ))
        }
        1 => {}
        _ => {
            types.sort();
            types.dedup();
            if types.len() > 1 {
                return Err(format!(
                    "the schemas describe several types: name one with --kind ({})",
                    types.join(", ")
                ));
            }
        }
    }
    let versions: Vec<&str> = named.iter().map(|e| e.version.as_str()).collect();
    let chosen = match version {
        Some(v) => named.iter().find(|e| e.version == v),
        None => named
            .iter()
            .find(|e| e.storage && e.served)
            .or_else(|| named.iter().find(|e| e.served)),
    };
    chosen.copied().ok_or_else(|| {
        format!(
            "{} has no version {}; its versions are: {}",
            named[0].kind,
            version.unwrap_or("that is served"),
            versions.join(", ")
        )
    })
}

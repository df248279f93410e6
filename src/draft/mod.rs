//! Draft a starting definition from one object of an unknown type.
//!
//! [`draft`] reads the object's shape, never its kind: it walks `.spec` for pod templates
//! (`{spec: {containers}}`), bare pod specs (`{containers}`) and resource fragments
//! (`{resources: {requests|limits}}`), turns lists and `*Specs` maps of them into components
//! with instances, takes replica counts from the fields next to them, and guesses a status
//! definition from what `.status` shows. Every guess is written with a comment saying what it
//! saw, so the author can check it. The text is compiled before it is returned and its
//! diagnostics are passed on: a draft that does not validate is a bug, and the tests say so.

use serde_json::{Map, Value};

use crate::compile::CompiledDefinition;
use crate::diagnostic::{codes, Diagnostic, Severity};
use crate::path::Step;

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

/// [`draft`], with the values the phase field takes when they are known (an API schema's
/// enum): `byPhase` matchers are written for those only.
pub(crate) fn draft_with_phase_values(object: &Value, phase_values: Option<Vec<String>>) -> Draft {
    let mut diagnostics = Vec::new();
    let Some(map) = object.as_object() else {
        return draft(object);
    };
    let mut plan = Plan::read(map, &mut diagnostics);
    plan.phase_values = phase_values.filter(|v| !v.is_empty());
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
}

impl Plan {
    fn empty() -> Plan {
        Plan {
            api_version: String::new(),
            group: String::new(),
            version: String::new(),
            kind: String::new(),
            root: "workload".to_owned(),
            root_pods: None,
            children: Vec::new(),
            status: StatusPlan {
                phase: None,
                conditions: None,
                activity: Vec::new(),
                absent: true,
            },
            suspend: None,
            phase_values: None,
        }
    }

    fn read(object: &Map<String, Value>, diagnostics: &mut Vec<Diagnostic>) -> Plan {
        let mut plan = Plan::empty();
        let api_version = object.get("apiVersion").and_then(Value::as_str);
        let kind = object.get("kind").and_then(Value::as_str);
        match (api_version, kind) {
            (Some(a), Some(k)) if !a.is_empty() && !k.is_empty() => {
                plan.api_version = a.to_owned();
                let (group, version) = a.rsplit_once('/').unwrap_or(("", a));
                plan.group = group.to_owned();
                plan.version = version.to_owned();
                plan.kind = k.to_owned();
                plan.root = component_name(&k.to_ascii_lowercase());
            }
            _ => diagnostics.push(
                Diagnostic::error(
                    codes::OBJECT_INVALID,
                    "the object has no apiVersion and kind: the draft's root kind is left empty",
                )
                .with_help("draft from a complete object (apiVersion, kind, metadata, spec)")
                .in_object(),
            ),
        }

        let mut locations = Vec::new();
        if is_pod_spec(object.get("spec")) {
            // The object itself is a pod template (a Pod): its spec holds the containers.
            locations.push(Location {
                path: Vec::new(),
                kind: PodKind::Template,
                field: None,
            });
        } else if let Some(spec) = object.get("spec") {
            walk(
                spec,
                &mut vec![Step::Key("spec".to_owned())],
                false,
                0,
                &mut locations,
            );
        }
        if locations.is_empty() {
            diagnostics.push(
                Diagnostic::warning(
                    codes::NO_POD_TEMPLATE,
                    "no pod template, pod spec or resources found under .spec: the draft has a root component only",
                )
                .with_help("add a child component with a specDefinition pointing at where this type describes its pods")
                .in_object(),
            );
        }

        let mut names = vec![plan.root.clone()];
        let single_root = locations.len() == 1
            && !locations[0]
                .path
                .iter()
                .any(|s| matches!(s, Step::Items | Step::Values));
        for location in locations {
            let component = plan_component(object, location, &mut names);
            if single_root {
                plan.root_pods = Some(component);
            } else {
                plan.children.push(component);
            }
        }

        plan.status = read_status(object.get("status"));
        plan.suspend = find_suspend(object.get("spec"));
        plan
    }
}

fn is_pod_spec(value: Option<&Value>) -> bool {
    value
        .and_then(|v| v.get("containers"))
        .and_then(Value::as_array)
        .is_some_and(|c| !c.is_empty() && c.iter().all(Value::is_object))
}

fn is_requirements(value: &Value) -> bool {
    value.as_object().is_some_and(|m| {
        !m.is_empty()
            && m.keys()
                .all(|k| k == "requests" || k == "limits" || k == "claims")
            && m.values().all(|v| v.is_object() || v.is_array())
    })
}

/// The key of a `resources`-like field of `map` (`resources`, `resourcesPerNode`), if any.
fn resources_field(map: &Map<String, Value>) -> Option<&str> {
    map.iter()
        .find(|(k, v)| k.starts_with("resources") && is_requirements(v))
        .map(|(k, _)| k.as_str())
}

/// True for a map whose values are the specs of roles: a `*Specs` key, or every value an
/// object holding pods at the same place (`services: {a: {...}, b: {...}}`).
fn is_map_of_specs(key: &str, map: &Map<String, Value>) -> bool {
    if map.is_empty() || !map.values().all(Value::is_object) {
        return false;
    }
    if key.ends_with("Specs") || key.ends_with("specs") {
        return true;
    }
    if key == "spec" || map.len() < 2 {
        return false;
    }
    let mut shapes = map.values().map(|v| {
        let mut found = Vec::new();
        walk(v, &mut Vec::new(), true, 0, &mut found);
        found
            .into_iter()
            .map(|l| (l.path, l.kind))
            .collect::<Vec<_>>()
    });
    let Some(first) = shapes.next() else {
        return false;
    };
    !first.is_empty() && shapes.all(|s| s == first)
}

/// Collects the pod locations under `value` (at `path`). `inside` is true inside a list or map
/// element: nested lists are not drafted as instances of instances.
fn walk(value: &Value, path: &mut Vec<Step>, inside: bool, depth: usize, out: &mut Vec<Location>) {
    if depth > 16 {
        return;
    }
    let Value::Object(map) = value else {
        return;
    };
    if is_pod_spec(Some(value)) {
        out.push(Location {
            path: path.clone(),
            kind: PodKind::PodSpec,
            field: None,
        });
        return;
    }
    if is_pod_spec(map.get("spec")) {
        out.push(Location {
            path: path.clone(),
            kind: PodKind::Template,
            field: None,
        });
        return;
    }
    if let Some(field) = resources_field(map) {
        // `{image, resources}` is a container; `resourcesPerNode` is not a container's.
        let container = field == "resources" && map.get("image").is_some_and(Value::is_string);
        out.push(Location {
            path: path.clone(),
            kind: if container {
                PodKind::Container
            } else {
                PodKind::Resources
            },
            field: (!container).then(|| field.to_owned()),
        });
        return;
    }
    for (key, child) in map {
        match child {
            Value::Object(inner) if !inside && is_map_of_specs(key, inner) => {
                path.push(Step::Key(key.clone()));
                path.push(Step::Values);
                let mut seen: Vec<Location> = Vec::new();
                for element in inner.values() {
                    let mut found = Vec::new();
                    walk(element, path, true, depth + 2, &mut found);
                    merge(&mut seen, found);
                }
                out.extend(seen);
                path.truncate(path.len() - 2);
            }
            Value::Object(_) => {
                path.push(Step::Key(key.clone()));
                walk(child, path, inside, depth + 1, out);
                path.pop();
            }
            Value::Array(items) if !inside && items.iter().all(Value::is_object) => {
                path.push(Step::Key(key.clone()));
                path.push(Step::Items);
                let mut seen: Vec<Location> = Vec::new();
                for element in items {
                    let mut found = Vec::new();
                    walk(element, path, true, depth + 2, &mut found);
                    merge(&mut seen, found);
                }
                out.extend(seen);
                path.truncate(path.len() - 2);
            }
            _ => {}
        }
    }
}

/// Adds the locations of one more list or map element, once per place.
fn merge(seen: &mut Vec<Location>, found: Vec<Location>) {
    for location in found {
        if !seen
            .iter()
            .any(|s| s.path == location.path && s.kind == location.kind)
        {
            seen.push(location);
        }
    }
}

/// The value at a key path.
fn at<'v>(value: &'v Value, keys: &[String]) -> Option<&'v Value> {
    keys.iter().try_fold(value, |v, k| v.get(k))
}

fn plan_component(
    object: &Map<String, Value>,
    location: Location,
    names: &mut Vec<String>,
) -> ComponentPlan {
    let object_value = Value::Object(object.clone());
    let split = location
        .path
        .iter()
        .position(|s| matches!(s, Step::Items | Step::Values));
    let (each, relative): (Option<(Vec<Step>, Ids)>, Vec<String>) = match split {
        Some(i) => {
            let prefix = location.path[..=i].to_vec();
            let keys = keys_of(&prefix[..i]);
            let container = at(&object_value, &keys);
            let ids = match (&location.path[i], container) {
                (Step::Values, Some(Value::Object(m))) => Ids::Key(m.keys().cloned().collect()),
                (_, Some(Value::Array(items))) => list_ids(items),
                _ => Ids::Index(0),
            };
            (Some((prefix, ids)), keys_of(&location.path[i + 1..]))
        }
        None => (None, keys_of(&location.path)),
    };
    // Replica fields are read from every instance (one may leave them to their defaults):
    // the most levels found in any, and the first bounds found.
    let samples: Vec<Value> = match &each {
        Some((prefix, _)) => {
            let keys = keys_of(&prefix[..prefix.len() - 1]);
            match at(&object_value, &keys) {
                Some(Value::Array(items)) => items.clone(),
                Some(Value::Object(m)) => m.values().cloned().collect(),
                _ => Vec::new(),
            }
        }
        None => vec![object_value.clone()],
    };
    let mut scale = Scale::default();
    for sample in &samples {
        let found = read_scale(sample, &relative, location.kind);
        if found.factors.len() > scale.factors.len() {
            scale.factors = found.factors;
        }
        scale.min = scale.min.or(found.min);
        scale.max = scale.max.or(found.max);
    }
    let base = role_name(&location.path).unwrap_or_else(|| "pods".to_owned());
    let mut name = base.clone();
    let mut n = 2;
    while names.contains(&name) {
        name = format!("{base}-{n}");
        n += 1;
    }
    names.push(name.clone());
    ComponentPlan {
        name,
        location,
        each,
        relative,
        scale,
    }
}

fn keys_of(segs: &[Step]) -> Vec<String> {
    segs.iter()
        .filter_map(|s| match s {
            Step::Key(k) => Some(k.clone()),
            _ => None,
        })
        .collect()
}

/// Ids of list elements: `name` when every element has one, else another `*Name` string
/// field unique across the elements, else the position.
fn list_ids(items: &[Value]) -> Ids {
    let unique = |field: &str| -> Option<Vec<String>> {
        let values: Option<Vec<String>> = items
            .iter()
            .map(|i| i.get(field).and_then(Value::as_str).map(str::to_owned))
            .collect();
        let values = values?;
        let mut sorted = values.clone();
        sorted.sort();
        sorted.dedup();
        (sorted.len() == values.len() && values.iter().all(|v| !v.is_empty())).then_some(values)
    };
    if let Some(values) = unique("name") {
        return Ids::Field("name".to_owned(), values);
    }
    let candidates: Vec<String> = items
        .first()
        .and_then(Value::as_object)
        .map(|m| {
            m.keys()
                .filter(|k| k.ends_with("Name") && k.as_str() != "schedulerName")
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    for field in candidates {
        if let Some(values) = unique(&field) {
            return Ids::Field(field, values);
        }
    }
    Ids::Index(items.len())
}

/// Reads the replica fields of a location inside `element`: on the pod spec node itself, else
/// on the node holding the template; when that node is the `spec` of an object template
/// (a Job's `template.spec`), the count of those objects one level up multiplies it.
fn read_scale(element: &Value, relative: &[String], kind: PodKind) -> Scale {
    let mut scale = Scale::default();
    // Candidate nodes, innermost first: the node itself (not for templates), then its parent.
    let mut candidates: Vec<Vec<String>> = Vec::new();
    if kind != PodKind::Template {
        candidates.push(relative.to_vec());
    }
    if let Some((_, parent)) = relative.split_last() {
        candidates.push(parent.to_vec());
    } else if kind == PodKind::Template {
        // The object is itself a pod template: replica fields would sit next to containers.
        candidates.push(vec!["spec".to_owned()]);
    }
    let found = candidates.iter().find_map(|node| {
        at(element, node)
            .and_then(|v| replica_of(v, node))
            .map(|f| (node.clone(), f))
    });
    let (level, factor) = match found {
        Some((level, (factor, min, max))) => {
            scale.min = min;
            scale.max = max;
            (level, factor)
        }
        None => (candidates.last().cloned().unwrap_or_default(), None),
    };
    scale.factors.extend(factor);
    // `template.spec` holding parallelism: the objects made from `template` are counted above.
    if level.len() >= 2 && level[level.len() - 1] == "spec" {
        let template = &level[level.len() - 2];
        if template.to_ascii_lowercase().ends_with("template") {
            let outer = level[..level.len() - 2].to_vec();
            if let Some((Some(outer_factor), _, _)) =
                at(element, &outer).and_then(|v| replica_of(v, &outer))
            {
                scale.factors.insert(0, outer_factor);
            }
        }
    }
    scale
}

type ReplicaFields = (
    Option<ReplicaField>,
    Option<(Vec<String>, String, Value)>,
    Option<(Vec<String>, String, Value)>,
);

fn replica_of(node: &Value, path: &[String]) -> Option<ReplicaFields> {
    let map = node.as_object()?;
    let factor = REPLICA_FIELDS.iter().find_map(|f| {
        map.get(*f)
            .filter(|v| v.is_number() || v.is_string())
            .map(|v| ReplicaField {
                node: path.to_vec(),
                field: f,
                with_completions: *f == "parallelism" && map.contains_key("completions"),
                value: v.clone(),
            })
    });
    let bound = |names: &[&str]| {
        names.iter().find_map(|f| {
            map.get(*f)
                .filter(|v| v.is_number())
                .map(|v| (path.to_vec(), (*f).to_owned(), v.clone()))
        })
    };
    let min = bound(&["minReplicas", "minReplica"]);
    let max = bound(&["maxReplicas", "maxReplica"]);
    (factor.is_some() || min.is_some() || max.is_some()).then_some((factor, min, max))
}

/// A component name for a location: its most specific key, singular, in kebab case.
fn role_name(path: &[Step]) -> Option<String> {
    let mut from_list = false;
    let mut chosen: Option<&str> = None;
    for (i, seg) in path.iter().enumerate() {
        if let Step::Key(k) = seg {
            if GENERIC_KEYS.contains(&k.as_str()) || k == "containers" {
                continue;
            }
            chosen = Some(k);
            from_list = matches!(path.get(i + 1), Some(Step::Items | Step::Values));
        }
    }
    let mut name = chosen?.to_owned();
    for suffix in [
        "GroupSpecs",
        "GroupSpec",
        "Specs",
        "Spec",
        "Templates",
        "Template",
    ] {
        if name.len() > suffix.len() && name.ends_with(suffix) {
            name.truncate(name.len() - suffix.len());
            from_list |= suffix.ends_with('s');
            break;
        }
    }
    if from_list && name.len() > 2 && name.ends_with('s') && !name.ends_with("ss") {
        name.pop();
    }
    Some(component_name(&name))
}

/// camelCase to kebab-case, lower case, only `[a-z0-9-]`.
fn component_name(name: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if previous_lower {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
            previous_lower = false;
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
            previous_lower = false;
        }
    }
    let out = out.trim_matches('-').to_owned();
    if out.is_empty() {
        "component".to_owned()
    } else {
        out
    }
}

fn read_status(status: Option<&Value>) -> StatusPlan {
    let Some(Value::Object(map)) = status else {
        return StatusPlan {
            phase: None,
            conditions: None,
            activity: Vec::new(),
            absent: true,
        };
    };
    let conditions = map
        .get("conditions")
        .and_then(Value::as_array)
        .map(|items| ConditionsSeen {
            types: items
                .iter()
                .filter_map(|c| {
                    let t = c.get("type")?.as_str()?;
                    let s = c.get("status").and_then(Value::as_str).unwrap_or("");
                    Some((t.to_owned(), s.to_owned()))
                })
                .collect(),
        });
    StatusPlan {
        phase: find_phase(map),
        conditions,
        activity: find_activity(map),
        absent: map.is_empty(),
    }
}

/// Counters that say pods or jobs are at work: `active`, `ready`, `readyReplicas`,
/// `availableReplicas` in the status, or `active`/`ready` in the entries of a status list
/// (`replicatedJobsStatus[]`, `jobsStatus[]`).
fn find_activity(status: &Map<String, Value>) -> Vec<(String, String)> {
    const COUNTERS: &[&str] = &["active", "ready", "readyReplicas", "availableReplicas"];
    let mut out = Vec::new();
    for counter in COUNTERS {
        if let Some(v) = status.get(*counter).filter(|v| v.is_number()) {
            let path = jq_path(&["status".to_owned(), (*counter).to_owned()]);
            out.push((format!("({path} // 0) > 0"), format!("{path} = {v}")));
        }
    }
    for (key, value) in status {
        let Some(first) = value.as_array().and_then(|items| items.first()) else {
            continue;
        };
        let fields: Vec<&str> = ["active", "ready"]
            .into_iter()
            .filter(|f| first.get(*f).is_some_and(Value::is_number))
            .collect();
        if fields.is_empty() {
            continue;
        }
        let path = jq_path(&["status".to_owned(), key.clone()]);
        let test: Vec<String> = fields.iter().map(|f| format!("(.{f} // 0) > 0")).collect();
        out.push((
            format!("any(({path} // [])[]; {})", test.join(" or ")),
            format!("{path}[] with {}", fields.join(" and ")),
        ));
    }
    out
}

/// The field holding a phase-like string: `phase`, `state`, a `*Phase`/`*State` field, a
/// `*Status`/`status` string, or `state`/`phase` one level down (`applicationState.state`).
fn find_phase(status: &Map<String, Value>) -> Option<(Vec<String>, String)> {
    let string = |k: &str| status.get(k).and_then(Value::as_str).map(str::to_owned);
    for key in ["phase", "state"] {
        if let Some(v) = string(key) {
            return Some((vec!["status".to_owned(), key.to_owned()], v));
        }
    }
    for (key, value) in status {
        let lower = key.to_ascii_lowercase();
        if (lower.ends_with("phase") || lower.ends_with("state")) && value.is_string() {
            return Some((
                vec!["status".to_owned(), key.clone()],
                value.as_str().unwrap_or_default().to_owned(),
            ));
        }
    }
    for (key, value) in status {
        if key.to_ascii_lowercase().ends_with("status") && value.is_string() {
            return Some((
                vec!["status".to_owned(), key.clone()],
                value.as_str().unwrap_or_default().to_owned(),
            ));
        }
    }
    for (key, value) in status {
        for inner in ["state", "phase"] {
            if let Some(v) = value.get(inner).and_then(Value::as_str) {
                return Some((
                    vec!["status".to_owned(), key.clone(), inner.to_owned()],
                    v.to_owned(),
                ));
            }
        }
    }
    None
}

/// A boolean `suspend` field in the spec or one level down (`runPolicy.suspend`).
fn find_suspend(spec: Option<&Value>) -> Option<(Vec<String>, bool)> {
    let spec = spec?.as_object()?;
    if let Some(b) = spec.get("suspend").and_then(Value::as_bool) {
        return Some((vec!["spec".to_owned(), "suspend".to_owned()], b));
    }
    spec.iter().find_map(|(key, value)| {
        value.get("suspend").and_then(Value::as_bool).map(|b| {
            (
                vec!["spec".to_owned(), key.clone(), "suspend".to_owned()],
                b,
            )
        })
    })
}

// --- writing jq ---------------------------------------------------------------------------

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `.a.b["c-d"]`, or `.` for no keys.
fn jq_path(keys: &[String]) -> String {
    if keys.is_empty() {
        return ".".to_owned();
    }
    let mut out = String::new();
    for key in keys {
        if is_identifier(key) {
            out.push('.');
            out.push_str(key);
        } else {
            if out.is_empty() {
                out.push('.');
            }
            out.push_str(&format!("[{}]", json_string(key)));
        }
    }
    out
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

/// A path below a jq path: `.a` + `b` = `.a.b`, `.` + `b` = `.b`.
fn below(base: &str, keys: &[String]) -> String {
    let rest = jq_path(keys);
    if base == "." {
        rest
    } else if rest == "." {
        base.to_owned()
    } else {
        format!("{base}{rest}")
    }
}

impl ComponentPlan {
    /// A jq program giving one result per instance: `filter` applied to each element.
    fn per_instance(&self, filter: &str) -> String {
        match &self.each {
            None => filter.to_owned(),
            Some((prefix, _)) => {
                let keys = keys_of(&prefix[..prefix.len() - 1]);
                let list = jq_path(&keys);
                match prefix.last() {
                    Some(Step::Values) => {
                        format!("({list} // {{}}) | to_entries[] | .value | {filter}")
                    }
                    _ => format!("{list}[]? | {filter}"),
                }
            }
        }
    }

    fn spec_path(&self) -> String {
        let mut keys = self.relative.clone();
        if let Some(field) = &self.location.field {
            keys.push(field.clone());
        }
        let path = jq_path(&keys);
        match &self.each {
            None => path,
            Some(_) if path == "." => self.per_instance("."),
            Some(_) => self.per_instance(&path),
        }
    }

    fn id_path(&self) -> Option<String> {
        let (prefix, ids) = self.each.as_ref()?;
        let list = jq_path(&keys_of(&prefix[..prefix.len() - 1]));
        Some(match ids {
            Ids::Field(field, _) => {
                format!("{list}[]? | {}", below(".", std::slice::from_ref(field)))
            }
            Ids::Key(_) => format!("({list} // {{}}) | to_entries[] | .key"),
            Ids::Index(_) => format!("({list} // []) | keys[] | tostring"),
        })
    }

    fn replicas_path(&self) -> Option<String> {
        if self.scale.factors.is_empty() {
            return None;
        }
        let parts: Vec<String> = self
            .scale
            .factors
            .iter()
            .map(|f| {
                let node = jq_path(&f.node);
                if f.with_completions {
                    let n = if node == "." {
                        String::new()
                    } else {
                        format!("{node} | ")
                    };
                    format!("({n}[(.parallelism // 1), (.completions // .parallelism // 1)] | min)")
                } else {
                    format!("({} // 1)", below(&node, &[f.field.to_owned()]))
                }
            })
            .collect();
        Some(self.per_instance(&parts.join(" * ")))
    }

    fn bound_path(&self, bound: &Option<(Vec<String>, String, Value)>) -> Option<String> {
        let (node, field, _) = bound.as_ref()?;
        Some(self.per_instance(&below(&jq_path(node), std::slice::from_ref(field))))
    }
}

// --- writing YAML -------------------------------------------------------------------------

/// A YAML scalar: plain when safe, else single-quoted.
fn scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '.' || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/'))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

struct Writer {
    text: String,
}

impl Writer {
    fn line(&mut self, indent: usize, s: &str) {
        for _ in 0..indent {
            self.text.push_str("  ");
        }
        self.text.push_str(s);
        self.text.push('\n');
    }

    fn comment(&mut self, indent: usize, s: &str) {
        for line in s.lines() {
            self.line(indent, &format!("# {line}"));
        }
    }
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        let cut: String = text.chars().take(37).collect();
        format!("{cut}...")
    } else {
        text
    }
}

fn shown_path(segs: &[Step]) -> String {
    let mut out = String::new();
    for seg in segs {
        match seg {
            Step::Key(k) if is_identifier(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Key(k) => out.push_str(&format!("[{}]", json_string(k))),
            Step::Items | Step::Each => out.push_str("[]"),
            Step::Values => out.push_str("{}"),
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    if out.is_empty() {
        ".".to_owned()
    } else {
        out
    }
}

fn render(plan: &Plan) -> String {
    let mut w = Writer {
        text: String::new(),
    };
    let type_name = if plan.kind.is_empty() {
        "an object without apiVersion/kind".to_owned()
    } else {
        format!("{} {}", plan.api_version, plan.kind)
    };
    w.comment(
        0,
        &format!("Drafted by workload-map from one {type_name} object."),
    );
    w.comment(
        0,
        "Every guess says what it saw. Check each against the type's documentation, then\nresolve more objects of this type (other states, other sizes) to test it.",
    );
    w.line(0, "apiVersion: run.ai/v1alpha1");
    w.line(0, "kind: Karta");
    w.line(0, "metadata:");
    let name = if plan.kind.is_empty() {
        "drafted".to_owned()
    } else {
        let group = if plan.group.is_empty() {
            "core".to_owned()
        } else {
            plan.group.replace('.', "-")
        };
        component_name(&format!(
            "{group}-{}-{}",
            plan.kind.to_ascii_lowercase(),
            plan.version
        ))
    };
    w.line(1, &format!("name: {}", scalar(&name)));
    w.line(0, "spec:");
    w.line(1, "structureDefinition:");
    w.line(2, "rootComponent:");
    w.line(3, &format!("name: {}", scalar(&plan.root)));
    w.line(
        3,
        &format!(
            "kind: {{group: {}, version: {}, kind: {}}}",
            json_string(&plan.group),
            json_string(&plan.version),
            json_string(&plan.kind)
        ),
    );
    if let Some(component) = &plan.root_pods {
        write_pods(&mut w, 3, component);
    }
    write_suspend(&mut w, plan);
    write_status(&mut w, plan);
    if !plan.children.is_empty() {
        w.line(2, "childComponents:");
        for child in &plan.children {
            w.line(3, &format!("- name: {}", scalar(&child.name)));
            w.comment(
                4,
                "kind: the object the operator creates for this role is not in the object; add it when known",
            );
            w.line(4, &format!("ownerRef: {}", scalar(&plan.root)));
            write_instances(&mut w, 4, child, &plan.group);
            write_pods(&mut w, 4, child);
        }
    }
    w.text
}

fn write_instances(w: &mut Writer, indent: usize, c: &ComponentPlan, group: &str) {
    let (Some((prefix, ids)), Some(id_path)) = (&c.each, c.id_path()) else {
        return;
    };
    let list = shown_path(&prefix[..prefix.len() - 1]);
    let seen = match ids {
        Ids::Field(field, values) => format!(
            "saw {list}: a list of {} with `{field}` ({}), one instance each",
            values.len(),
            values.join(", ")
        ),
        Ids::Key(keys) => format!(
            "saw {list}: a map of {} role specs ({}), one instance per key",
            keys.len(),
            keys.join(", ")
        ),
        Ids::Index(n) => format!(
            "saw {list}: a list of {n} with no name field, so instances are numbered by position"
        ),
    };
    w.comment(indent, &seen);
    w.line(indent, &format!("instanceIdPath: {}", scalar(&id_path)));
    w.comment(
        indent,
        "GUESS: the pod label that names the instance; replace with the label your operator sets",
    );
    let label = if group.is_empty() {
        c.name.clone()
    } else {
        format!("{group}/{}", c.name)
    };
    w.line(indent, "podSelector:");
    w.line(indent + 1, "componentInstanceSelector:");
    w.line(
        indent + 2,
        &format!(
            "idPath: {}",
            scalar(&format!(".metadata.labels[{}]", json_string(&label)))
        ),
    );
}

fn write_pods(w: &mut Writer, indent: usize, c: &ComponentPlan) {
    let at = shown_path(&c.location.path);
    let spec_path = c.spec_path();
    w.line(indent, "specDefinition:");
    match c.location.kind {
        PodKind::Template => {
            w.comment(
                indent + 1,
                &format!("saw a pod template at {at} (metadata and spec.containers)"),
            );
            w.line(
                indent + 1,
                &format!("podTemplateSpecPath: {}", scalar(&spec_path)),
            );
        }
        PodKind::PodSpec => {
            w.comment(indent + 1, &format!("saw a pod spec at {at} (containers)"));
            w.line(indent + 1, &format!("podSpecPath: {}", scalar(&spec_path)));
        }
        PodKind::Resources => {
            let field = c.location.field.as_deref().unwrap_or("resources");
            w.comment(
                indent + 1,
                &format!(
                    "saw only resources at {at}.{field}: the operator builds the pod; the resources are what counts"
                ),
            );
            w.line(indent + 1, "fragmentedPodSpecDefinition:");
            w.line(
                indent + 2,
                &format!("resourcesPath: {}", scalar(&spec_path)),
            );
        }
        PodKind::Container => {
            w.comment(
                indent + 1,
                &format!("saw one container (image and resources) at {at}: the operator builds the pod around it"),
            );
            w.line(indent + 1, "fragmentedPodSpecDefinition:");
            w.line(
                indent + 2,
                &format!("containerPath: {}", scalar(&spec_path)),
            );
        }
    }
    let replicas = c.replicas_path();
    let min = c.bound_path(&c.scale.min);
    let max = c.bound_path(&c.scale.max);
    if replicas.is_none() && min.is_none() && max.is_none() {
        w.comment(
            indent,
            "no replica field (replicas, parallelism, size, numWorkers, ...) next to the pods: one pod",
        );
        return;
    }
    w.line(indent, "scaleDefinition:");
    if let Some(path) = replicas {
        let seen: Vec<String> = c
            .scale
            .factors
            .iter()
            .map(|f| {
                let field = below(&jq_path(&f.node), &[f.field.to_owned()]);
                let mut s = match &c.each {
                    Some(_) => format!("{field} in the entries (e.g. {})", short(&f.value)),
                    None => format!("{field} = {}", short(&f.value)),
                };
                if f.with_completions {
                    s.push_str(" with completions (pods at once: the smaller, both default 1)");
                }
                s
            })
            .collect();
        let how = if seen.len() > 1 {
            "; the outer count multiplies the pods of each object"
        } else {
            ""
        };
        w.comment(
            indent + 1,
            &format!("saw {}{how}; absent means 1", seen.join(" and ")),
        );
        w.line(indent + 1, &format!("replicasPath: {}", scalar(&path)));
    }
    for (label, path, bound) in [
        ("minReplicasPath", min, &c.scale.min),
        ("maxReplicasPath", max, &c.scale.max),
    ] {
        if let (Some(path), Some((node, field, value))) = (path, bound) {
            w.comment(
                indent + 1,
                &format!(
                    "saw {} = {}",
                    below(&jq_path(node), std::slice::from_ref(field)),
                    short(value)
                ),
            );
            w.line(indent + 1, &format!("{label}: {}", scalar(&path)));
        }
    }
}

fn write_suspend(w: &mut Writer, plan: &Plan) {
    let Some((path, value)) = &plan.suspend else {
        return;
    };
    let path = jq_path(path);
    w.comment(
        3,
        &format!("saw {path} = {value}: suspending and resuming set it"),
    );
    w.line(3, "suspendDefinition:");
    w.line(
        4,
        &format!("suspendActions: [{{path: {path}, value: \"true\"}}]"),
    );
    w.line(
        4,
        &format!("resumeActions: [{{path: {path}, value: \"false\"}}]"),
    );
}

/// Phases and the status values that commonly mean them.
const PHASE_WORDS: &[(&str, &[&str])] = &[
    (
        "initializing",
        &[
            "Pending",
            "Initializing",
            "Creating",
            "Starting",
            "Provisioning",
            "Queued",
            "Submitted",
        ],
    ),
    (
        "running",
        &["Running", "Ready", "Active", "Healthy", "Available"],
    ),
    (
        "completed",
        &["Succeeded", "Completed", "Complete", "Finished"],
    ),
    ("failed", &["Failed", "Error", "Errored"]),
    ("degraded", &["Degraded", "Unhealthy", "Restarting"]),
    ("suspended", &["Suspended", "Stopped", "Paused"]),
    ("suspending", &["Suspending", "Stopping"]),
    ("resuming", &["Resuming"]),
];

/// Condition types and the phase a `True` one means.
const CONDITION_PHASES: &[(&str, &str)] = &[
    ("Ready", "running"),
    ("Running", "running"),
    ("Available", "running"),
    ("Succeeded", "completed"),
    ("Complete", "completed"),
    ("Completed", "completed"),
    ("Failed", "failed"),
    ("Degraded", "degraded"),
    ("Restarting", "degraded"),
    ("Suspended", "suspended"),
];

/// The value written in the style the object uses (`ready`, `READY`, `Ready`).
fn styled(word: &str, sample: &str) -> String {
    let letters: Vec<char> = sample.chars().filter(char::is_ascii_alphabetic).collect();
    if !letters.is_empty() && letters.iter().all(char::is_ascii_lowercase) {
        word.to_ascii_lowercase()
    } else if letters.len() > 1 && letters.iter().all(char::is_ascii_uppercase) {
        word.to_ascii_uppercase()
    } else {
        word.to_owned()
    }
}

fn write_status(w: &mut Writer, plan: &Plan) {
    let status = &plan.status;
    let suspend = plan.suspend.as_ref().map(|(p, _)| jq_path(p));
    let not_suspended = suspend
        .as_ref()
        .map(|p| format!(" and ({p} // false) != true"))
        .unwrap_or_default();
    w.line(3, "statusDefinition:");
    if let Some((path, value)) = &status.phase {
        let path = jq_path(path);
        w.comment(4, &format!("saw {path} = {}", json_string(value)));
        w.line(4, &format!("phaseDefinition: {{path: {}}}", scalar(&path)));
        write_conditions_definition(w, status);
        w.comment(
            4,
            "the values below are common ones written in the style seen; keep those this type uses",
        );
        w.line(4, "statusMappings:");
        let mut placed = false;
        let mut used: Vec<String> = Vec::new();
        for (phase, words) in PHASE_WORDS {
            // With the field's values known (an API schema's enum), only those are written.
            let values: Vec<String> = words
                .iter()
                .map(|word| styled(word, value))
                .filter_map(|v| match &plan.phase_values {
                    None => Some(v),
                    Some(allowed) => allowed.iter().find(|a| a.eq_ignore_ascii_case(&v)).cloned(),
                })
                .collect();
            if values.is_empty() && *phase != "initializing" {
                continue;
            }
            w.line(5, &format!("{phase}:"));
            if *phase == "initializing" {
                w.comment(6, "GUESS: no phase yet means the object is being set up");
                write_expression(w, 6, &format!("(({path} // \"\") == \"\"){not_suspended}"));
            }
            for v in values {
                if v.eq_ignore_ascii_case(value) {
                    placed = true;
                    w.comment(6, &format!("saw {}", json_string(value)));
                }
                w.line(6, &format!("- byPhase: {}", json_string(&v)));
                used.push(v);
            }
        }
        if let Some(allowed) = &plan.phase_values {
            let rest: Vec<String> = allowed
                .iter()
                .filter(|a| !used.contains(a))
                .map(|a| json_string(a))
                .collect();
            if !rest.is_empty() {
                w.comment(
                    4,
                    &format!(
                        "the field also takes {}: add each under the phase it means",
                        rest.join(", ")
                    ),
                );
            }
        }
        if !placed && !value.is_empty() {
            w.comment(
                4,
                &format!(
                    "saw {} but it is none of the common values: add it under the phase it means",
                    json_string(value)
                ),
            );
        }
        return;
    }
    let seen: Vec<&(String, String)> = status
        .conditions
        .as_ref()
        .map(|c| c.types.iter().collect())
        .unwrap_or_default();
    if status.conditions.is_some() {
        let listed: Vec<String> = seen.iter().map(|(t, s)| format!("{t}={s}")).collect();
        w.comment(4, &format!("saw .status.conditions: {}", listed.join(", ")));
    } else if status.absent {
        w.comment(
            4,
            "the object has no status yet: this follows the Kubernetes convention (.status.conditions);\ndraft again from an object that has one to check it",
        );
    } else {
        w.comment(
            4,
            "saw a status without a phase or conditions: this follows the Kubernetes convention (.status.conditions)",
        );
    }
    let conditions = StatusPlan {
        phase: None,
        conditions: Some(ConditionsSeen { types: Vec::new() }),
        activity: Vec::new(),
        absent: false,
    };
    let active = (!status.activity.is_empty()).then(|| {
        let tests: Vec<&str> = status.activity.iter().map(|(t, _)| t.as_str()).collect();
        tests.join(" or ")
    });
    write_conditions_definition(w, &conditions);
    w.line(4, "statusMappings:");
    let decisive: Vec<String> = CONDITION_PHASES
        .iter()
        .map(|(t, _)| format!(".type == {}", json_string(t)))
        .collect();
    let no_true = |types: &str| {
        format!(
            "([(.status.conditions // [])[] | select(.status == \"True\" and ({types}))] | length) == 0"
        )
    };
    for (phase, _) in PHASE_WORDS {
        let types: Vec<&str> = CONDITION_PHASES
            .iter()
            .filter(|(_, p)| p == phase)
            .map(|(t, _)| *t)
            .collect();
        let expression = match *phase {
            "initializing" => Some((
                "GUESS: no condition says running, done, failed or suspended yet (and nothing is active)",
                match &active {
                    Some(a) => format!("{} and (({a}) | not){not_suspended}", no_true(&decisive.join(" or "))),
                    None => format!("{}{not_suspended}", no_true(&decisive.join(" or "))),
                },
            )),
            "running" => active.as_ref().map(|a| {
                (
                    "GUESS: pods or jobs are active and nothing has finished or failed",
                    format!(
                        "({a}) and {}",
                        no_true(".type == \"Succeeded\" or .type == \"Complete\" or .type == \"Completed\" or .type == \"Failed\" or .type == \"Suspended\"")
                    ),
                )
            }),
            "suspending" => suspend.as_ref().map(|p| {
                (
                    "GUESS: asked to suspend, not suspended yet",
                    format!("{p} == true and {}", no_true(".type == \"Suspended\"")),
                )
            }),
            "resuming" => suspend.as_ref().map(|p| {
                (
                    "GUESS: asked to resume while still suspended",
                    format!(
                        "({p} // false) != true and ({} | not)",
                        no_true(".type == \"Suspended\"")
                    ),
                )
            }),
            _ => None,
        };
        if types.is_empty() && expression.is_none() {
            continue;
        }
        w.line(5, &format!("{phase}:"));
        if let Some((why, expression)) = expression {
            w.comment(6, why);
            if *phase == "running" {
                for (_, seen) in &status.activity {
                    w.comment(6, &format!("saw {seen}"));
                }
            }
            write_expression(w, 6, &expression);
        }
        for t in types {
            match seen.iter().find(|(s, _)| s == t) {
                Some((_, s)) => w.comment(6, &format!("saw condition {t} (status {s})")),
                None => w.comment(
                    6,
                    &format!("{t}=True is a common convention; not seen in this object"),
                ),
            }
            w.line(
                6,
                &format!("- byConditions: [{{type: {t}, status: \"True\"}}]"),
            );
        }
    }
}

fn write_conditions_definition(w: &mut Writer, status: &StatusPlan) {
    if status.conditions.is_none() {
        return;
    }
    w.line(4, "conditionsDefinition:");
    w.line(5, "path: .status.conditions");
    w.line(5, "typeFieldName: type");
    w.line(5, "statusFieldName: status");
    w.line(5, "messageFieldName: message");
    w.line(5, "reasonFieldName: reason");
}

fn write_expression(w: &mut Writer, indent: usize, expression: &str) {
    w.line(indent, "- byExpression:");
    w.line(indent + 2, &format!("expression: {}", scalar(expression)));
    w.line(indent + 2, "expectedResult: \"true\"");
}

//! Shape inference: where the object keeps its pod templates, pod specs and resource
//! fragments, its replica counts, instance ids, status fields and suspend flag ([`Plan`]).

use serde_json::{Map, Value};

use super::jq::{jq_path, keys_of};
use super::*;

impl Plan {
    pub(super) fn empty() -> Plan {
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
            condition_fields: None,
        }
    }

    pub(super) fn read(object: &Map<String, Value>, diagnostics: &mut Vec<Diagnostic>) -> Plan {
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

pub(super) fn is_pod_spec(value: Option<&Value>) -> bool {
    value
        .and_then(|v| v.get("containers"))
        .and_then(Value::as_array)
        .is_some_and(|c| !c.is_empty() && c.iter().all(Value::is_object))
}

pub(super) fn is_requirements(value: &Value) -> bool {
    value.as_object().is_some_and(|m| {
        !m.is_empty()
            && m.keys()
                .all(|k| k == "requests" || k == "limits" || k == "claims")
            && m.values().all(|v| v.is_object() || v.is_array())
    })
}

/// The key of a `resources`-like field of `map` (`resources`, `resourcesPerNode`), if any.
pub(super) fn resources_field(map: &Map<String, Value>) -> Option<&str> {
    map.iter()
        .find(|(k, v)| k.starts_with("resources") && is_requirements(v))
        .map(|(k, _)| k.as_str())
}

/// True for a map whose values are the specs of roles: a `*Specs` key, or every value an
/// object holding pods at the same place (`services: {a: {...}, b: {...}}`).
pub(super) fn is_map_of_specs(key: &str, map: &Map<String, Value>) -> bool {
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
pub(super) fn walk(
    value: &Value,
    path: &mut Vec<Step>,
    inside: bool,
    depth: usize,
    out: &mut Vec<Location>,
) {
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
pub(super) fn merge(seen: &mut Vec<Location>, found: Vec<Location>) {
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
pub(super) fn at<'v>(value: &'v Value, keys: &[String]) -> Option<&'v Value> {
    keys.iter().try_fold(value, |v, k| v.get(k))
}

pub(super) fn plan_component(
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

/// Ids of list elements: `name` when every element has one, else another `*Name` string
/// field unique across the elements, else the position.
pub(super) fn list_ids(items: &[Value]) -> Ids {
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
pub(super) fn read_scale(element: &Value, relative: &[String], kind: PodKind) -> Scale {
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

pub(super) type ReplicaFields = (
    Option<ReplicaField>,
    Option<(Vec<String>, String, Value)>,
    Option<(Vec<String>, String, Value)>,
);

pub(super) fn replica_of(node: &Value, path: &[String]) -> Option<ReplicaFields> {
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
pub(super) fn role_name(path: &[Step]) -> Option<String> {
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
pub(super) fn component_name(name: &str) -> String {
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

pub(super) fn read_status(status: Option<&Value>) -> StatusPlan {
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
pub(super) fn find_activity(status: &Map<String, Value>) -> Vec<(String, String)> {
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
pub(super) fn find_phase(status: &Map<String, Value>) -> Option<(Vec<String>, String)> {
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
pub(super) fn find_suspend(spec: Option<&Value>) -> Option<(Vec<String>, bool)> {
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

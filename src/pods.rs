//! Pods: which live pods belong to a workload and where they go in its role tree
//! (upstream-semantics §3.6 and §3.9).
//!
//! Attribution follows each pod's controller `ownerReference` chain through the objects given
//! with it (up to [`MAX_HOPS`] owners). A chain that reaches the workload attributes the pod. A
//! chain that leaves the input (an owner that was not given) attributes the pod only when it is
//! in the workload's namespace and a component's `podSelector` matches it, and says so with an
//! info diagnostic. Placement then walks the tree top-down: a component with a pod spec claims
//! the pods its type selector matches (or all of them when it is the definition's only
//! component with a `specDefinition`), a grouping component passes its pods down unchanged,
//! and instances and replicas narrow them by their selectors' values.

use serde_json::Value;

use crate::compile::{CompiledExpr, ComponentPlan, PodSelectorPlan, SpecPlan};
use crate::diagnostic::{codes, Diagnostic, Severity};
use crate::expr::{ExprSet, Input};
use crate::view::{Component, PodItem, Pods, PodsSummary};

/// How many owners a pod's controller chain may pass through (upstream's limit).
pub const MAX_HOPS: usize = 6;

/// The objects given with a workload: its pods and the objects between them and it
/// (Jobs, ReplicaSets, StatefulSets, ...), as `kubectl get ... -o yaml` returns them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Related {
    /// Pods (objects of any other kind here are ignored).
    pub pods: Vec<Value>,
    /// Other objects that may own pods or each other. Anything may be given; only objects on
    /// a pod's controller chain are used.
    pub owners: Vec<Value>,
}

impl Related {
    /// Sorts a mixed list of objects into pods (`v1` `Pod`) and the rest.
    pub fn from_objects(objects: impl IntoIterator<Item = Value>) -> Related {
        let (pods, owners) = objects.into_iter().partition(is_pod);
        Related { pods, owners }
    }
}

/// True for a core `v1` `Pod`.
pub fn is_pod(object: &Value) -> bool {
    object.get("kind").and_then(Value::as_str) == Some("Pod")
        && object.get("apiVersion").and_then(Value::as_str) == Some("v1")
}

/// One pod, prepared for evaluating the definition's pod-side expressions.
pub(crate) struct Pod {
    pub name: String,
    pub namespace: Option<String>,
    pub input: Input,
    /// The replica key read by the nearest `replicaSelector` above where the pod is placed.
    pub replica: Option<String>,
}

impl Pod {
    fn new(json: Value) -> Pod {
        let meta = json.get("metadata");
        let text = |key: &str| {
            meta.and_then(|m| m.get(key))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        Pod {
            name: text("name").unwrap_or_default(),
            namespace: text("namespace"),
            input: Input::new(json),
            replica: None,
        }
    }

    pub fn json(&self) -> &Value {
        self.input.json()
    }
}

/// Evaluates pod-side expressions, reporting each distinct failure once.
pub(crate) struct PodEval<'a> {
    pub exprs: &'a ExprSet,
    pub diagnostics: &'a mut Vec<Diagnostic>,
    /// (path, message) of what was reported: a pod input holds few distinct problems.
    reported: Vec<(String, String)>,
}

impl<'a> PodEval<'a> {
    pub fn new(exprs: &'a ExprSet, diagnostics: &'a mut Vec<Diagnostic>) -> Self {
        PodEval {
            exprs,
            diagnostics,
            reported: Vec::new(),
        }
    }

    /// Reports an error `message` about `expr` once (the same failure on many pods is one
    /// problem).
    pub fn report(&mut self, code: &'static str, message: String, expr: Option<&CompiledExpr>) {
        self.push(Severity::Error, code, message, expr);
    }

    /// Reports a warning once: a problem with one pod, not with the definition.
    pub fn warn(&mut self, code: &'static str, message: String, expr: Option<&CompiledExpr>) {
        self.push(Severity::Warning, code, message, expr);
    }

    fn push(
        &mut self,
        severity: Severity,
        code: &'static str,
        message: String,
        expr: Option<&CompiledExpr>,
    ) {
        let path = expr.map(|e| e.path.clone()).unwrap_or_default();
        let key = (path.clone(), message.clone());
        if self.reported.contains(&key) {
            return;
        }
        self.reported.push(key);
        let mut d = Diagnostic::new(code, severity, message).with_path(path);
        d.range = expr.map(|e| e.range);
        self.diagnostics.push(d);
    }

    /// Every result of `expr` on `pod`; `None` when it failed (reported unless `quiet`).
    pub fn all(&mut self, expr: &CompiledExpr, pod: &Pod, quiet: bool) -> Option<Vec<Value>> {
        let id = expr.id?;
        match self.exprs.eval(id, &pod.input) {
            Ok(values) => Some(values),
            Err(err) => {
                if !quiet {
                    let message = format!(
                        "pod {}: expression '{}' failed: {}",
                        pod.name, expr.source, err.message
                    );
                    self.warn(err.code, message, Some(expr));
                }
                None
            }
        }
    }

    /// A single-value read (instance id, replica key, group key, filter): exactly one result
    /// that is neither null nor `""`, as text (upstream's errors otherwise).
    pub fn single(&mut self, expr: &CompiledExpr, pod: &Pod, quiet: bool) -> Option<String> {
        self.single_value(expr, pod, quiet).map(|v| go_string(&v))
    }

    /// Like [`single`](Self::single), keeping the value.
    pub fn single_value(&mut self, expr: &CompiledExpr, pod: &Pod, quiet: bool) -> Option<Value> {
        let mut values = self.all(expr, pod, quiet)?;
        let problem = match values.as_slice() {
            [Value::Null] => Some("query result is empty <nil>".to_owned()),
            [Value::String(s)] if s.is_empty() => Some("query result is empty ".to_owned()),
            [_] => None,
            other => Some(format!("expected single query result, got {}", other.len())),
        };
        match problem {
            None => values.pop(),
            Some(problem) => {
                if !quiet {
                    let message =
                        format!("pod {}: expression '{}': {problem}", pod.name, expr.source);
                    self.warn(codes::POD_QUERY, message, Some(expr));
                }
                None
            }
        }
    }

    /// Whether the component's `componentTypeSelector` matches the pod (false without one).
    pub fn type_matches(&mut self, selector: &PodSelectorPlan, pod: &Pod, quiet: bool) -> bool {
        let Some(t) = &selector.type_selector else {
            return false;
        };
        if let Some(key) = &t.key {
            let Some(values) = self.all(key, pod, quiet) else {
                return false;
            };
            let hit = if t.compares_value {
                values.iter().any(|v| v == &Value::Bool(true))
            } else {
                values.iter().any(|v| !v.is_null())
            };
            if !hit {
                return false;
            }
        }
        let labels = pod.json().pointer("/metadata/labels");
        t.match_labels
            .iter()
            .all(|(k, v)| labels.and_then(|l| l.get(k)).and_then(Value::as_str) == Some(v.as_str()))
    }
}

/// A value as Go's `fmt.Sprintf("%v")` prints it (upstream stringifies keys so).
pub(crate) fn go_string(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_i64() {
            Some(i) if n.is_i64() && (i.unsigned_abs() < 1_000_000) => i.to_string(),
            _ => go_float(n.as_f64().unwrap_or(0.0)),
        },
        other => other.to_string(),
    }
}

/// Go's `%v` for a float64: shortest digits, exponent form when the exponent is < -4 or
/// at least the precision (6, or the digit count for integral values). Built on serde_json's
/// shortest round-trip printing, so that Rust's float formatting stays out of the wasm module.
fn go_float(f: f64) -> String {
    let Some(number) = serde_json::Number::from_f64(f) else {
        return "NaN".to_owned();
    };
    let text = number.to_string();
    let (sign, text) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.as_str()),
    };
    let (mantissa, exp) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.trim_start_matches('+').parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: String = format!("{int}{frac}");
    let mut point = int.len() as i32 + exp;
    while digits.starts_with('0') {
        digits.remove(0);
        point -= 1;
    }
    while digits.ends_with('0') {
        digits.pop();
    }
    if digits.is_empty() {
        return "0".to_owned();
    }
    let nd = digits.len() as i32;
    let exponent = point - 1;
    let mut eprec = 6;
    if eprec > nd && nd >= point {
        eprec = nd;
    }
    if exponent < -4 || exponent >= eprec {
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() { "" } else { "." };
        let esign = if exponent < 0 { '-' } else { '+' };
        return format!(
            "{sign}{first}{dot}{rest}e{esign}{:02}",
            exponent.unsigned_abs()
        );
    }
    let body = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if point >= nd {
        format!("{digits}{}", "0".repeat((point - nd) as usize))
    } else {
        let (a, b) = digits.split_at(point as usize);
        format!("{a}.{b}")
    };
    format!("{sign}{body}")
}

/// What attribution and placement produce besides the pods written into the tree.
pub(crate) struct Attribution {
    pub summary: PodsSummary,
    /// The attributed pods, sorted by name.
    pub pods: Vec<Pod>,
}

/// The objects a pod's owner chain may pass through, with their identity read once. Searched
/// linearly: inputs hold a few thousand objects at most, and hash maps would grow the wasm
/// module for little gain.
pub(crate) struct Objects<'a> {
    /// (uid, kind, name, namespace, object).
    all: Vec<(&'a str, &'a str, &'a str, &'a str, &'a Value)>,
}

pub(crate) fn text<'v>(v: &'v Value, pointer: &str) -> &'v str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

impl<'a> Objects<'a> {
    pub(crate) fn new(objects: impl Iterator<Item = &'a Value>) -> Self {
        let all = objects
            .map(|o| {
                let meta = o.get("metadata").unwrap_or(&Value::Null);
                let field = |key: &str| meta.get(key).and_then(Value::as_str).unwrap_or("");
                (
                    field("uid"),
                    text(o, "/kind"),
                    field("name"),
                    field("namespace"),
                    o,
                )
            })
            .collect();
        Objects { all }
    }

    /// The object an ownerReference names: by uid, else by kind and name in the dependent's
    /// namespace (or cluster-scoped) when either side has no uid.
    pub(crate) fn find(&self, owner_ref: &Value, dependent: &Value) -> Option<&'a Value> {
        let uid = text(owner_ref, "/uid");
        if !uid.is_empty() {
            if let Some(found) = self.all.iter().find(|o| o.0 == uid) {
                return Some(found.4);
            }
        }
        let namespace = text(dependent, "/metadata/namespace");
        let (kind, name) = (text(owner_ref, "/kind"), text(owner_ref, "/name"));
        self.all
            .iter()
            .find(|(o_uid, o_kind, o_name, o_ns, _)| {
                *o_kind == kind
                    && *o_name == name
                    && (uid.is_empty() || o_uid.is_empty())
                    && (o_ns.is_empty() || *o_ns == namespace)
            })
            .map(|o| o.4)
    }
}

/// The controller ownerReference of an object.
pub(crate) fn controller_ref(object: &Value) -> Option<&Value> {
    object
        .pointer("/metadata/ownerReferences")?
        .as_array()?
        .iter()
        .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
}

/// True when `owner_ref` names `object`: by uid when both have one, else by kind and name.
fn names(owner_ref: &Value, object: &Value) -> bool {
    let (ref_uid, uid) = (text(owner_ref, "/uid"), text(object, "/metadata/uid"));
    if !ref_uid.is_empty() && !uid.is_empty() {
        return ref_uid == uid;
    }
    text(owner_ref, "/kind") == text(object, "/kind")
        && text(owner_ref, "/name") == text(object, "/metadata/name")
}

/// Where a pod's controller chain leads.
enum Chain<'v> {
    /// To the workload.
    Workload,
    /// Out of the input: this owner was not given.
    Missing(&'v Value),
    /// Somewhere else (no controller, another workload, too long).
    Elsewhere,
}

fn follow<'v>(pod: &'v Value, workload: &Value, objects: &Objects<'v>) -> Chain<'v> {
    let mut current = pod;
    for _ in 0..MAX_HOPS {
        let Some(owner_ref) = controller_ref(current) else {
            return Chain::Elsewhere;
        };
        if names(owner_ref, workload) {
            return Chain::Workload;
        }
        match objects.find(owner_ref, current) {
            Some(owner) if !std::ptr::eq(owner, current) => current = owner,
            Some(_) => return Chain::Elsewhere,
            None => {
                // An owner of the workload's own kind that is not the workload is another
                // workload: its pods are not ours, whatever their labels say.
                let same_kind = text(owner_ref, "/kind") == text(workload, "/kind")
                    && api_group(text(owner_ref, "/apiVersion"))
                        == api_group(text(workload, "/apiVersion"));
                return if same_kind {
                    Chain::Elsewhere
                } else {
                    Chain::Missing(owner_ref)
                };
            }
        }
    }
    Chain::Elsewhere
}

fn api_group(api_version: &str) -> &str {
    api_version.split_once('/').map_or("", |(g, _)| g)
}

/// Attributes the related pods to the workload and places them in the tree `root`.
pub(crate) fn attribute(
    plans: &[ComponentPlan],
    root: Option<&mut Component>,
    workload: &Value,
    related: &Related,
    ev: &mut PodEval<'_>,
) -> Attribution {
    let objects = Objects::new(
        related
            .owners
            .iter()
            .chain(&related.pods)
            .chain(std::iter::once(workload)),
    );
    let namespace = workload
        .pointer("/metadata/namespace")
        .and_then(Value::as_str);
    let ids = instance_ids(plans, root.as_deref());

    let mut given: Vec<&Value> = related.pods.iter().filter(|p| is_pod(p)).collect();
    // A workload that is a pod is its own pod.
    if is_pod(workload) && !given.iter().any(|p| names_object(p, workload)) {
        given.insert(0, workload);
    }
    let mut summary = PodsSummary {
        total: given.len() as u64,
        ..PodsSummary::default()
    };
    let mut pods = Vec::new();
    let mut through_missing: Vec<(String, Vec<String>)> = Vec::new();
    for json in given {
        let own = std::ptr::eq(json, workload);
        let chain = if own {
            Chain::Workload
        } else {
            follow(json, workload, &objects)
        };
        let pod = Pod::new(json.clone());
        let attributed = match chain {
            Chain::Workload => true,
            Chain::Elsewhere => false,
            Chain::Missing(owner_ref) => {
                let same_namespace = pod.namespace.as_deref() == namespace;
                let matched = same_namespace && selector_matches(plans, &ids, &pod, ev);
                if matched {
                    let owner =
                        format!("{}/{}", text(owner_ref, "/kind"), text(owner_ref, "/name"));
                    match through_missing.iter_mut().find(|(o, _)| *o == owner) {
                        Some((_, names)) => names.push(pod.name.clone()),
                        None => through_missing.push((owner, vec![pod.name.clone()])),
                    }
                }
                matched
            }
        };
        if attributed {
            pods.push(pod);
        } else {
            summary.unattributed.push(pod.name.clone());
        }
    }
    summary.attributed = pods.len() as u64;
    // Name order once: pod indices are then in name order everywhere below.
    pods.sort_by(|a, b| a.name.cmp(&b.name));
    for (owner, names) in through_missing {
        ev.diagnostics.push(
            Diagnostic::info(
                codes::POD_OWNER_NOT_IN_INPUT,
                format!(
                    "{owner}, which owns {}, is not in the input: attributed to this workload \
                     because {} in its namespace and the definition's podSelector matches",
                    names.join(", "),
                    if names.len() == 1 { "it is" } else { "they are" }
                ),
            )
            .in_object()
            .with_help("give the owner too (e.g. kubectl get jobset,jobs,pods -o yaml) to attribute by ownership"),
        );
    }

    if let Some(root) = root {
        let mut placer = Placer {
            plans,
            sole_owner: plans.iter().filter(|p| p.has_spec_definition).count() == 1,
            pods: &mut pods,
            items: Vec::new(),
            placed: Vec::new(),
            ev,
        };
        placer.items = placer.pods.iter().map(pod_item).collect();
        placer.placed = vec![false; placer.pods.len()];
        let all: Vec<usize> = (0..placer.pods.len()).collect();
        placer.place(root, &all, 0);
        let unplaced: Vec<&str> = placer
            .pods
            .iter()
            .zip(&placer.placed)
            .filter(|(_, placed)| !**placed)
            .map(|(p, _)| p.name.as_str())
            .collect();
        if !unplaced.is_empty() {
            let message = format!(
                "no component claims {}: {}",
                if unplaced.len() == 1 {
                    "this pod"
                } else {
                    "these pods"
                },
                unplaced.join(", ")
            );
            placer.ev.diagnostics.push(
                Diagnostic::info(codes::POD_UNPLACED, message)
                    .in_object()
                    .with_help(
                        "a componentTypeSelector on the component that runs them places them",
                    ),
            );
        }
    }
    Attribution { summary, pods }
}

fn names_object(pod: &Value, workload: &Value) -> bool {
    let uid = text(workload, "/metadata/uid");
    if !uid.is_empty() {
        return text(pod, "/metadata/uid") == uid;
    }
    text(pod, "/metadata/name") == text(workload, "/metadata/name")
        && text(pod, "/metadata/namespace") == text(workload, "/metadata/namespace")
}

/// The instance ids of each component (by plan index), read from the built tree.
pub(crate) fn instance_ids(plans: &[ComponentPlan], root: Option<&Component>) -> Vec<Vec<String>> {
    let mut ids = vec![Vec::new(); plans.len()];
    let mut seen = vec![false; plans.len()];
    fn walk(c: &Component, plans: &[ComponentPlan], ids: &mut [Vec<String>], seen: &mut [bool]) {
        if let Some(i) = plans.iter().position(|p| p.name == c.name) {
            if !seen[i] {
                seen[i] = true;
                ids[i] = c.instances.iter().filter_map(|i| i.id.clone()).collect();
            }
        }
        if let Some(first) = c.instances.first() {
            for child in &first.children {
                walk(child, plans, ids, seen);
            }
        }
    }
    if let Some(root) = root {
        walk(root, plans, &mut ids, &mut seen);
    }
    ids
}

/// For a pod whose chain leaves the input: does any component's podSelector match it?
fn selector_matches(
    plans: &[ComponentPlan],
    ids: &[Vec<String>],
    pod: &Pod,
    ev: &mut PodEval<'_>,
) -> bool {
    plans.iter().enumerate().any(|(i, plan)| {
        let Some(sel) = &plan.pod_selector else {
            return false;
        };
        if sel.type_selector.is_some() {
            return ev.type_matches(sel, pod, true);
        }
        if let Some(expr) = &sel.instance_id {
            return ev
                .single(expr, pod, true)
                .is_some_and(|id| ids[i].contains(&id));
        }
        if let Some(expr) = &sel.replica_key {
            return ev.single(expr, pod, true).is_some();
        }
        false
    })
}

/// The view of one pod.
fn pod_item(pod: &Pod) -> PodItem {
    let json = pod.json();
    let status = json.get("status");
    let condition = |kind: &str| {
        status
            .and_then(|s| s.get("conditions"))
            .and_then(Value::as_array)
            .and_then(|cs| {
                cs.iter()
                    .find(|c| c.get("type").and_then(Value::as_str) == Some(kind))
            })
    };
    let is_false = |c: &&Value| c.get("status").and_then(Value::as_str) == Some("False");
    let reason_of = |c: &Value| {
        c.get("reason")
            .and_then(Value::as_str)
            .filter(|r| !r.is_empty())
            .map(str::to_owned)
    };
    let ready = condition("Ready")
        .and_then(|c| c.get("status"))
        .and_then(Value::as_str)
        == Some("True");
    let reason = if ready {
        None
    } else {
        condition("PodScheduled")
            .filter(is_false)
            .and_then(reason_of)
            .or_else(|| status.and_then(reason_of))
            .or_else(|| condition("Ready").filter(is_false).and_then(reason_of))
    };
    let request = crate::resources::pod_spec_request(json.get("spec").unwrap_or(&Value::Null), "");
    PodItem {
        name: pod.name.clone(),
        phase: status
            .and_then(|s| s.get("phase"))
            .and_then(Value::as_str)
            .filter(|p| !p.is_empty())
            .unwrap_or("Unknown")
            .to_owned(),
        ready,
        reason,
        node: json
            .pointer("/spec/nodeName")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .map(str::to_owned),
        replica: pod.replica.clone(),
        resources: request.to_view(),
    }
}

/// Places pods top-down in the tree.
struct Placer<'p, 'e, 'x> {
    plans: &'p [ComponentPlan],
    /// The definition has exactly one component with a `specDefinition`.
    sole_owner: bool,
    pods: &'p mut Vec<Pod>,
    items: Vec<PodItem>,
    placed: Vec<bool>,
    ev: &'e mut PodEval<'x>,
}

impl Placer<'_, '_, '_> {
    /// Places the pods `incoming` (passed down by the parent) in `component`; returns the pods
    /// of its subtree.
    fn place(&mut self, component: &mut Component, incoming: &[usize], depth: usize) -> Vec<usize> {
        let Some(plan_index) = self.plans.iter().position(|p| p.name == component.name) else {
            return Vec::new();
        };
        let plan = &self.plans[plan_index];
        let selector = plan.pod_selector.as_ref();
        let has_pods = !matches!(plan.spec, SpecPlan::None);

        if let Some(expr) = selector.and_then(|s| s.replica_key.as_ref()) {
            for &i in incoming {
                let key = self.ev.single(expr, &self.pods[i], false);
                self.pods[i].replica = key.clone();
                self.items[i].replica = key;
            }
        }
        // A component with a pod spec claims pods; a grouping one passes them on.
        let own: Vec<usize> = if has_pods {
            match selector.filter(|s| s.type_selector.is_some()) {
                Some(sel) => incoming
                    .iter()
                    .copied()
                    .filter(|&i| self.ev.type_matches(sel, &self.pods[i], false))
                    .collect(),
                None if self.sole_owner => incoming.to_vec(),
                None => Vec::new(),
            }
        } else {
            incoming.to_vec()
        };
        if has_pods {
            for &i in &own {
                self.placed[i] = true;
            }
        }

        let multi = component.instances.iter().any(|i| i.id.is_some());
        let id_expr = selector
            .and_then(|s| s.instance_id.as_ref())
            .filter(|_| multi);
        let pod_ids: Vec<Option<String>> = match id_expr {
            Some(expr) => own
                .iter()
                .map(|&i| self.ev.single(expr, &self.pods[i], false))
                .collect(),
            None => Vec::new(),
        };
        if let Some(expr) = id_expr {
            let known: Vec<String> = component
                .instances
                .iter()
                .filter_map(|i| i.id.clone())
                .collect();
            for (k, id) in pod_ids.iter().enumerate() {
                if let Some(id) = id.as_ref().filter(|id| !known.contains(id)) {
                    let message = format!(
                        "pod {}: could not match instance id \"{id}\". existing instance ids [{}]",
                        self.pods[own[k]].name,
                        known.join(" ")
                    );
                    self.ev.warn(codes::POD_NO_INSTANCE, message, Some(expr));
                }
            }
        }

        let mut subtree: Vec<usize> = if has_pods { own.clone() } else { Vec::new() };
        for instance in &mut component.instances {
            let narrowed: Vec<usize> = match id_expr {
                Some(_) => own
                    .iter()
                    .zip(&pod_ids)
                    .filter(|(_, id)| id.is_some() && id.as_deref() == instance.id.as_deref())
                    .map(|(&i, _)| i)
                    .collect(),
                None => own.clone(),
            };
            // Children choose among what reached this instance (a pod-bearing parent passes
            // what it was given, narrowed to the instance).
            let for_children: Vec<usize> = if has_pods && id_expr.is_none() {
                incoming.to_vec()
            } else if has_pods {
                incoming
                    .iter()
                    .copied()
                    .filter(|i| narrowed.contains(i) || !own.contains(i))
                    .collect()
            } else {
                narrowed.clone()
            };
            let mut instance_pods = if has_pods { narrowed } else { Vec::new() };
            if depth < self.plans.len() {
                for child in &mut instance.children {
                    let below = self.place(child, &for_children, depth + 1);
                    if !has_pods {
                        instance_pods.extend(below);
                    }
                }
            }
            if !has_pods {
                subtree.extend(instance_pods.iter().copied());
            }
            instance.pods = Some(self.view(&instance_pods));
        }
        component.pods = Some(self.view(&subtree));
        subtree
    }

    fn view(&self, pods: &[usize]) -> Pods {
        let mut unique: Vec<usize> = pods.to_vec();
        unique.sort_unstable();
        unique.dedup();
        let items: Vec<PodItem> = unique.iter().map(|&i| self.items[i].clone()).collect();
        Pods {
            current: items.len() as u64,
            ready: items.iter().filter(|p| p.ready).count() as u64,
            items,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::go_string;
    use serde_json::json;

    #[test]
    fn keys_print_as_go_prints_them() {
        assert_eq!(go_string(&json!("a")), "a");
        assert_eq!(go_string(&json!(3)), "3");
        assert_eq!(go_string(&json!(100000000)), "1e+08");
        assert_eq!(go_string(&json!(1234567)), "1.234567e+06");
        assert_eq!(go_string(&json!(123456)), "123456");
        assert_eq!(go_string(&json!(1.5)), "1.5");
        assert_eq!(go_string(&json!(0.0001)), "0.0001");
        assert_eq!(go_string(&json!(0.00001)), "1e-05");
        assert_eq!(go_string(&json!(2.0)), "2");
        assert_eq!(go_string(&json!(-2500000.0)), "-2.5e+06");
        assert_eq!(go_string(&json!(123456.5)), "123456.5");
        assert_eq!(go_string(&json!(true)), "true");
    }
}

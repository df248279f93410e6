//! Pods: which live pods belong to a workload and where they go in its role tree
//! (upstream-semantics §3.6 and §3.9).
//!
//! Attribution follows each pod's controller `ownerReference` chain through the objects given
//! with it (up to [`MAX_HOPS`] owners), with the owner index of [`crate::manifest`] (one rule
//! for the whole crate). A chain that reaches the workload attributes the pod; any other chain
//! does not, whatever the pod's labels say: one that leaves the input (an owner that was not
//! given) is said with an info diagnostic naming the owner to give. Placement then walks the tree top-down: a component with a pod spec claims
//! the pods its type selector matches (or all of them when it is the definition's only
//! component with a `specDefinition`), a grouping component passes its pods down unchanged,
//! and instances and replicas narrow them by their selectors' values.

use serde_json::Value;

use crate::diagnostic::{codes, Diagnostic, Severity};
use crate::expr::{ExprSet, Input};
use crate::plan::{CompiledExpr, ComponentPlan, PodSelectorPlan, SpecPlan};
use crate::view::{Component, PodItem, Pods, PodsSummary};

pub use crate::manifest::{is_pod, MAX_HOPS};
use crate::manifest::{owner_label, text, Owner, Owners};

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

    /// The same objects, borrowed.
    pub fn refs(&self) -> RelatedRefs<'_> {
        RelatedRefs {
            pods: self.pods.iter().collect(),
            owners: self.owners.iter().collect(),
        }
    }
}

/// [`Related`] borrowed from objects read once (a manifest's, a List's): a resolve reads the
/// objects where they are, without copying them.
#[derive(Debug, Clone, Default)]
pub struct RelatedRefs<'a> {
    /// Pods (objects of any other kind here are ignored).
    pub pods: Vec<&'a Value>,
    /// Other objects that may own pods or each other.
    pub owners: Vec<&'a Value>,
}

impl<'a> RelatedRefs<'a> {
    /// Sorts a mixed list of objects into pods (`v1` `Pod`) and the rest; a value that is not
    /// an object (a place the caller could not read, see [`crate::manifest::read`]) is neither.
    pub fn from_objects(objects: impl IntoIterator<Item = &'a Value>) -> RelatedRefs<'a> {
        let (pods, owners) = objects
            .into_iter()
            .filter(|o| o.is_object())
            .partition(|o| is_pod(o));
        RelatedRefs { pods, owners }
    }
}

/// One pod, prepared for evaluating the definition's pod-side expressions.
pub(crate) struct Pod<'a> {
    pub name: String,
    pub namespace: Option<String>,
    /// The pod's object, borrowed from the objects given (never copied).
    pub input: Input<'a>,
    /// The replica key read by the nearest `replicaSelector` above where the pod is placed.
    pub replica: Option<String>,
}

impl<'a> Pod<'a> {
    fn new(json: &'a Value) -> Pod<'a> {
        let meta = json.get("metadata");
        let text = |key: &str| {
            meta.and_then(|m| m.get(key))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        Pod {
            name: text("name").unwrap_or_default(),
            namespace: text("namespace"),
            input: Input::borrowed(json),
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
        let labels = crate::object::pointer(pod.json(), "/metadata/labels");
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
pub(crate) struct Attribution<'a> {
    pub summary: PodsSummary,
    /// The attributed pods, sorted by name.
    pub pods: Vec<Pod<'a>>,
}

/// Where a pod's controller chain leads.
enum Chain<'v> {
    /// To the workload, within [`MAX_HOPS`] owners.
    Workload,
    /// Out of the input: this owner was not given.
    Missing(&'v Value),
    /// Somewhere else (no controller, another object, a cycle, too long).
    Elsewhere,
}

/// Follows the controller chain of object `pod` (an index into `owners`) towards `workload`.
fn follow<'v>(pod: usize, workload: usize, owners: &Owners<'v>) -> Chain<'v> {
    let mut current = pod;
    for _ in 0..MAX_HOPS {
        match owners.owner(current) {
            Owner::At(owner) if owner == workload => return Chain::Workload,
            Owner::At(owner) => current = owner,
            Owner::Missing(owner_ref) => return Chain::Missing(owner_ref),
            Owner::None => return Chain::Elsewhere,
        }
    }
    Chain::Elsewhere
}

/// Attributes the related pods to the workload and places them in the tree `root`.
pub(crate) fn attribute<'a>(
    plans: &[ComponentPlan],
    root: Option<&mut Component>,
    workload: &'a Value,
    related: &RelatedRefs<'a>,
    ev: &mut PodEval<'_>,
) -> Attribution<'a> {
    // The workload first, then the owners, then the pods: one index of identities.
    let owners = Owners::new(
        std::iter::once(workload)
            .chain(related.owners.iter().copied())
            .chain(related.pods.iter().copied())
            .collect(),
    );
    let first_pod = 1 + related.owners.len();
    // A pod given twice (the same uid: a leader pod that owns its workers' StatefulSet is
    // also an owner on their chains) is one pod, counted once: [`Owners`]' identity.
    let mut seen = vec![false; owners.len()];
    let mut given: Vec<(usize, &Value)> = related
        .pods
        .iter()
        .enumerate()
        .filter(|(_, p)| is_pod(p))
        .map(|(i, &p)| (first_pod + i, p))
        .filter(|&(at, _)| !std::mem::replace(&mut seen[owners.copy_of(at).unwrap_or(at)], true))
        .collect();
    // A workload that is a pod is its own pod.
    if is_pod(workload) && !given.iter().any(|(_, p)| names_object(p, workload)) {
        given.insert(0, (0, workload));
    }
    let mut summary = PodsSummary {
        total: given.len() as u64,
        ..PodsSummary::default()
    };
    let mut pods = Vec::new();
    let mut through_missing: Vec<(String, Vec<String>)> = Vec::new();
    for (at, json) in given {
        let chain = if at == 0 {
            Chain::Workload
        } else {
            follow(at, 0, &owners)
        };
        let pod = Pod::new(json);
        let attributed = match chain {
            Chain::Workload => true,
            Chain::Elsewhere => false,
            Chain::Missing(owner_ref) => {
                // Not ours: labels never attribute a pod (§3.9: an unreadable chain is not a
                // match). Said once per missing owner, so the user can give it.
                let owner = owner_label(owner_ref);
                match through_missing.iter_mut().find(|(o, _)| *o == owner) {
                    Some((_, names)) => names.push(pod.name.clone()),
                    None => through_missing.push((owner, vec![pod.name.clone()])),
                }
                false
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
                    "{owner}, which owns {}, is not in the input: not attributed to this workload",
                    names.join(", "),
                ),
            )
            .in_object()
            .with_help("give the owner too (e.g. kubectl get jobset,jobs,pods -o yaml) to attribute by ownership"),
        );
    }

    match root {
        Some(root) => {
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
            summary.unplaced = placer
                .items
                .iter()
                .zip(&placer.placed)
                .filter(|(_, placed)| !**placed)
                .map(|(item, _)| item.clone())
                .collect();
            if !summary.unplaced.is_empty() {
                let names: Vec<&str> = summary.unplaced.iter().map(|p| p.name.as_str()).collect();
                let message = format!(
                    "no component claims {}: {}",
                    if names.len() == 1 {
                        "this pod"
                    } else {
                        "these pods"
                    },
                    names.join(", ")
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
        // No tree to place them in: every attributed pod is the workload's alone.
        None => summary.unplaced = pods.iter().map(pod_item).collect(),
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

/// Whether `object` is being deleted and has not finished: `metadata.deletionTimestamp` is
/// set and, for a pod, `status.phase` is neither `Succeeded` nor `Failed`. kubectl shows such a
/// pod as `Terminating`, and the ReplicaSet and endpoints controllers no longer count it as
/// ready or available, whatever its `Ready` condition still says.
pub fn is_terminating(object: &Value) -> bool {
    let deleting = crate::object::pointer(object, "/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null() && t.as_str() != Some(""));
    let finished = is_pod(object)
        && matches!(
            crate::object::pointer(object, "/status/phase").and_then(Value::as_str),
            Some("Succeeded" | "Failed")
        );
    deleting && !finished
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
    let terminating = is_terminating(json);
    let ready = !terminating
        && condition("Ready")
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
        terminating,
        reason,
        node: crate::object::pointer(json, "/spec/nodeName")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .map(str::to_owned),
        replica: pod.replica.clone(),
        resources: request.to_view(),
    }
}

/// Places pods top-down in the tree.
struct Placer<'p, 'e, 'x, 'v> {
    plans: &'p [ComponentPlan],
    /// The definition has exactly one component with a `specDefinition`.
    sole_owner: bool,
    pods: &'p mut Vec<Pod<'v>>,
    items: Vec<PodItem>,
    placed: Vec<bool>,
    ev: &'e mut PodEval<'x>,
}

impl Placer<'_, '_, '_, '_> {
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

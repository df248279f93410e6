//! A pod's effective resource request, computed exactly as Kubernetes computes it.
//!
//! This follows `PodRequests` in `k8s.io/component-helpers/resource` after API defaulting:
//!
//! 1. Each container asks for each resource's request if declared, else its limit (API
//!    defaulting copies a limit into a missing request; an explicit `0` request counts as
//!    declared).
//! 2. The running sum is the sum over `containers`.
//! 3. Init containers, in order: a sidecar (`restartPolicy: Always`) adds to the running
//!    sum and to the sidecars started so far, and while it starts the pod needs all those
//!    sidecars; a regular init container needs its own request plus the sidecars started
//!    before it. The init peak is the per-resource maximum of those needs.
//! 4. The total is the per-resource maximum of the running sum and the init peak.
//! 5. Pod-level `spec.resources` (requests, else limits) replaces `cpu`, `memory` and
//!    `hugepages-*` (the resources Kubernetes supports at pod level).
//! 6. `spec.overhead` is added.
//!
//! Amounts are summed as exact [`Quantity`] values and rounded only when turned into a
//! [`view::Resources`]. Problems in the spec (a bad quantity, a fractional GPU, a GPU request
//! that differs from its limit, a value of the wrong shape) come back as diagnostics in the
//! result, never as panics. Whatever the sum leaves out (devices requested through
//! `resourceClaims`, a quantity that does not parse or is negative, a value of the wrong
//! shape) marks the result incomplete: its amounts are then lower bounds.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::diagnostic::{codes, Diagnostic};
use crate::quantity::Quantity;
use crate::view::{self, LowerBounds};

/// The resource names counted as GPUs in [`view::Resources::gpus`].
pub const GPU_RESOURCES: [&str; 2] = ["nvidia.com/gpu", "amd.com/gpu"];

/// Resource name → exact amount, as a Kubernetes `ResourceList`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResourceList {
    amounts: BTreeMap<String, Quantity>,
}

impl ResourceList {
    /// An empty list.
    pub fn new() -> Self {
        ResourceList::default()
    }

    /// The amount of `name`, if listed.
    pub fn get(&self, name: &str) -> Option<&Quantity> {
        self.amounts.get(name)
    }

    /// Sets the amount of `name`.
    pub fn insert(&mut self, name: impl Into<String>, amount: Quantity) {
        self.amounts.insert(name.into(), amount);
    }

    /// Every listed resource, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Quantity)> {
        self.amounts
            .iter()
            .map(|(name, amount)| (name.as_str(), amount))
    }

    /// True when nothing is listed.
    pub fn is_empty(&self) -> bool {
        self.amounts.is_empty()
    }

    /// True when every listed amount is zero (or nothing is listed).
    pub fn is_zero(&self) -> bool {
        self.amounts.values().all(Quantity::is_zero)
    }

    /// Adds `other` resource by resource.
    pub fn add(&mut self, other: &ResourceList) {
        for (name, amount) in &other.amounts {
            let sum = match self.amounts.get(name) {
                Some(current) => *current + *amount,
                None => *amount,
            };
            self.amounts.insert(name.clone(), sum);
        }
    }

    /// Keeps, resource by resource, the larger of the two amounts.
    pub fn max(&mut self, other: &ResourceList) {
        for (name, amount) in &other.amounts {
            let larger = match self.amounts.get(name) {
                Some(current) => Quantity::max(*current, *amount),
                None => *amount,
            };
            self.amounts.insert(name.clone(), larger);
        }
    }

    /// Every amount multiplied by `replicas`, exactly.
    pub fn scale(&self, replicas: u64) -> ResourceList {
        let amounts = self
            .amounts
            .iter()
            .map(|(name, amount)| (name.clone(), *amount * replicas))
            .collect();
        ResourceList { amounts }
    }

    /// The view's rounded amounts: GPUs are `nvidia.com/gpu` + `amd.com/gpu`, CPU in
    /// millicores (`MilliValue`, rounded up), memory in bytes (`Value`, rounded up), and every
    /// other non-zero resource (GPUs too, by their own names) in whole units, rounded up.
    /// Negative amounts count as zero.
    ///
    /// Every amount is exact up to [`MAX_EXACT`] (`Number.MAX_SAFE_INTEGER`, the largest
    /// integer a JavaScript number holds exactly). A larger amount is shown as `MAX_EXACT`
    /// and the result is marked `incomplete`, so it reads as the lower bound it is
    /// ("≥ 9007199254740991"), never as a rounded number; [`overflows`](Self::overflows)
    /// says which amounts those are, exactly.
    pub fn to_view(&self) -> view::Resources {
        let mut resources = view::Resources::default();
        let mut bounds = LowerBounds::default();
        for amount in self.view_amounts() {
            let (shown, clamped) = clamp(amount.exact);
            match amount.field {
                Field::Gpus => (resources.gpus, bounds.gpus) = (shown, clamped),
                Field::Cpu => (resources.cpu_millis, bounds.cpu_millis) = (shown, clamped),
                Field::Memory => (resources.memory_bytes, bounds.memory_bytes) = (shown, clamped),
                Field::Extended(name) => {
                    resources.extended.insert(name.to_owned(), shown);
                    bounds.extended |= clamped;
                }
            }
        }
        resources.mark(bounds);
        resources
    }

    /// The amounts of [`to_view`](Self::to_view) that exceed [`MAX_EXACT`], exactly.
    pub fn overflows(&self) -> Vec<Overflow> {
        self.view_amounts()
            .into_iter()
            .filter(|a| a.exact > i128::from(MAX_EXACT))
            .map(|a| Overflow {
                field: match a.field {
                    Field::Gpus => "gpus".to_owned(),
                    Field::Cpu => "cpuMillis".to_owned(),
                    Field::Memory => "memoryBytes".to_owned(),
                    Field::Extended(name) => name.to_owned(),
                },
                amount: if a.saturated {
                    None
                } else {
                    Some(a.exact.to_string())
                },
            })
            .collect()
    }

    /// Each view amount, exact (in `i128`), before clamping.
    fn view_amounts(&self) -> Vec<ViewAmount<'_>> {
        let mut out = Vec::new();
        let mut gpus: i128 = 0;
        let mut gpus_saturated = false;
        let mut any_gpu = false;
        for (name, amount) in &self.amounts {
            let saturated = amount.is_saturated();
            match name.as_str() {
                "cpu" => out.push(ViewAmount {
                    field: Field::Cpu,
                    exact: amount.millis_ceil_wide().max(0),
                    saturated,
                }),
                "memory" => out.push(ViewAmount {
                    field: Field::Memory,
                    exact: amount.units_ceil_wide().max(0),
                    saturated,
                }),
                other => {
                    let units = amount.units_ceil_wide().max(0);
                    if GPU_RESOURCES.contains(&other) {
                        any_gpu = true;
                        gpus = gpus.saturating_add(units);
                        gpus_saturated |= saturated;
                    }
                    if units > 0 {
                        out.push(ViewAmount {
                            field: Field::Extended(other),
                            exact: units,
                            saturated,
                        });
                    }
                }
            }
        }
        if any_gpu {
            out.insert(
                0,
                ViewAmount {
                    field: Field::Gpus,
                    exact: gpus,
                    saturated: gpus_saturated || gpus == i128::MAX,
                },
            );
        }
        out
    }
}

pub use crate::quantity::MAX_EXACT;

/// An amount of the view beyond [`MAX_EXACT`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overflow {
    /// The view field: `gpus`, `cpuMillis`, `memoryBytes` or an extended resource's name.
    pub field: String,
    /// The exact amount in the field's unit, or `None` when even the exact arithmetic
    /// saturated (beyond about 1.7e29 units).
    pub amount: Option<String>,
}

/// Which view field an amount goes to.
enum Field<'a> {
    Gpus,
    Cpu,
    Memory,
    Extended(&'a str),
}

struct ViewAmount<'a> {
    field: Field<'a>,
    exact: i128,
    saturated: bool,
}

/// The amount to show and whether it had to be clamped to [`MAX_EXACT`].
fn clamp(exact: i128) -> (u64, bool) {
    match u64::try_from(exact) {
        Ok(n) if n <= MAX_EXACT => (n, false),
        _ if exact < 0 => (0, false),
        _ => (MAX_EXACT, true),
    }
}

impl FromIterator<(String, Quantity)> for ResourceList {
    fn from_iter<I: IntoIterator<Item = (String, Quantity)>>(iter: I) -> Self {
        ResourceList {
            amounts: iter.into_iter().collect(),
        }
    }
}

/// The effective request of one pod (or pod-like fragment), with what went wrong reading it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PodRequest {
    /// The exact effective request.
    pub resources: ResourceList,
    /// The amounts that are lower bounds because part of the request cannot be known from the
    /// spec: devices through `resourceClaims` (GPUs and extended resources), or everything
    /// after an amount that is not a valid quantity or a value of the wrong shape.
    pub lower_bounds: LowerBounds,
    /// Problems found in the spec. Paths are dotted from the `path` the caller gave; ranges
    /// are not known here.
    pub diagnostics: Vec<Diagnostic>,
}

impl PodRequest {
    /// The rounded view of [`resources`](Self::resources), carrying
    /// [`lower_bounds`](Self::lower_bounds).
    pub fn to_view(&self) -> view::Resources {
        let mut resources = self.resources.to_view();
        resources.mark(self.lower_bounds);
        resources
    }
}

/// The effective request of a `PodSpec`. `path` is where the spec sits in the manifest
/// (e.g. `spec.template.spec`; empty for the root) and prefixes every diagnostic path.
pub fn pod_spec_request(spec: &Value, path: &str) -> PodRequest {
    let mut cx = Reader::default();
    let resources = match as_object(spec, path, "a pod spec", &mut cx) {
        Some(spec) => cx.pod_spec(spec, path),
        None => ResourceList::new(),
    };
    cx.finish(resources)
}

/// The effective request of a `PodTemplateSpec` (its `.spec`; a template without one
/// requests nothing). `path` is where the template sits in the manifest.
pub fn pod_template_request(template: &Value, path: &str) -> PodRequest {
    let mut cx = Reader::default();
    let resources = match as_object(template, path, "a pod template", &mut cx) {
        Some(template) => {
            let spec_path = join(path, "spec");
            match template
                .get("spec")
                .and_then(|spec| as_object(spec, &spec_path, "a pod spec", &mut cx))
            {
                Some(spec) => cx.pod_spec(spec, &spec_path),
                None => ResourceList::new(),
            }
        }
        None => ResourceList::new(),
    };
    cx.finish(resources)
}

/// The request of a fragmented pod spec: an object with optional `containers` (a list of
/// containers), `container` (one container), `resources` (CR-level
/// `ResourceRequirements`) and `resourceClaims`. The request is the sum of `containers`
/// and `container`; only when that is all zero are the CR-level `resources` used. `path`
/// prefixes diagnostic paths (the fields' own names are used below it).
pub fn fragmented_request(fragment: &Value, path: &str) -> PodRequest {
    let mut cx = Reader::default();
    let mut total = ResourceList::new();
    if let Some(fragment) = as_object(fragment, path, "a fragmented pod spec", &mut cx) {
        total.add(&cx.container_list(fragment.get("containers"), &join(path, "containers")));
        if let Some(container) = fragment.get("container").filter(|c| !c.is_null()) {
            total.add(&cx.container(container, &join(path, "container")));
        }
        if total.is_zero() {
            if let Some(resources) = fragment.get("resources") {
                total = cx.requirements(resources, &join(path, "resources"));
            }
        }
        cx.claims(
            fragment.get("resourceClaims"),
            &join(path, "resourceClaims"),
        );
    }
    cx.finish(total)
}

/// Reads one pod spec, collecting diagnostics.
#[derive(Default)]
struct Reader {
    diagnostics: Vec<Diagnostic>,
    /// What was left out of the sum (see [`PodRequest::lower_bounds`]).
    lower_bounds: LowerBounds,
    /// The resourceClaims note was given (once per pod is enough).
    claims_noted: bool,
}

impl Reader {
    fn finish(self, resources: ResourceList) -> PodRequest {
        PodRequest {
            resources,
            lower_bounds: self.lower_bounds,
            diagnostics: self.diagnostics,
        }
    }

    fn pod_spec(&mut self, spec: &Map<String, Value>, path: &str) -> ResourceList {
        let mut total = self.container_list(spec.get("containers"), &join(path, "containers"));

        let mut sidecars = ResourceList::new();
        let mut init_peak = ResourceList::new();
        let init_path = join(path, "initContainers");
        for (i, container) in self
            .list(spec.get("initContainers"), &init_path)
            .iter()
            .enumerate()
        {
            let own = self.container(container, &index(&init_path, i));
            let is_sidecar =
                container.get("restartPolicy").and_then(Value::as_str) == Some("Always");
            let need = if is_sidecar {
                total.add(&own);
                sidecars.add(&own);
                sidecars.clone()
            } else {
                let mut need = own;
                need.add(&sidecars);
                need
            };
            init_peak.max(&need);
        }
        total.max(&init_peak);

        let pod_path = join(path, "resources");
        if let Some(pod_level) = spec
            .get("resources")
            .filter(|r| as_object(r, &pod_path, "a resource requirements object", self).is_some())
        {
            let requests = self.quantities(pod_level, &pod_path, "requests");
            let limits = self.quantities(pod_level, &pod_path, "limits");
            let supported =
                |name: &str| matches!(name, "cpu" | "memory") || name.starts_with("hugepages-");
            let mut effective = ResourceList::new();
            for (name, amount) in limits.iter().filter(|(name, _)| supported(name)) {
                // Defaulting fills a missing pod-level hugepages request from the containers'
                // requests before falling back to the limit.
                if !(name.starts_with("hugepages-") && total.get(name).is_some()) {
                    effective.insert(name, *amount);
                }
            }
            for (name, amount) in requests.iter().filter(|(name, _)| supported(name)) {
                effective.insert(name, *amount);
            }
            for (name, amount) in effective.iter() {
                total.insert(name, *amount);
            }
        }

        if let Some(overhead) = spec.get("overhead") {
            let overhead = self.quantity_map(overhead, &join(path, "overhead"));
            total.add(&overhead);
        }

        self.claims(spec.get("resourceClaims"), &join(path, "resourceClaims"));
        total
    }

    /// The sum of a list of containers.
    fn container_list(&mut self, list: Option<&Value>, path: &str) -> ResourceList {
        let mut total = ResourceList::new();
        for (i, container) in self.list(list, path).iter().enumerate() {
            total.add(&self.container(container, &index(path, i)));
        }
        total
    }

    /// One container's request: requests, else limits, resource by resource.
    fn container(&mut self, container: &Value, path: &str) -> ResourceList {
        let Some(container) = as_object(container, path, "a container", self) else {
            return ResourceList::new();
        };
        let resources_path = join(path, "resources");
        let Some(resources) = container.get("resources") else {
            return ResourceList::new();
        };
        if let Some(requirements) = resources.as_object() {
            self.claims(requirements.get("claims"), &join(&resources_path, "claims"));
        }
        self.requirements(resources, &resources_path)
    }

    /// A `ResourceRequirements`: requests, else limits, resource by resource, checking the
    /// rules Kubernetes enforces on extended resources.
    fn requirements(&mut self, resources: &Value, path: &str) -> ResourceList {
        if as_object(resources, path, "a resource requirements object", self).is_none() {
            return ResourceList::new();
        }
        let requests = self.quantities(resources, path, "requests");
        let limits = self.quantities(resources, path, "limits");

        for (name, request) in requests.iter().filter(|(name, _)| is_extended(name)) {
            let request_path = key(&join(path, "requests"), name);
            match limits.get(name) {
                Some(limit) if limit != request => self.diagnostics.push(
                    Diagnostic::error(
                        codes::GPU_REQUEST_LIMIT_MISMATCH,
                        format!(
                            "{name} request ({request}) differs from its limit ({limit}): \
                             Kubernetes requires them to be equal for extended resources"
                        ),
                    )
                    .in_object()
                    .with_path(request_path)
                    .with_help(format!("set the same amount in both, or only the limit: `limits: {{{name}: {limit}}}`")),
                ),
                Some(_) => {}
                None => self.diagnostics.push(
                    Diagnostic::error(
                        codes::GPU_REQUEST_LIMIT_MISMATCH,
                        format!(
                            "{name} has a request ({request}) but no limit: Kubernetes requires \
                             a limit equal to the request for extended resources"
                        ),
                    )
                    .in_object()
                    .with_path(request_path)
                    .with_help(format!("add `limits: {{{name}: {request}}}`, or declare only the limit")),
                ),
            }
        }
        for (field, list) in [("requests", &requests), ("limits", &limits)] {
            for (name, amount) in list
                .iter()
                .filter(|(name, q)| is_extended(name) && !q.is_integer())
            {
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::FRACTIONAL_EXTENDED,
                        format!(
                            "{name} must be a whole number, not {amount}: Kubernetes rejects \
                             fractional amounts of extended resources"
                        ),
                    )
                    .in_object()
                    .with_path(key(&join(path, field), name))
                    .with_help(format!(
                        "request whole devices, e.g. `{name}: {}`; share devices through the \
                         device plugin or resourceClaims instead",
                        amount.units_ceil_wide()
                    )),
                );
            }
        }

        let mut effective = limits;
        for (name, amount) in requests.iter() {
            effective.insert(name, *amount);
        }
        effective
    }

    /// The `field` map (`requests`, `limits`) of a resource requirements object.
    fn quantities(&mut self, requirements: &Value, path: &str, field: &str) -> ResourceList {
        match requirements.get(field) {
            Some(map) => self.quantity_map(map, &join(path, field)),
            None => ResourceList::new(),
        }
    }

    /// A resource name → quantity map. A bad or negative quantity is reported and counts as
    /// a declared zero (Kubernetes would reject the pod; a limit does not stand in for it);
    /// the request is then incomplete, since what was meant cannot be known.
    fn quantity_map(&mut self, map: &Value, path: &str) -> ResourceList {
        let Some(map) = as_object(map, path, "a map of resource quantities", self) else {
            return ResourceList::new();
        };
        let mut list = ResourceList::new();
        for (name, value) in map {
            let amount = match Quantity::from_json(value) {
                Ok(amount) if amount.is_negative() => {
                    self.lower_bounds = LowerBounds::ALL;
                    self.diagnostics.push(
                        Diagnostic::error(
                            codes::INVALID_QUANTITY,
                            format!("{name} is negative ({amount}): Kubernetes requires amounts of at least 0"),
                        )
                        .in_object()
                        .with_path(key(path, name))
                        .with_help(format!("write a positive amount, e.g. `{name}: {}`", example(name))),
                    );
                    Quantity::ZERO
                }
                Ok(amount) => amount,
                Err(error) => {
                    self.lower_bounds = LowerBounds::ALL;
                    self.diagnostics.push(
                        Diagnostic::error(
                            codes::INVALID_QUANTITY,
                            format!("invalid quantity for {name}: {error}"),
                        )
                        .in_object()
                        .with_path(key(path, name))
                        .with_help(format!("e.g. `{name}: {}`", example(name))),
                    );
                    Quantity::ZERO
                }
            };
            list.insert(name.clone(), amount);
        }
        list
    }

    /// Notes devices requested through resource claims, which the spec cannot count.
    fn claims(&mut self, claims: Option<&Value>, path: &str) {
        let present = match claims {
            None | Some(Value::Null) => false,
            Some(Value::Array(items)) => !items.is_empty(),
            Some(_) => true,
        };
        if !present || self.claims_noted {
            return;
        }
        self.claims_noted = true;
        self.lower_bounds = self.lower_bounds.or(LowerBounds::DEVICES);
        self.diagnostics.push(
            Diagnostic::info(
                codes::RESOURCE_CLAIMS,
                "devices requested through resourceClaims cannot be counted from the spec; \
                 the totals shown leave them out",
            )
            .in_object()
            .with_path(path)
            .with_help("the devices are allocated by DRA drivers at scheduling time; see the ResourceClaims"),
        );
    }

    /// The items of an optional list; anything else is reported.
    fn list<'v>(&mut self, value: Option<&'v Value>, path: &str) -> &'v [Value] {
        match value {
            None | Some(Value::Null) => &[],
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.lower_bounds = LowerBounds::ALL;
                self.diagnostics.push(wrong_shape(path, "a list", other));
                &[]
            }
        }
    }
}

/// `value` as an object, reporting anything else (`null` is silently absent).
fn as_object<'v>(
    value: &'v Value,
    path: &str,
    what: &str,
    cx: &mut Reader,
) -> Option<&'v Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map),
        Value::Null => None,
        other => {
            cx.lower_bounds = LowerBounds::ALL;
            cx.diagnostics.push(wrong_shape(path, what, other));
            None
        }
    }
}

fn wrong_shape(path: &str, expected: &str, found: &Value) -> Diagnostic {
    let found = crate::path::type_name(found, crate::path::Words::Manifest);
    Diagnostic::error(
        codes::OBJECT_WRONG_SHAPE,
        format!("expected {expected}, found {found}; its resources are not counted"),
    )
    .in_object()
    .with_path(path)
}

/// Extended resources in Kubernetes' sense: a domain-prefixed name outside
/// `kubernetes.io/` (and not a quota `requests.` name). They must be whole numbers and have
/// a request equal to the limit.
fn is_extended(name: &str) -> bool {
    name.contains('/') && !name.contains("kubernetes.io/") && !name.starts_with("requests.")
}

/// A plausible amount to show in help for `name`.
fn example(name: &str) -> &'static str {
    match name {
        "cpu" => "500m",
        "memory" | "ephemeral-storage" => "1Gi",
        name if name.starts_with("hugepages-") => "2Mi",
        _ => "1",
    }
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_owned()
    } else {
        format!("{path}.{field}")
    }
}

fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// A map key in a path: dotted when plain, bracketed and quoted when it has dots or slashes
/// (`limits["nvidia.com/gpu"]`).
fn key(path: &str, name: &str) -> String {
    if !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        join(path, name)
    } else {
        format!("{path}[{name:?}]")
    }
}

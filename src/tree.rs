//! The role tree: components → instances → child components, with replicas and resources.
//!
//! Children are built from the spec, not scoped to a parent instance (as upstream): every
//! instance of a parent lists the same child subtree. Because child paths read the whole
//! object, a child subtree describes the whole workload's pods of that role, so its
//! resources are counted once per parent component, not once per parent instance. They are
//! multiplied by the parent's replicas only when the parent is a logical group (no kind, no
//! pod spec, a scale): then each replica is one group of the children.

use crate::compile::{ComponentPlan, SpecPlan};
use crate::diagnostic::{codes, Diagnostic};
use crate::instances::{extract, Count, Evaluator, ExtractedInstance, PodData, Scale};
use crate::provenance::Locations;
use crate::resources::{self, PodRequest, ResourceList, MAX_EXACT};
use crate::view::{
    Component, DefinitionSource, Instance, InstanceSource, LowerBounds, Replicas, Resources,
};

/// An exact amount and which of its amounts are lower bounds (part of them cannot be known).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Total {
    list: ResourceList,
    /// The amounts that are lower bounds.
    bounds: LowerBounds,
    /// An amount beyond what the view shows exactly was already reported inside.
    overflow_reported: bool,
}

impl Total {
    /// Nothing known: the lower bound is zero.
    fn unknown() -> Total {
        Total {
            bounds: LowerBounds::ALL,
            ..Total::default()
        }
    }

    fn add(&self, other: &Total) -> Total {
        let mut list = self.list.clone();
        list.add(&other.list);
        Total {
            list,
            bounds: self.bounds.or(other.bounds),
            overflow_reported: self.overflow_reported || other.overflow_reported,
        }
    }

    /// `n` times the amount; an unknown count makes every non-zero amount unknown (the count
    /// may be 0, so the lower bound is 0).
    fn scale(&self, n: Option<u64>) -> Total {
        match n {
            Some(n) => Total {
                list: self.list.scale(n),
                bounds: self.bounds,
                overflow_reported: self.overflow_reported,
            },
            // Nothing times any count is still nothing: only what a pod asks for is unknown.
            None => Total {
                list: ResourceList::new(),
                bounds: self.bounds.or(self.list.to_view().nonzero()),
                overflow_reported: self.overflow_reported,
            },
        }
    }

    /// The view's amounts. An amount beyond [`MAX_EXACT`] is reported once, where it first
    /// appears (`path`; `what` says which amount), and shown as that bound, marked incomplete.
    fn shown(&mut self, path: &str, what: &str, ev: &mut Evaluator<'_>) -> Resources {
        let mut view = self.list.to_view();
        view.mark(self.bounds);
        if !self.overflow_reported {
            let overflows = self.list.overflows();
            if !overflows.is_empty() {
                let amounts: Vec<String> = overflows
                    .iter()
                    .map(|o| match &o.amount {
                        Some(exact) => format!("{} = {exact}", o.field),
                        None => format!("{} beyond 1e29", o.field),
                    })
                    .collect();
                ev.diagnostics.push(
                    Diagnostic::warning(
                        codes::RESOURCES_OVERFLOW,
                        format!(
                            "{path}: {what} {} exceeds what a JavaScript number holds exactly \
                             (2^53 - 1); the view shows at least {MAX_EXACT}",
                            amounts.join(", ")
                        ),
                    )
                    .in_object()
                    .with_path(path)
                    .with_help("check the quantities and replica counts for a typo"),
                );
                self.overflow_reported = true;
            }
        }
        view
    }
}

/// Builds component `index` and its subtree; returns the view and its exact total.
pub(crate) fn build(
    plans: &[ComponentPlan],
    index: usize,
    path: &str,
    ev: &mut Evaluator<'_>,
    depth: usize,
    located: &Locations,
) -> Option<(Component, Total)> {
    let plan = plans.get(index)?;
    let path = if path.is_empty() {
        plan.name.clone()
    } else {
        format!("{path}/{}", plan.name)
    };
    // `None`: the instances could not be read (reported), so the component's own pods are
    // unknown.
    let extracted = extract(plan, ev);

    // Children once; every instance shows the same subtree.
    let mut children = Vec::new();
    let mut children_total = Total::default();
    if depth < plans.len() {
        for &child in &plan.children {
            if let Some((component, total)) = build(plans, child, &path, ev, depth + 1, located) {
                children_total = children_total.add(&total);
                children.push(component);
            }
        }
    }

    // A logical group (no kind, no pod spec of its own) with N replicas stands for N
    // identical groups: its children's counts are per group (LeaderWorkerSet: one leader and
    // size-1 workers per group), so the subtree total is N times theirs, as upstream's gang
    // scheduling computes a subtree's scale (own × children). Groups whose count is unknown
    // leave the product a lower bound.
    if plan.kind.is_none() && matches!(plan.spec, SpecPlan::None) && plan.scale.is_some() {
        let groups = match &extracted {
            Some(instances) => instances
                .iter()
                .map(|i| Scale::desired(i.scale.as_ref()))
                .collect::<Vec<_>>(),
            None => vec![None],
        };
        let known: u64 = groups.iter().flatten().fold(0, |a, n| a.saturating_add(*n));
        let mut scaled = children_total.scale(Some(known));
        if groups.iter().any(Option::is_none) {
            scaled.bounds = LowerBounds::ALL;
        }
        children_total = scaled;
    }

    let mut instances = Vec::new();
    let mut own_total = Total::default();
    let mut replicas = Replicas::default();
    let mut pod_requests: Vec<Option<Total>> = Vec::new();
    match &extracted {
        None => {
            own_total = Total::unknown();
            replicas.incomplete = true;
        }
        Some(extracted) => {
            let single = extracted.len() == 1;
            let mut pointers = located.instance_pointers(&plan.locate, extracted.len());
            if index == 0 && single && extracted.first().is_some_and(|i| i.id.is_none()) {
                // The root's single instance is the object itself.
                pointers = vec![Some(String::new())];
            }
            for ((i, inst), pointer) in extracted.iter().enumerate().zip(pointers) {
                let label = match &inst.id {
                    Some(id) => format!("{path}[{id}]"),
                    None => path.clone(),
                };
                let mut per_pod = inst.pod.as_ref().map(|pod| pod_request(pod, &label, ev));
                let pod_resources = per_pod.as_mut().map(|p| p.shown(&label, "per pod", ev));
                let desired = Scale::desired(inst.scale.as_ref());
                let mut own = per_pod
                    .as_ref()
                    .map(|p| p.scale(desired))
                    .unwrap_or_default();
                add_replicas(&mut replicas, inst, desired, i == 0);
                let mut instance_total = if single {
                    own.add(&children_total)
                } else {
                    own.clone()
                };
                instances.push(Instance {
                    id: inst.id.clone(),
                    replicas: instance_replicas(inst, desired),
                    pod_resources,
                    resources: instance_total.shown(&label, "total", ev),
                    children: children.clone(),
                    pods: None,
                    source: InstanceSource {
                        pointer,
                        object: None,
                    },
                });
                // What was reported for the instance is not reported again for the component.
                own.overflow_reported |= instance_total.overflow_reported;
                own_total = own_total.add(&own);
                pod_requests.push(per_pod);
            }
        }
    }
    let mut total = own_total.add(&children_total);
    let pod_resources = uniform(&pod_requests);
    let component = Component {
        name: plan.name.clone(),
        kind: plan.kind.clone(),
        has_pod_spec: !matches!(plan.spec, SpecPlan::None),
        replicas,
        pod_resources,
        resources: total.shown(&path, "total", ev),
        instances,
        pods: None,
        source: DefinitionSource {
            definition: plan.range,
        },
    };
    Some((component, total))
}

fn pod_request(pod: &PodData, label: &str, ev: &mut Evaluator<'_>) -> Total {
    let PodRequest {
        resources,
        lower_bounds,
        diagnostics,
    } = match pod {
        PodData::Template(t) => resources::pod_template_request(t, ""),
        PodData::PodSpec(s) => resources::pod_spec_request(s, ""),
        PodData::Fragmented(f) => resources::fragmented_request(f, ""),
        PodData::Unreadable => return Total::unknown(),
    };
    for mut d in diagnostics {
        d.path = if d.path.is_empty() {
            label.to_owned()
        } else {
            format!("{label}: {}", d.path)
        };
        ev.diagnostics.push(d);
    }
    Total {
        list: resources,
        bounds: lower_bounds,
        overflow_reported: false,
    }
}

fn instance_replicas(inst: &ExtractedInstance, desired: Option<u64>) -> Replicas {
    let s = inst.scale.unwrap_or_default();
    Replicas {
        desired: desired.unwrap_or(0),
        replicas: s.replicas.known(),
        min: s.min.known(),
        max: s.max.known(),
        incomplete: desired.is_none(),
    }
}

/// A component's replicas are summed over its instances (desired, and each read value when
/// every instance has one); an instance whose desired count is unknown makes the sum a
/// lower bound.
fn add_replicas(total: &mut Replicas, inst: &ExtractedInstance, desired: Option<u64>, first: bool) {
    total.desired = total.desired.saturating_add(desired.unwrap_or(0));
    total.incomplete |= desired.is_none();
    let s = inst.scale.unwrap_or_default();
    let sum = |acc: Option<i64>, v: Count| -> Option<i64> {
        if first {
            v.known()
        } else {
            Some(acc?.saturating_add(v.known()?))
        }
    };
    total.replicas = sum(total.replicas, s.replicas);
    total.min = sum(total.min, s.min);
    total.max = sum(total.max, s.max);
}

/// The per-pod request shared by every instance, when there is exactly one such value.
fn uniform(requests: &[Option<Total>]) -> Option<Resources> {
    let first = requests.first()?.as_ref()?;
    requests
        .iter()
        .all(|r| r.as_ref().map(same_request) == Some(same_request(first)))
        .then(|| {
            let mut view = first.list.to_view();
            view.mark(first.bounds);
            view
        })
}

/// What makes two per-pod requests the same (not whether an overflow was reported).
fn same_request(total: &Total) -> (&ResourceList, LowerBounds) {
    (&total.list, total.bounds)
}

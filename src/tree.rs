//! The role tree: components → instances → child components, with replicas and resources.
//!
//! Children are built from the spec, not scoped to a parent instance (as upstream): every
//! instance of a parent lists the same child subtree. Because child paths read the whole
//! object, a child subtree describes the whole workload's pods of that role, so its
//! resources are counted once per parent component, not once per parent instance. They are
//! multiplied by the parent's replicas only when the parent is a logical group (no kind, no
//! pod spec, a scale): then each replica is one group of the children.

use crate::compile::{ComponentPlan, SpecPlan};
use crate::instances::{extract, Evaluator, ExtractedInstance, PodData, Scale};
use crate::resources::{self, PodRequest, ResourceList};
use crate::view::{Component, Instance, Replicas, Resources};

/// An exact amount and whether part of it cannot be known (resourceClaims).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Total {
    list: ResourceList,
    incomplete: bool,
}

impl Total {
    fn add(&self, other: &Total) -> Total {
        let mut list = self.list.clone();
        list.add(&other.list);
        Total {
            list,
            incomplete: self.incomplete || other.incomplete,
        }
    }

    fn scale(&self, n: u64) -> Total {
        Total {
            list: self.list.scale(n),
            incomplete: self.incomplete,
        }
    }

    fn to_view(&self) -> Resources {
        let mut view = self.list.to_view();
        view.incomplete = self.incomplete;
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
) -> Option<(Component, Total)> {
    let plan = plans.get(index)?;
    let path = if path.is_empty() {
        plan.name.clone()
    } else {
        format!("{path}/{}", plan.name)
    };
    let extracted = extract(plan, ev);

    // Children once; every instance shows the same subtree.
    let mut children = Vec::new();
    let mut children_total = Total::default();
    if depth < plans.len() {
        for &child in &plan.children {
            if let Some((component, total)) = build(plans, child, &path, ev, depth + 1) {
                children_total = children_total.add(&total);
                children.push(component);
            }
        }
    }

    // A logical group (no kind, no pod spec of its own) with N replicas stands for N
    // identical groups: its children's counts are per group (LeaderWorkerSet: one leader and
    // size-1 workers per group), so the subtree total is N times theirs, as upstream's gang
    // scheduling computes a subtree's scale (own × children).
    if plan.kind.is_none() && matches!(plan.spec, SpecPlan::None) && plan.scale.is_some() {
        let groups: u64 = extracted
            .iter()
            .map(|i| Scale::desired(i.scale.as_ref()))
            .sum();
        children_total = children_total.scale(groups);
    }

    let mut instances = Vec::with_capacity(extracted.len());
    let mut own_total = Total::default();
    let mut replicas = Replicas::default();
    let mut pod_requests: Vec<Option<Total>> = Vec::new();
    let single = extracted.len() == 1;
    for (i, inst) in extracted.iter().enumerate() {
        let label = match &inst.id {
            Some(id) => format!("{path}[{id}]"),
            None => path.clone(),
        };
        let per_pod = inst.pod.as_ref().map(|pod| pod_request(pod, &label, ev));
        let desired = Scale::desired(inst.scale.as_ref());
        let own = per_pod
            .as_ref()
            .map(|p| p.scale(desired))
            .unwrap_or_default();
        own_total = own_total.add(&own);
        add_replicas(&mut replicas, inst, desired, i == 0);
        let instance_total = if single {
            own.add(&children_total)
        } else {
            own
        };
        instances.push(Instance {
            id: inst.id.clone(),
            replicas: instance_replicas(inst, desired),
            pod_resources: per_pod.as_ref().map(Total::to_view),
            resources: instance_total.to_view(),
            children: children.clone(),
            pods: None,
        });
        pod_requests.push(per_pod);
    }
    let total = own_total.add(&children_total);
    let pod_resources = uniform(&pod_requests);
    let component = Component {
        name: plan.name.clone(),
        kind: plan.kind.clone(),
        has_pod_spec: !matches!(plan.spec, SpecPlan::None),
        replicas,
        pod_resources,
        resources: total.to_view(),
        instances,
        pods: None,
    };
    Some((component, total))
}

fn pod_request(pod: &PodData, label: &str, ev: &mut Evaluator<'_>) -> Total {
    let PodRequest {
        resources,
        incomplete,
        diagnostics,
    } = match pod {
        PodData::Template(t) => resources::pod_template_request(t, ""),
        PodData::PodSpec(s) => resources::pod_spec_request(s, ""),
        PodData::Fragmented(f) => resources::fragmented_request(f, ""),
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
        incomplete,
    }
}

fn instance_replicas(inst: &ExtractedInstance, desired: u64) -> Replicas {
    let s = inst.scale.unwrap_or_default();
    Replicas {
        desired,
        replicas: s.replicas,
        min: s.min,
        max: s.max,
    }
}

/// A component's replicas are summed over its instances (desired, and each read value when
/// every instance has one).
fn add_replicas(total: &mut Replicas, inst: &ExtractedInstance, desired: u64, first: bool) {
    total.desired = total.desired.saturating_add(desired);
    let s = inst.scale.unwrap_or_default();
    let sum = |acc: Option<i64>, v: Option<i64>| -> Option<i64> {
        if first {
            v
        } else {
            Some(acc?.saturating_add(v?))
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
        .all(|r| r.as_ref() == Some(first))
        .then(|| first.to_view())
}

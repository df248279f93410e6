//! The role tree: components → instances → child components, with replicas and resources.
//!
//! Children are built from the spec, not scoped to a parent instance (as upstream): every
//! instance of a parent lists the same child subtree. Because child paths read the whole
//! object, a child subtree describes the whole workload's pods of that role, so its
//! resources are counted once per parent component, not once per parent instance. They are
//! multiplied by the parent's replicas only when the parent is a logical group (no kind, no
//! pod spec, a scale): then each replica is one group of the children.

use crate::diagnostic::{codes, Diagnostic};
use crate::instances::{extract, Count, Evaluator, ExtractedInstance, PodData, Scale};
use crate::plan::{ComponentPlan, SpecPlan};
use crate::provenance::Locations;
use crate::resources::{self, PodRequest, ResourceList, MAX_EXACT};
use crate::view::{
    Component, DefinitionSource, Instance, InstanceSource, LowerBounds, PodCount, ReplicaUnit,
    Replicas, ResourceRow, Resources,
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

    /// The view's amounts, without reporting an overflow (rows: what they hold is reported
    /// where the tree shows it).
    fn quiet(&self) -> Resources {
        let mut view = self.list.to_view();
        view.mark(self.bounds);
        view
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

/// A row of the resources table while the tree is built: its amounts stay exact until the
/// root (a logical group above multiplies them).
#[derive(Debug, Clone)]
pub(crate) struct Row {
    component: String,
    instance: Option<String>,
    name: String,
    pods: Pods,
    per_pod: Total,
    total: Total,
}

/// A count of pods: what is known, and whether it is a lower bound.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Pods {
    desired: u64,
    incomplete: bool,
}

impl Pods {
    fn of(desired: Option<u64>) -> Pods {
        Pods {
            desired: desired.unwrap_or(0),
            incomplete: desired.is_none(),
        }
    }

    fn plus(self, other: Pods) -> Pods {
        Pods {
            desired: self.desired.saturating_add(other.desired),
            incomplete: self.incomplete || other.incomplete,
        }
    }

    /// `groups` copies: the known sum of the group counts, a lower bound when one is unknown.
    fn times(self, groups: u64, unknown: bool) -> Pods {
        Pods {
            desired: self.desired.saturating_mul(groups),
            incomplete: self.incomplete || unknown,
        }
    }

    fn view(self) -> PodCount {
        PodCount::new(self.desired, self.incomplete)
    }
}

impl Row {
    /// The view's row.
    fn view(&self) -> ResourceRow {
        ResourceRow {
            component: self.component.clone(),
            instance: self.instance.clone(),
            name: self.name.clone(),
            pods: self.pods.view(),
            per_pod: self.per_pod.quiet(),
            total: self.total.quiet(),
            nodes: None,
        }
    }
}

/// What [`build`] gives for one component: its view, its exact total, the resources table's
/// rows of its subtree (over the whole workload below it) and the pods its subtree asks for.
pub(crate) struct Built {
    pub component: Component,
    pub total: Total,
    rows: Vec<Row>,
}

impl Built {
    /// The resources table's rows, for the view.
    pub(crate) fn rows(&self) -> Vec<ResourceRow> {
        self.rows.iter().map(Row::view).collect()
    }
}

/// Builds component `index` and its subtree; returns the view, its exact total and its rows.
pub(crate) fn build(
    plans: &[ComponentPlan],
    index: usize,
    path: &str,
    ev: &mut Evaluator<'_>,
    depth: usize,
    located: &Locations,
) -> Option<Built> {
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
    let mut children_rows: Vec<Row> = Vec::new();
    let mut children_pods = Pods::default();
    if depth < plans.len() {
        for &child in &plan.children {
            if let Some(built) = build(plans, child, &path, ev, depth + 1, located) {
                children_total = children_total.add(&built.total);
                children_pods = children_pods.plus(built.component_pods());
                children_rows.extend(built.rows);
                children.push(built.component);
            }
        }
    }

    // A logical group (no kind, no pod spec of its own) with N replicas stands for N
    // identical groups: its children's counts are per group (LeaderWorkerSet: one leader and
    // size-1 workers per group), so the subtree total is N times theirs, as upstream's gang
    // scheduling computes a subtree's scale (own × children). Groups whose count is unknown
    // leave the product a lower bound.
    let logical_group =
        plan.kind.is_none() && matches!(plan.spec, SpecPlan::None) && plan.scale.is_some();
    if logical_group {
        let groups = match &extracted {
            Some(instances) => instances
                .iter()
                .map(|i| Scale::desired(i.scale.as_ref()))
                .collect::<Vec<_>>(),
            None => vec![None],
        };
        let known: u64 = groups.iter().flatten().fold(0, |a, n| a.saturating_add(*n));
        let unknown = groups.iter().any(Option::is_none);
        let mut scaled = children_total.scale(Some(known));
        if unknown {
            scaled.bounds = LowerBounds::ALL;
        }
        children_total = scaled;
        children_pods = children_pods.times(known, unknown);
        for row in &mut children_rows {
            row.pods = row.pods.times(known, unknown);
            row.total = row.total.scale(Some(known));
            if unknown {
                row.total.bounds = LowerBounds::ALL;
            }
        }
    }
    let unit = if !matches!(plan.spec, SpecPlan::None) {
        Some(ReplicaUnit::Pods)
    } else if logical_group {
        Some(ReplicaUnit::Groups)
    } else {
        None
    };
    let mut rows: Vec<Row> = Vec::new();
    let mut own_pods = Pods::default();

    let mut instances = Vec::new();
    let mut own_total = Total::default();
    let mut replicas = Replicas::default();
    let mut pod_requests: Vec<Option<Total>> = Vec::new();
    match &extracted {
        None => {
            own_total = Total::unknown();
            replicas.incomplete = true;
            // Nothing about its pods is known: one row says so.
            own_pods = Pods::of(None);
            rows.push(Row {
                component: path.clone(),
                instance: None,
                name: plan.name.clone(),
                pods: own_pods,
                per_pod: Total::unknown(),
                total: Total::unknown(),
            });
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
                // A count's problem is shown at the value in the object (or at the instance
                // when its path locates nothing), not at the definition's path that read it.
                for (which, problem) in &inst.count_problems {
                    let mut problem = problem.clone();
                    if let Some(at) = located
                        .count_pointer(&plan.locate, *which, i)
                        .or_else(|| pointer.clone())
                    {
                        let read_by = std::mem::take(&mut problem.path);
                        problem.range = None;
                        problem = problem
                            .at_object_pointer(at)
                            .with_help(format!("the definition reads it at {read_by}"));
                    }
                    ev.diagnostics.push(problem);
                }
                let pod_at = located.part_pointer(&plan.locate, i);
                let mut per_pod = inst
                    .pod
                    .as_ref()
                    .map(|pod| pod_request(pod, &label, pod_at.as_deref(), ev));
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
                let mut instance_pods = Pods::default();
                if let Some(per_pod) = &per_pod {
                    instance_pods = Pods::of(desired);
                    own_pods = own_pods.plus(instance_pods);
                    rows.push(Row {
                        component: path.clone(),
                        instance: inst.id.clone(),
                        name: match &inst.id {
                            Some(id) => format!("{}[{id}]", plan.name),
                            None => plan.name.clone(),
                        },
                        pods: instance_pods,
                        per_pod: per_pod.clone(),
                        total: own.clone(),
                    });
                }
                if single {
                    instance_pods = instance_pods.plus(children_pods);
                }
                let mut instance_replicas = instance_replicas(inst, desired);
                instance_replicas.unit = unit;
                instances.push(Instance {
                    id: inst.id.clone(),
                    replicas: instance_replicas.with_text(),
                    pod_resources,
                    resources: instance_total.shown(&label, "total", ev),
                    pod_count: instance_pods.view(),
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
    replicas.unit = unit;
    let component_pods = own_pods.plus(children_pods);
    let component = Component {
        name: plan.name.clone(),
        kind: plan.kind.clone(),
        has_pod_spec: !matches!(plan.spec, SpecPlan::None),
        replicas: replicas.with_text(),
        pod_resources,
        resources: total.shown(&path, "total", ev),
        pod_count: component_pods.view(),
        instances,
        pods: None,
        source: DefinitionSource {
            definition: plan.range,
        },
    };
    rows.extend(children_rows);
    Some(Built {
        component,
        total,
        rows,
    })
}

impl Built {
    /// The pods the component's subtree asks for.
    fn component_pods(&self) -> Pods {
        Pods {
            desired: self.component.pod_count.desired,
            incomplete: self.component.pod_count.incomplete,
        }
    }
}

/// The pod's request; its problems are said at `label` and, when `at` (the JSON Pointer of
/// the pod template or spec in the object) is known, located at the value in the object.
fn pod_request(pod: &PodData, label: &str, at: Option<&str>, ev: &mut Evaluator<'_>) -> Total {
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
        if let (Some(at), PodData::Template(_) | PodData::PodSpec(_)) = (at, pod) {
            let pointer =
                crate::path::pointer_below(at, &d.path).unwrap_or_else(|| at.to_owned());
            d.pointer = Some(pointer.into_boxed_str());
        }
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
        unit: None,
        text: String::new(),
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

/// Pods placed at one place of the tree: component path, instance id, placed, ready, nodes.
type Placed = (String, Option<String>, u64, u64, Vec<String>);

/// With pods placed in the tree: the placed and ready pods of every component, instance and
/// row (a row sums its component's instance over every place the tree shows it: under each
/// instance of a parent, that instance's pods), and the nodes each row's pods run on.
pub(crate) fn count_placed(root: &mut Component, table: &mut crate::view::ResourceTable) {
    let mut placed: Vec<Placed> = Vec::new();
    collect_placed(root, "", &mut placed);
    // Summed once per (component, instance): a row then finds its own in one look-up.
    let mut sums: Vec<(u64, u64, Vec<String>)> = Vec::new();
    let mut at: std::collections::HashMap<(&str, Option<&str>), usize> =
        std::collections::HashMap::new();
    for (component, instance, current, ready, nodes) in &placed {
        let slot = *at
            .entry((component.as_str(), instance.as_deref()))
            .or_insert_with(|| {
                sums.push((0, 0, Vec::new()));
                sums.len() - 1
            });
        let sum = &mut sums[slot];
        sum.0 += current;
        sum.1 += ready;
        sum.2.extend(nodes.iter().cloned());
    }
    let mut all = PodCount::new(0, false);
    for row in &mut table.rows {
        let (current, ready, mut nodes) = at
            .get(&(row.component.as_str(), row.instance.as_deref()))
            .map(|&slot| std::mem::take(&mut sums[slot]))
            .unwrap_or_default();
        nodes.sort();
        nodes.dedup();
        row.pods.current = Some(current);
        row.pods.ready = Some(ready);
        row.nodes = Some(nodes);
        all = all.plus(&row.pods);
    }
    table.pods.current = all.current.or(Some(0));
    table.pods.ready = all.ready.or(Some(0));
}

fn collect_placed(component: &mut Component, parent: &str, placed: &mut Vec<Placed>) {
    let path = if parent.is_empty() {
        component.name.clone()
    } else {
        format!("{parent}/{}", component.name)
    };
    if let Some(pods) = &component.pods {
        component.pod_count.current = Some(pods.current);
        component.pod_count.ready = Some(pods.ready);
    }
    let single = component.instances.len() == 1 && component.instances[0].id.is_none();
    if single && component.has_pod_spec {
        if let Some(pods) = &component.pods {
            placed.push((path.clone(), None, pods.current, pods.ready, nodes_of(pods)));
        }
    }
    for instance in &mut component.instances {
        if let Some(pods) = &instance.pods {
            instance.pod_count.current = Some(pods.current);
            instance.pod_count.ready = Some(pods.ready);
            if !single && component.has_pod_spec {
                placed.push((
                    path.clone(),
                    instance.id.clone(),
                    pods.current,
                    pods.ready,
                    nodes_of(pods),
                ));
            }
        }
        for child in &mut instance.children {
            collect_placed(child, &path, placed);
        }
    }
}

fn nodes_of(pods: &crate::view::Pods) -> Vec<String> {
    pods.items.iter().filter_map(|p| p.node.clone()).collect()
}

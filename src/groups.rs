//! Gang-scheduling groups (upstream-semantics §3.8): the pod groups KAI's Karta grouper forms
//! from a definition's `gangScheduling`, with their minimum sizes.
//!
//! With pods, every attributed pod is grouped as KAI groups it: its component (the only one
//! with a pod spec, else the first whose type selector matches), its effective member (the
//! first `podGroups` member naming the component or an ancestor, direct mentions first, whose
//! filters pass), its group keys, and the group name `pg-<root uid>[-<key>...]`. Without pods
//! there is one group per `podGroups` entry. `podGroup` (the current form) gives one group
//! with its sub-groups and topology, and when present KAI ignores `podGroups`.
//!
//! Minimum sizes use upstream's `CalculateSubtreeScale`, with one deliberate difference (see
//! ARCHITECTURE.md): a group's minimum is the sum over the distinct (member, instance,
//! replica) its pods come from, plus the whole subtree of each member of the same `podGroups`
//! entry that has no pod yet, and it is narrowed to one instance or one replica only when
//! the group keys carry that instance id or replica key. Upstream takes one pod's value.

use crate::diagnostic::codes;
use crate::plan::{CompiledExpr, ComponentPlan, GangPlan, SpecPlan};
use crate::pods::{Pod, PodEval};
use crate::view::{Component, Group, SubGroupView};

/// The subtree scales of a resolved tree.
struct Scales<'v> {
    plans: &'v [ComponentPlan],
    /// The first view of each component (by plan index); every instance of a parent shows the
    /// same child subtree, so the first one has the scales.
    views: Vec<Option<&'v Component>>,
    any_scale: bool,
}

impl<'v> Scales<'v> {
    fn new(plans: &'v [ComponentPlan], root: Option<&'v Component>) -> Self {
        let mut views = vec![None; plans.len()];
        fn walk<'v>(
            c: &'v Component,
            plans: &[ComponentPlan],
            views: &mut [Option<&'v Component>],
        ) {
            if let Some(i) = plans.iter().position(|p| p.name == c.name) {
                if views[i].is_none() {
                    views[i] = Some(c);
                }
            }
            if let Some(first) = c.instances.first() {
                for child in &first.children {
                    walk(child, plans, views);
                }
            }
        }
        if let Some(root) = root {
            walk(root, plans, &mut views);
        }
        Scales {
            plans,
            views,
            any_scale: plans.iter().any(|p| p.scale.is_some()),
        }
    }

    /// `CalculateSubtreeScale(component, instance)`; `one_replica` counts one replica of the
    /// component itself (a group per replica).
    fn subtree(&self, index: usize, instance: Option<&str>, one_replica: bool) -> Minimum {
        if self.any_scale {
            self.by_definition(index, instance, one_replica, 0)
        } else {
            self.leaves(index, instance, 0)
        }
    }

    fn by_definition(
        &self,
        index: usize,
        instance: Option<&str>,
        one: bool,
        depth: usize,
    ) -> Minimum {
        let Some(view) = self.views.get(index).copied().flatten() else {
            return Minimum::default();
        };
        let effective_min = |r: &crate::view::Replicas| -> Minimum {
            let positive = |v: Option<i64>| v.filter(|v| *v > 0).map(|v| v as u64);
            Minimum {
                pods: positive(r.min).or(positive(r.replicas)).unwrap_or(0),
                // A count that could not be read (not a number, negative, its path failed)
                // is unknown, not 0: what it decides is a lower bound.
                incomplete: r.incomplete,
            }
        };
        let own = if one {
            Minimum {
                pods: 1,
                incomplete: false,
            }
        } else {
            let chosen: Vec<_> = match instance {
                Some(id) if view.instances.len() > 1 => view
                    .instances
                    .iter()
                    .filter(|i| i.id.as_deref() == Some(id))
                    .collect(),
                _ => view.instances.iter().collect(),
            };
            let mut own = chosen
                .iter()
                .map(|i| effective_min(&i.replicas))
                .fold(Minimum::default(), Minimum::plus);
            // Instances that could not be read (the component's own count is a lower bound
            // then) are not among them.
            own.incomplete |= view.replicas.incomplete && instance.is_none();
            own
        };
        let children = &self.plans[index].children;
        if children.is_empty() || depth > self.plans.len() {
            return own;
        }
        let sum = children
            .iter()
            .map(|&c| self.by_definition(c, None, false, depth + 1))
            .fold(Minimum::default(), Minimum::plus);
        let pods = match (own.pods, sum.pods) {
            (_, 0) => own.pods,
            (0, _) => sum.pods,
            _ => own.pods.saturating_mul(sum.pods),
        };
        Minimum {
            pods,
            incomplete: own.incomplete || sum.incomplete,
        }
    }

    fn leaves(&self, index: usize, instance: Option<&str>, depth: usize) -> Minimum {
        let plan = &self.plans[index];
        let mut count = Minimum::default();
        if !matches!(plan.spec, SpecPlan::None) {
            let view = self.views.get(index).copied().flatten();
            count.pods += match &plan.instance_ids {
                None => 1,
                Some(_) => {
                    let ids: Vec<_> = view
                        .map(|v| v.instances.iter().filter_map(|i| i.id.as_deref()).collect())
                        .unwrap_or_default();
                    match instance {
                        Some(id) if depth == 0 && ids.contains(&id) => 1,
                        // Instances that could not be read are not among the ids.
                        _ => {
                            count.incomplete |= view.is_some_and(|v| v.replicas.incomplete);
                            ids.len() as u64
                        }
                    }
                }
            };
        }
        if depth <= self.plans.len() {
            for &c in &plan.children {
                count = count.plus(self.leaves(c, None, depth + 1));
            }
        }
        count
    }
}

/// A group's minimum: pods, and whether that is a lower bound (a count it depends on could
/// not be read), as [`crate::view::Replicas::incomplete`] is for `desired`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Minimum {
    pods: u64,
    incomplete: bool,
}

impl Minimum {
    fn plus(self, other: Minimum) -> Minimum {
        Minimum {
            pods: self.pods.saturating_add(other.pods),
            incomplete: self.incomplete || other.incomplete,
        }
    }
}

/// The gang-scheduling groups of a resolved workload; `pods` are the attributed pods (`None`
/// when no pods were given).
pub(crate) fn evaluate(
    plans: &[ComponentPlan],
    gang: &GangPlan,
    root: Option<&Component>,
    root_uid: &str,
    pods: Option<&[Pod]>,
    ev: &mut PodEval<'_>,
) -> Vec<Group> {
    let mut groups = evaluate_unchecked(plans, gang, root, root_uid, pods, ev);
    for group in &mut groups {
        exact_minimum(&group.name, &mut group.min_available, ev);
        for sub in group.sub_groups.iter_mut().flatten() {
            exact_minimum(&sub.name, &mut sub.min_available, ev);
        }
    }
    groups
}

// The largest whole number a JavaScript number holds exactly (2^53 - 1).
use crate::quantity::MAX_EXACT;

/// A minimum no JavaScript number holds exactly is shown as 2^53 - 1 with a warning, never as
/// a rounded number that looks exact (no scheduler could place that many pods anyway).
fn exact_minimum(name: &str, min: &mut u64, ev: &mut PodEval<'_>) {
    if *min > MAX_EXACT {
        ev.warn(
            codes::GANG_TOO_LARGE,
            format!(
                "the minimum of gang group {name} is {min}, more than a JavaScript number holds exactly; shown as {MAX_EXACT}"
            ),
            None,
        );
        *min = MAX_EXACT;
    }
}

fn evaluate_unchecked(
    plans: &[ComponentPlan],
    gang: &GangPlan,
    root: Option<&Component>,
    root_uid: &str,
    pods: Option<&[Pod]>,
    ev: &mut PodEval<'_>,
) -> Vec<Group> {
    let scales = Scales::new(plans, root);
    if let Some(pg) = &gang.pod_group {
        return vec![pod_group(plans, pg, &scales, root_uid, pods, ev)];
    }
    if gang.pod_groups.is_empty() {
        return Vec::new();
    }
    if let Some(pods) = pods.filter(|p| !p.is_empty()) {
        let groups = alpha_with_pods(plans, gang, &scales, root, root_uid, pods, ev);
        if !groups.is_empty() {
            return groups;
        }
    }
    // Without pods (or when none was grouped): one group per podGroups entry, its minimum the
    // scale of every member's whole subtree.
    gang.pod_groups
        .iter()
        .map(|g| {
            let mut members: Vec<usize> = g.members.iter().filter_map(|m| m.component).collect();
            members.dedup();
            let min = members
                .iter()
                .map(|&m| scales.subtree(m, None, false))
                .fold(Minimum::default(), Minimum::plus);
            Group {
                name: g.name.clone(),
                min_available: min.pods,
                incomplete: min.incomplete,
                min_available_text: String::new(),
                members: g.members.iter().map(|m| m.component_name.clone()).collect(),
                sub_groups: None,
                topology: None,
                pods: pods.map(|_| Vec::new()),
            }
        })
        .collect()
}

fn pod_group(
    plans: &[ComponentPlan],
    pg: &crate::plan::PodGroupPlan,
    scales: &Scales<'_>,
    root_uid: &str,
    pods: Option<&[Pod]>,
    ev: &mut PodEval<'_>,
) -> Group {
    let mut sub_groups = Vec::new();
    for (name, index, topology) in &pg.sub_groups {
        let min = index.map_or(Minimum::default(), |i| scales.subtree(i, None, false));
        if min.pods == 0 && !min.incomplete {
            ev.report(
                codes::GANG_NO_SCALE,
                format!("component {name} must expose a replica scale definition"),
                None,
            );
        }
        sub_groups.push(SubGroupView {
            name: name.clone(),
            min_available: min.pods,
            incomplete: min.incomplete,
            min_available_text: String::new(),
            topology: topology.clone(),
        });
    }
    let (min, members) = if sub_groups.is_empty() {
        let root_name = plans.first().map(|p| p.name.clone()).unwrap_or_default();
        (scales.subtree(0, None, false), vec![root_name])
    } else {
        (
            Minimum::default(),
            sub_groups.iter().map(|s| s.name.clone()).collect(),
        )
    };
    // Pods come sorted by name.
    let names: Option<Vec<String>> = pods.map(|p| p.iter().map(|p| p.name.clone()).collect());
    Group {
        name: format!("pg-{root_uid}-{}", pg.name),
        min_available: min.pods,
        incomplete: min.incomplete,
        min_available_text: String::new(),
        members,
        sub_groups: (!sub_groups.is_empty()).then_some(sub_groups),
        topology: pg.topology.clone(),
        pods: names,
    }
}

/// What one pod contributes to its group: a member's subtree, maybe narrowed.
#[derive(PartialEq, Eq, PartialOrd, Ord, Clone)]
struct Contribution {
    component: usize,
    instance: Option<String>,
    replica: Option<String>,
}

#[derive(Default)]
struct Forming {
    contributions: Vec<Contribution>,
    members: Vec<usize>,
    /// The `podGroups` entries its pods' members come from.
    entries: Vec<usize>,
    pods: Vec<String>,
}

fn alpha_with_pods(
    plans: &[ComponentPlan],
    gang: &GangPlan,
    scales: &Scales<'_>,
    root: Option<&Component>,
    root_uid: &str,
    pods: &[Pod],
    ev: &mut PodEval<'_>,
) -> Vec<Group> {
    let mut parent = vec![None; plans.len()];
    for (i, p) in plans.iter().enumerate() {
        for &c in &p.children {
            parent[c] = Some(i);
        }
    }
    let leaves: Vec<usize> = (0..plans.len())
        .filter(|&i| !matches!(plans[i].spec, SpecPlan::None))
        .collect();
    let ids = crate::pods::instance_ids(plans, root);
    // In the order of each group's first pod (pods come sorted by name).
    let mut groups: Vec<(String, Forming)> = Vec::new();

    for pod in pods {
        // 1. The pod's component.
        let component = if leaves.len() == 1 {
            Some(leaves[0])
        } else {
            leaves.iter().copied().find(|&i| {
                plans[i]
                    .pod_selector
                    .as_ref()
                    .is_some_and(|s| ev.type_matches(s, pod, false))
            })
        };
        let Some(component) = component else {
            ev.warn(
                codes::GANG_NO_COMPONENT,
                format!("no component found for pod {}", pod.name),
                None,
            );
            continue;
        };
        // 2. The effective member: direct mentions first, then ancestors, in document order.
        let mut lineage = vec![component];
        let mut at = component;
        while let Some(p) = parent[at].filter(|p| !lineage.contains(p)) {
            lineage.push(p);
            at = p;
        }
        let members = || {
            gang.pod_groups
                .iter()
                .enumerate()
                .flat_map(|(e, g)| g.members.iter().map(move |m| (e, m)))
        };
        let direct = members().filter(|(_, m)| m.component == Some(component));
        let ancestors = members().filter(|(_, m)| {
            m.component
                .is_some_and(|c| c != component && lineage.contains(&c))
        });
        let member = direct
            .chain(ancestors)
            .find(|(_, m)| m.filters.iter().all(|f| passes(f, pod, ev)));
        let Some((entry, member)) = member else {
            let namespace = pod.namespace.as_deref().unwrap_or("");
            ev.warn(
                codes::GANG_NO_MEMBER,
                format!(
                    "pod {namespace}/{} does not match any Karta pod group member definition",
                    pod.name
                ),
                None,
            );
            continue;
        };
        let Some(effective) = member.component else {
            continue;
        };
        // 3. The pod's instance, when the effective component is its own.
        let plan = &plans[effective];
        let instance = match plan
            .pod_selector
            .as_ref()
            .and_then(|s| s.instance_id.as_ref())
        {
            Some(expr) if effective == component && !ids[effective].is_empty() => ev
                .single(expr, pod, false)
                .filter(|id| ids[effective].contains(id)),
            _ => None,
        };
        // 4. Group keys.
        let keys: Option<Vec<String>> = member
            .group_by
            .iter()
            .map(|k| ev.single(k, pod, false))
            .collect();
        let Some(keys) = keys else {
            continue;
        };
        // 5. The name, and what the pod adds to the group's minimum.
        let mut name = format!("pg-{root_uid}");
        for k in &keys {
            name.push('-');
            name.push_str(k);
        }
        let replica = plan
            .pod_selector
            .as_ref()
            .and_then(|s| s.replica_key.as_ref())
            .and_then(|expr| ev.single(expr, pod, false));
        let contribution = Contribution {
            component: effective,
            instance: instance.filter(|i| keys.contains(i)),
            replica: replica.filter(|r| keys.contains(r)),
        };
        let at = match groups.iter().position(|(n, _)| *n == name) {
            Some(at) => at,
            None => {
                groups.push((name, Forming::default()));
                groups.len() - 1
            }
        };
        let forming = &mut groups[at].1;
        if !forming.contributions.contains(&contribution) {
            forming.contributions.push(contribution);
        }
        if !forming.members.contains(&effective) {
            forming.members.push(effective);
        }
        if !forming.entries.contains(&entry) {
            forming.entries.push(entry);
        }
        forming.pods.push(pod.name.clone());
    }

    groups
        .into_iter()
        .map(|(name, mut f)| {
            // Members of the same podGroups entry without a pod yet belong to the gang too,
            // with their whole subtree (their pods are still to come).
            for &e in &f.entries {
                for m in gang.pod_groups[e]
                    .members
                    .iter()
                    .filter_map(|m| m.component)
                {
                    if !f.members.contains(&m) {
                        f.members.push(m);
                        f.contributions.push(Contribution {
                            component: m,
                            instance: None,
                            replica: None,
                        });
                    }
                }
            }
            f.members.sort_unstable();
            let min = f
                .contributions
                .iter()
                .map(|c| scales.subtree(c.component, c.instance.as_deref(), c.replica.is_some()))
                .fold(Minimum::default(), Minimum::plus);
            Group {
                name,
                min_available: min.pods,
                incomplete: min.incomplete,
                min_available_text: String::new(),
                members: f.members.iter().map(|&m| plans[m].name.clone()).collect(),
                sub_groups: None,
                topology: None,
                pods: Some(f.pods),
            }
        })
        .collect()
}

/// A filter passes only when its single result is exactly `true`.
fn passes(filter: &CompiledExpr, pod: &Pod, ev: &mut PodEval<'_>) -> bool {
    ev.single_value(filter, pod, false) == Some(serde_json::Value::Bool(true))
}

//! Many workloads at once: a `kind: List` of mixed types (`kubectl get
//! jobsets,pytorchjobs,rayclusters,deployments -A -o json`), each resolved with its catalog
//! definition, the pods of the List shared out among them.
//!
//! Which objects are workloads: every object of the List that has no controller
//! `ownerReference` (a Job owned by a JobSet, a ReplicaSet owned by a Deployment and a pod owned
//! by either are parts of a workload, not rows of their own; a bare pod is a workload). The
//! other objects, and every object given as `pods`, are related objects.
//!
//! Pods are shared out by their controller chain once for the whole List: a pod whose chain
//! reaches a workload goes to that workload only, with the owners on its chain; a pod whose chain
//! leaves the input goes to every workload of its namespace, where [`crate::pods`] attributes it
//! by the definition's `podSelector` (as with one workload). So no workload's view lists the pods
//! of the others as unattributed, and each view is what resolving that workload alone with its
//! own pods gives.
//!
//! Each catalog definition is compiled once per call, however many workloads of its type the
//! List holds.

use serde_json::Value;

use crate::catalog::{self, Lookup};
use crate::compile::CompiledDefinition;
use crate::diagnostic::{codes, Diagnostic};
use crate::pods::{controller_ref, is_pod, text, Objects, Related, MAX_HOPS};
use crate::view::View;

/// One workload of the List and its view.
#[derive(Debug)]
pub struct Resolved {
    /// Its position in the objects given.
    pub index: usize,
    /// The catalog definition that read it; `None` when the catalog has none for its type.
    pub definition: Option<Lookup>,
    /// The view; `None` without a definition.
    pub view: Option<View>,
    /// Problems with the object that are not in a view (no catalog definition).
    pub diagnostics: Vec<Diagnostic>,
}

/// Compiled catalog definitions, kept between calls: each is compiled the first time a
/// workload of its type is met (the catalog never changes, so a compiled entry never goes stale).
#[derive(Default)]
pub struct CompiledCatalog {
    compiled: Vec<(&'static str, CompiledDefinition)>,
}

impl CompiledCatalog {
    /// The compiled definition of a catalog entry, compiling it the first time.
    fn get(&mut self, entry: &'static catalog::Entry) -> &CompiledDefinition {
        let slot = match self.compiled.iter().position(|(n, _)| *n == entry.name) {
            Some(slot) => slot,
            None => {
                self.compiled
                    .push((entry.name, CompiledDefinition::from_text(entry.text)));
                self.compiled.len() - 1
            }
        };
        &self.compiled[slot].1
    }
}

/// Where a pod's controller chain ends.
enum Top {
    /// At this workload (an index into the objects).
    Workload(usize),
    /// Outside the input: an owner was not given.
    Missing,
    /// Nowhere a workload is (an owner that is not a workload and has no owner, a cycle, too long).
    Nowhere,
}

/// Resolves every workload of `objects` (see the module documentation) with its catalog
/// definition. `pods` are further related objects (pods and the objects between them and
/// their workloads); when it is `Some` (even empty) or `objects` holds a pod, every view is
/// resolved with its pods (and has `pods`). Results are in the order of the objects. Each
/// catalog definition is compiled once.
pub fn resolve_all(objects: &[Value], pods: Option<&[Value]>) -> Vec<Resolved> {
    resolve_all_with(objects, pods, &mut CompiledCatalog::default())
}

/// [`resolve_all`] with definitions compiled by earlier calls (a dashboard that refreshes its
/// List compiles each type's definition once, not once per refresh).
pub fn resolve_all_with(
    objects: &[Value],
    pods: Option<&[Value]>,
    compiled: &mut CompiledCatalog,
) -> Vec<Resolved> {
    let extra = pods.unwrap_or(&[]);
    let all: Vec<&Value> = objects.iter().chain(extra).collect();
    let is_workload: Vec<bool> = all
        .iter()
        .enumerate()
        .map(|(i, o)| i < objects.len() && controller_ref(o).is_none())
        .collect();
    let with_pods = pods.is_some() || objects.iter().any(is_pod);

    // Every pod's chain once: the workload it reaches (or none) and the owners it passes.
    let index = Objects::new(all.iter().copied());
    let position = |found: &Value| all.iter().position(|o| std::ptr::eq(*o, found));
    let mut chains: Vec<(usize, Top, Vec<usize>)> = Vec::new();
    if with_pods {
        for (i, pod) in all.iter().enumerate() {
            if !is_pod(pod) || is_workload[i] {
                continue;
            }
            let mut owners = Vec::new();
            let mut current: &Value = pod;
            let mut top = Top::Nowhere;
            for _ in 0..MAX_HOPS {
                let Some(owner_ref) = controller_ref(current) else {
                    break;
                };
                let Some(at) = index.find(owner_ref, current).and_then(&position) else {
                    top = Top::Missing;
                    break;
                };
                if is_workload[at] {
                    top = Top::Workload(at);
                    break;
                }
                if owners.contains(&at) || std::ptr::eq(all[at], current) {
                    break;
                }
                owners.push(at);
                current = all[at];
            }
            chains.push((i, top, owners));
        }
    }

    let mut results = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        if !is_workload[i] {
            continue;
        }
        let api_version = text(object, "/apiVersion");
        let kind = text(object, "/kind");
        let Some(lookup) = catalog::find(api_version, kind) else {
            results.push(Resolved {
                index: i,
                definition: None,
                view: None,
                diagnostics: vec![Diagnostic::warning(
                    codes::NO_CATALOG_DEFINITION,
                    format!("the catalog has no definition for {api_version} {kind}"),
                )
                .in_object()
                .with_path(format!("items[{i}]"))
                .with_help(
                    "resolve it with a definition of your own (resolve(definition, object))",
                )],
            });
            continue;
        };
        let definition = compiled.get(lookup.entry);
        let view = if with_pods {
            let related = related_of(i, object, &all, &chains);
            definition.resolve_related(object.clone(), Some(&related))
        } else {
            definition.resolve_related(object.clone(), None)
        };
        results.push(Resolved {
            index: i,
            definition: Some(lookup),
            view: Some(view),
            diagnostics: Vec::new(),
        });
    }
    results
}

/// The pods that reach workload `at` and those whose chain leaves the input in its namespace,
/// with the owners on their chains.
fn related_of(
    at: usize,
    workload: &Value,
    all: &[&Value],
    chains: &[(usize, Top, Vec<usize>)],
) -> Related {
    let namespace = text(workload, "/metadata/namespace");
    let mut related = Related::default();
    let mut owners: Vec<usize> = Vec::new();
    for (pod, top, chain) in chains {
        let ours = match top {
            Top::Workload(w) => *w == at,
            Top::Missing => text(all[*pod], "/metadata/namespace") == namespace,
            Top::Nowhere => false,
        };
        if ours {
            related.pods.push(all[*pod].clone());
            for owner in chain {
                if !owners.contains(owner) {
                    owners.push(*owner);
                }
            }
        }
    }
    related.owners = owners.into_iter().map(|o| all[o].clone()).collect();
    related
}

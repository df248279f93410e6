//! One reading of a manifest: which of its objects are workloads, and which pods and other
//! objects belong to each (upstream-semantics §3.9).
//!
//! The input is every object of a manifest (a `kind: List`, a multi-document stream or an
//! array) plus, optionally, further *related* objects (`kubectl get pods -o yaml` given apart).
//! The rules, decided here once for every front end (the CLI's `describe`, `resolveAll`, the
//! playground, the web component and dashboard, and the case runner):
//!
//! - Each object's controller `ownerReference` is looked up among all the objects: by uid,
//!   else by kind and name in the dependent's namespace when either side has no uid.
//! - A **workload** is an object of the manifest (not of the related objects) whose controller
//!   chain reaches no other object of the input: it has no controller, or its controller is not
//!   in the input. An owner missing from the input never hides an object: a JobSet whose
//!   TrainJob was not given is a workload of its own, with an info diagnostic saying so.
//! - An object **belongs** to the workload its controller chain reaches (its pods, Jobs,
//!   ReplicaSets, ...). A pod belongs only when the workload is at most [`MAX_HOPS`] owners
//!   away, as upstream walks it; an unreadable chain is not a match. Labels never attribute a
//!   pod: a pod whose chain leaves the input is not anyone's.
//! - An object given twice (the same `metadata.uid`, e.g. a pod that is also an owner on
//!   another pod's chain, fetched once as each) is one object: its first copy is read, and
//!   the others are neither workloads nor anyone's related objects, so nothing counts twice.
//! - What belongs to no workload is listed with the reason, as a diagnostic: its chain leaves
//!   the input (`object/owner-not-in-input`), it is a related object owned by nothing given
//!   (`object/not-owned`), its owners form a cycle (`object/owner-cycle`, an error: objects
//!   that name each other as controllers are no workload), or the pod is too far from its
//!   workload (`pods/chain-too-long`).
//!
//! Indices are positions in the manifest's objects followed by the related objects. The work is
//! linear in the number of objects: each object's owner is found once through a uid index and
//! each chain is followed once (memoised).

use std::collections::HashMap;

use serde_json::Value;

use crate::diagnostic::{codes, Diagnostic};
use crate::object::pointer;

/// How many owners a pod's controller chain may pass through (upstream's limit).
pub const MAX_HOPS: usize = 6;

/// What the reading found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    /// The workloads, in input order.
    pub workloads: Vec<Workload>,
    /// Objects of the input that belong to no workload, each with the reason, in input order.
    pub unowned: Vec<Unowned>,
}

/// One workload of the input.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// Its index in the input.
    pub index: usize,
    /// The objects that belong to it (pods and the objects between them and it), in input
    /// order.
    pub related: Vec<usize>,
    /// Notes about the workload itself (its controller owner is not in the input).
    pub diagnostics: Vec<Diagnostic>,
}

/// An object of the input that belongs to no workload.
#[derive(Debug, Clone, PartialEq)]
pub struct Unowned {
    /// Its index in the input.
    pub index: usize,
    /// Why: a diagnostic whose code names the reason.
    pub diagnostic: Diagnostic,
}

impl Reading {
    /// The first workload of the type `gvk` names (a definition's root kind), else the first
    /// workload; `objects` are the objects read.
    pub fn first_workload(
        &self,
        objects: &[&Value],
        gvk: Option<&crate::view::GvkView>,
    ) -> Option<usize> {
        let of_type = gvk.and_then(|gvk| {
            self.workloads
                .iter()
                .find(|w| is_of_type(objects[w.index], Some(gvk)))
        });
        of_type.or(self.workloads.first()).map(|w| w.index)
    }

    /// The workload at input index `index`, if that object is one.
    pub fn workload(&self, index: usize) -> Option<&Workload> {
        self.workloads.iter().find(|w| w.index == index)
    }
}

/// True for a core `v1` `Pod`.
pub fn is_pod(object: &Value) -> bool {
    object.get("kind").and_then(Value::as_str) == Some("Pod")
        && object.get("apiVersion").and_then(Value::as_str) == Some("v1")
}

/// True when `object`'s apiVersion and kind are `gvk` (false without one).
pub fn is_of_type(object: &Value, gvk: Option<&crate::view::GvkView>) -> bool {
    let Some(gvk) = gvk else {
        return false;
    };
    let api_version = text(object, "/apiVersion");
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    text(object, "/kind") == gvk.kind && group == gvk.group && version == gvk.version
}

/// A string field of an object (`""` when absent or not a string).
pub(crate) fn text<'v>(v: &'v Value, at: &str) -> &'v str {
    pointer(v, at)
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// The controller ownerReference of an object.
pub(crate) fn controller_ref(object: &Value) -> Option<&Value> {
    pointer(object, "/metadata/ownerReferences")?
        .as_array()?
        .iter()
        .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
}

/// True when [`read`] reads `a` and `b` alike wherever they stand: the fields the reading
/// looks at are equal (`apiVersion`, `kind`, and `metadata`'s `uid`, `name`, `namespace` and
/// `ownerReferences`). A refresh in which every changed object is read alike keeps the reading
/// ([`crate::batch::CompiledCatalog::refresh`]).
pub fn read_alike(a: &Value, b: &Value) -> bool {
    ["/apiVersion", "/kind", "/metadata/uid", "/metadata/name", "/metadata/namespace"]
        .iter()
        .all(|p| pointer(a, p) == pointer(b, p))
        && pointer(a, "/metadata/ownerReferences") == pointer(b, "/metadata/ownerReferences")
}

/// `Kind/name` of an ownerReference, for messages.
pub(crate) fn owner_label(owner_ref: &Value) -> String {
    format!("{}/{}", text(owner_ref, "/kind"), text(owner_ref, "/name"))
}

/// The objects of an input indexed by identity: each object's controller owner is found in
/// constant time.
pub(crate) struct Owners<'a> {
    objects: Vec<&'a Value>,
    by_uid: HashMap<&'a str, usize>,
    /// (kind, name) → the objects of that kind and name (few: one per namespace).
    by_name: HashMap<(&'a str, &'a str), Vec<usize>>,
}

impl<'a> Owners<'a> {
    /// Indexes `objects`.
    pub(crate) fn new(objects: Vec<&'a Value>) -> Owners<'a> {
        let mut by_uid = HashMap::new();
        let mut by_name: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        for (i, o) in objects.iter().enumerate() {
            if !o.is_object() {
                // A place the caller could not read: it owns nothing (see `read`).
                continue;
            }
            let uid = text(o, "/metadata/uid");
            if !uid.is_empty() {
                by_uid.entry(uid).or_insert(i);
            }
            by_name
                .entry((text(o, "/kind"), text(o, "/metadata/name")))
                .or_default()
                .push(i);
        }
        Owners {
            objects,
            by_uid,
            by_name,
        }
    }

    /// The object at `index`.
    pub(crate) fn get(&self, index: usize) -> &'a Value {
        self.objects[index]
    }

    /// How many objects are indexed.
    pub(crate) fn len(&self) -> usize {
        self.objects.len()
    }

    /// The first object with the uid of object `index` when that is another one: object
    /// `index` is then a copy of it (the same object given twice), read as that one.
    pub(crate) fn copy_of(&self, index: usize) -> Option<usize> {
        let uid = text(self.objects[index], "/metadata/uid");
        if uid.is_empty() {
            return None;
        }
        self.by_uid.get(uid).copied().filter(|&first| first != index)
    }

    /// The object an ownerReference of `dependent` names: by uid, else by kind and name in
    /// the dependent's namespace (or cluster-scoped) when either side has no uid.
    pub(crate) fn find(&self, owner_ref: &Value, dependent: &Value) -> Option<usize> {
        let uid = text(owner_ref, "/uid");
        if !uid.is_empty() {
            if let Some(&i) = self.by_uid.get(uid) {
                return Some(i);
            }
        }
        let namespace = text(dependent, "/metadata/namespace");
        let candidates = self
            .by_name
            .get(&(text(owner_ref, "/kind"), text(owner_ref, "/name")))?;
        candidates.iter().copied().find(|&i| {
            let o = self.objects[i];
            let (o_uid, o_ns) = (text(o, "/metadata/uid"), text(o, "/metadata/namespace"));
            (uid.is_empty() || o_uid.is_empty()) && (o_ns.is_empty() || o_ns == namespace)
        })
    }

    /// The controller owner of object `index` among the objects (never itself).
    pub(crate) fn owner(&self, index: usize) -> Owner<'a> {
        let object = self.objects[index];
        match controller_ref(object) {
            None => Owner::None,
            Some(owner_ref) => match self.find(owner_ref, object) {
                Some(at) if at != index => Owner::At(at),
                // An object that names itself owns nothing: the reference leads nowhere.
                Some(_) => Owner::Missing(owner_ref),
                None => Owner::Missing(owner_ref),
            },
        }
    }
}

/// Where an object's controller reference leads.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Owner<'a> {
    /// No controller reference.
    None,
    /// To this object of the input.
    At(usize),
    /// To an object that is not in the input (the reference).
    Missing(&'a Value),
}

/// Where a chain ends.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Top {
    /// Not followed yet.
    Unknown,
    /// Being followed (a chain that meets it again is a cycle).
    Visiting,
    /// At this object (no further owner in the input), this many owners away.
    At(usize, usize),
    /// In a cycle of owners.
    Cycle,
}

/// Reads a manifest: `objects` are the manifest's objects, `related` further related objects
/// (never workloads). See the module documentation for the rules.
///
/// A value that is not an object stands for an object the caller could not read (a plain
/// JavaScript object nested too deep, which the wasm boundary reports itself): it keeps its
/// index, so that every other object keeps the position it was given at, and is neither a
/// workload, nor anyone's, nor anyone's owner.
pub fn read(objects: &[Value], related: &[Value]) -> Reading {
    let all: Vec<&Value> = objects.iter().chain(related).collect();
    read_refs(all, objects.len())
}

/// [`read`] over borrowed objects: the first `manifest` of `all` are the manifest's, the rest
/// related objects.
pub fn read_refs(all: Vec<&Value>, manifest: usize) -> Reading {
    let owners = Owners::new(all);
    let n = owners.len();
    let mut tops = vec![Top::Unknown; n];
    for i in 0..n {
        top_of(&owners, i, &mut tops);
    }

    let mut reading = Reading::default();
    let mut slot: Vec<Option<usize>> = vec![None; n];
    // A copy of an object given before it is that object: read once, as its first copy.
    let copy: Vec<bool> = (0..n).map(|i| owners.copy_of(i).is_some()).collect();
    for (i, top) in tops.iter().enumerate() {
        if i < manifest && !copy[i] && owners.get(i).is_object() && matches!(top, Top::At(t, 0) if *t == i) {
            slot[i] = Some(reading.workloads.len());
            let mut diagnostics = Vec::new();
            if let Owner::Missing(owner_ref) = owners.owner(i) {
                diagnostics.push(
                    Diagnostic::info(
                        codes::OWNER_NOT_IN_INPUT,
                        format!(
                            "its controller {} is not in the input: read as a workload of its own",
                            owner_label(owner_ref)
                        ),
                    )
                    .in_object()
                    .with_path("metadata.ownerReferences")
                    .with_help("give the owner too to read this object as part of it"),
                );
            }
            reading.workloads.push(Workload {
                index: i,
                related: Vec::new(),
                diagnostics,
            });
        }
    }
    for i in (0..n).filter(|&i| !copy[i]) {
        let object = owners.get(i);
        if !object.is_object() {
            continue;
        }
        match tops[i] {
            Top::At(t, _) if t == i && slot[i].is_some() => {}
            Top::At(t, hops) => match slot[t] {
                Some(_) if is_pod(object) && hops > MAX_HOPS => reading.unowned.push(Unowned {
                    index: i,
                    diagnostic: Diagnostic::warning(
                        codes::POD_CHAIN_TOO_LONG,
                        format!(
                            "pod {} is {hops} owners away from {}; a pod belongs to a workload at most {MAX_HOPS} owners away",
                            text(object, "/metadata/name"),
                            name_of(owners.get(t)),
                        ),
                    )
                    .in_object()
                    .with_path(format!("items[{i}]")),
                }),
                Some(w) => reading.workloads[w].related.push(i),
                None => {
                    // The chain ends at a related object: outside the input, or at nothing.
                    let diagnostic = match owners.owner(t) {
                        Owner::Missing(owner_ref) => Diagnostic::info(
                            codes::OWNER_NOT_IN_INPUT,
                            format!(
                                "{}: its owner {} is not in the input, so it belongs to no workload of the input",
                                name_of(object),
                                owner_label(owner_ref)
                            ),
                        )
                        .with_help("give its owners too (e.g. kubectl get jobset,jobs,pods -o yaml)"),
                        _ => Diagnostic::info(
                            codes::NOT_OWNED,
                            format!(
                                "{}: owned by no workload of the input",
                                name_of(object)
                            ),
                        )
                        .with_help("give it in the manifest to read it as a workload of its own"),
                    };
                    reading.unowned.push(Unowned {
                        index: i,
                        diagnostic: diagnostic.in_object().with_path(format!("items[{i}]")),
                    });
                }
            },
            Top::Cycle | Top::Unknown | Top::Visiting => {
                let members = cycle_members(&owners, i);
                let names: Vec<String> = members.iter().map(|&m| name_of(owners.get(m))).collect();
                let message = if members.contains(&i) {
                    format!(
                        "{} and its owners name each other as controllers ({}): no workload can be read from them",
                        name_of(object),
                        names.join(" → ")
                    )
                } else {
                    format!(
                        "{}: its owners name each other as controllers ({})",
                        name_of(object),
                        names.join(" → ")
                    )
                };
                reading.unowned.push(Unowned {
                    index: i,
                    diagnostic: Diagnostic::error(codes::OWNER_CYCLE, message)
                        .in_object()
                        .with_path(format!("items[{i}]"))
                        .with_help("a controller ownerReference names the object's owner; fix the references that point back"),
                });
            }
        }
    }
    reading
}

/// `Kind/name` of an object, for messages.
fn name_of(object: &Value) -> String {
    let name = text(object, "/metadata/name");
    format!(
        "{}/{}",
        text(object, "/kind"),
        if name.is_empty() { "<unnamed>" } else { name }
    )
}

/// Follows object `i`'s chain to its top, memoised in `tops`, without recursion.
fn top_of(owners: &Owners<'_>, i: usize, tops: &mut [Top]) {
    if tops[i] != Top::Unknown {
        return;
    }
    let mut path = Vec::new();
    let mut current = i;
    let end = loop {
        match tops[current] {
            Top::Unknown => {}
            Top::Visiting => break Top::Cycle,
            done => break done,
        }
        tops[current] = Top::Visiting;
        path.push(current);
        match owners.owner(current) {
            Owner::At(owner) => current = owner,
            Owner::None | Owner::Missing(_) => break Top::At(current, 0),
        }
    };
    // Unwind: each object on the path is one owner further from the top than the next.
    match end {
        Top::At(top, hops) => {
            let mut distance = hops;
            for &p in path.iter().rev() {
                if p == top {
                    distance = 0;
                } else {
                    distance += 1;
                }
                tops[p] = Top::At(top, distance);
            }
        }
        _ => {
            for &p in &path {
                tops[p] = Top::Cycle;
            }
        }
    }
}

/// The objects of the cycle object `i`'s chain runs into, in chain order.
fn cycle_members(owners: &Owners<'_>, i: usize) -> Vec<usize> {
    let mut seen = Vec::new();
    let mut current = i;
    loop {
        if let Some(at) = seen.iter().position(|&s| s == current) {
            return seen.split_off(at);
        }
        seen.push(current);
        match owners.owner(current) {
            Owner::At(owner) => current = owner,
            _ => return Vec::new(),
        }
    }
}

//! Many workloads at once: a `kind: List` of mixed types (`kubectl get
//! jobsets,pytorchjobs,rayclusters,deployments,jobs,pods -A -o json`), each resolved with its
//! catalog definition, with the pods and objects that belong to it.
//!
//! Which objects are workloads and what belongs to each is [`crate::manifest`]'s one reading:
//! an object whose controller chain reaches no other object of the input is a workload (an
//! owner missing from the input never hides it), and a pod or object belongs to the workload
//! its controller chain reaches. What belongs to none is listed with the reason
//! ([`Batch::unowned`]). So each view is what resolving that workload alone with its own
//! related objects gives.
//!
//! Each catalog definition is compiled once per call, however many workloads of its type the
//! List holds.

use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;

use crate::catalog::{self, Lookup};
use crate::compile::CompiledDefinition;
use crate::diagnostic::{codes, Diagnostic};
use crate::manifest::{self, is_pod, text, Unowned};
use crate::pods::RelatedRefs;
use crate::resolve::ObjectPart;
use crate::view::ResolveOptions;
use crate::view::View;

/// One workload of the List and its view.
#[derive(Debug)]
pub struct Resolved {
    /// Its position in the objects given.
    pub index: usize,
    /// The catalog definition that read it; `None` when the catalog has none for its type
    /// or a given definition read it.
    pub definition: Option<Lookup>,
    /// The index of the given definition that read it ([`Definitions::Given`]).
    pub given: Option<usize>,
    /// The view; `None` without a definition. Shared with the views the catalog keeps for the
    /// next call (a workload whose reading added notes has a copy of its own).
    pub view: Option<Rc<View>>,
    /// Problems with the object that are not in a view (no catalog definition).
    pub diagnostics: Vec<Diagnostic>,
}

/// What [`resolve_batch`] keeps between calls: the compiled catalog definitions (each compiled
/// the first time a workload of its type is met; the catalog never changes, so a compiled entry
/// never goes stale), and the views of the last call, each under the fingerprint of what it was
/// computed from (see [`Fingerprint`]), so that a refresh resolves again only the workloads
/// whose object, related objects or definition changed. A view is a function of those alone,
/// so a refresh gives exactly what a full resolve gives. For a workload with related objects
/// it also keeps what the view holds that depends on the object alone (its phases, status and
/// role tree before pods are placed: [`ObjectPart`]), under the fingerprint of the definition
/// and the object: a workload whose pods changed but whose object did not has only its pods
/// placed again, and its expressions are not evaluated again.
#[derive(Default)]
pub struct CompiledCatalog {
    compiled: Vec<(&'static str, CompiledDefinition)>,
    /// The last call's views (before the reading's notes are added) and object parts.
    kept: Kept,
    /// How many views and object parts the last call computed (the others it had from the
    /// call before).
    computed: Counts,
    /// What the last [`resolve_catalog_kept`] (or refresh of it) kept for a refresh.
    last: Option<Last>,
    /// The last token handed out.
    tokens: u32,
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

    /// How many views the last call kept for the next.
    pub fn kept_views(&self) -> usize {
        self.kept.views.len()
    }

    /// How many views the last call resolved (the others were the call before's, unchanged).
    pub fn computed_views(&self) -> usize {
        self.computed.views
    }

    /// How many object parts the last call kept for the next (one per workload with related
    /// objects).
    pub fn kept_parts(&self) -> usize {
        self.kept.parts.len()
    }

    /// How many workloads' objects the last call evaluated (the phases, status and role tree
    /// of a workload whose object did not change since the call before are kept: only its
    /// related objects are placed again).
    pub fn computed_parts(&self) -> usize {
        self.computed.parts
    }
}

/// What a workload's view (or [`ObjectPart`]) was computed from: the definition (its text,
/// and whether it keeps its ranges), whether pods were read, the workload object and its
/// related objects, in order. An object counts by its `uid`
/// and `resourceVersion` when it has both (the API server changes the version with every
/// change of the object), else by a 128-bit hash of its content.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fingerprint(u128);

impl Fingerprint {
    /// A view's: the definition, whether pods are read, the object and its related objects.
    fn of(
        definition: &CompiledDefinition,
        with_pods: bool,
        object: &Value,
        related: &[&Value],
    ) -> Fingerprint {
        Fingerprint::hash(0, definition, with_pods, object, related)
    }

    /// An [`ObjectPart`]'s: the definition and the object.
    fn of_part(definition: &CompiledDefinition, object: &Value) -> Fingerprint {
        Fingerprint::hash(1, definition, false, object, &[])
    }

    fn hash(
        what: u8,
        definition: &CompiledDefinition,
        with_pods: bool,
        object: &Value,
        related: &[&Value],
    ) -> Fingerprint {
        use std::hash::{Hash, Hasher};
        let mut halves = [0u64; 2];
        for (seed, half) in halves.iter_mut().enumerate() {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            seed.hash(&mut h);
            what.hash(&mut h);
            definition.identity().hash(&mut h);
            with_pods.hash(&mut h);
            for o in std::iter::once(&object).chain(related) {
                version(o, &mut h);
            }
            *half = h.finish();
        }
        Fingerprint(u128::from(halves[0]) << 64 | u128::from(halves[1]))
    }
}

/// How many views and object parts a call computed.
#[derive(Default, Clone, Copy)]
struct Counts {
    views: usize,
    parts: usize,
}

/// Views and object parts by fingerprint: what one call computed or took from the call before.
#[derive(Default)]
struct Kept {
    views: HashMap<Fingerprint, Rc<View>>,
    parts: HashMap<Fingerprint, Rc<ObjectPart>>,
}

/// Hashes an object's version: `uid` and `resourceVersion`, or its whole content.
fn version(object: &Value, h: &mut impl std::hash::Hasher) {
    use std::hash::Hash;
    let meta = |key: &str| {
        object
            .get("metadata")
            .and_then(|m| m.get(key))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    match (meta("uid"), meta("resourceVersion")) {
        (Some(uid), Some(version)) => {
            0u8.hash(h);
            uid.hash(h);
            version.hash(h);
        }
        _ => {
            1u8.hash(h);
            content(object, h);
        }
    }
}

/// Hashes a value's content, with its structure (so `["a","b"]` and `["ab"]` differ).
fn content(value: &Value, h: &mut impl std::hash::Hasher) {
    use std::hash::Hash;
    match value {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        Value::Number(n) => (2u8, n.to_string()).hash(h),
        Value::String(s) => (3u8, s).hash(h),
        Value::Array(items) => {
            (4u8, items.len()).hash(h);
            for item in items {
                content(item, h);
            }
        }
        Value::Object(map) => {
            (5u8, map.len()).hash(h);
            for (key, item) in map {
                key.hash(h);
                content(item, h);
            }
        }
    }
}

/// The result of [`resolve_all`]: a view per workload, and what belongs to none.
#[derive(Debug, Default)]
pub struct Batch {
    /// One entry per workload, in input order.
    pub workloads: Vec<Resolved>,
    /// Objects of the input that belong to no workload, each with the reason.
    pub unowned: Vec<Unowned>,
}

impl Batch {
    /// Places what the views say about values of the objects in the text they were read
    /// from: `documents` are the objects' nodes, in the order of the objects given
    /// ([`crate::object::ReadObjects::nodes`]). Each workload's problems with its values get
    /// the range of that value, and its instances the range they were written at.
    pub fn place_in_text(&mut self, documents: &[crate::yaml::Node]) {
        for workload in &mut self.workloads {
            let Some(document) = documents.get(workload.index) else {
                continue;
            };
            if let Some(view) = workload.view.as_mut() {
                // Placed in this text only: the view kept for the next call stays as computed.
                let view = Rc::make_mut(view);
                if let Some(root) = view.root.as_mut() {
                    crate::provenance::place_instances(root, document);
                }
                crate::provenance::place_diagnostics(&mut view.diagnostics, document);
            }
            crate::provenance::place_diagnostics(&mut workload.diagnostics, document);
        }
    }
}

/// Where the definitions of a batch come from.
#[derive(Clone, Copy)]
pub enum Definitions<'d> {
    /// The catalog's, by apiVersion and kind.
    Catalog,
    /// The caller's (the CLI's `--definition FILE`, a stream of several). A workload is read
    /// with the one written for its apiVersion and kind; when only one is given and no
    /// workload is of its type, every workload is read with it; when only one is given and
    /// some workloads are of its type, the others are left out (not listed); with several,
    /// a workload no definition covers is a row with `object/no-catalog-definition`.
    Given(&'d [&'d CompiledDefinition]),
    /// The caller's for the types they are written for, the catalog's for every other type
    /// (a cluster's Karta definitions over the embedded catalog: a definition replaces the
    /// catalog's for its root apiVersion and kind). A workload is read with the first given
    /// definition written for its apiVersion and kind, else with the catalog's.
    Overlay(&'d [&'d CompiledDefinition]),
}

/// What reads a workload of the catalog's: the catalog entry for its type, or why there is
/// none.
type Chosen<'c> = (
    Result<&'c CompiledDefinition, (String, Option<&'static str>)>,
    Option<Lookup>,
    Option<usize>,
);

/// The catalog's definition for `api_version`/`kind`, compiled once into `compiled`.
fn catalog_definition<'c>(
    api_version: &str,
    kind: &str,
    compiled: &'c mut CompiledCatalog,
) -> Chosen<'c> {
    match catalog::find(api_version, kind) {
        Some(lookup) => (Ok(compiled.get(lookup.entry)), Some(lookup), None),
        None => (
            Err((
                format!("the catalog has no definition for {api_version} {kind}"),
                Some("resolve it with a definition of your own (resolve(definition, object))"),
            )),
            None,
            None,
        ),
    }
}

/// Resolves every workload of `objects` (see the module documentation) with its catalog
/// definition. `related` are further related objects (pods and the objects between them and
/// their workloads, given apart; never workloads themselves); when it is `Some` (even empty)
/// or `objects` holds a pod, every view is resolved with its pods (and has `pods`).
pub fn resolve_all(objects: &[Value], related: Option<&[Value]>) -> Batch {
    resolve_all_with(objects, related, &mut CompiledCatalog::default())
}

/// [`resolve_all`] with definitions compiled by earlier calls (a dashboard that refreshes its
/// List compiles each type's definition once, not once per refresh).
pub fn resolve_all_with(
    objects: &[Value],
    related: Option<&[Value]>,
    compiled: &mut CompiledCatalog,
) -> Batch {
    resolve_batch(objects, related, Definitions::Catalog, compiled)
}

/// [`resolve_all_with`], with the definitions from `definitions`.
pub fn resolve_batch(
    objects: &[Value],
    related: Option<&[Value]>,
    definitions: Definitions<'_>,
    compiled: &mut CompiledCatalog,
) -> Batch {
    let extra = related.unwrap_or(&[]);
    let all: Vec<&Value> = objects.iter().chain(extra).collect();
    let with_pods = related.is_some() || all.iter().any(|o| is_pod(o));
    let reading = manifest::read_refs(all.clone(), objects.len());
    compiled.last = None;
    let (batch, _) = resolve_reading(&all, &reading, with_pods, definitions, compiled);
    batch
}

/// [`resolve_all_with`] (the catalog's definitions), keeping the objects, their reading and
/// each view's fingerprint in `compiled`, so that the next call can be a
/// [`CompiledCatalog::refresh`] that sends only the objects that changed. Returns the batch
/// and the token the refresh names it by; [`CompiledCatalog::kept_objects`] are the objects
/// (the manifest's, then the related ones) its indices point into.
pub fn resolve_catalog_kept(
    objects: Vec<Value>,
    related: Option<Vec<Value>>,
    compiled: &mut CompiledCatalog,
) -> (Batch, u32) {
    let manifest_len = objects.len();
    let has_related = related.is_some();
    let mut kept = objects;
    kept.extend(related.unwrap_or_default());
    let all: Vec<&Value> = kept.iter().collect();
    let with_pods = has_related || all.iter().any(|o| is_pod(o));
    let reading = manifest::read_refs(all.clone(), manifest_len);
    compiled.last = None;
    let (batch, prints) =
        resolve_reading(&all, &reading, with_pods, Definitions::Catalog, compiled);
    let mut owner = vec![None; kept.len()];
    for (position, workload) in reading.workloads.iter().enumerate() {
        owner[workload.index] = Some(position);
        for &r in &workload.related {
            owner[r] = Some(position);
        }
    }
    drop(all);
    compiled.tokens = compiled.tokens.wrapping_add(1);
    let token = compiled.tokens;
    compiled.last = Some(Last {
        token,
        objects: kept,
        with_pods,
        reading,
        prints,
        owner,
    });
    (batch, token)
}

/// What [`resolve_catalog_kept`] keeps for a refresh.
struct Last {
    /// Names this state: a refresh must name the call it refreshes.
    token: u32,
    /// The objects: the manifest's, then the related ones.
    objects: Vec<Value>,
    /// Whether the views were resolved with pods.
    with_pods: bool,
    /// The reading of `objects`.
    reading: manifest::Reading,
    /// Each workload's fingerprints, of its view and of its object part (by position in the
    /// reading; `None` without a definition, or without a kept part).
    prints: Vec<Prints>,
    /// For each object, the position of the workload it is or belongs to.
    owner: Vec<Option<usize>>,
}

/// The workloads a [`CompiledCatalog::refresh`] resolved again: their positions in the
/// batch's workloads (the order of the last full call's) and their new results.
#[derive(Debug)]
pub struct Refreshed {
    /// The token of the new state (the next refresh names this one).
    pub token: u32,
    /// `(position, result)` for each workload whose object or related objects changed.
    pub workloads: Vec<(usize, Resolved)>,
}

impl CompiledCatalog {
    /// Refreshes the batch [`resolve_catalog_kept`] kept (named by `token`): `changes` replace
    /// objects by index, and only the workloads whose object or related objects changed are
    /// resolved again, so the batch equals a full resolve of the changed objects. `None` (and
    /// the kept state dropped) when this is no refresh: another token, an index out of range,
    /// or a changed object that the reading would read differently ([`manifest::read_alike`]:
    /// it moved to another owner, was renamed, ...); the caller then resolves in full.
    pub fn refresh(&mut self, token: u32, changes: Vec<(usize, Value)>) -> Option<Refreshed> {
        let mut last = self.last.take().filter(|last| last.token == token)?;
        let alike = changes.iter().all(|(i, new)| {
            last.objects
                .get(*i)
                .is_some_and(|old| manifest::read_alike(old, new))
        });
        if !alike {
            return None;
        }
        let mut affected: Vec<usize> = Vec::new();
        for (i, new) in changes {
            if let Some(position) = last.owner[i] {
                affected.push(position);
            }
            last.objects[i] = new;
        }
        affected.sort_unstable();
        affected.dedup();
        let all: Vec<&Value> = last.objects.iter().collect();
        let mut workloads = Vec::with_capacity(affected.len());
        let mut computed = Counts::default();
        for position in affected {
            let workload = &last.reading.workloads[position];
            let old = std::mem::take(&mut last.prints[position]);
            // The old view goes unless another workload was read from the same things. The old
            // object part stays: it answers when only the related objects changed; it goes
            // below when the object changed.
            if let Some(old) = old.view {
                if !last.prints.iter().any(|p| p.view.as_ref() == Some(&old)) {
                    self.kept.views.remove(&old);
                }
            }
            let mut kept = std::mem::take(&mut self.kept);
            let mut fresh = Kept::default();
            let (resolved, prints) = resolve_one(
                workload,
                &all,
                last.with_pods,
                Definitions::Catalog,
                false,
                self,
                &mut kept,
                &mut fresh,
                &mut computed,
            )
            .expect("the catalog reads every workload (none is left out)");
            if let Some(old) = old.part.filter(|old| prints.part.as_ref() != Some(old)) {
                kept.parts.remove(&old);
            }
            kept.views.extend(fresh.views);
            kept.parts.extend(fresh.parts);
            self.kept = kept;
            last.prints[position] = prints;
            workloads.push((position, resolved));
        }
        drop(all);
        self.computed = computed;
        self.tokens = self.tokens.wrapping_add(1);
        last.token = self.tokens;
        let token = last.token;
        self.last = Some(last);
        Some(Refreshed { token, workloads })
    }

    /// The objects the last [`resolve_catalog_kept`] or [`CompiledCatalog::refresh`] kept (the
    /// manifest's, then the related ones); empty when none are kept.
    pub fn kept_objects(&self) -> &[Value] {
        self.last.as_ref().map_or(&[], |last| &last.objects)
    }
}

/// Resolves each workload of `reading`; also each one's fingerprint (by position in the
/// reading).
fn resolve_reading(
    all: &[&Value],
    reading: &manifest::Reading,
    with_pods: bool,
    definitions: Definitions<'_>,
    compiled: &mut CompiledCatalog,
) -> (Batch, Vec<Prints>) {
    let any_typed = match definitions {
        Definitions::Given([one]) => reading
            .workloads
            .iter()
            .any(|w| manifest::is_of_type(all[w.index], one.root_gvk().as_ref())),
        _ => false,
    };
    let mut results = Vec::new();
    let mut prints = Vec::new();
    let mut last = std::mem::take(&mut compiled.kept);
    let mut kept = Kept::default();
    let mut computed = Counts::default();
    for workload in &reading.workloads {
        if let Some((resolved, print)) = resolve_one(
            workload,
            all,
            with_pods,
            definitions,
            any_typed,
            compiled,
            &mut last,
            &mut kept,
            &mut computed,
        ) {
            results.push(resolved);
            prints.push(print);
        }
    }
    compiled.kept = kept;
    compiled.computed = computed;
    (
        Batch {
            workloads: results,
            unowned: reading.unowned.clone(),
        },
        prints,
    )
}

/// A workload's fingerprints: of its view, and of its kept object part.
#[derive(Default)]
struct Prints {
    view: Option<Fingerprint>,
    part: Option<Fingerprint>,
}

/// Resolves one workload of a reading: its view from `last` or `kept` when its fingerprint is
/// there, else computed (and counted in `computed`) from its object part (from `last` or
/// `kept` when there, else read) and its related objects; the view and the part are added to
/// `kept`. `None` when the workload is left out (one definition given, for workloads of other
/// types).
#[allow(clippy::too_many_arguments)]
fn resolve_one(
    workload: &manifest::Workload,
    all: &[&Value],
    with_pods: bool,
    definitions: Definitions<'_>,
    any_typed: bool,
    compiled: &mut CompiledCatalog,
    last: &mut Kept,
    kept: &mut Kept,
    computed: &mut Counts,
) -> Option<(Resolved, Prints)> {
    let i = workload.index;
    let object = all[i];
    let api_version = text(object, "/apiVersion");
    let kind = text(object, "/kind");
    // The definition that reads it, or why there is none.
    let (definition, lookup, given) = match definitions {
        Definitions::Given(given) => {
            let chosen = given
                .iter()
                .position(|d| manifest::is_of_type(object, d.root_gvk().as_ref()))
                .or(match given {
                    [_] if !any_typed => Some(0),
                    _ => None,
                });
            match chosen {
                Some(g) => (Ok(given[g]), None, Some(g)),
                // One definition given, for other workloads: this one is left out.
                None if given.len() == 1 => return None,
                None => (
                    Err((format!("no given definition covers {api_version} {kind}"), None)),
                    None,
                    None,
                ),
            }
        }
        Definitions::Overlay(given) => match given
            .iter()
            .position(|d| manifest::is_of_type(object, d.root_gvk().as_ref()))
        {
            Some(g) => (Ok(given[g]), None, Some(g)),
            None => catalog_definition(api_version, kind, compiled),
        },
        Definitions::Catalog => catalog_definition(api_version, kind, compiled),
    };
    Some(match definition {
        Ok(definition) => {
            let own: Vec<&Value> = workload.related.iter().map(|&r| all[r]).collect();
            let print = Fingerprint::of(definition, with_pods, object, &own);
            // Only a workload with related objects has a view that is not its object part's.
            let part_print = (with_pods && !own.is_empty()).then(|| Fingerprint::of_part(definition, object));
            let mut part = part_print
                .as_ref()
                .and_then(|p| last.parts.remove(p).or_else(|| kept.parts.get(p).cloned()));
            let found = last.views.remove(&print).or_else(|| kept.views.get(&print).cloned());
            let view = match found {
                Some(view) => view,
                None => {
                    computed.views += 1;
                    if part.is_none() {
                        computed.parts += 1;
                    }
                    let related = with_pods.then(|| RelatedRefs::from_objects(own.iter().copied()));
                    let options = ResolveOptions::default();
                    Rc::new(if part_print.is_some() {
                        let (view, read) =
                            definition.resolve_ref_kept(object, related.as_ref(), options, part);
                        part = read;
                        view
                    } else {
                        definition.resolve_ref(object, related.as_ref(), options)
                    })
                }
            };
            if let (Some(p), Some(part)) = (&part_print, part) {
                kept.parts.insert(p.clone(), part);
            }
            let mut view = Rc::clone(kept.views.entry(print.clone()).or_insert(view));
            if !workload.diagnostics.is_empty() {
                // The reading's notes are this workload's own: a copy of the kept view.
                Rc::make_mut(&mut view)
                    .diagnostics
                    .extend(workload.diagnostics.iter().cloned());
            }
            (
                Resolved {
                    index: i,
                    definition: lookup,
                    given,
                    view: Some(view),
                    diagnostics: Vec::new(),
                },
                Prints {
                    view: Some(print),
                    part: part_print,
                },
            )
        }
        Err((message, help)) => {
            let mut problem = Diagnostic::warning(codes::NO_CATALOG_DEFINITION, message)
                .in_object()
                .with_path(format!("items[{i}]"));
            if let Some(help) = help {
                problem = problem.with_help(help);
            }
            let mut diagnostics = vec![problem];
            diagnostics.extend(workload.diagnostics.iter().cloned());
            (
                Resolved {
                    index: i,
                    definition: None,
                    given: None,
                    view: None,
                    diagnostics,
                },
                Prints::default(),
            )
        }
    })
}

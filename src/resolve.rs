//! Resolve: one object through a compiled definition into the [`View`].
//!
//! Read the object → status → tree (instances, scale, pod specs, resources) → view. Each
//! stage takes the previous one's output. The stages that read the object alone give an
//! [`ObjectPart`], which a batch keeps between calls; its related objects (pods, gang groups)
//! are placed in it last; a failure in one part becomes a diagnostic next to
//! that part and the rest of the view is still produced.

use std::rc::Rc;

use serde_json::Value;

use crate::compile::{sort_diagnostics, CompiledDefinition};
use crate::definition::Phase;
use crate::diagnostic::{codes, Diagnostic};
use crate::expr::Input;
use crate::instances::Evaluator;
use crate::object::{self, ReadObjects};
use crate::pods::{PodEval, Related, RelatedRefs};
use crate::view::{
    DefinitionRef, PodCount, ResolveOptions, ResourceTable, Resources, StatusView, View,
};

impl CompiledDefinition {
    /// Resolves one workload object (already parsed) into its view.
    pub fn resolve(&self, object: &Value) -> View {
        self.resolve_ref(object, None, ResolveOptions::default())
    }

    /// Resolves the one object of a manifest text (YAML or JSON). Text that holds no object
    /// (empty, only comments, a syntax error, a document that is not a mapping) gives a view
    /// with an error diagnostic and no phase (`Undefined`); text that holds several objects
    /// gives an error too (read them with [`object::read_objects`] and resolve each).
    pub fn resolve_text(&self, text: &str) -> View {
        self.resolve_read(object::read_objects(text))
    }

    /// Resolves what [`object::read_objects`] read, which must be one object: the reading
    /// problems (items skipped, ...) come first in the view's diagnostics.
    pub fn resolve_read(&self, read: ReadObjects) -> View {
        self.resolve_read_related(read, None)
    }

    /// Like [`resolve_read`](Self::resolve_read), with the workload's related objects (its
    /// pods and the objects between them and it), as [`resolve_related`](Self::resolve_related).
    pub fn resolve_read_related(&self, read: ReadObjects, related: Option<&Related>) -> View {
        self.resolve_read_with(read, related, ResolveOptions::default())
    }

    /// Like [`resolve_read_related`](Self::resolve_read_related), with [`ResolveOptions`]
    /// (e.g. [`ResolveOptions::LEAN`]: no status explanations).
    pub fn resolve_read_with(
        &self,
        read: ReadObjects,
        related: Option<&Related>,
        options: ResolveOptions,
    ) -> View {
        let extra = related.map(|r| r.owners.iter().chain(&r.pods).collect());
        self.resolve_manifest_refs(read, extra, None, options)
    }

    /// Resolves the workload of a manifest: every object read (a `kind: List`, a stream),
    /// with `related` objects given apart (`kubectl get pods` output; when given, even empty,
    /// the view has `pods`, as it does when the manifest holds a pod). Which object is the
    /// workload and what belongs to it is [`crate::manifest`]'s reading: `workload` picks an
    /// object by its index among the objects read; without it, the first workload of the
    /// definition's type, else the first workload. The view then holds the pods of that
    /// workload, and lists the pods that belong to no workload of the input as unattributed.
    /// The reading problems (items skipped, ...) come first in the view's diagnostics.
    pub fn resolve_manifest(
        &self,
        read: ReadObjects,
        related: Option<&[Value]>,
        workload: Option<usize>,
        options: ResolveOptions,
    ) -> View {
        let related = related.map(|r| r.iter().collect());
        self.resolve_manifest_refs(read, related, workload, options)
    }

    /// [`resolve_manifest`](Self::resolve_manifest) with the related objects borrowed.
    fn resolve_manifest_refs(
        &self,
        read: ReadObjects,
        related: Option<Vec<&Value>>,
        workload: Option<usize>,
        options: ResolveOptions,
    ) -> View {
        let view = self.resolve_manifest_ref_with(&read, related, workload, options);
        // The reading's own problems move into the view instead of being copied.
        let ReadObjects { diagnostics, .. } = read;
        match view {
            Some(mut view) => {
                let mut all = diagnostics;
                all.append(&mut view.diagnostics);
                view.diagnostics = all;
                view
            }
            None => self.no_object(diagnostics),
        }
    }

    /// [`resolve_manifest`](Self::resolve_manifest) of a reading that is kept (borrowed, not
    /// consumed): the same view, so that a manifest read once can be resolved again with
    /// another definition or another `workload` without reading its text again. Nothing of
    /// the objects is copied.
    pub fn resolve_manifest_ref(
        &self,
        read: &ReadObjects,
        related: Option<&[Value]>,
        workload: Option<usize>,
        options: ResolveOptions,
    ) -> View {
        let related = related.map(|r| r.iter().collect());
        match self.resolve_manifest_ref_with(read, related, workload, options) {
            Some(mut view) => {
                let mut all = read.diagnostics.clone();
                all.append(&mut view.diagnostics);
                view.diagnostics = all;
                view
            }
            None => self.no_object(read.diagnostics.clone()),
        }
    }

    /// The view of the workload of `read` (see [`resolve_manifest`](Self::resolve_manifest)),
    /// without the reading's own problems, which the caller puts first; `None` when `read`
    /// holds no object.
    fn resolve_manifest_ref_with(
        &self,
        read: &ReadObjects,
        related: Option<Vec<&Value>>,
        workload: Option<usize>,
        options: ResolveOptions,
    ) -> Option<View> {
        let objects = &read.objects;
        if objects.is_empty() {
            return None;
        }
        let with_pods = related.is_some();
        let values: Vec<&Value> = objects
            .iter()
            .map(|(o, _)| o)
            .chain(related.unwrap_or_default())
            .collect();
        let with_pods = with_pods || values.iter().any(|o| crate::manifest::is_pod(o));
        let reading = crate::manifest::read_refs(values.clone(), objects.len());
        let chosen = workload
            .or_else(|| reading.first_workload(&values, self.root_gvk().as_ref()))
            .unwrap_or(0);
        let chosen = chosen.min(objects.len() - 1);
        let related = with_pods.then(|| {
            let indices: Vec<usize> = match reading.workload(chosen) {
                // Its own, and what belongs to no workload (listed as unattributed).
                Some(w) => w
                    .related
                    .iter()
                    .copied()
                    .chain(reading.unowned.iter().map(|u| u.index))
                    .filter(|&i| i != chosen)
                    .collect(),
                // An object that is part of another: everything else may belong to it.
                None => (0..values.len()).filter(|&i| i != chosen).collect(),
            };
            RelatedRefs::from_objects(indices.into_iter().map(|i| values[i]))
        });
        let notes: Vec<Diagnostic> = reading
            .workload(chosen)
            .map(|w| w.diagnostics.clone())
            .unwrap_or_default();
        let mut view = self.resolve_input(
            Input::borrowed(values[chosen]),
            related.as_ref(),
            options,
        );
        // Read from text: where each instance was written.
        if let Some(document) = read.nodes.get(chosen) {
            if let Some(root) = view.root.as_mut() {
                crate::provenance::place_instances(root, document);
            }
            crate::provenance::place_diagnostics(&mut view.diagnostics, document);
        }
        view.diagnostics.extend(notes);
        Some(view)
    }

    /// The view of a reading that holds no object: its problems, or that there is no object.
    fn no_object(&self, mut diagnostics: Vec<Diagnostic>) -> View {
        if !diagnostics.iter().any(Diagnostic::is_error) {
            diagnostics.push(object::no_object());
        }
        self.unreadable(diagnostics)
    }

    /// The view of an object that could not be read: the definition's diagnostics and
    /// `problems`, no phase (`Undefined`), no status, no tree.
    fn unreadable(&self, problems: Vec<Diagnostic>) -> View {
        let mut diagnostics: Vec<Diagnostic> = self.diagnostics().to_vec();
        diagnostics.extend(problems);
        sort_diagnostics(&mut diagnostics);
        View {
            api_version: String::new(),
            kind: String::new(),
            name: String::new(),
            namespace: None,
            definition: DefinitionRef {
                name: self.name().unwrap_or_default().to_owned(),
            },
            phases: vec![Phase::Undefined],
            terminating: false,
            status: StatusView {
                phase: None,
                conditions: Vec::new(),
                mappings: Vec::new(),
            },
            resources: Resources::default(),
            table: ResourceTable::default(),
            root: None,
            pods: None,
            groups: Vec::new(),
            diagnostics,
        }
    }

    /// Like [`resolve`](Self::resolve), taking ownership to avoid a copy.
    pub fn resolve_owned(&self, object: Value) -> View {
        self.resolve_related(object, None)
    }

    /// Resolves one workload object together with its related objects (its pods and the
    /// objects between them and it): the view then places every pod that belongs to the
    /// workload in its tree, and groups them for gang scheduling.
    pub fn resolve_related(&self, object: Value, related: Option<&Related>) -> View {
        self.resolve_with(object, related, ResolveOptions::default())
    }

    /// Like [`resolve_related`](Self::resolve_related), with [`ResolveOptions`] (e.g.
    /// [`ResolveOptions::LEAN`]: the same view without the status explanations).
    pub fn resolve_with(
        &self,
        object: Value,
        related: Option<&Related>,
        options: ResolveOptions,
    ) -> View {
        let related = related.map(Related::refs);
        self.resolve_input(Input::new(object), related.as_ref(), options)
    }

    /// Like [`resolve_with`](Self::resolve_with), reading the object and its related objects
    /// where they are: nothing of them is copied (a List read once, resolved workload by
    /// workload).
    pub fn resolve_ref(
        &self,
        object: &Value,
        related: Option<&RelatedRefs<'_>>,
        options: ResolveOptions,
    ) -> View {
        self.resolve_input(Input::borrowed(object), related, options)
    }

    fn resolve_input(
        &self,
        input: Input<'_>,
        related: Option<&RelatedRefs<'_>>,
        options: ResolveOptions,
    ) -> View {
        match self.read_object(&input, options) {
            Ok(part) => self.place_related(part, input.json(), related),
            Err(view) => *view,
        }
    }

    /// Like [`resolve_ref`](Self::resolve_ref), from the [`ObjectPart`] of `object` when
    /// `kept` holds it (read with the same `options`): only the related objects are placed
    /// again. Returns the view and the object's part for a later call (`None` when `object`
    /// is not an object).
    pub(crate) fn resolve_ref_kept(
        &self,
        object: &Value,
        related: Option<&RelatedRefs<'_>>,
        options: ResolveOptions,
        kept: Option<Rc<ObjectPart>>,
    ) -> (View, Option<Rc<ObjectPart>>) {
        let part = match kept {
            Some(part) => part,
            None => match self.read_object(&Input::borrowed(object), options) {
                Ok(part) => Rc::new(part),
                Err(view) => return (*view, None),
            },
        };
        let view = self.place_related(ObjectPart::clone(&part), object, related);
        (view, Some(part))
    }

    /// What the view of `input` holds that depends on the object alone; the view of an
    /// unreadable object when it is not an object.
    fn read_object(
        &self,
        input: &Input<'_>,
        options: ResolveOptions,
    ) -> Result<ObjectPart, Box<View>> {
        let object = input.json();
        if !object.is_object() {
            return Err(Box::new(self.unreadable(vec![Diagnostic::error(
                codes::OBJECT_INVALID,
                format!("the manifest is {}, not an object", crate::path::type_name(object, crate::path::Words::Manifest)),
            )
            .in_object()
            .with_help("give one Kubernetes object, e.g. `apiVersion: jobset.x-k8s.io/v1alpha2` / `kind: JobSet` / ...")])));
        }
        let mut diagnostics: Vec<Diagnostic> = self.diagnostics().to_vec();
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
        let api_version = text(object, "apiVersion").unwrap_or_default();
        let kind = text(object, "kind").unwrap_or_default();
        let metadata = object.get("metadata").unwrap_or(&Value::Null);
        let name = text(metadata, "name").unwrap_or_default();
        let namespace = text(metadata, "namespace");
        let uid = text(metadata, "uid")
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| name.clone());
        check_object(&api_version, &kind, self, &mut diagnostics);

        let mut ev = Evaluator {
            exprs: &self.exprs,
            input,
            diagnostics: &mut diagnostics,
        };

        let (phases, status) = match &self.status {
            Some(plan) => crate::status::evaluate(plan, &mut ev, options.explain),
            None => (
                vec![Phase::Undefined],
                StatusView {
                    phase: None,
                    conditions: Vec::new(),
                    mappings: Vec::new(),
                },
            ),
        };
        let located = crate::provenance::Locations::evaluate(&self.locate, &self.exprs, input);
        let built = crate::tree::build(&self.components, 0, "", &mut ev, 0, &located);
        let resources = built
            .as_ref()
            .map(|b| b.component.resources.clone())
            .unwrap_or_default();
        let mut table = ResourceTable::default();
        if let Some(built) = &built {
            table.rows = built.rows();
            table.pods = table
                .rows
                .iter()
                .fold(PodCount::new(0, false), |sum, row| sum.plus(&row.pods));
        }
        Ok(ObjectPart {
            api_version,
            kind,
            name,
            namespace,
            uid,
            phases,
            terminating: crate::pods::is_terminating(object),
            status,
            resources,
            table,
            root: built.map(|b| b.component),
            diagnostics,
        })
    }

    /// The view from the object's part: its pods placed in the tree and grouped, when
    /// `related` are given (`object` is the workload object the part was read from).
    fn place_related(
        &self,
        part: ObjectPart,
        object: &Value,
        related: Option<&RelatedRefs<'_>>,
    ) -> View {
        let ObjectPart {
            api_version,
            kind,
            name,
            namespace,
            uid,
            phases,
            terminating,
            status,
            resources,
            mut table,
            mut root,
            mut diagnostics,
        } = part;
        let mut pod_eval = PodEval::new(&self.exprs, &mut diagnostics);
        let attribution = related.map(|related| {
            crate::pods::attribute(&self.components, root.as_mut(), object, related, &mut pod_eval)
        });
        if let (Some(root), Some(_)) = (root.as_mut(), attribution.as_ref()) {
            crate::tree::count_placed(root, &mut table);
        }
        let groups = match &self.gang {
            Some(gang) => crate::groups::evaluate(
                &self.components,
                gang,
                root.as_ref(),
                &uid,
                attribution.as_ref().map(|a| a.pods.as_slice()),
                &mut pod_eval,
            ),
            None => Vec::new(),
        };
        let groups: Vec<crate::view::Group> = groups
            .into_iter()
            .map(crate::view::Group::with_text)
            .collect();

        sort_diagnostics(&mut diagnostics);
        View {
            api_version,
            kind,
            name,
            namespace,
            definition: DefinitionRef {
                name: self.name().unwrap_or_default().to_owned(),
            },
            phases,
            terminating,
            status,
            resources,
            table,
            root,
            pods: attribution.map(|a| a.summary),
            groups,
            diagnostics,
        }
    }
}

/// What a workload's view holds that depends on its object alone (and the definition and
/// [`ResolveOptions`] it was read with), before its related objects are placed: the phases
/// and status, the role tree without pods, the resources table, and the problems found on
/// the way (unsorted). A batch keeps it per object version ([`crate::batch`]), so a workload
/// whose pods changed but whose object did not is not evaluated again.
#[derive(Debug, Clone)]
pub(crate) struct ObjectPart {
    api_version: String,
    kind: String,
    name: String,
    namespace: Option<String>,
    /// What gang groups are named by: the object's `uid`, else its name.
    uid: String,
    phases: Vec<Phase>,
    terminating: bool,
    status: StatusView,
    resources: Resources,
    table: ResourceTable,
    root: Option<crate::view::Component>,
    diagnostics: Vec<Diagnostic>,
}

fn check_object(
    api_version: &str,
    kind: &str,
    def: &CompiledDefinition,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if api_version.is_empty() || kind.is_empty() {
        diagnostics.push(
            Diagnostic::error(
                codes::OBJECT_INVALID,
                "the manifest has no apiVersion or kind",
            )
            .in_object()
            .with_help("a Kubernetes object starts with `apiVersion:` and `kind:`"),
        );
        return;
    }
    if let Some(root) = def.root_gvk() {
        let (group, version) = match api_version.split_once('/') {
            Some((g, v)) => (g, v),
            None => ("", api_version),
        };
        if root.kind != kind || root.group != group || root.version != version {
            let want = if root.group.is_empty() {
                format!("{}/{}", root.version, root.kind)
            } else {
                format!("{}/{} {}", root.group, root.version, root.kind)
            };
            diagnostics.push(
                Diagnostic::warning(
                    codes::OBJECT_KIND_MISMATCH,
                    format!("the definition reads {want}, but the object is {api_version} {kind}"),
                )
                .at_object_pointer("/kind".to_owned()),
            );
        }
    }
}

//! Safe edits through the definition's paths: suspend, resume, and a JSON merge patch to one
//! component's pod spec.
//!
//! Every edit writes through the locations the reader reads: the definition compiles
//! `path(<expression>)` for each path it may write (see [`crate::compile`]), an edit evaluates
//! it on the object to get concrete locations and writes there (jq's `setpath`). The result
//! comes with an RFC 6902 JSON Patch that is the minimal difference between the input and
//! the result ([`patch::diff`]), ready for `kubectl patch --type json`.
//!
//! Edits never fail with an exception: an edit that cannot be made comes back unchanged
//! (`object` is the input, `patch` is empty) with an error diagnostic saying why; an edit
//! that changes nothing comes back with an empty patch and an `edit/no-change` note.
//!
//! A pod spec edit applies an RFC 7396 merge patch to what the definition reads as the pod
//! spec: the PodSpec of `podSpecPath`, the `spec` of the template of `podTemplateSpecPath`,
//! or, for `fragmentedPodSpecDefinition`, the fragmented pod spec object whose fields are the
//! fragment names (`containers`, `container`, `image`, `resources`, `schedulerName`, ...);
//! each changed field is written back to where its path reads it. The result is read again:
//! if components, instance ids or replicas changed, or the pod specs read back are not what
//! the merge asked for, the edit is refused.

pub mod patch;

use serde::Serialize;
use serde_json::Value;

use crate::compile::CompiledDefinition;
use crate::diagnostic::{codes, Diagnostic};
use crate::expr::Input;
use crate::instances::{Evaluator, ExtractedInstance, PodData};
pub use crate::path::Step;
use crate::plan::{ActionPlan, SpecWrite, WritePath};
use crate::view::{Component, View};
pub use patch::{Op, PatchOp};

/// The outcome of an edit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Edit {
    /// The edited object; the input unchanged when the edit was refused.
    pub object: Value,
    /// RFC 6902 operations turning the input into `object` (only changed locations).
    pub patch: Vec<PatchOp>,
    /// Why an edit was refused (errors), or notes about it (`edit/no-change`, ...).
    pub diagnostics: Vec<Diagnostic>,
}

impl Edit {
    /// True when the edit was made (no error diagnostic).
    pub fn applied(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// What a pod spec edit changes.
#[derive(Debug, Clone, Copy)]
pub struct PodSpecEdit<'a> {
    /// The component's name in the definition.
    pub component: &'a str,
    /// One instance id, or `None` for every instance.
    pub instance: Option<&'a str>,
    /// The RFC 7396 merge patch (an object).
    pub merge: &'a Value,
}

/// An edit in progress: the diagnostics so far.
struct Editing<'d> {
    def: &'d CompiledDefinition,
    diagnostics: Vec<Diagnostic>,
}

/// Stops an edit: the diagnostic that explains why.
type Refusal = Box<Diagnostic>;

impl CompiledDefinition {
    /// Applies the root's `suspendActions` in order.
    pub fn suspend(&self, object: &Value) -> Edit {
        self.run_actions(object, true)
    }

    /// Applies the root's `resumeActions` in order.
    pub fn resume(&self, object: &Value) -> Edit {
        self.run_actions(object, false)
    }

    /// Applies a JSON merge patch to one component's pod spec (one instance or all), writing
    /// through the definition's spec paths.
    pub fn edit_pod_spec(&self, object: &Value, edit: &PodSpecEdit<'_>) -> Edit {
        let mut editing = Editing {
            def: self,
            diagnostics: Vec::new(),
        };
        let result = editing.pod_spec(object, edit);
        editing.finish(object, result)
    }

    fn run_actions(&self, object: &Value, suspend: bool) -> Edit {
        let mut editing = Editing {
            def: self,
            diagnostics: Vec::new(),
        };
        let result = editing.actions(object, suspend);
        editing.finish(object, result)
    }
}

impl Editing<'_> {
    fn finish(mut self, input: &Value, result: Result<Value, Refusal>) -> Edit {
        match result {
            Ok(object) => {
                let patch = patch::diff(input, &object);
                if patch.is_empty() {
                    self.diagnostics.push(
                        Diagnostic::info(
                            codes::EDIT_NO_CHANGE,
                            "the edit changes nothing: the patch is empty",
                        )
                        .in_object(),
                    );
                }
                Edit {
                    object,
                    patch,
                    diagnostics: self.diagnostics,
                }
            }
            Err(refusal) => {
                self.diagnostics.push(*refusal);
                Edit {
                    object: input.clone(),
                    patch: Vec::new(),
                    diagnostics: self.diagnostics,
                }
            }
        }
    }

    fn check_definition(&mut self) -> Result<(), Refusal> {
        if self.def.is_valid() {
            return Ok(());
        }
        self.diagnostics.extend(
            self.def
                .diagnostics()
                .iter()
                .filter(|d| d.is_error())
                .cloned(),
        );
        Err(Box::new(
            Diagnostic::error(
                codes::EDIT_INVALID_DEFINITION,
                "the definition has errors: edits need a valid definition",
            )
            .with_help("fix the definition's errors (listed with this one) first"),
        ))
    }

    fn actions(&mut self, object: &Value, suspend: bool) -> Result<Value, Refusal> {
        self.check_definition()?;
        let list = if suspend {
            "suspendActions"
        } else {
            "resumeActions"
        };
        let actions: &[ActionPlan] = match &self.def.writes.suspend {
            Some((s, r)) => {
                if suspend {
                    s
                } else {
                    r
                }
            }
            None => &[],
        };
        if actions.is_empty() {
            return Err(Box::new(
                Diagnostic::error(
                    codes::EDIT_NO_SUSPEND_DEFINITION,
                    format!("the root component has no {list}: this workload type cannot be {}", if suspend { "suspended" } else { "resumed" }),
                )
                .with_help("add `suspendDefinition: {suspendActions: [{path: .spec.suspend, value: \"true\"}], resumeActions: [...]}` to the root component"),
            ));
        }
        let mut doc = object.clone();
        for (i, action) in actions.iter().enumerate() {
            let value = match &action.value {
                Ok(v) => v,
                Err(why) => {
                    return Err(Box::new(
                        Diagnostic::error(
                            codes::INVALID_ACTION_VALUE,
                            format!("{list}[{i}]: {why}"),
                        )
                        .with_path(action.value_at.0.clone())
                        .with_range(action.value_at.1)
                        .with_help(
                            "value is JSON text: \"true\", \"0\", '\"Suspended\"', \"null\"",
                        ),
                    ))
                }
            };
            let Some(path) = &action.path else {
                return Err(Box::new(
                    Diagnostic::error(codes::MISSING_FIELD, format!("{list}[{i}] has no path"))
                        .with_path(action.value_at.0.clone())
                        .with_range(action.value_at.1),
                ));
            };
            let locations = self.locations(path, &doc)?;
            if locations.is_empty() {
                self.diagnostics.push(
                    Diagnostic::warning(
                        codes::EDIT_NO_TARGET,
                        format!("{list}[{i}]: '{}' selects nothing in this object: the action writes nothing", path.expr.source),
                    )
                    .with_path(path.expr.path.clone())
                    .with_range(path.expr.range),
                );
            }
            for location in locations {
                write(&mut doc, &location, value.clone())?;
            }
        }
        Ok(doc)
    }

    /// The concrete locations `path` selects in `doc`, in order.
    fn locations(&self, path: &WritePath, doc: &Value) -> Result<Vec<Vec<Step>>, Refusal> {
        let e = &path.expr;
        if let Some(why) = &path.not_writable {
            return Err(Box::new(not_writable(e, why)));
        }
        let Some(id) = e.id else {
            return Err(Box::new(
                Diagnostic::error(
                    codes::EXPR_COMPILE,
                    format!(
                        "'{}' did not compile, so nothing can be written through it",
                        e.source
                    ),
                )
                .with_path(e.path.clone())
                .with_range(e.range),
            ));
        };
        let found = self
            .def
            .exprs
            .eval(id, &Input::borrowed(doc))
            .map_err(|err| {
                // jq takes paths only through path expressions: here the expression took a
                // computed branch (the default of `//`, a literal in an `if`).
                if err.message.contains("invalid path expression") {
                    return Box::new(not_writable(
                        e,
                        "on this object it reads a computed value (e.g. the default of `//`), \
                         which has no location",
                    ));
                }
                Box::new(
                    Diagnostic::error(
                        err.code,
                        format!("path '{}' failed: {}", e.source, err.message),
                    )
                    .with_path(e.path.clone())
                    .with_range(e.range),
                )
            })?;
        found
            .iter()
            .map(|p| match crate::path::steps_of(p) {
                Some(steps) => Ok(crate::path::normalise(doc, &steps)),
                None => Err(Box::new(not_writable(
                    e,
                    &format!("it selects {p}, which is not a single location (a slice?)"),
                ))),
            })
            .collect()
    }

    fn pod_spec(&mut self, object: &Value, edit: &PodSpecEdit<'_>) -> Result<Value, Refusal> {
        self.check_definition()?;
        let def = self.def;
        let Some(index) = def.components.iter().position(|c| c.name == edit.component) else {
            let names: Vec<&str> = def.components.iter().map(|c| c.name.as_str()).collect();
            return Err(Box::new(
                Diagnostic::error(
                    codes::EDIT_UNKNOWN_COMPONENT,
                    format!("the definition has no component '{}'", edit.component),
                )
                .with_help(format!("components: {}", names.join(", "))),
            ));
        };
        if !edit.merge.is_object() {
            return Err(Box::new(
                Diagnostic::error(
                    codes::EDIT_INVALID_MERGE_PATCH,
                    "the merge patch must be an object (a pod spec is one)",
                )
                .with_help(
                    "e.g. {\"containers\": [{\"name\": \"main\", \"image\": \"repo/image:2\"}]}",
                ),
            ));
        }
        let plan = &def.components[index];
        let spec = def.writes.specs.get(index).unwrap_or(&SpecWrite::None);
        if matches!(spec, SpecWrite::None) {
            return Err(Box::new(Diagnostic::error(
                codes::EDIT_NO_POD_SPEC,
                format!(
                    "component '{}' has no specDefinition: it has no pod spec to edit",
                    plan.name
                ),
            )));
        }
        let before = self.read(index, object)?;
        let targets: Vec<usize> = match edit.instance {
            None => (0..before.len()).collect(),
            Some(id) => match before.iter().position(|i| i.id.as_deref() == Some(id)) {
                Some(i) => vec![i],
                None => {
                    let ids: Vec<&str> = before.iter().filter_map(|i| i.id.as_deref()).collect();
                    let help = if ids.is_empty() {
                        format!(
                            "'{}' has a single instance: leave the instance out",
                            plan.name
                        )
                    } else {
                        format!("instances: {}", ids.join(", "))
                    };
                    return Err(Box::new(
                        Diagnostic::error(
                            codes::EDIT_UNKNOWN_INSTANCE,
                            format!(
                                "component '{}' has no instance '{id}' in this object",
                                plan.name
                            ),
                        )
                        .in_object()
                        .with_help(help),
                    ));
                }
            },
        };

        // What each instance's pod data should read after the edit.
        let mut want: Vec<Option<Value>> =
            before.iter().map(|i| pod_value(i.pod.as_ref())).collect();
        let mut doc = object.clone();
        match spec {
            SpecWrite::None => {}
            SpecWrite::Template(path) | SpecWrite::PodSpec(path) => {
                let template = matches!(spec, SpecWrite::Template(_));
                let locations = self.locations(path, object)?;
                count_check(&locations, before.len(), path, &plan.name)?;
                for &t in &targets {
                    let Some(current) = want.get_mut(t).and_then(Option::as_mut) else {
                        continue;
                    };
                    let mut location = locations[t].clone();
                    let mut spec_value = if template {
                        location.push(Step::Key("spec".into()));
                        current
                            .get("spec")
                            .cloned()
                            .unwrap_or(Value::Object(Default::default()))
                    } else {
                        current.clone()
                    };
                    let old = spec_value.clone();
                    patch::merge_patch(&mut spec_value, edit.merge);
                    if spec_value == old {
                        continue;
                    }
                    write(&mut doc, &location, spec_value.clone())?;
                    if template {
                        patch::set(current, &[Step::Key("spec".into())], spec_value).ok();
                    } else {
                        *current = spec_value;
                    }
                }
            }
            SpecWrite::Fragmented(parts) => {
                // Locations of a fragment are computed when a change needs them: a fragment
                // that is not writable only stops edits that change it.
                let mut columns: Vec<Option<Vec<Vec<Step>>>> = vec![None; parts.len()];
                for &t in &targets {
                    let Some(current) = want.get_mut(t).and_then(Option::as_mut) else {
                        continue;
                    };
                    let old = current.clone();
                    patch::merge_patch(current, edit.merge);
                    let (Value::Object(old_fields), Value::Object(new_fields)) = (&old, &*current)
                    else {
                        continue;
                    };
                    if let Some(field) = new_fields
                        .keys()
                        .find(|k| !parts.iter().any(|(f, _)| f == k))
                    {
                        let known: Vec<&str> = parts.iter().map(|(f, _)| *f).collect();
                        return Err(Box::new(
                            Diagnostic::error(
                                codes::EDIT_NOT_REPRESENTABLE,
                                format!("component '{}' is fragmented and its definition has no path for '{field}'", plan.name),
                            )
                            .with_help(format!("a fragmented pod spec can change only the fields its definition reads: {}", known.join(", "))),
                        ));
                    }
                    for ((field, path), column) in parts.iter().zip(columns.iter_mut()) {
                        let (from, to) = (old_fields.get(*field), new_fields.get(*field));
                        if from == to {
                            continue;
                        }
                        let locations = match column {
                            Some(locations) => locations,
                            None => column.insert(self.locations(path, object)?),
                        };
                        let Some(location) = locations.get(t) else {
                            return Err(Box::new(
                                Diagnostic::error(
                                    codes::EDIT_NOT_REPRESENTABLE,
                                    format!(
                                        "{}: '{}' selects no location for instance {} of '{}', so '{field}' cannot be written",
                                        path.expr.path, path.expr.source, t, plan.name
                                    ),
                                )
                                .with_path(path.expr.path.clone())
                                .with_range(path.expr.range),
                            ));
                        };
                        match to {
                            Some(value) => write(&mut doc, location, value.clone())?,
                            None => remove(&mut doc, location),
                        }
                    }
                }
            }
        }

        // Read the result back: the structure must be the same and every instance must read
        // what the merge asked for (the other instances what they read before).
        let after = self.read(index, &doc)?;
        let ids = |v: &[ExtractedInstance]| v.iter().map(|i| i.id.clone()).collect::<Vec<_>>();
        if ids(&after) != ids(&before) {
            return Err(Box::new(structure_changed(
                "the component's instances differ",
            )));
        }
        for (i, inst) in after.iter().enumerate() {
            let got = pod_value(inst.pod.as_ref());
            let wanted = &want[i];
            let old = pod_value(before[i].pod.as_ref());
            if !reads_as_wanted(
                got.as_ref(),
                wanted.as_ref(),
                old.as_ref(),
                targets.contains(&i),
                spec,
            ) {
                let label = inst
                    .id
                    .as_deref()
                    .map_or_else(|| plan.name.clone(), |id| format!("{}[{id}]", plan.name));
                return Err(Box::new(
                    Diagnostic::error(
                        codes::EDIT_NOT_REPRESENTABLE,
                        format!("after writing, the pod spec of {label} does not read as the merge patch asks (the definition's paths overlap or reach other instances)"),
                    )
                    .with_help("edit each instance on its own, or change fields whose paths do not overlap"),
                ));
            }
        }
        let (shape_before, shape_after) = (
            structure(&def.resolve(object)),
            structure(&def.resolve(&doc)),
        );
        if let Some(difference) = first_difference(&shape_before, &shape_after) {
            return Err(Box::new(structure_changed(&difference)));
        }
        Ok(doc)
    }

    /// Reads one component's instances; a component that cannot be read cannot be edited.
    fn read(&mut self, index: usize, object: &Value) -> Result<Vec<ExtractedInstance>, Refusal> {
        let input = Input::borrowed(object);
        let mut diagnostics = Vec::new();
        let mut ev = Evaluator {
            exprs: &self.def.exprs,
            input: &input,
            diagnostics: &mut diagnostics,
        };
        let instances = crate::instances::extract(&self.def.components[index], &mut ev);
        match diagnostics.iter().position(Diagnostic::is_error) {
            Some(i) => Err(Box::new(diagnostics.swap_remove(i))),
            None => instances.ok_or_else(|| {
                Box::new(Diagnostic::error(
                    codes::EDIT_WRITE_FAILED,
                    format!(
                        "the instances of component {} could not be read",
                        self.def.components[index].name
                    ),
                ))
            }),
        }
    }
}

fn pod_value(pod: Option<&PodData>) -> Option<Value> {
    pod.and_then(|p| match p {
        PodData::Template(v) | PodData::PodSpec(v) | PodData::Fragmented(v) => Some(v.clone()),
        PodData::Unreadable => None,
    })
}

/// Whether an instance's pod data read back after the edit is acceptable. Targets must read
/// what the merge asked for; in a fragmented spec a field the merge did not change may follow
/// a field that overlaps it (`image` inside `container`). Other instances must not change.
fn reads_as_wanted(
    got: Option<&Value>,
    wanted: Option<&Value>,
    old: Option<&Value>,
    target: bool,
    spec: &SpecWrite,
) -> bool {
    if !target {
        return got == old;
    }
    if got == wanted {
        return true;
    }
    let (SpecWrite::Fragmented(parts), Some(got), Some(wanted), Some(old)) =
        (spec, got, wanted, old)
    else {
        return false;
    };
    parts.iter().all(|(field, _)| {
        let (g, w, o) = (got.get(*field), wanted.get(*field), old.get(*field));
        g == w || w == o
    })
}

fn count_check(
    locations: &[Vec<Step>],
    count: usize,
    path: &WritePath,
    component: &str,
) -> Result<(), Refusal> {
    if locations.len() == count {
        return Ok(());
    }
    Err(Box::new(
        Diagnostic::error(
            codes::INSTANCE_COUNT_MISMATCH,
            format!(
                "{component}: instance ids count ({count}) does not match the locations '{}' selects ({})",
                path.expr.source,
                locations.len()
            ),
        )
        .with_path(path.expr.path.clone())
        .with_range(path.expr.range),
    ))
}

fn not_writable(e: &crate::plan::CompiledExpr, why: &str) -> Diagnostic {
    Diagnostic::error(
        codes::PATH_NOT_WRITABLE,
        format!("'{}' is not writable: {why}", e.source),
    )
    .with_path(e.path.clone())
    .with_range(e.range)
    .with_help("edits write through paths such as `.spec.x`, `.spec.list[]`, `.spec.list[] | select(.name == \"main\")`")
}

fn structure_changed(what: &str) -> Diagnostic {
    Diagnostic::error(
        codes::EDIT_STRUCTURE_CHANGED,
        format!("the edit would change the workload's structure ({what}): refused"),
    )
    .in_object()
    .with_help("a pod spec edit may not add, remove or rename instances or change replicas (editing a component the object does not have would create it); change those in the object itself")
}

fn write(doc: &mut Value, location: &[Step], value: Value) -> Result<(), Refusal> {
    patch::set(doc, location, value).map_err(|why| {
        Box::new(
            Diagnostic::error(
                codes::EDIT_WRITE_FAILED,
                format!("cannot write at {}: {why}", crate::path::pointer(location)),
            )
            .in_object()
            .with_path(crate::path::pointer(location)),
        )
    })
}

/// Removes the member at `location` (a merge patch `null`); an array element is set to null,
/// which keeps the other instances' positions.
fn remove(doc: &mut Value, location: &[Step]) {
    let Some((last, parent)) = location.split_last() else {
        *doc = Value::Null;
        return;
    };
    let parent = parent.to_vec();
    let mut current = &mut *doc;
    for step in &parent {
        let next = match (step, current) {
            (Step::Key(k), Value::Object(o)) => o.get_mut(k),
            (Step::Index(i), Value::Array(a)) => {
                usize::try_from(*i).ok().and_then(|i| a.get_mut(i))
            }
            _ => None,
        };
        match next {
            Some(n) => current = n,
            None => return,
        }
    }
    match (last, current) {
        (Step::Key(k), Value::Object(o)) => {
            o.remove(k);
        }
        (Step::Index(i), Value::Array(a)) => {
            if let Some(v) = usize::try_from(*i).ok().and_then(|i| a.get_mut(i)) {
                *v = Value::Null;
            }
        }
        _ => {}
    }
}

/// The workload's structure as lines: every component and instance with its replicas.
fn structure(view: &View) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(root) = &view.root {
        structure_of(root, "", &mut lines);
    }
    lines
}

fn structure_of(c: &Component, parent: &str, lines: &mut Vec<String>) {
    let path = if parent.is_empty() {
        c.name.clone()
    } else {
        format!("{parent}/{}", c.name)
    };
    for inst in &c.instances {
        let label = match &inst.id {
            Some(id) => format!("{path}[{id}]"),
            None => path.clone(),
        };
        let r = &inst.replicas;
        let read = |v: Option<i64>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
        lines.push(format!(
            "{label} with {} replicas (read {}, min {}, max {})",
            r.desired,
            read(r.replicas),
            read(r.min),
            read(r.max)
        ));
    }
    // Children are the same under every instance: walk them once.
    if let Some(first) = c.instances.first() {
        for child in &first.children {
            structure_of(child, &path, lines);
        }
    }
}

fn first_difference(before: &[String], after: &[String]) -> Option<String> {
    if before == after {
        return None;
    }
    let i = before.iter().zip(after).take_while(|(a, b)| a == b).count();
    Some(match (before.get(i), after.get(i)) {
        (Some(b), Some(a)) => format!("{b} becomes {a}"),
        (Some(b), None) => format!("{b} disappears"),
        (None, Some(a)) => format!("{a} appears"),
        (None, None) => "the structure differs".to_owned(),
    })
}

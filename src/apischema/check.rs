//! Checking a definition against the API schemas of the type it describes.
//!
//! Every path and expression of the definition is followed through the schema
//! ([`super::jq::follow`]) from the object's root, or from the Pod's for the paths read from
//! pods (selectors, gang keys and filters): fields the schema lacks, steps into the wrong kind
//! of value, and string literals outside an enum are errors located at the field in the
//! definition text. What a path must lead to is then checked: a pod template, a pod spec, an
//! integer replica count, a list of conditions with the named fields, a phase in the field's
//! enum, an action's value of the field's type. Against several schemas (the versions of a CRD,
//! or the CRDs of several operator releases) each finding says where it holds, and
//! [`CheckReport::paths`] lists every field that exists in some of them only.

use std::collections::BTreeMap;

use super::jq::{follow, Finding, FindingKind, Followed, Val};
use super::{describe_resolved, types, Role, SchemaSet, TypeEntry};
use crate::compile::expression_start;
use crate::definition::{self, Definition, Expr, Language};
use crate::diagnostic::{codes, Diagnostic, TextRange};

/// Which schema entries to check against.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Check against every version of the type in the set, not only the definition's.
    pub all_versions: bool,
}

/// One schema a definition was checked against.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Checked {
    /// How findings name it: the version, with the source when several sources were given.
    pub label: String,
    /// API group.
    pub group: String,
    /// Version.
    pub version: String,
    /// Kind.
    pub kind: String,
    /// The label of the text it came from.
    pub source: String,
}

/// A field the definition reads that exists in some of the checked schemas only.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathPresence {
    /// The field (`.spec.replicatedJobs[].template`).
    pub field: String,
    /// The definition field whose expression reads it.
    pub definition_path: String,
    /// Byte range in the definition text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<TextRange>,
    /// Labels of the schemas that have it.
    pub present: Vec<String>,
    /// Labels of the schemas that do not.
    pub missing: Vec<String>,
}

/// What checking a definition against schemas found.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
    /// The findings, located in the definition text, in text order.
    pub diagnostics: Vec<Diagnostic>,
    /// The schemas of the definition's type it was checked against.
    pub checked: Vec<Checked>,
    /// The Pod schema the pod-side paths were checked against, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pod_schema: Option<Checked>,
    /// Fields present in some checked schemas only (several schemas checked).
    pub paths: Vec<PathPresence>,
    /// Every field the definition's paths read from the object, as the first schema checked
    /// says, once per place in the text.
    pub reads: Vec<FieldRead>,
}

impl CheckReport {
    /// True when neither the schemas' own problems nor the findings hold an error.
    pub fn valid_with(&self, schema_problems: &[Diagnostic]) -> bool {
        !schema_problems
            .iter()
            .chain(&self.diagnostics)
            .any(Diagnostic::is_error)
    }
}

/// One field a path reads, where it is written, and what the schema says it is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldRead {
    /// The field (`.spec.replicatedJobs[].name`).
    pub field: String,
    /// Byte range of its name in the definition text.
    pub range: TextRange,
    /// What the schema has there (`an integer`, `a pod template`, ...), or `None` when the
    /// schema does not have it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema_type: Option<String>,
    /// The schema names the field (not only allows any field there).
    pub declared: bool,
}

/// What a path must lead to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Anything,
    Template,
    PodSpec,
    Integer,
    /// An id or a label value: a string or a number.
    Scalar,
    String,
    Object,
    Array,
}

impl Expect {
    fn allows(self, r: &super::Resolved) -> bool {
        if r.open || r.types == 0 && r.role == Role::Plain {
            return true;
        }
        let t = r.types;
        match self {
            Expect::Anything => true,
            Expect::Template => r.role == Role::PodTemplateSpec,
            Expect::PodSpec => r.role == Role::PodSpec,
            Expect::Integer => r.int_or_string || t & (types::INTEGER | types::NUMBER) != 0,
            Expect::Scalar => {
                t & (types::STRING | types::INTEGER | types::NUMBER | types::BOOLEAN) != 0
            }
            Expect::String => t & types::STRING != 0,
            Expect::Object => t & types::OBJECT != 0,
            Expect::Array => t & types::ARRAY != 0,
        }
    }

    fn wanted(self) -> &'static str {
        match self {
            Expect::Anything => "anything",
            Expect::Template => "a pod template (metadata and spec)",
            Expect::PodSpec => "a pod spec",
            Expect::Integer => "an integer",
            Expect::Scalar => "a string or a number",
            Expect::String => "a string",
            Expect::Object => "an object",
            Expect::Array => "an array",
        }
    }
}

/// What a path is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Object,
    Pod,
}

/// One path or expression of the definition to check.
struct Item<'d> {
    expr: &'d Expr,
    target: Target,
    expect: Expect,
    /// What the field is called in messages (`replicasPath`).
    what: &'static str,
}

fn items(def: &Definition) -> Vec<Item<'_>> {
    let mut list: Vec<Item<'_>> = Vec::new();
    for c in def.components() {
        push(
            &mut list,
            &c.instance_id_path,
            Target::Object,
            Expect::Scalar,
            "instanceIdPath",
        );
        if let Some(s) = &c.spec_definition {
            push(
                &mut list,
                &s.pod_template_spec_path,
                Target::Object,
                Expect::Template,
                "podTemplateSpecPath",
            );
            push(
                &mut list,
                &s.pod_spec_path,
                Target::Object,
                Expect::PodSpec,
                "podSpecPath",
            );
            push(
                &mut list,
                &s.metadata_path,
                Target::Object,
                Expect::Object,
                "metadataPath",
            );
            if let Some(f) = &s.fragmented {
                push(
                    &mut list,
                    &f.scheduler_name_path,
                    Target::Object,
                    Expect::String,
                    "schedulerNamePath",
                );
                push(
                    &mut list,
                    &f.labels_path,
                    Target::Object,
                    Expect::Object,
                    "labelsPath",
                );
                push(
                    &mut list,
                    &f.annotations_path,
                    Target::Object,
                    Expect::Object,
                    "annotationsPath",
                );
                push(
                    &mut list,
                    &f.resources_path,
                    Target::Object,
                    Expect::Object,
                    "resourcesPath",
                );
                push(
                    &mut list,
                    &f.resource_claims_path,
                    Target::Object,
                    Expect::Array,
                    "resourceClaimsPath",
                );
                push(
                    &mut list,
                    &f.pod_affinity_path,
                    Target::Object,
                    Expect::Object,
                    "podAffinityPath",
                );
                push(
                    &mut list,
                    &f.node_affinity_path,
                    Target::Object,
                    Expect::Object,
                    "nodeAffinityPath",
                );
                push(
                    &mut list,
                    &f.containers_path,
                    Target::Object,
                    Expect::Array,
                    "containersPath",
                );
                push(
                    &mut list,
                    &f.container_path,
                    Target::Object,
                    Expect::Object,
                    "containerPath",
                );
                push(
                    &mut list,
                    &f.priority_class_name_path,
                    Target::Object,
                    Expect::String,
                    "priorityClassNamePath",
                );
                push(
                    &mut list,
                    &f.image_path,
                    Target::Object,
                    Expect::String,
                    "imagePath",
                );
            }
        }
        if let Some(s) = &c.scale_definition {
            push(
                &mut list,
                &s.replicas_path,
                Target::Object,
                Expect::Integer,
                "replicasPath",
            );
            push(
                &mut list,
                &s.min_replicas_path,
                Target::Object,
                Expect::Integer,
                "minReplicasPath",
            );
            push(
                &mut list,
                &s.max_replicas_path,
                Target::Object,
                Expect::Integer,
                "maxReplicasPath",
            );
        }
        if let Some(s) = &c.suspend_definition {
            for a in s.suspend_actions.iter().chain(&s.resume_actions) {
                push(&mut list, &a.path, Target::Object, Expect::Anything, "path");
            }
        }
        if let Some(sel) = &c.pod_selector {
            if let Some(t) = &sel.component_type_selector {
                push(
                    &mut list,
                    &t.key_path,
                    Target::Pod,
                    Expect::Scalar,
                    "keyPath",
                );
            }
            if let Some(i) = &sel.component_instance_selector {
                push(&mut list, &i.id_path, Target::Pod, Expect::Scalar, "idPath");
            }
            if let Some(r) = &sel.replica_selector {
                push(
                    &mut list,
                    &r.key_path,
                    Target::Pod,
                    Expect::Scalar,
                    "keyPath",
                );
            }
        }
        if let Some(st) = &c.status_definition {
            if let Some(p) = &st.phase_definition {
                push(
                    &mut list,
                    &p.path,
                    Target::Object,
                    Expect::Scalar,
                    "phaseDefinition.path",
                );
            }
            if let Some(cd) = &st.conditions_definition {
                push(
                    &mut list,
                    &cd.path,
                    Target::Object,
                    Expect::Array,
                    "conditionsDefinition.path",
                );
            }
            for mapping in &st.status_mappings {
                for m in &mapping.matchers {
                    if let Some(b) = m
                        .by_expression
                        .as_ref()
                        .filter(|b| b.language == Language::Jq)
                    {
                        push(
                            &mut list,
                            &b.expression,
                            Target::Object,
                            Expect::Anything,
                            "expression",
                        );
                    }
                }
            }
        }
    }
    if let Some(g) = def
        .instructions
        .as_ref()
        .and_then(|i| i.gang_scheduling.as_ref())
    {
        for group in &g.pod_groups {
            for member in &group.members {
                for e in member.group_by_key_paths.iter().chain(&member.filters) {
                    if !e.value.trim().is_empty() {
                        list.push(Item {
                            expr: e,
                            target: Target::Pod,
                            expect: Expect::Anything,
                            what: "groupByKeyPaths",
                        });
                    }
                }
            }
        }
    }
    list
}

fn push<'d>(
    list: &mut Vec<Item<'d>>,
    e: &'d Option<Expr>,
    target: Target,
    expect: Expect,
    what: &'static str,
) {
    if let Some(e) = e.as_ref().filter(|e| !e.value.trim().is_empty()) {
        list.push(Item {
            expr: e,
            target,
            expect,
            what,
        });
    }
}

/// One finding before the variants are merged: (code, severity is error?, range, message, help).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Raw {
    start: u32,
    end: u32,
    code: &'static str,
    message: String,
    help: Option<String>,
    path: String,
    info: bool,
}

/// Checks the definition written in `text` against the schemas of its root kind in `set`.
/// Problems of the definition itself (syntax, format) are not repeated here: compiling it
/// reports them.
pub fn check_definition(text: &str, set: &SchemaSet, options: &CheckOptions) -> CheckReport {
    let mut report = CheckReport::default();
    let Ok(node) = crate::yaml::parse_single(text) else {
        return report;
    };
    let (def, _) = definition::read_definition(&node);
    let Some(root) = def.components().next() else {
        return report;
    };
    let get = |s: &Option<definition::Spanned<String>>| {
        s.as_ref().map(|s| s.value.clone()).unwrap_or_default()
    };
    let Some(gvk) = root.kind.as_ref() else {
        return report;
    };
    let (group, version, kind) = (get(&gvk.group), get(&gvk.version), get(&gvk.kind));
    let all = set.find(&group, &kind);
    let at = gvk
        .kind
        .as_ref()
        .map(|k| k.range)
        .unwrap_or(gvk.location.range);
    if all.is_empty() {
        let known: Vec<String> = set
            .entries()
            .iter()
            .filter(|e| e.kind != "Pod" || !e.group.is_empty())
            .map(|e| format!("{} {}", e.api_version(), e.kind))
            .collect();
        let mut d = Diagnostic::warning(
            codes::SCHEMA_NOT_FOUND,
            format!("no schema given for {kind} in group \"{group}\""),
        )
        .with_range(at)
        .with_path(gvk.location.path.clone());
        if !known.is_empty() && known.len() <= 20 {
            d = d.with_help(format!("the schemas given are for: {}", known.join(", ")));
        }
        report.diagnostics.push(d);
        return report;
    }
    let chosen: Vec<&TypeEntry> = if options.all_versions {
        all.clone()
    } else {
        all.iter()
            .copied()
            .filter(|e| e.version == version)
            .collect()
    };
    if chosen.is_empty() {
        let versions: Vec<&str> = all.iter().map(|e| e.version.as_str()).collect();
        let at = gvk.version.as_ref().map(|v| v.range).unwrap_or(at);
        report.diagnostics.push(
            Diagnostic::warning(
                codes::SCHEMA_NOT_FOUND,
                format!("the schema of {kind} has no version {version}"),
            )
            .with_range(at)
            .with_path(gvk.location.path.clone())
            .with_help(format!("its versions are: {}", versions.join(", "))),
        );
        return report;
    }
    let one_source = chosen.iter().all(|e| e.source == chosen[0].source);
    let label = |e: &TypeEntry| {
        if one_source {
            e.version.clone()
        } else {
            format!("{} ({})", e.version, e.source)
        }
    };
    let pod = set
        .entries()
        .iter()
        .find(|e| e.group.is_empty() && e.kind == "Pod" && e.version == "v1");
    report.pod_schema = pod.map(|e| checked(e, "v1".to_owned()));
    let items = items(&def);
    let mut per_variant: Vec<Vec<Raw>> = Vec::new();
    // field path → (definition path, range, per variant: exists)
    let mut accesses: BTreeMap<(String, String), (Option<TextRange>, Vec<bool>)> = BTreeMap::new();
    for (v, entry) in chosen.iter().enumerate() {
        report.checked.push(checked(entry, label(entry)));
        let mut raws = Vec::new();
        for item in &items {
            let start_node = match item.target {
                Target::Object => Some(entry.root),
                Target::Pod => pod.map(|p| p.root),
            };
            let Some(start_node) = start_node else {
                continue;
            };
            let followed = follow(
                set,
                &item.expr.value,
                vec![Val::At(start_node, String::new())],
            );
            let start = expression_start(text, item.expr);
            let place = |r: Option<(usize, usize)>| match (r, start) {
                (Some((s, e)), Some(base)) => TextRange::new(s, e).shift(base),
                _ => item.expr.range,
            };
            raws.extend(findings(&followed, item, &place));
            raws.extend(expectation(set, &followed, item));
            if item.target == Target::Object {
                if v == 0 {
                    report.reads.extend(reads(&followed, &place));
                }
                for a in &followed.accesses {
                    let key = (a.path.clone(), item.expr.path.clone());
                    let e = accesses
                        .entry(key)
                        .or_insert_with(|| (Some(place(a.range)), vec![false; chosen.len()]));
                    if let Some(slot) = e.1.get_mut(v) {
                        *slot |= a.exists;
                    }
                }
            }
        }
        raws.extend(status_fields(set, entry, &def));
        raws.extend(actions(set, entry, &def));
        raws.sort();
        raws.dedup();
        per_variant.push(raws);
    }
    let labels: Vec<String> = report.checked.iter().map(|c| c.label.clone()).collect();
    let mut merged: BTreeMap<Raw, Vec<usize>> = BTreeMap::new();
    for (v, raws) in per_variant.into_iter().enumerate() {
        for r in raws {
            merged.entry(r).or_default().push(v);
        }
    }
    for (raw, variants) in merged {
        let mut message = raw.message;
        if labels.len() > 1 && variants.len() < labels.len() {
            let in_: Vec<&str> = variants
                .iter()
                .filter_map(|v| labels.get(*v))
                .map(String::as_str)
                .collect();
            let not: Vec<&str> = (0..labels.len())
                .filter(|v| !variants.contains(v))
                .filter_map(|v| labels.get(v))
                .map(String::as_str)
                .collect();
            message = format!(
                "{message} (with {}; not with {})",
                in_.join(", "),
                not.join(", ")
            );
        } else if labels.len() > 1 {
            message = format!("{message} (with every schema checked)");
        }
        let mut d = if raw.info {
            Diagnostic::info(raw.code, message)
        } else {
            Diagnostic::error(raw.code, message)
        };
        d = d.with_path(raw.path).with_range(TextRange {
            start: raw.start,
            end: raw.end,
        });
        if let Some(h) = raw.help {
            d = d.with_help(h);
        }
        report.diagnostics.push(d);
    }
    crate::compile::sort_diagnostics(&mut report.diagnostics);
    report.reads.sort_by_key(|r| (r.range.start, r.range.end));
    report.reads.dedup_by_key(|r| (r.range.start, r.range.end));
    if labels.len() > 1 {
        for ((field, definition_path), (range, exists)) in accesses {
            if exists.iter().all(|e| *e) || exists.iter().all(|e| !*e) {
                continue;
            }
            let pick = |want: bool| {
                exists
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| **e == want)
                    .filter_map(|(i, _)| labels.get(i).cloned())
                    .collect()
            };
            report.paths.push(PathPresence {
                field,
                definition_path,
                range,
                present: pick(true),
                missing: pick(false),
            });
        }
    }
    report
}

fn reads(
    followed: &Followed,
    place: &dyn Fn(Option<(usize, usize)>) -> TextRange,
) -> Vec<FieldRead> {
    followed
        .accesses
        .iter()
        .filter(|a| a.range.is_some())
        .map(|a| FieldRead {
            field: a.path.clone(),
            range: place(a.range),
            schema_type: a.kind.clone(),
            declared: a.declared,
        })
        .collect()
}

fn checked(e: &TypeEntry, label: String) -> Checked {
    Checked {
        label,
        group: e.group.clone(),
        version: e.version.clone(),
        kind: e.kind.clone(),
        source: e.source.clone(),
    }
}

fn findings(
    followed: &Followed,
    item: &Item<'_>,
    place: &dyn Fn(Option<(usize, usize)>) -> TextRange,
) -> Vec<Raw> {
    let mut out: Vec<Raw> = followed
        .findings
        .iter()
        .map(|f: &Finding| {
            let range = place(f.range);
            let code = match f.kind {
                FindingKind::UnknownField => codes::SCHEMA_UNKNOWN_FIELD,
                FindingKind::WrongKind => codes::SCHEMA_WRONG_KIND,
                FindingKind::NotInEnum => codes::SCHEMA_NOT_IN_ENUM,
            };
            Raw {
                start: range.start,
                end: range.end,
                code,
                message: f.message.clone(),
                help: f.help.clone(),
                path: item.expr.path.clone(),
                info: false,
            }
        })
        .collect();
    if let Some(why) = &followed.not_followed {
        let target = match item.target {
            Target::Object => "the object's schema",
            Target::Pod => "the Pod schema",
        };
        out.push(Raw {
            start: item.expr.range.start,
            end: item.expr.range.end,
            code: codes::SCHEMA_NOT_FOLLOWED,
            message: format!(
                "{}: part of this expression is not checked against {target}: {why}",
                item.what
            ),
            help: None,
            path: item.expr.path.clone(),
            info: true,
        });
    }
    out
}

/// What the path yields must be what the field reads.
fn expectation(set: &SchemaSet, followed: &Followed, item: &Item<'_>) -> Vec<Raw> {
    let mut out = Vec::new();
    for v in &followed.outputs {
        let Val::At(node, path) = v else { continue };
        let r = set.resolve(*node);
        if item.expect.allows(&r) {
            continue;
        }
        let shown = if path.is_empty() { "." } else { path.as_str() };
        let help = match (item.expect, r.role) {
            (Expect::Template, Role::PodSpec) => {
                Some("this is a pod spec: read it with podSpecPath".to_owned())
            }
            (Expect::PodSpec, Role::PodTemplateSpec) => Some(
                "this is a pod template (metadata and spec): read it with podTemplateSpecPath, \
                 or point podSpecPath at its .spec"
                    .to_owned(),
            ),
            (Expect::Template | Expect::PodSpec, _) => template_inside(set, *node, path),
            _ => None,
        };
        out.push(Raw {
            start: item.expr.range.start,
            end: item.expr.range.end,
            code: codes::SCHEMA_WRONG_KIND,
            message: format!(
                "{}: {shown} is {}, not {}",
                item.what,
                describe_resolved(&r),
                item.expect.wanted()
            ),
            help,
            path: item.expr.path.clone(),
            info: false,
        });
    }
    out
}

/// A pod template or pod spec one or two fields below a node, as a hint.
fn template_inside(set: &SchemaSet, node: super::NodeId, path: &str) -> Option<String> {
    for name in set.field_names(node) {
        let Some(child) = set.field(node, name) else {
            continue;
        };
        let role = set.resolve(child).role;
        if role != Role::Plain {
            let what = if role == Role::PodTemplateSpec {
                "a pod template"
            } else {
                "a pod spec"
            };
            return Some(format!("{path}.{name} is {what}"));
        }
    }
    None
}

/// `conditionsDefinition` field names must be fields of the conditions; `byPhase` values must
/// be values of the phase field's enum.
fn status_fields(set: &SchemaSet, entry: &TypeEntry, def: &Definition) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in def.components() {
        let Some(st) = &c.status_definition else {
            continue;
        };
        if let Some(cd) = &st.conditions_definition {
            if let Some(path) = cd.path.as_ref().filter(|p| !p.value.trim().is_empty()) {
                let followed = follow(set, &path.value, vec![Val::At(entry.root, String::new())]);
                for v in &followed.outputs {
                    let Val::At(node, at) = v else { continue };
                    let r = set.resolve(*node);
                    let Some(item) = r.items else { continue };
                    let ir = set.resolve(item);
                    if ir.open || ir.additional.is_some() {
                        continue;
                    }
                    let names = [
                        Some(("typeFieldName", cd.type_field_name.as_str())),
                        Some(("statusFieldName", cd.status_field_name.as_str())),
                        cd.reason_field_name
                            .as_deref()
                            .map(|n| ("reasonFieldName", n)),
                        cd.message_field_name
                            .as_deref()
                            .map(|n| ("messageFieldName", n)),
                    ];
                    for (what, name) in names.into_iter().flatten() {
                        if name.is_empty() || set.field(item, name).is_some() {
                            continue;
                        }
                        let known = set.field_names(item);
                        let help = crate::definition::read::closest(name, &known)
                            .map(|c| format!("did you mean \"{c}\"?"))
                            .or_else(|| Some(format!("its fields are: {}", known.join(", "))));
                        out.push(Raw {
                            start: cd.location.range.start,
                            end: cd.location.range.end,
                            code: codes::SCHEMA_UNKNOWN_FIELD,
                            message: format!(
                                "{what}: the conditions at {at} have no field \"{name}\""
                            ),
                            help,
                            path: cd.location.path.clone(),
                            info: false,
                        });
                    }
                }
            }
        }
        let Some(path) = st
            .phase_definition
            .as_ref()
            .and_then(|p| p.path.as_ref())
            .filter(|p| !p.value.trim().is_empty())
        else {
            continue;
        };
        let followed = follow(set, &path.value, vec![Val::At(entry.root, String::new())]);
        for v in &followed.outputs {
            let Val::At(node, at) = v else { continue };
            let r = set.resolve(*node);
            if r.enum_values.is_empty() || r.open {
                continue;
            }
            let known: Vec<&str> = r.enum_values.iter().map(String::as_str).collect();
            for mapping in &st.status_mappings {
                for m in &mapping.matchers {
                    let Some(phase) = &m.by_phase else { continue };
                    if known.contains(&phase.value.as_str()) {
                        continue;
                    }
                    let help = crate::definition::read::closest(&phase.value, &known)
                        .map(|c| format!("did you mean \"{c}\"?"))
                        .unwrap_or_else(|| format!("the values are: {}", known.join(", ")));
                    out.push(Raw {
                        start: phase.range.start,
                        end: phase.range.end,
                        code: codes::SCHEMA_NOT_IN_ENUM,
                        message: format!(
                            "byPhase \"{}\" is not one of the values of {at}",
                            phase.value
                        ),
                        help: Some(help),
                        path: phase.path.clone(),
                        info: false,
                    });
                }
            }
        }
    }
    out
}

/// Suspend and resume actions: the path exists (checked with the paths) and the value is of
/// the field's type (a boolean field for `true`/`false`), one of its enum values for a string.
fn actions(set: &SchemaSet, entry: &TypeEntry, def: &Definition) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in def.components() {
        let Some(s) = &c.suspend_definition else {
            continue;
        };
        for action in s.suspend_actions.iter().chain(&s.resume_actions) {
            let Some(path) = action.path.as_ref().filter(|p| !p.value.trim().is_empty()) else {
                continue;
            };
            let followed = follow(set, &path.value, vec![Val::At(entry.root, String::new())]);
            let Some(value) = &action.value else { continue };
            let Ok(json) = serde_json::from_str::<serde_json::Value>(&value.value) else {
                continue;
            };
            for v in &followed.outputs {
                let Val::At(node, at) = v else { continue };
                let r = set.resolve(*node);
                if r.open || r.types == 0 {
                    continue;
                }
                let (needs, what) = match &json {
                    serde_json::Value::Bool(_) => (types::BOOLEAN, "a boolean"),
                    serde_json::Value::String(_) => (types::STRING, "a string"),
                    serde_json::Value::Number(_) => (types::INTEGER | types::NUMBER, "a number"),
                    serde_json::Value::Object(_) => (types::OBJECT, "an object"),
                    serde_json::Value::Array(_) => (types::ARRAY, "an array"),
                    serde_json::Value::Null => continue,
                };
                if r.types & needs == 0 && !(r.int_or_string && needs != types::BOOLEAN) {
                    let help = if json.is_boolean() {
                        "a suspend or resume action that writes true or false must name a boolean \
                         field (such as .spec.suspend)"
                            .to_owned()
                    } else {
                        format!("write {} here", describe_resolved(&r))
                    };
                    out.push(Raw {
                        start: path.range.start,
                        end: path.range.end,
                        code: codes::SCHEMA_WRONG_KIND,
                        message: format!(
                            "the action writes {what} to {at}, which is {}",
                            describe_resolved(&r)
                        ),
                        help: Some(help),
                        path: path.path.clone(),
                        info: false,
                    });
                    continue;
                }
                if let serde_json::Value::String(s) = &json {
                    if !r.enum_values.is_empty() && !r.enum_values.contains(s) {
                        let known: Vec<&str> = r.enum_values.iter().map(String::as_str).collect();
                        out.push(Raw {
                            start: value.range.start,
                            end: value.range.end,
                            code: codes::SCHEMA_NOT_IN_ENUM,
                            message: format!("\"{s}\" is not one of the values of {at}"),
                            help: Some(format!("the values are: {}", known.join(", "))),
                            path: value.path.clone(),
                            info: false,
                        });
                    }
                }
            }
        }
    }
    out
}

//! Test cases for definitions: the case format of a definition test folder, read, run and
//! compared in one place.
//!
//! A definition test folder holds `definition.yaml` and `tests/*.yaml`. Each case file gives
//! an object (inline, or taken from another case of the folder with `objectFrom`), optionally
//! the objects related to it (`related:`, or an object that is a `kind: List` holding the
//! workload and its pods and owners) and an `expect:` block compared with the view. A case with
//! `action: suspend|resume` runs the definition's actions instead and compares the patch.
//!
//! [`run_case`] reads a case text, runs it with a compiled definition and returns every
//! comparison (passed or not, the expected and the actual value, the path and byte range where
//! the expectation was written) and, for a malformed case, diagnostics located in the case text
//! ([`Source::Case`]). A malformed expectation (an unknown key, a value of the wrong type) is a
//! diagnostic, never skipped: an expectation that is not checked would be a test that cannot
//! fail. No IO: the caller hands in the texts of the other case files `objectFrom` may name.

use serde::Serialize;
use serde_json::Value;

use crate::compile::CompiledDefinition;
use crate::diagnostic::{codes, Diagnostic, LineIndex, Severity, Source, TextRange};
use crate::path::{type_name, Step, Words};
use crate::view::{GvkView, View};
use crate::yaml::{self, Node};

/// What a case runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum CaseKind {
    /// Resolve the object and compare the view.
    View,
    /// Apply the definition's `suspendActions` and compare the patch.
    Suspend,
    /// Apply the definition's `resumeActions` and compare the patch.
    Resume,
}

/// One comparison of a case: an expected value against what the definition gave.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Expectation {
    /// Where it was written in the case, as a dotted path (`expect.components[0].gpus`).
    pub path: String,
    /// What was compared, in the view's terms (`component jobset/replicatedjob[workers]: gpus`).
    pub label: String,
    /// Whether the actual value equals the expected one.
    pub passed: bool,
    /// The value the case expects.
    pub expected: Value,
    /// The value the definition gave (`null` when there is none).
    pub actual: Value,
    /// More about a failure (the diagnostics' messages, the paths a tree has), when useful.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Byte range of the expected value in the case text (absent when the case was not text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<TextRange>,
}

/// The result of running one case.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseOutcome {
    /// The case's `description`, when given.
    pub description: Option<String>,
    /// What the case ran.
    pub kind: CaseKind,
    /// True when the case was read without errors and every expectation passed.
    pub passed: bool,
    /// Every comparison, in the order the case writes them.
    pub expectations: Vec<Expectation>,
    /// Problems in the case itself (source [`Source::Case`]): an error means it is malformed
    /// and was not run, or not completely.
    pub diagnostics: Vec<Diagnostic>,
}

impl CaseOutcome {
    /// True when a diagnostic is an error: the case is malformed.
    pub fn is_malformed(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The comparisons that failed.
    pub fn failures(&self) -> impl Iterator<Item = &Expectation> {
        self.expectations.iter().filter(|e| !e.passed)
    }
}

/// The comparisons of an `expect:` block against a view, and the problems in the block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Checked {
    /// Every comparison (paths relative to the block).
    pub expectations: Vec<Expectation>,
    /// Unknown keys and values of the wrong type (errors; paths relative to the block).
    pub diagnostics: Vec<Diagnostic>,
}

/// Top-level keys of a case.
const CASE_KEYS: &[&str] = &[
    "description",
    "action",
    "object",
    "objectFrom",
    "related",
    "expect",
];
/// `expect:` keys of a view case.
const VIEW_KEYS: &[&str] = &[
    "phases",
    "terminating",
    "statusPhase",
    "resources",
    "components",
    "pods",
    "groups",
    "info",
    "diagnostics",
];
/// `expect:` keys of an action case.
const ACTION_KEYS: &[&str] = &["patch", "diagnostics", "resultPhases"];
/// `expect.resources` keys: the view's `resources` fields.
const RESOURCE_KEYS: &[&str] = &[
    "gpus",
    "cpuMillis",
    "memoryBytes",
    "extended",
    "incomplete",
    "lowerBounds",
];
/// Keys of an `expect.components` entry.
const COMPONENT_KEYS: &[&str] = &[
    "path",
    "desired",
    "min",
    "max",
    "gpus",
    "cpuMillis",
    "memoryBytes",
    "podGpus",
    "podCpuMillis",
    "podMemoryBytes",
    "incomplete",
    "desiredIncomplete",
    "podIncomplete",
    "instances",
    "current",
    "ready",
    "podNames",
    "podItems",
];
/// Keys of a `podItems` entry.
const POD_ITEM_KEYS: &[&str] = &[
    "name",
    "phase",
    "ready",
    "terminating",
    "reason",
    "node",
    "replica",
    "gpus",
];

/// Reads a case text, runs it with `definition` and compares every expectation.
///
/// `case_file(name)` gives the text of another case file of the same folder, for `objectFrom`
/// (`None` when there is no such file). Never fails: a malformed case comes back with error
/// diagnostics located in its text and `passed: false`.
pub fn run_case(
    definition: &CompiledDefinition,
    text: &str,
    case_file: &dyn Fn(&str) -> Option<String>,
) -> CaseOutcome {
    let mut outcome = CaseOutcome {
        description: None,
        kind: CaseKind::View,
        passed: false,
        expectations: Vec::new(),
        diagnostics: Vec::new(),
    };
    let node = match yaml::parse_single(text) {
        Ok(node) => node,
        Err(problem) => {
            outcome.diagnostics.push(problem.in_case());
            return outcome;
        }
    };
    let mut checker = Checker::default();
    let root = definition.root_gvk();
    let case = read_case(&node, root.as_ref(), case_file, &mut checker);
    if let Some(case) = &case {
        outcome.description = case.description.clone();
        outcome.kind = case.kind;
    }
    if let (Some(case), false) = (&case, checker.has_errors()) {
        let expect_at = [key("expect")];
        match case.kind {
            CaseKind::View => {
                // Through the one manifest reading, as every front end resolves.
                let read = crate::object::ReadObjects {
                    objects: vec![(case.object.clone(), crate::diagnostic::TextRange::default())],
                    ..Default::default()
                };
                let view = definition.resolve_manifest(
                    read,
                    case.related.as_deref(),
                    Some(0),
                    crate::view::ResolveOptions::default(),
                );
                checker.check_view(&view, &case.expect, &expect_at);
            }
            CaseKind::Suspend | CaseKind::Resume => {
                checker.check_action(definition, case, &expect_at);
            }
        }
    }
    let checked = checker.finish(Some(&node));
    outcome.expectations = checked.expectations;
    outcome.diagnostics = checked.diagnostics;
    outcome.passed = !outcome.is_malformed() && outcome.expectations.iter().all(|e| e.passed);
    outcome
}

/// Compares a view with an `expect:` block (the keys of a view case). Paths are relative to
/// the block; there is no text, so no ranges.
pub fn check_view(view: &View, expect: &Value) -> Checked {
    let mut checker = Checker::default();
    checker.check_view(view, expect, &[]);
    checker.finish(None)
}

/// A case, read.
struct Case {
    description: Option<String>,
    kind: CaseKind,
    object: Value,
    related: Option<Vec<Value>>,
    expect: Value,
}

fn key(name: &str) -> Step {
    Step::Key(name.to_owned())
}

fn at(base: &[Step], more: &[Step]) -> Vec<Step> {
    base.iter().chain(more).cloned().collect()
}

/// `expect.components[0].gpus`.
fn dotted(path: &[Step]) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            Step::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
            Step::Each | Step::Items | Step::Values => out.push_str("[]"),
        }
    }
    out
}

/// Collects comparisons and problems with the paths they were written at; [`Checker::finish`]
/// locates them in the case text.
#[derive(Default)]
struct Checker {
    expectations: Vec<(Vec<Step>, Expectation)>,
    /// Problems, each with its path and whether it is about the key (not the value).
    problems: Vec<(Vec<Step>, bool, Diagnostic)>,
}

impl Checker {
    fn has_errors(&self) -> bool {
        self.problems.iter().any(|(_, _, d)| d.is_error())
    }

    fn problem(&mut self, path: Vec<Step>, code: &'static str, message: String) {
        let diagnostic = Diagnostic::error(code, message)
            .with_path(dotted(&path))
            .in_case();
        self.problems.push((path, false, diagnostic));
    }

    fn problem_with_help(
        &mut self,
        path: Vec<Step>,
        on_key: bool,
        code: &'static str,
        message: String,
        help: String,
    ) {
        let diagnostic = Diagnostic::error(code, message)
            .with_path(dotted(&path))
            .with_help(help)
            .in_case();
        self.problems.push((path, on_key, diagnostic));
    }

    /// The entries of a mapping at `path`; unknown keys and a value that is not a mapping are
    /// problems (`what` names it in messages).
    fn mapping<'v>(
        &mut self,
        value: &'v Value,
        path: &[Step],
        known: &[&str],
        what: &str,
    ) -> Option<&'v serde_json::Map<String, Value>> {
        let Some(map) = value.as_object() else {
            self.problem(
                path.to_vec(),
                codes::CASE_INVALID,
                format!(
                    "{what} must be a mapping, not {}",
                    type_name(value, Words::Yaml)
                ),
            );
            return None;
        };
        for k in map.keys() {
            if !known.contains(&k.as_str()) {
                self.problem_with_help(
                    at(path, &[key(k)]),
                    true,
                    codes::CASE_UNKNOWN_FIELD,
                    format!("unknown key `{k}` in {what}: it would never be checked"),
                    format!("known keys: {}", known.join(", ")),
                );
            }
        }
        Some(map)
    }

    fn compare(
        &mut self,
        path: Vec<Step>,
        label: String,
        expected: &Value,
        actual: Value,
        note: Option<String>,
    ) {
        let passed = *expected == actual;
        self.expectations.push((
            path.clone(),
            Expectation {
                path: dotted(&path),
                label,
                passed,
                expected: expected.clone(),
                actual,
                note: if passed { None } else { note },
                range: None,
            },
        ));
    }

    /// A comparison that failed for a reason other than a value (a component not found).
    fn fail(&mut self, path: Vec<Step>, label: String, expected: &Value, note: String) {
        self.expectations.push((
            path.clone(),
            Expectation {
                path: dotted(&path),
                label,
                passed: false,
                expected: expected.clone(),
                actual: Value::Null,
                note: Some(note),
                range: None,
            },
        ));
    }

    /// Locates every comparison and problem in the case text (when there is one).
    fn finish(self, root: Option<&Node>) -> Checked {
        let range_of = |path: &[Step], on_key: bool| {
            let root = root?;
            let node = if on_key { root.locate_key(path) } else { None };
            let node = node.or_else(|| root.locate(path));
            if let Some(node) = node {
                return Some((node.range, true));
            }
            // A key that is absent (a default) points at the closest written ancestor.
            (0..path.len())
                .rev()
                .find_map(|len| root.locate(&path[..len]))
                .map(|n| (n.range, false))
        };
        // Mappings are read with sorted keys: the text gives the order they were written in;
        // defaults (not written) come last. A few dozen at most: placed one by one, stably.
        let mut ordered: Vec<((bool, Option<u32>), Expectation)> = Vec::new();
        for (path, mut e) in self.expectations {
            let located = range_of(&path, false);
            e.range = located.map(|(range, _)| range);
            let order = (
                !located.is_some_and(|(_, written)| written),
                e.range.map(|r| r.start),
            );
            let at = ordered
                .iter()
                .position(|(o, _)| *o > order)
                .unwrap_or(ordered.len());
            ordered.insert(at, (order, e));
        }
        Checked {
            expectations: ordered.into_iter().map(|(_, e)| e).collect(),
            diagnostics: self
                .problems
                .into_iter()
                .map(|(path, on_key, d)| match range_of(&path, on_key) {
                    Some((range, _)) => d.with_range(range),
                    None => d,
                })
                .collect(),
        }
    }

    // --- view cases --------------------------------------------------------------------------

    fn check_view(&mut self, view: &View, expect: &Value, base: &[Step]) {
        let Some(expect) = self.mapping(expect, base, VIEW_KEYS, "expect") else {
            return;
        };
        let json = json_of(view);
        for (k, want) in expect {
            let path = at(base, &[key(k)]);
            match k.as_str() {
                "phases" => self.compare(path, "phases".into(), want, json["phases"].clone(), None),
                // Absent in the view means false.
                "terminating" => self.compare(
                    path,
                    "terminating".into(),
                    want,
                    Value::Bool(json["terminating"] == Value::Bool(true)),
                    None,
                ),
                "statusPhase" => self.compare(
                    path,
                    "status.phase".into(),
                    want,
                    json["status"]["phase"].clone(),
                    None,
                ),
                "resources" => {
                    let Some(resources) = self.mapping(want, &path, RESOURCE_KEYS, "resources")
                    else {
                        continue;
                    };
                    for (r, w) in resources {
                        let got = flag_or_value(&json["resources"], r);
                        self.compare(at(&path, &[key(r)]), format!("resources.{r}"), w, got, None);
                    }
                }
                "components" => self.check_components(&json, want, &path),
                // The summary's counts and names; the unplaced pods' items are the view's
                // detail, as the components' pods are (`podItems`).
                "pods" => {
                    let mut actual = json[k].clone();
                    if let Some(summary) = actual.as_object_mut() {
                        summary.remove("unplaced");
                    }
                    self.compare(path, k.clone(), want, actual, None)
                }
                // The minimums as read (`minAvailableText`) follow from the numbers: a case
                // states the numbers.
                "groups" => {
                    let mut actual = json[k].clone();
                    for group in actual.as_array_mut().into_iter().flatten() {
                        strip_min_text(group);
                        for sub in group
                            .get_mut("subGroups")
                            .and_then(Value::as_array_mut)
                            .into_iter()
                            .flatten()
                        {
                            strip_min_text(sub);
                        }
                    }
                    self.compare(path, k.clone(), want, actual, None)
                }
                "info" => {
                    // Notes about the object; the definition's own notes (e.g. a spec path that
                    // edits cannot write) belong to its validation, not to each case.
                    let got =
                        codes_of(view.diagnostics.iter().filter(|d| {
                            d.severity == Severity::Info && d.source == Source::Object
                        }));
                    let note =
                        messages(view.diagnostics.iter().filter(|d| {
                            d.severity == Severity::Info && d.source == Source::Object
                        }));
                    self.compare(path, "info diagnostics".into(), want, got, note);
                }
                "diagnostics" => {
                    let got = codes_of(
                        view.diagnostics
                            .iter()
                            .filter(|d| d.severity >= Severity::Warning),
                    );
                    let note = messages(view.diagnostics.iter());
                    self.compare(path, "diagnostics".into(), want, got, note);
                }
                _ => {}
            }
        }
    }

    fn check_components(&mut self, view: &Value, want: &Value, path: &[Step]) {
        let Some(entries) = want.as_array() else {
            self.problem(
                path.to_vec(),
                codes::CASE_INVALID,
                format!(
                    "components must be a list of {{path, ...}}, not {}",
                    type_name(want, Words::Yaml)
                ),
            );
            return;
        };
        for (i, entry) in entries.iter().enumerate() {
            let entry_at = at(path, &[Step::index(i)]);
            let Some(map) = self.mapping(entry, &entry_at, COMPONENT_KEYS, "a component entry")
            else {
                continue;
            };
            let Some(component_path) = map.get("path").and_then(Value::as_str) else {
                self.problem_with_help(
                    entry_at,
                    false,
                    codes::CASE_INVALID,
                    "a component entry needs `path` (a string)".into(),
                    "names from the root joined by `/`, an instance as `name[id]`: `jobset/replicatedjob[workers]`".into(),
                );
                continue;
            };
            let Some(found) = find(view, component_path) else {
                let paths = all_paths(view);
                self.fail(
                    at(&entry_at, &[key("path")]),
                    format!("component {component_path}"),
                    &Value::String(component_path.to_owned()),
                    if paths.is_empty() {
                        "no component or instance at this path; the view has no named components"
                            .to_owned()
                    } else {
                        format!(
                            "no component or instance at this path; the tree has: {}",
                            paths.join(", ")
                        )
                    },
                );
                continue;
            };
            self.check_component(component_path, &found, map, &entry_at);
        }
    }

    fn check_component(
        &mut self,
        name: &str,
        found: &Found<'_>,
        want: &serde_json::Map<String, Value>,
        entry_at: &[Step],
    ) {
        let json = found.json();
        let (replicas, resources, pod, live) = (
            &json["replicas"],
            &json["resources"],
            &json["podResources"],
            &json["pods"],
        );
        for (k, w) in want {
            let path = at(entry_at, &[key(k)]);
            let label = format!("component {name}: {k}");
            let got = match k.as_str() {
                "path" => continue,
                "desired" | "min" | "max" => replicas[k].clone(),
                "gpus" | "cpuMillis" | "memoryBytes" => resources[k].clone(),
                "podGpus" => pod["gpus"].clone(),
                "podCpuMillis" => pod["cpuMillis"].clone(),
                "podMemoryBytes" => pod["memoryBytes"].clone(),
                "incomplete" => flag_or_value(resources, "incomplete"),
                "desiredIncomplete" => flag_or_value(replicas, "incomplete"),
                "podIncomplete" => flag_or_value(pod, "incomplete"),
                "instances" => match found {
                    Found::Component(c) => Value::Array(
                        list(&c["instances"])
                            .iter()
                            .map(|i| i["id"].clone())
                            .collect(),
                    ),
                    Found::Instance(..) => {
                        self.fail(
                            path,
                            label,
                            w,
                            "this path names an instance; instances are listed on its component (drop the [id])".into(),
                        );
                        continue;
                    }
                },
                "current" | "ready" | "podNames" | "podItems" if live.is_null() => {
                    self.fail(
                        path,
                        label,
                        w,
                        "no pods in the view: give the case its pods (`related:`)".into(),
                    );
                    continue;
                }
                "current" | "ready" => live[k].clone(),
                "podNames" => Value::Array(
                    live["items"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|i| i["name"].clone())
                        .collect(),
                ),
                "podItems" => {
                    self.check_pod_items(name, live, w, &path);
                    continue;
                }
                _ => continue,
            };
            self.compare(path, label, w, got, None);
        }
    }

    /// `podItems`: each listed pod's given fields (`gpus` is its request's GPUs).
    fn check_pod_items(&mut self, name: &str, live: &Value, want: &Value, path: &[Step]) {
        let Some(entries) = want.as_array() else {
            self.problem(
                path.to_vec(),
                codes::CASE_INVALID,
                format!(
                    "podItems must be a list of {{name, ...}}, not {}",
                    type_name(want, Words::Yaml)
                ),
            );
            return;
        };
        let items = live["items"].as_array().cloned().unwrap_or_default();
        for (i, entry) in entries.iter().enumerate() {
            let entry_at = at(path, &[Step::index(i)]);
            let Some(map) = self.mapping(entry, &entry_at, POD_ITEM_KEYS, "a podItems entry")
            else {
                continue;
            };
            let Some(pod_name) = map.get("name").and_then(Value::as_str) else {
                self.problem(
                    entry_at,
                    codes::CASE_INVALID,
                    "a podItems entry needs `name` (a string)".into(),
                );
                continue;
            };
            let Some(item) = items.iter().find(|i| i["name"] == pod_name) else {
                let names: Vec<&str> = items.iter().filter_map(|i| i["name"].as_str()).collect();
                self.fail(
                    at(&entry_at, &[key("name")]),
                    format!("component {name}: pod {pod_name}"),
                    &Value::String(pod_name.to_owned()),
                    format!(
                        "no such pod under this component; it has: {}",
                        names.join(", ")
                    ),
                );
                continue;
            };
            for (k, w) in map {
                if k == "name" {
                    continue;
                }
                let got = match k.as_str() {
                    "gpus" => item["resources"]["gpus"].clone(),
                    // Absent in the view means false.
                    "terminating" => Value::Bool(item[k] == Value::Bool(true)),
                    _ => item[k].clone(),
                };
                self.compare(
                    at(&entry_at, &[key(k)]),
                    format!("component {name}: pod {pod_name} {k}"),
                    w,
                    got,
                    None,
                );
            }
        }
    }

    // --- action cases ------------------------------------------------------------------------

    /// The definition's actions applied to the object: exactly `patch`, the edit's diagnostic
    /// codes exactly `diagnostics` (none when not given), and the edited object the phases
    /// `resultPhases` (when given).
    fn check_action(&mut self, definition: &CompiledDefinition, case: &Case, base: &[Step]) {
        let Some(expect) = self.mapping(&case.expect, base, ACTION_KEYS, "expect") else {
            return;
        };
        if !expect.contains_key("patch") {
            self.problem(
                base.to_vec(),
                codes::CASE_MISSING_FIELD,
                "an action case needs `expect.patch` (the exact RFC 6902 operations, [] for none)"
                    .into(),
            );
            return;
        }
        let edit = match case.kind {
            CaseKind::Suspend => definition.suspend(&case.object),
            _ => definition.resume(&case.object),
        };
        let patch = json_of(&edit.patch);
        self.compare(
            at(base, &[key("patch")]),
            "patch".into(),
            &expect["patch"],
            patch,
            None,
        );
        let none = Value::Array(Vec::new());
        let want = expect.get("diagnostics").unwrap_or(&none);
        let got = codes_of(edit.diagnostics.iter());
        let note = messages(edit.diagnostics.iter());
        self.compare(
            at(base, &[key("diagnostics")]),
            "edit diagnostics".into(),
            want,
            got,
            note,
        );
        if let Some(want) = expect.get("resultPhases") {
            let got = json_of(&definition.resolve(&edit.object).phases);
            self.compare(
                at(base, &[key("resultPhases")]),
                "phases after the edit".into(),
                want,
                got,
                None,
            );
        }
    }
}

// --- reading a case ------------------------------------------------------------------------------

fn read_case(
    node: &Node,
    root: Option<&GvkView>,
    case_file: &dyn Fn(&str) -> Option<String>,
    checker: &mut Checker,
) -> Option<Case> {
    let value = node.to_json();
    let map = checker.mapping(&value, &[], CASE_KEYS, "a case")?;
    let description = match map.get("description") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            checker.problem(
                vec![key("description")],
                codes::CASE_INVALID,
                format!(
                    "description must be a string, not {}",
                    type_name(other, Words::Yaml)
                ),
            );
            None
        }
    };
    let kind = match map.get("action") {
        None => CaseKind::View,
        Some(Value::String(s)) if s == "suspend" => CaseKind::Suspend,
        Some(Value::String(s)) if s == "resume" => CaseKind::Resume,
        Some(other) => {
            checker.problem_with_help(
                vec![key("action")],
                false,
                codes::CASE_INVALID,
                format!("unknown action {other}"),
                "an action case has `action: suspend` or `action: resume`".into(),
            );
            CaseKind::View
        }
    };
    let object = match (map.get("object"), map.get("objectFrom")) {
        (Some(_), Some(_)) => {
            checker.problem(
                vec![key("objectFrom")],
                codes::CASE_INVALID,
                "a case gives `object` or `objectFrom`, not both".into(),
            );
            None
        }
        (Some(object), None) => Some(object.clone()),
        (None, Some(from)) => object_from(from, case_file, checker),
        (None, None) => {
            checker.problem_with_help(
                Vec::new(),
                false,
                codes::CASE_MISSING_FIELD,
                "a case needs `object` (the manifest) or `objectFrom` (another case file of the folder)".into(),
                "object: {apiVersion: ..., kind: ..., metadata: ..., spec: ...}".into(),
            );
            None
        }
    };
    let object_path = if map.contains_key("object") {
        "object"
    } else {
        "objectFrom"
    };
    let mut related = match map.get("related") {
        None => None,
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_object() {
                    checker.problem(
                        vec![key("related"), Step::index(i)],
                        codes::CASE_INVALID,
                        format!(
                            "a related object must be a mapping, not {}",
                            type_name(item, Words::Yaml)
                        ),
                    );
                }
            }
            Some(items.clone())
        }
        Some(other) => {
            checker.problem(
                vec![key("related")],
                codes::CASE_INVALID,
                format!(
                    "related must be a list of objects (pods and their owners), not {}",
                    type_name(other, Words::Yaml)
                ),
            );
            None
        }
    };
    let object = match object {
        Some(Value::Object(o)) => match list_items(&o) {
            // A List: the workload and its related objects in one.
            Some(items) => {
                if related.is_some() {
                    checker.problem(
                        vec![key("related")],
                        codes::CASE_INVALID,
                        "the object is a List (the workload and its related objects): give `related` objects in it, not beside it".into(),
                    );
                }
                match split_list(items, root) {
                    Some((workload, rest)) => {
                        related = Some(rest);
                        workload
                    }
                    None => {
                        checker.problem(
                            vec![key(object_path)],
                            codes::CASE_INVALID,
                            "the List holds no workload (only pods, or nothing)".into(),
                        );
                        Value::Null
                    }
                }
            }
            None => Value::Object(o),
        },
        Some(other) => {
            checker.problem(
                vec![key(object_path)],
                codes::CASE_INVALID,
                format!(
                    "the object must be a mapping, not {}",
                    type_name(&other, Words::Yaml)
                ),
            );
            Value::Null
        }
        None => Value::Null,
    };
    if kind != CaseKind::View && related.is_some() {
        checker.problem(
            vec![key("related")],
            codes::CASE_INVALID,
            "an action case edits one object: `related` objects are for view cases".into(),
        );
    }
    let Some(expect) = map.get("expect") else {
        checker.problem(
            Vec::new(),
            codes::CASE_MISSING_FIELD,
            "a case needs an `expect:` block".into(),
        );
        return None;
    };
    Some(Case {
        description,
        kind,
        object,
        related,
        expect: expect.clone(),
    })
}

/// The object of another case file of the folder.
fn object_from(
    from: &Value,
    case_file: &dyn Fn(&str) -> Option<String>,
    checker: &mut Checker,
) -> Option<Value> {
    let path = vec![key("objectFrom")];
    let Some(name) = from.as_str() else {
        checker.problem(
            path,
            codes::CASE_INVALID,
            format!(
                "objectFrom must be a file name, not {}",
                type_name(from, Words::Yaml)
            ),
        );
        return None;
    };
    let file = if name.contains(['/', '\\']) {
        None
    } else {
        case_file(name)
    };
    let Some(text) = file else {
        checker.problem_with_help(
            path,
            false,
            codes::CASE_OBJECT_FROM,
            format!("no case file `{name}` in this folder"),
            "objectFrom names another case file of the same tests folder, e.g. `running.yaml`"
                .into(),
        );
        return None;
    };
    let object = yaml::parse_single(&text)
        .map_err(|problem| {
            let place = problem
                .range
                .map(|r| {
                    let lc = LineIndex::new(&text).line_col(
                        &text,
                        r.start,
                        crate::diagnostic::ColumnUnit::Char,
                    );
                    format!(":{}:{}", lc.line, lc.column)
                })
                .unwrap_or_default();
            format!("{name}{place}: {}", problem.message)
        })
        .and_then(|node| match node.get("object") {
            Some(object) if object.as_map().is_some() => Ok(object.to_json()),
            _ => Err(format!("{name} has no `object` mapping to take")),
        });
    match object {
        Ok(object) => Some(object),
        Err(message) => {
            checker.problem(path, codes::CASE_OBJECT_FROM, message);
            None
        }
    }
}

/// The items of a `kind: List` (or `…List`) object.
fn list_items(object: &serde_json::Map<String, Value>) -> Option<&Vec<Value>> {
    let is_list = object
        .get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.ends_with("List"));
    if is_list {
        object.get("items").and_then(Value::as_array)
    } else {
        None
    }
}

/// A List's workload and the rest, in order: the workload [`crate::manifest`] reads first (of
/// the definition's root kind, else the first one).
fn split_list(items: &[Value], root: Option<&GvkView>) -> Option<(Value, Vec<Value>)> {
    let reading = crate::manifest::read(items, &[]);
    let objects: Vec<&Value> = items.iter().collect();
    let index = reading.first_workload(&objects, root)?;
    let mut rest = items.to_vec();
    let workload = rest.remove(index);
    Some((workload, rest))
}

/// A group as a case states it: without the text of its minimum.
fn strip_min_text(group: &mut Value) {
    if let Some(map) = group.as_object_mut() {
        map.remove("minAvailableText");
    }
}

// --- the view side -------------------------------------------------------------------------------

/// A component or an instance (of the view's JSON) found by path.
enum Found<'v> {
    Component(&'v Value),
    Instance(&'v Value),
}

impl<'v> Found<'v> {
    fn json(&self) -> &'v Value {
        match self {
            Found::Component(v) | Found::Instance(v) => v,
        }
    }
}

fn list(value: &Value) -> &[Value] {
    value.as_array().map_or(&[], Vec::as_slice)
}

/// Finds a component or instance by path in the view's JSON: component names from the root
/// joined by `/`, an instance as `name[id]` (`jobset/replicatedjob[workers]`). Below a
/// component with one instance, its children follow directly.
fn find<'v>(view: &'v Value, path: &str) -> Option<Found<'v>> {
    let mut segments = path.split('/');
    let root = std::slice::from_ref(&view["root"]);
    let mut current = step(root, segments.next()?)?;
    for segment in segments {
        let children = match current {
            Found::Component(c) if list(&c["instances"]).len() == 1 => {
                &c["instances"][0]["children"]
            }
            Found::Component(_) => return None,
            Found::Instance(i) => &i["children"],
        };
        current = step(list(children), segment)?;
    }
    Some(current)
}

fn step<'v>(components: &'v [Value], segment: &str) -> Option<Found<'v>> {
    let (name, id) = match segment.split_once('[') {
        Some((name, rest)) => (name, Some(rest.strip_suffix(']').unwrap_or(rest))),
        None => (segment, None),
    };
    let c = components.iter().find(|c| c["name"] == name)?;
    match id {
        None => Some(Found::Component(c)),
        Some(id) => list(&c["instances"])
            .iter()
            .find(|i| i["id"] == id)
            .map(Found::Instance),
    }
}

/// Every path [`find`] accepts in this view, root first (for a message when one is not found).
fn all_paths(view: &Value) -> Vec<String> {
    fn walk(component: &Value, prefix: &str, out: &mut Vec<String>) {
        let name = component["name"].as_str().unwrap_or_default();
        let path = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}/{name}")
        };
        out.push(path.clone());
        let instances = list(&component["instances"]);
        for instance in instances {
            let mut below = path.clone();
            if let Some(id) = instance["id"].as_str() {
                out.push(format!("{path}[{id}]"));
                // A single instance's children follow its component directly.
                if instances.len() > 1 {
                    below = format!("{path}[{id}]");
                }
            }
            for child in list(&instance["children"]) {
                walk(child, &below, out);
            }
        }
    }
    let mut out = Vec::new();
    if view["root"].is_object() {
        walk(&view["root"], "", &mut out);
    }
    out.retain(|p| !p.is_empty());
    out.dedup();
    out
}

/// A value as the JSON the view is written as. Through the text, not `serde_json::to_value`:
/// the package already serialises every view type to text, and a second serialiser for each
/// would grow the `.wasm`.
fn json_of<T: Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_string(value)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// `value[key]`, with an absent `incomplete` read as `false` and an absent `lowerBounds` as
/// `[]` (the view writes them only when set).
fn flag_or_value(value: &Value, key: &str) -> Value {
    match value.get(key) {
        None if key == "incomplete" && value.is_object() => Value::Bool(false),
        None if key == "lowerBounds" && value.is_object() => Value::Array(Vec::new()),
        got => got.cloned().unwrap_or(Value::Null),
    }
}

fn codes_of<'d>(diagnostics: impl Iterator<Item = &'d Diagnostic>) -> Value {
    Value::Array(
        diagnostics
            .map(|d| Value::String(d.code.to_owned()))
            .collect(),
    )
}

/// Each diagnostic as `code: message`, one per line (`None` when there are none).
fn messages<'d>(diagnostics: impl Iterator<Item = &'d Diagnostic>) -> Option<String> {
    let lines: Vec<String> = diagnostics
        .map(|d| {
            let path = if d.path.is_empty() {
                String::new()
            } else {
                format!(" (at {})", d.path)
            };
            format!(
                "{} {}: {}{path}",
                severity_name(d.severity),
                d.code,
                d.message
            )
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Info => "info",
        Severity::Warning => "warning",
        Severity::Error => "error",
    }
}

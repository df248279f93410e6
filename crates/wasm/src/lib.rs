//! The JavaScript boundary: the only crate that knows wasm-bindgen or js-sys.
//!
//! It turns core results into the plain, camelCase values the npm package documents in
//! `index.d.ts`. Everything crosses as JSON text (`serde_json` here, `JSON.parse` in the engine),
//! which keeps maps as plain objects and is faster than walking values field by field. Byte
//! ranges become 1-based line/column in UTF-16 code units here, once, because that is what
//! JavaScript strings and editors count. Only misuse of the API throws (a `TypeError`); problems
//! in what the user wrote come back as diagnostics.

// Everything here is for the wasm32 build; natively the crate is empty (so that `cargo clippy
// --workspace` and `cargo test --workspace` pass over it).
#![cfg(target_arch = "wasm32")]

// The core, compiled into this crate: its module tree (`crate::compile`, `crate::view`, ...) and
// root items, from the file the core's own src/lib.rs includes. One crate at optimisation time
// keeps the .wasm as small as before the split (see Cargo.toml). This crate's own code is the
// marshalling below, and it uses the core's public API only.
include!("../../../src/modules.rs");

use std::rc::Rc;

use js_sys::JSON;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::apischema::{ReadSchemas, SchemaCache};
use crate::diagnostic::{ColumnUnit, Diagnostic, LineIndex, Severity, Source};
use crate::object::Identity;

#[wasm_bindgen(start)]
fn start() {
    // A panic is a bug; without the hook it shows as a bare `RuntimeError: unreachable`.
    console_error_panic_hook::set_once();
}

/// A diagnostic as JavaScript sees it: byte ranges replaced by 1-based UTF-16 positions.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsDiagnostic<'a> {
    code: &'a str,
    severity: Severity,
    message: &'a str,
    path: &'a str,
    source: Source,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
}

/// A text and its line index, to place diagnostics that point into it.
struct Located<'a> {
    text: &'a str,
    index: std::borrow::Cow<'a, LineIndex>,
}

impl<'a> Located<'a> {
    fn new(text: &'a str) -> Self {
        Located {
            text,
            index: std::borrow::Cow::Owned(LineIndex::new(text)),
        }
    }

    /// A text whose index was built once and is kept (a compiled definition's).
    fn indexed(text: &'a str, index: &'a LineIndex) -> Self {
        Located {
            text,
            index: std::borrow::Cow::Borrowed(index),
        }
    }
}

fn js_diagnostic<'a>(
    diagnostic: &'a Diagnostic,
    definition: Option<&Located<'_>>,
    object: Option<&Located<'_>>,
) -> JsDiagnostic<'a> {
    let located = match diagnostic.source {
        Source::Definition => definition,
        // A test case's text is passed where an object's would be (`runCase` reads no other).
        Source::Object | Source::Case => object,
        Source::Schema => None,
    };
    let (start, end) = match (diagnostic.range, located) {
        (Some(range), Some(located)) => {
            let start = located
                .index
                .line_col(located.text, range.start, ColumnUnit::Utf16);
            let end = located
                .index
                .line_col(located.text, range.end, ColumnUnit::Utf16);
            (Some(start), Some(end))
        }
        _ => (None, None),
    };
    JsDiagnostic {
        code: diagnostic.code,
        severity: diagnostic.severity,
        message: &diagnostic.message,
        path: &diagnostic.path,
        source: diagnostic.source,
        line: start.map(|p| p.line),
        column: start.map(|p| p.column),
        end_line: end.map(|p| p.line),
        end_column: end.map(|p| p.column),
        help: diagnostic.help.as_deref(),
    }
}

fn js_diagnostics<'a>(
    diagnostics: &'a [Diagnostic],
    definition: Option<&Located<'_>>,
    object: Option<&Located<'_>>,
) -> Vec<JsDiagnostic<'a>> {
    diagnostics
        .iter()
        .map(|d| js_diagnostic(d, definition, object))
        .collect()
}

/// Serialises a boundary value and hands it to JavaScript as a plain object.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
    JSON::parse(&text)
}

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// The JSON text of a plain JavaScript object (not a string), or the problem that kept it from
/// being serialised: measured first ([`measure`]), it nests deeper than [`yaml::MAX_DEPTH`] or
/// holds more than [`yaml::MAX_OBJECT_VALUES`] values (a diagnostic without a range).
///
/// `NaN` and `±Infinity` cross as the strings the YAML reader makes of `.nan` and `±.inf`
/// ([`yaml::non_finite_text`]), not as the `null` that `JSON.stringify` writes for them, so a
/// plain object and the same YAML text reach the resolver identically. `JSON.stringify` turns
/// them into `null`, so only text holding a `null` can have had one: only then is it written
/// again with a replacer (which calls into wasm for every value).
fn object_text(value: &JsValue, what: &str) -> Result<Result<String, Diagnostic>, JsValue> {
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(type_error(&format!(
            "{what} must be YAML/JSON text or a plain object"
        )));
    }
    match measure::measure(value, yaml::MAX_OBJECT_VALUES)?.problem() {
        None => json_text(value).map(Ok),
        Some(problem) => Ok(Err(problem)),
    }
}

/// Inputs of this many bytes or more reserve their working memory at once ([`headroom`]).
const HEADROOM_FROM: usize = 1 << 20;
/// Bytes of module memory reading and resolving one byte of input takes, about: 24 for
/// `parseObjects` and `resolveAll` of a JSON List (measured, CONTRIBUTING.md "Benchmarks").
const HEADROOM_PER_BYTE: usize = 24;
/// The most reserved at once.
const HEADROOM_MAX: usize = 1 << 30;

/// Grows the module's memory once, before the work on `bytes` of input, instead of in the many
/// small steps the allocator takes as the work goes: V8 collects JavaScript garbage when a
/// module's memory grows, so each step cost a full collection of the caller's heap, and a 10 MB
/// List took 25 s instead of 1.4 s (its memory grew by 250 MB, in 64 KiB steps). The reserve is
/// freed at once and the work allocates from it; when it cannot be had, the work grows memory
/// as before.
fn headroom(bytes: usize) {
    if bytes < HEADROOM_FROM {
        return;
    }
    let want = bytes.saturating_mul(HEADROOM_PER_BYTE).min(HEADROOM_MAX);
    let mut reserve: Vec<u8> = Vec::new();
    // Not having it is no error: the work then grows memory as it goes.
    let _ = reserve.try_reserve_exact(want);
}

/// The JSON text of a plain object or array, non-finite numbers kept as in [`object_text`]
/// (so a list of objects reaches the resolver as one object does).
fn json_text(value: &JsValue) -> Result<String, JsValue> {
    let text = String::from(JSON::stringify(value)?);
    headroom(text.len());
    if !text.contains("null") {
        return Ok(text);
    }
    let replacer =
        Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(|_key: JsValue, value: JsValue| {
            match value.as_f64().and_then(yaml::non_finite_text) {
                Some(text) => JsValue::from_str(text),
                None => value,
            }
        });
    let text = JSON::stringify_with_replacer(value, replacer.as_ref())?;
    Ok(String::from(text))
}

/// An object to resolve, with the text it came from (for diagnostic positions).
struct ObjectInput {
    read: object::ReadObjects,
    text: Option<String>,
}

/// Reads the one object `call` (e.g. `resolve()`) takes; several objects in one text are API
/// misuse (a `TypeError`).
fn read_object(object: &JsValue, call: &str) -> Result<ObjectInput, JsValue> {
    if let Some(text) = object.as_string() {
        headroom(text.len());
        let read = object::read_objects(&text);
        if read.objects.len() > 1 {
            return Err(type_error(&format!(
                "{call} takes one object, but this text holds {}: use parseObjects() and pass each",
                read.objects.len()
            )));
        }
        return Ok(ObjectInput {
            read,
            text: Some(text),
        });
    }
    let read = match object_text(object, "the object")? {
        Ok(text) => object::read_json_object(&text),
        Err(problem) => object::unread(problem),
    };
    Ok(ObjectInput { read, text: None })
}

/// `options.workload`: which object of a text holding several is the workload (`None` when
/// not given). Anything but a whole number from 0 is API misuse.
fn read_workload_index(options: &JsValue) -> Result<Option<usize>, JsValue> {
    if !options.is_object() {
        return Ok(None);
    }
    let value = js_sys::Reflect::get(options, &JsValue::from_str("workload"))?;
    if value.is_undefined() {
        return Ok(None);
    }
    match value.as_f64() {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Ok(Some(n as usize)),
        _ => Err(type_error(
            "resolve() options.workload must be the index of an object in the text (0, 1, ...)",
        )),
    }
}

/// Reads every object of a manifest: YAML/JSON text (a stream, a `kind: List`), or a plain
/// object (a `kind: List` object is expanded), with the text for positions.
fn read_manifest(object: &JsValue, call: &str) -> Result<ObjectInput, JsValue> {
    if let Some(text) = object.as_string() {
        headroom(text.len());
        return Ok(ObjectInput {
            read: object::read_objects(&text),
            text: Some(text),
        });
    }
    if object.is_object() && !js_sys::Array::is_array(object) {
        let what = format!("{call} object");
        let read = match object_text(object, &what)? {
            Ok(text) => json_objects(&text, &what)?,
            Err(problem) => object::unread(problem),
        };
        return Ok(ObjectInput { read, text: None });
    }
    read_object(object, call)
}

/// [`object::read_json_objects`] (a `kind: List` object stands for its items), its misuse a
/// `TypeError`.
fn json_objects(text: &str, what: &str) -> Result<object::ReadObjects, JsValue> {
    object::read_json_objects(text)
        .map_err(|_| type_error(&format!("{what}: a List's items must be plain objects")))
}

/// The view as JavaScript sees it: the core's view with diagnostics and source ranges placed in
/// the texts. Field for field the same as [`View`] (in the same order, so JSON output reads
/// naturally).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsView<'a> {
    api_version: &'a str,
    kind: &'a str,
    name: &'a str,
    namespace: Option<&'a str>,
    definition: &'a crate::view::DefinitionRef,
    phases: &'a [crate::definition::Phase],
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    terminating: bool,
    status: JsStatus<'a>,
    resources: &'a crate::view::Resources,
    table: &'a crate::view::ResourceTable,
    root: Option<JsComponent<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pods: Option<&'a crate::view::PodsSummary>,
    groups: &'a [crate::view::Group],
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// A byte range placed in its text: 0-based UTF-16 offsets and 1-based lines and UTF-16
/// columns (what JavaScript strings and editors count).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsRange {
    start: u32,
    end: u32,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
}

impl Located<'_> {
    fn range(&self, range: crate::diagnostic::TextRange) -> JsRange {
        let start = self
            .index
            .line_col(self.text, range.start, ColumnUnit::Utf16);
        let end = self.index.line_col(self.text, range.end, ColumnUnit::Utf16);
        JsRange {
            start: self.index.utf16_offset(self.text, range.start),
            end: self.index.utf16_offset(self.text, range.end),
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
        }
    }
}

/// [`crate::view::DefinitionSource`] placed in the definition text.
#[derive(Serialize)]
struct JsDefinitionSource {
    #[serde(skip_serializing_if = "Option::is_none")]
    definition: Option<JsRange>,
}

/// [`crate::view::InstanceSource`] placed in the object text.
#[derive(Serialize)]
struct JsInstanceSource<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    object: Option<JsRange>,
}

/// [`crate::view::Component`] with its source placed.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsComponent<'a> {
    name: &'a str,
    kind: Option<&'a crate::view::GvkView>,
    has_pod_spec: bool,
    replicas: &'a crate::view::Replicas,
    pod_resources: Option<&'a crate::view::Resources>,
    resources: &'a crate::view::Resources,
    pod_count: &'a crate::view::PodCount,
    instances: Vec<JsInstance<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pods: Option<&'a crate::view::Pods>,
    source: JsDefinitionSource,
}

/// [`crate::view::Instance`] with its source placed.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsInstance<'a> {
    id: Option<&'a str>,
    replicas: &'a crate::view::Replicas,
    pod_resources: Option<&'a crate::view::Resources>,
    resources: &'a crate::view::Resources,
    pod_count: &'a crate::view::PodCount,
    children: Vec<JsComponent<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pods: Option<&'a crate::view::Pods>,
    source: JsInstanceSource<'a>,
}

/// [`crate::view::StatusView`] with each matcher's source placed.
#[derive(Serialize)]
struct JsStatus<'a> {
    phase: Option<&'a str>,
    conditions: &'a [crate::view::Condition],
    /// Left out altogether in the lean view (`explain: false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    mappings: Option<Vec<JsMapping<'a>>>,
}

#[derive(Serialize)]
struct JsMapping<'a> {
    status: crate::definition::Phase,
    matched: bool,
    matchers: Vec<JsMatcher<'a>>,
}

#[derive(Serialize)]
struct JsMatcher<'a> {
    matched: bool,
    checks: &'a [crate::view::Check],
    source: JsDefinitionSource,
}

/// Places the view's source ranges: definition ranges in the definition text, object ranges in
/// the object text (none without one). Destructured, so that a field added to the view fails
/// to compile here until it is passed on.
struct Placer<'l, 't> {
    definition: &'l Located<'t>,
    object: Option<&'l Located<'t>>,
}

impl Placer<'_, '_> {
    fn definition_source(&self, source: crate::view::DefinitionSource) -> JsDefinitionSource {
        JsDefinitionSource {
            definition: source.definition.map(|r| self.definition.range(r)),
        }
    }

    fn component<'a>(&self, component: &'a crate::view::Component) -> JsComponent<'a> {
        let crate::view::Component {
            name,
            kind,
            has_pod_spec,
            replicas,
            pod_resources,
            resources,
            pod_count,
            instances,
            pods,
            source,
        } = component;
        JsComponent {
            name,
            kind: kind.as_ref(),
            has_pod_spec: *has_pod_spec,
            replicas,
            pod_resources: pod_resources.as_ref(),
            resources,
            pod_count,
            instances: instances.iter().map(|i| self.instance(i)).collect(),
            pods: pods.as_ref(),
            source: self.definition_source(*source),
        }
    }

    fn instance<'a>(&self, instance: &'a crate::view::Instance) -> JsInstance<'a> {
        let crate::view::Instance {
            id,
            replicas,
            pod_resources,
            resources,
            pod_count,
            children,
            pods,
            source,
        } = instance;
        JsInstance {
            id: id.as_deref(),
            replicas,
            pod_resources: pod_resources.as_ref(),
            resources,
            pod_count,
            children: children.iter().map(|c| self.component(c)).collect(),
            pods: pods.as_ref(),
            source: JsInstanceSource {
                pointer: source.pointer.as_deref(),
                object: source
                    .object
                    .and_then(|r| self.object.map(|located| located.range(r))),
            },
        }
    }

    fn status<'a>(&self, status: &'a crate::view::StatusView, explain: bool) -> JsStatus<'a> {
        let crate::view::StatusView {
            phase,
            conditions,
            mappings,
        } = status;
        JsStatus {
            phase: phase.as_deref(),
            conditions,
            mappings: explain.then(|| {
                mappings
                    .iter()
                    .map(|m| JsMapping {
                        status: m.status,
                        matched: m.matched,
                        matchers: m
                            .matchers
                            .iter()
                            .map(|matcher| {
                                let crate::view::MatcherExplanation {
                                    matched,
                                    checks,
                                    source,
                                } = matcher;
                                JsMatcher {
                                    matched: *matched,
                                    checks,
                                    source: self.definition_source(*source),
                                }
                            })
                            .collect(),
                    })
                    .collect()
            }),
        }
    }
}

fn view_to_js(
    view: &View,
    definition: &Located<'_>,
    object_text: Option<&str>,
    options: ResolveOptions,
) -> Result<JsValue, JsValue> {
    let object = object_text.map(Located::new);
    to_js(&js_view(view, definition, object.as_ref(), options))
}

fn js_view<'a, 't>(
    view: &'a View,
    definition: &'a Located<'t>,
    object: Option<&'a Located<'t>>,
    options: ResolveOptions,
) -> JsView<'a> {
    let placer = Placer { definition, object };
    // Destructured so that a field added to the view fails to compile here until it is passed on.
    let View {
        api_version,
        kind,
        name,
        namespace,
        definition: definition_ref,
        phases,
        terminating,
        status,
        resources,
        table,
        root,
        pods,
        groups,
        diagnostics,
    } = view;
    JsView {
        api_version,
        kind,
        name,
        namespace: namespace.as_deref(),
        definition: definition_ref,
        phases,
        terminating: *terminating,
        status: placer.status(status, options.explain),
        resources,
        table,
        root: root.as_ref().map(|c| placer.component(c)),
        pods: pods.as_ref(),
        groups,
        diagnostics: js_diagnostics(diagnostics, Some(definition), object),
    }
}

thread_local! {
    /// Every definition compiled through the boundary, shared by text (`crate::cache`): a
    /// text compiled before is a lookup, and handles made from one text share one compiled
    /// definition. Replaced with the instance after a trap, like everything here.
    static DEFINITIONS: std::cell::RefCell<crate::cache::DefinitionCache> =
        std::cell::RefCell::new(crate::cache::DefinitionCache::default());
}

/// The compiled definition of a text, shared with every other compile of it that is still
/// held or recently used (each real compile counted for the tests, see [`testing`]).
fn compile_text(text: &str) -> Rc<CompiledDefinition> {
    shared(
        crate::cache::Source::Text,
        text,
        CompiledDefinition::from_text,
    )
}

/// [`compile_text`] for the text of `source`, compiled with `compile`.
fn shared(
    source: crate::cache::Source,
    text: &str,
    compile: fn(&str) -> CompiledDefinition,
) -> Rc<CompiledDefinition> {
    DEFINITIONS.with(|cache| {
        cache.borrow_mut().get(source, text, |text| {
            testing::count_compile();
            compile(text)
        })
    })
}

/// A compiled definition: parse, validate and compile once, then resolve many objects.
#[wasm_bindgen(js_name = Definition)]
pub struct JsDefinition {
    /// Shared with every handle made from the same text; never changed, so each handle is
    /// independent of the others (freeing one drops only its own reference).
    compiled: Rc<CompiledDefinition>,
}

#[wasm_bindgen(js_class = Definition)]
impl JsDefinition {
    /// Compiles a definition from YAML/JSON text or a plain object. Never fails on bad input
    /// (see `diagnostics`); throws a `TypeError` only when given something else.
    #[wasm_bindgen(constructor)]
    pub fn new(source: &JsValue) -> Result<JsDefinition, JsValue> {
        let compiled = match source.as_string() {
            Some(text) => compile_text(&text),
            None => match object_text(source, "a definition")? {
                Ok(text) => shared(
                    crate::cache::Source::Object,
                    &text,
                    CompiledDefinition::from_json_text,
                ),
                Err(problem) => Rc::new(CompiledDefinition::unread(problem)),
            },
        };
        Ok(JsDefinition { compiled })
    }

    /// Every problem in the definition, with 1-based UTF-16 positions.
    #[wasm_bindgen(getter)]
    pub fn diagnostics(&self) -> Result<JsValue, JsValue> {
        let located = Located::indexed(self.compiled.text(), self.compiled.lines());
        to_js(&js_diagnostics(
            self.compiled.diagnostics(),
            Some(&located),
            None,
        ))
    }

    /// True when no diagnostic is an error.
    #[wasm_bindgen(getter)]
    pub fn valid(&self) -> bool {
        self.compiled.is_valid()
    }

    /// `metadata.name`, or `null`.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> Option<String> {
        self.compiled.name().map(str::to_owned)
    }

    /// The root component's group/version/kind, or `null`.
    #[wasm_bindgen(getter)]
    pub fn gvk(&self) -> Result<JsValue, JsValue> {
        to_js(&self.compiled.root_gvk())
    }

    /// The component names, root first.
    #[wasm_bindgen(getter, js_name = componentNames)]
    pub fn component_names(&self) -> Vec<String> {
        self.compiled.component_names()
    }

    /// Resolves one object (YAML/JSON text or a plain object) into a view. `options` may give
    /// the objects related to it, `{ pods, owners }` (arrays of plain objects, as
    /// `parseObjects` returns them; any non-pod in either list counts as a possible owner):
    /// the view then places the workload's pods in its tree and forms its gang groups; with
    /// `explain: false`, the lean view: the same without `status.mappings`.
    /// `options.workload` picks the workload out of a text holding several objects (its index
    /// as `parseObjects` lists them), so that the view's places point into that text.
    pub fn resolve(&self, object: &JsValue, options: &JsValue) -> Result<JsValue, JsValue> {
        let located = Located::indexed(self.compiled.text(), self.compiled.lines());
        let (related, related_problems, resolve_options) = read_options(options)?;
        let workload = read_workload_index(options)?;
        let input = read_manifest(object, "resolve()")?;
        if let Some(problem) = workload.and_then(|i| input.read.pick_problem(i)) {
            return Err(type_error(&format!("resolve() {problem}")));
        }
        let mut view = self.compiled.resolve_manifest(
            input.read,
            related.as_deref(),
            workload,
            resolve_options,
        );
        // A related object that could not be read is a problem of this view, like the object's.
        view.diagnostics.extend(related_problems);
        view_to_js(&view, &located, input.text.as_deref(), resolve_options)
    }

    /// Resolves a [`JsManifest`] as `resolve` resolves its text with its related objects (the
    /// same view, places in the text included), from the reading it keeps: nothing is read
    /// again. `options` are `resolve`'s without related objects (the manifest has its own).
    #[wasm_bindgen(js_name = resolveManifest)]
    pub fn resolve_manifest(
        &self,
        manifest: &JsManifest,
        options: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let located = Located::indexed(self.compiled.text(), self.compiled.lines());
        let (related, _, resolve_options) = read_options(options)?;
        if related.is_some() {
            return Err(type_error(
                "resolve() of a Manifest takes its related objects from it: give them to new Manifest(text, { related })",
            ));
        }
        let workload = read_workload_index(options)?;
        if let Some(problem) = workload.and_then(|i| manifest.read.pick_problem(i)) {
            return Err(type_error(&format!("resolve() {problem}")));
        }
        let view = self.compiled.resolve_manifest_ref(
            &manifest.read,
            manifest.related.as_deref(),
            workload,
            resolve_options,
        );
        let object = Located::indexed(&manifest.text, &manifest.lines);
        to_js(&js_view(&view, &located, Some(&object), resolve_options))
    }
}

/// The result of `validate`.
#[derive(Serialize)]
struct Validation<'a> {
    valid: bool,
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// Checks a definition text: `{valid, diagnostics}`.
#[wasm_bindgen]
pub fn validate(text: &JsValue) -> Result<JsValue, JsValue> {
    let text = text
        .as_string()
        .ok_or_else(|| type_error("validate() takes the definition as YAML/JSON text"))?;
    let compiled = compile_text(&text);
    let located = Located::indexed(compiled.text(), compiled.lines());
    to_js(&Validation {
        valid: compiled.is_valid(),
        diagnostics: js_diagnostics(compiled.diagnostics(), Some(&located), None),
    })
}

/// Resolves an object with a definition given as text or a plain object (the JS wrapper sends
/// `Definition` instances to `Definition.resolve`).
#[wasm_bindgen(js_name = resolveWith)]
pub fn resolve_with(
    definition: &JsValue,
    object: &JsValue,
    options: &JsValue,
) -> Result<JsValue, JsValue> {
    JsDefinition::new(definition)?.resolve(object, options)
}

/// `resolve`'s options as read: the related objects (see [`related_option`]), the problems
/// reading them, and how to resolve.
type Options = (Option<Vec<Value>>, Vec<Diagnostic>, ResolveOptions);

/// Reads `resolve`'s options: `undefined`/`null`, or `{ pods?, owners?, explain?, workload? }`
/// with arrays of plain objects, a boolean and an index (read by `read_workload_index`).
/// Anything else is API misuse (a `TypeError`). A related object that could not be read is a
/// problem named `related[i]` (`i` counts the objects of `related`, `pods` and `owners` in
/// that order).
fn read_options(options: &JsValue) -> Result<Options, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok((None, Vec::new(), ResolveOptions::default()));
    }
    if !options.is_object() || js_sys::Array::is_array(options) {
        return Err(type_error(
            "resolve() options must be an object: { related?: object[], explain?: boolean, workload?: number }",
        ));
    }
    let explain = js_sys::Reflect::get(options, &JsValue::from_str("explain"))?;
    let resolve_options = if explain.is_undefined() {
        ResolveOptions::default()
    } else {
        ResolveOptions {
            explain: explain
                .as_bool()
                .ok_or_else(|| type_error("resolve() options.explain must be a boolean"))?,
        }
    };
    let (related, problems) = related_option(options, Item::new("related", 0))?;
    Ok((related, problems, resolve_options))
}

/// `options.related`, plus the older `options.pods` and `options.owners` (the same thing,
/// split by the caller): the objects given apart from the manifest, or `None` when none of the
/// three is given, and the problems with those that could not be read (named from `first`,
/// counting on through the three lists).
fn related_option(
    options: &JsValue,
    mut first: Item<'_>,
) -> Result<(Option<Vec<Value>>, Vec<Diagnostic>), JsValue> {
    let mut objects: Option<Vec<Value>> = None;
    let mut problems = Vec::new();
    for name in ["related", "pods", "owners"] {
        let list = js_sys::Reflect::get(options, &JsValue::from_str(name))?;
        if list.is_undefined() {
            continue;
        }
        let (given, found) = objects_of(&list, &format!("options.{name}"), first)?;
        first.index += given.len();
        problems.extend(found);
        objects.get_or_insert_with(Vec::new).extend(given);
    }
    Ok((objects, problems))
}

/// How the problems with the objects of an array name them: `items[3]` (`resolveAll` and
/// `readManifest`: the index the reading gives the object, the manifest's objects first) or
/// `related[3]` (`resolve`'s related objects).
#[derive(Clone, Copy)]
struct Item<'a> {
    prefix: &'a str,
    /// The name of the array's first object.
    index: usize,
}

impl<'a> Item<'a> {
    fn new(prefix: &'a str, index: usize) -> Self {
        Item { prefix, index }
    }

    /// `problem`, found in the object `offset` places after the first, named by that item.
    fn name(self, offset: usize, problem: Diagnostic) -> Diagnostic {
        let item = format!("{}[{}]", self.prefix, self.index + offset);
        let path = match problem.path.as_str() {
            "" => item,
            path if path.starts_with('[') => format!("{item}{path}"),
            path => format!("{item}.{path}"),
        };
        problem.in_object().with_path(path)
    }
}

/// Most values the objects of one array may hold together: a JSON text of more would be
/// longer than a JavaScript string can be (V8 holds 2^29 - 24 characters; every value takes
/// two), so `JSON.stringify` would fail on it anyway.
const MAX_ARRAY_VALUES: usize = 1 << 28;

/// Reads an array of plain objects. Each object is measured on its own first (see
/// [`object_text`]): one that nests too deep or holds too many values is not serialised, its
/// place holds `null` (which the manifest reading passes over, so the others keep their
/// indices) and its problem is returned, named by `first`.
fn objects_of(
    list: &JsValue,
    what: &str,
    first: Item<'_>,
) -> Result<(Vec<Value>, Vec<Diagnostic>), JsValue> {
    if list.is_undefined() || list.is_null() {
        return Ok((Vec::new(), Vec::new()));
    }
    if !js_sys::Array::is_array(list) {
        return Err(type_error(&format!("{what} must be an array of objects")));
    }
    let array: &js_sys::Array = list.unchecked_ref();
    let mut left = MAX_ARRAY_VALUES;
    let mut unread: Vec<(u32, Diagnostic)> = Vec::new();
    // Measured whole first (one level more than its items): when that fits, so does each item,
    // and one call did it. Else each item is measured on its own, to say which.
    let whole = measure::measure_to(list, yaml::MAX_DEPTH + 1, yaml::MAX_OBJECT_VALUES)?;
    let items = match whole {
        measure::Measured::Fits(_) => 0,
        _ => array.length(),
    };
    for (i, item) in (0..items).zip(array.iter()) {
        let cap = yaml::MAX_OBJECT_VALUES.min(left);
        let problem = match measure::measure(&item, cap)? {
            measure::Measured::Fits(n) => {
                left -= n;
                continue;
            }
            measure::Measured::Many if cap < yaml::MAX_OBJECT_VALUES => {
                return Err(type_error(&format!(
                    "{what} holds more than {MAX_ARRAY_VALUES} values: more than any JSON text can hold"
                )))
            }
            measured => measured.problem(),
        };
        unread.extend(problem.map(|p| (i, first.name(i as usize, p))));
    }
    let text = if unread.is_empty() {
        json_text(list)?
    } else {
        let copy = array.slice(0, array.length());
        for (i, _) in &unread {
            copy.set(*i, JsValue::NULL);
        }
        json_text(&copy)?
    };
    let values = match yaml::parse_json_items(&text) {
        Ok(Value::Array(values)) => values,
        Ok(_) => Vec::new(),
        Err(e) => {
            return Err(type_error(&format!(
                "{what} is not JSON-serialisable: {}",
                e.message
            )))
        }
    };
    let hole = |i: usize| unread.iter().any(|(at, _)| *at as usize == i);
    if values
        .iter()
        .enumerate()
        .any(|(i, v)| !v.is_object() && !hole(i))
    {
        return Err(type_error(&format!("{what} must hold plain objects only")));
    }
    Ok((values, unread.into_iter().map(|(_, d)| d).collect()))
}

/// The result of `parseObjects`.
#[derive(Serialize)]
struct ParsedObjects<'a> {
    objects: Vec<Value>,
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// Splits YAML/JSON text into objects (multi-document, `kind: List` expanded).
#[wasm_bindgen(js_name = parseObjects)]
pub fn parse_objects(text: &JsValue) -> Result<JsValue, JsValue> {
    let text = text
        .as_string()
        .ok_or_else(|| type_error("parseObjects() takes YAML/JSON text"))?;
    headroom(text.len());
    let located = Located::new(&text);
    let read = object::read_objects(&text);
    to_js(&ParsedObjects {
        objects: read.objects.into_iter().map(|(object, _)| object).collect(),
        diagnostics: js_diagnostics(&read.diagnostics, None, Some(&located)),
    })
}

/// A manifest text read once and kept: its objects with where each was written, and the
/// related objects given with it. Every call on it reads from what was kept, so a large
/// manifest is parsed once per edit, and its objects cross to JavaScript only one at a time,
/// when asked for.
#[wasm_bindgen(js_name = Manifest)]
pub struct JsManifest {
    text: String,
    /// Lines of the text, built once: its diagnostics and every view's places use it.
    lines: LineIndex,
    read: object::ReadObjects,
    /// The related objects, when given (even none).
    related: Option<Vec<Value>>,
    /// The related objects' text, when given as text, and the problems reading it.
    related_text: Option<String>,
    related_problems: Vec<Diagnostic>,
}

#[wasm_bindgen(js_class = Manifest)]
impl JsManifest {
    /// Reads a manifest text (a stream, a `kind: List`) and, with `options.related`, the
    /// objects given apart (text, or an array of plain objects). Never fails on bad text (see
    /// `diagnostics`); throws a `TypeError` only when given something else.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &JsValue, options: &JsValue) -> Result<JsManifest, JsValue> {
        const USAGE: &str = "new Manifest(text, { related? }) takes YAML/JSON text, and related objects as text or an array of plain objects";
        let text = text.as_string().ok_or_else(|| type_error(USAGE))?;
        let given = if options.is_undefined() || options.is_null() {
            JsValue::UNDEFINED
        } else if options.is_object() && !js_sys::Array::is_array(options) {
            js_sys::Reflect::get(options, &JsValue::from_str("related"))?
        } else {
            return Err(type_error(USAGE));
        };
        headroom(text.len());
        let read = object::read_objects(&text);
        let (mut related, mut related_text, mut related_problems) = (None, None, Vec::new());
        if let Some(given_text) = given.as_string() {
            headroom(given_text.len());
            let given_read = object::read_objects(&given_text);
            related = Some(given_read.objects.into_iter().map(|(o, _)| o).collect());
            related_problems = given_read.diagnostics;
            related_text = Some(given_text);
        } else if js_sys::Array::is_array(&given) {
            // Named by the reading's index, as `readManifest` names them.
            let first = Item::new("items", read.objects.len());
            let (objects, problems) = objects_of(&given, "options.related", first)?;
            related = Some(objects);
            related_problems = problems;
        } else if !given.is_undefined() {
            return Err(type_error(USAGE));
        }
        let lines = LineIndex::new(&text);
        Ok(JsManifest {
            text,
            lines,
            read,
            related,
            related_text,
            related_problems,
        })
    }

    /// The problems reading the text, as `parseObjects` gives them.
    #[wasm_bindgen(getter)]
    pub fn diagnostics(&self) -> Result<JsValue, JsValue> {
        let located = Located::indexed(&self.text, &self.lines);
        to_js(&js_diagnostics(
            &self.read.diagnostics,
            None,
            Some(&located),
        ))
    }

    /// The problems reading the related objects' text, or with the related objects given as
    /// objects that could not be read.
    #[wasm_bindgen(getter, js_name = relatedDiagnostics)]
    pub fn related_diagnostics(&self) -> Result<JsValue, JsValue> {
        let located = self.related_text.as_deref().map(Located::new);
        to_js(&js_diagnostics(
            &self.related_problems,
            None,
            located.as_ref(),
        ))
    }

    /// How many objects the text holds.
    #[wasm_bindgen(getter)]
    pub fn count(&self) -> usize {
        self.read.objects.len()
    }

    /// How many related objects were given.
    #[wasm_bindgen(getter, js_name = relatedCount)]
    pub fn related_count(&self) -> usize {
        self.related.as_ref().map_or(0, Vec::len)
    }

    /// The reading of the objects with the related ones, as `readManifest` gives it for them
    /// (its `diagnostics` are empty: the text's problems are this manifest's `diagnostics`).
    #[wasm_bindgen(getter)]
    pub fn reading(&self) -> Result<JsValue, JsValue> {
        let all: Vec<&Value> = self.all().collect();
        let reading = crate::manifest::read_refs(all.clone(), self.read.objects.len());
        to_js(&js_reading(&reading, &all, &[], None))
    }

    /// One object as a plain value: the text's objects first, then the related ones (the
    /// reading's indices); `undefined` past the last.
    pub fn object(&self, index: JsValue) -> Result<JsValue, JsValue> {
        let index = match index.as_f64() {
            Some(n) if n >= 0.0 && n.fract() == 0.0 => n,
            _ => {
                return Err(type_error(
                    "Manifest.object(index) takes an index (0, 1, ...)",
                ))
            }
        };
        match self.all().nth(index as usize) {
            Some(object) => to_js(object),
            None => Ok(JsValue::UNDEFINED),
        }
    }
}

impl JsManifest {
    /// Every object: the text's, then the related ones.
    fn all(&self) -> impl Iterator<Item = &Value> {
        self.read
            .objects
            .iter()
            .map(|(o, _)| o)
            .chain(self.related.iter().flatten())
    }
}

/// One catalog entry as JavaScript sees it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsCatalogEntry {
    name: &'static str,
    origin: &'static str,
    api_version: &'static str,
    kind: &'static str,
    components: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact_version: Option<bool>,
}

fn catalog_entry(
    entry: &'static catalog::Entry,
    with_text: bool,
    exact_version: Option<bool>,
) -> JsCatalogEntry {
    JsCatalogEntry {
        name: entry.name,
        origin: entry.origin,
        api_version: entry.api_version,
        kind: entry.kind,
        // Read, not compiled: listing or finding an entry compiles nothing (`new Definition`
        // compiles the one a caller uses).
        components: entry.component_names(),
        text: with_text.then_some(entry.text),
        exact_version,
    }
}

/// Every definition in the embedded catalog, sorted by name.
#[wasm_bindgen(js_name = catalogList)]
pub fn catalog_list() -> Result<JsValue, JsValue> {
    let entries: Vec<_> = catalog::entries()
        .iter()
        .map(|e| catalog_entry(e, false, None))
        .collect();
    to_js(&entries)
}

/// The catalog definition for an apiVersion and kind (the same group and kind at another
/// version as a fallback, with `exactVersion: false`), or `null`.
#[wasm_bindgen(js_name = catalogFind)]
pub fn catalog_find(api_version: &str, kind: &str) -> Result<JsValue, JsValue> {
    match catalog::find(api_version, kind) {
        Some(found) => to_js(&catalog_entry(found.entry, true, Some(found.exact_version))),
        None => Ok(JsValue::NULL),
    }
}

/// The catalog definition with this name, or `null`.
#[wasm_bindgen(js_name = catalogGet)]
pub fn catalog_get(name: &str) -> Result<JsValue, JsValue> {
    match catalog::get(name) {
        Some(entry) => to_js(&catalog_entry(entry, true, None)),
        None => Ok(JsValue::NULL),
    }
}

/// A parsed Kubernetes quantity as JavaScript sees it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsQuantity {
    value: f64,
    /// `None` (null) when the amount in thousandths is beyond what a JavaScript number holds
    /// exactly: a clamped or rounded number would look exact.
    milli_value: Option<i64>,
    canonical: String,
    human: String,
}

/// Parses a Kubernetes quantity (`"500m"`, `"16Gi"`, `"1e3"`); throws a `RangeError` for text
/// that is not one (a parse function, like `JSON.parse`), including amounts above 1e29.
#[wasm_bindgen(js_name = parseQuantity)]
pub fn parse_quantity(text: &JsValue) -> Result<JsValue, JsValue> {
    let text = text
        .as_string()
        .ok_or_else(|| type_error("parseQuantity() takes a string"))?;
    let q = quantity::Quantity::parse(&text)
        .map_err(|e| JsValue::from(js_sys::RangeError::new(&e.to_string())))?;
    to_js(&JsQuantity {
        value: q.to_f64(),
        milli_value: q.milli_value(),
        canonical: q.format(),
        human: q.human(),
    })
}

/// CPU millicores for display: `20`, `1.5`, `500m`. Throws a `RangeError` for anything but a
/// whole number from 0 to `Number.MAX_SAFE_INTEGER` (the view's amounts are such numbers).
#[wasm_bindgen(js_name = formatCpu)]
pub fn format_cpu(millis: f64) -> Result<String, JsValue> {
    Ok(quantity::human_millis(to_u64(millis, "formatCpu")?))
}

/// Bytes for display: `16Gi`, `70M`, `1.5Gi`. Throws a `RangeError` like `formatCpu`.
#[wasm_bindgen(js_name = formatMemory)]
pub fn format_memory(bytes: f64) -> Result<String, JsValue> {
    Ok(quantity::human_bytes(to_u64(bytes, "formatMemory")?))
}

/// A view amount ([`quantity::exact_amount`]), anything else a `RangeError`.
fn to_u64(value: f64, function: &str) -> Result<u64, JsValue> {
    quantity::exact_amount(value).ok_or_else(|| {
        js_sys::RangeError::new(&format!(
            "{function}() takes a whole number from 0 to Number.MAX_SAFE_INTEGER, not {value}"
        ))
        .into()
    })
}

/// The crate version (equal to the npm package version).
#[wasm_bindgen(js_name = version)]
pub fn version() -> String {
    crate::VERSION.to_owned()
}

// --- Edits: suspend, resume, pod spec merge patches (src/edit) -------------------------------

/// The result of an edit as JavaScript sees it: `{object, patch, diagnostics}`.
#[derive(Serialize)]
struct JsEdit<'a> {
    object: Option<&'a Value>,
    patch: &'a [crate::edit::PatchOp],
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// Which edit to make.
enum EditKind {
    Suspend,
    Resume,
    PodSpec {
        component: String,
        instance: Option<String>,
        merge: Value,
    },
}

impl EditKind {
    /// The API call that makes this edit, for messages.
    fn call(&self) -> &'static str {
        match self {
            EditKind::Suspend => "suspend()",
            EditKind::Resume => "resume()",
            EditKind::PodSpec { .. } => "editPodSpec()",
        }
    }
}

/// Reads `editPodSpec` options: `{component: string, instance?: string | null, merge}`.
fn pod_spec_options(options: &JsValue) -> Result<EditKind, JsValue> {
    const USAGE: &str =
        "editPodSpec() takes options {component: string, instance?: string, merge: object}";
    if !options.is_object() {
        return Err(type_error(USAGE));
    }
    let get = |key: &str| js_sys::Reflect::get(options, &JsValue::from_str(key));
    let component = get("component")?
        .as_string()
        .ok_or_else(|| type_error(&format!("{USAGE}: component must be a string")))?;
    let instance = get("instance")?;
    let instance =
        if instance.is_undefined() || instance.is_null() {
            None
        } else {
            Some(instance.as_string().ok_or_else(|| {
                type_error(&format!("{USAGE}: instance must be a string when given"))
            })?)
        };
    let merge = get("merge")?;
    if merge.is_undefined() {
        return Err(type_error(&format!("{USAGE}: merge is missing")));
    }
    // Measured before it is serialised, as every plain object is (see `object_text`); a patch
    // past the limits is API misuse.
    if let Some(problem) = measure::measure(&merge, yaml::MAX_OBJECT_VALUES)?.problem() {
        return Err(type_error(&format!(
            "{USAGE}: merge cannot be read: {} (at `{}`)",
            problem.message, problem.path
        )));
    }
    let text = JSON::stringify(&merge)?;
    let merge = yaml::parse_json(&String::from(text)).map_err(|e| {
        type_error(&format!(
            "{USAGE}: merge is not JSON-serialisable: {}",
            e.message
        ))
    })?;
    Ok(EditKind::PodSpec {
        component,
        instance,
        merge,
    })
}

impl JsDefinition {
    fn run_edit(&self, object: &JsValue, kind: &EditKind) -> Result<JsValue, JsValue> {
        let located = Located::indexed(self.compiled.text(), self.compiled.lines());
        let input = read_object(object, kind.call())?;
        let object_text = input.text.as_deref().map(Located::new);
        let value = match input.read.into_single() {
            Ok(value) => value,
            Err(diagnostics) => {
                return to_js(&JsEdit {
                    object: None,
                    patch: &[],
                    diagnostics: js_diagnostics(&diagnostics, Some(&located), object_text.as_ref()),
                })
            }
        };
        let edit = match kind {
            EditKind::Suspend => self.compiled.suspend(&value),
            EditKind::Resume => self.compiled.resume(&value),
            EditKind::PodSpec {
                component,
                instance,
                merge,
            } => self.compiled.edit_pod_spec(
                &value,
                &crate::edit::PodSpecEdit {
                    component,
                    instance: instance.as_deref(),
                    merge,
                },
            ),
        };
        to_js(&JsEdit {
            object: Some(&edit.object),
            patch: &edit.patch,
            diagnostics: js_diagnostics(&edit.diagnostics, Some(&located), object_text.as_ref()),
        })
    }
}

#[wasm_bindgen(js_class = Definition)]
impl JsDefinition {
    /// Applies the root's suspendActions: `{object, patch, diagnostics}`.
    pub fn suspend(&self, object: &JsValue) -> Result<JsValue, JsValue> {
        self.run_edit(object, &EditKind::Suspend)
    }

    /// Applies the root's resumeActions: `{object, patch, diagnostics}`.
    pub fn resume(&self, object: &JsValue) -> Result<JsValue, JsValue> {
        self.run_edit(object, &EditKind::Resume)
    }

    /// Applies a JSON merge patch to one component's pod spec: `{object, patch, diagnostics}`.
    #[wasm_bindgen(js_name = editPodSpec)]
    pub fn edit_pod_spec(&self, object: &JsValue, options: &JsValue) -> Result<JsValue, JsValue> {
        self.run_edit(object, &pod_spec_options(options)?)
    }
}

/// `suspend` with a definition given as text or a plain object.
#[wasm_bindgen(js_name = suspendWith)]
pub fn suspend_with(definition: &JsValue, object: &JsValue) -> Result<JsValue, JsValue> {
    JsDefinition::new(definition)?.suspend(object)
}

/// `resume` with a definition given as text or a plain object.
#[wasm_bindgen(js_name = resumeWith)]
pub fn resume_with(definition: &JsValue, object: &JsValue) -> Result<JsValue, JsValue> {
    JsDefinition::new(definition)?.resume(object)
}

/// `editPodSpec` with a definition given as text or a plain object.
#[wasm_bindgen(js_name = editPodSpecWith)]
pub fn edit_pod_spec_with(
    definition: &JsValue,
    object: &JsValue,
    options: &JsValue,
) -> Result<JsValue, JsValue> {
    JsDefinition::new(definition)?.edit_pod_spec(object, options)
}
/// The result of `draft`.
#[derive(Serialize)]
struct JsDraft<'a> {
    text: &'a str,
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// Drafts a commented starting definition from one object (YAML/JSON text or a plain object):
/// `{text, diagnostics}`. Diagnostics with source `object` say what could not be drafted (and
/// an unparsable text, with `text` empty); those with source `definition` point into `text`.
#[wasm_bindgen(js_name = draft)]
pub fn draft(object: &JsValue) -> Result<JsValue, JsValue> {
    let input = read_object(object, "draft()")?;
    let object_located = input.text.as_deref().map(Located::new);
    let value = match input.read.into_single() {
        Ok(value) => value,
        Err(problems) => {
            return to_js(&JsDraft {
                text: "",
                diagnostics: js_diagnostics(&problems, None, object_located.as_ref()),
            })
        }
    };
    let drafted = crate::draft::draft(&value);
    let located = Located::new(&drafted.text);
    to_js(&JsDraft {
        text: &drafted.text,
        diagnostics: js_diagnostics(
            &drafted.diagnostics,
            Some(&located),
            object_located.as_ref(),
        ),
    })
}

thread_local! {
    /// The catalog definitions `resolveAll` compiled, kept for the instance's life (the
    /// package replaces the instance after a trap, and this with it).
    static COMPILED_CATALOG: std::cell::RefCell<crate::batch::CompiledCatalog> =
        std::cell::RefCell::new(crate::batch::CompiledCatalog::default());
}

thread_local! {
    /// The definitions the last `resolveAll` was given, compiled, held so that the next call
    /// finds them shared (only the last call's, so memory is bounded by one call's
    /// definitions).
    static GIVEN_DEFINITIONS: std::cell::RefCell<Vec<Rc<CompiledDefinition>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// One workload of `resolveAll` as JavaScript sees it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsResolved<'a> {
    index: usize,
    /// The object's identity, read for every workload (also those without a definition).
    #[serde(flatten)]
    identity: Identity<'a>,
    creation_timestamp: Option<&'a str>,
    definition: Option<JsCatalogRef>,
    /// The index in `options.definitions` of the definition that read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    given: Option<usize>,
    view: Option<JsView<'a>>,
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// The catalog definition a workload of `resolveAll` was read with.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsCatalogRef {
    name: &'static str,
    exact_version: bool,
}

/// The result of `resolveAll`.
#[derive(Serialize)]
struct JsBatch<'a> {
    items: Vec<JsResolved<'a>>,
    unowned: Vec<JsUnowned<'a>>,
    diagnostics: Vec<JsDiagnostic<'a>>,
    /// The token of the state kept for `resolveAllRefresh` (the package removes it).
    #[serde(skip_serializing_if = "Option::is_none")]
    refresh: Option<u32>,
}

/// An object that belongs to no workload, as JavaScript sees it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsUnowned<'a> {
    index: usize,
    #[serde(flatten)]
    identity: Identity<'a>,
    /// Why it belongs to none (its code names the reason).
    diagnostic: JsDiagnostic<'a>,
}

fn js_unowned<'a>(unowned: &'a crate::manifest::Unowned, object: &'a Value) -> JsUnowned<'a> {
    JsUnowned {
        index: unowned.index,
        identity: Identity::of(object),
        diagnostic: js_diagnostic(&unowned.diagnostic, None, None),
    }
}

/// One workload of `readManifest`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsWorkload<'a> {
    index: usize,
    #[serde(flatten)]
    identity: Identity<'a>,
    related: &'a [usize],
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// The result of `readManifest`.
#[derive(Serialize)]
struct JsReading<'a> {
    workloads: Vec<JsWorkload<'a>>,
    unowned: Vec<JsUnowned<'a>>,
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// Reads a manifest (text, an array of objects, or a plain object; a `kind: List` expanded)
/// with `options.related` objects given apart: which objects are workloads, which objects
/// belong to each (by index: the manifest's objects first, then the related ones), and which
/// belong to none, with the reason. The one reading `resolve`, `resolveAll`, the CLI and the
/// playground use (see the crate's `manifest` module).
#[wasm_bindgen(js_name = readManifest)]
pub fn read_manifest_js(objects: &JsValue, options: &JsValue) -> Result<JsValue, JsValue> {
    let (items, mut problems) =
        read_batch_objects(objects, "readManifest() objects", Item::new("items", 0))?;
    let related = if options.is_undefined() || options.is_null() {
        None
    } else if options.is_object() && !js_sys::Array::is_array(options) {
        let (related, found) = related_option(options, Item::new("items", items.len()))?;
        problems.extend(found);
        related
    } else {
        return Err(type_error(
            "readManifest(objects, { related? }) options must be an object",
        ));
    };
    let extra = related.unwrap_or_default();
    let reading = crate::manifest::read(&items, &extra);
    let all: Vec<&Value> = items.iter().chain(&extra).collect();
    let list_text = objects.as_string();
    let located = list_text.as_deref().map(Located::new);
    to_js(&js_reading(&reading, &all, &problems, located.as_ref()))
}

/// A reading as JavaScript sees it: `all` are the objects it indexes, `problems` those found
/// reading their text (placed in `located`).
fn js_reading<'a>(
    reading: &'a crate::manifest::Reading,
    all: &[&'a Value],
    problems: &'a [Diagnostic],
    located: Option<&Located<'_>>,
) -> JsReading<'a> {
    JsReading {
        workloads: reading
            .workloads
            .iter()
            .map(|w| JsWorkload {
                index: w.index,
                identity: Identity::of(all[w.index]),
                related: &w.related,
                diagnostics: js_diagnostics(&w.diagnostics, None, None),
            })
            .collect(),
        unowned: reading
            .unowned
            .iter()
            .map(|u| js_unowned(u, all[u.index]))
            .collect(),
        diagnostics: js_diagnostics(problems, None, located),
    }
}

/// The objects `resolveAll` takes: YAML/JSON text (a `kind: List`, a multi-document stream),
/// an array of plain objects, or a plain object (a `kind: List` is expanded). Returns the
/// objects and the problems found reading them (the objects of an array that could not be
/// read are named from `first`, and their places hold `null`; see [`objects_of`]).
fn read_batch_objects(
    objects: &JsValue,
    what: &str,
    first: Item<'_>,
) -> Result<(Vec<Value>, Vec<Diagnostic>), JsValue> {
    read_batch(objects, what, first).map(|read| (read.objects, read.problems))
}

/// The objects of a batch, the problems reading them, and their nodes when read from text.
struct BatchInput {
    objects: Vec<Value>,
    problems: Vec<Diagnostic>,
    documents: Vec<crate::yaml::Node>,
}

/// [`read_batch_objects`], with the objects' nodes when they were read from text.
fn read_batch(objects: &JsValue, what: &str, first: Item<'_>) -> Result<BatchInput, JsValue> {
    if let Some(text) = objects.as_string() {
        headroom(text.len());
        let read = object::read_objects(&text);
        return Ok(BatchInput {
            objects: read.objects.into_iter().map(|(o, _)| o).collect(),
            problems: read.diagnostics,
            documents: read.nodes,
        });
    }
    let (objects, problems) = read_plain_batch(objects, what, first)?;
    Ok(BatchInput {
        objects,
        problems,
        documents: Vec::new(),
    })
}

fn read_plain_batch(
    objects: &JsValue,
    what: &str,
    first: Item<'_>,
) -> Result<(Vec<Value>, Vec<Diagnostic>), JsValue> {
    if js_sys::Array::is_array(objects) {
        return objects_of(objects, what, first);
    }
    let read = match object_text(objects, what)? {
        Ok(text) => json_objects(&text, what)?,
        Err(problem) => object::unread(problem),
    };
    Ok((
        read.objects.into_iter().map(|(o, _)| o).collect(),
        read.diagnostics,
    ))
}

/// Resolves every workload of a List (`kubectl get jobsets,pytorchjobs,... -A -o json`) with
/// its catalog definition, each definition compiled once, the List's pods (and those given as
/// `options.pods`) shared out among them (see `batch::resolve_all`).
#[wasm_bindgen(js_name = resolveAll)]
pub fn resolve_all(objects: &JsValue, options: &JsValue) -> Result<JsValue, JsValue> {
    const USAGE: &str =
        "resolveAll(objects, { catalog: true, related? } | { definitions: string[], catalog?: boolean, related? }) options";
    if !options.is_object() || js_sys::Array::is_array(options) {
        return Err(type_error(&format!("{USAGE} must be an object")));
    }
    let catalog_flag = js_sys::Reflect::get(options, &JsValue::from_str("catalog"))?;
    let definitions_option = js_sys::Reflect::get(options, &JsValue::from_str("definitions"))?;
    let given_texts: Option<Vec<String>> =
        if definitions_option.is_undefined() || definitions_option.is_null() {
            None
        } else {
            if !js_sys::Array::is_array(&definitions_option) {
                return Err(type_error(&format!(
                    "{USAGE}: definitions must be an array of texts"
                )));
            }
            let list = js_sys::Array::from(&definitions_option);
            let texts: Option<Vec<String>> = list.iter().map(|t| t.as_string()).collect();
            Some(texts.ok_or_else(|| {
                type_error(&format!("{USAGE}: definitions must be an array of texts"))
            })?)
        };
    if given_texts.is_none() && catalog_flag.as_bool() != Some(true) {
        return Err(type_error(&format!(
            "{USAGE}: `catalog: true` is required (the catalog is where each workload's definition comes from), or give `definitions`"
        )));
    }
    // The given definitions, compiled once: a text the last call was given is still held (an
    // exporter or a dashboard passes the same texts with every refresh), so it is shared.
    let given: Vec<Rc<CompiledDefinition>> = given_texts
        .iter()
        .flatten()
        .map(|t| compile_text(t))
        .collect();
    let given_refs: Vec<&CompiledDefinition> = given.iter().map(|d| &**d).collect();
    let given_located: Vec<Located<'_>> = given.iter().map(|d| Located::new(d.text())).collect();
    let BatchInput {
        objects: items,
        problems,
        documents,
    } = read_batch(objects, "resolveAll() objects", Item::new("items", 0))?;
    // Problems reading a text are placed in that text (the List's, then the pods').
    let list_text = objects.as_string();
    let list_located = list_text.as_deref().map(Located::new);
    let mut js_problems = js_diagnostics(&problems, None, list_located.as_ref());
    // `related` (or the older name `pods`): objects given apart, as text or objects.
    let mut related_texts: Vec<String> = Vec::new();
    let mut related: Option<Vec<Value>> = None;
    let mut related_problems: Vec<Vec<Diagnostic>> = Vec::new();
    for name in ["related", "pods"] {
        let option = js_sys::Reflect::get(options, &JsValue::from_str(name))?;
        if option.is_undefined() || option.is_null() {
            continue;
        }
        let first = Item::new("items", items.len() + related.as_ref().map_or(0, Vec::len));
        let (objects, problems) = read_batch_objects(&option, &format!("options.{name}"), first)?;
        if let Some(text) = option.as_string() {
            related_texts.push(text);
        } else {
            related_texts.push(String::new());
        }
        related_problems.push(problems);
        related.get_or_insert_with(Vec::new).extend(objects);
    }
    for (text, problems) in related_texts.iter().zip(&related_problems) {
        let located = (!text.is_empty()).then(|| Located::new(text));
        js_problems.extend(js_diagnostics(problems, None, located.as_ref()));
    }
    // Definitions and `catalog: true` together: the given ones for their types, the catalog's
    // for the others (a cluster's Karta definitions over the embedded catalog).
    let definitions = if given_texts.is_some() && catalog_flag.as_bool() == Some(true) {
        crate::batch::Definitions::Overlay(&given_refs)
    } else if given_texts.is_some() {
        crate::batch::Definitions::Given(&given_refs)
    } else {
        crate::batch::Definitions::Catalog
    };
    // An array read with the catalog is kept, so that the next call can send only what changed
    // (`resolveAllRefresh`, which the package's resolveAll calls on its own).
    let keep = given_texts.is_none()
        && list_text.is_none()
        && related_texts.iter().all(String::is_empty)
        && js_problems.is_empty();
    if keep {
        return COMPILED_CATALOG.with(|compiled| {
            let mut compiled = compiled.borrow_mut();
            let (batch, token) = crate::batch::resolve_catalog_kept(items, related, &mut compiled);
            let all: Vec<&Value> = compiled.kept_objects().iter().collect();
            let indexed = located_entries(batch.workloads.iter());
            to_js(&JsBatch {
                items: batch
                    .workloads
                    .iter()
                    .map(|result| js_resolved(result, &all, &[], &indexed, None))
                    .collect(),
                unowned: batch
                    .unowned
                    .iter()
                    .map(|u| js_unowned(u, all[u.index]))
                    .collect(),
                diagnostics: js_problems,
                refresh: Some(token),
            })
        });
    }
    let mut batch = COMPILED_CATALOG.with(|compiled| {
        crate::batch::resolve_batch(
            &items,
            related.as_deref(),
            definitions,
            &mut compiled.borrow_mut(),
        )
    });
    // Read from text: problems with values are shown where the text writes them.
    batch.place_in_text(&documents);
    drop(documents);
    let all: Vec<&Value> = items.iter().chain(related.iter().flatten()).collect();
    let indexed = located_entries(batch.workloads.iter());
    let js_items = batch
        .workloads
        .iter()
        .map(|result| {
            js_resolved(
                result,
                &all,
                &given_located,
                &indexed,
                list_located.as_ref(),
            )
        })
        .collect();
    let result = to_js(&JsBatch {
        items: js_items,
        unowned: batch
            .unowned
            .iter()
            .map(|u| js_unowned(u, all[u.index]))
            .collect(),
        diagnostics: js_problems,
        refresh: None,
    });
    drop(given_located);
    drop(given_refs);
    GIVEN_DEFINITIONS.with(|kept| kept.replace(given));
    result
}

/// The text of each catalog entry that read one of `results`, indexed for positions.
fn located_entries<'r>(
    results: impl Iterator<Item = &'r crate::batch::Resolved>,
) -> Vec<(&'static str, Located<'static>)> {
    let mut indexed: Vec<(&'static str, Located<'static>)> = Vec::new();
    for result in results {
        if let Some(lookup) = result.definition {
            if !indexed.iter().any(|(name, _)| *name == lookup.entry.name) {
                indexed.push((lookup.entry.name, Located::new(lookup.entry.text)));
            }
        }
    }
    indexed
}

/// One workload of `resolveAll` for JavaScript: its view's ranges in the text of the
/// definition that read it (a given one, or its catalog entry's in `indexed`).
fn js_resolved<'a>(
    result: &'a crate::batch::Resolved,
    all: &[&'a Value],
    given_located: &'a [Located<'a>],
    indexed: &'a [(&'static str, Located<'static>)],
    list_located: Option<&'a Located<'a>>,
) -> JsResolved<'a> {
    let located = match result.given {
        Some(g) => given_located.get(g),
        None => result
            .definition
            .and_then(|l| indexed.iter().find(|(name, _)| *name == l.entry.name))
            .map(|(_, located)| located),
    };
    let object = all[result.index];
    JsResolved {
        index: result.index,
        identity: Identity::of(object),
        creation_timestamp: object::creation_timestamp(object),
        definition: result.definition.map(|l| JsCatalogRef {
            name: l.entry.name,
            exact_version: l.exact_version,
        }),
        given: result.given,
        view: match (&result.view, located) {
            (Some(view), Some(located)) => Some(js_view(
                view,
                located,
                list_located,
                ResolveOptions::default(),
            )),
            _ => None,
        },
        diagnostics: js_diagnostics(&result.diagnostics, None, list_located),
    }
}

/// The result of `resolveAllRefresh`.
#[derive(Serialize)]
struct JsRefreshed<'a> {
    refresh: u32,
    /// `[position, workload]` for each workload resolved again.
    items: Vec<(usize, JsResolved<'a>)>,
}

/// The package's resolveAll, when the objects it is given are the last call's with a few
/// changed (compared by `uid` and `resourceVersion`, or content): `indices` are the positions
/// of the changed objects (the manifest's, then the related ones) and `objects` their new
/// versions. Returns the workloads resolved again, or `null` when this is no refresh (another
/// token, or a change the reading sees, such as a new owner); the package then calls
/// `resolveAll`. Internal: not part of the package's API.
#[wasm_bindgen(js_name = resolveAllRefresh)]
pub fn resolve_all_refresh(
    token: u32,
    indices: Vec<u32>,
    objects: &JsValue,
) -> Result<JsValue, JsValue> {
    let (objects, unread) = objects_of(
        objects,
        "resolveAllRefresh() objects",
        Item::new("items", 0),
    )?;
    if objects.len() != indices.len() {
        return Err(type_error("resolveAllRefresh(): one object for each index"));
    }
    if !unread.is_empty() {
        // No refresh: resolved in full, the call reports what could not be read.
        return Ok(JsValue::NULL);
    }
    let changes = indices
        .into_iter()
        .map(|i| i as usize)
        .zip(objects)
        .collect();
    COMPILED_CATALOG.with(|compiled| {
        let mut compiled = compiled.borrow_mut();
        let Some(refreshed) = compiled.refresh(token, changes) else {
            return Ok(JsValue::NULL);
        };
        let all: Vec<&Value> = compiled.kept_objects().iter().collect();
        let indexed = located_entries(refreshed.workloads.iter().map(|(_, r)| r));
        to_js(&JsRefreshed {
            refresh: refreshed.token,
            items: refreshed
                .workloads
                .iter()
                .map(|(position, result)| {
                    (*position, js_resolved(result, &all, &[], &indexed, None))
                })
                .collect(),
        })
    })
}

// --- Test cases for definitions (src/cases.rs) ------------------------------------------------

/// One comparison of a case as JavaScript sees it: the range becomes UTF-16 positions in the
/// case text.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsExpectation<'a> {
    path: &'a str,
    label: &'a str,
    passed: bool,
    expected: &'a Value,
    actual: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<u32>,
}

/// The result of `runCase`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsCaseResult<'a> {
    description: Option<&'a str>,
    kind: crate::cases::CaseKind,
    passed: bool,
    expectations: Vec<JsExpectation<'a>>,
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// Reads `runCase` options: `undefined`/`null`, or `{ files?: { [name]: text } }` (the other
/// case files of the folder, for `objectFrom`).
fn case_files(options: &JsValue) -> Result<std::collections::BTreeMap<String, String>, JsValue> {
    const USAGE: &str =
        "runCase() options must be an object: { files?: { [name: string]: string } }";
    let mut files = std::collections::BTreeMap::new();
    if options.is_undefined() || options.is_null() {
        return Ok(files);
    }
    if !options.is_object() || js_sys::Array::is_array(options) {
        return Err(type_error(USAGE));
    }
    let given = js_sys::Reflect::get(options, &JsValue::from_str("files"))?;
    if given.is_undefined() || given.is_null() {
        return Ok(files);
    }
    if !given.is_object() || js_sys::Array::is_array(&given) {
        return Err(type_error(USAGE));
    }
    for entry in js_sys::Object::entries(&js_sys::Object::from(given)).iter() {
        let pair = js_sys::Array::from(&entry);
        let (Some(name), Some(text)) = (pair.get(0).as_string(), pair.get(1).as_string()) else {
            return Err(type_error(&format!("{USAGE}: every file must be text")));
        };
        files.insert(name, text);
    }
    Ok(files)
}

#[wasm_bindgen(js_class = Definition)]
impl JsDefinition {
    /// Runs a test case (YAML/JSON text in the catalog's case format) with this definition:
    /// `{description, kind, passed, expectations, diagnostics}`. Every expectation carries its
    /// expected and actual value and its place in the case text; a malformed case has error
    /// diagnostics (source `case`). `options.files` gives the other case files of the folder by
    /// name, for `objectFrom`.
    #[wasm_bindgen(js_name = runCase)]
    pub fn run_case(&self, case: &JsValue, options: &JsValue) -> Result<JsValue, JsValue> {
        let text = case
            .as_string()
            .ok_or_else(|| type_error("runCase() takes the case as YAML/JSON text"))?;
        let files = case_files(options)?;
        let outcome =
            crate::cases::run_case(&self.compiled, &text, &|name| files.get(name).cloned());
        let located = Located::new(&text);
        let position = |range: Option<crate::diagnostic::TextRange>| {
            range.map(|r| {
                (
                    located.index.line_col(&text, r.start, ColumnUnit::Utf16),
                    located.index.line_col(&text, r.end, ColumnUnit::Utf16),
                )
            })
        };
        to_js(&JsCaseResult {
            description: outcome.description.as_deref(),
            kind: outcome.kind,
            passed: outcome.passed,
            expectations: outcome
                .expectations
                .iter()
                .map(|e| {
                    let at = position(e.range);
                    JsExpectation {
                        path: &e.path,
                        label: &e.label,
                        passed: e.passed,
                        expected: &e.expected,
                        actual: &e.actual,
                        note: e.note.as_deref(),
                        line: at.map(|(s, _)| s.line),
                        column: at.map(|(s, _)| s.column),
                        end_line: at.map(|(_, e)| e.line),
                        end_column: at.map(|(_, e)| e.column),
                    }
                })
                .collect(),
            diagnostics: js_diagnostics(&outcome.diagnostics, None, Some(&located)),
        })
    }
}

/// `runCase` with a definition given as text or a plain object.
#[wasm_bindgen(js_name = runCaseWith)]
pub fn run_case_with(
    definition: &JsValue,
    case: &JsValue,
    options: &JsValue,
) -> Result<JsValue, JsValue> {
    JsDefinition::new(definition)?.run_case(case, options)
}

// --- checking a definition against API schemas (src/apischema) -------------------------------

thread_local! {
    /// The schema set of the last `checkDefinition`/`draftFromSchema` call (see
    /// [`SchemaCache`]): kept for the instance's life.
    static SCHEMA_CACHE: std::cell::RefCell<SchemaCache> =
        std::cell::RefCell::new(SchemaCache::default());
}

/// The schema texts `checkDefinition` takes: one text, or an array of texts or `{name, text}`.
fn schema_texts(schemas: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    const MISUSE: &str =
        "checkDefinition() takes the schemas as text, or an array of texts or {name, text} objects";
    if let Some(text) = schemas.as_string() {
        return Ok(vec![("schema".to_owned(), text)]);
    }
    if !js_sys::Array::is_array(schemas) {
        return Err(type_error(MISUSE));
    }
    let mut out = Vec::new();
    for (i, item) in js_sys::Array::from(schemas).iter().enumerate() {
        if let Some(text) = item.as_string() {
            out.push((format!("schema {}", i + 1), text));
            continue;
        }
        let get = |key: &str| js_sys::Reflect::get(&item, &JsValue::from_str(key)).ok();
        let text = get("text")
            .and_then(|t| t.as_string())
            .ok_or_else(|| type_error(MISUSE))?;
        let name = get("name")
            .and_then(|n| n.as_string())
            .unwrap_or_else(|| format!("schema {}", i + 1));
        out.push((name, text));
    }
    Ok(out)
}

/// The schema set of `texts`, read once per distinct set of texts.
fn schema_set(texts: &[(String, String)]) -> ReadSchemas {
    SCHEMA_CACHE.with(|cache| cache.borrow_mut().read(texts))
}

/// A place in the definition text, 1-based UTF-16.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsPlace {
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
}

fn js_place(located: &Located<'_>, range: crate::diagnostic::TextRange) -> JsPlace {
    let start = located
        .index
        .line_col(located.text, range.start, ColumnUnit::Utf16);
    let end = located
        .index
        .line_col(located.text, range.end, ColumnUnit::Utf16);
    JsPlace {
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
    }
}

/// A field that exists in some of the checked schemas only.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsPresence<'a> {
    field: &'a str,
    definition_path: &'a str,
    present: &'a [String],
    missing: &'a [String],
    #[serde(flatten)]
    place: Option<JsPlace>,
}

/// A field a path reads, with what the schema has there.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsRead<'a> {
    field: &'a str,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    schema_type: Option<&'a str>,
    declared: bool,
    #[serde(flatten)]
    place: JsPlace,
}

/// The result of `checkDefinition`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsCheck<'a> {
    valid: bool,
    checked: &'a [crate::apischema::check::Checked],
    #[serde(skip_serializing_if = "Option::is_none")]
    pod_schema: Option<&'a crate::apischema::check::Checked>,
    diagnostics: Vec<JsDiagnostic<'a>>,
    paths: Vec<JsPresence<'a>>,
    reads: Vec<JsRead<'a>>,
}

/// Checks a definition (YAML/JSON text) against API schemas (CRDs, Kubernetes OpenAPI v3
/// documents): `{valid, checked, podSchema?, diagnostics, paths, reads}`. `options.allVersions`
/// checks against every version of the type, not only the definition's. Diagnostics of the
/// schemas themselves have source `schema` and no position.
#[wasm_bindgen(js_name = checkDefinition)]
pub fn check_definition(
    definition: &JsValue,
    schemas: &JsValue,
    options: &JsValue,
) -> Result<JsValue, JsValue> {
    let text = definition
        .as_string()
        .ok_or_else(|| type_error("checkDefinition() takes the definition as YAML/JSON text"))?;
    let texts = schema_texts(schemas)?;
    let all_versions = if options.is_undefined() || options.is_null() {
        false
    } else {
        js_sys::Reflect::get(options, &JsValue::from_str("allVersions"))
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
    };
    let read = schema_set(&texts);
    let (set, problems) = (&read.0, &read.1);
    let report = crate::apischema::check_definition(
        &text,
        set,
        &crate::apischema::CheckOptions { all_versions },
    );
    let located = Located::new(&text);
    let mut diagnostics = js_diagnostics(problems, None, None);
    diagnostics.extend(js_diagnostics(&report.diagnostics, Some(&located), None));
    let valid = report.valid_with(problems);
    to_js(&JsCheck {
        valid,
        checked: &report.checked,
        pod_schema: report.pod_schema.as_ref(),
        diagnostics,
        paths: report
            .paths
            .iter()
            .map(|p| JsPresence {
                field: &p.field,
                definition_path: &p.definition_path,
                present: &p.present,
                missing: &p.missing,
                place: p.range.map(|r| js_place(&located, r)),
            })
            .collect(),
        reads: report
            .reads
            .iter()
            .map(|r| JsRead {
                field: &r.field,
                schema_type: r.schema_type.as_deref(),
                declared: r.declared,
                place: js_place(&located, r.range),
            })
            .collect(),
    })
}

/// What `draftFromSchema` drafted from.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsSchemaDraft<'a> {
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    drafted: Option<&'a crate::apischema::check::Checked>,
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// Drafts a commented starting definition from API schemas (the texts `checkDefinition`
/// takes): `{text, drafted?, diagnostics}`. `options.kind`/`group` pick the type when the
/// schemas describe several, `options.version` the version (default: the storage version);
/// `options.object` (text or a plain object of the type) is laid over the schema's sample.
/// What cannot be drafted is a diagnostic, with `text` empty.
#[wasm_bindgen(js_name = draftFromSchema)]
pub fn draft_from_schema(schemas: &JsValue, options: &JsValue) -> Result<JsValue, JsValue> {
    let texts = schema_texts(schemas)?;
    let option = |key: &str| -> Option<JsValue> {
        if options.is_undefined() || options.is_null() {
            return None;
        }
        js_sys::Reflect::get(options, &JsValue::from_str(key))
            .ok()
            .filter(|v| !v.is_undefined() && !v.is_null())
    };
    let string = |key: &str| -> Result<Option<String>, JsValue> {
        match option(key) {
            None => Ok(None),
            Some(v) => v.as_string().map(Some).ok_or_else(|| {
                type_error(&format!("draftFromSchema() option {key} must be a string"))
            }),
        }
    };
    let (group, kind, version) = (string("group")?, string("kind")?, string("version")?);
    let object = match option("object") {
        None => None,
        Some(o) => {
            let input = read_object(&o, "draftFromSchema()")?;
            match input.read.into_single() {
                Ok(value) => Some(value),
                Err(problems) => {
                    return to_js(&JsSchemaDraft {
                        text: "",
                        drafted: None,
                        diagnostics: js_diagnostics(&problems, None, None),
                    })
                }
            }
        }
    };
    let read = schema_set(&texts);
    let (set, problems) = (&read.0, &read.1);
    let drafted = crate::apischema::draft::draft_picked(
        set,
        group.as_deref(),
        kind.as_deref(),
        version.as_deref(),
        object.as_ref(),
    );
    let located = Located::new(&drafted.text);
    let mut diagnostics = js_diagnostics(problems, None, None);
    diagnostics.extend(js_diagnostics(&drafted.diagnostics, Some(&located), None));
    to_js(&JsSchemaDraft {
        text: &drafted.text,
        drafted: drafted.drafted.as_ref(),
        diagnostics,
    })
}

/// What `schemaFields` answers: the type picked and what its schema has at the path.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsSchemaFields<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    schema: Option<crate::apischema::check::Checked>,
    #[serde(flatten)]
    at: crate::apischema::fields::FieldsAt,
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// The fields an API schema has at a path of a type (the texts `checkDefinition` takes):
/// `{schema?, found, type?, description?, open, map, list, fields: [{name, type,
/// description?}], diagnostics}`, for an editor's completion and hover. `options.kind`,
/// `group` and `version` pick the type as `draftFromSchema` does; `options.path` is a simple
/// path (`.spec.groups[].template`; the root by default).
#[wasm_bindgen(js_name = schemaFields)]
pub fn schema_fields(schemas: &JsValue, options: &JsValue) -> Result<JsValue, JsValue> {
    let texts = schema_texts(schemas)?;
    let string = |key: &str| -> Result<Option<String>, JsValue> {
        if options.is_undefined() || options.is_null() {
            return Ok(None);
        }
        match js_sys::Reflect::get(options, &JsValue::from_str(key)) {
            Ok(v) if v.is_undefined() || v.is_null() => Ok(None),
            Ok(v) => v.as_string().map(Some).ok_or_else(|| {
                type_error(&format!("schemaFields() option {key} must be a string"))
            }),
            Err(_) => Ok(None),
        }
    };
    let (group, kind, version) = (string("group")?, string("kind")?, string("version")?);
    let path = string("path")?.unwrap_or_default();
    let read = schema_set(&texts);
    let (set, problems) = (&read.0, &read.1);
    let failed = |why: String, code| {
        let mut all = problems.clone();
        let mut d = Diagnostic::error(code, why);
        d.source = Source::Schema;
        all.push(d);
        to_js(&JsSchemaFields {
            schema: None,
            at: crate::apischema::fields::FieldsAt::default(),
            diagnostics: js_diagnostics(&all, None, None),
        })
    };
    let entry = match crate::apischema::draft::pick(
        set,
        group.as_deref(),
        kind.as_deref(),
        version.as_deref(),
    ) {
        Ok(entry) => entry,
        Err(why) => return failed(why, crate::diagnostic::codes::SCHEMA_NOT_FOUND),
    };
    let at = match crate::apischema::fields::fields_at(set, entry, &path) {
        Ok(at) => at,
        Err(why) => return Err(type_error(&format!("schemaFields(): {why}"))),
    };
    to_js(&JsSchemaFields {
        schema: Some(crate::apischema::check::Checked {
            label: entry.version.clone(),
            group: entry.group.clone(),
            version: entry.version.clone(),
            kind: entry.kind.clone(),
            source: entry.source.clone(),
        }),
        at,
        diagnostics: js_diagnostics(problems, None, None),
    })
}

mod cel_hooks;
mod measure;
mod testing;

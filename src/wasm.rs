//! The JavaScript boundary: the only module that knows wasm-bindgen or js-sys.
//!
//! It turns core results into the plain, camelCase values the npm package documents in
//! `index.d.ts`. Everything crosses as JSON text (`serde_json` here, `JSON.parse` in the engine),
//! which keeps maps as plain objects and is faster than walking values field by field. Byte
//! ranges become 1-based line/column in UTF-16 code units here, once, because that is what
//! JavaScript strings and editors count. Only misuse of the API throws (a `TypeError`); problems
//! in what the user wrote come back as diagnostics.

use js_sys::JSON;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::compile::CompiledDefinition;
use crate::diagnostic::{ColumnUnit, Diagnostic, LineIndex, Severity, Source};
use crate::view::{ResolveOptions, View};
use crate::{catalog, object, quantity, yaml};

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
        Source::Object => object,
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

/// The JSON text of a plain JavaScript object (not a string).
///
/// `NaN` and `±Infinity` cross as the strings the YAML reader makes of `.nan` and `±.inf`
/// ([`yaml::non_finite_text`]), not as the `null` that `JSON.stringify` writes for them, so a
/// plain object and the same YAML text reach the resolver identically. `JSON.stringify` turns
/// them into `null`, so only text holding a `null` can have had one: only then is it written
/// again with a replacer (which calls into wasm for every value).
fn object_text(value: &JsValue, what: &str) -> Result<String, JsValue> {
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(type_error(&format!(
            "{what} must be YAML/JSON text or a plain object"
        )));
    }
    let text = String::from(JSON::stringify(value)?);
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

/// Reads a plain JavaScript object (not a string) as JSON, held to the reader's nesting limit
/// ([`yaml::MAX_DEPTH`]); a deeper object is a diagnostic with the path where it went too deep.
fn object_to_json(value: &JsValue, what: &str) -> Result<Result<Value, Diagnostic>, JsValue> {
    let text = object_text(value, what)?;
    Ok(yaml::parse_json(&text))
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
    let read = match object_to_json(object, "the object")? {
        Ok(value) => object::ReadObjects {
            objects: vec![(value, crate::diagnostic::TextRange::default())],
            diagnostics: Vec::new(),
        },
        // Positions in the engine's JSON text mean nothing to the caller: the path locates it.
        Err(problem) => object::ReadObjects {
            objects: Vec::new(),
            diagnostics: vec![unplaced(problem.in_object())],
        },
    };
    Ok(ObjectInput { read, text: None })
}

/// The one object read, or the problems that stopped reading it (an error among them).
fn single_object(read: object::ReadObjects) -> Result<Value, Vec<Diagnostic>> {
    let object::ReadObjects {
        mut objects,
        mut diagnostics,
    } = read;
    if objects.len() == 1 && !diagnostics.iter().any(Diagnostic::is_error) {
        return Ok(objects.remove(0).0);
    }
    if !diagnostics.iter().any(Diagnostic::is_error) {
        diagnostics.push(
            Diagnostic::error(
                crate::diagnostic::codes::OBJECT_INVALID,
                "the text holds no object",
            )
            .in_object(),
        );
    }
    Err(diagnostics)
}

/// A diagnostic about a plain object: located by its path only, as there is no text.
fn unplaced(mut problem: Diagnostic) -> Diagnostic {
    problem.range = None;
    problem
}

/// The view as JavaScript sees it: the core's view with diagnostics placed in the texts.
/// Field for field the same as [`View`] (in the same order, so JSON output reads naturally).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsView<'a> {
    api_version: &'a str,
    kind: &'a str,
    name: &'a str,
    namespace: Option<&'a str>,
    definition: &'a crate::view::DefinitionRef,
    phases: &'a [crate::definition::Phase],
    status: JsStatus<'a>,
    resources: &'a crate::view::Resources,
    root: Option<&'a crate::view::Component>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pods: Option<&'a crate::view::PodsSummary>,
    groups: &'a [crate::view::Group],
    diagnostics: Vec<JsDiagnostic<'a>>,
}

/// The status as JavaScript sees it: the lean view leaves out `mappings` altogether.
#[derive(Serialize)]
struct JsStatus<'a> {
    phase: Option<&'a str>,
    conditions: &'a [crate::view::Condition],
    #[serde(skip_serializing_if = "Option::is_none")]
    mappings: Option<&'a [crate::view::MappingExplanation]>,
}

fn view_to_js(
    view: &View,
    definition: &Located<'_>,
    object_text: Option<&str>,
    options: ResolveOptions,
) -> Result<JsValue, JsValue> {
    let object = object_text.map(Located::new);
    // Destructured so that a field added to the view fails to compile here until it is passed on.
    let View {
        api_version,
        kind,
        name,
        namespace,
        definition: definition_ref,
        phases,
        status,
        resources,
        root,
        pods,
        groups,
        diagnostics,
    } = view;
    to_js(&JsView {
        api_version,
        kind,
        name,
        namespace: namespace.as_deref(),
        definition: definition_ref,
        phases,
        status: JsStatus {
            phase: status.phase.as_deref(),
            conditions: &status.conditions,
            mappings: options.explain.then_some(status.mappings.as_slice()),
        },
        resources,
        root: root.as_ref(),
        pods: pods.as_ref(),
        groups,
        diagnostics: js_diagnostics(diagnostics, Some(definition), object.as_ref()),
    })
}

/// A compiled definition: parse, validate and compile once, then resolve many objects.
#[wasm_bindgen(js_name = Definition)]
pub struct JsDefinition {
    compiled: CompiledDefinition,
    /// Lines of the definition text, built once: every resolve converts positions with it.
    lines: LineIndex,
}

#[wasm_bindgen(js_class = Definition)]
impl JsDefinition {
    /// Compiles a definition from YAML/JSON text or a plain object. Never fails on bad input
    /// (see `diagnostics`); throws a `TypeError` only when given something else.
    #[wasm_bindgen(constructor)]
    pub fn new(source: &JsValue) -> Result<JsDefinition, JsValue> {
        let compiled = match source.as_string() {
            Some(text) => CompiledDefinition::from_text(&text),
            None => {
                let text = object_text(source, "a definition")?;
                match yaml::parse_json(&text) {
                    Ok(value) => CompiledDefinition::from_json(&value),
                    // Too deep: compiled from the engine's JSON text, whose reading reports
                    // where (its diagnostics point into that text, the definition's text).
                    Err(_) => CompiledDefinition::from_text(&text),
                }
            }
        };
        let lines = LineIndex::new(compiled.text());
        Ok(JsDefinition { compiled, lines })
    }

    /// Every problem in the definition, with 1-based UTF-16 positions.
    #[wasm_bindgen(getter)]
    pub fn diagnostics(&self) -> Result<JsValue, JsValue> {
        let located = Located::indexed(self.compiled.text(), &self.lines);
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
    pub fn resolve(&self, object: &JsValue, options: &JsValue) -> Result<JsValue, JsValue> {
        let located = Located::indexed(self.compiled.text(), &self.lines);
        let (related, resolve_options) = read_options(options)?;
        let input = read_object(object, "resolve()")?;
        let view = self
            .compiled
            .resolve_read_with(input.read, related.as_ref(), resolve_options);
        view_to_js(&view, &located, input.text.as_deref(), resolve_options)
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
    let compiled = CompiledDefinition::from_text(&text);
    let located = Located::new(compiled.text());
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

/// Reads `resolve`'s options: `undefined`/`null`, or `{ pods?, owners?, explain? }` with arrays
/// of plain objects and a boolean. Anything else is API misuse (a `TypeError`).
fn read_options(
    options: &JsValue,
) -> Result<(Option<crate::pods::Related>, ResolveOptions), JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok((None, ResolveOptions::default()));
    }
    if !options.is_object() || js_sys::Array::is_array(options) {
        return Err(type_error(
            "resolve() options must be an object: { pods?: object[], owners?: object[], explain?: boolean }",
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
    let pods = js_sys::Reflect::get(options, &JsValue::from_str("pods"))?;
    let owners = js_sys::Reflect::get(options, &JsValue::from_str("owners"))?;
    if pods.is_undefined() && owners.is_undefined() {
        return Ok((None, resolve_options));
    }
    let mut objects = objects_of(&pods, "options.pods")?;
    objects.extend(objects_of(&owners, "options.owners")?);
    Ok((
        Some(crate::pods::Related::from_objects(objects)),
        resolve_options,
    ))
}

fn objects_of(list: &JsValue, what: &str) -> Result<Vec<Value>, JsValue> {
    if list.is_undefined() || list.is_null() {
        return Ok(Vec::new());
    }
    if !js_sys::Array::is_array(list) {
        return Err(type_error(&format!("{what} must be an array of objects")));
    }
    let text = String::from(JSON::stringify(list)?);
    let values: Vec<Value> = serde_json::from_str(&text)
        .map_err(|e| type_error(&format!("{what} is not JSON-serialisable: {e}")))?;
    if values.iter().any(|v| !v.is_object()) {
        return Err(type_error(&format!("{what} must hold plain objects only")));
    }
    Ok(values)
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
    let located = Located::new(&text);
    let read = object::read_objects(&text);
    to_js(&ParsedObjects {
        objects: read.objects.into_iter().map(|(object, _)| object).collect(),
        diagnostics: js_diagnostics(&read.diagnostics, None, Some(&located)),
    })
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
        // Compiling is the only way to read the component names; the list is asked for rarely.
        components: CompiledDefinition::from_text(entry.text).component_names(),
        text: with_text.then_some(entry.text),
        exact_version,
    }
}

/// Every definition in the embedded catalog, sorted by name.
#[wasm_bindgen(js_name = catalogList)]
pub fn catalog_list() -> Result<JsValue, JsValue> {
    let mut entries: Vec<_> = catalog::entries()
        .iter()
        .map(|e| catalog_entry(e, false, None))
        .collect();
    entries.sort_by(|a, b| a.name.cmp(b.name));
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
    match catalog::entries().iter().find(|e| e.name == name) {
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
    let millis = q.millis_ceil_wide();
    let exact = i128::from(crate::resources::MAX_EXACT);
    to_js(&JsQuantity {
        value: q.to_f64(),
        milli_value: (-exact..=exact)
            .contains(&millis)
            .then(|| i64::try_from(millis).ok())
            .flatten(),
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

/// JavaScript numbers are doubles; the view's amounts are whole, non-negative and at most
/// `Number.MAX_SAFE_INTEGER`. Anything else would be printed rounded or clamped as if exact.
fn to_u64(value: f64, function: &str) -> Result<u64, JsValue> {
    // `MAX_EXACT` is below 2^53, so the conversion to f64 is exact.
    let max = crate::resources::MAX_EXACT as f64;
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= max {
        // Whole and within range: the conversion is exact.
        Ok(value as u64)
    } else {
        Err(js_sys::RangeError::new(&format!(
            "{function}() takes a whole number from 0 to Number.MAX_SAFE_INTEGER, not {value}"
        ))
        .into())
    }
}

/// The crate version (equal to the npm package version).
#[wasm_bindgen(js_name = version)]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

// --- test support ----------------------------------------------------------------------------

/// Stops the WebAssembly instance with a trap (`RuntimeError: unreachable`), on purpose.
///
/// Not API: it exists only so that the package's tests can show, with the real module, that the
/// JavaScript entry points recover from a trap (tests/node/restart.test.mjs). No input is known
/// to trap the core, and the tests must keep working after every such input is fixed.
/// `index.d.ts` marks it internal.
#[wasm_bindgen(js_name = __trapForTests)]
pub fn trap_for_tests() {
    std::arch::wasm32::unreachable()
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
    let text = JSON::stringify(&merge)?;
    let merge = serde_json::from_str(&String::from(text))
        .map_err(|e| type_error(&format!("{USAGE}: merge is not JSON-serialisable: {e}")))?;
    Ok(EditKind::PodSpec {
        component,
        instance,
        merge,
    })
}

impl JsDefinition {
    fn run_edit(&self, object: &JsValue, kind: &EditKind) -> Result<JsValue, JsValue> {
        let located = Located::indexed(self.compiled.text(), &self.lines);
        let input = read_object(object, kind.call())?;
        let object_text = input.text.as_deref().map(Located::new);
        let value = match single_object(input.read) {
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
    let value = match single_object(input.read) {
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

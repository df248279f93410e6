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
use crate::view::View;
use crate::{catalog, object, quantity};

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

/// Reads a plain JavaScript object (not a string) as JSON.
fn object_to_json(value: &JsValue, what: &str) -> Result<Value, JsValue> {
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(type_error(&format!(
            "{what} must be YAML/JSON text or a plain object"
        )));
    }
    let text = JSON::stringify(value)?;
    let text = String::from(text);
    serde_json::from_str(&text)
        .map_err(|e| type_error(&format!("{what} is not JSON-serialisable: {e}")))
}

/// An object to resolve, with the text it came from (for diagnostic positions).
struct ObjectInput {
    value: Option<Value>,
    text: Option<String>,
    problem: Option<Diagnostic>,
}

fn read_object(object: &JsValue) -> Result<ObjectInput, JsValue> {
    if let Some(text) = object.as_string() {
        return match object::parse_objects(&text) {
            Ok(mut objects) if objects.len() == 1 => {
                Ok(ObjectInput { value: objects.pop(), text: Some(text), problem: None })
            }
            Ok(objects) if objects.is_empty() => Ok(ObjectInput {
                value: None,
                text: Some(text),
                problem: Some(
                    Diagnostic::error(crate::diagnostic::codes::OBJECT_INVALID, "the text holds no object").in_object(),
                ),
            }),
            Ok(objects) => Err(type_error(&format!(
                "resolve() takes one object, but this text holds {}: use parseObjects() and resolve each",
                objects.len()
            ))),
            Err(problem) => Ok(ObjectInput { value: None, text: Some(text), problem: Some(problem) }),
        };
    }
    Ok(ObjectInput {
        value: Some(object_to_json(object, "the object")?),
        text: None,
        problem: None,
    })
}

/// The view of an object that could not be read: nothing but the problem.
fn unreadable_view(definition: &CompiledDefinition, problem: Diagnostic) -> View {
    let mut view = definition.resolve(&Value::Null);
    view.diagnostics.retain(|d| d.source == Source::Definition);
    view.diagnostics.insert(0, problem);
    view.root = None;
    view
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
    status: &'a crate::view::StatusView,
    resources: &'a crate::view::Resources,
    root: Option<&'a crate::view::Component>,
    diagnostics: Vec<JsDiagnostic<'a>>,
}

fn view_to_js(
    view: &View,
    definition: &Located<'_>,
    object_text: Option<&str>,
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
        diagnostics,
    } = view;
    to_js(&JsView {
        api_version,
        kind,
        name,
        namespace: namespace.as_deref(),
        definition: definition_ref,
        phases,
        status,
        resources,
        root: root.as_ref(),
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
            None => CompiledDefinition::from_json(&object_to_json(source, "a definition")?),
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

    /// Resolves one object (YAML/JSON text or a plain object) into a view.
    pub fn resolve(&self, object: &JsValue) -> Result<JsValue, JsValue> {
        let located = Located::indexed(self.compiled.text(), &self.lines);
        let input = read_object(object)?;
        let view = match (input.value, input.problem) {
            (Some(value), _) => self.compiled.resolve_owned(value),
            (None, Some(problem)) => unreadable_view(&self.compiled, problem),
            (None, None) => return Err(type_error("no object to resolve")),
        };
        view_to_js(&view, &located, input.text.as_deref())
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
pub fn resolve_with(definition: &JsValue, object: &JsValue) -> Result<JsValue, JsValue> {
    JsDefinition::new(definition)?.resolve(object)
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
    match object::parse_objects(&text) {
        Ok(objects) => to_js(&ParsedObjects {
            objects,
            diagnostics: Vec::new(),
        }),
        Err(problem) => {
            let problem = problem.in_object();
            to_js(&ParsedObjects {
                objects: Vec::new(),
                diagnostics: vec![js_diagnostic(&problem, None, Some(&located))],
            })
        }
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
    milli_value: i64,
    canonical: String,
    human: String,
}

/// Parses a Kubernetes quantity (`"500m"`, `"16Gi"`, `"1e3"`); throws a `RangeError` for text
/// that is not one (a parse function, like `JSON.parse`).
#[wasm_bindgen(js_name = parseQuantity)]
pub fn parse_quantity(text: &JsValue) -> Result<JsValue, JsValue> {
    let text = text
        .as_string()
        .ok_or_else(|| type_error("parseQuantity() takes a string"))?;
    let q = quantity::Quantity::parse(&text)
        .map_err(|e| JsValue::from(js_sys::RangeError::new(&e.to_string())))?;
    to_js(&JsQuantity {
        value: q.to_f64(),
        milli_value: q.milli_value_ceil(),
        canonical: q.format(),
        human: q.human(),
    })
}

/// CPU millicores for display: `20`, `1.5`, `500m`.
#[wasm_bindgen(js_name = formatCpu)]
pub fn format_cpu(millis: f64) -> String {
    quantity::human_millis(to_u64(millis))
}

/// Bytes for display: `16Gi`, `70M`, `1.5Gi`.
#[wasm_bindgen(js_name = formatMemory)]
pub fn format_memory(bytes: f64) -> String {
    quantity::human_bytes(to_u64(bytes))
}

/// JavaScript numbers are doubles; the view's amounts are whole and non-negative.
fn to_u64(value: f64) -> u64 {
    if value.is_finite() && value > 0.0 {
        // `as` saturates, which is what a display of an out-of-range amount wants.
        value.round() as u64
    } else {
        0
    }
}

/// The crate version (equal to the npm package version).
#[wasm_bindgen(js_name = version)]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
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
    if let Some(text) = object.as_string() {
        if let Ok(objects) = object::parse_objects(&text) {
            if objects.len() > 1 {
                return Err(type_error(&format!(
                    "draft() takes one object, but this text holds {}: use parseObjects() and draft one",
                    objects.len()
                )));
            }
        }
    }
    let input = read_object(object)?;
    let object_located = input.text.as_deref().map(Located::new);
    match (input.value, input.problem) {
        (Some(value), _) => {
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
        (None, Some(problem)) => {
            let problem = problem.in_object();
            to_js(&JsDraft {
                text: "",
                diagnostics: vec![js_diagnostic(&problem, None, object_located.as_ref())],
            })
        }
        (None, None) => Err(type_error("no object to draft from")),
    }
}

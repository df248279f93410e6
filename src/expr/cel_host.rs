//! CEL from the embedder: the third way the core runs CEL, next to the built-in engine
//! ([`super::cel`], feature `cel`) and none at all.
//!
//! The npm package ships CEL as a second WebAssembly module, loaded the first time a
//! definition holds a CEL expression, so the main module is built without the `cel` feature
//! and its JavaScript boundary registers a [`CelEngine`] that calls into that module. The
//! engine on the other side is the built-in one, run by [`Programs`] (handles for compiled
//! expressions and prepared inputs), and every answer crosses as the JSON text of [`wire`],
//! so the codes, messages, ranges and budgets are exactly the built-in engine's.
//!
//! A registered engine takes precedence over the built-in one (natively, tests register the
//! built-in engine through the wire as [`BuiltinEngine`] to show that both paths agree). With
//! neither, CEL expressions are refused with
//! [`codes::EXPR_CEL_UNAVAILABLE`](crate::diagnostic::codes::EXPR_CEL_UNAVAILABLE).

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;

use super::ExprError;
use crate::diagnostic::codes;

/// A CEL engine the embedder provides. Handles are the engine's own; the core frees each one
/// it was given exactly once.
pub trait CelEngine {
    /// Parses and checks one expression: a handle for it, or why it is refused (when the
    /// engine cannot be reached: [`codes::EXPR_CEL_UNAVAILABLE`]).
    fn compile(&self, source: &str) -> Result<u32, Vec<ExprError>>;
    /// Prepares a document for evaluation: a handle for it.
    fn input(&self, json: &Value) -> Result<u32, ExprError>;
    /// Evaluates a compiled expression on a prepared document.
    fn eval(&self, program: u32, input: u32) -> Result<Vec<Value>, ExprError>;
    /// Frees a compiled expression.
    fn free_program(&self, program: u32);
    /// Frees a prepared document.
    fn free_input(&self, input: u32);
}

thread_local! {
    static ENGINE: RefCell<Option<Rc<dyn CelEngine>>> = const { RefCell::new(None) };
}

/// Registers the CEL engine of this thread (`None` to remove it); returns the one it replaces.
/// Definitions compiled afterwards use it; those compiled before keep the engine they had.
pub fn set_cel_engine(engine: Option<Rc<dyn CelEngine>>) -> Option<Rc<dyn CelEngine>> {
    ENGINE.with(|e| e.replace(engine))
}

/// The registered engine, if any.
pub(crate) fn cel_engine() -> Option<Rc<dyn CelEngine>> {
    ENGINE.with(|e| e.borrow().clone())
}

/// CEL expressions being collected for a registered engine.
pub(crate) struct HostBuilder {
    engine: Rc<dyn CelEngine>,
    programs: Vec<u32>,
}

impl HostBuilder {
    pub(crate) fn new(engine: Rc<dyn CelEngine>) -> Self {
        HostBuilder {
            engine,
            programs: Vec::new(),
        }
    }

    pub(crate) fn add(&mut self, source: &str) -> Result<usize, Vec<ExprError>> {
        let program = self.engine.compile(source)?;
        self.programs.push(program);
        Ok(self.programs.len() - 1)
    }

    pub(crate) fn finish(mut self) -> HostSet {
        HostSet {
            engine: Rc::clone(&self.engine),
            programs: std::mem::take(&mut self.programs),
        }
    }
}

impl Drop for HostBuilder {
    fn drop(&mut self) {
        for &p in &self.programs {
            self.engine.free_program(p);
        }
    }
}

/// CEL expressions compiled by a registered engine.
pub(crate) struct HostSet {
    engine: Rc<dyn CelEngine>,
    programs: Vec<u32>,
}

impl HostSet {
    pub(crate) fn engine(&self) -> &Rc<dyn CelEngine> {
        &self.engine
    }

    pub(crate) fn eval(&self, index: usize, input: &HostInput) -> Result<Vec<Value>, ExprError> {
        let program = self.programs.get(index).ok_or_else(|| {
            ExprError::new(codes::EXPR_COMPILE, "internal: unknown expression id")
        })?;
        if !Rc::ptr_eq(&self.engine, &input.engine) {
            return Err(ExprError::new(
                codes::EXPR_COMPILE,
                "internal: the input was prepared by another CEL engine",
            ));
        }
        let handle = input.handle.as_ref().map_err(Clone::clone)?;
        self.engine.eval(*program, *handle)
    }
}

impl Drop for HostSet {
    fn drop(&mut self) {
        for &p in &self.programs {
            self.engine.free_program(p);
        }
    }
}

/// A document prepared by a registered engine (once per [`super::Input`]).
pub(crate) struct HostInput {
    engine: Rc<dyn CelEngine>,
    handle: Result<u32, ExprError>,
}

impl HostInput {
    pub(crate) fn new(engine: &Rc<dyn CelEngine>, json: &Value) -> Self {
        HostInput {
            engine: Rc::clone(engine),
            handle: engine.input(json),
        }
    }
}

impl Drop for HostInput {
    fn drop(&mut self) {
        if let Ok(handle) = self.handle {
            self.engine.free_input(handle);
        }
    }
}

/// The JSON texts in which a host engine's answers cross between two WebAssembly modules:
/// `{"ok": handle}` or `{"errors": [{"code", "message", "range": [start, end] | null}]}` for a
/// compile, `{"ok": [values]}` or `{"error": {...}}` for an evaluation. Decoding gives back
/// the same [`ExprError`]s (a code the core does not know, or text that is no such answer, is
/// an internal `expr/compile-error`).
pub mod wire {
    use serde_json::{json, Map, Value};

    use super::ExprError;
    use crate::diagnostic::{codes, TextRange};

    fn error_json(e: &ExprError) -> Value {
        json!({
            "code": e.code,
            "message": e.message,
            "range": e.range.map(|r| [r.start, r.end]),
        })
    }

    fn internal(what: &str) -> ExprError {
        ExprError::new(
            codes::EXPR_COMPILE,
            format!("internal: the CEL engine answered {what}"),
        )
    }

    fn error_from(value: &Value) -> ExprError {
        let Some(object) = value.as_object() else {
            return internal("an error that is no object");
        };
        let code = object.get("code").and_then(Value::as_str).and_then(|c| {
            codes::ALL
                .iter()
                .find(|d| d.code == c)
                .map(|d| d.code)
        });
        let Some(code) = code else {
            return internal("an unknown error code");
        };
        let message = object
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let range = object.get("range").and_then(Value::as_array).and_then(|r| {
            let start = u32::try_from(r.first()?.as_u64()?).ok()?;
            let end = u32::try_from(r.get(1)?.as_u64()?).ok()?;
            Some(TextRange { start, end })
        });
        ExprError {
            code,
            message: message.to_owned(),
            range,
        }
    }

    fn parse(text: &str) -> Option<Map<String, Value>> {
        match serde_json::from_str(text) {
            Ok(Value::Object(map)) => Some(map),
            _ => None,
        }
    }

    /// The text of a compile's answer.
    pub fn encode_compiled(result: &Result<u32, Vec<ExprError>>) -> String {
        match result {
            Ok(handle) => json!({ "ok": handle }),
            Err(errors) => json!({ "errors": errors.iter().map(error_json).collect::<Vec<_>>() }),
        }
        .to_string()
    }

    /// A compile's answer from its text.
    pub fn decode_compiled(text: &str) -> Result<u32, Vec<ExprError>> {
        let Some(map) = parse(text) else {
            return Err(vec![internal("no JSON object")]);
        };
        if let Some(handle) = map.get("ok") {
            return handle
                .as_u64()
                .and_then(|h| u32::try_from(h).ok())
                .ok_or_else(|| vec![internal("a handle that is no number")]);
        }
        match map.get("errors").and_then(Value::as_array) {
            Some(errors) if !errors.is_empty() => Err(errors.iter().map(error_from).collect()),
            _ => Err(vec![internal("neither a handle nor errors")]),
        }
    }

    /// The text of an evaluation's answer.
    pub fn encode_evaluated(result: &Result<Vec<Value>, ExprError>) -> String {
        match result {
            Ok(values) => json!({ "ok": values }),
            Err(error) => json!({ "error": error_json(error) }),
        }
        .to_string()
    }

    /// An evaluation's answer from its text.
    pub fn decode_evaluated(text: &str) -> Result<Vec<Value>, ExprError> {
        let Some(mut map) = parse(text) else {
            return Err(internal("no JSON object"));
        };
        match (map.remove("ok"), map.get("error")) {
            (Some(Value::Array(values)), _) => Ok(values),
            (_, Some(error)) => Err(error_from(error)),
            _ => Err(internal("neither values nor an error")),
        }
    }
}

/// The built-in engine behind handles: what the CEL module runs (crates/cel-wasm), each
/// expression compiled on its own by [`super::cel`].
#[cfg(feature = "cel")]
#[derive(Default)]
pub struct Programs {
    programs: Slots<super::cel::CelSet>,
    inputs: Slots<super::cel::CelInput>,
}

#[cfg(feature = "cel")]
impl Programs {
    /// Compiles `source`: its handle.
    pub fn compile(&mut self, source: &str) -> Result<u32, Vec<ExprError>> {
        let mut builder = super::cel::CelBuilder::default();
        builder.add(source)?;
        Ok(self.programs.insert(builder.finish()))
    }

    /// Prepares `json`: its handle.
    pub fn input(&mut self, json: &Value) -> u32 {
        self.inputs.insert(super::cel::CelInput::new(json))
    }

    /// Evaluates compiled expression `program` on prepared document `input`.
    pub fn eval(&self, program: u32, input: u32) -> Result<Vec<Value>, ExprError> {
        let unknown = |what: &str| {
            ExprError::new(
                codes::EXPR_COMPILE,
                format!("internal: unknown CEL {what} handle"),
            )
        };
        let set = self.programs.get(program).ok_or_else(|| unknown("program"))?;
        let input = self.inputs.get(input).ok_or_else(|| unknown("input"))?;
        set.eval(0, input)
    }

    /// Frees a compiled expression (an unknown handle is ignored).
    pub fn free_program(&mut self, program: u32) {
        self.programs.remove(program);
    }

    /// Frees a prepared document (an unknown handle is ignored).
    pub fn free_input(&mut self, input: u32) {
        self.inputs.remove(input);
    }

    /// How many expressions and documents are held (for tests: every handle is freed).
    pub fn held(&self) -> (usize, usize) {
        (self.programs.len(), self.inputs.len())
    }
}

/// Values behind `u32` handles, freed slots reused.
#[cfg(feature = "cel")]
struct Slots<T> {
    items: Vec<Option<T>>,
    free: Vec<u32>,
}

#[cfg(feature = "cel")]
impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots {
            items: Vec::new(),
            free: Vec::new(),
        }
    }
}

#[cfg(feature = "cel")]
impl<T> Slots<T> {
    fn insert(&mut self, item: T) -> u32 {
        if let Some(i) = self.free.pop() {
            self.items[i as usize] = Some(item);
            return i;
        }
        self.items.push(Some(item));
        // Handles stay below u32::MAX: wasm32 memory holds far fewer slots.
        u32::try_from(self.items.len() - 1).unwrap_or(u32::MAX)
    }

    fn get(&self, i: u32) -> Option<&T> {
        self.items.get(i as usize)?.as_ref()
    }

    fn remove(&mut self, i: u32) {
        if let Some(slot) = self.items.get_mut(i as usize) {
            if slot.take().is_some() {
                self.free.push(i);
            }
        }
    }

    fn len(&self) -> usize {
        self.items.len() - self.free.len()
    }
}

/// The built-in engine registered as a host engine, every answer through [`wire`]: what the
/// package does across its two WebAssembly modules, minus JavaScript (for tests).
#[cfg(feature = "cel")]
#[derive(Default)]
pub struct BuiltinEngine {
    programs: RefCell<Programs>,
}

#[cfg(feature = "cel")]
impl BuiltinEngine {
    /// How many expressions and documents the engine holds.
    pub fn held(&self) -> (usize, usize) {
        self.programs.borrow().held()
    }
}

#[cfg(feature = "cel")]
impl CelEngine for BuiltinEngine {
    fn compile(&self, source: &str) -> Result<u32, Vec<ExprError>> {
        let answer = self.programs.borrow_mut().compile(source);
        wire::decode_compiled(&wire::encode_compiled(&answer))
    }

    fn input(&self, json: &Value) -> Result<u32, ExprError> {
        // As the package does: the document crosses as JSON text.
        let json: Value = serde_json::from_str(&json.to_string()).map_err(|e| {
            ExprError::new(codes::EXPR_COMPILE, format!("internal: {e}"))
        })?;
        Ok(self.programs.borrow_mut().input(&json))
    }

    fn eval(&self, program: u32, input: u32) -> Result<Vec<Value>, ExprError> {
        let answer = self.programs.borrow().eval(program, input);
        wire::decode_evaluated(&wire::encode_evaluated(&answer))
    }

    fn free_program(&self, program: u32) {
        self.programs.borrow_mut().free_program(program);
    }

    fn free_input(&self, input: u32) {
        self.programs.borrow_mut().free_input(input);
    }
}

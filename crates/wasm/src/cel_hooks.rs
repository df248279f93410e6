//! CEL through JavaScript: the main module has no CEL engine of its own (crates/cel-wasm is
//! the CEL module), so js/web-core.mjs registers these hooks on every instance it makes, and
//! the core calls them as its [`CelEngine`] (src/expr/cel_host.rs). The hooks pass texts
//! through unchanged to and from the CEL module, loading it on first need where that can be
//! done synchronously (Node, the inline entry).

use std::rc::Rc;

use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::diagnostic::codes;
use crate::expr::cel_host::{set_cel_engine, wire, CelEngine};
use crate::expr::ExprError;

#[wasm_bindgen]
extern "C" {
    /// The object js/web-core.mjs registers (`setCelHooks`).
    pub type CelHooks;

    /// The CEL module's answer to compiling `source` ([`wire`]), or `undefined` when the
    /// module is not loaded and cannot be loaded synchronously.
    #[wasm_bindgen(method)]
    fn compile(this: &CelHooks, source: &str) -> Option<String>;

    /// A handle for the document (JSON text), or a negative number.
    #[wasm_bindgen(method)]
    fn input(this: &CelHooks, json: &str) -> f64;

    /// The CEL module's answer to an evaluation ([`wire`]).
    #[wasm_bindgen(method)]
    fn eval(this: &CelHooks, program: u32, input: u32) -> String;

    #[wasm_bindgen(method, js_name = freeProgram)]
    fn free_program(this: &CelHooks, program: u32);

    #[wasm_bindgen(method, js_name = freeInput)]
    fn free_input(this: &CelHooks, input: u32);
}

/// The registered hooks as the core's CEL engine.
struct JsCel(CelHooks);

impl CelEngine for JsCel {
    fn compile(&self, source: &str) -> Result<u32, Vec<ExprError>> {
        match self.0.compile(source) {
            Some(answer) => wire::decode_compiled(&answer),
            None => Err(vec![ExprError::new(
                codes::EXPR_CEL_UNAVAILABLE,
                "the CEL module is not loaded: in browsers, call `await loadCel()` before \
                 compiling a definition that holds CEL (`needsCel(text)` tells); Node and the \
                 inline entry load it by themselves",
            )]),
        }
    }

    fn input(&self, json: &Value) -> Result<u32, ExprError> {
        let handle = self.0.input(&json.to_string());
        if handle >= 0.0 && handle <= f64::from(u32::MAX) {
            // A whole number in range: the CEL module's handle.
            Ok(handle as u32)
        } else {
            Err(ExprError::new(
                codes::EXPR_RUNTIME,
                "internal: the CEL module could not read the object",
            ))
        }
    }

    fn eval(&self, program: u32, input: u32) -> Result<Vec<Value>, ExprError> {
        wire::decode_evaluated(&self.0.eval(program, input))
    }

    fn free_program(&self, program: u32) {
        self.0.free_program(program);
    }

    fn free_input(&self, input: u32) {
        self.0.free_input(input);
    }
}

/// Registers the CEL hooks of this instance (js/web-core.mjs, once per instance).
#[wasm_bindgen(js_name = setCelHooks)]
pub fn set_cel_hooks(hooks: CelHooks) {
    set_cel_engine(Some(Rc::new(JsCel(hooks))));
}

/// Whether compiling this definition (text, or a plain object) needs the CEL module: it holds
/// a `byExpression` in CEL. Reads the definition without compiling it.
#[wasm_bindgen(js_name = needsCel)]
pub fn needs_cel(definition: &JsValue) -> Result<bool, JsValue> {
    let text = match definition.as_string() {
        Some(text) => text,
        None => match crate::object_text(definition, "a definition")? {
            Ok(text) => text,
            // Too deep or too large to read: compiling it compiles nothing.
            Err(_) => return Ok(false),
        },
    };
    Ok(crate::CompiledDefinition::needs_cel(&text))
}

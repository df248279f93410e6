//! The CEL module: the core's built-in CEL engine ([`Programs`]) behind handles, every answer as
//! the JSON text of [`wire`]. It only marshals. Exports `compile`, `input`, `evaluate`,
//! `freeProgram`, `freeInput` (and `heldForTests`). The main module (crates/wasm, built without CEL)
//! reaches it through the hooks js/web-core.mjs registers, which load this module the first time
//! a definition holds a CEL expression; see ARCHITECTURE.md, "crates/cel-wasm/".

// Everything here is for the wasm32 build; natively the crate is empty.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use workload_map::expr::cel_host::{wire, Programs};

thread_local! {
    static PROGRAMS: RefCell<Programs> = RefCell::new(Programs::default());
}

/// Compiles one CEL expression: `{"ok": handle}` or `{"errors": [...]}` (see [`wire`]).
#[wasm_bindgen]
pub fn compile(source: &str) -> String {
    wire::encode_compiled(&PROGRAMS.with_borrow_mut(|p| p.compile(source)))
}

/// Prepares a document (JSON text) for evaluation: its handle, or -1 when the text is no JSON
/// (a JavaScript number either way).
#[wasm_bindgen]
pub fn input(json: &str) -> f64 {
    match serde_json::from_str(json) {
        Ok(value) => f64::from(PROGRAMS.with_borrow_mut(|p| p.input(&value))),
        Err(_) => -1.0,
    }
}

/// Evaluates compiled expression `program` on document `input`: `{"ok": [values]}` or
/// `{"error": {...}}` (see [`wire`]). (`evaluate` in JavaScript, where `eval` is taken.)
#[wasm_bindgen(js_name = evaluate)]
pub fn eval(program: u32, input: u32) -> String {
    wire::encode_evaluated(&PROGRAMS.with_borrow(|p| p.eval(program, input)))
}

/// Frees a compiled expression.
#[wasm_bindgen(js_name = freeProgram)]
pub fn free_program(program: u32) {
    PROGRAMS.with_borrow_mut(|p| p.free_program(program));
}

/// Frees a prepared document.
#[wasm_bindgen(js_name = freeInput)]
pub fn free_input(input: u32) {
    PROGRAMS.with_borrow_mut(|p| p.free_input(input));
}

/// How many expressions and documents are held (for the package's tests: every handle the
/// main module was given is freed).
#[wasm_bindgen(js_name = heldForTests)]
pub fn held_for_tests() -> Vec<u32> {
    let (programs, inputs) = PROGRAMS.with_borrow(Programs::held);
    [programs, inputs]
        .into_iter()
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
        .collect()
}

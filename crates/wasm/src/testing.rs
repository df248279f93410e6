//! Test support: what the package's own tests need from the real module, and nothing else.
//!
//! Not API. The JavaScript entries keep these exports out of the package's public names (they
//! reach them through an internal entry); they are here, in one place, so that nothing else in
//! the boundary or the core carries test code. The compile counter lives here too: the core
//! compiles without counting, and the boundary counts each definition it compiles.

use std::cell::Cell;

use wasm_bindgen::prelude::*;

thread_local! {
    /// How many definitions this instance has compiled (for `__compiledForTests`).
    static COMPILED: Cell<u32> = const { Cell::new(0) };
}

/// Counts one definition compiled through the boundary.
pub(crate) fn count_compile() {
    COMPILED.set(COMPILED.get() + 1);
}

/// Stops the WebAssembly instance with a trap (`RuntimeError: unreachable`), on purpose.
///
/// It exists only so that the package's tests can show, with the real module, that the
/// JavaScript entry points recover from a trap (tests/node/restart.test.mjs). No input is known
/// to trap the core, and the tests must keep working after every such input is fixed.
#[wasm_bindgen(js_name = __trapForTests)]
pub fn trap_for_tests() {
    std::arch::wasm32::unreachable()
}

/// How many definitions this instance has compiled through the boundary (`new Definition`,
/// `validate`, and every call given a definition as text or object).
///
/// It lets the package's tests observe, without timing, that listing and finding catalog
/// entries compile nothing (tests/node/api.test.mjs).
#[wasm_bindgen(js_name = __compiledForTests)]
pub fn compiled_for_tests() -> u32 {
    COMPILED.get()
}

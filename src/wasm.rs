//! The JavaScript boundary: the only module that knows wasm-bindgen or js-sys.
//!
//! Until the core's compile API lands this exposes only the version, so the build pipeline
//! (wasm-bindgen, wasm-opt, package layout) can be exercised end to end.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
fn start() {
    // A panic is a bug; without the hook it shows as a bare `RuntimeError: unreachable`.
    console_error_panic_hook::set_once();
}

/// The crate version (equal to the npm package version).
#[wasm_bindgen(js_name = version)]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

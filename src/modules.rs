// The core's modules and its root items, in a file of their own so that two crates compile the
// same tree: this crate (`include!`d by src/lib.rs) and the JavaScript boundary crates/wasm,
// which compiles the core into itself for the .wasm (a unity build; see crates/wasm/Cargo.toml
// and ARCHITECTURE.md, "crates/wasm/"). `mod` paths here are relative to src/. Not a module:
// scripts/check-layers.mjs skips it.

pub mod apischema;
pub mod batch;
pub mod cache;
pub mod cases;
pub mod catalog;
pub mod compile;
pub mod definition;
pub mod diagnostic;
pub mod draft;
pub mod edit;
pub mod expr;
mod groups;
mod instances;
pub mod manifest;
pub mod object;
pub mod path;
mod plan;
pub mod pods;
pub mod provenance;
pub mod quantity;
mod resolve;
pub mod resources;
mod status;
mod tree;
pub mod validate;
pub mod view;
pub mod yaml;

/// The crate version, which is the npm package's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub use compile::CompiledDefinition;
pub use pods::{Related, RelatedRefs};
pub use view::{ResolveOptions, View};

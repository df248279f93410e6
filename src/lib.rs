//! workload-map: read any Kubernetes AI workload through one declarative definition.
//!
//! The core has no IO and knows nothing of JavaScript: text in, data out. The pipeline, one
//! module per stage (see ARCHITECTURE.md): parse the definition ([`yaml`], [`definition`]) →
//! validate ([`validate`]) → compile its expressions ([`expr`], [`compile`]) → read the object
//! ([`object`]) → instances, scale and pod specs ([`instances`]) → resources ([`quantity`],
//! [`resources`]) → status ([`status`]) → tree ([`tree`]) → with related objects, pods ([`pods`]) and gang
//! groups (`groups`) → [`view`] ([`resolve`] runs it).
//! Edits (suspend, resume, pod spec merge patches) write back through the same paths
//! ([`edit`]). Test cases for definitions (the catalog's format) are read, run and compared by
//! [`cases`]. Where each part of the view came from (definition ranges, object pointers and
//! ranges) is [`provenance`].

pub mod apischema;
pub mod batch;
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
pub use pods::Related;
pub use view::{ResolveOptions, View};

//! workload-map: read any Kubernetes AI workload through one declarative definition.
//!
//! The core has no IO and knows nothing of JavaScript: text in, data out. The pipeline, one
//! module per stage (see ARCHITECTURE.md): parse the definition ([`yaml`], [`definition`]) →
//! validate ([`validate`]) → compile its expressions ([`expr`]) → read the object → instances,
//! scale and pod specs → resources ([`quantity`], [`resources`]) → status → tree → [`view`].

pub mod definition;
pub mod diagnostic;
pub mod validate;
pub mod view;
pub mod yaml;

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

include!("modules.rs");

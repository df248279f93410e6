//! The integration tests: one test binary, one module per subject (tests/README.md lists them).
//! `common` holds what several share: reading case files, checking a view against its
//! `expect:` block, and finding the shared corpus (`../shared`, read in place).
//!
//! Run one subject with `cargo test --test it <module>::` (e.g. `cargo test --test it edit::`).

mod common;

mod apischema;
mod apischema_fields;
mod batch;
mod boundary;
mod cache;
mod cases;
mod catalog;
mod catalog_conformance;
mod catalog_generated;
mod conformance;
mod definition;
mod differential;
mod draft;
mod edit;
mod expr;
mod fastpath;
mod groups;
mod input;
mod pods;
mod property;
mod provenance;
mod readme_limits;
mod resolve;
mod resources;
mod robustness;

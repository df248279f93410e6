//! Structural validation.

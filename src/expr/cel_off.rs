//! CEL in a build without the `cel` feature and no engine registered ([`super::cel_host`]):
//! every CEL expression is refused with [`codes::EXPR_CEL_UNAVAILABLE`] when the definition is
//! compiled, so it is a diagnostic next to the expression and never evaluates. jq is
//! unaffected.

use serde_json::Value;

use super::ExprError;
use crate::diagnostic::codes;

/// Nothing to convert: no CEL expression is ever evaluated in this build.
pub struct CelInput;

impl CelInput {
    /// Does nothing with `json`.
    pub fn new(_json: &Value) -> Self {
        CelInput
    }
}

/// Refuses every expression. (Braced, so that the builder is made with `default()` as the
/// built-in engine's is.)
#[derive(Default)]
pub struct CelBuilder {}

impl CelBuilder {
    /// Always an error: this build has no CEL of its own.
    pub fn add(&mut self, _source: &str) -> Result<usize, Vec<ExprError>> {
        Err(vec![ExprError::new(
            codes::EXPR_CEL_UNAVAILABLE,
            "no CEL engine: this build of workload-map has none of its own (built without the `cel` feature) and none is registered; use jq",
        )])
    }

    /// The empty set.
    pub fn finish(self) -> CelSet {
        CelSet
    }
}

/// The empty set of CEL expressions.
pub struct CelSet;

impl CelSet {
    /// Never reached ([`CelBuilder::add`] refuses every expression); an error all the same.
    pub fn eval(&self, _index: usize, _input: &CelInput) -> Result<Vec<Value>, ExprError> {
        Err(ExprError::new(
            codes::EXPR_CEL_UNAVAILABLE,
            "this build of workload-map has no CEL",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cel_expression_is_refused_as_unavailable() {
        for source in ["object.spec.replicas", "1 + 1", ""] {
            let errors = CelBuilder::default().add(source).expect_err("no CEL in this build");
            assert_eq!(errors[0].code, codes::EXPR_CEL_UNAVAILABLE);
        }
    }
}

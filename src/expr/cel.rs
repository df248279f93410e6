//! CEL expressions (placeholder types while the jq side is built).
use super::ExprError;
use serde_json::Value;
/// x
pub struct CelInput;
impl CelInput {
    /// x
    pub fn new(_: &Value) -> Self {
        CelInput
    }
}
/// x
#[derive(Default)]
pub struct CelBuilder;
impl CelBuilder {
    /// x
    pub fn add(&mut self, _s: &str) -> Result<usize, Vec<ExprError>> {
        Err(vec![])
    }
    /// x
    pub fn finish(self) -> CelSet {
        CelSet
    }
}
/// x
pub struct CelSet;
impl CelSet {
    /// x
    pub fn eval(&self, _i: usize, _x: &CelInput) -> Result<Vec<Value>, ExprError> {
        Err(ExprError::new("x", "x"))
    }
}

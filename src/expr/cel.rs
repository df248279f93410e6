//! CEL expressions (a workload-map extension): the object is the variable `object`, and an
//! expression has exactly one result.
//!
//! The `cel` crate is used without default features: no regex and no chrono (timestamps and
//! durations are not needed to read workload objects, and they cost most of the size); its
//! `json` feature converts results back to JSON.

use cel::{Context, Program, Value as CelValue};
use serde_json::Value;

use super::jq::{MAX_NESTING, MAX_SOURCE_LEN};
use super::ExprError;
use crate::diagnostic::codes;

/// The input document as a CEL value, converted once.
pub struct CelInput {
    value: CelValue,
}

impl CelInput {
    /// Converts `json`.
    pub fn new(json: &Value) -> Self {
        CelInput {
            value: from_json(json),
        }
    }
}

/// JSON integers become CEL `int` (not `uint`), so `object.x + 1` type-checks.
fn from_json(json: &Value) -> CelValue {
    match json {
        Value::Null => CelValue::Null,
        Value::Bool(b) => CelValue::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => CelValue::Int(i),
            None => CelValue::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => CelValue::String(std::sync::Arc::new(s.clone())),
        Value::Array(a) => CelValue::List(std::sync::Arc::new(a.iter().map(from_json).collect())),
        Value::Object(o) => {
            let map: std::collections::HashMap<String, CelValue> =
                o.iter().map(|(k, v)| (k.clone(), from_json(v))).collect();
            CelValue::from(map)
        }
    }
}

/// Collects CEL expressions, each parsed when added.
#[derive(Default)]
pub struct CelBuilder {
    programs: Vec<Program>,
}

impl CelBuilder {
    /// Parses `source`; returns its index.
    pub fn add(&mut self, source: &str) -> Result<usize, Vec<ExprError>> {
        prescan(source)?;
        let program = Program::compile(source).map_err(|errs| {
            let messages: Vec<_> = errs.errors.iter().map(|e| e.msg.clone()).collect();
            vec![ExprError::new(codes::EXPR_SYNTAX, messages.join("; "))]
        })?;
        self.programs.push(program);
        Ok(self.programs.len() - 1)
    }

    /// Finishes the set.
    pub fn finish(self) -> CelSet {
        CelSet {
            programs: self.programs,
        }
    }
}

/// The compiled CEL expressions of a set.
pub struct CelSet {
    programs: Vec<Program>,
}

impl CelSet {
    /// Evaluates expression `index`: one result.
    pub fn eval(&self, index: usize, input: &CelInput) -> Result<Vec<Value>, ExprError> {
        let runtime = |m: String| ExprError::new(codes::EXPR_RUNTIME, m);
        let program = self.programs.get(index).ok_or_else(|| {
            ExprError::new(codes::EXPR_COMPILE, "internal: unknown expression id")
        })?;
        let object = input.value.clone();
        let mut context = Context::default();
        context.add_variable_from_value("object", object);
        let value = program
            .execute(&context)
            .map_err(|e| runtime(e.to_string()))?;
        Ok(vec![to_json(&value)])
    }
}

fn to_json(value: &CelValue) -> Value {
    match value {
        CelValue::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(*f as i64),
        CelValue::List(items) => Value::Array(items.iter().map(to_json).collect()),
        CelValue::Map(map) => Value::Object(
            map.map
                .iter()
                .map(|(k, v)| {
                    let k = match k {
                        cel::objects::Key::String(s) => s.to_string(),
                        cel::objects::Key::Int(i) => i.to_string(),
                        cel::objects::Key::Uint(u) => u.to_string(),
                        cel::objects::Key::Bool(b) => b.to_string(),
                    };
                    (k, to_json(v))
                })
                .collect(),
        ),
        other => other
            .json()
            .unwrap_or_else(|_| Value::String(format!("{other:?}"))),
    }
}

/// The same length and nesting bounds as jq: CEL's parser is recursive too.
fn prescan(source: &str) -> Result<(), Vec<ExprError>> {
    let too_complex = |m: String| vec![ExprError::new(codes::EXPR_TOO_COMPLEX, m)];
    if source.len() > MAX_SOURCE_LEN {
        return Err(too_complex(format!(
            "expression is longer than {MAX_SOURCE_LEN} bytes"
        )));
    }
    let (mut depth, mut prefix_run) = (0usize, 0usize);
    for b in source.bytes() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        // Chains of unary operators (`!!!!x`, `- - x`) recurse in the parser as well.
        prefix_run = if matches!(b, b'!' | b'-') {
            prefix_run + 1
        } else if b == b' ' {
            prefix_run
        } else {
            0
        };
        if depth > MAX_NESTING || prefix_run > MAX_NESTING {
            return Err(too_complex(format!(
                "expression nests deeper than {MAX_NESTING} levels"
            )));
        }
    }
    Ok(())
}

//! Plain paths without the interpreter.
//!
//! Most expressions in definitions are plain paths: `.status.conditions`, `.spec.replicas`,
//! `.spec.replicatedJobs[]?.template.spec.template`. [`compile`] recognises them in the parsed
//! term (once, when the definition compiles): `.` followed by parts that are each a literal key
//! (`.a`, `."a b"`, `.["a"]`), a literal integer index (`.[2]`, `.[-1]`) or an iteration
//! (`.[]`), each optionally suppressed with `?`. [`FastPath::eval`] then walks the input's JSON
//! directly, without converting the document into jaq's values and without running jaq.
//!
//! The answers are jaq's, part for part (jaq-core's `path::run`, jaq-json's `index_opt` and
//! `values`, and our output conversion):
//! - `.key` on an object is its value or `null`; on `null` it is `null`; on anything else an
//!   error. `.[n]` on an array counts from the end when negative and is `null` out of range; on
//!   an object (no such key) and on `null` it is `null`; on anything else an error. `.[]` gives
//!   an array's elements and an object's values in key order; on anything else (`null` too) an
//!   error.
//! - `?` on a part drops the errors of that part only; later parts still fail.
//! - The error's message is jaq's own: the step that failed runs once more in jaq on the value
//!   it failed on, and jaq's error becomes our message as for any expression. Should jaq not
//!   fail there, the fast path gives up and jaq evaluates the whole expression.
//! - Outputs are converted as jaq's are (a number that is not a machine integer is a float,
//!   an integral float an integer), and at [`MAX_RESULTS`] the evaluation fails as jaq's does.
//!
//! The budget: a plain path takes one metered step in jaq (its definition's body) and can
//! never run out of steps, depth or stack; the fast path counts none. What it does count is
//! what jaq counts on a plain path: the walk over its outputs ([`MAX_VALUE_DEPTH`],
//! [`MAX_OUTPUT`]). Outputs that would not fit are not answered here: jaq evaluates the
//! expression and reports its budget error itself.

use jaq_core::load::parse::Term;
use jaq_core::path::{Opt, Part};
use jaq_core::ValT;
use jaq_json::Val;
use serde_json::Value;

use super::super::{ExprError, MAX_RESULTS};
use super::{float_to_json, from_json, natives, MAX_OUTPUT, MAX_VALUE_DEPTH};
use crate::diagnostic::codes;

/// One part of a plain path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// `.key`, `."key"`, `.["key"]`.
    Key(String),
    /// `.[n]`, with `n` a literal integer (negative counts from the end).
    Index(i32),
    /// `.[]`.
    Iterate,
}

/// A compiled plain path: its steps, each with whether `?` suppresses its errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FastPath {
    steps: Vec<(Step, bool)>,
}

/// Recognises a plain path; `None` for anything else (jaq evaluates it).
pub(crate) fn compile(term: &Term<&str>) -> Option<FastPath> {
    match term {
        Term::Id => Some(FastPath { steps: Vec::new() }),
        Term::Path(head, path) if matches!(**head, Term::Id) => {
            let steps = path
                .0
                .iter()
                .map(|(part, opt)| {
                    let step = match part {
                        Part::Index(index) => index_step(index)?,
                        Part::Range(None, None) => Step::Iterate,
                        Part::Range(..) => return None,
                    };
                    Some((step, matches!(opt, Opt::Optional)))
                })
                .collect::<Option<Vec<_>>>()?;
            Some(FastPath { steps })
        }
        _ => None,
    }
}

fn index_step(index: &Term<&str>) -> Option<Step> {
    match index {
        Term::Str(..) => super::literal_key(index).map(Step::Key),
        Term::Num(n) => literal_int(n).map(Step::Index),
        Term::Neg(inner) => match &**inner {
            Term::Num(n) => literal_int(n).map(|i| Step::Index(-i)),
            _ => None,
        },
        _ => None,
    }
}

/// A literal of decimal digits small enough to be a machine integer on every target (jaq
/// reads larger ones, and ones with a fraction or exponent, as other kinds of number).
fn literal_int(n: &str) -> Option<i32> {
    if n.is_empty() || n.len() > 9 || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

static NULL: Value = Value::Null;

/// Why the walk stopped early.
enum Stop {
    /// An error jaq reports (the message is jaq's).
    Error(ExprError),
    /// Leave the expression to jaq.
    GiveUp,
}

impl FastPath {
    /// Evaluates the path on `input`: every output in order or the first error, as jaq gives
    /// them; `None` when jaq must answer instead (outputs beyond the budget).
    pub(crate) fn eval(&self, input: &Value) -> Option<Result<Vec<Value>, ExprError>> {
        let mut found = Vec::new();
        match self.walk(0, input, &mut found) {
            Ok(()) => {}
            Err(Stop::Error(e)) => return Some(Err(e)),
            Err(Stop::GiveUp) => return None,
        }
        let mut left = MAX_OUTPUT;
        let out = found
            .into_iter()
            .map(|v| convert(v, 1, &mut left))
            .collect::<Option<Vec<_>>>()?;
        Some(Ok(out))
    }

    fn walk<'v>(&self, at: usize, v: &'v Value, out: &mut Vec<&'v Value>) -> Result<(), Stop> {
        let Some((step, optional)) = self.steps.get(at) else {
            out.push(v);
            if out.len() >= MAX_RESULTS {
                return Err(Stop::Error(ExprError::new(
                    codes::EXPR_TOO_MANY_RESULTS,
                    format!("query results exceed the allowed number {MAX_RESULTS}"),
                )));
            }
            return Ok(());
        };
        let next = match (step, v) {
            (Step::Iterate, Value::Array(a)) => {
                return a.iter().try_for_each(|x| self.walk(at + 1, x, out));
            }
            (Step::Iterate, Value::Object(o)) => {
                return o.values().try_for_each(|x| self.walk(at + 1, x, out));
            }
            (Step::Iterate, _) => None,
            (_, Value::Null) | (Step::Index(_), Value::Object(_)) => Some(&NULL),
            (Step::Key(k), Value::Object(o)) => Some(o.get(k).unwrap_or(&NULL)),
            (Step::Index(i), Value::Array(a)) => {
                let at = match usize::try_from(*i) {
                    Ok(i) => Some(i),
                    Err(_) => a.len().checked_sub(i.unsigned_abs() as usize),
                };
                Some(at.and_then(|i| a.get(i)).unwrap_or(&NULL))
            }
            _ => None,
        };
        match next {
            Some(next) => self.walk(at + 1, next, out),
            None if *optional => Ok(()),
            None => Err(jaq_error(step, v)),
        }
    }
}

/// jaq's own error for `step` on `v`.
fn jaq_error(step: &Step, v: &Value) -> Stop {
    let val = from_json(v);
    let result = match step {
        Step::Key(k) => val.index(&Val::from(k.clone())).map(|_| ()),
        Step::Index(i) => val.index(&Val::from(*i as isize)).map(|_| ()),
        Step::Iterate => val.values().next().map_or(Ok(()), |r| r.map(|_| ())),
    };
    match result {
        Err(e) => Stop::Error(ExprError::new(
            codes::EXPR_RUNTIME,
            natives::exn_message(e.into()),
        )),
        Ok(()) => Stop::GiveUp,
    }
}

/// An output as jaq's output conversion makes it, paying each array's and object's length
/// from `left` (jaq's walk over outputs); `None` past [`MAX_VALUE_DEPTH`] or the budget.
fn convert(v: &Value, depth: usize, left: &mut usize) -> Option<Value> {
    Some(match v {
        Value::Null | Value::Bool(_) | Value::String(_) => v.clone(),
        Value::Number(n) => number(n),
        Value::Array(a) => {
            pay(depth, a.len(), left)?;
            Value::Array(
                a.iter()
                    .map(|x| convert(x, depth + 1, left))
                    .collect::<Option<_>>()?,
            )
        }
        Value::Object(o) => {
            pay(depth, o.len(), left)?;
            Value::Object(
                o.iter()
                    .map(|(k, x)| Some((k.clone(), convert(x, depth + 1, left)?)))
                    .collect::<Option<_>>()?,
            )
        }
    })
}

fn pay(depth: usize, len: usize, left: &mut usize) -> Option<()> {
    if depth > MAX_VALUE_DEPTH {
        return None;
    }
    *left = left.checked_sub(len)?;
    Some(())
}

/// A number through jaq and back: a machine integer stays one; anything else is a float.
fn number(n: &serde_json::Number) -> Value {
    match n.as_i64().and_then(|i| isize::try_from(i).ok()) {
        Some(i) => Value::from(i as i64),
        None => float_to_json(n.as_f64().unwrap_or(f64::NAN)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fast(source: &str) -> Option<FastPath> {
        let (term, _) = super::super::parse(source).ok()?;
        compile(&term)
    }

    #[test]
    fn recognises_plain_paths_only() {
        for plain in [
            ".",
            ".a",
            ".a.b",
            ".a?.b[]?",
            ".[0]",
            ".[-1]",
            ".[\"a\"]",
            ".\"a b\"",
            ".spec.replicatedJobs[]?.template.spec.template",
        ] {
            assert!(fast(plain).is_some(), "{plain}");
        }
        for other in [
            ".a | .b",
            ".[1:2]",
            ".[1.5]",
            ".[1e3]",
            ".[1234567890]",
            ".a // null",
            "(.a)?",
            ".a[.b]",
            "..",
            ".[\"a\\(1)\"]",
            "$__loc__",
            "1",
        ] {
            assert!(fast(other).is_none(), "{other}");
        }
    }
}

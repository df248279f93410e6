//! Expressions: jq (gojq semantics, through jaq) and CEL, behind one small interface.
//!
//! CEL runs in one of three ways: an engine the embedder registered ([`cel_host`], which the
//! npm package uses to load CEL as a second WebAssembly module on first need), else the
//! built-in engine ([`cel`], cargo feature `cel`), else none (CEL expressions are refused with
//! [`codes::EXPR_CEL_UNAVAILABLE`](crate::diagnostic::codes::EXPR_CEL_UNAVAILABLE)).
//!
//! A definition's expressions are compiled once into an [`ExprSet`]; resolving an object
//! evaluates them many times against one [`Input`], which converts the object into each
//! engine's value type at most once.
//!
//! Every evaluation is bounded: a step and depth budget (deterministic, well under a second)
//! ends runaway expressions with [`codes::EXPR_BUDGET`](crate::diagnostic::codes::EXPR_BUDGET),
//! and 1000 or more results is an error, as upstream.

use std::borrow::Cow;
use std::cell::OnceCell;

use serde_json::Value;

use crate::diagnostic::TextRange;

use cel_host::{CelEngine, HostBuilder, HostInput, HostSet};

#[cfg(feature = "cel")]
pub mod cel;

/// CEL in a build without the `cel` feature: every CEL expression is refused unless an
/// engine is registered ([`cel_host`]).
#[cfg(not(feature = "cel"))]
#[path = "cel_off.rs"]
pub mod cel;
pub mod cel_host;
pub mod jq;

/// The expression language of a `byExpression` (the definition's `language`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// jq (gojq semantics): upstream's only language.
    #[default]
    Jq,
    /// Common Expression Language: a workload-map extension.
    Cel,
}

/// Upstream's result cap: a call that reaches this many results fails.
pub const MAX_RESULTS: usize = 1000;

/// A problem with one expression: it does not parse, is forbidden, does not compile, failed
/// on this input, or ran out of budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    /// One of the `expr/…` codes in [`crate::diagnostic::codes`].
    pub code: &'static str,
    /// What went wrong, in upstream's wording where it has one.
    pub message: String,
    /// Byte range inside the expression text, when known.
    pub range: Option<TextRange>,
}

impl ExprError {
    /// A new error without a range.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        ExprError {
            code,
            message: message.into(),
            range: None,
        }
    }
}

/// Identifies one expression in an [`ExprSet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExprId(pub(crate) usize);

/// A document prepared for evaluation: converted into each engine's value type on first use.
/// It holds the document itself or borrows it: the object read from a manifest is the one
/// tree every stage of a resolve reads (plain paths walk it directly), never copied for them.
pub struct Input<'a> {
    json: Cow<'a, Value>,
    jq: OnceCell<jq::JqInput>,
    /// Subtrees converted for expressions that read only parts of the input.
    jq_memo: std::cell::RefCell<jq::Memo>,
    cel: OnceCell<cel::CelInput>,
    cel_host: OnceCell<HostInput>,
}

impl Input<'static> {
    /// Prepares `json` for evaluation.
    pub fn new(json: Value) -> Self {
        Input::from_cow(Cow::Owned(json))
    }
}

impl<'a> Input<'a> {
    /// Prepares `json` for evaluation without copying it.
    pub fn borrowed(json: &'a Value) -> Self {
        Input::from_cow(Cow::Borrowed(json))
    }

    fn from_cow(json: Cow<'a, Value>) -> Self {
        Input {
            json,
            jq: OnceCell::new(),
            jq_memo: Default::default(),
            cel: OnceCell::new(),
            cel_host: OnceCell::new(),
        }
    }

    /// The document as JSON.
    pub fn json(&self) -> &Value {
        &self.json
    }

    pub(crate) fn jq(&self) -> &jq::JqInput {
        self.jq.get_or_init(|| jq::JqInput::new(&self.json))
    }

    /// The whole input as jaq reads it, when it has been converted.
    pub(crate) fn jq_converted(&self) -> Option<&jq::JqInput> {
        self.jq.get()
    }

    pub(crate) fn jq_memo(&self) -> &std::cell::RefCell<jq::Memo> {
        &self.jq_memo
    }

    pub(crate) fn cel(&self) -> &cel::CelInput {
        self.cel.get_or_init(|| cel::CelInput::new(&self.json))
    }

    fn cel_host(&self, engine: &std::rc::Rc<dyn CelEngine>) -> &HostInput {
        self.cel_host
            .get_or_init(|| HostInput::new(engine, &self.json))
    }
}

/// How an expression is evaluated. Only tests ask for anything but [`Route::Best`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Route {
    /// A plain path without jaq; anything else in jaq, on the parts of the input it reads.
    Best,
    /// Always in jaq, on the parts of the input the expression reads.
    Projected,
    /// Always in jaq, on the whole input.
    Whole,
}

/// The CEL expressions of a builder: for the registered engine, or the built-in one.
enum CelBuilder {
    Builtin(cel::CelBuilder),
    Host(HostBuilder),
}

/// The CEL expressions of a set, compiled by the registered engine or the built-in one.
enum CelSet {
    Builtin(cel::CelSet),
    Host(HostSet),
}

/// Collects the expressions of one definition for compilation.
#[derive(Default)]
pub struct ExprSetBuilder {
    jq: jq::JqBuilder,
    /// Made at the first CEL expression, with the engine registered then.
    cel: Option<CelBuilder>,
    entries: Vec<(Language, usize)>,
}

impl ExprSetBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses and checks one expression; compiling waits for [`finish`](Self::finish). On
    /// error nothing is added; the errors say why (several when several rules are broken).
    pub fn add(&mut self, language: Language, source: &str) -> Result<ExprId, Vec<ExprError>> {
        let index = match language {
            Language::Jq => self.jq.add(source)?,
            Language::Cel => match self.cel.get_or_insert_with(|| match cel_host::cel_engine() {
                Some(engine) => CelBuilder::Host(HostBuilder::new(engine)),
                None => CelBuilder::Builtin(cel::CelBuilder::default()),
            }) {
                CelBuilder::Builtin(b) => b.add(source)?,
                CelBuilder::Host(b) => b.add(source)?,
            },
        };
        self.entries.push((language, index));
        Ok(ExprId(self.entries.len() - 1))
    }

    /// Compiles the expressions together. Those that still fail to compile are left out
    /// (evaluating them is an error) and returned with their errors; the others work.
    pub fn finish(self) -> (ExprSet, Vec<(ExprId, Vec<ExprError>)>) {
        let (jq, jq_failed) = self.jq.finish();
        let failed = jq_failed
            .into_iter()
            .filter_map(|(index, errs)| {
                let id = self
                    .entries
                    .iter()
                    .position(|e| *e == (Language::Jq, index))?;
                Some((ExprId(id), errs))
            })
            .collect();
        let set = ExprSet {
            jq,
            cel: self.cel.map(|b| match b {
                CelBuilder::Builtin(b) => CelSet::Builtin(b.finish()),
                CelBuilder::Host(b) => CelSet::Host(b.finish()),
            }),
            entries: self.entries,
        };
        (set, failed)
    }
}

/// The compiled expressions of one definition.
pub struct ExprSet {
    jq: jq::JqSet,
    cel: Option<CelSet>,
    entries: Vec<(Language, usize)>,
}

impl ExprSet {
    /// Evaluates expression `id` on `input`: every output in order, or the first error.
    pub fn eval(&self, id: ExprId, input: &Input) -> Result<Vec<Value>, ExprError> {
        self.eval_with(id, input, false, Route::Best)
    }

    /// [`eval`](Self::eval) always through jaq on the whole input, also for a plain path
    /// (which [`eval`](Self::eval) walks without jaq) and for an expression that reads only
    /// parts of the input (which [`eval`](Self::eval) gives only those). For the
    /// differential tests.
    #[doc(hidden)]
    pub fn eval_interpreted(&self, id: ExprId, input: &Input) -> Result<Vec<Value>, ExprError> {
        self.eval_with(id, input, false, Route::Whole)
    }

    /// [`eval`](Self::eval) always through jaq, on the parts of the input the expression
    /// reads. For the differential test against [`eval_interpreted`](Self::eval_interpreted).
    #[doc(hidden)]
    pub fn eval_projected(&self, id: ExprId, input: &Input) -> Result<Vec<Value>, ExprError> {
        self.eval_with(id, input, false, Route::Projected)
    }

    /// True when expression `id` is jq that reads only parts of its input, which
    /// [`eval`](Self::eval) converts for jaq instead of the whole input. For tests.
    #[doc(hidden)]
    pub fn reads_part(&self, id: ExprId) -> bool {
        matches!(self.entries.get(id.0), Some((Language::Jq, i)) if self.jq.reads_part(*i))
    }

    /// True when expression `id` is a jq plain path that [`eval`](Self::eval) walks without
    /// jaq. For tests.
    #[doc(hidden)]
    pub fn is_fast_path(&self, id: ExprId) -> bool {
        matches!(self.entries.get(id.0), Some((Language::Jq, i)) if self.jq.is_fast_path(*i))
    }

    /// Evaluates expression `id` for counts: as [`eval`](Self::eval), except that an output
    /// that is a number but not a finite one (jq's `nan`, `infinite`, or `0/0` in jaq) is
    /// the string the YAML reader makes of `.nan` or `±.inf` ([`crate::yaml::non_finite_text`]),
    /// not gojq's `null` (which a count reads as absent) or largest float. A count computed
    /// as NaN is then refused as the same count written `.nan` is.
    pub fn eval_count(&self, id: ExprId, input: &Input) -> Result<Vec<Value>, ExprError> {
        self.eval_with(id, input, true, Route::Best)
    }

    fn eval_with(
        &self,
        id: ExprId,
        input: &Input,
        non_finite_as_text: bool,
        route: Route,
    ) -> Result<Vec<Value>, ExprError> {
        match self.entries.get(id.0) {
            Some((Language::Jq, i)) => self.jq.eval_input(*i, input, non_finite_as_text, route),
            // Counts are paths (jq); CEL runs only in status matchers.
            Some((Language::Cel, i)) => match &self.cel {
                Some(CelSet::Builtin(set)) => set.eval(*i, input.cel()),
                Some(CelSet::Host(set)) => set.eval(*i, input.cel_host(set.engine())),
                None => Err(ExprError::new(
                    crate::diagnostic::codes::EXPR_COMPILE,
                    "internal: unknown expression id",
                )),
            },
            None => Err(ExprError::new(
                crate::diagnostic::codes::EXPR_COMPILE,
                "internal: unknown expression id",
            )),
        }
    }
}

/// jq's `tostring` as gojq prints it: strings unquoted, everything else as compact JSON
/// (`true`, `null`, `3`, `1.5`, `{"a":1}`). Used to compare `byExpression` results with
/// `expectedResult`, for jq and CEL alike.
pub fn to_jq_string(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => format_number(n),
        other => other.to_string(),
    }
}

/// Formats a number as gojq does: integers without a fraction, other floats in the shortest
/// form that round-trips.
pub fn format_number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    if f.fract() == 0.0 && f.abs() < 1e17 {
        format!("{}", f as i64)
    } else {
        // serde_json prints the shortest round-trip representation.
        serde_json::Number::from_f64(f).map_or_else(|| "null".to_owned(), |n| n.to_string())
    }
}

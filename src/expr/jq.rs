//! jq through jaq, with gojq's observable behaviour and a deterministic budget.
//!
//! Every expression is parsed with jaq's own parser, checked against upstream's static rules
//! ([`check`]), and rewritten ([`rewrite`]) so that every definition body, every right side of
//! a pipe and every reduce/foreach update passes through the native `_wm_fuel`, which counts
//! steps and live depth in a per-evaluation [`Budget`]. String/array `+` and `*`, `tojson` and
//! string interpolation go through size-checked natives. All expressions of a set become
//! definitions of ONE jaq program, selected by a global variable, so jaq's standard library
//! is compiled once per set.

mod check;
mod natives;
mod rewrite;

use std::cell::Cell;

use jaq_core::load::lex::Lexer;
use jaq_core::load::parse::{Def, Term};
use jaq_core::load::{Arena, File, Loader, Parser};
use jaq_core::{Ctx, Vars};
use jaq_json::Val;
use serde_json::Value;

use super::{ExprError, MAX_RESULTS};
use crate::diagnostic::{codes, TextRange};

/// Longest expression text accepted, in bytes.
pub const MAX_SOURCE_LEN: usize = 16 * 1024;
/// Deepest bracket nesting (and prefix-operator chain) accepted before parsing.
pub const MAX_NESTING: usize = 100;
/// Most tokens accepted: bounds the depth of operator chains in the parser and compiler.
pub const MAX_TOKENS: usize = 2000;
/// Deepest parsed term accepted (compilation and evaluation recurse along it).
pub const MAX_TERM_DEPTH: usize = 300;
/// Steps (definition calls, pipe right sides, fold updates) one evaluation may take.
pub const MAX_STEPS: u32 = 200_000;
/// Live nested steps one evaluation may hold; bounds the native stack.
pub const MAX_DEPTH: u32 = 200;
/// Native stack one evaluation may use between its start and the deepest metered step.
/// Frame sizes differ between debug, release and wasm builds, so besides counting depth we
/// measure it; a browser gives wasm about 1 MiB.
pub const MAX_STACK_BYTES: usize = 320 * 1024;
/// Largest string or array (bytes or elements) a checked operation may build.
pub const MAX_SIZE: usize = 512 * 1024;

/// The data jaq's natives see: the look-up table and this evaluation's budget.
pub(crate) struct WmData;

impl jaq_core::DataT for WmData {
    type V<'a> = Val;
    type Data<'a> = RunData<'a>;
}

/// Per-evaluation data handed to natives.
#[derive(Clone)]
pub(crate) struct RunData<'a> {
    lut: &'a jaq_core::Lut<WmData>,
    budget: &'a Budget,
}

impl<'a> jaq_core::data::HasLut<'a, WmData> for RunData<'a> {
    fn lut(&self) -> &'a jaq_core::Lut<WmData> {
        self.lut
    }
}

/// Step and depth counters of one evaluation. Once spent, it stays spent, so `try` cannot
/// keep a runaway loop alive.
#[derive(Default)]
pub(crate) struct Budget {
    steps: Cell<u32>,
    depth: Cell<u32>,
    spent: Cell<Option<&'static str>>,
    /// Address of a local at the start of the evaluation.
    stack_base: Cell<usize>,
}

/// The address of a local of the calling frame: how deep the native stack is (safe: the
/// pointer is only compared, never dereferenced).
#[inline(never)]
fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

impl Budget {
    /// Takes one step at one more level of depth; false when the budget is spent.
    fn enter(&self) -> bool {
        if self.spent.get().is_some() {
            return false;
        }
        let steps = self.steps.get() + 1;
        let depth = self.depth.get() + 1;
        if steps > MAX_STEPS {
            self.spent.set(Some(
                "expression exceeded its step budget (a runaway loop?)",
            ));
            return false;
        }
        if depth > MAX_DEPTH || stack_position().abs_diff(self.stack_base.get()) > MAX_STACK_BYTES {
            self.spent
                .set(Some("expression exceeded its recursion depth budget"));
            return false;
        }
        self.steps.set(steps);
        self.depth.set(depth);
        true
    }

    fn leave(&self) {
        self.depth.set(self.depth.get().saturating_sub(1));
    }

    fn spend(&self, why: &'static str) {
        if self.spent.get().is_none() {
            self.spent.set(Some(why));
        }
    }
}

/// The input document as a jaq value, converted once.
pub struct JqInput {
    val: Val,
}

impl JqInput {
    /// Converts `json`; objects keep serde_json's sorted key order, as gojq iterates them.
    pub fn new(json: &Value) -> Self {
        JqInput {
            val: from_json(json),
        }
    }
}

fn from_json(json: &Value) -> Val {
    match json {
        Value::Null => Val::Null,
        Value::Bool(b) => Val::from(*b),
        Value::Number(n) => match n.as_i64().and_then(|i| isize::try_from(i).ok()) {
            Some(i) => Val::from(i),
            None => Val::from(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Val::from(s.clone()),
        Value::Array(a) => a.iter().map(from_json).collect(),
        Value::Object(o) => Val::obj(
            o.iter()
                .map(|(k, v)| (Val::from(k.clone()), from_json(v)))
                .collect(),
        ),
    }
}

/// Converts a result back; integral floats become integers (`3`, not `3.0`).
pub(crate) fn to_json(val: &Val) -> Value {
    use jaq_json::Num;
    match val {
        Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(*b),
        Val::Num(Num::Int(i)) => Value::from(*i as i64),
        Val::Num(n) => {
            let f = match n {
                Num::Float(f) => *f,
                Num::Dec(s) => s.parse().unwrap_or(f64::NAN),
                other => jaq_std::ValT::as_f64(&Val::Num(other.clone())).unwrap_or(f64::NAN),
            };
            float_to_json(f)
        }
        Val::TStr(b) | Val::BStr(b) => Value::String(String::from_utf8_lossy(b).into_owned()),
        Val::Arr(a) => Value::Array(a.iter().map(to_json).collect()),
        Val::Obj(o) => Value::Object(
            o.iter()
                .map(|(k, v)| {
                    let k = match k {
                        Val::TStr(b) | Val::BStr(b) => String::from_utf8_lossy(b).into_owned(),
                        other => other.to_string(),
                    };
                    (k, to_json(v))
                })
                .collect(),
        ),
    }
}

fn float_to_json(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        Value::from(f as i64)
    } else {
        // gojq prints NaN as null and clamps infinities to the largest float.
        match serde_json::Number::from_f64(f) {
            Some(n) => Value::Number(n),
            None if f.is_nan() => Value::Null,
            None => serde_json::Number::from_f64(f64::MAX.copysign(f))
                .map_or(Value::Null, Value::Number),
        }
    }
}

/// Collects jq expressions; each is checked and test-compiled when added.
#[derive(Default)]
pub struct JqBuilder {
    sources: Vec<String>,
}

impl JqBuilder {
    /// Parses, checks and compiles `source`; returns its index in the set.
    pub fn add(&mut self, source: &str) -> Result<usize, Vec<ExprError>> {
        check::prescan(source)?;
        let (term, mut errs) = parse(source)?;
        errs.extend(check::forbidden_calls(source, &term));
        if !errs.is_empty() {
            errs.sort_by_key(|e| e.range);
            return Err(errs);
        }
        compile(&[source]).map_err(|errs| {
            errs.into_iter()
                .map(Located::into_error)
                .collect::<Vec<_>>()
        })?;
        self.sources.push(source.to_owned());
        Ok(self.sources.len() - 1)
    }

    /// Compiles all expressions into one program.
    pub fn finish(self) -> JqSet {
        let program = if self.sources.is_empty() {
            Ok(None)
        } else {
            let sources: Vec<&str> = self.sources.iter().map(String::as_str).collect();
            compile(&sources).map(Some).map_err(|errs| {
                errs.into_iter().next().map_or_else(
                    || {
                        ExprError::new(
                            codes::EXPR_COMPILE,
                            "internal: the expression set did not compile",
                        )
                    },
                    |e| ExprError::new(codes::EXPR_COMPILE, e.message),
                )
            })
        };
        JqSet {
            program,
            count: self.sources.len(),
        }
    }
}

/// The compiled jq expressions of a set.
pub struct JqSet {
    program: Result<Option<jaq_core::Filter<WmData>>, ExprError>,
    count: usize,
}

impl JqSet {
    /// Evaluates expression `index`: every output in order, or the first error.
    pub fn eval(&self, index: usize, input: &JqInput) -> Result<Vec<Value>, ExprError> {
        let filter = match &self.program {
            Ok(Some(filter)) if index < self.count => filter,
            Err(e) => return Err(e.clone()),
            _ => {
                return Err(ExprError::new(
                    codes::EXPR_COMPILE,
                    "internal: unknown expression id",
                ))
            }
        };
        let budget = Budget::default();
        budget.stack_base.set(stack_position());
        let data = RunData {
            lut: &filter.lut,
            budget: &budget,
        };
        let selector = Val::from(isize::try_from(index).unwrap_or(isize::MAX));
        let ctx = Ctx::<WmData>::new(data, Vars::new([selector]));
        let mut out = Vec::new();
        let mut error = None;
        for item in filter.id.run((ctx, input.val.clone())) {
            if budget.spent.get().is_some() {
                break;
            }
            match item {
                Ok(v) => {
                    out.push(v);
                    if out.len() >= MAX_RESULTS {
                        error = Some(ExprError::new(
                            codes::EXPR_TOO_MANY_RESULTS,
                            format!("query results exceed the allowed number {MAX_RESULTS}"),
                        ));
                        break;
                    }
                }
                Err(e) => {
                    error = Some(ExprError::new(codes::EXPR_RUNTIME, natives::exn_message(e)));
                    break;
                }
            }
        }
        if let Some(why) = budget.spent.get() {
            return Err(ExprError::new(codes::EXPR_BUDGET, why));
        }
        match error {
            Some(e) => Err(e),
            None => Ok(out.iter().map(to_json).collect()),
        }
    }
}

/// A problem found while parsing or compiling, with a range into one source.
pub(crate) struct Located {
    code: &'static str,
    message: String,
    /// Offending slice of the source, when it points into it.
    at: Option<(usize, usize)>,
}

impl Located {
    fn into_error(self) -> ExprError {
        ExprError {
            code: self.code,
            message: self.message,
            range: self.at.map(|(s, e)| TextRange::new(s, e)),
        }
    }
}

/// Where `part` lies inside `whole`, when it does (pointer arithmetic on safe slices).
pub(crate) fn offset_in(whole: &str, part: &str) -> Option<(usize, usize)> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    let end = start.checked_add(part.len())?;
    (end <= whole.len()).then_some((start, end))
}

/// Lexes and parses one expression; also returns the token-level rule violations.
fn parse(source: &str) -> Result<(Term<&str>, Vec<ExprError>), Vec<ExprError>> {
    let syntax = |message: String, at: Option<(usize, usize)>| ExprError {
        code: codes::EXPR_SYNTAX,
        message,
        range: at.map(|(s, e)| TextRange::new(s, e)),
    };
    let tokens = Lexer::new(source).lex().map_err(|errs| {
        errs.into_iter()
            .map(|(expect, rest)| {
                let at = offset_in(source, rest).map(|(s, _)| (s, (s + 1).min(source.len())));
                syntax(format!("expected {}", lex_expect(&expect)), at)
            })
            .collect::<Vec<_>>()
    })?;
    check::limit_tokens(&tokens)?;
    let term = Parser::new(&tokens).parse(|p| p.term()).map_err(|errs| {
        errs.into_iter()
            .map(|(expect, found)| match found {
                Some(tok) => syntax(
                    format!("expected {}, found {}", expect.as_str(), tok.as_str()),
                    offset_in(source, tok.as_str()),
                ),
                None => syntax(
                    format!("expected {}, found end of input", expect.as_str()),
                    Some((source.len(), source.len())),
                ),
            })
            .collect::<Vec<_>>()
    })?;
    if check::depth(&term) > MAX_TERM_DEPTH {
        return Err(vec![ExprError::new(
            codes::EXPR_TOO_COMPLEX,
            format!("expression nests deeper than {MAX_TERM_DEPTH} levels"),
        )]);
    }
    Ok((term, check::token_rules(source, &tokens)))
}

fn lex_expect(expect: &jaq_core::load::lex::Expect<&str>) -> &'static str {
    use jaq_core::load::lex::Expect;
    // `Expect::as_str` panics on delimiters it does not know; name them ourselves.
    match expect {
        Expect::Digit => "digit",
        Expect::Ident => "identifier",
        Expect::Delim("(") => "closing parenthesis",
        Expect::Delim("[") => "closing bracket",
        Expect::Delim("{") => "closing brace",
        Expect::Delim(_) => "closing quote",
        Expect::Escape => "string escape sequence",
        Expect::Unicode => "4-digit hexadecimal code point",
        _ => "token",
    }
}

/// The standard library as prelude definitions, rewritten like user expressions.
fn std_defs<'s>() -> impl Iterator<Item = Def<&'s str>> {
    jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs())
        .map(rewrite::def)
        // Shortens `'static` to `'s`: iterator adaptors do not coerce their items.
        .map(shorten)
}

fn shorten<'s>(d: Def<&'static str>) -> Def<&'s str> {
    d
}

/// Compiles `sources` (already checked) into one program; expression `i` runs when the
/// global `$__wm` is `i`.
fn compile(sources: &[&str]) -> Result<jaq_core::Filter<WmData>, Vec<Located>> {
    let names: Vec<String> = (0..sources.len()).map(|i| format!("_wm_e{i}")).collect();
    let mut user = Vec::new();
    for (name, source) in names.iter().zip(sources) {
        let (term, _) = parse(source).map_err(|errs| {
            errs.into_iter()
                .map(|e| Located {
                    code: e.code,
                    message: e.message,
                    at: None,
                })
                .collect::<Vec<_>>()
        })?;
        user.push(rewrite::def(Def {
            name: name.as_str(),
            args: Vec::new(),
            body: term,
        }));
    }
    let mut main = String::new();
    dispatch(&mut main, 0, sources.len());
    let arena = Arena::default();
    let loader = Loader::new(std_defs().chain(user));
    let modules = loader
        .load(
            &arena,
            File {
                code: main.as_str(),
                path: (),
            },
        )
        .map_err(|_| {
            vec![Located {
                code: codes::EXPR_COMPILE,
                message: "internal: the dispatcher did not parse".into(),
                at: None,
            }]
        })?;
    jaq_core::Compiler::default()
        .with_funs(natives::funs())
        .with_global_vars(["$__wm"])
        .compile(modules)
        .map_err(|errs| {
            errs.into_iter()
                .flat_map(|(_file, errs)| errs)
                .map(|(name, undefined)| {
                    let what = match undefined {
                        jaq_core::compile::Undefined::Filter(arity) => {
                            format!("{name}/{arity} is not defined")
                        }
                        other => format!("{} {name} is not defined", other.as_str()),
                    };
                    let at = sources.iter().find_map(|s| offset_in(s, name));
                    Located {
                        code: codes::EXPR_COMPILE,
                        message: what,
                        at,
                    }
                })
                .collect()
        })
}

/// A balanced if-tree over `[lo, hi)` so selecting an expression costs log n comparisons.
fn dispatch(out: &mut String, lo: usize, hi: usize) {
    if hi <= lo + 1 {
        out.push_str(&format!("_wm_e{lo}"));
    } else {
        let mid = lo + (hi - lo) / 2;
        out.push_str(&format!("if $__wm < {mid} then "));
        dispatch(out, lo, mid);
        out.push_str(" else ");
        dispatch(out, mid, hi);
        out.push_str(" end");
    }
}

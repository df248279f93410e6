//! jq through jaq, with gojq's observable behaviour and a deterministic budget.
//!
//! Every expression is parsed with jaq's own parser, checked against upstream's static rules
//! ([`check`]), and rewritten ([`rewrite`]) so that every definition body, every right side of
//! a pipe and every reduce/foreach update passes through the native `_wm_fuel`, which counts
//! steps and live depth in a per-evaluation [`Budget`]. Every operation that builds a string
//! or an array is size-checked and pays what it builds ([`MAX_SIZE`], [`MAX_BUILT`]): `+` and
//! `*` (also inside `+=`), string interpolation and `@format` strings (rewritten into checked
//! `+`), `tostring`/`tojson`, array slices, and the output of every native function (string
//! functions, formats, `implode`, `split`, ...); constructions, comparisons and outputs are
//! walked, which bounds nesting depth and pays for logical size. All
//! expressions of a set become definitions of ONE jaq program, selected by a global
//! variable, so jaq's standard library is compiled once per set.

mod check;
mod fast;
mod natives;
mod project;
mod rewrite;

pub(crate) use project::Memo;

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
/// Most operators and keywords accepted: jaq parses and compiles right-associative chains
/// (`a | b | c ...`, `- - - 1`, `. as $x | ...`) by recursion.
pub const MAX_OPERATORS: usize = 256;
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
/// Deepest value an evaluation may build (`[1]` is 1 deep). jaq drops, compares and
/// converts values recursively, so nesting must stay far below what the stack holds.
pub const MAX_VALUE_DEPTH: usize = 512;
/// Elements one evaluation may visit while checking values (at construction, before
/// comparisons and sorting, and in its outputs). Counts shared parts every time they are
/// reached, so values built by doubling (`[.,.]` forty times) cannot be walked for free.
pub const MAX_WALK: usize = 4_000_000;
/// Largest output (in elements, counted as by [`MAX_WALK`]) converted back to JSON.
pub const MAX_OUTPUT: usize = MAX_SIZE;
/// What one evaluation may build in total, in bytes of strings plus [`ELEMENT_BYTES`] per
/// array element or object entry: every `+`, `-`, `*`, `/`, interpolation, `@format`,
/// `tostring`/`tojson`, slice and native function pays the length of what it builds. Bounds
/// the time and memory of loops that build many values below [`MAX_SIZE`] each (64 MiB of
/// text, or 4 Mi elements).
pub const MAX_BUILT: usize = 64 * 1024 * 1024;
/// What one array element or object entry costs in [`MAX_BUILT`]: about its size in memory.
pub const ELEMENT_BYTES: usize = 16;
/// Bytes of strings native functions may read in total in one evaluation (their input and
/// arguments): they scan text in linear time, regular expressions slowly (about 10 MB/s in
/// wasm), so a loop over one large string must end. A regular expression also pays the bytes
/// it scans, times its size in [`REGEX_UNIT`]s (its search takes time proportional to both).
pub const MAX_READ: usize = 2 * 1024 * 1024;
/// What one match of a regular expression (`match`, `test`, `capture`, `scan`, `split/2`,
/// `splits`, `sub`, `gsub`), and each capture object built for it, costs in [`MAX_BUILT`],
/// paid before it is made. Not its size (a jq object `{offset, length, string, name}` of
/// about 700 bytes) but its work: the search that found it, and the jq definitions of `match`,
/// `capture`, `scan`, `sub` and `gsub`, which spend about 20 µs natively per match. So one
/// evaluation finds at most 4,096 matches (a fraction of a second in wasm), where real
/// definitions find a few.
pub const MATCH_BYTES: usize = 16 * 1024;
/// A regular expression pays, before it searches, the bytes of its input times its compiled
/// size in units of this many bytes (at least one; `\w+` is one, `^(.*)-worker-(\d+)$` four,
/// `a{1000}` 128) to [`MAX_READ`]: its searches take up to time proportional to both.
pub const REGEX_UNIT: usize = 256;

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
    /// Elements visited by value checks so far.
    walked: Cell<usize>,
    /// Bytes and elements built so far (see [`MAX_BUILT`]).
    built: Cell<usize>,
    /// Bytes read by natives so far (see [`MAX_READ`]).
    read: Cell<usize>,
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

    /// Pays `units` of the walk budget; false (and the budget spent) when it runs out.
    pub(crate) fn pay(&self, units: usize) -> bool {
        let walked = self.walked.get().saturating_add(units);
        if walked > MAX_WALK {
            self.spend(natives::SIZE_EXCEEDED);
            return false;
        }
        self.walked.set(walked);
        true
    }

    /// Checks a value an operation built: at most [`MAX_SIZE`] long, paying its length to the
    /// [`MAX_BUILT`] budget. On failure the budget is spent and false returned.
    pub(crate) fn built(&self, v: &Val) -> bool {
        let (len, cost) = match v {
            Val::TStr(b) | Val::BStr(b) => (b.len(), b.len()),
            Val::Arr(a) => (a.len(), a.len().saturating_mul(ELEMENT_BYTES)),
            Val::Obj(o) => (o.len(), o.len().saturating_mul(ELEMENT_BYTES)),
            _ => (0, 0),
        };
        if len > MAX_SIZE {
            self.spend(natives::SIZE_EXCEEDED);
            return false;
        }
        self.charge(cost)
    }

    /// Pays the length of a string a native is about to read to the [`MAX_READ`] budget.
    pub(crate) fn read(&self, v: &Val) -> bool {
        let (Val::TStr(b) | Val::BStr(b)) = v else {
            return true;
        };
        let read = self.read.get().saturating_add(b.len());
        if read > MAX_READ {
            self.spend(natives::READ_EXCEEDED);
            return false;
        }
        self.read.set(read);
        true
    }

    /// Pays `cost` of [`MAX_BUILT`] for matches a regular expression is about to build; when
    /// it runs out, the budget is spent naming the matches as the cause.
    pub(crate) fn regex_built(&self, cost: usize) -> bool {
        let built = self.built.get().saturating_add(cost);
        if built > MAX_BUILT {
            self.spend(natives::REGEX_MATCHES_EXCEEDED);
            return false;
        }
        self.built.set(built);
        true
    }

    /// Pays `bytes` of [`MAX_READ`] for text a regular expression scanned; when it runs out,
    /// the budget is spent naming the scanning as the cause.
    pub(crate) fn regex_scanned(&self, bytes: usize) -> bool {
        let read = self.read.get().saturating_add(bytes);
        if read > MAX_READ {
            self.spend(natives::REGEX_SCAN_EXCEEDED);
            return false;
        }
        self.read.set(read);
        true
    }

    fn charge(&self, cost: usize) -> bool {
        let built = self.built.get().saturating_add(cost);
        if built > MAX_BUILT {
            self.spend(natives::BUILT_EXCEEDED);
            return false;
        }
        self.built.set(built);
        true
    }

    /// Checks that `v` nests at most [`MAX_VALUE_DEPTH`] deep and that its logical size fits
    /// what is left of the walk budget, paying for every element visited. On failure the
    /// budget is spent and false returned.
    pub(crate) fn walk(&self, v: &Val) -> bool {
        if !matches!(v, Val::Arr(_) | Val::Obj(_)) {
            return true;
        }
        let mut stack = vec![(v, 1usize)];
        while let Some((v, depth)) = stack.pop() {
            if depth > MAX_VALUE_DEPTH {
                self.spend(natives::DEPTH_EXCEEDED);
                return false;
            }
            let len = match v {
                Val::Arr(a) => a.len(),
                Val::Obj(o) => o.len(),
                _ => 0,
            };
            if !self.pay(len) {
                return false;
            }
            let children: Box<dyn Iterator<Item = &Val>> = match v {
                Val::Arr(a) => Box::new(a.iter()),
                Val::Obj(o) => Box::new(o.values()),
                _ => Box::new(core::iter::empty()),
            };
            stack.extend(
                children
                    .filter(|c| matches!(c, Val::Arr(_) | Val::Obj(_)))
                    .map(|c| (c, depth + 1)),
            );
        }
        true
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

/// A number that is not an integer as a float.
fn num_f64(n: &jaq_json::Num) -> f64 {
    use jaq_json::Num;
    match n {
        Num::Float(f) => *f,
        Num::Dec(s) => s.parse().unwrap_or(f64::NAN),
        other => jaq_std::ValT::as_f64(&Val::Num(other.clone())).unwrap_or(f64::NAN),
    }
}

/// `.nan`, `.inf` or `-.inf` for a number that is not finite; `None` for anything else.
fn non_finite_text(val: &Val) -> Option<&'static str> {
    match val {
        Val::Num(jaq_json::Num::Int(_)) => None,
        Val::Num(n) => crate::yaml::non_finite_text(num_f64(n)),
        _ => None,
    }
}

/// Converts a result back; integral floats become integers (`3`, not `3.0`).
pub(crate) fn to_json(val: &Val) -> Value {
    use jaq_json::Num;
    match val {
        Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(*b),
        Val::Num(Num::Int(i)) => Value::from(*i as i64),
        Val::Num(n) => float_to_json(num_f64(n)),
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

/// Collects jq expressions; each is parsed and checked when added, and all are compiled
/// together once, by [`finish`](Self::finish).
#[derive(Default)]
pub struct JqBuilder {
    sources: Vec<String>,
    /// Per expression: its plain path, when it is one ([`fast`]).
    fast: Vec<Option<fast::FastPath>>,
    /// Per expression: what it reads of its input ([`project`]).
    project: Vec<Option<project::Projection>>,
}

impl JqBuilder {
    /// Parses and checks `source` (limits, upstream's rules, undefined names); returns its
    /// index in the set. Compiling is left to [`finish`](Self::finish): compiling jaq's
    /// standard library once per expression would dominate the time to compile a definition.
    pub fn add(&mut self, source: &str) -> Result<usize, Vec<ExprError>> {
        check::prescan(source)?;
        let (term, mut errs) = parse(source)?;
        errs.extend(check::forbidden_calls(source, &term));
        errs.extend(check::undefined(source, &term, &prelude_has, &GLOBALS));
        if !errs.is_empty() {
            errs.sort_by_key(|e| e.range);
            return Err(errs);
        }
        self.sources.push(source.to_owned());
        self.fast.push(fast::compile(&term));
        self.project.push(project::analyse(&term));
        Ok(self.sources.len() - 1)
    }

    /// Compiles all expressions into one program. Expressions that do not compile (which
    /// [`add`](Self::add) should already have caught) are left out so that the others still
    /// run; their indices come back with the reasons.
    pub fn finish(self) -> (JqSet, Vec<(usize, Vec<ExprError>)>) {
        let mut active: Vec<usize> = (0..self.sources.len()).collect();
        let mut failed: Vec<(usize, Vec<ExprError>)> = Vec::new();
        let source = |i: usize| self.sources.get(i).map_or("", String::as_str);
        // Each round drops at least one expression, so this ends.
        let program = loop {
            if active.is_empty() {
                break None;
            }
            let errs = match compile(&active, &source) {
                Ok(filter) => break Some(filter),
                Err(errs) => errs,
            };
            let mut blamed: Vec<(usize, Vec<ExprError>)> = Vec::new();
            for e in errs {
                let Some(i) = e.owner else { continue };
                match blamed.iter_mut().find(|(j, _)| *j == i) {
                    Some((_, list)) => list.push(e.located.into_error()),
                    None => blamed.push((i, vec![e.located.into_error()])),
                }
            }
            if blamed.is_empty() {
                // No error points into an expression: find the culprits one by one.
                for &i in &active {
                    if let Err(errs) = compile(&[i], &source) {
                        let errs = errs.into_iter().map(|e| e.located.into_error()).collect();
                        blamed.push((i, errs));
                    }
                }
                if blamed.is_empty() {
                    blamed = active.iter().map(|&i| (i, vec![internal()])).collect();
                }
            }
            active.retain(|i| !blamed.iter().any(|(j, _)| j == i));
            failed.extend(blamed);
        };
        failed.sort_by_key(|(i, _)| *i);
        let set = JqSet {
            program,
            compiled: (0..self.sources.len())
                .map(|i| !failed.iter().any(|(j, _)| *j == i))
                .collect(),
            fast: self.fast,
            project: self.project,
        };
        (set, failed)
    }
}

fn internal() -> ExprError {
    ExprError::new(
        codes::EXPR_COMPILE,
        "internal: the expression did not compile",
    )
}

/// The key a literal string term stands for (`"a"`, `"a\u0041"`, the `a` of `.a`); `None` for
/// anything else (an interpolation, a format, another term). The one reading of a literal key
/// for the fast path, the projection and provenance.
pub(crate) fn literal_key(term: &Term<&str>) -> Option<String> {
    use jaq_core::load::lex::StrPart;
    let Term::Str(None, parts) = term else {
        return None;
    };
    let mut key = String::new();
    for part in parts {
        match part {
            StrPart::Str(s) => key.push_str(s),
            StrPart::Char(c) => key.push(*c),
            StrPart::Term(_) => return None,
        }
    }
    Some(key)
}

/// Global variables of the program: the dispatcher's selector.
const GLOBALS: [&str; 1] = ["$__wm"];

/// True when the standard library or a native defines `name` with `arity` arguments.
fn prelude_has(name: &str, arity: usize) -> bool {
    static PRELUDE: std::sync::OnceLock<std::collections::HashSet<(&'static str, usize)>> =
        std::sync::OnceLock::new();
    PRELUDE
        .get_or_init(|| {
            let defs = jaq_core::defs()
                .chain(jaq_std::defs())
                .chain(jaq_json::defs())
                .map(|d| (d.name, d.args.len()));
            let natives = natives::funs()
                .into_iter()
                .map(|(name, args, _)| (name, args.len()));
            defs.chain(natives).collect()
        })
        .contains(&(name, arity))
}

/// The compiled jq expressions of a set.
pub struct JqSet {
    program: Option<jaq_core::Filter<WmData>>,
    /// Per expression: false when it was left out of the program.
    compiled: Vec<bool>,
    /// Per expression: its plain path, evaluated without jaq ([`fast`]).
    fast: Vec<Option<fast::FastPath>>,
    /// Per expression: what it reads of its input ([`project`]); `None`: all of it.
    project: Vec<Option<project::Projection>>,
}

/// Whether plain paths are evaluated without jaq (see [`set_fast_paths`]).
static FAST_PATHS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

static PROJECTIONS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Turns the conversion of only the parts of an input an expression reads ([`project`]) on
/// or off, for the whole process. Only for measuring what it saves (the native bench).
#[doc(hidden)]
pub fn set_projections(enabled: bool) {
    PROJECTIONS.store(enabled, std::sync::atomic::Ordering::Relaxed);
}

/// Turns the evaluation of plain paths without jaq ([`fast`]) on or off, for the whole
/// process. Only for measuring what it saves (the native bench); not an option for users.
#[doc(hidden)]
pub fn set_fast_paths(enabled: bool) {
    FAST_PATHS.store(enabled, std::sync::atomic::Ordering::Relaxed);
}

impl JqSet {
    /// True when expression `index` reads only parts of its input ([`project`]).
    pub(crate) fn reads_part(&self, index: usize) -> bool {
        matches!(self.project.get(index), Some(Some(_)))
    }

    /// True when expression `index` is a plain path that evaluates without jaq.
    pub(crate) fn is_fast_path(&self, index: usize) -> bool {
        self.program.is_some()
            && self.compiled.get(index) == Some(&true)
            && matches!(self.fast.get(index), Some(Some(_)))
    }

    /// [`eval_with`](Self::eval_with) on `input`: a plain path walks its JSON directly
    /// (unless `route` says otherwise, or [`set_fast_paths`] turned that off); anything else,
    /// and a plain path whose outputs exceed the budget, runs in jaq, on the parts of the
    /// input the expression can read ([`project`]) unless the whole input is converted
    /// already.
    pub(crate) fn eval_input(
        &self,
        index: usize,
        input: &super::Input<'_>,
        non_finite_as_text: bool,
        route: super::Route,
    ) -> Result<Vec<Value>, ExprError> {
        use super::Route;
        if route == Route::Best
            && self.is_fast_path(index)
            && FAST_PATHS.load(std::sync::atomic::Ordering::Relaxed)
        {
            // Input numbers are finite (JSON has no others), so `non_finite_as_text` changes
            // nothing for a plain path.
            let answer = self.fast.get(index).and_then(|f| f.as_ref()?.eval(input.json()));
            if let Some(answer) = answer {
                return answer;
            }
        }
        if route != Route::Whole && PROJECTIONS.load(std::sync::atomic::Ordering::Relaxed) {
            let converted = input.jq_converted().filter(|_| route == Route::Best);
            if let (None, Some(Some(projection))) = (converted, self.project.get(index)) {
                let val = match input.jq_memo().try_borrow_mut() {
                    Ok(mut memo) => projection.input(input.json(), &mut memo),
                    Err(_) => projection.input(input.json(), &mut Memo::new()),
                };
                return self.eval_with(index, &JqInput { val }, non_finite_as_text);
            }
        }
        self.eval_with(index, input.jq(), non_finite_as_text)
    }

    /// Evaluates expression `index`: every output in order, or the first error.
    pub fn eval(&self, index: usize, input: &JqInput) -> Result<Vec<Value>, ExprError> {
        self.eval_with(index, input, false)
    }

    /// [`eval`](Self::eval); with `non_finite_as_text`, an output that is a number but not a
    /// finite one (jaq's `0/0`, `infinite`) is the string YAML makes of `.nan` or `±.inf`
    /// ([`crate::yaml::non_finite_text`]) instead of gojq's `null` or largest float.
    pub fn eval_with(
        &self,
        index: usize,
        input: &JqInput,
        non_finite_as_text: bool,
    ) -> Result<Vec<Value>, ExprError> {
        let filter = match &self.program {
            Some(filter) if self.compiled.get(index) == Some(&true) => filter,
            _ => {
                return Err(ExprError::new(
                    codes::EXPR_COMPILE,
                    "the expression did not compile",
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
        // Outputs are converted recursively: check their depth and size first.
        let start = budget.walked.get();
        let all_fit = error.is_some() || out.iter().all(|v| budget.walk(v));
        let output_walk = budget.walked.get() - start;
        if !all_fit || output_walk > MAX_OUTPUT {
            budget.spend(natives::SIZE_EXCEEDED);
        }
        if let Some(why) = budget.spent.get() {
            return Err(ExprError::new(codes::EXPR_BUDGET, why));
        }
        match error {
            Some(e) => Err(e),
            None => Ok(out
                .iter()
                .map(
                    |v| match non_finite_text(v).filter(|_| non_finite_as_text) {
                        Some(text) => Value::String(text.to_owned()),
                        None => to_json(v),
                    },
                )
                .collect()),
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
                // The range covers the whole character there, never part of one (`é` is two bytes).
                let width = rest.chars().next().map_or(0, char::len_utf8);
                let at = offset_in(source, rest).map(|(s, _)| (s, s + width));
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

/// jaq-std's `sub` and `gsub`, with `capture_of_match` (which gives one value) collected
/// before `f` runs: piped straight into `f`, its stream stayed open across the whole `reduce`,
/// each match holding another level of the depth budget, so that `gsub` failed with
/// "recursion depth" past about a hundred matches. The same results otherwise. Every form
/// is defined again, as jaq-std's refer to its own `sub`.
const OUR_DEFS: &str = r#"
def sub(re; f; flags):
  def handle: if isarray then [capture_of_match][0] | f end;
  reduce split_matches(re; flags)[] as $x (""; . + ($x | handle));
def gsub(re; f; flags): sub(re; f; "g" + flags);
def sub(re; f): sub(re; f; "");
def gsub(re; f): sub(re; f; "g");
"#;

/// The standard library as prelude definitions, rewritten like user expressions.
fn std_defs<'s>() -> impl Iterator<Item = Def<&'s str>> {
    let ours = jaq_core::load::parse(OUR_DEFS, |p| p.defs()).unwrap_or_default();
    jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs())
        .chain(ours)
        .map(rewrite::def)
        // Shortens `'static` to `'s`: iterator adaptors do not coerce their items.
        .map(shorten)
}

fn shorten<'s>(d: Def<&'static str>) -> Def<&'s str> {
    d
}

/// A compile error and the expression it points into, when it does.
struct Blamed {
    owner: Option<usize>,
    located: Located,
}

/// Compiles the expressions `indices` (already checked; `source` gives their text) into one
/// program; expression `i` runs when the global `$__wm` is `i`.
fn compile<'s>(
    indices: &[usize],
    source: &dyn Fn(usize) -> &'s str,
) -> Result<jaq_core::Filter<WmData>, Vec<Blamed>> {
    let names: Vec<String> = indices.iter().map(|i| format!("_wm_e{i}")).collect();
    let mut user = Vec::new();
    for (name, &i) in names.iter().zip(indices) {
        let (term, _) = parse(source(i)).map_err(|errs| {
            errs.into_iter()
                .map(|e| Blamed {
                    owner: Some(i),
                    located: Located {
                        code: e.code,
                        message: e.message,
                        at: None,
                    },
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
    dispatch(&mut main, indices);
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
            vec![Blamed {
                owner: None,
                located: Located {
                    code: codes::EXPR_COMPILE,
                    message: "internal: the dispatcher did not parse".into(),
                    at: None,
                },
            }]
        })?;
    jaq_core::Compiler::default()
        .with_funs(natives::funs())
        .with_global_vars(GLOBALS)
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
                    // jaq's errors are slices of the text they were found in.
                    let owner = indices
                        .iter()
                        .find_map(|&i| offset_in(source(i), name).map(|at| (i, at)));
                    Blamed {
                        owner: owner.map(|(i, _)| i),
                        located: Located {
                            code: codes::EXPR_COMPILE,
                            message: what,
                            at: owner.map(|(_, at)| at),
                        },
                    }
                })
                .collect()
        })
}

/// A balanced if-tree over `indices` (ascending) so selecting an expression costs log n
/// comparisons.
fn dispatch(out: &mut String, indices: &[usize]) {
    match indices {
        [] => out.push_str("empty"),
        [only] => out.push_str(&format!("_wm_e{only}")),
        _ => {
            let (low, high) = indices.split_at(indices.len() / 2);
            let mid = high.first().copied().unwrap_or_default();
            out.push_str(&format!("if $__wm < {mid} then "));
            dispatch(out, low);
            out.push_str(" else ");
            dispatch(out, high);
            out.push_str(" end");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scope-aware check in `add` must find exactly what jaq's compiler finds, or an
    /// expression would slip through to `finish` (or be refused wrongly).
    #[test]
    fn undefined_check_agrees_with_the_compiler() {
        let cases = [
            "def f(g): g; f(.)",
            "def f($a): $a; f(1)",
            "def f($a): a; f(1)",
            "def f(a; $b): a + $b; f(1; 2)",
            "def f: if . > 3 then . else .+1 | f end; f",
            "def f: 1; def g: f; g",
            "def g: h; def h: 2; g",
            "def f: def g: f; 1; f",
            "def f(a): a; f",
            ". as [$a, {b: $c}] | $a, $c",
            ". as {$a} | $a",
            ". as {($a): $b} | $b",
            ". as $a | . as {($a): $b} | $b",
            ". as [$a, $b] | $b",
            "reduce .[] as $x (0; . + $x)",
            "reduce .[] as $x (0; .) | $x",
            "reduce .[] as $x (0)",
            "reduce .[] as $x (0; 1; 2)",
            "foreach .[] as $x (0; . + $x; [$x, .])",
            "foreach .[] as $x (0; . + $x)",
            "foreach .[] as $x (0; .; .; .)",
            "foreach .[] as $x ($x; .)",
            "label $out | 1, break $out",
            "break $out",
            "(label $out | 1) | break $out",
            "@base64 \"x\\(.)\"",
            "@nosuch \"x\"",
            "@csv",
            "\"\\(1 as $x | $x)\"",
            "\"\\(1 as $x | 2) \\($x)\"",
            ". as $x | def f: $x; f",
            "def f: $x; . as $x | f",
            "{a: 1} | {a, $__loc__}",
            "{$x}",
            "1 as $x | {$x, b: $x}",
            "(1 as $x | 2) | $x",
            "$ENV",
            "$__wm",
            "_wm_fuel(.)",
            "def _wm_fuel(f): f; 1",
            "a::b",
            "f",
            "map(.)",
            "map",
            "getpath([\"a\"]), ltrimstr(\"x\"), splits(\"a\"), tojson, tostring, @json",
            "input, now, env, debug, stderr, halt_error, error(\"x\")",
            "try error catch .",
            "limit(2; .[]), first(.[]), isempty(.[]), any, all, add, join(\",\")",
            ".[] as [$a] ?// $a | $a",
        ];
        for case in cases {
            let Ok((term, _)) = parse(case) else {
                continue;
            };
            let checked = check::undefined(case, &term, &prelude_has, &GLOBALS);
            let compiled = compile(&[0], &|_| case);
            // Reserved names compile, but user code may not use them.
            let reserved = case.contains("_wm");
            assert_eq!(
                checked.is_empty(),
                compiled.is_ok() && !reserved,
                "{case}: check {checked:?}"
            );
        }
    }
}

//! CEL expressions (a workload-map extension): the object is the variable `object`, and an
//! expression has exactly one result.
//!
//! The `cel` crate is used without default features: no regex and no chrono (timestamps and
//! durations are not needed to read workload objects, and they cost most of the size); its
//! `json` feature converts results back to JSON.
//!
//! The crate has no budget of its own, so both ends are bounded here. Before parsing,
//! [`prescan`] bounds bracket nesting and the number of operators in the text: the crate's
//! parser builds left-deep trees for operator chains (`1 + 1 + ...`, `a.b.c...`, `x[0][0]...`)
//! and recurses along them, as does its evaluator. After parsing, the expression is
//! rewritten (the crate's AST is public) so that evaluation is metered by three native
//! functions bound per evaluation: every comprehension iteration counts against
//! [`MAX_ITERATIONS`], and every value an operation copies or builds (the list a
//! comprehension iterates, list and map literal entries, the operands of functions and
//! operators, and the result of `+`) pays its size against [`MAX_COST`] before it is
//! copied. The crate copies values deeply (`[x, x]` holds two copies of `x`), so paying
//! for copies bounds both time and memory.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

use cel::common::ast::{operators, ComprehensionExpr, EntryExpr, Expr};
use cel::common::types::{CelBytes, CelList, CelMap, CelMapKey, CelString};
use cel::common::value::{CowVal, Val};
use cel::parser::Parser;
use cel::{Context, ExecutionError, FunctionContext, IdedExpr, Value as CelValue};
use serde_json::Value;

use super::jq::{MAX_SIZE, MAX_SOURCE_LEN};
use super::ExprError;
use crate::diagnostic::{codes, TextRange};

/// Deepest bracket nesting (`(`, `[`, `{`) a CEL expression may have. The crate's parser
/// spends several recursive rules per level.
pub const MAX_NESTING: usize = 32;
/// Most operators a CEL expression may have, counted on the text (`.`, `[`, `(`, `{`, every
/// run of `+-*/%!<>=&|?`, and `in`, also inside string literals, which only over-counts).
/// The crate parses and evaluates operator chains by recursion.
pub const MAX_OPERATORS: usize = 200;
/// Comprehension iterations (`all`, `exists`, `exists_one`, `map`, `filter`) one evaluation
/// may take.
pub const MAX_ITERATIONS: u64 = 100_000;
/// Cost units one evaluation may spend copying and building values: one per value (each
/// list element and scalar), two more per map entry (its key is copied and hashed), and one
/// per [`BYTES_PER_UNIT`] bytes of strings and bytes.
pub const MAX_COST: u64 = 1_000_000;
/// String and bytes lengths cost one unit per this many bytes.
pub const BYTES_PER_UNIT: usize = 16;

/// Why a budget was spent, by the number [`Budget::spend`] stores (0: not spent).
const SPENT: [&str; 3] = [
    "expression exceeded its iteration budget (a runaway loop?)",
    "expression built or copied more than its size budget",
    "expression built a value larger than the size budget",
];
const ITERATIONS_EXCEEDED: u8 = 1;
const COST_EXCEEDED: u8 = 2;
const SIZE_EXCEEDED: u8 = 3;

/// Names of the metering functions the rewrite inserts.
const LOOP: &str = "_wm_loop";
const PAY: &str = "_wm_pay";
const ADD: &str = "_wm_add";
const SCAN: &str = "_wm_scan";

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

/// Collects CEL expressions, each parsed and rewritten when added.
#[derive(Default)]
pub struct CelBuilder {
    programs: Vec<IdedExpr>,
}

impl CelBuilder {
    /// Parses `source`; returns its index.
    pub fn add(&mut self, source: &str) -> Result<usize, Vec<ExprError>> {
        prescan(source)?;
        // What `Program::compile` does, keeping the parsed expression to rewrite it.
        let expression = Parser::new().parse(source).map_err(|errs| {
            let messages: Vec<_> = errs.errors.iter().map(|e| e.msg.clone()).collect();
            vec![ExprError::new(codes::EXPR_SYNTAX, messages.join("; "))]
        })?;
        self.programs.push(meter(expression, &mut Vec::new()));
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
    programs: Vec<IdedExpr>,
}

impl CelSet {
    /// Evaluates expression `index`: one result.
    pub fn eval(&self, index: usize, input: &CelInput) -> Result<Vec<Value>, ExprError> {
        let runtime = |m: String| ExprError::new(codes::EXPR_RUNTIME, m);
        let program = self.programs.get(index).ok_or_else(|| {
            ExprError::new(codes::EXPR_COMPILE, "internal: unknown expression id")
        })?;
        let budget = Arc::new(Budget::default());
        let mut context = Context::default();
        context.add_variable_from_value("object", input.value.clone());
        for (name, kind) in [
            (LOOP, Meter::Loop),
            (PAY, Meter::Pay),
            (ADD, Meter::Add),
            (SCAN, Meter::Scan),
        ] {
            let budget = Arc::clone(&budget);
            let function: Function = Box::new(move |ftx| budget.meter(kind, ftx));
            if context.add_function(name, function).is_err() {
                return Err(ExprError::new(
                    codes::EXPR_COMPILE,
                    "internal: the metering functions could not be bound",
                ));
            }
        }
        // The result is made of values paid for as they were built, or of the input.
        let result = CelValue::resolve(program, &context);
        if let Some(why) = budget.spent() {
            return Err(ExprError::new(codes::EXPR_BUDGET, why));
        }
        let value = result.map_err(|e| runtime(runtime_message(&e)))?;
        Ok(vec![to_json(&value)])
    }
}

/// The crate's message for a runtime error, with every value in it shown short: its own
/// messages print values with `Debug`, a whole map (the object itself, for `0.0 / object`) in
/// its hash order, which differs from one evaluation to the next (found by the `cel` fuzz
/// target: "evaluating twice differs").
fn runtime_message(e: &ExecutionError) -> String {
    match e {
        ExecutionError::UnsupportedTargetType { target } => {
            format!("Invalid argument type: {}", shown(target))
        }
        ExecutionError::NotSupportedAsMethod { method, target } => {
            format!("Method '{method}' not supported on {}", shown(target))
        }
        ExecutionError::UnsupportedKeyType(v) => {
            format!("Unable to use value {} as a key", shown(v))
        }
        ExecutionError::ValuesNotComparable(a, b) => {
            format!("{} can not be compared to {}", shown(a), shown(b))
        }
        ExecutionError::UnsupportedBinaryOperator(op, a, b) => {
            format!(
                "Unsupported binary operator '{op}': {}, {}",
                shown(a),
                shown(b)
            )
        }
        ExecutionError::UnsupportedIndex(a, b) => {
            format!("Cannot use value {} to index {}", shown(a), shown(b))
        }
        ExecutionError::DivisionByZero(v) => format!("Division by zero of {}", shown(v)),
        ExecutionError::RemainderByZero(v) => format!("Remainder by zero of {}", shown(v)),
        ExecutionError::Overflow(op, a, b) => {
            format!(
                "Overflow from binary operator '{op}': {}, {}",
                shown(a),
                shown(b)
            )
        }
        ExecutionError::IndexOutOfBounds(v) => format!("Index out of bounds: {}", shown(v)),
        ExecutionError::DuplicateKey(v) => format!("Failed with repeated key: {}", shown(v)),
        other => other.to_string(),
    }
}

/// A value in a message: a scalar as CEL writes it (a string cut at 40 characters), any
/// other value by its kind and size.
fn shown(v: &CelValue) -> String {
    match v {
        CelValue::Int(i) => i.to_string(),
        CelValue::UInt(u) => format!("{u}u"),
        CelValue::Float(f) => format!("{f:?}"),
        CelValue::Bool(b) => b.to_string(),
        CelValue::Null => "null".to_owned(),
        CelValue::String(s) => {
            let mut short: String = s.chars().take(40).collect();
            if short.len() < s.len() {
                short.push('…');
            }
            format!("{short:?}")
        }
        CelValue::Bytes(b) => format!("bytes of length {}", b.len()),
        CelValue::List(l) => format!("a list of {} items", l.len()),
        CelValue::Map(m) => format!("a map of {} entries", m.map.len()),
        _ => "a value of another type".to_owned(),
    }
}

/// A function bound in a [`Context`], as the crate stores them.
type Function = Box<
    dyn for<'c, 'k> Fn(&mut FunctionContext<'c, 'k>) -> Result<CowVal<'c, 'k>, ExecutionError>
        + Send
        + Sync,
>;

/// What a metering function does besides paying for its argument.
#[derive(Clone, Copy)]
enum Meter {
    /// Counts one comprehension iteration.
    Loop,
    /// Only pays.
    Pay,
    /// Pays for the text of a string or bytes only, one unit for anything else.
    Scan,
    /// `+` on its two arguments, once it knows the sum is at most [`MAX_SIZE`] long.
    Add,
}

/// The iterations and cost spent by one evaluation. Once spent it stays spent, and every
/// metering function fails, so errors absorbed by `||`, `&&` or a comprehension cannot keep
/// a loop going.
#[derive(Default)]
struct Budget {
    iterations: AtomicU64,
    cost: AtomicU64,
    /// 0, or why the budget was spent (an index into [`SPENT`] plus one).
    spent: AtomicU8,
}

impl Budget {
    fn spent(&self) -> Option<&'static str> {
        let why = self.spent.load(Ordering::Relaxed);
        SPENT.get(usize::from(why).checked_sub(1)?).copied()
    }

    fn spend(&self, why: u8) {
        if self.spent.load(Ordering::Relaxed) == 0 {
            self.spent.store(why, Ordering::Relaxed);
        }
    }

    fn left(&self) -> u64 {
        MAX_COST.saturating_sub(self.cost.load(Ordering::Relaxed))
    }

    fn pay(&self, units: u64) {
        let cost = self.cost.load(Ordering::Relaxed).saturating_add(units);
        self.cost.store(cost, Ordering::Relaxed);
        if cost > MAX_COST {
            self.spend(COST_EXCEEDED);
        }
    }

    /// The metering functions: `_wm_loop` and `_wm_pay` pass their one argument through once
    /// paid for; `_wm_add` pays for both of its arguments and adds them.
    fn meter<'c, 'k>(
        &self,
        kind: Meter,
        ftx: &mut FunctionContext<'c, 'k>,
    ) -> Result<CowVal<'c, 'k>, ExecutionError> {
        let exceeded = |why: &str| ExecutionError::function_error("budget", why);
        if let Some(why) = self.spent() {
            return Err(exceeded(why));
        }
        let Some(value) = ftx.args.pop() else {
            return Err(ExecutionError::invalid_argument_count(1, 0));
        };
        match kind {
            Meter::Loop => {
                let n = self.iterations.fetch_add(1, Ordering::Relaxed) + 1;
                if n > MAX_ITERATIONS {
                    self.spend(ITERATIONS_EXCEEDED);
                }
            }
            Meter::Add => {
                let Some(lhs) = ftx.args.pop() else {
                    return Err(ExecutionError::invalid_argument_count(2, 1));
                };
                if length(lhs.as_ref()).saturating_add(length(value.as_ref())) > MAX_SIZE {
                    self.spend(SIZE_EXCEEDED);
                }
                self.pay(cost(lhs.as_ref(), self.left()));
                self.pay(cost(value.as_ref(), self.left()));
                if let Some(why) = self.spent() {
                    return Err(exceeded(why));
                }
                return add(lhs, value);
            }
            Meter::Scan => {
                let text = if let Some(s) = value.downcast_ref::<CelString>() {
                    s.inner().len()
                } else {
                    value
                        .downcast_ref::<CelBytes>()
                        .map_or(0, |b| b.inner().len())
                };
                self.pay(1 + (text / BYTES_PER_UNIT) as u64);
                return match self.spent() {
                    Some(why) => Err(exceeded(why)),
                    None => Ok(value),
                };
            }
            Meter::Pay => {}
        }
        self.pay(cost(value.as_ref(), self.left()));
        match self.spent() {
            Some(why) => Err(exceeded(why)),
            None => Ok(value),
        }
    }
}

/// `lhs + rhs` exactly as the crate's interpreter computes it.
fn add<'c, 'k>(lhs: CowVal<'c, 'k>, rhs: CowVal<'c, 'k>) -> Result<CowVal<'c, 'k>, ExecutionError> {
    let Some(adder) = lhs.as_adder() else {
        return Err(ExecutionError::UnsupportedBinaryOperator(
            "add",
            CelValue::try_from(lhs.as_ref()).unwrap_or(CelValue::Null),
            CelValue::try_from(rhs.as_ref()).unwrap_or(CelValue::Null),
        ));
    };
    Ok(CowVal::Owned(adder.add(rhs.as_ref())?.into_owned()))
}

/// Bytes of a string, elements of a list, entries of a map; 0 for anything else.
fn length(value: &dyn Val) -> usize {
    if let Some(s) = value.downcast_ref::<CelString>() {
        s.inner().len()
    } else if let Some(b) = value.downcast_ref::<CelBytes>() {
        b.inner().len()
    } else if let Some(l) = value.downcast_ref::<CelList>() {
        l.inner().len()
    } else if let Some(m) = value.downcast_ref::<CelMap>() {
        m.inner().len()
    } else {
        0
    }
}

/// What copying `value` costs, counted up to just past `cap` (iteratively: values can nest
/// deeper than the stack allows).
fn cost(value: &dyn Val, cap: u64) -> u64 {
    let bytes = |n: usize| (n / BYTES_PER_UNIT) as u64;
    let mut total = 0u64;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        total += 1;
        if let Some(s) = v.downcast_ref::<CelString>() {
            total += bytes(s.inner().len());
        } else if let Some(b) = v.downcast_ref::<CelBytes>() {
            total += bytes(b.inner().len());
        } else if let Some(l) = v.downcast_ref::<CelList>() {
            stack.extend(l.inner().iter().map(|x| x.as_ref()));
        } else if let Some(m) = v.downcast_ref::<CelMap>() {
            for (k, x) in m.inner() {
                total += 2;
                if let CelMapKey::String(s) = k {
                    total += bytes(s.inner().len());
                }
                stack.push(x.as_ref());
            }
        }
        if total > cap {
            break;
        }
    }
    total
}

/// Calls that evaluate their operands lazily or only look into them: never wrapped, so
/// short-circuiting and the crate's special cases stay as they are.
const UNMETERED: [&str; 9] = [
    operators::LOGICAL_AND,
    operators::LOGICAL_OR,
    operators::CONDITIONAL,
    operators::LOGICAL_NOT,
    operators::NEGATE,
    operators::NOT_STRICTLY_FALSE,
    operators::INDEX,
    operators::OPT_INDEX,
    operators::OPT_SELECT,
];

fn call(name: &str, arg: IdedExpr) -> IdedExpr {
    IdedExpr {
        id: arg.id,
        expr: Expr::Call(cel::common::ast::CallExpr {
            func_name: name.to_owned(),
            target: None,
            args: vec![arg],
        }),
    }
}

/// True for a comprehension's accumulator (`@result`), which source text cannot name.
fn is_accumulator(e: &IdedExpr) -> bool {
    matches!(&e.expr, Expr::Ident(name) if name.starts_with('@'))
}

/// The root identifier of `a.b.c`, when `e` is such a chain.
fn name_root(e: &IdedExpr) -> Option<&str> {
    match &e.expr {
        Expr::Ident(name) => Some(name),
        Expr::Select(s) if !s.test => name_root(&s.operand),
        _ => None,
    }
}

/// Rewrites `e` so that its evaluation is metered; `scope` holds the comprehension
/// variables in scope.
fn meter(e: IdedExpr, scope: &mut Vec<String>) -> IdedExpr {
    let IdedExpr { id, expr } = e;
    let expr = match expr {
        Expr::Call(mut c) => {
            let name = c.func_name.as_str();
            let accumulating = name == operators::ADD && c.args.first().is_some_and(is_accumulator);
            // `+` becomes `_wm_add`, which pays for its operands itself.
            let adding = name == operators::ADD && !accumulating && c.target.is_none();
            let unmetered = UNMETERED.contains(&name) || accumulating || adding;
            // `size` counts a string's characters, and a map key is hashed: they pay for
            // strings only (a list's size and a list index cost nothing).
            let sizing = name == "size";
            let indexing = name == operators::INDEX || name == operators::OPT_INDEX;
            // Plain loops, not iterator chains: this recursion must stay shallow in debug
            // builds too (tests run it on a wasm-sized stack).
            let mut args = Vec::with_capacity(c.args.len());
            for (i, a) in std::mem::take(&mut c.args).into_iter().enumerate() {
                let a = meter(a, scope);
                let literal = matches!(a.expr, Expr::Literal(_));
                args.push(if sizing || (indexing && i == 1 && !literal) {
                    call(SCAN, a)
                } else if unmetered || is_accumulator(&a) {
                    a
                } else {
                    call(PAY, a)
                });
            }
            c.args = args;
            if let Some(t) = c.target.take() {
                let t = meter(*t, scope);
                // `ns.f(x)` names a function: only a value's root is a variable.
                let names_value = name_root(&t)
                    .is_none_or(|root| root == "object" || scope.iter().any(|v| v == root));
                c.target = Some(Box::new(if sizing {
                    call(SCAN, t)
                } else if unmetered || !names_value {
                    t
                } else {
                    call(PAY, t)
                }));
            }
            if adding {
                ADD.clone_into(&mut c.func_name);
            }
            Expr::Call(c)
        }
        Expr::Comprehension(c) => Expr::Comprehension(Box::new(comprehension(*c, scope))),
        Expr::List(mut l) => {
            for x in &mut l.elements {
                *x = call(PAY, meter(std::mem::take(x), scope));
            }
            Expr::List(l)
        }
        Expr::Map(mut m) => {
            for entry in &mut m.entries {
                if let EntryExpr::MapEntry(e) = &mut entry.expr {
                    e.key = call(PAY, meter(std::mem::take(&mut e.key), scope));
                    e.value = call(PAY, meter(std::mem::take(&mut e.value), scope));
                }
            }
            Expr::Map(m)
        }
        Expr::Select(mut s) => {
            s.operand = Box::new(meter(*s.operand, scope));
            Expr::Select(s)
        }
        Expr::Struct(mut s) => {
            for entry in &mut s.entries {
                if let EntryExpr::StructField(f) = &mut entry.expr {
                    f.value = call(PAY, meter(std::mem::take(&mut f.value), scope));
                }
            }
            Expr::Struct(s)
        }
        other @ (Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified) => other,
    };
    IdedExpr { id, expr }
}

/// Meters a comprehension: the list it iterates is paid for (every item is copied into the
/// loop variable), and every iteration counts, in a place the crate evaluates once per
/// iteration without changing the shapes it optimises (a literal loop condition with an
/// appending or guarded step).
fn comprehension(c: ComprehensionExpr, scope: &mut Vec<String>) -> ComprehensionExpr {
    let outer = scope.len();
    let iter_range = call(PAY, meter(c.iter_range, scope));
    let accu_init = meter(c.accu_init, scope);
    scope.push(c.iter_var.clone());
    scope.extend(c.iter_var2.clone());
    let mut loop_cond = meter(c.loop_cond, scope);
    let mut loop_step = meter(c.loop_step, scope);
    if !matches!(loop_cond.expr, Expr::Literal(_)) {
        loop_cond = call(LOOP, loop_cond);
    } else {
        loop_step = count_step(loop_step);
    }
    let result = meter(c.result, scope);
    scope.truncate(outer);
    ComprehensionExpr {
        iter_range,
        iter_var: c.iter_var,
        iter_var2: c.iter_var2,
        accu_var: c.accu_var,
        accu_init,
        loop_cond,
        loop_step,
        result,
    }
}

/// Counts one iteration in a step that the loop condition does not guard: in the guard of
/// `g ? a : b`, in the appended item of `@result + [x]`, or around the whole step.
fn count_step(step: IdedExpr) -> IdedExpr {
    let IdedExpr { id, expr } = step;
    match expr {
        Expr::Call(mut c) if c.func_name == operators::CONDITIONAL && c.args.len() == 3 => {
            let guard = std::mem::take(&mut c.args[0]);
            c.args[0] = call(LOOP, guard);
            IdedExpr {
                id,
                expr: Expr::Call(c),
            }
        }
        Expr::Call(mut c)
            if c.func_name == operators::ADD
                && c.args.first().is_some_and(is_accumulator)
                && matches!(c.args.get(1).map(|a| &a.expr), Some(Expr::List(l)) if l.elements.len() == 1) =>
        {
            if let Some(Expr::List(l)) = c.args.get_mut(1).map(|a| &mut a.expr) {
                let item = std::mem::take(&mut l.elements[0]);
                l.elements[0] = call(LOOP, item);
            }
            IdedExpr {
                id,
                expr: Expr::Call(c),
            }
        }
        other => call(LOOP, IdedExpr { id, expr: other }),
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

/// Bounds the text before the crate's recursive parser sees it: its length, its bracket
/// nesting, and its number of operators (which bounds every chain the parser and evaluator
/// recurse along). Counts on the raw text, string literals included, which can only
/// over-count.
fn prescan(source: &str) -> Result<(), Vec<ExprError>> {
    let too_complex = |m: String, at: Option<usize>| {
        let mut e = ExprError::new(codes::EXPR_TOO_COMPLEX, m);
        // `i` is at a character boundary; the range covers that character.
        let width = |i: usize| {
            source
                .get(i..)
                .and_then(|s| s.chars().next())
                .map_or(0, char::len_utf8)
        };
        e.range = at.map(|i| TextRange::new(i, i + width(i)));
        vec![e]
    };
    if source.len() > MAX_SOURCE_LEN {
        // Points at the character that crosses the limit.
        let mut at = MAX_SOURCE_LEN;
        while !source.is_char_boundary(at) {
            at -= 1;
        }
        return Err(too_complex(
            format!("expression is longer than {MAX_SOURCE_LEN} bytes"),
            Some(at),
        ));
    }
    let bytes = source.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let (mut depth, mut ops) = (0usize, 0usize);
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                ops += 1;
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'.' => ops += 1,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'!' | b'<' | b'>' | b'=' | b'&' | b'|' | b'?' => {
                ops += 1;
                // `==`, `!=`, `<=`, `&&`, `||` are one operator each.
                while matches!(bytes.get(i + 1), Some(b'=' | b'&' | b'|')) {
                    i += 1;
                }
            }
            b'i' if bytes.get(i + 1) == Some(&b'n')
                && !bytes.get(i + 2).is_some_and(|&c| word(c))
                && !(i > 0 && bytes.get(i - 1).is_some_and(|&c| word(c))) =>
            {
                ops += 1;
            }
            _ => {}
        }
        if depth > MAX_NESTING {
            return Err(too_complex(
                format!("expression nests deeper than {MAX_NESTING} levels"),
                Some(i),
            ));
        }
        if ops > MAX_OPERATORS {
            return Err(too_complex(
                format!("expression has more than {MAX_OPERATORS} operators"),
                Some(i),
            ));
        }
        i += 1;
    }
    Ok(())
}

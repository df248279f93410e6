//! Rewrites parsed terms so that evaluation is metered.
//!
//! Every loop in jq is recursion through a definition, and every stream step continues on
//! the right of a pipe or in a fold's update, so wrapping exactly those places in the native
//! `_wm_fuel` meters all unbounded work. `+` and `*` become size-checked natives, also inside
//! `+=` and `*=` (which `join` uses), and so do interpolated and `@format` strings, which jaq
//! would otherwise concatenate unchecked. The outputs of native functions and array slices
//! pass through `_wm_built`, which checks and pays for what they built, and their string input
//! and arguments through `_wm_read`, which pays for their length (natives scan them).
//!
//! Values only nest deeper through array and object construction and a few natives, so
//! exactly their outputs pass through `_wm_walk`, which refuses values deeper than jaq's
//! recursive drop, comparison and our output conversion can take, and pays for their size.
//! Comparisons and comparing natives walk their operands first: a value built by doubling
//! is small in memory but as large as its logical size to compare.

use jaq_core::load::lex::StrPart;
use jaq_core::load::parse::{BinaryOp, Def, Pattern, Term};
use jaq_core::ops::Math;
use jaq_core::path::{Part, Path};

/// Rewrites a definition, wrapping its body.
pub(crate) fn def(d: Def<&str>) -> Def<&str> {
    Def {
        name: d.name,
        args: d.args,
        body: fuel(term(d.body)),
    }
}

fn fuel(t: Term<&str>) -> Term<&str> {
    Term::Call("_wm_fuel", vec![t])
}

/// `t | _wm_walk`: checks the depth and (paying for it) the size of each output of `t`.
fn walked(t: Term<&str>) -> Term<&str> {
    pipe(t, "_wm_walk")
}

fn pipe<'s>(t: Term<&'s str>, native: &'s str) -> Term<&'s str> {
    Term::BinOp(
        Box::new(t),
        BinaryOp::Pipe(None),
        Box::new(Term::Call(native, Vec::new())),
    )
}

/// Natives that compare whole values (recursively, without bounds): their input and
/// arguments are walked first.
const COMPARING: [&str; 8] = [
    "sort",
    "sort_by",
    "group_by",
    "min_by_or_empty",
    "max_by_or_empty",
    "contains",
    "indices",
    "bsearch",
];

/// Natives whose outputs nest deeper than their inputs: their outputs are walked.
const NESTING: [&str; 3] = ["group_by", "key_values", "path_value"];

// The parser hands us boxes; keeping them avoids re-allocating every node.
#[allow(clippy::boxed_local)]
fn bx(t: Box<Term<&str>>) -> Box<Term<&str>> {
    Box::new(term(*t))
}

/// A string with interpolated parts becomes a right-nested chain of `_wm_add`, as jaq itself
/// compiles it into `+` (so outputs keep their order): `"a\(x)b"` is
/// `_wm_add("a"; _wm_add(x | _wm_tostring; "b"))`, and with a format `@f`, `x | @f`.
fn string<'s>(fmt: Option<&'s str>, parts: Vec<StrPart<&'s str, Term<&'s str>>>) -> Term<&'s str> {
    if !parts.iter().any(|p| matches!(p, StrPart::Term(_))) {
        return Term::Str(fmt, parts);
    }
    let convert = fmt.unwrap_or("_wm_tostring");
    let terms = parts.into_iter().map(|p| match p {
        StrPart::Term(t) => Term::BinOp(
            Box::new(term(t)),
            BinaryOp::Pipe(None),
            Box::new(Term::Call(convert, Vec::new())),
        ),
        literal => Term::Str(None, vec![literal]),
    });
    let mut all: Vec<_> = terms.collect();
    let last = all.pop().unwrap_or(Term::Str(None, Vec::new()));
    all.into_iter()
        .rev()
        .fold(last, |acc, t| Term::Call("_wm_add", vec![t, acc]))
}

/// `l op= r` as jq defines it, `r as $x | l |= . op $x`, with `+` and `*` checked.
fn update_math<'s>(l: Term<&'s str>, op: Math, r: Term<&'s str>) -> Term<&'s str> {
    const X: &str = "$__wm_x";
    let value = match op {
        Math::Add => Term::Call("_wm_add", vec![Term::Id, Term::Var(X)]),
        Math::Mul => Term::Call("_wm_mul", vec![Term::Id, Term::Var(X)]),
        op => Term::BinOp(
            Box::new(Term::Id),
            BinaryOp::Math(op),
            Box::new(Term::Var(X)),
        ),
    };
    Term::BinOp(
        Box::new(term(r)),
        BinaryOp::Pipe(Some(Pattern::Var(X))),
        Box::new(Term::BinOp(
            Box::new(term(l)),
            BinaryOp::Update,
            Box::new(value),
        )),
    )
}

/// True for the natives whose outputs pass through `_wm_built`: every native but our own
/// and those that only pass values through.
fn builds(name: &str) -> bool {
    static NATIVES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    !name.starts_with("_wm_")
        && !super::natives::PASS_THROUGH.contains(&name)
        && NATIVES
            .get_or_init(|| {
                super::natives::funs()
                    .into_iter()
                    .map(|(n, _, _)| n)
                    .collect()
            })
            .contains(&name)
}

fn term(t: Term<&str>) -> Term<&str> {
    match t {
        Term::Id | Term::Recurse | Term::Num(_) | Term::Break(_) | Term::Var(_) => t,
        Term::Str(fmt, parts) => string(fmt, parts),
        // Every construction is walked: nesting only grows here (and in `NESTING`).
        Term::Arr(None) => Term::Arr(None),
        Term::Arr(Some(a)) => walked(Term::Arr(Some(bx(a)))),
        Term::Obj(kvs) if kvs.is_empty() => Term::Obj(kvs),
        // gojq iterates object keys in sorted order; jaq in insertion order.
        Term::Obj(kvs) => pipe(
            Term::Obj(
                kvs.into_iter()
                    .map(|(k, v)| (term(k), v.map(term)))
                    .collect(),
            ),
            "_wm_object",
        ),
        Term::Neg(t) => Term::Neg(bx(t)),
        Term::Label(l, t) => Term::Label(l, bx(t)),
        Term::BinOp(l, BinaryOp::Pipe(p), r) => Term::BinOp(
            bx(l),
            BinaryOp::Pipe(p.map(pattern)),
            Box::new(fuel(term(*r))),
        ),
        Term::BinOp(l, BinaryOp::Math(Math::Add), r) => {
            Term::Call("_wm_add", vec![term(*l), term(*r)])
        }
        Term::BinOp(l, BinaryOp::Math(Math::Mul), r) => {
            Term::Call("_wm_mul", vec![term(*l), term(*r)])
        }
        Term::BinOp(l, BinaryOp::UpdateMath(op), r) => update_math(*l, op, *r),
        // `-` and `/` build arrays (`$a - $b`, a string split by `/`) as large as their input.
        Term::BinOp(l, op @ BinaryOp::Math(_), r) => {
            pipe(Term::BinOp(bx(l), op, bx(r)), "_wm_built")
        }
        Term::BinOp(l, op @ BinaryOp::Cmp(_), r) => {
            Term::BinOp(Box::new(walked(term(*l))), op, Box::new(walked(term(*r))))
        }
        Term::BinOp(l, op, r) => Term::BinOp(bx(l), op, bx(r)),
        Term::Fold(kw, xs, p, args) => {
            // The first argument is the initial value; the update and extract run per item.
            let args = args
                .into_iter()
                .enumerate()
                .map(|(i, a)| if i == 0 { term(a) } else { fuel(term(a)) })
                .collect();
            Term::Fold(kw, bx(xs), pattern(p), args)
        }
        Term::TryCatch(t, c) => Term::TryCatch(bx(t), c.map(bx)),
        Term::IfThenElse(branches, els) => Term::IfThenElse(
            branches
                .into_iter()
                .map(|(c, t)| (term(c), term(t)))
                .collect(),
            els.map(bx),
        ),
        Term::Def(defs, t) => Term::Def(defs.into_iter().map(def).collect(), bx(t)),
        Term::Call("fromjson", args) if args.is_empty() => pipe(
            Term::BinOp(
                Box::new(Term::Call("_wm_json_depth", Vec::new())),
                BinaryOp::Pipe(None),
                Box::new(Term::Call("fromjson", args)),
            ),
            "_wm_built",
        ),
        Term::Call(name, args) => {
            let comparing = COMPARING.contains(&name);
            // A native's string input and arguments pay for being read, its output for being
            // built: natives scan strings in time linear in their length.
            let native = builds(name);
            let args = args
                .into_iter()
                .map(|a| {
                    let mut a = term(a);
                    if comparing {
                        a = walked(a);
                    }
                    if native {
                        a = pipe(a, "_wm_read");
                    }
                    a
                })
                .collect();
            let mut t = Term::Call(name, args);
            for (apply, first) in [(native, "_wm_read"), (comparing, "_wm_walk")] {
                if apply {
                    t = Term::BinOp(
                        Box::new(Term::Call(first, Vec::new())),
                        BinaryOp::Pipe(None),
                        Box::new(t),
                    );
                }
            }
            if NESTING.contains(&name) {
                t = walked(t);
            }
            if builds(name) {
                t = pipe(t, "_wm_built");
            }
            t
        }
        // A slice copies the elements of an array: each slice passes through `_wm_built`
        // (`t.[a:b].c` becomes `(t.[a:b] | _wm_built).c`; `_wm_built` is a path too).
        Term::Path(t, path) => {
            let mut out = term(*t);
            let mut parts = Vec::new();
            for (part, opt) in path.0 {
                let slice = matches!(part, Part::Range(..));
                parts.push(match part {
                    Part::Index(i) => (Part::Index(term(i)), opt),
                    Part::Range(a, b) => (Part::Range(a.map(term), b.map(term)), opt),
                });
                if slice {
                    out = pipe(
                        Term::Path(Box::new(out), Path(std::mem::take(&mut parts))),
                        "_wm_built",
                    );
                }
            }
            if parts.is_empty() {
                out
            } else {
                Term::Path(Box::new(out), Path(parts))
            }
        }
    }
}

fn pattern(p: Pattern<&str>) -> Pattern<&str> {
    match p {
        Pattern::Var(v) => Pattern::Var(v),
        Pattern::Arr(ps) => Pattern::Arr(ps.into_iter().map(pattern).collect()),
        Pattern::Obj(kps) => Pattern::Obj(
            kps.into_iter()
                .map(|(k, p)| (term(k), pattern(p)))
                .collect(),
        ),
    }
}

//! Rewrites parsed terms so that evaluation is metered.
//!
//! Every loop in jq is recursion through a definition, and every stream step continues on
//! the right of a pipe or in a fold's update, so wrapping exactly those places in the native
//! `_wm_fuel` meters all unbounded work. `+` and `*` become size-checked natives, and string
//! interpolation goes through a size-checked `tostring`.

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

// The parser hands us boxes; keeping them avoids re-allocating every node.
#[allow(clippy::boxed_local)]
fn bx(t: Box<Term<&str>>) -> Box<Term<&str>> {
    Box::new(term(*t))
}

fn term(t: Term<&str>) -> Term<&str> {
    match t {
        Term::Id | Term::Recurse | Term::Num(_) | Term::Break(_) | Term::Var(_) => t,
        Term::Str(fmt, parts) => {
            let interpolate = fmt.is_none();
            let parts = parts
                .into_iter()
                .map(|p| match p {
                    StrPart::Term(t) if interpolate => StrPart::Term(Term::BinOp(
                        Box::new(term(t)),
                        BinaryOp::Pipe(None),
                        Box::new(Term::Call("_wm_tostring", Vec::new())),
                    )),
                    StrPart::Term(t) => StrPart::Term(term(t)),
                    other => other,
                })
                .collect();
            Term::Str(fmt, parts)
        }
        Term::Arr(a) => Term::Arr(a.map(bx)),
        Term::Obj(kvs) => Term::Obj(
            kvs.into_iter()
                .map(|(k, v)| (term(k), v.map(term)))
                .collect(),
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
        Term::Call(name, args) => Term::Call(name, args.into_iter().map(term).collect()),
        Term::Path(t, path) => {
            let parts = path
                .0
                .into_iter()
                .map(|(part, opt)| {
                    let part = match part {
                        Part::Index(i) => Part::Index(term(i)),
                        Part::Range(a, b) => Part::Range(a.map(term), b.map(term)),
                    };
                    (part, opt)
                })
                .collect();
            Term::Path(bx(t), Path(parts))
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

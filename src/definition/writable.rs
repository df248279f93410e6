//! Which jq expressions can be written through: a static check on the parsed expression.
//!
//! Edits evaluate `path(<expression>)` to find the concrete locations to write (the same
//! locations the reader reads). jq computes paths only for *path expressions*; anything that
//! builds a new value (`{requests: .spec.resources}`, `.a + 1`, `"\(.x)"`, a variable) has no
//! location. The rules, all on the parsed expression:
//!
//! - `.`, `.a`, `."a"`, `.[e]`, `.[]`, each with or without `?`, and chains of them (`e` in
//!   `.[e]` is any expression: it is evaluated, not written);
//! - `f | g`, `f, g`, `f // g` (writes go to the side that the reader would take), `f?`,
//!   `if c then f else g end`, `e as $x | f`, when the written parts are writable; with
//!   [`Defaults::Lenient`] the right side of `//` may be a read default (`.spec.x // {}`):
//!   writes go through `f` while it has a value, and an edit that meets the default is refused;
//! - the filters `select(c)`, `empty`, `first`, `last`, `first(f)`, `getpath(p)`, `values`,
//!   `nulls`, `booleans`, `numbers`, `strings`, `arrays`, `objects`, `iterables`, `scalars`.
//!
//! Everything else is not writable: literals, object and array construction, arithmetic and
//! comparisons, string interpolation, variables, slices (`.[1:]`), `reduce`/`foreach`, local
//! definitions and calls to other functions. The check is conservative: jq can take paths
//! through a few more forms, but a definition should not rely on them.

use jaq_core::load::lex::Lexer;
use jaq_core::load::parse::{BinaryOp, Term};
use jaq_core::load::Parser;
use jaq_core::path::Part;

use crate::expr::ExprSetBuilder;
use crate::expr::Language;

/// Filters of arity 0 that only select (their paths are their input's).
const SELECTING: [&str; 12] = [
    "empty",
    "first",
    "last",
    "values",
    "nulls",
    "booleans",
    "numbers",
    "strings",
    "arrays",
    "objects",
    "iterables",
    "scalars",
];

/// How the right side of `f // g` is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defaults {
    /// Both sides must be paths: the expression is writable on every object.
    Strict,
    /// `g` may be a read default (`.spec.x // {}`): the expression is writable wherever `f`
    /// has a value, and an edit that meets the default is refused then.
    Lenient,
}

/// Checks that `source` is a path expression. `Err` says why not, naming the part that is
/// not a path. Expressions that do not parse or break upstream's rules count as writable here:
/// they are reported by the expression checks, once.
pub fn check(source: &str, defaults: Defaults) -> Result<(), String> {
    // The expression checks bound the text's size and nesting before jaq's recursive parser
    // sees it; only an expression that passes them is parsed again here.
    if ExprSetBuilder::new().add(Language::Jq, source).is_err() {
        return Ok(());
    }
    let Ok(tokens) = Lexer::new(source).lex() else {
        return Ok(());
    };
    let Ok(term) = Parser::new(&tokens).parse(|p| p.term()) else {
        return Ok(());
    };
    writable(&term, defaults)
}

fn writable(term: &Term<&str>, defaults: Defaults) -> Result<(), String> {
    let writable = |t: &Term<&str>| writable(t, defaults);
    match term {
        Term::Id => Ok(()),
        Term::Path(head, path) => {
            writable(head)?;
            for (part, _) in &path.0 {
                if let Part::Range(Some(_), _) | Part::Range(_, Some(_)) = part {
                    return Err("a slice (`.[from:to]`) is a new array, not a location".into());
                }
            }
            Ok(())
        }
        Term::BinOp(l, op, r) => match op {
            BinaryOp::Alt if defaults == Defaults::Lenient => writable(l),
            BinaryOp::Pipe(None) | BinaryOp::Comma | BinaryOp::Alt => {
                writable(l)?;
                writable(r)
            }
            BinaryOp::Pipe(Some(_)) => writable(r),
            BinaryOp::Or | BinaryOp::And => {
                Err("a boolean (`and`/`or`) is a computed value".into())
            }
            BinaryOp::Math(_) => Err("arithmetic gives a computed value".into()),
            BinaryOp::Cmp(_) => Err("a comparison gives a computed value".into()),
            _ => Err("an assignment is not a location".into()),
        },
        Term::TryCatch(f, None) => writable(f),
        Term::TryCatch(_, Some(_)) => Err("`try ... catch` has no path".into()),
        Term::IfThenElse(branches, otherwise) => {
            for (_, then) in branches {
                writable(then)?;
            }
            otherwise.as_deref().map_or(Ok(()), &writable)
        }
        Term::Call(name, args) => match (*name, args.as_slice()) {
            ("select", [_]) | ("getpath", [_]) => Ok(()),
            ("first", [f]) => writable(f),
            (name, []) if SELECTING.contains(&name) => Ok(()),
            ("true" | "false" | "null", []) => Err("a literal is a value, not a location".into()),
            (name, args) => Err(format!(
                "`{name}/{}` builds a value; only select, first, last, getpath and the type \
                 filters (values, objects, ...) keep locations",
                args.len()
            )),
        },
        Term::Var(v) => Err(format!("the variable `{v}` is a value, not a location")),
        Term::Num(_) | Term::Str(..) => Err("a literal is a value, not a location".into()),
        Term::Arr(_) | Term::Obj(_) => {
            Err("an object or array construction is a new value, not a location".into())
        }
        Term::Neg(_) => Err("a negation is a computed value".into()),
        Term::Fold(..) => Err("`reduce`/`foreach` give computed values".into()),
        Term::Def(..) => Err("local definitions are not followed for writing".into()),
        Term::Recurse => Err("`..` is not allowed".into()),
        Term::Label(..) | Term::Break(_) => {
            Err("`label`/`break` are not followed for writing".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{check, Defaults};

    #[test]
    fn plain_paths_selects_and_alternatives_are_writable() {
        for source in [
            ".",
            ".spec.suspend",
            ".spec.replicatedJobs[].template",
            ".spec[\"a/b\"].c[0]",
            ".spec.services | .[] | .extraPodSpec.mainContainer",
            ".spec.components[] | .podTemplate.spec.containers[] | select(.name == \"main\")",
            ".spec.predictor | ( (.[]?  | select(type ==\"object\" and .storageUri )))",
            ".spec.a // .spec.b",
            "if .spec.x then .spec.x else .spec.y end",
            ".spec.items[] as $i | .spec.other",
            ".spec.list | first",
            "first(.spec.list[])",
            ".spec.x?",
        ] {
            assert_eq!(check(source, Defaults::Strict), Ok(()), "{source}");
        }
    }

    #[test]
    fn computed_values_are_not_writable() {
        for source in [
            "{requests: .spec.resources}",
            ".spec.replicas // 1",
            ".spec.replicas * 2",
            ".spec.x | tonumber",
            "\"\\(.spec.x)\"",
            ". as $x | $x",
            ".spec.list[1:]",
            ".spec.services | to_entries[] | .value",
            "[.spec.a]",
            "try .a catch .b",
            "def f: .a; f",
        ] {
            assert!(
                check(source, Defaults::Strict).is_err(),
                "{source} should not be writable"
            );
        }
    }

    #[test]
    fn lenient_defaults_accept_a_computed_right_side_of_an_alternative() {
        let source = "(.spec.tfReplicaSpecs // {}) | keys[] as $k | .[$k].template";
        assert!(check(source, Defaults::Strict).is_err());
        assert_eq!(check(source, Defaults::Lenient), Ok(()));
        assert!(check("{} // .spec.x", Defaults::Lenient).is_err());
    }
}

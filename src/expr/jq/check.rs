//! Upstream's static safety rules, and the cheap limits that protect jaq's recursive parser.

use jaq_core::load::lex::{StrPart, Tok, Token};
use jaq_core::load::parse::{BinaryOp, Pattern, Term};
use jaq_core::path::Part;

use super::{offset_in, MAX_NESTING, MAX_OPERATORS, MAX_SOURCE_LEN, MAX_TOKENS};
use crate::diagnostic::{codes, TextRange};
use crate::expr::ExprError;

fn too_complex(message: String) -> Vec<ExprError> {
    vec![ExprError::new(codes::EXPR_TOO_COMPLEX, message)]
}

/// Rejects texts whose length or bracket nesting could exhaust the stack of jaq's
/// recursive-descent lexer and parser. Runs before anything else looks at the text.
pub(crate) fn prescan(source: &str) -> Result<(), Vec<ExprError>> {
    if source.len() > MAX_SOURCE_LEN {
        return Err(too_complex(format!(
            "expression is longer than {MAX_SOURCE_LEN} bytes"
        )));
    }
    // Each entry is an open bracket in code, or `"` for an open string; `\(` opens code
    // inside a string. Over-approximates nesting in odd corners, which is the safe side.
    let mut stack: Vec<u8> = Vec::new();
    let mut bytes = source.bytes().enumerate();
    while let Some((i, b)) = bytes.next() {
        let in_string = stack.last() == Some(&b'"');
        if in_string {
            match b {
                b'\\' => {
                    if let Some((_, b'(')) = bytes.next() {
                        stack.push(b'(');
                    }
                }
                b'"' => {
                    stack.pop();
                }
                _ => {}
            }
        } else {
            match b {
                b'"' | b'(' | b'[' | b'{' => stack.push(b),
                b')' | b']' | b'}' => {
                    stack.pop();
                }
                b'#' => {
                    for (_, c) in bytes.by_ref() {
                        if c == b'\n' {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        if stack.len() > MAX_NESTING {
            let mut e = too_complex(format!("expression nests deeper than {MAX_NESTING} levels"));
            if let Some(e) = e.first_mut() {
                e.range = Some(TextRange::new(i, i + 1));
            }
            return Err(e);
        }
    }
    Ok(())
}

/// Counts tokens and operator-like tokens (recursively through blocks and strings).
pub(crate) fn limit_tokens(tokens: &[Token<&str>]) -> Result<(), Vec<ExprError>> {
    let (mut all, mut ops) = (0usize, 0usize);
    visit_tokens(tokens, &mut |Token(s, tok)| {
        all += 1;
        let operator = match tok {
            Tok::Sym => !matches!(*s, "." | ";" | ":" | ","),
            Tok::Word => matches!(
                *s,
                "as" | "if"
                    | "elif"
                    | "try"
                    | "reduce"
                    | "foreach"
                    | "def"
                    | "label"
                    | "and"
                    | "or"
            ),
            _ => false,
        };
        ops += usize::from(operator);
    });
    if all > MAX_TOKENS {
        return Err(too_complex(format!(
            "expression has more than {MAX_TOKENS} tokens"
        )));
    }
    if ops > MAX_OPERATORS {
        return Err(too_complex(format!(
            "expression has more than {MAX_OPERATORS} operators"
        )));
    }
    Ok(())
}

fn visit_tokens<'s>(tokens: &[Token<&'s str>], f: &mut impl FnMut(&Token<&'s str>)) {
    for token in tokens {
        f(token);
        match &token.1 {
            Tok::Block(inner) => visit_tokens(inner, f),
            Tok::Str(parts) => {
                for part in parts {
                    if let StrPart::Term(t) = part {
                        visit_tokens(std::slice::from_ref(t), f);
                    }
                }
            }
            _ => {}
        }
    }
}

/// `..` and the modifying operators, found on tokens: their AST nodes carry no position,
/// and these tokens mean nothing else in jq.
pub(crate) fn token_rules(source: &str, tokens: &[Token<&str>]) -> Vec<ExprError> {
    let mut errs = Vec::new();
    visit_tokens(tokens, &mut |Token(s, tok)| {
        if !matches!(tok, Tok::Sym) {
            return;
        }
        let message = match *s {
            ".." => "recursive descent operator '..' is not allowed".to_owned(),
            "=" | "|=" | "+=" | "-=" | "*=" | "/=" | "%=" | "//=" => {
                format!("modifying operator '{s}' is not allowed")
            }
            _ => return,
        };
        errs.push(forbidden(source, s, message));
    });
    errs
}

fn forbidden(source: &str, at: &str, message: String) -> ExprError {
    ExprError {
        code: codes::EXPR_FORBIDDEN,
        message,
        range: offset_in(source, at).map(|(s, e)| TextRange::new(s, e)),
    }
}

/// Forbidden function calls anywhere in the term, with the range of the name.
pub(crate) fn forbidden_calls(source: &str, term: &Term<&str>) -> Vec<ExprError> {
    let mut errs = Vec::new();
    walk(term, &mut |t| {
        if let Term::Call(name, _) = t {
            match *name {
                "del" => errs.push(forbidden(
                    source,
                    name,
                    "del function is not allowed".into(),
                )),
                "range" | "paths" | "recurse" | "walk" | "repeat" => errs.push(forbidden(
                    source,
                    name,
                    format!("function '{name}' may produce excessive output and is not allowed"),
                )),
                _ => {}
            }
        }
    });
    errs
}

/// Depth of the term tree (bounded by the token limits, so the recursion here is too).
pub(crate) fn depth(term: &Term<&str>) -> usize {
    let mut deepest = 0;
    children(term, &mut |c| deepest = deepest.max(depth(c)));
    deepest + 1
}

/// Calls `f` on `term` and every term inside it, in source order.
pub(crate) fn walk<'s>(term: &Term<&'s str>, f: &mut impl FnMut(&Term<&'s str>)) {
    f(term);
    children(term, &mut |c| walk(c, f));
}

/// Calls `f` on each direct sub-term: def bodies, branches, folds, constructors,
/// interpolations, path bounds, patterns and call arguments.
pub(crate) fn children<'s>(term: &Term<&'s str>, f: &mut impl FnMut(&Term<&'s str>)) {
    match term {
        Term::Id | Term::Recurse | Term::Num(_) | Term::Break(_) | Term::Var(_) => {}
        Term::Str(_, parts) => parts.iter().for_each(|p| {
            if let StrPart::Term(t) = p {
                f(t)
            }
        }),
        Term::Arr(a) => {
            if let Some(t) = a {
                f(t)
            }
        }
        Term::Obj(kvs) => kvs.iter().for_each(|(k, v)| {
            f(k);
            v.iter().for_each(&mut *f);
        }),
        Term::Neg(t) | Term::Label(_, t) => f(t),
        Term::BinOp(l, op, r) => {
            f(l);
            if let BinaryOp::Pipe(Some(p)) = op {
                pattern(p, f);
            }
            f(r);
        }
        Term::Fold(_, xs, p, args) => {
            f(xs);
            pattern(p, f);
            args.iter().for_each(&mut *f);
        }
        Term::TryCatch(t, c) => {
            f(t);
            if let Some(c) = c {
                f(c)
            }
        }
        Term::IfThenElse(branches, els) => {
            branches.iter().for_each(|(c, t)| {
                f(c);
                f(t);
            });
            if let Some(e) = els {
                f(e)
            }
        }
        Term::Def(defs, t) => {
            defs.iter().for_each(|d| f(&d.body));
            f(t);
        }
        Term::Call(_, args) => args.iter().for_each(&mut *f),
        Term::Path(t, path) => {
            f(t);
            for (part, _) in &path.0 {
                match part {
                    Part::Index(i) => f(i),
                    Part::Range(a, b) => {
                        a.iter().for_each(&mut *f);
                        b.iter().for_each(&mut *f);
                    }
                }
            }
        }
    }
}

fn pattern<'s>(p: &Pattern<&'s str>, f: &mut impl FnMut(&Term<&'s str>)) {
    match p {
        Pattern::Var(_) => {}
        Pattern::Arr(ps) => ps.iter().for_each(|p| pattern(p, f)),
        Pattern::Obj(kps) => kps.iter().for_each(|(k, p)| {
            f(k);
            pattern(p, f);
        }),
    }
}

/// What a name can refer to at one point of an expression.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound<'s> {
    Var(&'s str),
    Label(&'s str),
    Filter(&'s str, usize),
}

/// Names visible at one point: the prelude (standard library and natives) plus the local
/// definitions, arguments, variables and labels in scope, innermost last.
struct Scope<'s, 'k> {
    prelude: &'k dyn Fn(&str, usize) -> bool,
    globals: &'k [&'k str],
    local: Vec<Bound<'s>>,
    errs: Vec<ExprError>,
    source: &'s str,
}

/// Names user code may not define or call: the rewrite's natives and the dispatcher's
/// variable. Redefining `_wm_fuel` would switch metering off.
pub(crate) fn reserved(name: &str) -> bool {
    name.starts_with("_wm_") || name.starts_with("$__wm")
}

/// Undefined filters (by name and arity), variables and labels, found as jaq's compiler
/// would find them (same scoping), so that one expression's mistakes are known without
/// compiling it. `prelude` answers whether a name/arity pair is defined globally.
pub(crate) fn undefined(
    source: &str,
    term: &Term<&str>,
    prelude: &dyn Fn(&str, usize) -> bool,
    globals: &[&str],
) -> Vec<ExprError> {
    let mut scope = Scope {
        prelude,
        globals,
        local: Vec::new(),
        errs: Vec::new(),
        source,
    };
    scope.term(term);
    scope.errs
}

impl<'s> Scope<'s, '_> {
    fn fail(&mut self, at: &'s str, message: String) {
        self.errs.push(ExprError {
            code: codes::EXPR_COMPILE,
            message,
            range: offset_in(self.source, at).map(|(s, e)| TextRange::new(s, e)),
        });
    }

    fn has(&self, b: Bound<'_>) -> bool {
        self.local.iter().rev().any(|l| *l == b)
    }

    fn call(&mut self, name: &'s str, arity: usize) {
        if let Some((module, _)) = name.split_once("::") {
            return self.fail(module, format!("module {module} is not defined"));
        }
        let known = self.has(Bound::Filter(name, arity))
            || (!reserved(name) && (self.prelude)(name, arity));
        if !known {
            self.fail(name, format!("{name}/{arity} is not defined"));
        }
    }

    fn var(&mut self, x: &'s str) {
        let known = self.has(Bound::Var(x)) || (self.globals.contains(&x) && !reserved(x));
        if !known {
            self.fail(x, format!("variable {x} is not defined"));
        }
    }

    /// Runs `f` with `binds` in scope.
    fn with(&mut self, binds: impl IntoIterator<Item = Bound<'s>>, f: impl FnOnce(&mut Self)) {
        let len = self.local.len();
        self.local.extend(binds);
        f(self);
        self.local.truncate(len);
    }

    fn term(&mut self, t: &Term<&'s str>) {
        match t {
            Term::Var(x) => self.var(x),
            Term::Break(x) => {
                if !self.has(Bound::Label(x)) {
                    self.fail(x, format!("label {x} is not defined"));
                }
            }
            Term::Label(x, t) => self.with([Bound::Label(x)], |s| s.term(t)),
            Term::Call(name, args) => {
                args.iter().for_each(|a| self.term(a));
                self.call(name, args.len());
            }
            Term::Str(Some(fmt), _) => {
                self.call(fmt, 0);
                children(t, &mut |c| self.term(c));
            }
            Term::BinOp(l, BinaryOp::Pipe(Some(p)), r) => {
                self.term(l);
                self.pattern_keys(p);
                let vars = pattern_vars(p);
                self.with(vars, |s| s.term(r));
            }
            Term::Fold(name, xs, p, args) => {
                self.term(xs);
                self.pattern_keys(p);
                let mut rest = args.iter();
                if let Some(init) = rest.next() {
                    self.term(init);
                }
                let vars = pattern_vars(p);
                self.with(vars, |s| rest.for_each(|a| s.term(a)));
                let fits = match *name {
                    "reduce" => args.len() == 2,
                    _ => matches!(args.len(), 2 | 3),
                };
                if !fits {
                    self.fail(name, format!("{name}/{} is not defined", args.len()));
                }
            }
            Term::Def(defs, rest) => {
                let len = self.local.len();
                for d in defs {
                    if reserved(d.name) {
                        self.fail(d.name, format!("the name {} is reserved", d.name));
                    }
                    let me = Bound::Filter(d.name, d.args.len());
                    let args = d.args.iter().map(|a| {
                        if a.starts_with('$') {
                            Bound::Var(a)
                        } else {
                            Bound::Filter(a, 0)
                        }
                    });
                    let binds: Vec<_> = std::iter::once(me).chain(args).collect();
                    self.with(binds, |s| s.term(&d.body));
                    self.local.push(me);
                }
                self.term(rest);
                self.local.truncate(len);
            }
            other => children(other, &mut |c| self.term(c)),
        }
    }

    /// Object pattern keys are computed in the scope outside the pattern.
    fn pattern_keys(&mut self, p: &Pattern<&'s str>) {
        pattern(p, &mut |k| self.term(k));
    }
}

fn pattern_vars<'s>(p: &Pattern<&'s str>) -> Vec<Bound<'s>> {
    let mut out = Vec::new();
    fn go<'s>(p: &Pattern<&'s str>, out: &mut Vec<Bound<'s>>) {
        match p {
            Pattern::Var(x) => out.push(Bound::Var(x)),
            Pattern::Arr(ps) => ps.iter().for_each(|p| go(p, out)),
            Pattern::Obj(kps) => kps.iter().for_each(|(_, p)| go(p, out)),
        }
    }
    go(p, &mut out);
    out
}

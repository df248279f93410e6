//! Following a jq expression through a schema: which fields it reads, and what it yields.
//!
//! [`follow`] walks jaq's parse of the expression (the one parser the engine uses) with an
//! abstract input: the places in the schema the input may be ([`Val::At`]). A path step
//! (`.a`, `.[0]`, `.[]`) moves every place to its field, item or map value; a pipe feeds one
//! side's places to the other; `as $x` binds them; `//`, `,` and `if` join them; `select`,
//! `any`, `all`, `map`, ... evaluate their arguments where jq does. A field the schema does
//! not have, a field read from a string, or iterating something that is neither an array nor a
//! map is a [`Finding`] at the field's place in the expression. Below a place that allows any
//! field (`x-kubernetes-preserve-unknown-fields`, a free-form object) nothing is checked
//! ([`Val::Open`]); where the walk cannot know the place (a computed value, a local `def`,
//! `reduce`, a function it does not model) it stops following ([`Val::Lost`]) and the
//! expression gets one note, never an error. Bounded: the expression checks bound the text
//! before the parser sees it, and [`MAX_STEPS`] bounds the walk.

use jaq_core::load::lex::StrPart;
use jaq_core::load::parse::{BinaryOp, Pattern, Term};
use jaq_core::path::Part;

use super::{describe_resolved, types, NodeId, SchemaSet};

/// Walk steps per expression; beyond, the rest is not followed.
pub const MAX_STEPS: usize = 20_000;

/// Places one value may be: at most this many (more is not followed).
const MAX_VALUES: usize = 64;

/// An abstract value: where in the schema a jq value may come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// A place in the schema, with the path that led there (`.spec.replicatedJobs[].name`).
    At(NodeId, String),
    /// Below a place that allows any field: nothing to check.
    Open,
    /// A value the walk does not follow (computed, or from a construct not modelled).
    Lost,
    /// `null`, `[]` or `{}` written in the expression: fields of it are null, it iterates
    /// nothing.
    Null,
    /// A string literal, with its byte range in the expression.
    Lit(String, Option<(usize, usize)>),
}

/// What a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingKind {
    /// A field the schema does not have.
    UnknownField,
    /// A step into the wrong kind of value (a field of a string, iterating an integer).
    WrongKind,
    /// A string compared with an enum field that is not one of its values.
    NotInEnum,
}

/// One problem found in an expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// What it is about.
    pub kind: FindingKind,
    /// Byte range in the expression, when known.
    pub range: Option<(usize, usize)>,
    /// What is wrong.
    pub message: String,
    /// A did-you-mean or the fields that exist.
    pub help: Option<String>,
}

/// One field the expression reads from a schema place.
#[derive(Debug, Clone, PartialEq)]
pub struct Access {
    /// The field's path (`.spec.replicatedJobs[].name`).
    pub path: String,
    /// Byte range of the field name in the expression, when known.
    pub range: Option<(usize, usize)>,
    /// Whether the schema has it (or allows any field there).
    pub exists: bool,
    /// Whether the schema names it (not only allows any field there).
    pub declared: bool,
    /// What the schema has there (`an integer`), for a declared field.
    pub kind: Option<String>,
}

/// The result of following one expression.
#[derive(Debug, Clone, Default)]
pub struct Followed {
    /// What the expression yields.
    pub outputs: Vec<Val>,
    /// Problems found, in walk order.
    pub findings: Vec<Finding>,
    /// Every field read from a schema place.
    pub accesses: Vec<Access>,
    /// Why part of the expression was not followed (the first reason), if it was not.
    pub not_followed: Option<String>,
}

/// Follows jq expression `source` from the places `input`. An expression that does not
/// parse gives no outputs and no findings (compiling it reports why).
pub fn follow(set: &SchemaSet, source: &str, input: Vec<Val>) -> Followed {
    // The expression checks bound nesting and size before jaq's recursive parser runs.
    if crate::expr::ExprSetBuilder::new()
        .add(crate::expr::Language::Jq, source)
        .is_err()
    {
        return Followed::default();
    }
    use jaq_core::load::{lex::Lexer, Parser};
    let Ok(tokens) = Lexer::new(source).lex() else {
        return Followed::default();
    };
    let Ok(term) = Parser::new(&tokens).parse(|p| p.term()) else {
        return Followed::default();
    };
    let mut walker = Walker {
        set,
        source,
        vars: Vec::new(),
        steps: 0,
        out: Followed::default(),
    };
    let outputs = walker.eval(&term, &input);
    walker.out.outputs = outputs;
    walker.out
}

struct Walker<'a> {
    set: &'a SchemaSet,
    source: &'a str,
    vars: Vec<(String, Vec<Val>)>,
    steps: usize,
    out: Followed,
}

/// Functions whose output is their input (filters that select).
const PASS_INPUT: &[&str] = &[
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

/// Functions of their input that yield computed values; their arguments are evaluated on the
/// same input.
const COMPUTE: &[&str] = &[
    "length",
    "utf8bytelength",
    "not",
    "keys",
    "keys_unsorted",
    "add",
    "any",
    "all",
    "flatten",
    "floor",
    "ceil",
    "round",
    "sqrt",
    "fabs",
    "abs",
    "pow",
    "log",
    "min",
    "max",
    "sort",
    "unique",
    "reverse",
    "tostring",
    "tonumber",
    "tojson",
    "fromjson",
    "type",
    "infinite",
    "nan",
    "isnan",
    "isinfinite",
    "isnormal",
    "true",
    "false",
    "null",
    "ascii_downcase",
    "ascii_upcase",
    "ltrimstr",
    "rtrimstr",
    "trim",
    "ltrim",
    "rtrim",
    "startswith",
    "endswith",
    "test",
    "match",
    "capture",
    "scan",
    "split",
    "splits",
    "sub",
    "gsub",
    "join",
    "ascii",
    "explode",
    "implode",
    "has",
    "in",
    "inside",
    "contains",
    "index",
    "rindex",
    "indices",
    "tostream",
    "to_entries",
    "from_entries",
    "with_entries",
    "todate",
    "fromdate",
    "now",
    "dateadd",
    "datesub",
    "date",
    "fromdateiso8601",
    "todateiso8601",
    "strptime",
    "strftime",
    "mktime",
    "gmtime",
    "localtime",
    "tojson",
    "halt",
    "input_line_number",
    "significand",
    "logb",
    "gamma",
    "exp",
    "exp10",
    "exp2",
    "log10",
    "log2",
    "toarray",
    "getpath",
    "splits",
    "ascii",
    "error",
    "empty",
    "isvalid",
    "isempty",
    "type",
    "transpose",
    "combinations",
    "walk",
    "env",
    "builtins",
    "input_filename",
    "ltrimstr",
    "@text",
    "@json",
    "@html",
    "@uri",
    "@csv",
    "@tsv",
    "@sh",
    "@base64",
    "@base64d",
    "min_by",
    "max_by",
    "sort_by",
    "group_by",
    "unique_by",
    "limit",
];

/// Functions whose argument is evaluated on each item of the input (an array or map).
const ON_ITEMS: &[&str] = &[
    "map",
    "map_values",
    "min_by",
    "max_by",
    "sort_by",
    "group_by",
    "unique_by",
];

impl Walker<'_> {
    fn offset(&self, s: &str) -> Option<(usize, usize)> {
        let base = self.source.as_ptr() as usize;
        let at = (s.as_ptr() as usize).checked_sub(base)?;
        (at + s.len() <= self.source.len()).then_some((at, at + s.len()))
    }

    fn lose(&mut self, why: impl FnOnce() -> String) -> Vec<Val> {
        if self.out.not_followed.is_none() {
            self.out.not_followed = Some(why());
        }
        vec![Val::Lost]
    }

    fn eval(&mut self, term: &Term<&str>, input: &[Val]) -> Vec<Val> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return self.lose(|| "it is too long to follow".to_owned());
        }
        if input.is_empty() {
            return Vec::new();
        }
        match term {
            Term::Id => input.to_vec(),
            Term::Recurse => self.lose(|| "it uses `..`".to_owned()),
            Term::Num(_) => vec![Val::Lost],
            Term::Str(format, parts) => {
                let mut literal = String::new();
                let mut plain = format.is_none();
                for part in parts {
                    match part {
                        StrPart::Str(s) => literal.push_str(s),
                        StrPart::Char(c) => literal.push(*c),
                        StrPart::Term(t) => {
                            plain = false;
                            self.eval(t, input);
                        }
                    }
                }
                if plain {
                    let range = match parts.as_slice() {
                        [StrPart::Str(s)] => self.offset(s),
                        _ => None,
                    };
                    vec![Val::Lit(literal, range)]
                } else {
                    vec![Val::Lost]
                }
            }
            Term::Arr(None) => vec![Val::Null],
            Term::Arr(Some(inner)) => {
                self.eval(inner, input);
                vec![Val::Lost]
            }
            Term::Obj(entries) => {
                if entries.is_empty() {
                    return vec![Val::Null];
                }
                for (k, v) in entries {
                    // `{a}` reads `.a`; `{(f): g}` evaluates both on the input.
                    match (k, v) {
                        (Term::Str(None, parts), None) => {
                            if let [StrPart::Str(name)] = parts.as_slice() {
                                self.key(input, name, self.offset(name));
                            }
                        }
                        (k, v) => {
                            if !matches!(k, Term::Str(..) | Term::Var(_)) {
                                self.eval(k, input);
                            }
                            if let Some(v) = v {
                                self.eval(v, input);
                            }
                        }
                    }
                }
                vec![Val::Lost]
            }
            Term::Neg(t) => {
                self.eval(t, input);
                vec![Val::Lost]
            }
            Term::BinOp(l, op, r) => self.binop(l, op, r, input),
            Term::Label(..) | Term::Break(_) => self.lose(|| "it uses `label`/`break`".to_owned()),
            Term::Fold(..) => self.lose(|| "it uses `reduce`/`foreach`".to_owned()),
            Term::TryCatch(body, catch) => {
                let mut out = self.eval(body, input);
                if let Some(c) = catch {
                    let caught = self.eval(c, &[Val::Lost]);
                    join(&mut out, caught);
                }
                out
            }
            Term::IfThenElse(branches, otherwise) => {
                let mut out = Vec::new();
                for (cond, then) in branches {
                    self.eval(cond, input);
                    let v = self.eval(then, input);
                    join(&mut out, v);
                }
                match otherwise {
                    Some(e) => {
                        let v = self.eval(e, input);
                        join(&mut out, v);
                    }
                    None => join(&mut out, input.to_vec()),
                }
                out
            }
            Term::Def(..) => self.lose(|| "it defines functions".to_owned()),
            Term::Call(name, args) => self.call(name, args, input),
            Term::Var(name) => match self.vars.iter().rev().find(|(n, _)| n == name) {
                Some((_, v)) => v.clone(),
                None => vec![Val::Lost],
            },
            Term::Path(head, path) => {
                let mut current = self.eval(head, input);
                for (part, _opt) in &path.0 {
                    current = match part {
                        Part::Index(Term::Str(None, parts)) => match parts.as_slice() {
                            [StrPart::Str(name)] => self.key(&current, name, self.offset(name)),
                            _ => {
                                let name: Option<String> = parts
                                    .iter()
                                    .map(|p| match p {
                                        StrPart::Str(s) => Some((*s).to_owned()),
                                        StrPart::Char(c) => Some(c.to_string()),
                                        StrPart::Term(_) => None,
                                    })
                                    .collect();
                                match name {
                                    Some(name) => self.key(&current, &name, None),
                                    None => self.dynamic(&current),
                                }
                            }
                        },
                        Part::Index(Term::Num(_)) => self.index(&current),
                        Part::Index(t) => {
                            // `.[f]`: f runs on the path's input.
                            let keys = self.eval(t, input);
                            match keys.as_slice() {
                                [Val::Lit(name, range)] => {
                                    let (name, range) = (name.clone(), *range);
                                    self.key(&current, &name, range)
                                }
                                _ => self.dynamic(&current),
                            }
                        }
                        Part::Range(None, None) => self.iterate(&current, None),
                        Part::Range(from, to) => {
                            for t in [from, to].into_iter().flatten() {
                                self.eval(t, input);
                            }
                            current
                        }
                    };
                }
                current
            }
        }
    }

    fn binop(
        &mut self,
        l: &Term<&str>,
        op: &BinaryOp<&str>,
        r: &Term<&str>,
        input: &[Val],
    ) -> Vec<Val> {
        match op {
            BinaryOp::Pipe(None) => {
                let mid = self.eval(l, input);
                self.eval(r, &mid)
            }
            BinaryOp::Pipe(Some(pattern)) => {
                let bound = self.eval(l, input);
                let before = self.vars.len();
                self.bind(pattern, bound);
                let out = self.eval(r, input);
                self.vars.truncate(before);
                out
            }
            BinaryOp::Comma | BinaryOp::Alt => {
                let mut out = self.eval(l, input);
                let right = self.eval(r, input);
                join(&mut out, right);
                out
            }
            BinaryOp::Cmp(cmp) => {
                let left = self.eval(l, input);
                let right = self.eval(r, input);
                use jaq_core::ops::Cmp;
                if matches!(cmp, Cmp::Eq | Cmp::Ne) {
                    self.enum_check(&left, &right);
                    self.enum_check(&right, &left);
                }
                vec![Val::Lost]
            }
            _ => {
                self.eval(l, input);
                self.eval(r, input);
                vec![Val::Lost]
            }
        }
    }

    fn bind(&mut self, pattern: &Pattern<&str>, value: Vec<Val>) {
        match pattern {
            Pattern::Var(name) => self.vars.push(((*name).to_owned(), value)),
            Pattern::Arr(items) => {
                for p in items {
                    self.bind(p, vec![Val::Lost]);
                }
            }
            Pattern::Obj(entries) => {
                for (k, p) in entries {
                    if let Term::Var(name) = k {
                        self.vars.push(((*name).to_owned(), vec![Val::Lost]));
                    }
                    self.bind(p, vec![Val::Lost]);
                }
            }
        }
    }

    /// A string literal compared with an enum field must be one of its values.
    fn enum_check(&mut self, places: &[Val], literals: &[Val]) {
        for place in places {
            let Val::At(node, path) = place else { continue };
            let r = self.set.resolve(*node);
            if r.enum_values.is_empty() || r.open {
                continue;
            }
            for lit in literals {
                let Val::Lit(s, range) = lit else { continue };
                // `(.status.state // "") == ""`: the default written beside the field.
                let default = places.iter().any(|p| matches!(p, Val::Lit(d, _) if d == s));
                if !default && !r.enum_values.iter().any(|v| v == s) {
                    let known: Vec<&str> = r.enum_values.iter().map(String::as_str).collect();
                    let help = match crate::definition::read::closest(s, &known) {
                        Some(c) => format!("did you mean \"{c}\"?"),
                        None => format!("the values are: {}", known.join(", ")),
                    };
                    self.out.findings.push(Finding {
                        kind: FindingKind::NotInEnum,
                        range: *range,
                        message: format!("\"{s}\" is not one of the values of {path}"),
                        help: Some(help),
                    });
                }
            }
        }
    }

    fn call(&mut self, name: &str, args: &[Term<&str>], input: &[Val]) -> Vec<Val> {
        match (name, args) {
            ("select", [f]) => {
                self.eval(f, input);
                input.to_vec()
            }
            ("empty" | "error", _) => {
                for a in args {
                    self.eval(a, input);
                }
                Vec::new()
            }
            ("any" | "all" | "isempty" | "first" | "last" | "limit" | "path", _)
                if !args.is_empty() =>
            {
                let (generator, rest) = match (name, args) {
                    ("limit", [n, g]) => {
                        self.eval(n, input);
                        (g, None)
                    }
                    (_, [g]) if matches!(name, "any" | "all") => {
                        // `any(cond)`: cond on every item of the input.
                        let items = self.iterate(input, None);
                        self.eval(g, &items);
                        return vec![Val::Lost];
                    }
                    (_, [g]) => (g, None),
                    (_, [g, c]) => (g, Some(c)),
                    _ => return self.lose(|| format!("it calls {name}/{}", args.len())),
                };
                let items = self.eval(generator, input);
                if let Some(c) = rest {
                    self.eval(c, &items);
                }
                match name {
                    "first" | "last" | "limit" => items,
                    _ => vec![Val::Lost],
                }
            }
            ("first", []) => self.index(input),
            ("last", []) => self.index(input),
            (_, [f]) if ON_ITEMS.contains(&name) => {
                let items = self.iterate(input, None);
                self.eval(f, &items);
                vec![Val::Lost]
            }
            ("with_entries" | "to_entries" | "from_entries", _) => vec![Val::Lost],
            (_, []) if PASS_INPUT.contains(&name) => input.to_vec(),
            ("null", []) => vec![Val::Null],
            _ if COMPUTE.contains(&name) => {
                for a in args {
                    self.eval(a, input);
                }
                vec![Val::Lost]
            }
            _ => self.lose(|| format!("it calls `{name}`")),
        }
    }

    /// `.name` on every place.
    fn key(&mut self, current: &[Val], name: &str, range: Option<(usize, usize)>) -> Vec<Val> {
        let mut out = Vec::new();
        for v in current {
            let next = match v {
                Val::At(node, path) => self.field(*node, path, name, range),
                Val::Open => Val::Open,
                Val::Null => Val::Null,
                Val::Lit(..) => Val::Lost,
                Val::Lost => {
                    self.lose(|| format!("`.{name}` is read from a value it cannot follow"));
                    Val::Lost
                }
            };
            push(&mut out, next);
        }
        out
    }

    fn field(
        &mut self,
        node: NodeId,
        path: &str,
        name: &str,
        range: Option<(usize, usize)>,
    ) -> Val {
        let field_path = format!("{path}{}", display_key(name));
        if let Some(child) = self.set.field(node, name) {
            self.out.accesses.push(Access {
                path: field_path.clone(),
                range,
                exists: true,
                declared: true,
                kind: Some(describe_resolved(&self.set.resolve(child))),
            });
            return Val::At(child, field_path);
        }
        let r = self.set.resolve(node);
        if let Some(values) = r.additional {
            return Val::At(values, format!("{path}[]"));
        }
        // Every object has these, whatever its CRD's schema declares.
        let always = path.is_empty() && matches!(name, "apiVersion" | "kind" | "metadata");
        if r.open || always {
            self.out.accesses.push(Access {
                path: field_path,
                range,
                exists: true,
                declared: false,
                kind: None,
            });
            return Val::Open;
        }
        if r.types != 0 && r.types & types::OBJECT == 0 {
            self.out.findings.push(Finding {
                kind: FindingKind::WrongKind,
                range,
                message: format!(
                    "{field_path} reads a field of {}, which is {}",
                    shown(path),
                    describe_resolved(&r)
                ),
                help: None,
            });
            return Val::Open;
        }
        let known = self.set.field_names(node);
        let help = match crate::definition::read::closest(name, &known) {
            Some(c) => format!("did you mean \"{c}\"?"),
            None if known.is_empty() => "it has no fields".to_owned(),
            None => {
                let mut list: Vec<&str> = known.iter().take(12).copied().collect();
                if known.len() > 12 {
                    list.push("...");
                }
                format!("its fields are: {}", list.join(", "))
            }
        };
        self.out.accesses.push(Access {
            path: field_path.clone(),
            range,
            exists: false,
            declared: false,
            kind: None,
        });
        self.out.findings.push(Finding {
            kind: FindingKind::UnknownField,
            range,
            message: format!("{field_path}: {} has no field \"{name}\"", shown(path)),
            help: Some(help),
        });
        Val::Open
    }

    /// `.[n]` on every place.
    fn index(&mut self, current: &[Val]) -> Vec<Val> {
        let mut out = Vec::new();
        for v in current {
            let next = match v {
                Val::At(node, path) => {
                    let r = self.set.resolve(*node);
                    match r.items {
                        Some(items) => Val::At(items, format!("{path}[]")),
                        None => Val::Open,
                    }
                }
                Val::Lit(..) => Val::Lost,
                other => other.clone(),
            };
            push(&mut out, next);
        }
        out
    }

    /// `.[f]` with a key not known statically.
    fn dynamic(&mut self, current: &[Val]) -> Vec<Val> {
        let mut out = Vec::new();
        for v in current {
            let next = match v {
                Val::At(node, path) => {
                    let r = self.set.resolve(*node);
                    match (r.items, r.additional) {
                        (Some(items), _) => Val::At(items, format!("{path}[]")),
                        (None, Some(values)) => Val::At(values, format!("{path}[]")),
                        _ if r.open => Val::Open,
                        _ => Val::Lost,
                    }
                }
                Val::Lit(..) => Val::Lost,
                other => other.clone(),
            };
            push(&mut out, next);
        }
        out
    }

    /// `.[]` on every place: an array's items or a map's values.
    fn iterate(&mut self, current: &[Val], range: Option<(usize, usize)>) -> Vec<Val> {
        let mut out = Vec::new();
        for v in current {
            match v {
                Val::At(node, path) => {
                    let r = self.set.resolve(*node);
                    let next = match (r.items, r.additional) {
                        (Some(items), _) => Val::At(items, format!("{path}[]")),
                        (None, Some(values)) => Val::At(values, format!("{path}[]")),
                        _ if r.open || r.types == 0 => Val::Open,
                        _ if r.types & (types::OBJECT | types::ARRAY) != 0 => Val::Lost,
                        _ => {
                            self.out.findings.push(Finding {
                                kind: FindingKind::WrongKind,
                                range,
                                message: format!(
                                    "{path}[] iterates {}, which is {}: only an array or a map \
                                     can be iterated",
                                    shown(path),
                                    describe_resolved(&r)
                                ),
                                help: None,
                            });
                            Val::Open
                        }
                    };
                    push(&mut out, next);
                }
                Val::Null => {}
                Val::Open => push(&mut out, Val::Open),
                Val::Lit(..) | Val::Lost => push(&mut out, Val::Lost),
            }
        }
        out
    }
}

/// A path for messages: `.` for the whole object.
fn shown(path: &str) -> &str {
    if path.is_empty() {
        "."
    } else {
        path
    }
}

/// `.name`, or `["name"]` when the name is not an identifier.
pub(crate) fn display_key(name: &str) -> String {
    let ident = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident {
        format!(".{name}")
    } else {
        format!("[{}]", serde_json::Value::String(name.to_owned()))
    }
}

fn push(out: &mut Vec<Val>, v: Val) {
    if out.contains(&v) {
        return;
    }
    if out.len() >= MAX_VALUES {
        if !out.contains(&Val::Lost) {
            out.push(Val::Lost);
        }
        return;
    }
    out.push(v);
}

fn join(out: &mut Vec<Val>, more: Vec<Val>) {
    for v in more {
        push(out, v);
    }
}

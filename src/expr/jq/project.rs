//! What of its input a jq expression can read, so that jaq gets only that.
//!
//! An object is one tree, `serde_json::Value`, which every stage of a resolve reads in place,
//! and which plain paths walk directly ([`super::fast`]). jaq reads its own values (`Val`), so
//! an expression that is not a plain path needs the object converted. Converting all of it is
//! most of the cost of a status expression on a large object (`.status.conditions` on a
//! JobSet whose spec holds a thousand pod templates), so [`analyse`] finds, once per
//! expression when the definition compiles, the parts of the input it can reach: the
//! subtrees under the literal keys its paths start with (`.spec.suspend`,
//! `.status.conditions[]`). The evaluation then converts only those ([`Projection::val`]):
//! objects along the way keep only the keys asked for; a subtree reached whole, and any value
//! that is not an object, is converted whole. A subtree is converted once per input, whichever
//! expressions ask for it (the memo is keyed by the subtree's place in memory).
//!
//! The analysis over-approximates, and gives up (`None`: the whole input) on anything that
//! could see the input as a whole: `.` on its own, `..`, a path that does not start with a
//! literal key, assignments and updates, `if` without `else` (its missing branch is `.`), a
//! format (`@json`), and every call of a builtin that reads its input (`keys`, `length`,
//! `select`, `tojson`, ...) other than the few that only pass it to their arguments (`all/2`,
//! `any/2`, `isempty/1`, `first/1`, `last/1`, `limit/2`, `path/1`, and the constants);
//! `path(...)` of a walk needs only the containers along it, not the values it ends at. Only terms that
//! see the expression's own input are analysed: the right side of a pipe, a fold's update and
//! a `catch` see values derived from it, which contain only what the left side reached
//! (or the whole input, when the left side gave up). Arguments of calls are analysed as if
//! they saw the input itself, and so are the bodies of local definitions: both at most add
//! keys. The differential test (tests/it/fastpath.rs) checks that the projected evaluation
//! equals the whole one on the corpus, the catalog, upstream's definitions and a list of
//! expressions chosen for each rule above.

use std::collections::{BTreeMap, HashMap};

use jaq_core::load::lex::StrPart;
use jaq_core::load::parse::{BinaryOp, Pattern, Term};
use jaq_core::path::Part;
use jaq_json::Val;
use serde_json::Value;

use super::{from_json, literal_key};

/// One step from a value to a part of it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// `.key`.
    Key(String),
    /// `.[]`: every element or value.
    Each,
}

/// The parts of an input an expression reads: a tree of keys.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Projection {
    /// The subtree is read whole (its keys below do not matter).
    whole: bool,
    /// Keys read below this point, each with what is read of it.
    keys: BTreeMap<String, Projection>,
    /// What is read of every element (of an array) or value (of an object): the value is
    /// iterated, so all of its entries are kept.
    each: Option<Box<Projection>>,
}

/// Converted subtrees of one input, by the address of the subtree in the input's tree.
pub(crate) type Memo = HashMap<usize, Val>;

impl Projection {
    /// Marks the part at `path` as read: whole, or (`whole` false) only as a container that
    /// is walked further.
    fn add(&mut self, mut path: &[Step], whole: bool) {
        // Every element whole is the container whole.
        while let (true, [rest @ .., Step::Each]) = (whole, path) {
            path = rest;
        }
        let mut node = self;
        for step in path {
            if node.whole {
                return;
            }
            node = match step {
                Step::Key(key) => node.keys.entry(key.clone()).or_default(),
                Step::Each => node.each.get_or_insert_with(Default::default),
            };
        }
        if whole {
            *node = Projection {
                whole: true,
                ..Projection::default()
            };
        }
    }

    /// Both projections in one: whatever either reads.
    fn merge(&self, other: &Projection) -> Projection {
        if self.whole || other.whole {
            return Projection {
                whole: true,
                ..Projection::default()
            };
        }
        let mut keys = self.keys.clone();
        for (k, p) in &other.keys {
            let merged = match keys.get(k) {
                Some(mine) => mine.merge(p),
                None => p.clone(),
            };
            keys.insert(k.clone(), merged);
        }
        let each = match (&self.each, &other.each) {
            (Some(a), Some(b)) => Some(Box::new(a.merge(b))),
            (a, b) => a.clone().or_else(|| b.clone()),
        };
        Projection {
            whole: false,
            keys,
            each,
        }
    }

    /// The input `v` as jaq reads it for this projection (see [`val`](Self::val)). The
    /// input itself is never remembered: only subtrees inside it, whose addresses stay put
    /// while the input lives.
    pub(crate) fn input(&self, v: &Value, memo: &mut Memo) -> Val {
        match v {
            Value::Object(_) if !self.whole => self.val(v, memo),
            _ => from_json(v),
        }
    }

    /// `v` as jaq reads it for this projection: objects keep the keys asked for (all of them
    /// when iterated), arrays that are only iterated keep every element, each projected;
    /// everything else is converted whole, once per subtree of the input (`memo`). An array
    /// that is also indexed by a key is converted whole: jaq's error names the array.
    fn val(&self, v: &Value, memo: &mut Memo) -> Val {
        match (v, &self.each) {
            (Value::Object(map), _) if !self.whole => {
                // `serde_json::Map` is ordered by key, as `keys` is: the same order as the
                // whole conversion gives.
                let entries = match &self.each {
                    None => self
                        .keys
                        .iter()
                        .filter_map(|(k, child)| {
                            let value = map.get(k)?;
                            Some((Val::from(k.clone()), child.val(value, memo)))
                        })
                        .collect(),
                    Some(each) => map
                        .iter()
                        .map(|(k, value)| {
                            let val = match self.keys.get(k) {
                                Some(child) => child.merge(each).val(value, memo),
                                None => each.val(value, memo),
                            };
                            (Val::from(k.clone()), val)
                        })
                        .collect(),
                };
                Val::obj(entries)
            }
            (Value::Array(items), Some(each)) if !self.whole && self.keys.is_empty() => {
                Val::Arr(std::rc::Rc::new(
                    items.iter().map(|x| each.val(x, memo)).collect(),
                ))
            }
            _ => memo
                .entry(std::ptr::from_ref(v) as usize)
                .or_insert_with(|| from_json(v))
                .clone(),
        }
    }
}

/// What `term` can read of its input; `None` when it may read all of it.
pub(crate) fn analyse(term: &Term<&str>) -> Option<Projection> {
    let mut analysis = Analysis {
        reads: Projection::default(),
        whole: false,
        scope: Vec::new(),
        base: Vec::new(),
    };
    analysis.term(term);
    (!analysis.whole && !analysis.reads.whole).then_some(analysis.reads)
}

/// Builtins that read their input only through their arguments (or not at all), by name and
/// arity.
const INPUT_FREE: &[(&str, usize)] = &[
    ("empty", 0),
    ("null", 0),
    ("true", 0),
    ("false", 0),
    ("nan", 0),
    ("infinite", 0),
    ("all", 2),
    ("any", 2),
    ("isempty", 1),
    ("first", 1),
    ("last", 1),
    ("limit", 2),
    // The paths its argument walks: the keys it reads are kept, iterated values whole.
    ("path", 1),
];

struct Analysis<'s> {
    reads: Projection,
    /// The whole input is read.
    whole: bool,
    /// Local definitions and filter parameters in scope, by name and arity.
    scope: Vec<(&'s str, usize)>,
    /// Where the term being analysed is: the input's part it sees (the right side of a pipe
    /// whose left side walks to a part, `.spec | ...`).
    base: Vec<Step>,
}

impl<'s> Analysis<'s> {
    /// The term may read all of what it sees.
    fn give_up(&mut self) {
        if self.base.is_empty() {
            self.whole = true;
        } else {
            self.reads.add(&self.base, true);
        }
    }

    /// The term reads `path` below what it sees: whole, or only walked further.
    fn read(&mut self, path: &[Step], whole: bool) {
        let full: Vec<Step> = self.base.iter().chain(path).cloned().collect();
        self.reads.add(&full, whole);
    }

    /// Analyses a term that sees the part of the input at `self.base`.
    fn term(&mut self, term: &Term<&'s str>) {
        if self.whole {
            return;
        }
        match term {
            Term::Id | Term::Recurse => self.give_up(),
            Term::Num(_) | Term::Var(_) | Term::Break(_) => {}
            // A format applies to what it is given; `@json "..."` is rare: give up.
            Term::Str(Some(_), _) => self.give_up(),
            Term::Str(None, parts) => {
                for part in parts {
                    if let StrPart::Term(t) = part {
                        self.term(t);
                    }
                }
            }
            Term::Arr(inner) => {
                if let Some(t) = inner {
                    self.term(t);
                }
            }
            Term::Obj(entries) => {
                for (key, value) in entries {
                    match value {
                        Some(value) => {
                            self.term(key);
                            self.term(value);
                        }
                        // `{$x}` binds nothing of the input; `{a}` and `{"a"}` read `.a`.
                        None => match (key, literal_key(key)) {
                            (Term::Var(_), _) => {}
                            (_, Some(k)) => self.read(&[Step::Key(k)], true),
                            _ => self.give_up(),
                        },
                    }
                }
            }
            Term::Neg(t) | Term::Label(_, t) => self.term(t),
            Term::BinOp(l, op, r) => match op {
                // The right side sees the left side's outputs: parts of what this term sees
                // when the left side only walks to them (`.spec.jobs[] | ...`), else values
                // made of what the left side read.
                BinaryOp::Pipe(None) => match walk(l) {
                    Some(steps) => {
                        self.read(&steps, false);
                        let depth = self.base.len();
                        self.base.extend(steps);
                        self.term(r);
                        self.base.truncate(depth);
                    }
                    None => self.term(l),
                },
                // `l as $x | r`: r sees the input too.
                BinaryOp::Pipe(Some(pattern)) => {
                    self.term(l);
                    self.pattern(pattern);
                    self.term(r);
                }
                BinaryOp::Comma
                | BinaryOp::Alt
                | BinaryOp::Or
                | BinaryOp::And
                | BinaryOp::Math(_)
                | BinaryOp::Cmp(_) => {
                    self.term(l);
                    self.term(r);
                }
                // Assignments give the input, changed.
                BinaryOp::Assign
                | BinaryOp::Update
                | BinaryOp::UpdateMath(_)
                | BinaryOp::UpdateAlt => self.give_up(),
            },
            // `reduce`/`foreach SOURCE as $x (INIT; UPDATE; EXTRACT)`: the update and extract
            // see the accumulator.
            Term::Fold(_, source, pattern, args) => {
                self.term(source);
                self.pattern(pattern);
                if let Some(init) = args.first() {
                    self.term(init);
                }
            }
            // The handler sees the error.
            Term::TryCatch(body, _) => self.term(body),
            Term::IfThenElse(branches, otherwise) => {
                for (cond, then) in branches {
                    self.term(cond);
                    self.term(then);
                }
                match otherwise {
                    Some(t) => self.term(t),
                    // No `else`: it gives the input.
                    None => self.give_up(),
                }
            }
            // Local definitions are analysed where they are defined, as if they saw the whole
            // input; that holds only at the top.
            Term::Def(..) if !self.base.is_empty() => self.give_up(),
            Term::Def(defs, rest) => {
                let depth = self.scope.len();
                self.scope
                    .extend(defs.iter().map(|d| (d.name, d.args.len())));
                for def in defs {
                    let params = self.scope.len();
                    self.scope.extend(
                        def.args
                            .iter()
                            .filter(|a| !a.starts_with('$'))
                            .map(|a| (*a, 0)),
                    );
                    // `def f($a)` defines the filter `a` too.
                    self.scope.extend(
                        def.args
                            .iter()
                            .filter_map(|a| a.strip_prefix('$'))
                            .map(|a| (a, 0)),
                    );
                    self.term(&def.body);
                    self.scope.truncate(params);
                }
                self.term(rest);
                self.scope.truncate(depth);
            }
            Term::Call(name, args) => {
                let local = self
                    .scope
                    .iter()
                    .rev()
                    .any(|&(n, arity)| n == *name && arity == args.len());
                // `path(WALK)` needs the containers along the walk, not the values at its end
                // (provenance locates `.spec.jobs[]?.template` so, in every object).
                if !local && *name == "path" {
                    if let Some(steps) = args.first().and_then(walks) {
                        self.read(&steps, false);
                        return;
                    }
                }
                // A local definition or parameter runs on what the call sees, which must be what
                // its body and arguments were analysed on: the whole input.
                let known = if local {
                    self.base.is_empty()
                } else {
                    INPUT_FREE.contains(&(*name, args.len()))
                };
                if !known {
                    self.give_up();
                    return;
                }
                for arg in args {
                    self.term(arg);
                }
            }
            Term::Path(head, path) => {
                let mut parts = path.0.iter().peekable();
                if matches!(**head, Term::Id) {
                    let mut steps = Vec::new();
                    while let Some((part, _)) = parts.peek() {
                        let Some(step) = step(part) else { break };
                        steps.push(step);
                        parts.next();
                    }
                    if steps.is_empty() {
                        self.give_up();
                        return;
                    }
                    self.read(&steps, true);
                } else {
                    self.term(head);
                }
                // Indices are computed from the input of the whole path.
                for (part, _) in parts {
                    match part {
                        Part::Index(index) => self.term(index),
                        Part::Range(from, to) => {
                            for bound in [from, to].into_iter().flatten() {
                                self.term(bound);
                            }
                        }
                    }
                }
            }
        }
    }

    fn pattern(&mut self, pattern: &Pattern<&'s str>) {
        match pattern {
            Pattern::Var(_) => {}
            Pattern::Arr(items) => items.iter().for_each(|p| self.pattern(p)),
            Pattern::Obj(entries) => {
                for (key, p) in entries {
                    self.term(key);
                    self.pattern(p);
                }
            }
        }
    }
}

/// A part of a path that walks to a part of its input: a literal key or `[]`.
fn step(part: &Part<Term<&str>>) -> Option<Step> {
    match part {
        Part::Index(index) => literal_key(index).map(Step::Key),
        Part::Range(None, None) => Some(Step::Each),
        Part::Range(..) => None,
    }
}

/// The steps of a term that only walks into its input (`.spec.jobs[]?`), else `None`.
fn walk(term: &Term<&str>) -> Option<Vec<Step>> {
    let Term::Path(head, path) = term else {
        return None;
    };
    if !matches!(**head, Term::Id) {
        return None;
    }
    path.0.iter().map(|(part, _)| step(part)).collect()
}

/// The steps of a walk or of walks piped into each other (`.spec | .jobs[]?`).
fn walks(term: &Term<&str>) -> Option<Vec<Step>> {
    match term {
        Term::BinOp(l, BinaryOp::Pipe(None), r) => {
            let mut steps = walks(l)?;
            steps.extend(walks(r)?);
            Some(steps)
        }
        _ => walk(term),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(source: &str) -> Option<Projection> {
        let (term, _) = super::super::parse(source).ok()?;
        analyse(&term)
    }

    /// Paths read whole; `[]` stands for every element.
    fn keys(paths: &[&[&str]]) -> Projection {
        let mut p = Projection::default();
        for path in paths {
            let steps: Vec<Step> = path
                .iter()
                .map(|k| match *k {
                    "[]" => Step::Each,
                    k => Step::Key(k.to_owned()),
                })
                .collect();
            p.add(&steps, true);
        }
        p
    }

    #[test]
    fn reads_the_keys_its_paths_start_with() {
        assert_eq!(
            reads(".spec.suspend == true and (.status.conditions // [])[].type == \"x\""),
            Some(keys(&[&["spec", "suspend"], &["status", "conditions"]]))
        );
        assert_eq!(
            reads(".a | keys | length"),
            Some(keys(&[&["a"]])),
            "the right side of a pipe sees .a only"
        );
        assert_eq!(
            reads(".spec.jobs[]? | (.replicas // 1) * (.template.spec | [.parallelism, .completions] | min)"),
            Some(keys(&[
                &["spec", "jobs", "[]", "replicas"],
                &["spec", "jobs", "[]", "template", "spec", "parallelism"],
                &["spec", "jobs", "[]", "template", "spec", "completions"],
            ])),
            "a pipe after a walk reads below it"
        );
        assert_eq!(reads(".a.b, .a"), Some(keys(&[&["a"]])));
        assert_eq!(reads("{b: .c, d}"), Some(keys(&[&["c"], &["d"]])));
        assert_eq!(
            reads("all(.a[]; .ok)"),
            Some(keys(&[&["a"], &["ok"]])),
            "arguments count as reading the input"
        );
    }

    #[test]
    fn below_a_walk_only_the_top_knows_local_definitions() {
        // The body of `f` was analysed on the whole input; called below `.a` it would read
        // `.a.x`, so `.a` is read whole.
        assert_eq!(reads("def f: .x; .a | f"), Some(keys(&[&["a"], &["x"]])));
        assert_eq!(reads(".a | def f: .x; f"), Some(keys(&[&["a"]])));
        assert_eq!(reads(".a[] | select(.b)"), Some(keys(&[&["a", "[]"]])));
    }

    #[test]
    fn gives_up_on_whatever_may_see_the_whole_input() {
        for source in [
            ".",
            "..",
            "keys",
            "length",
            "select(.a)",
            "if .a then 1 end",
            ".[0]",
            ".[]",
            ".a = 1",
            ".a |= 1",
            ".a += 1",
            "@json",
            "@base64 \"\\(.a)\"",
            ". as $x | $x.a",
            "{\"\\(.a)\"}",
            "tojson",
            "def f: .; f",
            "reduce .a[] as $x (.; . + $x)",
            ". | .a",
        ] {
            assert_eq!(reads(source), None, "{source}");
        }
    }
}

//! Provenance: where each part of the view came from.
//!
//! A component and a status matcher carry the byte range of their entry in the definition text
//! (read with the definition, kept in the plans). An instance carries the RFC 6901 JSON Pointer
//! of the part of the object it was read from, and, when the object came from text, that
//! part's byte range in the text.
//!
//! The pointer is found through the definition's own paths, never by searching the object:
//! the per-instance paths (instance ids, pod template or pod spec, replica counts) are prepared
//! once with the definition, and located in each object with jq's `path(...)` semantics. A
//! plain path (`.a.b[].c`, most definitions' paths) is walked here; a component with no plain
//! path has its other path expressions evaluated by jq, all in one expression per resolve.
//! Instance `i` takes the `i`-th location of each path, as the reader zips values. Its pointer
//! is the deepest location holding all of them: ids and counts are fields of the instance's
//! object (their parent holds the instance), the pod template lies inside it. So a JobSet's
//! replicated job `workers` is `/spec/replicatedJobs/1` (its `name`, `replicas` and `template`
//! meet there) and a role kept in a map, `/spec/roleSpecs/ps`. Expressions that are not paths
//! (`keys[]`, a computed value) locate nothing; an instance nothing locates has no pointer.
//! The root's single instance is the object itself (`""`).

use serde_json::Value;

use crate::diagnostic::{Diagnostic, TextRange};
use crate::expr::{ExprId, ExprSet, Input};
use crate::path::{self, Step};
use crate::view::Component;
use crate::yaml::Node;

/// Which of the definition's locate paths ([`LocateSet`]) locate a component's instances.
#[derive(Debug, Clone, Default)]
pub(crate) struct LocatePlan {
    /// Paths to fields of the instance's object (instance ids, replica counts): the parent
    /// of each location holds the instance.
    pub fields: Vec<usize>,
    /// Paths to parts inside the instance's object (pod template, pod spec, fragments).
    pub parts: Vec<usize>,
    /// Which of [`fields`](Self::fields) are the replica counts (`replicas`, `minReplicas`,
    /// `maxReplicas`), when they locate: where a count's problem is shown.
    pub counts: [Option<usize>; 3],
}

/// Every per-instance path of a definition, ready to locate in an object.
#[derive(Debug, Clone, Default)]
pub(crate) struct LocateSet {
    /// The paths, in the order the plans refer to them.
    pub paths: Vec<LocatePath>,
    /// The one jq expression that locates every [`LocatePath::Jq`] path at once (see
    /// [`locate_expression`]); `None` when there is none.
    pub jq: Option<ExprId>,
}

/// How one path is located.
#[derive(Debug, Clone)]
pub(crate) enum LocatePath {
    /// A plain path (`.a."b"["c"][0][]`), walked here: most definitions' paths are such, and
    /// walking them costs next to nothing beside an evaluation.
    Plain(Vec<Step>),
    /// Any other path expression: item `i` of the jq expression's result.
    Jq(usize),
}

/// The steps of `source` when it is a plain path: `.` and chains of `.a`, `."a"`, `.["a"]`,
/// `.[n]` (never negative: `.[-1]` is not plain) and `.[]` ([`Step::Each`]) without `?`, also
/// piped into each other (`.a | .b`).
pub(crate) fn plain_path(source: &str) -> Option<Vec<Step>> {
    use jaq_core::load::{lex::Lexer, Parser};
    // The expression checks bound the text before jaq's recursive parser sees it.
    if crate::expr::ExprSetBuilder::new()
        .add(crate::expr::Language::Jq, source)
        .is_err()
    {
        return None;
    }
    let tokens = Lexer::new(source).lex().ok()?;
    let term = Parser::new(&tokens).parse(|p| p.term()).ok()?;
    let mut segs = Vec::new();
    plain(&term, &mut segs).then_some(segs)
}

fn plain(term: &jaq_core::load::parse::Term<&str>, out: &mut Vec<Step>) -> bool {
    use jaq_core::load::parse::{BinaryOp, Term};
    use jaq_core::path::{Opt, Part};
    match term {
        Term::Id => true,
        Term::Path(head, path) => {
            if !plain(head, out) {
                return false;
            }
            for (part, opt) in &path.0 {
                if !matches!(opt, Opt::Essential) {
                    return false;
                }
                let seg = match part {
                    Part::Range(None, None) => Step::Each,
                    Part::Index(key @ Term::Str(..)) => match crate::expr::jq::literal_key(key) {
                        Some(key) => Step::Key(key),
                        None => return false,
                    },
                    Part::Index(Term::Num(n)) => match n.parse::<usize>() {
                        Ok(i) => Step::index(i),
                        Err(_) => return false,
                    },
                    _ => return false,
                };
                out.push(seg);
            }
            true
        }
        Term::BinOp(l, BinaryOp::Pipe(None), r) => plain(l, out) && plain(r, out),
        _ => false,
    }
}

/// More locations than this for one path locate nothing (the reader caps results at 1000).
const MAX_LOCATIONS: usize = 10_000;

/// The locations of a plain path in `root`, in jq's order (`path(...)`'s outputs); `None`
/// where jq's `path(...)` fails (a key of a list, `[]` of null, ...).
fn walk(root: &Value, segs: &[Step]) -> Option<Vec<Vec<Step>>> {
    static NULL: Value = Value::Null;
    let mut current: Vec<(Vec<Step>, &Value)> = vec![(Vec::new(), root)];
    for seg in segs {
        let mut next: Vec<(Vec<Step>, &Value)> = Vec::with_capacity(current.len());
        for (path, value) in current {
            let at = |step: Step, value| {
                let mut path = path.clone();
                path.push(step);
                (path, value)
            };
            match (seg, value) {
                (Step::Key(k), Value::Object(map)) => {
                    next.push(at(Step::Key(k.clone()), map.get(k).unwrap_or(&NULL)));
                }
                (Step::Key(k), Value::Null) => next.push(at(Step::Key(k.clone()), &NULL)),
                (Step::Index(i), Value::Array(items)) if *i >= 0 => {
                    let item = usize::try_from(*i).ok().and_then(|i| items.get(i));
                    next.push(at(Step::Index(*i), item.unwrap_or(&NULL)));
                }
                (Step::Index(i), Value::Null) if *i >= 0 => next.push(at(Step::Index(*i), &NULL)),
                (Step::Each, Value::Array(items)) => {
                    next.extend(items.iter().enumerate().map(|(i, v)| at(Step::index(i), v)));
                }
                (Step::Each, Value::Object(map)) => {
                    // jq iterates an object's values in sorted key order, and so does
                    // serde_json's map (a BTreeMap without the `preserve_order` feature).
                    next.extend(map.iter().map(|(k, v)| at(Step::Key(k.clone()), v)));
                }
                _ => return None,
            }
            if next.len() > MAX_LOCATIONS {
                return None;
            }
        }
        current = next;
    }
    Some(current.into_iter().map(|(path, _)| path).collect())
}

/// One jq expression that locates every given path at once, so a resolve pays one evaluation
/// for all of them: an array with, per path, the list of its locations (`path(...)`), or
/// `null` where the path selects no location on this object (a computed branch). Each path
/// stands on its own lines, so a trailing `# comment` cannot swallow what follows.
pub(crate) fn locate_expression(paths: &[String]) -> String {
    let parts: Vec<String> = paths
        .iter()
        .map(|p| format!("(try [path(\n{p}\n)] catch null)"))
        .collect();
    format!("[\n{}\n]", parts.join(",\n"))
}

/// Where each of the definition's locate paths leads in one object.
#[derive(Debug, Default)]
pub(crate) struct Locations {
    /// Per path: its locations in order (empty when it located nothing).
    paths: Vec<Vec<Vec<Step>>>,
}

impl Locations {
    /// Locates every path of `set` in the object. Failures locate nothing; the reader's own
    /// evaluation of the same paths reports them.
    pub fn evaluate(set: &LocateSet, exprs: &ExprSet, input: &Input) -> Locations {
        let by_jq: Vec<Value> = match set.jq.map(|id| exprs.eval(id, input)) {
            Some(Ok(mut found)) => match found.pop() {
                Some(Value::Array(per_path)) => per_path,
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        let steps = |p: &Value| {
            let steps = path::steps_of(p).unwrap_or_default();
            // jq's `path(.[-1])` yields -1: a position is what a pointer names.
            if steps.iter().any(|s| matches!(s, Step::Index(i) if *i < 0)) {
                path::normalise(input.json(), &steps)
            } else {
                steps
            }
        };
        let paths = set
            .paths
            .iter()
            .map(|path| match path {
                LocatePath::Plain(segs) => walk(input.json(), segs).unwrap_or_default(),
                LocatePath::Jq(i) => match by_jq.get(*i) {
                    Some(Value::Array(found)) => found.iter().map(steps).collect(),
                    _ => Vec::new(),
                },
            })
            .collect();
        Locations { paths }
    }

    /// The JSON Pointer of the pod template (or pod spec) of instance `i`, when its path
    /// locates one (the first part of a fragmented spec otherwise).
    pub fn part_pointer(&self, plan: &LocatePlan, i: usize) -> Option<String> {
        let first = plan.parts.first()?;
        self.paths
            .get(*first)
            .and_then(|p| p.get(i))
            .map(|steps| path::pointer(steps))
    }

    /// The JSON Pointer of instance `i`'s value of count `which` (0 `replicas`, 1
    /// `minReplicas`, 2 `maxReplicas`), when its path locates it.
    pub fn count_pointer(&self, plan: &LocatePlan, which: usize, i: usize) -> Option<String> {
        let index = plan.counts.get(which).copied().flatten()?;
        self.paths
            .get(index)
            .and_then(|p| p.get(i))
            .map(|steps| path::pointer(steps))
    }

    /// The JSON Pointer of each of `count` instances of a component (`None` where nothing
    /// locates one): instance `i` takes the `i`-th location of each path.
    pub fn instance_pointers(&self, plan: &LocatePlan, count: usize) -> Vec<Option<String>> {
        let at = |index: &usize, i: usize| self.paths.get(*index).and_then(|p| p.get(i));
        (0..count)
            .map(|i| {
                let holders = plan.fields.iter().filter_map(|f| at(f, i)).map(|steps| {
                    // A field's parent holds the instance; an array element is the instance.
                    match steps.split_last() {
                        Some((Step::Key(_), parent)) => parent,
                        _ => steps.as_slice(),
                    }
                });
                let inside = plan
                    .parts
                    .iter()
                    .filter_map(|p| at(p, i))
                    .map(Vec::as_slice);
                common_prefix(holders.chain(inside)).map(path::pointer)
            })
            .collect()
    }
}

/// The longest prefix every location shares; `None` for no locations.
fn common_prefix<'s>(mut locations: impl Iterator<Item = &'s [Step]>) -> Option<&'s [Step]> {
    let mut prefix = locations.next()?;
    for location in locations {
        let shared = prefix
            .iter()
            .zip(location)
            .take_while(|(a, b)| a == b)
            .count();
        prefix = &prefix[..shared];
    }
    Some(prefix)
}


/// The byte range of the value a JSON Pointer leads to in a document read from text.
pub(crate) fn locate(document: &Node, pointer: &str) -> Option<TextRange> {
    let mut node = document;
    for token in crate::path::pointer_tokens(pointer)? {
        node = match (node.as_seq(), token.parse::<usize>()) {
            (Some(_), Ok(index)) => node.index(index)?,
            (Some(_), Err(_)) => return None,
            (None, _) => node.get(&token)?,
        };
    }
    Some(node.range)
}

/// Sets the object range of every instance below `component` whose pointer leads somewhere in
/// `document` (the node the object was read from).
pub(crate) fn place_instances(component: &mut Component, document: &Node) {
    for instance in &mut component.instances {
        instance.source.object = instance
            .source
            .pointer
            .as_deref()
            .and_then(|p| locate(document, p));
        for child in &mut instance.children {
            place_instances(child, document);
        }
    }
}

/// The value a JSON Pointer leads to in a document read from text, or the deepest node on the
/// way when the rest is not there (a default the object does not write): a problem with a
/// value is then shown where the missing value would be written.
fn locate_nearest(document: &Node, pointer: &str) -> Option<TextRange> {
    let mut node = document;
    for token in crate::path::pointer_tokens(pointer)? {
        let next = match (node.as_seq(), token.parse::<usize>()) {
            (Some(_), Ok(index)) => node.index(index),
            (Some(_), Err(_)) => None,
            (None, _) => node.get(&token),
        };
        match next {
            Some(next) => node = next,
            None => break,
        }
    }
    Some(node.range)
}

/// Places the problems with values of the object in the text it was read from: every
/// diagnostic of source [`Source::Object`](crate::diagnostic::Source) with a
/// [`pointer`](Diagnostic::pointer) and no range gets the range of that value in `document`
/// (the object's node), or of the nearest part of it the text writes.
pub(crate) fn place_diagnostics(diagnostics: &mut [Diagnostic], document: &Node) {
    for d in diagnostics {
        if d.range.is_none() && d.source == crate::diagnostic::Source::Object {
            if let Some(pointer) = &d.pointer {
                d.range = locate_nearest(document, pointer);
            }
        }
    }
}



//! The native filters: jaq's own, minus those with side effects on wasm, plus the metering
//! and size-checked ones the rewrite inserts.

use jaq_core::box_iter::box_once;
use jaq_core::native::{Filter, Fun};
use jaq_core::{Bind, Cv, DataT, Error, Exn, Native, RunPtr, ValXs};

/// The value type as jaq's function pointers name it.
type V<'a> = <WmData as DataT>::V<'a>;
use jaq_json::{Num, Val};

use super::{to_json, Budget, WmData, MAX_SIZE, MAX_VALUE_DEPTH, REGEX_UNIT};

/// The largest compiled regular expression: `regex-bites`' own default limit.
const REGEX_MAX_BYTES: usize = 10 * 1024 * 1024;

pub(crate) const DEPTH_EXCEEDED: &str =
    "expression built a value nested deeper than the depth budget";
pub(crate) const SIZE_EXCEEDED: &str = "expression built a value larger than the size budget";
pub(crate) const BUILT_EXCEEDED: &str =
    "expression built more strings and arrays in total than its size budget";
pub(crate) const READ_EXCEEDED: &str =
    "expression had functions read more text in total than its size budget";
pub(crate) const REGEX_MATCHES_EXCEEDED: &str =
    "expression's regular expressions produced more matches in total than its budget";
pub(crate) const REGEX_SCAN_EXCEEDED: &str =
    "expression's regular expressions scanned more text in total than its budget";

/// Natives that pass values through without building them, and that work on paths: never
/// wrapped in `_wm_built`.
pub(crate) const PASS_THROUGH: [&str; 4] = ["first", "last", "limit", "skip"];

/// Natives that read the clock, the environment, or end the process: replaced by
/// [`unavailable`] so that they fail as ordinary errors.
const UNAVAILABLE: [(&str, usize); 7] = [
    ("now", 0),
    ("env", 0),
    ("halt", 1),
    ("localtime", 0),
    ("strflocaltime", 1),
    ("input", 0),
    ("inputs", 0),
];

/// Natives that print: made silent.
const SILENT: [&str; 2] = ["debug_empty", "stderr_empty"];

/// Natives the rewrite or we ourselves replace.
const OURS: [&str; 11] = [
    "matches",
    "split_matches",
    "split_",
    "_wm_built",
    "_wm_read",
    "_wm_fuel",
    "_wm_add",
    "_wm_mul",
    "_wm_tostring",
    "tojson",
    "tostring",
];

/// All natives of the program.
pub(crate) fn funs() -> Vec<Fun<WmData>> {
    let replaced = |name: &str| {
        UNAVAILABLE.iter().any(|(n, _)| *n == name)
            || SILENT.contains(&name)
            || OURS.contains(&name)
    };
    let mut funs: Vec<Fun<WmData>> = jaq_core::funs::<WmData>()
        .chain(jaq_std::funs::<WmData>())
        .chain(jaq_json::funs::<WmData>())
        .filter(|(name, _, _)| !replaced(name))
        .collect();
    for (name, arity) in UNAVAILABLE {
        funs.push((
            name,
            jaq_core::native::v(arity),
            Native::<WmData>::new(unavailable),
        ));
    }
    for name in SILENT {
        funs.push((
            name,
            jaq_core::native::v(0),
            Native::<WmData>::new(|_| Box::new(core::iter::empty())),
        ));
    }
    let fuel = Native::<WmData>::new(fuel_run).with_paths(|mut cv| {
        let budget = cv.0.data().budget;
        if !budget.enter() {
            return Box::new(core::iter::empty());
        }
        let (f, ctx) = cv.0.pop_fun();
        Box::new(Guard {
            inner: f.paths((ctx, cv.1)),
            budget,
        })
    });
    let fuel = fuel.with_update(|mut cv, update| {
        let budget = cv.0.data().budget;
        if !budget.enter() {
            return Box::new(core::iter::empty());
        }
        let (f, ctx) = cv.0.pop_fun();
        Box::new(Guard {
            inner: f.update((ctx, cv.1), update),
            budget,
        })
    });
    funs.push(("_wm_fuel", Box::new([Bind::Fun(())]), fuel));
    // `_wm_built` checks what its input built; as a path it is the identity, so that slices
    // inside paths (`path(.[1:])`, `.[:-1][] += $s` in `join`) can be checked too.
    let built = Native::<WmData>::new(built)
        .with_paths(|cv| {
            let budget = cv.0.data().budget;
            if budget.built(&cv.1 .0) {
                box_once(Ok(cv.1))
            } else {
                Box::new(core::iter::empty())
            }
        })
        .with_update(|cv, update| update(cv.1));
    funs.push(("_wm_built", jaq_core::native::v(0), built));
    let read = Native::<WmData>::new(read)
        .with_paths(|cv| {
            if cv.0.data().budget.read(&cv.1 .0) {
                box_once(Ok(cv.1))
            } else {
                Box::new(core::iter::empty())
            }
        })
        .with_update(|cv, update| update(cv.1));
    funs.push(("_wm_read", jaq_core::native::v(0), read));
    let run = |(name, args, f): Filter<RunPtr<WmData>>| (name, args, Native::<WmData>::new(f));
    funs.extend(
        [
            ("_wm_add", jaq_core::native::v(2), add as RunPtr<WmData>),
            ("_wm_mul", jaq_core::native::v(2), mul),
            ("_wm_tostring", jaq_core::native::v(0), tostring),
            ("tojson", jaq_core::native::v(0), tojson),
            ("_wm_walk", jaq_core::native::v(0), walk),
            ("_wm_object", jaq_core::native::v(0), object),
            ("_wm_json_depth", jaq_core::native::v(0), json_depth),
        ]
        .map(run),
    );
    let vv = || [Bind::Var(()), Bind::Var(())].into();
    for (name, f) in [
        ("matches", regex_matches as RunPtr<WmData>),
        ("split_matches", regex_split_matches),
        ("split_", regex_split),
    ] {
        funs.push((name, vv(), Native::<WmData>::new(f)));
    }
    funs
}

// ----- regular expressions --------------------------------------------------------------------
//
// jaq-std's `matches`, `split_matches` and `split_` (on which its `match`, `test`, `capture`,
// `scan`, `split/2`, `splits`, `sub` and `gsub` are defined in jq), with the same results, but
// every match paid for before it is made (`MATCH_BYTES` of `MAX_BUILT`) and the text scanned
// paid as it is scanned (`REGEX_UNIT`, `MAX_READ`): jaq-std's build every match of a string
// first (half a million for `"a" * 524000 | match(""; "g")`, seconds and hundreds of MB) and
// only then could the budget see the result.

fn regex_matches<'a>(cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    regex_run(false, true, cv)
}

fn regex_split_matches<'a>(cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    regex_run(true, true, cv)
}

fn regex_split<'a>(cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    regex_run(true, false, cv)
}

fn regex_run<'a>(split: bool, matches: bool, cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    let budget = cv.0.data().budget;
    match regex(split, matches, cv, budget) {
        Ok(Some(v)) => box_once(Ok(v)),
        Ok(None) => Box::new(core::iter::empty()),
        Err(e) => box_once(Err(Exn::from(e))),
    }
}

/// jaq's regex flags: `g` global, `n` ignore empty matches, `i`, `m`, `s`, `l` (swap greed),
/// `x`, and `p` (`m` and `s`).
#[derive(Clone, Copy, Default)]
struct RegexFlags {
    global: bool,
    ignore_empty: bool,
    case_insensitive: bool,
    multi_line: bool,
    dot_all: bool,
    swap_greed: bool,
    extended: bool,
}

impl RegexFlags {
    fn new(flags: &str) -> Result<Self, char> {
        let mut out = Self::default();
        for flag in flags.chars() {
            match flag {
                'g' => out.global = true,
                'n' => out.ignore_empty = true,
                'i' => out.case_insensitive = true,
                'm' => out.multi_line = true,
                's' => out.dot_all = true,
                'l' => out.swap_greed = true,
                'x' => out.extended = true,
                'p' => {
                    out.multi_line = true;
                    out.dot_all = true;
                }
                c => return Err(c),
            }
        }
        Ok(out)
    }

    /// The compiled expression, and its size in [`REGEX_UNIT`]s (at least one): the smallest of
    /// the doubling size limits it compiles under (up to the engine's own 10 MiB).
    fn build(self, re: &str) -> Result<(regex_bites::bytes::Regex, usize), regex_bites::Error> {
        let mut builder = regex_bites::bytes::RegexBuilder::new(re);
        builder
            .case_insensitive(self.case_insensitive)
            .multi_line(self.multi_line)
            .dot_matches_new_line(self.dot_all)
            .swap_greed(self.swap_greed)
            .ignore_whitespace(self.extended);
        let mut limit = REGEX_UNIT;
        loop {
            match builder.size_limit(limit).build() {
                Ok(regex) => return Ok((regex, limit / REGEX_UNIT)),
                Err(e) if limit >= REGEX_MAX_BYTES => return Err(e),
                Err(_) => limit = (limit * 2).min(REGEX_MAX_BYTES),
            }
        }
    }
}

/// Character offsets of byte offsets, asked for in increasing order (jq counts code points;
/// an invalid sequence counts as the one U+FFFD it reads as).
struct CharOffsets<'s> {
    text: &'s [u8],
    byte: usize,
    chars: usize,
}

impl CharOffsets<'_> {
    fn at(&mut self, byte: usize) -> usize {
        let from = self.byte.min(byte);
        let part = self.text.get(from..byte).unwrap_or_default();
        self.chars += chars_in(part);
        self.byte = byte.max(self.byte);
        self.chars
    }
}

fn chars_in(bytes: &[u8]) -> usize {
    bytes
        .utf8_chunks()
        .map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty()))
        .sum()
}

/// `[mismatch?, [match, capture...]?, ...]` of `re` on the input, as jaq-std makes it; `None`
/// when the budget ran out (it is spent then).
fn regex<'a>(
    split: bool,
    with_matches: bool,
    mut cv: Cv<'a, WmData>,
    budget: &Budget,
) -> Result<Option<Val>, Error<Val>> {
    use jaq_core::ValT as _;
    use jaq_std::ValT as _;
    let flags = cv.0.pop_var();
    let re = cv.0.pop_var();
    let text = |v: &Val| -> Result<String, Error<Val>> {
        let bytes = v.try_as_utf8_bytes()?;
        core::str::from_utf8(bytes)
            .map(str::to_owned)
            .map_err(Error::str)
    };
    let flags = RegexFlags::new(&text(&flags)?)
        .map_err(|c| Error::str(format_args!("invalid regex flag: {c}")))?;
    let pattern = text(&re)?;
    let (re, units) = flags
        .build(&pattern)
        .map_err(|e| Error::str(format_args!("invalid regex: {e}")))?;
    let input = &cv.1;
    let s = input.try_as_utf8_bytes()?;
    // A search takes up to the text times the expression's size, failing or not (the engine
    // is a Pike VM): paid in full before the first search, which covers all of them (each
    // starts where the last match ended).
    if !budget.regex_scanned(s.len().max(1).saturating_mul(units)) {
        return Ok(None);
    }
    let groups = re.captures_len();
    let names: Vec<Option<&str>> = re.capture_names().collect();
    let mut offsets = CharOffsets {
        text: s,
        byte: 0,
        chars: 0,
    };
    let mut out: Vec<Val> = Vec::new();
    let mut last_byte = 0;
    for c in re.captures_iter(s) {
        let Some(whole) = c.get(0) else { continue };
        if flags.ignore_empty && whole.as_bytes().is_empty() {
            continue;
        }
        // The search that found it, each capture object built for it, and the parts.
        let parts = usize::from(split) + usize::from(with_matches);
        let objects = if with_matches { groups.max(1) } else { 1 };
        let cost = objects.saturating_mul(super::MATCH_BYTES);
        if !budget.regex_built(cost + parts * super::ELEMENT_BYTES) {
            return Ok(None);
        }
        if split {
            out.push(input.as_sub_str(s.get(last_byte..whole.start()).unwrap_or_default()));
            last_byte = whole.end();
        }
        if with_matches {
            let mut found = Vec::with_capacity(groups);
            for (m, name) in c.iter().zip(&names) {
                let Some(m) = m else { continue };
                let offset = offsets.at(m.start());
                let length = chars_in(m.as_bytes());
                let fields = [
                    (
                        "offset",
                        Val::from(isize::try_from(offset).unwrap_or(isize::MAX)),
                    ),
                    (
                        "length",
                        Val::from(isize::try_from(length).unwrap_or(isize::MAX)),
                    ),
                    ("string", input.as_sub_str(m.as_bytes())),
                ]
                .into_iter()
                .chain(name.map(|n| ("name", Val::from(n.to_owned()))))
                .map(|(k, v)| (Val::from(k.to_owned()), v));
                found.push(Val::from_map(fields)?);
            }
            out.push(found.into_iter().collect());
        }
        if !flags.global {
            break;
        }
    }
    if split {
        out.push(input.as_sub_str(s.get(last_byte..).unwrap_or_default()));
    }
    Ok(Some(out.into_iter().collect()))
}

/// Passes its input through once [`Budget::built`] has checked it.
fn built<'a>(cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    if cv.0.data().budget.built(&cv.1) {
        box_once(Ok(cv.1))
    } else {
        Box::new(core::iter::empty())
    }
}

/// Passes its input through once [`Budget::read`] has paid for it.
fn read<'a>(cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    if cv.0.data().budget.read(&cv.1) {
        box_once(Ok(cv.1))
    } else {
        Box::new(core::iter::empty())
    }
}

/// Passes its input through once [`Budget::walk`] has checked it.
fn walk<'a>(cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    if cv.0.data().budget.walk(&cv.1) {
        box_once(Ok(cv.1))
    } else {
        Box::new(core::iter::empty())
    }
}

/// A constructed object with its keys sorted, as gojq iterates them, then walked.
fn object<'a>(cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    walk((cv.0, sorted(cv.1)))
}

/// `v` with its keys sorted when it is an object (cheap when they already are).
fn sorted(v: Val) -> Val {
    match v {
        Val::Obj(mut o) => {
            let in_order = o.keys().zip(o.keys().skip(1)).all(|(a, b)| a <= b);
            if !in_order {
                std::rc::Rc::make_mut(&mut o).sort_keys();
            }
            Val::Obj(o)
        }
        other => other,
    }
}

/// Passes a string through when the JSON it holds nests no deeper than values may: jaq's
/// JSON reader recurses once per bracket. Over-approximates (brackets inside strings
/// count), which is the safe side.
fn json_depth<'a>(cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    if let Val::TStr(b) | Val::BStr(b) = &cv.1 {
        let mut depth = 0usize;
        for c in b.iter() {
            match c {
                b'[' | b'{' => depth += 1,
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if depth > MAX_VALUE_DEPTH {
                cv.0.data().budget.spend(DEPTH_EXCEEDED);
                return Box::new(core::iter::empty());
            }
        }
    }
    box_once(Ok(cv.1))
}

fn unavailable<'a>(cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    let _ = cv;
    box_once(Err(Exn::from(Error::str(
        "this function is not available here",
    ))))
}

/// Counts one step, then runs the wrapped filter; the returned stream holds one level of
/// depth until dropped. A spent budget yields nothing, so no loop can continue past it.
fn fuel_run<'a>(mut cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    let budget = cv.0.data().budget;
    if !budget.enter() {
        return Box::new(core::iter::empty());
    }
    let (f, ctx) = cv.0.pop_fun();
    Box::new(Guard {
        inner: f.run((ctx, cv.1)),
        budget,
    })
}

struct Guard<'a, I> {
    inner: I,
    budget: &'a Budget,
}

impl<I: Iterator> Iterator for Guard<'_, I> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        if self.budget.spent.get().is_some() {
            return None;
        }
        self.inner.next()
    }

    // jaq's fold keeps an update's output stream alive (holding its depth) unless the
    // stream says it is exhausted.
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<I> Drop for Guard<'_, I> {
    fn drop(&mut self) {
        self.budget.leave();
    }
}

/// Ends the evaluation with a budget error: the error itself could be caught by `try`.
fn too_big<'a>(budget: &Budget) -> ValXs<'a, V<'a>> {
    budget.spend(SIZE_EXCEEDED);
    Box::new(core::iter::empty())
}

fn size(v: &Val) -> usize {
    match v {
        Val::TStr(b) | Val::BStr(b) => b.len(),
        Val::Arr(a) => a.len(),
        _ => 0,
    }
}

fn add<'a>(mut cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    let r = cv.0.pop_var();
    let l = cv.0.pop_var();
    if size(&l).saturating_add(size(&r)) > MAX_SIZE {
        return too_big(cv.0.data().budget);
    }
    let budget = cv.0.data().budget;
    match l + r {
        // Checking (and restoring) key order costs one walk unit per key.
        Ok(o @ Val::Obj(_)) if !budget.pay(size_of_obj(&o)) => Box::new(core::iter::empty()),
        Ok(sum) if !budget.built(&sum) => Box::new(core::iter::empty()),
        sum => box_once(sum.map(sorted).map_err(Exn::from)),
    }
}

fn size_of_obj(v: &Val) -> usize {
    match v {
        Val::Obj(o) => o.len(),
        _ => 0,
    }
}

fn mul<'a>(mut cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    let r = cv.0.pop_var();
    let l = cv.0.pop_var();
    let times = |n: &Val| match n {
        Val::Num(Num::Int(i)) => usize::try_from(*i).unwrap_or(0),
        Val::Num(Num::BigInt(_)) => usize::MAX,
        _ => 0,
    };
    let repeated = match (&l, &r) {
        (s @ (Val::TStr(_) | Val::BStr(_)), n) | (n, s @ (Val::TStr(_) | Val::BStr(_))) => {
            size(s).saturating_mul(times(n))
        }
        _ => 0,
    };
    let budget = cv.0.data().budget;
    if repeated > MAX_SIZE {
        return too_big(budget);
    }
    match l * r {
        Ok(product) if !budget.built(&product) => Box::new(core::iter::empty()),
        product => box_once(product.map_err(Exn::from)),
    }
}

fn tostring<'a>(cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    match cv.1 {
        s @ Val::TStr(_) => box_once(Ok(s)),
        v => tojson((cv.0, v)),
    }
}

fn tojson<'a>(cv: Cv<'a, WmData>) -> ValXs<'a, V<'a>> {
    let budget = cv.0.data().budget;
    match write_json(&cv.1, MAX_SIZE).map(Val::from) {
        Some(s) if budget.built(&s) => box_once(Ok(s)),
        _ => too_big(budget),
    }
}

/// Compact JSON as gojq writes it, or `None` once it would exceed `cap` bytes. Iterative:
/// values can be nested far deeper than the stack allows, and shared (`[.,.]` doubled 40
/// times is small in memory but huge as text).
pub(crate) fn write_json(v: &Val, cap: usize) -> Option<String> {
    enum Item<'v> {
        Val(&'v Val),
        Key(&'v Val),
        Lit(&'static str),
    }
    let mut out = String::new();
    let mut stack = vec![Item::Val(v)];
    while let Some(item) = stack.pop() {
        match item {
            Item::Lit(s) => out.push_str(s),
            Item::Key(k) => {
                let k = match k {
                    Val::TStr(b) | Val::BStr(b) => String::from_utf8_lossy(b).into_owned(),
                    other => other.to_string(),
                };
                out.push_str(&serde_json::Value::String(k).to_string());
            }
            Item::Val(v) => match v {
                Val::Arr(a) => {
                    out.push('[');
                    stack.push(Item::Lit("]"));
                    for (i, x) in a.iter().enumerate().rev() {
                        stack.push(Item::Val(x));
                        if i > 0 {
                            stack.push(Item::Lit(","));
                        }
                    }
                }
                Val::Obj(o) => {
                    out.push('{');
                    stack.push(Item::Lit("}"));
                    for (i, (k, x)) in o.iter().enumerate().rev() {
                        stack.push(Item::Val(x));
                        stack.push(Item::Lit(":"));
                        stack.push(Item::Key(k));
                        if i > 0 {
                            stack.push(Item::Lit(","));
                        }
                    }
                }
                scalar => out.push_str(&to_json(scalar).to_string()),
            },
        }
        // The pending stack can also grow without bound on shared values.
        if out.len() > cap || stack.len() > cap {
            return None;
        }
    }
    Some(out)
}

/// The message of a runtime error, worded like gojq where that is cheap.
pub(crate) fn exn_message(e: Exn<'_, Val>) -> String {
    let Ok(err) = e.get_err() else {
        return "internal: unexpected break or halt".to_owned();
    };
    let message = match err.into_val() {
        Val::TStr(b) | Val::BStr(b) => String::from_utf8_lossy(&b).into_owned(),
        other => write_json(&other, 4096).unwrap_or_else(|| "(error value too large)".into()),
    };
    if let Some(v) = message
        .strip_prefix("cannot use ")
        .and_then(|m| m.strip_suffix(" as iterable (array or object)"))
    {
        return format!("cannot iterate over: {v}");
    }
    message
}

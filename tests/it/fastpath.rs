//! Plain paths without the interpreter (src/expr/jq/fast.rs): the fast path's answer (every
//! value, or the error's code and message) equals jaq's for the same expression on the same
//! input.
//!
//! Three sources of expressions, each against many values:
//! - every jq expression of every catalog definition and every upstream definition in
//!   `../shared/conformance/definitions` (read in place; under `CI=true` its absence fails),
//!   against every recorded object of the corpus, the catalog's test objects, and values
//!   generated from the expression's own names (objects and arrays nested along its keys, with
//!   nulls, scalars and the wrong kind of container at every level, so that each step meets
//!   what it errs on);
//! - fuzzed paths: a deterministic generator of plain path shapes (keys plain and quoted,
//!   indices positive, negative and out of range, iterations, each optional or not) against
//!   generated values (numbers that jaq converts: large integers, integral floats, huge floats;
//!   strings, nulls, booleans);
//! - the result cap: a path with more than 1000 outputs.
//!
//! Every expression that is a plain path is counted; the test fails when too few are (so that
//! it cannot pass by the fast path applying to nothing).

use crate::common;

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};
use workload_map::expr::{ExprId, ExprSet, ExprSetBuilder, Input, Language};

/// A deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Compiles `sources` (jq) into one set; those that do not compile are left out.
fn compile(sources: &[String]) -> (ExprSet, Vec<(usize, ExprId)>) {
    let mut builder = ExprSetBuilder::new();
    let mut ids = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        if let Ok(id) = builder.add(Language::Jq, source) {
            ids.push((i, id));
        }
    }
    let (set, failed) = builder.finish();
    ids.retain(|(_, id)| !failed.iter().any(|(f, _)| f == id));
    (set, ids)
}

/// Evaluates each expression of `sources` that `select` keeps on every value, and records (up
/// to 20) the answers `differ` finds unequal (its description of them, or `None` when they
/// agree). Returns how many expressions were kept and how many evaluations were compared.
fn compare_each(
    sources: &[String],
    values: &[Value],
    failures: &mut Vec<String>,
    select: impl Fn(&ExprSet, ExprId) -> bool,
    differ: impl Fn(&ExprSet, ExprId, &Input) -> Option<String>,
) -> (usize, usize) {
    let (set, ids) = compile(sources);
    let kept: Vec<_> = ids
        .into_iter()
        .filter(|(_, id)| select(&set, *id))
        .collect();
    let mut compared = 0;
    for value in values {
        let input = Input::new(value.clone());
        for (i, id) in &kept {
            compared += 1;
            if let Some(answers) = differ(&set, *id, &input) {
                if failures.len() < 20 {
                    failures.push(format!("{}\n  on {}\n{answers}", sources[*i], short(value)));
                }
            }
        }
    }
    (kept.len(), compared)
}

/// Checks every fast-path expression of `sources` on every value; returns how many
/// expressions were plain paths and how many evaluations were compared.
fn differential(
    sources: &[String],
    values: &[Value],
    failures: &mut Vec<String>,
) -> (usize, usize) {
    compare_each(
        sources,
        values,
        failures,
        ExprSet::is_fast_path,
        |set, id, input| {
            let native = set.eval(id, input);
            let jaq = set.eval_interpreted(id, input);
            (native != jaq).then(|| format!("  fast path: {native:?}\n  jaq:       {jaq:?}"))
        },
    )
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 300 {
        format!("{}…", text.chars().take(300).collect::<String>())
    } else {
        text
    }
}

/// Every string in a definition: each that compiles as jq is one of its expressions (other
/// strings, such as names and phases, do not compile and are left out).
fn strings(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// The words of an expression (its keys, mostly).
fn words(source: &str) -> Vec<String> {
    let words: BTreeSet<String> = source
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    words.into_iter().collect()
}

/// Leaves: every kind of value a step can meet, and numbers jaq converts.
fn leaf(rng: &mut Rng) -> Value {
    let leaves = [
        Value::Null,
        json!(true),
        json!(false),
        json!(0),
        json!(-7),
        json!(1.5),
        json!(2.0),
        json!(1e300),
        json!(u64::MAX),
        json!(9_007_199_254_740_993_i64),
        json!(i64::MIN),
        json!(""),
        json!("text"),
        json!("é"),
        json!([]),
        json!({}),
    ];
    rng.pick(&leaves).clone()
}

/// A value of at most `depth` levels whose objects have keys from `keys`.
fn value(rng: &mut Rng, keys: &[String], depth: usize) -> Value {
    if depth == 0 || rng.below(5) == 0 {
        return leaf(rng);
    }
    if rng.below(3) == 0 {
        let n = rng.below(4);
        Value::Array((0..n).map(|_| value(rng, keys, depth - 1)).collect())
    } else {
        let n = 1 + rng.below(2);
        let mut o = Map::new();
        for _ in 0..n {
            let k = rng.pick(keys).clone();
            o.insert(k, value(rng, keys, depth - 1));
        }
        Value::Object(o)
    }
}

/// The catalog's and upstream's definitions and the objects to read with them.
fn corpus() -> (Vec<(String, Value)>, Vec<Value>) {
    let mut definitions = Vec::new();
    let mut objects = Vec::new();
    let catalog = common::repo().join("catalog");
    let mut entries: Vec<_> = std::fs::read_dir(&catalog)
        .expect("catalog")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("definition.yaml").is_file())
        .collect();
    entries.sort();
    for entry in &entries {
        let file = entry.join("definition.yaml");
        definitions.push((file.display().to_string(), common::read_yaml(&file)));
        for case in common::yaml_files(&entry.join("tests")) {
            let case = common::read_yaml(&case);
            objects.extend(case.get("object").cloned());
            for related in case["related"].as_array().into_iter().flatten() {
                objects.push(related.clone());
            }
        }
    }
    if let Some(dir) = common::conformance_dir() {
        for file in common::yaml_files_under(&dir.join("definitions")) {
            definitions.push((file.display().to_string(), common::read_yaml(&file)));
        }
        for file in common::yaml_files_under(&dir.join("recordings")) {
            objects.extend(common::recorded_events(&file).into_iter().map(|e| e.object));
        }
        assert!(
            objects.len() > 100,
            "the corpus holds {} objects",
            objects.len()
        );
    }
    (definitions, objects)
}

/// Every string of `definitions` (their expressions among them), once each.
fn strings_of(definitions: &[(String, Value)]) -> Vec<String> {
    let mut sources = BTreeSet::new();
    for (_, definition) in definitions {
        strings(definition, &mut sources);
    }
    sources.into_iter().collect()
}

#[test]
fn definitions_plain_paths_equal_jaq_on_the_corpus_and_generated_values() {
    let (definitions, objects) = corpus();
    let sources = strings_of(&definitions);
    let mut failures = Vec::new();
    let (fast, mut compared) = differential(&sources, &objects, &mut failures);
    // Values built along each expression's own names, so its steps meet every kind of value.
    let mut rng = Rng(0x005e_ed0f_fa57);
    for source in &sources {
        let keys = words(source);
        if keys.is_empty() {
            continue;
        }
        let values: Vec<Value> = (0..40).map(|_| value(&mut rng, &keys, 8)).collect();
        let (_, n) = differential(std::slice::from_ref(source), &values, &mut failures);
        compared += n;
    }
    println!(
        "{} definitions, {} objects: {fast} plain paths of {} strings, {compared} evaluations compared",
        definitions.len(),
        objects.len(),
        sources.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The catalog alone has well over a hundred distinct plain paths.
    assert!(fast >= 100, "only {fast} plain paths found");
}

/// One random plain path.
fn path(rng: &mut Rng, keys: &[&str]) -> String {
    let mut out = String::new();
    for _ in 0..1 + rng.below(5) {
        match rng.below(6) {
            0 | 1 => {
                let k = *rng.pick(keys);
                let plain = k.chars().all(|c| c.is_ascii_alphabetic() || c == '_') && !k.is_empty();
                match (plain, rng.below(3)) {
                    (true, 0) => out.push_str(&format!(".{k}")),
                    (_, 1) => out.push_str(&format!(".[{}]", Value::from(k))),
                    _ => out.push_str(&format!(".{}", Value::from(k))),
                }
            }
            2 | 3 => out.push_str(&format!(".[{}]", rng.below(7) as i64 - 3)),
            _ => out.push_str(".[]"),
        }
        if rng.below(3) == 0 {
            out.push('?');
        }
    }
    // `.[0]` after a part is written `[0]` as well; both parse the same.
    if rng.below(2) == 0 {
        out = out
            .replace("].[", "][")
            .replace(".[", "[")
            .replacen('[', ".[", 1);
        if !out.starts_with('.') {
            out.insert(0, '.');
        }
    }
    out
}

#[test]
fn fuzzed_plain_paths_equal_jaq() {
    let keys = ["a", "b", "spec", "x y", "é", "", "a\"b"];
    let owned: Vec<String> = keys.iter().map(|k| (*k).to_owned()).collect();
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut sources: Vec<String> = (0..2000).map(|_| path(&mut rng, &keys)).collect();
    sources.push(".".into());
    let values: Vec<Value> = (0..30).map(|_| value(&mut rng, &owned, 5)).collect();
    let mut failures = Vec::new();
    let mut fast = 0;
    let mut compared = 0;
    for chunk in sources.chunks(250) {
        let (f, n) = differential(chunk, &values, &mut failures);
        fast += f;
        compared += n;
    }
    println!("{fast} fuzzed plain paths, {compared} evaluations compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        fast >= 1900,
        "only {fast} of {} were plain paths",
        sources.len()
    );
}

#[test]
fn results_past_the_cap_the_budget_and_errors_equal_jaq() {
    let many = Value::Array((0..1500).map(|i| json!({"a": i})).collect());
    let nested = json!([[1, 2], [3, "x"], null, {"a": [5]}]);
    let sources: Vec<String> = [
        ".[]",
        ".[].a",
        ".[]?.a?",
        ".[][]",
        ".[][]?",
        ".[].a[]",
        ".[].a[]?",
        ".[-1]",
        ".[3].a[0]",
        ".[1][1].a",
        ".[1][1].a?",
        ".a",
        ".a?",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    // Outputs past the walk budget: deeper than jaq's value depth, larger than its output.
    let deep = (0..260).fold(json!(1), |v, _| json!({"a": [v]}));
    let wide = json!({"a": vec![json!([1, 2]); 300_000]});
    let values = [many, nested, deep, wide];
    let mut failures = Vec::new();
    let (fast, compared) = differential(&sources, &values, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        (fast, compared),
        (sources.len(), values.len() * sources.len())
    );
    // And the fast path gives the cap's error itself.
    let (set, ids) = compile(&[".[]".to_owned()]);
    let got = set.eval(ids[0].1, &Input::new(Value::Array(vec![json!(1); 1000])));
    assert_eq!(
        got.map_err(|e| e.code),
        Err(workload_map::diagnostic::codes::EXPR_TOO_MANY_RESULTS)
    );
}

/// Checks every expression of `sources` that reads only parts of its input (src/expr/jq/
/// project.rs): jaq on those parts equals jaq on the whole input, and so does the normal
/// evaluation. Returns how many such expressions there were and how many evaluations were
/// compared.
fn projected_differential(
    sources: &[String],
    values: &[Value],
    failures: &mut Vec<String>,
) -> (usize, usize) {
    compare_each(
        sources,
        values,
        failures,
        ExprSet::reads_part,
        |set, id, input| {
            let projected = set.eval_projected(id, input);
            let whole = set.eval_interpreted(id, input);
            let best = set.eval(id, input);
            (projected != whole || best != whole).then(|| {
                format!("  projected: {projected:?}\n  best:      {best:?}\n  whole:     {whole:?}")
            })
        },
    )
}

/// An object whose keys come from `keys`, with values built along them.
fn object(rng: &mut Rng, keys: &[String]) -> Value {
    let mut o = Map::new();
    for _ in 0..1 + rng.below(4) {
        o.insert(rng.pick(keys).clone(), value(rng, keys, 6));
    }
    Value::Object(o)
}

#[test]
fn definitions_on_the_parts_they_read_equal_jaq_on_the_whole_input() {
    let (definitions, objects) = corpus();
    let sources = strings_of(&definitions);
    let mut failures = Vec::new();
    let (parts, mut compared) = projected_differential(&sources, &objects, &mut failures);
    let mut rng = Rng(0x0b1e_c7ed_5ee0);
    for source in &sources {
        let keys = words(source);
        if keys.is_empty() {
            continue;
        }
        let values: Vec<Value> = (0..30).map(|_| object(&mut rng, &keys)).collect();
        let (_, n) = projected_differential(std::slice::from_ref(source), &values, &mut failures);
        compared += n;
    }
    println!(
        "{} definitions, {} objects: {parts} expressions read parts of their input, {compared} evaluations compared",
        definitions.len(),
        objects.len(),
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Status expressions of the catalog alone: dozens.
    assert!(
        parts >= 30,
        "only {parts} expressions read parts of their input"
    );
}

/// Each rule of the analysis (src/expr/jq/project.rs), against values built along the
/// expression's names: what it reads, and what makes it read everything. (`..`, assignments,
/// `paths` and `$__loc__` are refused in definitions, as upstream refuses them; the analysis's
/// unit tests cover them.)
#[test]
fn each_rule_of_the_projection_keeps_jaqs_answer() {
    let sources = [
        // Read parts.
        ".a.b == 1 and .c",
        ".a[]?.b",
        ".a | keys",
        ".a | [.[]?] | length",
        "(.a // {}).b",
        ".a[.b]",
        ".a[.b:.c]",
        "{b: .a, c}",
        "{\"a\"}",
        "\"x\\(.a)y\"",
        "[.a, .b] | length",
        "-.a",
        ".a as $x | .b | [$x, .]",
        ".a as [$x, $y] | $y",
        "reduce .a[]? as $x (0; . + 1)",
        "foreach .a[]? as $x (0; . + 1; [$x, .])",
        "try .a.b catch .",
        "if .a then .b elif .c then 1 else .d end",
        "all(.a[]?; .b)",
        "isempty(.a[]?)",
        "first(.a, .b)",
        "last(.a[]?)",
        "limit(1; .a[]?)",
        "label $out | .a | ., break $out",
        "def f: .a; f",
        "def f(g): g | .x; f(.b)",
        "def f($v): $v; f(.a)",
        "def keys: .a; keys",
        ".a?.b?",
        ".[\"a\"].b",
        ".\"a\"",
        "(.a | not)",
        ".a, .a.b, .a.c",
        ".a == .b",
        "[.a[]? | select(.b == 1)] | length",
        "(.a.b // []) as $l | $l | length",
        ".a | to_entries",
        "[.a.b, .a] | tojson",
        // Below a walk: what the right side of the pipe reads, at that place.
        ".a[] | .b",
        ".a[]? | (.b // 1) * (.c | [(.d // 1), (.e // .d // 1)] | min)",
        ".a | .b | keys",
        ".a.b, (.a[] | .c)",
        "(.a[]? | .b), .a.c",
        ".a[]? | .b[]? | .c",
        ".a[]? | {x: .b}",
        "[.a[]? | .b] | length",
        ".a[]? | .b?",
        ".a | .b as $x | .c | [$x, .]",
        ".a[]? | select(.b)",
        ".a | .[0]",
        ".a | if .b then 1 end",
        ".a[]? | tojson",
        "def f: .x; .a | f",
        ".a | def f: .x; f",
        ".a | . as $x | .b",
        ".a[]? | all(.b[]?; .c)",
        ".a | reduce .b[]? as $x (0; . + 1)",
        "[.[] | .a]",
        "[path(.a[]?.b)]",
        "[path(.a[]?.b.c)]",
        "[path(.a | .b[])]",
        "(try [path(.a[].b)] catch null), .a",
        "try [path(.a[]? | (.b // 1) * 2)] catch null",
        "[path(.a[]? | .b, .c)]",
        "[path(if .a then .b else .c[]? end)]",
        // Read everything (some only because the analysis over-approximates: a pattern
        // taking `.` apart, `error/1`, a condition on `.` itself).
        ". as {a: $x} | $x",
        "try error(\"x\") catch .",
        "any(.a[]?; . == 1)",
        ".",
        "keys",
        "length",
        "select(.a)",
        "if .a then 1 end",
        ".[0]",
        ".[]",
        "@json",
        "@json \"x\\(.a)\"",
        ". as $x | $x.a",
        "{\"\\(.a)\"}",
        "tojson",
        "def f: .; f",
        "reduce .a[]? as $x (.; . + 1)",
        "has(\"a\")",
        "to_entries",
        "getpath([\"a\"])",
        "map(.a)",
        "not",
        "error",
        ".a and .",
    ];
    let sources: Vec<String> = sources.iter().map(|s| (*s).to_owned()).collect();
    let (set, ids) = compile(&sources);
    let missing: Vec<&String> = (0..sources.len())
        .filter(|i| !ids.iter().any(|(j, _)| j == i))
        .map(|i| &sources[i])
        .collect();
    assert!(missing.is_empty(), "do not compile: {missing:?}");
    // The first 65 read parts of their input, the others all of it.
    let wrong: Vec<&String> = ids
        .iter()
        .filter(|(i, id)| set.reads_part(*id) != (*i < 65))
        .map(|(i, _)| &sources[*i])
        .collect();
    assert!(wrong.is_empty(), "judged wrongly: {wrong:?}");
    let mut failures = Vec::new();
    let mut rng = Rng(0x0123_4567_89ab);
    let mut compared = 0;
    for source in &sources {
        let mut keys = words(source);
        keys.extend(["a", "b", "c", "d", "x"].map(String::from));
        let values: Vec<Value> = (0..200).map(|_| object(&mut rng, &keys)).collect();
        let (_, n) = projected_differential(std::slice::from_ref(source), &values, &mut failures);
        compared += n;
    }
    assert!(compared >= 65 * 200, "{compared} evaluations compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

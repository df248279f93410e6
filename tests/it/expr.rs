//! Expression engine behaviour: gojq semantics through jaq, upstream's static rules, budgets.

use std::time::Instant;

use crate::common;

use serde_json::{json, Value};
use workload_map::diagnostic::TextRange;
use workload_map::expr::{ExprError, ExprSetBuilder, Input, Language};

fn run(language: Language, expr: &str, input: Value) -> Result<Vec<Value>, Vec<ExprError>> {
    let mut builder = ExprSetBuilder::new();
    let id = builder.add(language, expr)?;
    let (set, late) = builder.finish();
    if let Some((_, errs)) = late.into_iter().next() {
        return Err(errs);
    }
    set.eval(id, &Input::new(input)).map_err(|e| vec![e])
}

/// `expr` on `input` gives exactly `outputs`.
fn gives(expr: &str, input: Value, outputs: Value) {
    let got = run(Language::Jq, expr, input);
    assert_eq!(got.map(Value::Array), Ok(outputs), "{expr}");
}

/// `expr` on `input` fails with `code`, its message containing `part`.
fn fails(expr: &str, input: Value, code: &str, part: &str) {
    let start = Instant::now();
    let got = run(Language::Jq, expr, input);
    let elapsed = start.elapsed();
    println!("{expr}: {elapsed:?}");
    let errs = got.expect_err(expr);
    let e = errs.first().expect("at least one error");
    assert_eq!(e.code, code, "{expr}: {e:?}");
    assert!(
        e.message.contains(part),
        "{expr}: {:?} lacks {part:?}",
        e.message
    );
}

/// `expr` is rejected when added, with exactly these `(code, message, range)` errors.
fn rejects(expr: &str, expected: &[(&str, &str, (u32, u32))]) {
    let mut builder = ExprSetBuilder::new();
    let errs = builder.add(Language::Jq, expr).expect_err(expr);
    let got: Vec<_> = errs
        .iter()
        .map(|e| {
            (
                e.code,
                e.message.as_str(),
                e.range.map(|r| (r.start, r.end)),
            )
        })
        .collect();
    let want: Vec<_> = expected
        .iter()
        .map(|(c, m, r)| (*c, *m, Some(*r)))
        .collect();
    assert_eq!(got, want, "{expr}");
}

/// `expr` is rejected when added with `code`, the first message containing `part`.
fn rejects_with(expr: &str, code: &str, part: &str) {
    let mut builder = ExprSetBuilder::new();
    let errs = builder.add(Language::Jq, expr).expect_err(expr);
    let e = errs.first().expect("at least one error");
    assert_eq!(e.code, code, "{expr}: {errs:?}");
    assert!(
        e.message.contains(part),
        "{expr}: {:?} lacks {part:?}",
        e.message
    );
}

fn cel_gives(expr: &str, input: Value, output: Value) {
    assert_eq!(run(Language::Cel, expr, input), Ok(vec![output]), "{expr}");
}

fn cel_fails(expr: &str, input: Value, code: &str) {
    let errs = run(Language::Cel, expr, input).expect_err(expr);
    assert_eq!(errs.first().map(|e| e.code), Some(code), "{expr}: {errs:?}");
}

const FORBIDDEN: &str = "expr/forbidden";
const BUDGET: &str = "expr/budget-exceeded";

#[test]
fn upstream_vectors() {
    gives(
        ".metadata.nonexistent",
        json!({"metadata": {}}),
        json!([null]),
    );
    gives(
        ".spec.containers[] | select(.name == \"x\")",
        json!({"spec": {"containers": [{"name": "y"}]}}),
        json!([]),
    );
    fails(
        ".spec.items[]",
        json!({"spec": {}}),
        "expr/runtime-error",
        "cannot iterate over: null",
    );
    gives(".spec.items[]?", json!({"spec": {}}), json!([]));
    gives(
        ".status.phase",
        json!({"status": {"phase": "Running"}}),
        json!(["Running"]),
    );
    gives("false, true", json!(null), json!([false, true]));
    gives(
        ".metadata.labels[\"x\"] // \"0\"",
        json!({"metadata": {"labels": {}}}),
        json!(["0"]),
    );
    gives(
        ".metadata.labels.role == \"worker\"",
        json!({"metadata": {"labels": {"role": "worker"}}}),
        json!([true]),
    );
}

#[test]
fn result_cap_is_an_error_at_one_thousand() {
    let arr = |n: usize| Value::Array((0..n).map(|i| json!(i)).collect());
    gives(".[] | select(. == 998)", arr(999), json!([998]));
    assert_eq!(run(Language::Jq, ".[]", arr(999)).map(|v| v.len()), Ok(999));
    fails(
        ".[]",
        arr(1000),
        "expr/too-many-results",
        "query results exceed the allowed number 1000",
    );
}

#[test]
fn catalog_features_work() {
    let job = json!({"spec": {"parallelism": 2}, "status": {"active": 1, "ready": 0, "failed": 1}});
    gives(
        "(.status.active // 0) > 0 and (.status.ready // 0) == 0",
        job.clone(),
        json!([true]),
    );
    gives(".spec.parallelism > 1 and (.status.ready // 0) < .spec.parallelism and ((.status.succeeded // 0) > 0 or (.status.failed // 0) > 0)", job.clone(), json!([true]));
    gives(
        "(.spec.suspend // false) != true and (.status.lastScheduleTime == null)",
        job.clone(),
        json!([true]),
    );
    gives(
        ".status.active >= 1, .status.active <= 0, .status.ready < 1",
        job.clone(),
        json!([true, false, true]),
    );
    gives(
        "(.status.jobs // []) | any(.active > 0 and (.ready // 0) == 0) and all(.failed == 0)",
        json!({"status": {"jobs": [{"active": 1, "failed": 0}]}}),
        json!([true]),
    );
    gives(
        "any(.status.conditions // [] | .[]; .type == \"Ready\" and .status == \"False\")",
        json!({"status": {"conditions": [{"type": "Ready", "status": "False"}]}}),
        json!([true]),
    );
    gives(
        ".spec.suspend == true and (.status.state == \"suspended\" or (.status.state | not))",
        json!({"spec": {"suspend": true}}),
        json!([true]),
    );
    gives(
        "([(.status.conditions // [])[] | select(.type == \"Suspended\")] | length) == 0",
        json!({}),
        json!([true]),
    );
    gives(
        ".a | length, (to_entries | .[0].key), type",
        json!({"a": {"k": 1}}),
        json!([1, "k", "object"]),
    );
    gives(".[] | tonumber", json!(["3", 4, "1.5"]), json!([3, 4, 1.5]));
    gives("[.[] | tonumber?]", json!(["3", "x"]), json!([[3]]));
    gives(
        ".[] | tostring",
        json!(["a", 1, null, {"a": [1]}]),
        json!(["a", "1", "null", "{\"a\":[1]}"]),
    );
    gives("ascii_downcase", json!("AbC"), json!(["abc"]));
    gives(
        "if . > 1 then \"big\" elif . == 1 then \"one\" else \"small\" end",
        json!(1),
        json!(["one"]),
    );
    gives(
        "[.a, .b][0], {requests: .a}",
        json!({"a": 1, "b": 2}),
        json!([1, {"requests": 1}]),
    );
    gives(
        ".[\"nvidia.com/gpu\"], .[\"a.b\"]",
        json!({"nvidia.com/gpu": 8, "a.b": 1}),
        json!([8, 1]),
    );
    gives(".", json!({"x": [1]}), json!([{"x": [1]}]));
    gives("1", json!(null), json!([1]));
    gives(". as $x | $x.a", json!({"a": 5}), json!([5]));
    gives(
        "[limit(2; .[])], first(.[]), [.[] | . * 2]",
        json!([1, 2, 3]),
        json!([[1, 2], 1, [2, 4, 6]]),
    );
    gives(
        "map(. + 1), add, (map(tostring) | join(\"-\"))",
        json!([1, 2]),
        json!([[2, 3], 3, "1-2"]),
    );
    gives(
        "test(\"^a.c$\"), split(\"b\"), startswith(\"ab\"), ltrimstr(\"a\")",
        json!("abc"),
        json!([true, ["a", "c"], true, "bc"]),
    );
    gives(
        "keys, has(\"a\"), has(\"z\")",
        json!({"b": 1, "a": 2}),
        json!([["a", "b"], true, false]),
    );
    gives(
        "fromjson | .a, (. | tojson)",
        json!("{\"a\":1}"),
        json!([1, "{\"a\":1}"]),
    );
    gives("\"x\\(.a)y\"", json!({"a": [1]}), json!(["x[1]y"]));
    gives(
        ".a / 2, .a * 1.5, 10 / 4",
        json!({"a": 3}),
        json!([1.5, 4.5, 2.5]),
    );
    gives(
        "\"ab\" * 2, \"a\" + \"b\", [1] + [2]",
        json!(null),
        json!(["abab", "ab", [1, 2]]),
    );
    gives("try error(\"boom\") catch .", json!(null), json!(["boom"]));
    fails("error(\"boom\")", json!(null), "expr/runtime-error", "boom");
}

#[test]
fn objects_iterate_in_sorted_key_order() {
    gives(
        "keys, to_entries[0].key, [.[]]",
        json!({"b": 1, "a": 2}),
        json!([["a", "b"], "a", [2, 1]]),
    );
}

#[test]
fn forbidden_constructs_are_rejected_with_ranges() {
    rejects(
        "del(.a)",
        &[(FORBIDDEN, "del function is not allowed", (0, 3))],
    );
    for f in ["range", "paths", "recurse", "walk", "repeat"] {
        let expr = format!(". | {f}(1)");
        let message = format!("function '{f}' may produce excessive output and is not allowed");
        rejects(&expr, &[(FORBIDDEN, &message, (4, 4 + f.len() as u32))]);
    }
    rejects(
        "[..]",
        &[(
            FORBIDDEN,
            "recursive descent operator '..' is not allowed",
            (1, 3),
        )],
    );
    for op in ["=", "|=", "+=", "-=", "*=", "/=", "%=", "//="] {
        let expr = format!(".a {op} 1");
        let message = format!("modifying operator '{op}' is not allowed");
        rejects(&expr, &[(FORBIDDEN, &message, (3, 3 + op.len() as u32))]);
    }
    // Everywhere: def bodies, branches, folds, constructors, interpolation, bounds, arguments.
    rejects(
        "def f: del(.x); if . then {a: [recurse]} else \"\\(paths)\" end | .[range(1):] | reduce walk(.) as $x (.; .a = 1)",
        &[
            (FORBIDDEN, "del function is not allowed", (7, 10)),
            (FORBIDDEN, "function 'recurse' may produce excessive output and is not allowed", (31, 38)),
            (FORBIDDEN, "function 'paths' may produce excessive output and is not allowed", (49, 54)),
            (FORBIDDEN, "function 'range' may produce excessive output and is not allowed", (65, 70)),
            (FORBIDDEN, "function 'walk' may produce excessive output and is not allowed", (85, 89)),
            (FORBIDDEN, "modifying operator '=' is not allowed", (106, 107)),
        ],
    );
}

#[test]
fn syntax_and_compile_errors_are_reported_at_add() {
    rejects_with(".a |", "expr/syntax", "expected");
    rejects_with("(.a", "expr/syntax", "");
    rejects_with("\"abc", "expr/syntax", "");
    rejects_with("nosuchfn(1)", "expr/compile", "nosuchfn/1");
    rejects_with("$nope", "expr/compile", "$nope");
    rejects_with("map", "expr/compile", "map/0");
}

#[test]
fn oversized_or_deep_expressions_are_too_complex() {
    rejects_with(&"[".repeat(101), "expr/too-complex", "nests deeper");
    rejects_with(
        &format!("{}1{}", "(".repeat(150), ")".repeat(150)),
        "expr/too-complex",
        "",
    );
    rejects_with(&" ".repeat(17 * 1024), "expr/too-complex", "longer");
    rejects_with(&format!("{}1", "- ".repeat(400)), "expr/too-complex", "");
    rejects_with(&format!(".{}", "|.".repeat(400)), "expr/too-complex", "");
    rejects_with(
        &format!("{}.", ". as $x | ".repeat(300)),
        "expr/too-complex",
        "",
    );
    rejects_with(
        &format!("{}1{}", "try ".repeat(300), ""),
        "expr/too-complex",
        "",
    );
    rejects_with(
        &format!("\"{}\"", "\\(\"".repeat(120)),
        "expr/too-complex",
        "",
    );
    gives(
        &format!("{}1{}", "[".repeat(60), "]".repeat(60)),
        json!(null),
        json!([json!(1)])
            .as_array()
            .map(|_| {
                let mut v = json!(1);
                for _ in 0..60 {
                    v = json!([v]);
                }
                json!([v])
            })
            .unwrap_or_default(),
    );
}

/// Runs `f` on a thread with a 1 MiB stack, as much as a browser gives wasm.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(f)
        .map(|h| h.join())
        .expect("spawn")
        .expect("no panic");
}

#[test]
fn runaway_expressions_end_with_a_budget_error() {
    on_small_stack(|| {
        fails("def f: f + 1; f", json!(0), BUDGET, "");
        fails("def f: ., f; [f]", json!(0), BUDGET, "");
        fails(
            "[limit(100000000; def r: ., (.+1|r); 0|r)] | length",
            json!(0),
            BUDGET,
            "",
        );
        fails("0 | until(false; .+1)", json!(0), BUDGET, "");
        fails("\"x\" * 100000000", json!(0), BUDGET, "");
        fails(
            &format!("{}tostring", "[.,.] | ".repeat(40)),
            json!(0),
            BUDGET,
            "",
        );
        fails(
            &format!("{}tojson", "[.,.] | ".repeat(40)),
            json!(0),
            BUDGET,
            "",
        );
        fails(
            &format!("\"\\({})\"", "[.,.] | ".repeat(40) + "."),
            json!(0),
            BUDGET,
            "",
        );
        fails(
            &format!("{}length", ". + . | ".repeat(40)),
            json!("xx"),
            BUDGET,
            "",
        );
        fails(
            &format!("{}length", ". + . | ".repeat(40)),
            json!([1]),
            BUDGET,
            "",
        );
        let products = "reduce (1,2,3,4,5,6,7,8,9,10) as $a (0; ".repeat(8) + "." + &")".repeat(8);
        fails(&products, json!(0), BUDGET, "");
        fails("def f: try f catch f; f", json!(0), BUDGET, "");
        fails("def f: (f, f); [f?]", json!(0), BUDGET, "");
        fails("[def f: ., (.+1 | f); f] | length", json!(0), BUDGET, "");
        fails("last(def f: ., (.+1 | f); f)", json!(0), BUDGET, "");
        fails("0 | [until(false; [.])]", json!(0), BUDGET, "");
    });
}

#[test]
fn budget_is_per_evaluation_and_real_expressions_fit() {
    let mut builder = ExprSetBuilder::new();
    let a = builder
        .add(Language::Jq, "[.items[] | select(.ready) | .name] | length")
        .expect("compiles");
    let b = builder.add(Language::Jq, "def f: f; f").expect("compiles");
    let (set, late) = builder.finish();
    assert!(late.is_empty(), "{late:?}");
    let items: Vec<Value> = (0..5000)
        .map(|i| json!({"name": format!("p{i}"), "ready": i % 2 == 0}))
        .collect();
    let input = Input::new(json!({"items": items}));
    assert_eq!(set.eval(b, &input).map_err(|e| e.code), Err(BUDGET));
    for _ in 0..3 {
        assert_eq!(set.eval(a, &input), Ok(vec![json!(2500)]));
    }
}

#[test]
fn side_effect_functions_fail_or_are_silent() {
    fails("now", json!(null), "expr/runtime-error", "not available");
    fails("env", json!(null), "expr/runtime-error", "not available");
    fails("halt", json!(null), "expr/runtime-error", "not available");
    fails("halt_error", json!(null), "expr/runtime-error", "");
    rejects_with("$ENV", "expr/compile", "$ENV");
    gives("debug, stderr", json!(1), json!([1, 1]));
}

#[test]
fn numbers_behave_as_float64_and_print_as_gojq() {
    gives(
        ".a + 1, .b * 2, 3.0, 1e3",
        json!({"a": 2, "b": 1.5}),
        json!([3, 3, 3, 1000]),
    );
    gives("\"1\" | tonumber", json!(null), json!([1]));
}

#[test]
fn many_expressions_share_one_program() {
    let mut builder = ExprSetBuilder::new();
    let start = Instant::now();
    let ids: Vec<_> = (0..40)
        .map(|i| {
            builder
                .add(Language::Jq, &format!(".a + {i}"))
                .expect("compiles")
        })
        .collect();
    let added = start.elapsed();
    let (set, late) = builder.finish();
    assert!(late.is_empty(), "{late:?}");
    let finished = start.elapsed() - added;
    let input = Input::new(json!({"a": 1}));
    let start = Instant::now();
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(set.eval(*id, &input), Ok(vec![json!(1 + i)]));
    }
    println!(
        "add 40: {added:?}, finish: {finished:?}, 40 evals: {:?}",
        start.elapsed()
    );
}

#[test]
fn cel_basics() {
    let obj = json!({"status": {"ready": 2, "phase": "Running"}, "spec": {"replicas": 2}});
    cel_gives(
        "object.status.ready == object.spec.replicas",
        obj.clone(),
        json!(true),
    );
    cel_gives("object.status.phase", obj.clone(), json!("Running"));
    cel_gives("object.status.ready + 1", obj.clone(), json!(3));
    cel_gives(
        "[1, 2.5, 'a', null]",
        obj.clone(),
        json!([1, 2.5, "a", null]),
    );
    cel_gives("{'a': 1}", obj.clone(), json!({"a": 1}));
    cel_gives(
        "has(object.spec.replicas) && !has(object.spec.suspend)",
        obj.clone(),
        json!(true),
    );
    cel_fails("object.status.ready +", obj.clone(), "expr/syntax");
    cel_fails("object.nope.deeper", obj.clone(), "expr/runtime-error");
    cel_fails(&"(".repeat(150), obj, "expr/too-complex");
}

#[test]
fn error_ranges_point_into_the_expression() {
    let mut builder = ExprSetBuilder::new();
    let errs = builder
        .add(Language::Jq, ".a | nosuch")
        .expect_err("undefined");
    assert_eq!(
        errs.first().and_then(|e| e.range),
        Some(TextRange::new(5, 11))
    );
}

#[test]
fn one_undefined_function_does_not_affect_the_others() {
    let mut builder = ExprSetBuilder::new();
    let a = builder.add(Language::Jq, ".a + 1").expect("compiles");
    let bad = builder.add(Language::Jq, ".a | nosuch(1)");
    let c = builder
        .add(Language::Jq, "[.a, .a] | length")
        .expect("compiles");
    let (set, late) = builder.finish();
    let errs = bad.expect_err("undefined function");
    assert_eq!(
        errs.iter()
            .map(|e| (e.code, e.message.as_str(), e.range))
            .collect::<Vec<_>>(),
        vec![(
            "expr/compile",
            "nosuch/1 is not defined",
            Some(TextRange::new(5, 11))
        )]
    );
    assert!(late.is_empty(), "{late:?}");
    let input = Input::new(json!({"a": 1}));
    assert_eq!(set.eval(a, &input), Ok(vec![json!(2)]));
    assert_eq!(set.eval(c, &input), Ok(vec![json!(2)]));
}

#[test]
fn undefined_names_are_found_when_added() {
    rejects(
        "def f(a): a; f",
        &[("expr/compile", "f/0 is not defined", (13, 14))],
    );
    rejects(
        "(1 as $x | 2) | $x",
        &[("expr/compile", "variable $x is not defined", (16, 18))],
    );
    rejects(
        "break $out",
        &[("expr/compile", "label $out is not defined", (6, 10))],
    );
    rejects(
        "reduce .[] as $x (0)",
        &[("expr/compile", "reduce/1 is not defined", (0, 6))],
    );
    gives(
        "def f(g; $n): [g, $n]; . as [$a, {b: $c}] | f($a; $c)",
        json!([1, {"b": 2}]),
        json!([[1, 2]]),
    );
    gives("label $out | 1, break $out", json!(null), json!([1]));
}

#[test]
fn reserved_names_cannot_switch_metering_off() {
    rejects_with(
        "def _wm_fuel(f): f; def r: r; r",
        "expr/compile",
        "reserved",
    );
    rejects_with("_wm_fuel(.)", "expr/compile", "_wm_fuel/1 is not defined");
    rejects_with("$__wm", "expr/compile", "$__wm");
}

/// A string of `n` letters, so `explode[]` gives `n` items to fold over.
fn letters(n: usize) -> Value {
    json!(["a".repeat(n)])
}

#[test]
fn folds_over_many_items_fit_the_depth_budget() {
    let chars = "(.[] | explode[])";
    gives(
        &format!("reduce {chars} as $x (0; . + 1)"),
        letters(5000),
        json!([5000]),
    );
    gives(
        &format!("[foreach {chars} as $x (0; . + 1)] | length"),
        letters(5000),
        json!([5000]),
    );
    gives(
        &format!("[foreach {chars} as $x (0; . + 1; [$x])] | length"),
        letters(5000),
        json!([5000]),
    );
}

#[test]
fn deep_values_end_with_a_budget_error() {
    on_small_stack(|| {
        let chars = "(.[] | explode[])";
        let deep = |update: &str| format!("reduce {chars} as $x (null; {update})");
        fails(&deep("[.]"), letters(5000), BUDGET, "deeper");
        fails(&deep("{a: .}"), letters(5000), BUDGET, "deeper");
        fails(&deep("[.] | [.]"), letters(5000), BUDGET, "deeper");
        fails(
            &format!("{} | length", deep("[.]")),
            letters(5000),
            BUDGET,
            "deeper",
        );
        fails(
            &format!("reduce {chars} as $x ([1]; group_by(.))"),
            letters(5000),
            BUDGET,
            "deeper",
        );
        fails(
            &format!("reduce {chars} as $x ({{}}; {{a: .}} | to_entries)"),
            letters(5000),
            BUDGET,
            "deeper",
        );
        fails("\"[\" * 100000 | fromjson", json!(null), BUDGET, "deeper");
        // Nesting well below the cap still works, all the way out to JSON.
        gives(
            &format!("{} | tojson | length", deep("[.]")),
            letters(500),
            json!([1004]),
        );
        gives(
            &format!("[{}] | length", deep("[.]")),
            letters(500),
            json!([1]),
        );
        gives(
            "\"[\" * 400 + \"]\" * 400 | fromjson | tojson | length",
            json!(null),
            json!([800]),
        );
    });
}

#[test]
fn walks_of_values_built_by_doubling_end_with_a_budget_error() {
    on_small_stack(|| {
        let doubled = |then: &str| format!("{}{then}", "[.,.] | ".repeat(40));
        for then in [
            "length",
            ". == .",
            "sort",
            "contains(.)",
            "flatten",
            "unique",
        ] {
            fails(&doubled(then), json!(0), BUDGET, "");
        }
        // Doubling by `+` shares elements without constructing anything.
        let added = |then: &str| {
            format!(
                "[{}] as $x | [$x] | {}{then}",
                "(.[] | explode[])",
                ". + . | ".repeat(18)
            )
        };
        for then in [
            ". == .",
            "sort",
            "contains(.)",
            "flatten | length",
            "unique",
            ".",
        ] {
            fails(&added(then), letters(50000), BUDGET, "");
        }
        gives(&added("length"), letters(50000), json!([262144]));
    });
}

#[test]
fn constructed_objects_iterate_in_key_order_as_gojq() {
    gives(
        "{b: 1, a: 2, c: 3} | keys_unsorted",
        json!(null),
        json!([["a", "b", "c"]]),
    );
    gives("{b: 1, a: 2} | [.[]]", json!(null), json!([[2, 1]]));
    gives(
        "{b: 1} + {a: 2} | to_entries | map(.key)",
        json!(null),
        json!([["a", "b"]]),
    );
    gives(
        "[{key: \"z\", value: 1}, {key: \"y\", value: 2}] | from_entries | tojson",
        json!(null),
        json!(["{\"y\":2,\"z\":1}"]),
    );
}

/// `expr` on `input` fails with a budget error: the budget, not the clock, is what stopped it
/// (the clock only guards against a hang).
fn cel_runs_out(expr: &str, input: Value) {
    let start = Instant::now();
    cel_fails(expr, input, BUDGET);
    let elapsed = start.elapsed();
    println!("{expr}: {elapsed:?}");
    common::assert_no_hang(elapsed, expr);
}

/// `expr` is rejected when added as too complex, with a range inside it.
fn cel_too_complex(expr: &str, part: &str) {
    let mut builder = ExprSetBuilder::new();
    let errs = builder.add(Language::Cel, expr).expect_err(expr);
    let e = errs.first().expect("at least one error");
    assert_eq!(e.code, "expr/too-complex", "{expr}: {errs:?}");
    assert!(e.message.contains(part), "{expr}: {:?}", e.message);
    let range = e.range.expect("located");
    assert!(
        range.end as usize <= expr.len() && range.start < range.end,
        "{range:?}"
    );
}

#[test]
fn cel_macros_and_functions_keep_their_results_when_metered() {
    on_small_stack(|| {
        let obj = json!({"status": {"conditions": [
            {"type": "Ready", "status": "True"}, {"type": "Failed", "status": "False"}]},
            "spec": {"replicas": 3, "name": "abc"}});
        let cases = [
            ("object.status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')", json!(true)),
            ("object.status.conditions.all(c, c.status == 'True')", json!(false)),
            ("object.status.conditions.exists_one(c, c.status == 'False')", json!(true)),
            ("object.status.conditions.map(c, c.type)", json!(["Ready", "Failed"])),
            ("object.status.conditions.filter(c, c.status == 'True').map(c, c.type)", json!(["Ready"])),
            ("object.status.conditions.map(c, c.status == 'True', c.type + '!')", json!(["Ready!"])),
            ("[1, 2, 3].map(x, [x, x * 2])", json!([[1, 2], [2, 4], [3, 6]])),
            ("size(object.status.conditions) + size(object.spec.name)", json!(5)),
            ("'Ready' in object.status.conditions.map(c, c.type)", json!(true)),
            ("'replicas' in object.spec", json!(true)),
            ("object.spec.name.startsWith('a') && object.spec.name.endsWith('c') && object.spec.name.contains('b')", json!(true)),
            ("object.spec.replicas > 2 ? 'many' : 'few'", json!("many")),
            ("string(object.spec.replicas) + '/' + string(size(object.status.conditions))", json!("3/2")),
            ("{'a': object.spec.replicas, 'b': [object.spec.name]}", json!({"a": 3, "b": ["abc"]})),
            ("[1, 2] + [3] == [1, 2, 3] && object.status.conditions[0].type == 'Ready'", json!(true)),
            ("has(object.spec.replicas) && !has(object.spec.suspend)", json!(true)),
            ("[1, 2].exists(x, x > 1) || object.nope", json!(true)),
        ];
        for (expr, want) in cases {
            cel_gives(expr, obj.clone(), want);
        }
        cel_fails("object.nope.deeper", obj.clone(), "expr/runtime-error");
        cel_fails("[1, 'a'].all(x, x > 0)", obj.clone(), "expr/runtime-error");
        cel_fails("size(1)", obj, "expr/runtime-error");
    });
}

#[test]
fn cel_nesting_and_operator_chains_are_too_complex_before_parsing() {
    on_small_stack(|| {
        for op in [" + 1", " * 1", " == 1", "[0]", ".a", " in [1]", " && true"] {
            cel_too_complex(&format!("1{}", op.repeat(201)), "operators");
        }
        cel_too_complex(
            &format!("{}1{}", "(".repeat(33), ")".repeat(33)),
            "nests deeper",
        );
        cel_too_complex(
            &format!("{}1{}", "[".repeat(33), "]".repeat(33)),
            "nests deeper",
        );
        cel_too_complex(&format!("{}1", "-".repeat(201)), "operators");
        cel_too_complex(&" ".repeat(17 * 1024), "longer");
    });
}

/// `expr` evaluates on a wasm-sized stack: to a value or a runtime error, never a budget or
/// complexity error.
fn cel_evaluates(expr: &str, input: Value) {
    let got = run(Language::Cel, expr, input);
    if let Err(errs) = &got {
        assert!(
            errs.iter().all(|e| e.code == "expr/runtime-error"),
            "{expr}: {errs:?}"
        );
    }
}

#[test]
fn cel_largest_accepted_expressions_evaluate_on_a_small_stack() {
    on_small_stack(|| {
        let input = json!({"a": {"a": 1}});
        cel_gives(
            &format!("1{} == 199", " + 1".repeat(198)),
            json!({}),
            json!(true),
        );
        cel_gives(
            &format!("1{} == 1", " * 1".repeat(198)),
            json!({}),
            json!(true),
        );
        cel_evaluates(&format!("[0]{}", "[0]".repeat(198)), json!({}));
        cel_evaluates(&format!("object{}", ".a".repeat(198)), input.clone());
        cel_evaluates(&format!("true{}", " == true".repeat(199)), json!({}));
        cel_evaluates(&format!("1{}", " in [1]".repeat(99)), json!({}));
        let deep = format!(
            "{}1{}{}",
            "(".repeat(32),
            " + 1".repeat(166),
            ")".repeat(32)
        );
        cel_gives(&format!("{deep} == 167"), json!({}), json!(true));
        cel_gives(
            &format!("{}1{}", "[".repeat(32), "]".repeat(32)),
            json!({}),
            (0..32).fold(json!(1), |v, _| json!([v])),
        );
        let maps = format!("{}x{}", "[1].map(x, ".repeat(32), ")".repeat(32));
        cel_gives(
            &maps,
            json!({}),
            (0..31).fold(json!([1]), |v, _| json!([v])),
        );
    });
}

#[test]
fn cel_runaway_expressions_end_with_a_budget_error() {
    on_small_stack(|| {
        // Nested comprehensions: 10 elements, 8 levels.
        let list = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
        let nested = format!("{}0{}", format!("{list}.map(x, ").repeat(8), ")".repeat(8));
        cel_runs_out(&format!("size({nested}) > 0"), json!({}));
        let exists = format!(
            "{}false{}",
            format!("{list}.exists(x, ").repeat(8),
            ")".repeat(8)
        );
        cel_runs_out(&exists, json!({}));
        let all = format!(
            "{}true{}",
            format!("{list}.all(x, ").repeat(8),
            ")".repeat(8)
        );
        cel_runs_out(&all, json!({}));
        // Errors absorbed by `||` and by `exists` do not keep a spent loop going.
        let absorbed = format!(
            "{}false{}",
            format!("{list}.exists(x, object.nope || ").repeat(8),
            ")".repeat(8)
        );
        cel_runs_out(&absorbed, json!({}));
        // Values doubled by literals, by `+` on strings and on lists.
        let doubled = |seed: &str, step: &str| {
            (0..30).fold(seed.to_owned(), |acc, i| {
                format!(
                    "[{acc}].map(a{i}, {})[0]",
                    step.replace('a', &format!("a{i}"))
                )
            })
        };
        cel_runs_out(&format!("size({})", doubled("[1]", "[a, a]")), json!({}));
        cel_runs_out(&format!("size({})", doubled("'xx'", "a + a")), json!({}));
        cel_runs_out(&format!("size({})", doubled("[1]", "a + a")), json!({}));
        // Comparing and copying a large input value over and over.
        let big: Vec<Value> = (0..5_000).map(|i| json!({"n": i})).collect();
        cel_runs_out(
            "object.items.all(i, object.items == object.items)",
            json!({"items": big.clone()}),
        );
        // Counting a large string's characters, or hashing it as a key, over and over.
        let long = "x".repeat(400_000);
        let text =
            json!({"big": long, "m": {long.clone(): 1}, "items": (0..2000).collect::<Vec<_>>()});
        cel_runs_out("object.items.all(i, size(object.big) > 0)", text.clone());
        cel_runs_out("object.items.all(i, object.m[object.big] > 0)", text);
        cel_runs_out(
            "object.items.map(i, object.items).size() > 0",
            json!({"items": big}),
        );
    });
}

#[test]
fn cel_budget_is_per_evaluation_and_real_expressions_fit() {
    let mut builder = ExprSetBuilder::new();
    let real = builder
        .add(
            Language::Cel,
            "object.items.filter(i, i.ready).map(i, i.name).size() == 2500 && object.items.exists(i, i.name == 'p4999')",
        )
        .expect("compiles");
    let runaway = builder
        .add(
            Language::Cel,
            "object.items.map(a, object.items.map(b, b)).size()",
        )
        .expect("compiles");
    let (set, late) = builder.finish();
    assert!(late.is_empty(), "{late:?}");
    let items: Vec<Value> = (0..5000)
        .map(|i| json!({"name": format!("p{i}"), "ready": i % 2 == 0}))
        .collect();
    let input = Input::new(json!({"items": items}));
    for _ in 0..3 {
        assert_eq!(set.eval(runaway, &input).map_err(|e| e.code), Err(BUDGET));
        assert_eq!(set.eval(real, &input), Ok(vec![json!(true)]));
    }
}

#[test]
fn interpolation_formats_joins_and_slices_keep_their_results() {
    gives(
        "@base64 \"x\\(.)y\", @html \"<\\(.)>\", @text \"\\(.)\", \"\\(.)\", \"a\\n\"",
        json!("<&>"),
        json!(["xPCY+y", "<&lt;&amp;&gt;>", "<&>", "<&>", "a\n"]),
    );
    gives(
        "join(\", \"), @sh, .[0:2], (tostring | .[1:3])",
        json!(["a", "b", "c"]),
        json!(["a, b, c", "'a' 'b' 'c'", ["a", "b"], "\"a"]),
    );
}

#[test]
fn checked_natives_and_slices_still_work_as_paths() {
    gives(
        "path(.a[0].b), path(.a[1:]), path(first(.a[])), pick(.c), getpath([\"c\"])",
        json!({"a": [{"b": 1}, 2], "c": 3}),
        json!([["a", 0, "b"], ["a", {"start": 1}], ["a", 0], {"c": 3}, 3]),
    );
    gives(
        ".a | map_values(. + 1), (to_entries | map(.key)), (with_entries({key, value: (.value | tostring)}) | .x)",
        json!({"a": {"x": 1, "y": 2}}),
        json!([{"x": 2, "y": 3}, ["x", "y"], "1"]),
    );
}

/// `reduce` over `n` items (1, 2, ..., n) with `update`, from `init`.
fn grows(init: &str, update: &str, n: usize) -> String {
    let items: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    format!(
        "reduce ({}) as $i ({init}; {update}) | length",
        items.join(",")
    )
}

#[test]
fn every_way_of_building_strings_and_arrays_is_budgeted() {
    on_small_stack(|| {
        // Interpolation doubles; formats and tojson grow by a factor per step.
        fails(
            &grows("\"x\"", "\"\\(.)\\(.)\"", 31),
            json!(null),
            BUDGET,
            "",
        );
        fails(
            &grows("\"x\"", "@text \"\\(.)\\(.)\"", 31),
            json!(null),
            BUDGET,
            "",
        );
        fails(&grows("\"xxxx\"", "@base64", 80), json!(null), BUDGET, "");
        // Each format, and tojson, checks what it builds from one input below the limit.
        for (repeated, format) in [
            ("&", "@html"),
            ("\u{e9}", "@uri"),
            ("'", "@sh"),
            ("xx", "@base64"),
            ("\\\"\\\"", "tojson"),
            ("\\\"\\\"", "@json"),
        ] {
            let expr = format!("\"{repeated}\" * 200000 | {format} | length");
            fails(&expr, json!(null), BUDGET, "larger");
        }
        fails(&grows("[1]", ". + .", 30), json!(null), BUDGET, "");
        fails(&grows("\"x\"", ". + .", 30), json!(null), BUDGET, "");
        fails(&grows("\"x\"", ". * 2", 30), json!(null), BUDGET, "");
        fails(
            &grows("\"x\"", "[., .] | join(.[0])", 30),
            json!(null),
            BUDGET,
            "",
        );
        fails(&grows("\"x\"", "[., .] | add", 30), json!(null), BUDGET, "");
        fails(
            &grows("\"X\"", "(. + .) | ascii_downcase", 30),
            json!(null),
            BUDGET,
            "",
        );
        fails(
            &grows("\"x\"", "gsub(\"x\"; \"xx\")", 30),
            json!(null),
            BUDGET,
            "",
        );
        fails(
            &grows("\"x\"", "[splits(\"\"), splits(\"\")] | add", 30),
            json!(null),
            BUDGET,
            "",
        );
        // A native whose output outgrows its input: 4-byte characters from code points.
        fails(
            "\"\u{1F600}\" * 100000 | explode | . + . | implode | length",
            json!(null),
            BUDGET,
            "",
        );
        // Many values, each below the size limit: their total is bounded.
        fails(
            "\"x\" * 200 | split(\"\") | join(\"y\" * 500000) | length",
            json!(null),
            BUDGET,
            "in total",
        );
        fails(
            "[.[] | explode[] | \"x\" * 500000] | length",
            letters(200),
            BUDGET,
            "in total",
        );
        // Slices copy arrays.
        fails(
            ".[0] | explode as $a | reduce explode[] as $x ($a; .[1:]) | length",
            letters(100_000),
            BUDGET,
            "in total",
        );
        // Natives scan their string input and arguments; `-` and `/` build arrays.
        for scan in [
            "$s | length",
            "$s | test(\"y\")",
            "$s | ltrimstr(\"y\")",
            "\"y\" | startswith($s)",
            "$s / \"\" | length",
            "$s | explode | . - [1] | length",
        ] {
            let expr =
                format!("(\"x\" * 500000) as $s | reduce (.[] | explode[]) as $x (0; {scan})");
            fails(&expr, letters(2000), BUDGET, "in total");
        }
        // Below the limits the same operations work.
        gives(
            &grows("\"x\"", "\"\\(.)\\(.)\"", 10),
            json!(null),
            json!([1024]),
        );
        gives(
            &grows("\"xxxx\"", "@base64", 20),
            json!(null),
            json!([2616]),
        );
        gives(
            "\"x\" * 20 | split(\"\") | join(\"y\" * 1000) | length",
            json!(null),
            json!([19020]),
        );
    });
}

// ----- regular expressions -----------------------------------------------------------------

/// Our regular expression natives (budgeted) give exactly what jaq-std's gave: offsets and
/// lengths in code points, named captures, flags, splits, errors.
#[test]
fn regular_expressions_give_what_jaq_gives() {
    on_small_stack(|| {
        let cases: &[(&str, &str)] = &[
            (
                r#"[match("(?<x>é)(b)?|(c)"; "g")]"#,
                r#"[[{"captures":[{"length":1,"name":"x","offset":1,"string":"é"},{"length":1,"offset":2,"string":"b"}],"length":2,"offset":1,"string":"éb"},{"captures":[{"length":1,"offset":11,"string":"c"}],"length":1,"offset":11,"string":"c"},{"captures":[{"length":1,"name":"x","offset":14,"string":"é"}],"length":1,"offset":14,"string":"é"}]]"#,
            ),
            (
                r#"[match(""; "g")]"#,
                r#"[[{"captures":[],"length":0,"offset":0,"string":""},{"captures":[],"length":0,"offset":1,"string":""},{"captures":[],"length":0,"offset":2,"string":""},{"captures":[],"length":0,"offset":3,"string":""},{"captures":[],"length":0,"offset":4,"string":""},{"captures":[],"length":0,"offset":5,"string":""},{"captures":[],"length":0,"offset":6,"string":""},{"captures":[],"length":0,"offset":7,"string":""},{"captures":[],"length":0,"offset":8,"string":""},{"captures":[],"length":0,"offset":9,"string":""},{"captures":[],"length":0,"offset":10,"string":""},{"captures":[],"length":0,"offset":11,"string":""},{"captures":[],"length":0,"offset":12,"string":""},{"captures":[],"length":0,"offset":13,"string":""},{"captures":[],"length":0,"offset":14,"string":""},{"captures":[],"length":0,"offset":15,"string":""},{"captures":[],"length":0,"offset":16,"string":""}]]"#,
            ),
            (
                r#"[match("a"; "gi")]"#,
                r#"[[{"captures":[],"length":1,"offset":0,"string":"a"},{"captures":[],"length":1,"offset":4,"string":"A"},{"captures":[],"length":1,"offset":5,"string":"a"},{"captures":[],"length":1,"offset":6,"string":"a"},{"captures":[],"length":1,"offset":9,"string":"a"}]]"#,
            ),
            (
                r#"[match(" a # comment\n"; "gx")]"#,
                r#"[[{"captures":[],"length":1,"offset":0,"string":"a"},{"captures":[],"length":1,"offset":5,"string":"a"},{"captures":[],"length":1,"offset":6,"string":"a"},{"captures":[],"length":1,"offset":9,"string":"a"}]]"#,
            ),
            (
                r#"[match("a*"; "gn")]"#,
                r#"[[{"captures":[],"length":1,"offset":0,"string":"a"},{"captures":[],"length":2,"offset":5,"string":"aa"},{"captures":[],"length":1,"offset":9,"string":"a"}]]"#,
            ),
            (
                r#"[capture("(?<l>[a-z])(?<d>[0-9])?"; "g")]"#,
                r#"[[{"l":"a"},{"l":"b"},{"l":"a"},{"l":"a"},{"l":"a"},{"d":"1","l":"c"}]]"#,
            ),
            (
                r#"[scan("[aé]")], [scan("(a)(.)")]"#,
                r#"[["a","é","a","a","a","é"],[["a","é"],["a","a"],["a",","]]]"#,
            ),
            (
                r#"split(", *"; null), [splits("a")], split("é"; "g")"#,
                r#"[["aéb\nAaa","a","c1 é9"],["","éb\nA","",", ",",c1 é9"],["a","b\nAaa, a,c1 ","9"]]"#,
            ),
            (
                r#"sub("(?<x>a)"; "<\(.x)>"), gsub("a|é"; "-"), gsub(""; "."), sub("^"; ">")"#,
                r#"["<a>éb\nAaa, a,c1 é9","--b\nA--, -,c1 -9",".a.é.b.\n.A.a.a.,. .a.,.c.1. .é.9.",">aéb\nAaa, a,c1 é9"]"#,
            ),
            (
                r#"test("A"), test("A"; "i"), test("^b"; "m"), test("a.b"; "s"), test("x"), [test("a", "zz")]"#,
                r#"[true,true,false,true,false,[true,false]]"#,
            ),
            (
                r#"try match("("; "") catch ., try match("a"; "q") catch ., try (1 | test("a")) catch ., try test(1) catch ."#,
                r#"["invalid regex: found open group without closing ')'","invalid regex flag: q","cannot use 1 as string","cannot use 1 as string"]"#,
            ),
            (
                r#"[match("a+?"; "gl")] | map(.string)"#,
                r#"[["a","aa","a"]]"#,
            ),
            (r#"[match("^a"; "gp")] | length"#, r#"[1]"#),
        ];
        for (expr, want) in cases {
            let want: Value = serde_json::from_str(want).expect("JSON");
            gives(expr, json!("aéb\nAaa, a,c1 é9"), want);
        }
    });
}

/// Regular expression work is paid for before it is done, and the budget error names it:
/// every match (before it is built) and the text scanned times the expression's size (before
/// the search). jaq-std's natives built every match first: `match("";"g")` on half a
/// million characters took seconds (and 400 MB in wasm), then blamed steps or recursion.
#[test]
fn regular_expression_work_is_charged_to_the_budget() {
    on_small_stack(|| {
        let matches = "regular expressions produced more matches in total";
        for expr in [
            r#"[("a" * 524000) | match(""; "g")] | length"#,
            r#"("a" * 524000) | gsub(""; "") | length"#,
            r#"("a" * 524000) | sub(""; "x"; "g") | length"#,
            r#"[("a" * 524000) | scan("")] | length"#,
            r#"[("ab" * 100000) | capture("(?<x>a)"; "g")] | length"#,
            r#"[("a" * 524000) | splits("")] | length"#,
            r#"("a" * 524000) | split("a"; null) | length"#,
        ] {
            let start = Instant::now();
            fails(expr, json!(null), BUDGET, matches);
            common::assert_no_hang(start.elapsed(), expr);
        }
        // The text scanned is paid in total; a large expression scans slowly: its size
        // multiplies the text it scans (this one took 25 s natively).
        for expr in [
            r#"[("a" * 524000) | test("b", "c", "d", "e")] | length"#,
            r#"("a" * 100000) as $s | ("a" * 5000 + "b") as $p | $s | test($p)"#,
        ] {
            let start = Instant::now();
            fails(
                expr,
                json!(null),
                BUDGET,
                "regular expressions scanned more text in total",
            );
            common::assert_no_hang(start.elapsed(), expr);
        }
        // Real uses fit; `gsub` no longer runs out of depth past a hundred matches.
        gives(
            r#"("a-" * 1000) | gsub("-"; "_") | length"#,
            json!(null),
            json!([2000]),
        );
        gives(
            r#"[.[] | test("^gpu-(?<n>[0-9]+)$")] | length"#,
            json!(vec!["gpu-1"; 500]),
            json!([500]),
        );
    });
}

/// A CEL runtime error shows the values in it short, and the same on every evaluation: the
/// crate's own messages printed the whole object with `Debug`, in its hash order (the `cel`
/// fuzz target found `0.0 / object.spec` failing differently twice).
#[test]
fn cel_runtime_errors_show_values_short_and_the_same_every_time() {
    on_small_stack(|| {
        let object = json!({"spec": {"a": 1, "b": "x", "c": [1, 2], "d": {"e": null}}});
        for (expr, message) in [
            (
                "0.0 / object.spec",
                "Unsupported binary operator 'div': 0.0, a map of 4 entries",
            ),
            (
                "object.spec.c - object.spec",
                "Unsupported binary operator 'sub': a list of 2 items, a map of 4 entries",
            ),
            (
                "object.spec < object.spec.d",
                "found no matching overload for '_<_' applied to '(map, map)'",
            ),
            ("object.spec.c[5]", "Index out of bounds: 5"),
            ("1 / 0", "Division by zero of 1"),
        ] {
            for _ in 0..3 {
                let got = run(Language::Cel, expr, object.clone());
                let got = got.map_err(|e| e.first().map(|e| e.message.clone()));
                assert_eq!(got, Err(Some(message.to_owned())), "{expr}");
            }
        }
    });
}

/// CEL through a registered engine (the package's main module calls its CEL module so, through
/// JavaScript): the built-in engine registered as the host, every answer through the wire
/// format the two modules use, gives exactly the built-in engine's results, codes, messages,
/// ranges and budget errors, and every handle it was given is freed.
#[test]
fn cel_through_a_host_engine_gives_what_the_builtin_engine_gives() {
    use std::rc::Rc;
    use workload_map::expr::cel_host::{set_cel_engine, BuiltinEngine, CelEngine};

    on_small_stack(|| {
        let obj = json!({"status": {"conditions": [
            {"type": "Ready", "status": "True"}, {"type": "Failed", "status": "False"}],
            "ready": 2, "ratio": 0.5, "phase": "Running"},
            "spec": {"replicas": 3, "name": "abc", "big": 18446744073709551615u64}});
        let list = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
        let cases: Vec<(String, Value)> = [
            "object.status.phase",
            "object.status.ready + 1",
            "object.status.ratio * 3.0",
            "object.spec.big",
            "{'a': object.spec.replicas, 'b': [object.spec.name, null, true]}",
            "object.status.conditions.map(c, c.type)",
            "object.status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')",
            "1.0 / 0.0",
            "b'abc'",
            "object.status.ready +",
            "object.nope.deeper",
            "size(1)",
            "1 / 0",
            "'Ready' in object",
            "(",
            "",
        ]
        .iter()
        .map(|e| ((*e).to_owned(), obj.clone()))
        .chain([
            ("(".repeat(150), obj.clone()),
            (format!("1{}", " + 1".repeat(201)), json!({})),
            (format!("  {}", "x".repeat(17 * 1024)), json!({})),
            (
                format!(
                    "size({}0{}) > 0",
                    format!("{list}.map(x, ").repeat(8),
                    ")".repeat(8)
                ),
                json!({}),
            ),
            (
                "object.items.all(i, object.items == object.items)".to_owned(),
                json!({"items": (0..5_000).map(|i| json!({"n": i})).collect::<Vec<_>>()}),
            ),
        ])
        .collect();
        let engine = Rc::new(BuiltinEngine::default());
        for (expr, input) in &cases {
            let builtin = run(Language::Cel, expr, input.clone());
            let previous = set_cel_engine(Some(Rc::clone(&engine) as Rc<dyn CelEngine>));
            let hosted = run(Language::Cel, expr, input.clone());
            set_cel_engine(previous);
            assert_eq!(hosted, builtin, "{expr}");
            assert_eq!(engine.held(), (0, 0), "{expr}: every handle freed");
        }

        // The registered engine is the one that compiles and evaluates.
        set_cel_engine(Some(Rc::clone(&engine) as Rc<dyn CelEngine>));
        let mut builder = ExprSetBuilder::new();
        let id = builder
            .add(Language::Cel, "object.spec.replicas * 2")
            .expect("parses");
        let (set, _) = builder.finish();
        set_cel_engine(None);
        assert_eq!(engine.held(), (1, 0));
        let input = Input::new(obj.clone());
        assert_eq!(set.eval(id, &input), Ok(vec![json!(6)]));
        assert_eq!(engine.held(), (1, 1));
        drop((set, input));
        assert_eq!(engine.held(), (0, 0));
    });
}

/// A whole definition with CEL (and one with a CEL syntax error) compiled and resolved through a
/// registered engine: the same diagnostics (codes, messages, ranges) and the same view.
#[test]
fn definitions_with_cel_resolve_the_same_through_a_host_engine() {
    use std::rc::Rc;
    use workload_map::compile::CompiledDefinition;
    use workload_map::expr::cel_host::{set_cel_engine, BuiltinEngine};

    on_small_stack(|| {
        let full = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/definitions/valid/full.yaml"),
        )
        .expect("fixture");
        let broken = full.replace(
            "size(object.status.failed) > 0",
            "size(object.status.failed) >",
        );
        assert_ne!(broken, full);
        let object = json!({"apiVersion": "example.com/v1", "kind": "TrainingRun",
            "metadata": {"name": "r"}, "status": {"failed": [1], "succeeded": 0}});
        let engine = Rc::new(BuiltinEngine::default());
        for text in [&full, &broken] {
            assert!(CompiledDefinition::needs_cel(text));
            let builtin = CompiledDefinition::from_text(text);
            let builtin_view = serde_json::to_value(builtin.resolve(&object)).expect("view");
            set_cel_engine(Some(engine.clone()));
            let hosted = CompiledDefinition::from_text(text);
            set_cel_engine(None);
            let hosted_view = serde_json::to_value(hosted.resolve(&object)).expect("view");
            assert_eq!(hosted.diagnostics(), builtin.diagnostics());
            assert_eq!(hosted_view, builtin_view);
            // The engine holds the definition's one valid CEL expression (the broken one was
            // refused); the documents of the resolve are freed.
            let held = if std::ptr::eq(text, &full) { 1 } else { 0 };
            assert_eq!(engine.held(), (held, 0));
            drop(hosted);
            assert_eq!(engine.held(), (0, 0));
        }
        assert!(
            serde_json::to_string(&CompiledDefinition::from_text(&full).resolve(&object))
                .expect("view")
                .contains("\"Failed\"")
        );
        assert!(!CompiledDefinition::needs_cel(
            &full.replace("language: cel", "language: jq")
        ));
    });
}

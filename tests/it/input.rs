//! Every input is bounded and every unreadable input is a located diagnostic: alias expansion
//! capped in bytes, one nesting limit for text and plain objects, list items that are not
//! objects, object text that holds no object, non-finite numbers, a byte order mark.
//! Each case is the smallest input that shows the class.

use serde_json::Value;
use workload_map::compile::CompiledDefinition;
use workload_map::diagnostic::{ColumnUnit, Diagnostic, LineIndex, Source};
use workload_map::object::{read_objects, read_objects_with};
use workload_map::path::Step;
use workload_map::yaml::{self, Limits, MAX_ALIAS_BYTES, MAX_DEPTH};

// ----- the helpers that touch the API --------------------------------------------------------------

/// `code line:column path` of a diagnostic (columns in characters; `-` when unplaced).
fn render(text: &str, d: &Diagnostic) -> String {
    let pos = d.range.map_or_else(
        || "-".to_owned(),
        |r| {
            let lc = LineIndex::new(text).line_col(text, r.start, ColumnUnit::Char);
            format!("{}:{}", lc.line, lc.column)
        },
    );
    format!("{} {pos} {}", d.code, d.path).trim_end().to_owned()
}

/// The objects of a manifest text as JSON and its diagnostics, read with `limits`.
fn read_with(text: &str, limits: &Limits) -> (Vec<String>, Vec<String>) {
    let read = read_objects_with(text, limits);
    let objects = read.objects.iter().map(|(o, _)| o.to_string()).collect();
    let diagnostics = read.diagnostics.iter().map(|d| render(text, d)).collect();
    (objects, diagnostics)
}

fn read(text: &str) -> (Vec<String>, Vec<String>) {
    read_with(text, &Limits::default())
}

const DEFINITION: &str = "apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: pods}
spec:
  structureDefinition:
    rootComponent:
      name: pod
      kind: {group: '', version: v1, kind: Pod}
      specDefinition: {podSpecPath: .spec}
      scaleDefinition: {replicasPath: .spec.replicas}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          initializing: [{byExpression: {expression: '.status.phase == null', expectedResult: 'true'}}]
          running: [{byPhase: Running}]
";

/// The view of `object` text through [`DEFINITION`], as JSON without the definition name.
fn resolve(object: &str) -> Value {
    let definition = CompiledDefinition::from_text(DEFINITION);
    assert!(definition.is_valid(), "{:?}", definition.diagnostics());
    serde_json::to_value(definition.resolve_text(object)).unwrap_or_default()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

// ----- 1. alias expansion is capped in bytes, before copying ------------------------------------

/// `big: &big <value>` and a list of `aliases` aliases to it.
fn aliases_of(value: &str, aliases: usize) -> String {
    format!(
        "big: &big {value}\nlist: [{}]\n",
        vec!["*big"; aliases].join(", ")
    )
}

#[test]
fn aliases_of_a_one_mib_string_stop_at_the_alias_past_the_byte_cap() {
    let mib = "x".repeat(1024 * 1024);
    // The anchor keeps one copy; the alias after the other `copies` passes the cap.
    let copies = MAX_ALIAS_BYTES / mib.len() - 1;
    let text = aliases_of(&mib, 99_000);
    let column = "list: [".len() + copies * "*big, ".len() + 1;
    let read = read_objects(&text);
    let found: Vec<(String, &str)> = read
        .diagnostics
        .iter()
        .map(|d| (render(&text, d), d.message.as_str()))
        .collect();
    assert_eq!(
        (read.objects.len(), found),
        (
            0,
            vec![(
                format!("syntax/too-large 2:{column}"),
                "aliases expand to more than 64 MiB of text"
            )]
        )
    );
}

#[test]
fn aliases_of_a_ten_kib_string_stop_at_the_byte_cap() {
    let (objects, diagnostics) = read(&aliases_of(&"x".repeat(10 * 1024), 99_000));
    assert!(objects.is_empty());
    assert_eq!(diagnostics.len(), 1);
    assert!(
        diagnostics[0].starts_with("syntax/too-large 2:"),
        "{diagnostics:?}"
    );
}

#[test]
fn the_alias_byte_cap_is_configurable_and_counts_keys_too() {
    let limits = Limits {
        alias_bytes: 100,
        ..Limits::default()
    };
    // Each copy of {k: 0123456789} is 11 bytes of text: the anchor's and eight aliases' fit
    // in 100, the ninth alias does not.
    let text = aliases_of("{k: '0123456789'}", 9);
    let column = "list: [".len() + 8 * "*big, ".len() + 1;
    assert_eq!(
        read_with(&text, &limits),
        (vec![], strings(&[&format!("syntax/too-large 2:{column}")]))
    );
    let (objects, diagnostics) = read_with(&aliases_of("{k: '0123456789'}", 8), &limits);
    assert_eq!((objects.len(), diagnostics.len()), (1, 0));
}

#[test]
fn anchors_nested_around_one_large_value_count_their_copies() {
    // 100 anchored lists around a 1 MiB string would keep 100 MiB of copies.
    let levels = 100;
    let opening: String = (0..levels).map(|i| format!("&a{i} [")).collect();
    let text = format!(
        "{opening}{}{}\n",
        "x".repeat(1024 * 1024),
        "]".repeat(levels)
    );
    let read = read_objects(&text);
    let messages: Vec<&str> = read
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        ["anchored values amount to more than 64 MiB of text"]
    );
}

// ----- 2. one nesting limit; list items that are not objects ------------------------------------

/// An object `{"a": {"a": … {"a": 1}}}` of `levels` mappings, as JSON text.
fn nested_json(levels: usize) -> String {
    "{\"a\": ".repeat(levels) + "1" + &"}".repeat(levels)
}

#[test]
fn text_and_plain_objects_share_one_nesting_limit() {
    for levels in [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 200, 256, 300] {
        let text = nested_json(levels);
        let as_text = read(&text);
        let as_object = yaml::parse_json(&text);
        let fits = levels <= MAX_DEPTH;
        assert_eq!(as_text.0.len() == 1, fits, "{levels} as text: {as_text:?}");
        assert_eq!(as_object.is_ok(), fits, "{levels} as an object");
        if !fits {
            assert!(
                as_text.1[0].starts_with("syntax/too-large 1:"),
                "{as_text:?}"
            );
        }
    }
}

#[test]
fn a_plain_object_too_deep_is_located_by_its_path() {
    let text = format!(
        "{{\"spec\":{{\"list\":[1,{}]}}}}",
        nested_json(MAX_DEPTH - 2)
    );
    let problem = yaml::parse_json(&text).err();
    let path = format!("spec.list[1]{}", ".a".repeat(MAX_DEPTH - 3));
    assert_eq!(
        problem.map(|d| (d.code, d.path, d.message)),
        Some((
            "syntax/too-large",
            path,
            format!("the object nests deeper than {MAX_DEPTH} levels")
        ))
    );
}

#[test]
fn a_plain_object_measured_too_deep_has_the_diagnostic_its_text_has() {
    // The wasm boundary measures a JavaScript object before serialising it and hands the core
    // the steps to the first value past the limit: the same problem, without a range.
    let text = format!(
        "{{\"spec\":{{\"list\":[1,{}]}}}}",
        nested_json(MAX_DEPTH - 2)
    );
    let from_text = yaml::parse_json(&text).expect_err("too deep");
    let steps: Vec<Step> = [
        Step::Key("spec".into()),
        Step::Key("list".into()),
        Step::index(1),
    ]
    .into_iter()
    .chain((0..MAX_DEPTH - 3).map(|_| Step::Key("a".into())))
    .collect();
    let measured = yaml::too_deep(&steps);
    assert_eq!(measured.range, None);
    assert_eq!(
        (measured.code, measured.path, measured.message),
        (from_text.code, from_text.path, from_text.message)
    );
}

#[test]
fn each_item_of_an_array_is_held_to_the_nesting_limit_on_its_own() {
    let fits = nested_json(MAX_DEPTH);
    let items = yaml::parse_json_items(&format!("[{fits},{fits}]")).expect("two items that fit");
    assert_eq!(items.as_array().map(Vec::len), Some(2));
    // One level more than an object alone may have.
    let deep = nested_json(MAX_DEPTH + 1);
    let problem = yaml::parse_json_items(&format!("[{fits},{deep}]")).expect_err("too deep");
    assert_eq!(problem.code, "syntax/too-large");
    assert_eq!(problem.path, format!("[1]{}", ".a".repeat(MAX_DEPTH)));
}

#[test]
fn keys_with_escapes_and_brackets_in_strings_do_not_confuse_the_depth_scan() {
    let text = r#"{"a\"[{":"[[[{{{","b":[{"c\u0041":{"d":[]}}]}"#;
    assert_eq!(
        yaml::parse_json(text).ok().map(|v| v.to_string()),
        Some(r#"{"a\"[{":"[[[{{{","b":[{"cA":{"d":[]}}]}"#.to_owned())
    );
}

#[test]
fn list_items_that_are_not_objects_are_reported_at_the_item_and_skipped() {
    assert_eq!(
        read("kind: List\nitems: [null]\n"),
        (vec![], strings(&["object/invalid 2:9 items[0]"]))
    );
    assert_eq!(
        read("kind: List\nitems:\n- 7\n- {kind: Pod}\n- [a]\n"),
        (
            strings(&[r#"{"kind":"Pod"}"#]),
            strings(&["object/invalid 3:3 items[0]", "object/invalid 5:3 items[2]"])
        )
    );
}

#[test]
fn documents_that_are_not_objects_are_reported_and_skipped() {
    assert_eq!(
        read("kind: Pod\n---\n- a\n---\nhello\n"),
        (
            strings(&[r#"{"kind":"Pod"}"#]),
            strings(&["object/invalid 3:1", "object/invalid 5:1"])
        )
    );
}

// ----- 3. object text that holds no object ---------------------------------------------------------

#[test]
fn object_text_without_an_object_gives_an_error_and_no_phase() {
    for text in [
        "",
        "   \n",
        "{",
        "- a\n- b",
        "# only a comment\n",
        "hello",
        "~",
    ] {
        let view = resolve(text);
        assert_eq!(view["phases"], serde_json::json!(["Undefined"]), "{text:?}");
        assert_eq!(view["root"], Value::Null, "{text:?}");
        let errors: Vec<&Value> = view["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["severity"] == "error" && d["source"] == "object")
            .collect();
        assert_eq!(errors.len(), 1, "{text:?}: {view}");
        assert!(errors[0]["range"].is_object(), "{text:?}: unplaced {view}");
    }
}

#[test]
fn a_value_that_is_not_an_object_resolves_to_no_phase() {
    let definition = CompiledDefinition::from_text(DEFINITION);
    for value in [Value::Null, Value::from("x"), serde_json::json!([{}])] {
        let view = definition.resolve(&value);
        let codes: Vec<&str> = view.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            (format!("{:?}", view.phases), codes),
            ("[Undefined]".to_owned(), vec!["object/invalid"]),
            "{value}"
        );
        assert_eq!(view.diagnostics[0].source, Source::Object);
    }
}

#[test]
fn object_text_with_one_object_resolves_and_keeps_the_reading_problems() {
    let view = resolve(
        "kind: List\nitems:\n- null\n- {apiVersion: v1, kind: Pod, status: {phase: Running}}\n",
    );
    assert_eq!(view["phases"], serde_json::json!(["Running"]));
    assert_eq!(view["diagnostics"][0]["code"], "object/invalid");
    assert_eq!(view["diagnostics"][0]["path"], "items[0]");
}

// ----- 5. non-finite numbers -------------------------------------------------------------------------

#[test]
fn non_finite_numbers_read_from_text_are_the_boundary_strings() {
    let read = yaml::parse_single("[.nan, .NaN, .inf, +.Inf, -.inf, -.INF]").map(|n| n.to_json());
    let boundary: Vec<&str> = [f64::NAN, f64::NAN, f64::INFINITY, f64::INFINITY]
        .into_iter()
        .chain([f64::NEG_INFINITY, f64::NEG_INFINITY])
        .filter_map(yaml::non_finite_text)
        .collect();
    assert_eq!(read.ok(), Some(serde_json::json!(boundary)));
    assert_eq!(yaml::non_finite_text(1.5), None);
}

// ----- 6. a byte order mark --------------------------------------------------------------------------

#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    assert_eq!(
        read("\u{feff}kind: Pod\nkind: Job\n"),
        (vec![], strings(&["syntax/duplicate-key 2:1"]))
    );
    assert_eq!(
        read("\u{feff}{\"kind\": \"Pod\"}"),
        (strings(&[r#"{"kind":"Pod"}"#]), vec![])
    );
    let definition = CompiledDefinition::from_text(&format!("\u{feff}{DEFINITION}"));
    assert!(definition.is_valid(), "{:?}", definition.diagnostics());
}

#[test]
fn the_default_limits_are_the_documented_constants() {
    let limits = Limits::default();
    assert_eq!(
        (
            limits.alias_bytes,
            limits.alias_nodes,
            limits.nodes,
            MAX_DEPTH
        ),
        (
            64 * 1024 * 1024,
            yaml::MAX_ALIAS_NODES,
            yaml::MAX_NODES,
            128
        )
    );
}

#[test]
fn a_text_longer_than_the_byte_cap_is_refused_before_it_is_parsed() {
    let limits = Limits {
        text_bytes: 10,
        ..Limits::default()
    };
    assert_eq!(
        read_with("kind: JobSet\n", &limits),
        (vec![], strings(&["syntax/too-large 1:11"]))
    );
    assert_eq!(read_with("kind: Job\n", &limits).1, strings(&[]));
}

// ----- 7. values are counted while they are read, JSON and YAML flow collections too -----------

/// `{"kind":"ConfigMap","data":{"a":[1,1,...]}}` with `values` ones, then `tail`.
fn json_of_ones(values: usize, tail: &str) -> String {
    format!(
        r#"{{"kind":"ConfigMap","data":{{"a":[{}]}}{tail}}}"#,
        vec!["1"; values].join(",")
    )
}

#[test]
fn a_json_text_is_refused_at_the_value_past_the_cap_while_it_is_read() {
    let limits = Limits {
        nodes: 10,
        ..Limits::default()
    };
    // Values: the object, "kind", "ConfigMap", "data", the map, "a", the list: 7, so the
    // 4th `1` is the 11th. The syntax error at the end is never reached: reading stopped there.
    let text = json_of_ones(20, r#","b": @"#);
    assert_eq!(
        read_with(&text, &limits),
        (vec![], strings(&["syntax/too-large 1:40"]))
    );
    assert_eq!(&text[33..40], "1,1,1,1");
    assert_eq!(
        read_with(&json_of_ones(3, ""), &limits).0,
        strings(&[r#"{"data":{"a":[1,1,1]},"kind":"ConfigMap"}"#])
    );
}

#[test]
fn a_json_text_past_the_default_cap_is_refused_before_it_is_read_in_full() {
    // 2.1 million values in 4 MB: the YAML reader scanned all of it into tokens first (about
    // 350 bytes a value, so a 62 MB text trapped the engine) and reported the syntax error at
    // its end; reading it as JSON stops at the value past the cap.
    let text = json_of_ones(2_100_000, " @");
    let (objects, diagnostics) = read(&text);
    assert_eq!(objects, Vec::<String>::new());
    assert_eq!(diagnostics.len(), 1);
    assert!(
        diagnostics[0].starts_with("syntax/too-large 1:"),
        "{diagnostics:?}"
    );
}

#[test]
fn yaml_flow_collections_are_counted_before_the_yaml_reader_scans_them() {
    let limits = Limits {
        nodes: 10,
        ..Limits::default()
    };
    // `- [1,1,..., @]`: the YAML reader scans the list whole before its first event (it could
    // be a mapping key), so it reported the `@` at the end; the flow items are counted first:
    // the `[`, then the 10th `,` is the 11th.
    let text = format!("- [{}, @]\n", vec!["1"; 20].join(","));
    assert_eq!(
        read_with(&text, &limits),
        (vec![], strings(&["syntax/too-large 1:23"]))
    );
    assert_eq!(&text[2..23], "[1,1,1,1,1,1,1,1,1,1,");
    // Under the cap, flow YAML reads as before.
    assert_eq!(
        read_with("{kind: Pod, a: [1, 2]}", &limits),
        (strings(&[r#"{"a":[1,2],"kind":"Pod"}"#]), vec![])
    );
}

/// Every catalog test file, as JSON text written compactly and pretty-printed.
fn catalog_json_texts() -> Vec<String> {
    let catalog = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog");
    let mut texts = vec![
        // Escapes, non-ASCII text, numbers of every JSON form, empty collections, nesting.
        r#"{"s":"a\"b\\c\/\u00e9\n\t","é":"ü 😀","n":[0,-0,1.5,-2e3,1E+2,0.25e-1,12345678901234567890],"e":[[],{},[{}]],"t":[true,false,null]}"#.to_owned(),
        // (The YAML reader's range of a `}` followed by a space takes the space in; the JSON
        // reader's ends at the bracket.)
        "\u{feff} [ {\"a\" : 1 }, 2 ]\r\n".to_owned(),
    ];
    for entry in std::fs::read_dir(&catalog).into_iter().flatten().flatten() {
        let tests = entry.path().join("tests");
        for file in std::fs::read_dir(&tests).into_iter().flatten().flatten() {
            let Ok(text) = std::fs::read_to_string(file.path()) else {
                continue;
            };
            for doc in yaml::parse_documents(&text).unwrap_or_default() {
                let json = doc.to_json();
                texts.push(json.to_string());
                texts.push(serde_json::to_string_pretty(&json).unwrap_or_default());
            }
        }
    }
    texts
}

#[test]
fn json_text_reads_exactly_as_the_yaml_reader_reads_it() {
    let texts = catalog_json_texts();
    assert!(texts.len() > 100, "{} texts", texts.len());
    for text in texts {
        // A comment after the value is not JSON: the YAML reader reads that text.
        let as_json = yaml::parse_documents(&text);
        let as_yaml = yaml::parse_documents(&format!("{text}\n# yaml"));
        assert_eq!(as_json, as_yaml, "{text}");
    }
    // JSON's surrogate pairs (Python's `json.dumps` writes them), which the YAML reader refuses.
    assert_eq!(
        yaml::parse_single(r#"["\ud83d\ude00"]"#).map(|n| n.to_json()),
        Ok(serde_json::json!(["😀"]))
    );
    // Not JSON, read as YAML: flow style, single quotes, duplicate keys (same error).
    for text in [
        "{a: 1}",
        "{'a': 1}",
        r#"{"a": 1, "a": 2}"#,
        r#"[1, 2,]"#,
        r#"{"a": 01}"#,
    ] {
        let as_yaml = yaml::parse_documents(&format!("{text}\n# yaml"));
        assert_eq!(
            yaml::parse_documents(text).map_err(|d| d.code),
            as_yaml.map_err(|d| d.code),
            "{text}"
        );
    }
}

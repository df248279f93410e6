//! Definition reading and validation, driven by fixture files, plus the YAML reader's cases.
//!
//! A fixture starts with comment lines `# expect: <severity> <code> <line>:<column> <message>`
//! (1-based, columns in characters); the diagnostics of severity warning or worse from
//! parsing, reading, validating and compiling its expressions must be exactly those.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};
use workload_map::compile::CompiledDefinition;
use workload_map::definition::schema::{self, ObjectType, ValueKind};
use workload_map::definition::Phase;
use workload_map::diagnostic::{codes, ColumnUnit, Diagnostic, LineIndex, Severity};
use workload_map::path::Step;
use workload_map::yaml::{parse_documents, parse_single, MAX_DEPTH};

// ----- the one helper that touches the API ----------------------------------------------------

/// Everything compiling a definition reports: syntax, reading, validation and expressions.
fn diagnostics(text: &str) -> Vec<Diagnostic> {
    CompiledDefinition::from_text(text).diagnostics().to_vec()
}

fn render(text: &str, d: &Diagnostic) -> String {
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    };
    let pos = d.range.map_or_else(
        || "-".to_owned(),
        |r| {
            let lc = LineIndex::new(text).line_col(text, r.start, ColumnUnit::Char);
            format!("{}:{}", lc.line, lc.column)
        },
    );
    format!("{severity} {} {pos} {}", d.code, d.message)
}

fn check_fixture(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut expected: Vec<String> = text
        .lines()
        .take_while(|l| l.starts_with('#'))
        .filter_map(|l| l.strip_prefix("# expect: "))
        .map(str::to_owned)
        .collect();
    let mut actual: Vec<String> = diagnostics(&text)
        .iter()
        .filter(|d| d.severity >= Severity::Warning)
        .map(|d| render(&text, d))
        .collect();
    expected.sort();
    actual.sort();
    if expected == actual {
        Ok(())
    } else {
        let lines = |v: &[String]| {
            v.iter()
                .map(|l| format!("  # expect: {l}\n"))
                .collect::<String>()
        };
        Err(format!(
            "{}\nexpected:\n{}actual:\n{}",
            path.display(),
            lines(&expected),
            lines(&actual)
        ))
    }
}

fn fixtures(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/definitions")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "yaml" || e == "json"));
    files.sort();
    files
}

fn check_dir(dir: &str, minimum: usize) {
    let files = fixtures(dir);
    assert!(
        files.len() >= minimum,
        "expected at least {minimum} fixtures in {dir}, found {}",
        files.len()
    );
    let failures: Vec<String> = files
        .iter()
        .filter_map(|p| check_fixture(p).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} fixture(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn each_invalid_fixture_yields_exactly_its_expected_diagnostics() {
    check_dir("invalid", 30);
}

#[test]
fn each_valid_fixture_yields_exactly_its_expected_diagnostics() {
    check_dir("valid", 3);
}

// ----- the upstream corpus ----------------------------------------------------------------------

#[test]
fn upstream_definitions_read_and_validate_without_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/definitions");
    if !root.is_dir() {
        println!(
            "conformance corpus not found at {}, skipping",
            root.display()
        );
        return;
    }
    let mut files = Vec::new();
    for dir in ["", "_versions", "_transcribed"] {
        if let Ok(rd) = std::fs::read_dir(root.join(dir)) {
            files.extend(
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|e| e == "yaml")),
            );
        }
    }
    files.sort();
    let primary = files
        .iter()
        .filter(|p| p.parent() == Some(root.as_path()))
        .count();
    assert!(
        primary >= 23,
        "expected the 23 primary definitions, found {primary}"
    );
    let mut errors = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for d in diagnostics(&text) {
            let line = format!("{}: {}", path.display(), render(&text, &d));
            if d.is_error() {
                errors.push(line);
            } else {
                println!("{line}");
            }
        }
    }
    println!("checked {} upstream definitions", files.len());
    assert!(
        errors.is_empty(),
        "errors in upstream definitions:\n{}",
        errors.join("\n")
    );
}

// ----- the format tables against the reader ------------------------------------------------------

/// What to do to the generated document.
#[derive(Clone, Copy, PartialEq)]
enum Twist {
    /// Every field valid.
    None,
    /// This field of this type (by `$defs` id) holds `true`, which no field accepts.
    WrongType(&'static str, &'static str),
    /// This type gets an extra key: its first field's name with the middle letter doubled.
    Misspell(&'static str),
    /// This field of this type holds an explicit `null`.
    Null(&'static str, &'static str),
    /// This field of this type is left out.
    Omit(&'static str, &'static str),
}

fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

fn misspelt(t: &ObjectType) -> (String, &'static str) {
    let first = t.fields.first().map_or("", |f| f.name);
    let middle = first.chars().count() / 2;
    let name = first
        .chars()
        .enumerate()
        .flat_map(|(i, c)| std::iter::repeat_n(c, if i == middle { 2 } else { 1 }))
        .collect();
    (name, first)
}

/// A value of type `t` that sets every field, recursively, with `twist` applied wherever it
/// fits; `twisted` collects the document paths it was applied at.
fn every_field(t: &ObjectType, path: &str, twist: Twist, twisted: &mut Vec<String>) -> Value {
    let mut o = Map::new();
    for f in t.fields {
        let p = join(path, f.name);
        let value = if twist == Twist::WrongType(t.id, f.name) {
            twisted.push(p);
            json!(true)
        } else if twist == Twist::Null(t.id, f.name) {
            twisted.push(p);
            Value::Null
        } else if twist == Twist::Omit(t.id, f.name) {
            twisted.push(p);
            continue;
        } else {
            match f.value {
                ValueKind::String => json!("x"),
                ValueKind::Expression => json!("."),
                ValueKind::ExpressionList => json!(["."]),
                ValueKind::Enum(values) => json!(values.first()),
                ValueKind::StringMap => json!({"app": "x"}),
                ValueKind::Ignored => json!({}),
                ValueKind::Object(sub) => every_field(sub, &p, twist, twisted),
                ValueKind::List(sub) => {
                    json!([every_field(sub, &format!("{p}[0]"), twist, twisted)])
                }
            }
        };
        o.insert(f.name.to_owned(), value);
    }
    if twist == Twist::Misspell(t.id) {
        let (name, _) = misspelt(t);
        twisted.push(join(path, &name));
        o.insert(name, json!("x"));
    }
    Value::Object(o)
}

/// The generated document's diagnostics with `code`, as `path: message (help)`.
fn generated(twist: Twist, code: &str) -> (Vec<String>, Vec<String>) {
    let mut twisted = Vec::new();
    let doc = every_field(&schema::DEFINITION, "", twist, &mut twisted);
    let found = diagnostics(&doc.to_string())
        .into_iter()
        .filter(|d| d.code == code)
        .map(|d| format!("{}: {} ({})", d.path, d.message, d.help.unwrap_or_default()))
        .collect();
    (twisted, found)
}

#[test]
fn a_document_setting_every_field_has_no_unknown_field_or_wrong_type() {
    for code in [codes::UNKNOWN_FIELD, codes::WRONG_TYPE] {
        let (_, found) = generated(Twist::None, code);
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}

#[test]
fn every_field_of_every_type_is_read_by_the_reader() {
    let mut unread = Vec::new();
    for t in schema::TYPES {
        for f in t
            .fields
            .iter()
            .filter(|f| !matches!(f.value, ValueKind::Ignored))
        {
            let (paths, found) = generated(Twist::WrongType(t.id, f.name), codes::WRONG_TYPE);
            if paths.is_empty() {
                unread.push(format!(
                    "{}.{}: not reachable from the document",
                    t.id, f.name
                ));
            }
            for p in paths {
                if !found.iter().any(|d| d.starts_with(&format!("{p}: "))) {
                    unread.push(format!("{p}: no wrong-type diagnostic, found {found:?}"));
                }
            }
        }
    }
    assert!(unread.is_empty(), "{}", unread.join("\n"));
}

#[test]
fn a_misspelt_field_in_every_type_is_reported_with_the_intended_name() {
    let mut wrong = Vec::new();
    for t in schema::TYPES {
        let (name, intended) = misspelt(t);
        assert!(t.field(&name).is_none(), "{}: {name} is a real field", t.id);
        let (paths, found) = generated(Twist::Misspell(t.id), codes::UNKNOWN_FIELD);
        if paths.is_empty() {
            wrong.push(format!("{}: not reachable from the document", t.id));
        }
        if !t.warns_unknown {
            // Kubernetes metadata: labels, annotations and the like are expected there.
            if !found.is_empty() {
                wrong.push(format!("{}: unexpected {found:?}", t.id));
            }
            continue;
        }
        for p in paths {
            let hint = format!("did you mean \"{intended}\"?");
            if !found
                .iter()
                .any(|d| d.starts_with(&format!("{p}: ")) && d.contains(&hint))
            {
                wrong.push(format!(
                    "{p}: no unknown-field warning hinting {intended}, found {found:?}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every diagnostic of the generated document as `severity code path: message`.
fn generated_all(twist: Twist) -> Vec<String> {
    let doc = every_field(&schema::DEFINITION, "", twist, &mut Vec::new());
    let mut found: Vec<String> = diagnostics(&doc.to_string())
        .into_iter()
        .map(|d| format!("{:?} {} {}: {}", d.severity, d.code, d.path, d.message))
        .collect();
    found.sort();
    found
}

#[test]
fn an_explicit_null_reads_as_a_missing_field_in_every_type() {
    let mut differ = Vec::new();
    let mut required_missing = 0;
    for t in schema::TYPES {
        for f in t.fields {
            let omitted = generated_all(Twist::Omit(t.id, f.name));
            let null = generated_all(Twist::Null(t.id, f.name));
            if omitted != null {
                differ.push(format!(
                    "{}.{}:\n  omitted: {omitted:?}\n  null:    {null:?}",
                    t.id, f.name
                ));
            }
            if f.required && null.iter().any(|d| d.contains(codes::MISSING_FIELD)) {
                required_missing += 1;
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // The comparison means something only if nulls of required fields are reported.
    assert!(
        required_missing >= 15,
        "only {required_missing} required fields report a null as missing"
    );
}

#[test]
fn a_null_required_field_is_reported_missing_at_every_level() {
    let cases = [
        ("definition", "spec", "spec"),
        ("structureDefinition", "rootComponent", "spec.structureDefinition.rootComponent"),
        ("gvk", "group", "spec.structureDefinition.rootComponent.kind.group"),
        ("byExpression", "expectedResult", "spec.structureDefinition.rootComponent.statusDefinition.statusMappings.initializing[0].byExpression.expectedResult"),
        ("expectedCondition", "type", "spec.structureDefinition.rootComponent.statusDefinition.statusMappings.initializing[0].byConditions[0].type"),
        ("statusDefinition", "statusMappings", "spec.structureDefinition.rootComponent.statusDefinition.statusMappings"),
    ];
    for (ty, field, path) in cases {
        let found = generated_all(Twist::Null(ty, field));
        let wanted = format!(
            "Error {} {path}: missing required field \"{field}\"",
            codes::MISSING_FIELD
        );
        assert!(
            found.iter().any(|d| d.starts_with(&wanted)),
            "{ty}.{field}: no `{wanted}` in {found:#?}"
        );
    }
}

#[test]
fn a_top_level_status_is_a_warning_at_its_key() {
    let text = "apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata: {name: x}\nspec:\n  structureDefinition:\n    rootComponent:\n      name: x\n      kind: {group: g, version: v1, kind: X}\n      statusDefinition: {phaseDefinition: {path: .status.phase}, statusMappings: {running: [{byPhase: Running}]}}\nstatus: {}\n";
    let found: Vec<String> = diagnostics(text)
        .iter()
        .filter(|d| d.severity >= Severity::Warning)
        .map(|d| render(text, d))
        .collect();
    assert_eq!(
        found,
        ["warning definition/status-ignored 10:1 a definition's status is never read: a definition is a spec"]
    );
}

#[test]
fn status_mappings_have_one_field_per_mappable_phase_in_order() {
    let keys: Vec<&str> = Phase::MAPPABLE
        .iter()
        .filter_map(|p| p.mapping_key())
        .collect();
    assert_eq!(schema::STATUS_MAPPINGS.field_names(), keys);
}

#[test]
fn type_ids_are_unique() {
    let mut ids: Vec<&str> = schema::TYPES.iter().map(|t| t.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), schema::TYPES.len());
}

// ----- the YAML reader ---------------------------------------------------------------------------

/// The JSON value of a single-document text.
fn json(text: &str) -> String {
    match parse_single(text) {
        Ok(node) => node.to_json().to_string(),
        Err(d) => render(text, &d),
    }
}

/// The text a path's value (or, with a trailing `:`, its key) was read from.
fn source_of(text: &str, path: &str) -> String {
    let Ok(node) = parse_single(text) else {
        return "parse error".to_owned();
    };
    let (path, key) = match path.strip_suffix(':') {
        Some(p) => (p, true),
        None => (path, false),
    };
    let segments: Vec<Step> = path
        .split('.')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse()
                .map_or_else(|_| Step::Key(s.to_owned()), Step::Index)
        })
        .collect();
    let found = if key {
        node.locate_key(&segments)
    } else {
        node.locate(&segments)
    };
    found.map_or_else(
        || "not found".to_owned(),
        |n| {
            text.get(n.range.start as usize..n.range.end as usize)
                .unwrap_or("bad range")
                .to_owned()
        },
    )
}

fn docs(text: &str) -> String {
    match parse_documents(text) {
        Ok(docs) => docs
            .iter()
            .map(|d| d.to_json().to_string())
            .collect::<Vec<_>>()
            .join(" | "),
        Err(d) => render(text, &d),
    }
}

#[test]
fn plain_scalars_follow_the_core_schema() {
    assert_eq!(
        json("[null, ~, '', true, False, 12, -3, 0x1F, 0o17, 1.5, -2e3, .5, +7]"),
        r#"[null,null,"",true,false,12,-3,31,15,1.5,-2000.0,0.5,7]"#
    );
}

#[test]
fn empty_value_is_null() {
    assert_eq!(json("a:\nb: 1"), r#"{"a":null,"b":1}"#);
}

#[test]
fn yaml_1_1_booleans_read_as_kubectl_reads_them() {
    assert_eq!(
        json("[y, Y, yes, Yes, YES, on, On, ON, n, N, no, No, NO, off, Off, OFF]"),
        "[true,true,true,true,true,true,true,true,false,false,false,false,false,false,false,false]"
    );
}

#[test]
fn quoted_yes_stays_a_string() {
    assert_eq!(json("a: 'yes'\nb: \"on\""), r#"{"a":"yes","b":"on"}"#);
}

#[test]
fn inf_and_nan_become_canonical_strings_since_json_has_none() {
    assert_eq!(
        json("[.inf, +.Inf, -.Inf, -.INF, .nan, .NaN, '.NaN']"),
        r#"[".inf",".inf","-.inf","-.inf",".nan",".nan",".NaN"]"#
    );
}

#[test]
fn explicit_tags_are_honoured() {
    assert_eq!(
        json("[!!str 12, !!str true, !!int '7', !!float 1, !!bool 'false', !!null x]"),
        r#"["12","true",7,1,false,null]"#
    );
}

#[test]
fn a_tag_that_does_not_fit_its_value_is_an_error() {
    assert_eq!(
        json("a: !!int abc"),
        "error syntax/invalid 1:4 cannot read `abc` as an integer (!!int)"
    );
}

#[test]
fn non_string_keys_become_strings() {
    assert_eq!(
        json("1: a\ntrue: b\n0x10: c\n2.5: d\nnull: e"),
        r#"{"1":"a","16":"c","2.5":"d","null":"e","true":"b"}"#
    );
}

#[test]
fn yes_and_true_keys_collide_as_in_kubectl() {
    assert_eq!(
        json("true: a\nyes: b"),
        r#"error syntax/duplicate-key 2:1 duplicate key "true""#
    );
}

#[test]
fn big_integers_become_floats() {
    assert_eq!(
        json("[123456789012345678901234567890, 18446744073709551615, -9223372036854775808]"),
        "[1.2345678901234568e+29,18446744073709551615,-9223372036854775808]"
    );
}

#[test]
fn json_with_tabs_escapes_and_nesting_parses() {
    assert_eq!(
        json("{\n\t\"a\": \"\\u00e9\\t\",\n\t\"b\": [1,\n\t\t{\"c\": [true, null, 2.5e10]}]\n}"),
        r#"{"a":"é\t","b":[1,{"c":[true,null,25000000000.0]}]}"#
    );
}

#[test]
fn anchors_and_aliases_expand() {
    assert_eq!(
        json("a: &x {b: 1}\nc: *x\nd: [*x, *x]"),
        r#"{"a":{"b":1},"c":{"b":1},"d":[{"b":1},{"b":1}]}"#
    );
}

#[test]
fn merge_keys_merge_and_explicit_keys_win() {
    assert_eq!(
        json("base: &b {x: 1, z: 2}\nobj:\n  <<: *b\n  z: 3"),
        r#"{"base":{"x":1,"z":2},"obj":{"x":1,"z":3}}"#
    );
}

#[test]
fn merge_key_list_earlier_maps_win() {
    assert_eq!(
        json("a: &a {x: 1}\nb: &b {x: 2, z: 3}\nc: {<<: [*a, *b]}"),
        r#"{"a":{"x":1},"b":{"x":2,"z":3},"c":{"x":1,"z":3}}"#
    );
}

#[test]
fn duplicate_keys_are_rejected_at_the_second_key() {
    assert_eq!(
        json("a: 1\nb: 2\na: 3"),
        r#"error syntax/duplicate-key 3:1 duplicate key "a""#
    );
}

#[test]
fn duplicate_keys_in_large_maps_are_rejected() {
    let text: String = (0..40).map(|i| format!("k{i}: {i}\n")).collect::<String>() + "k7: again\n";
    assert_eq!(
        json(&text),
        r#"error syntax/duplicate-key 41:1 duplicate key "k7""#
    );
}

#[test]
fn quoted_and_plain_spellings_of_a_key_are_duplicates() {
    assert_eq!(
        json("a: 1\n\"a\": 2"),
        r#"error syntax/duplicate-key 2:1 duplicate key "a""#
    );
}

/// `levels` block sequences, each inside the previous one, around a scalar.
fn block_nesting(levels: usize) -> String {
    (0..levels)
        .map(|i| format!("{}- \n", "  ".repeat(i)))
        .collect::<String>()
        + &"  ".repeat(levels)
        + "x\n"
}

#[test]
fn block_nesting_deeper_than_max_depth_is_too_large() {
    assert_eq!(
        json(&block_nesting(MAX_DEPTH + 1)),
        format!(
            "error syntax/too-large {}:{} the document nests deeper than {MAX_DEPTH} levels",
            MAX_DEPTH + 1,
            2 * MAX_DEPTH + 1
        )
    );
}

#[test]
fn block_nesting_of_max_depth_is_accepted() {
    let read = json(&block_nesting(MAX_DEPTH));
    assert!(read.starts_with("[[[["), "{read}");
}

#[test]
fn flow_nesting_deeper_than_max_depth_is_too_large() {
    for levels in [MAX_DEPTH + 1, 300] {
        let deep = "[".repeat(levels) + &"]".repeat(levels);
        let read = json(&deep);
        assert!(
            read.starts_with("error syntax/too-large 1:")
                && read.ends_with(&format!(
                    "the document nests deeper than {MAX_DEPTH} levels"
                )),
            "{levels}: {read}"
        );
    }
}

#[test]
fn flow_nesting_of_max_depth_is_accepted() {
    let deep = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
    assert!(json(&deep).starts_with("[[[["));
}

#[test]
fn an_alias_that_would_nest_too_deep_is_too_large() {
    // The document's mapping, `n` flow lists and the aliased two-level list: n + 3 levels.
    let text = |n: usize| format!("a: &x [[1]]\nb: {}*x{}", "[".repeat(n), "]".repeat(n));
    let read = json(&text(MAX_DEPTH - 2));
    assert_eq!(
        read,
        format!(
            "error syntax/too-large 2:{} the alias expands to a document deeper than {MAX_DEPTH} levels",
            MAX_DEPTH + 2
        )
    );
    let fits = json(&text(MAX_DEPTH - 3));
    assert!(fits.starts_with("{\"a\""), "{fits}");
}

#[test]
fn alias_bomb_is_too_large() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let p = i - 1;
        text += &format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        );
    }
    assert!(
        json(&text).starts_with("error syntax/too-large 5:"),
        "{}",
        json(&text)
    );
}

#[test]
fn syntax_errors_are_located() {
    assert_eq!(
        json("a: 1\nb: [\n"),
        "error syntax/invalid 3:1 while parsing a node, did not find expected node content"
    );
}

#[test]
fn several_documents_are_an_error_for_a_single_read() {
    assert_eq!(
        json("a: 1\n---\nb: 2\n"),
        "error syntax/invalid 3:1 expected a single document, found several"
    );
}

#[test]
fn no_document_is_an_error_for_a_single_read() {
    assert_eq!(
        json("# only a comment\n"),
        "error syntax/empty-document 1:1 the text holds no document"
    );
}

#[test]
fn multi_document_streams_skip_empty_documents() {
    assert_eq!(
        docs("---\n---\na: 1\n---\n# nothing\n---\n- 2\n...\n"),
        r#"{"a":1} | [2]"#
    );
}

#[test]
fn anchors_do_not_cross_documents() {
    assert!(docs("a: &x 1\n---\nb: *x\n").starts_with("error syntax/invalid 3:4"));
}

#[test]
fn value_and_key_positions_are_exact() {
    let text = "spec:\n  name: \"job\"\n  items:\n    - a: 1\n    - {b: [x, 'y']}\n";
    assert_eq!(source_of(text, "spec.name"), "\"job\"");
    assert_eq!(source_of(text, "spec.name:"), "name");
    assert_eq!(source_of(text, "spec.items.0.a"), "1");
    assert_eq!(source_of(text, "spec.items.1"), "{b: [x, 'y']}");
    assert_eq!(source_of(text, "spec.items.1.b.1"), "'y'");
    assert_eq!(source_of(text, "spec.items.0"), "a: 1");
}

#[test]
fn block_scalar_range_excludes_trailing_newlines() {
    assert_eq!(
        source_of("a: |\n  line one\n  line two\n\nb: 1\n", "a"),
        "line one\n  line two"
    );
}

#[test]
fn positions_count_bytes_after_non_ascii_text() {
    let text = "é: \"ünïcödé\"\nnext: [日本, 語]\n";
    assert_eq!(source_of(text, "next.1"), "語");
    assert_eq!(source_of(text, "é"), "\"ünïcödé\"");
}

#[test]
fn non_ascii_error_columns_count_characters() {
    assert_eq!(
        json("名前: 1\n名前: 2\n"),
        r#"error syntax/duplicate-key 2:1 duplicate key "名前""#
    );
    assert_eq!(
        json("a: 日本\nb: [\n"),
        "error syntax/invalid 3:1 while parsing a node, did not find expected node content"
    );
}

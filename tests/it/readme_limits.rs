//! The README's "Limits" section states the real limits: every number in it, in the table and in
//! the paragraph after it, is read from the README and compared with the constant it names
//! (the playground's from its JavaScript source), and the quantity limits with what the parser
//! accepts. A number added to the section without a constant here fails the test.

use std::path::Path;

use workload_map::expr::{cel, jq, MAX_RESULTS};
use workload_map::quantity::Quantity;
use workload_map::{pods, resources, yaml};

const KIB: u128 = 1024;
const MIB: u128 = 1024 * 1024;

fn read(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The section from `## Limits` to the next heading.
fn limits_section(readme: &str) -> &str {
    let start = readme.find("\n## Limits\n").expect("a Limits section");
    let rest = &readme[start + 1..];
    let end = rest[3..].find("\n#").map_or(rest.len(), |e| e + 3);
    &rest[..end]
}

/// The numbers of a text, outside backticks, in order: `2,000` is 2000, `16 KiB` 16384,
/// `64 MiB` and `5 MiB` in bytes, `2 s` and `100 ms` in milliseconds, `1e29` and `2^53 − 1`
/// as written, `128-bit` 128.
fn numbers(text: &str) -> Vec<u128> {
    let mut plain = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 {
            plain.push_str(part);
            plain.push(' ');
        }
    }
    let chars: Vec<char> = plain.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_number =
            chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric());
        if !starts_number {
            i += 1;
            continue;
        }
        let mut digits = String::new();
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || (chars[i] == ',' && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
        {
            if chars[i] != ',' {
                digits.push(chars[i]);
            }
            i += 1;
        }
        let mut value: u128 = digits.parse().expect("digits");
        let rest: String = chars[i..].iter().take(8).collect();
        if let Some(exp) = rest.strip_prefix('e') {
            let exp: String = exp.chars().take_while(char::is_ascii_digit).collect();
            i += 1 + exp.len();
            value *= 10u128.pow(exp.parse().expect("exponent"));
        } else if let Some(exp) = rest.strip_prefix('^') {
            let exp: String = exp.chars().take_while(char::is_ascii_digit).collect();
            i += 1 + exp.len();
            value = value.pow(exp.parse().expect("exponent"));
            let tail: String = chars[i..].iter().take(4).collect();
            if tail == " − 1" {
                value -= 1;
                i += 4;
            }
        } else {
            for (unit, factor) in [
                (" KiB", KIB),
                (" MiB", MIB),
                (" ms", 1),
                (" s", 1000),
                ("-bit", 1),
            ] {
                let next = chars.get(i + unit.chars().count()).copied();
                if rest.starts_with(unit) && !next.is_some_and(|c| c.is_ascii_alphanumeric()) {
                    value *= factor;
                    i += unit.chars().count();
                    break;
                }
            }
        }
        out.push(value);
    }
    out
}

/// A constant of the playground's JavaScript source: `export const NAME = 5 * 1024 * 1024;`.
fn js_constant(file: &str, name: &str) -> u128 {
    let source = read(file);
    let line = source
        .lines()
        .find(|l| l.starts_with(&format!("export const {name} = ")))
        .unwrap_or_else(|| panic!("{name} in {file}"));
    let expr = line
        .split_once('=')
        .map(|(_, e)| e.trim().trim_end_matches(';'))
        .unwrap_or_default();
    expr.split('*')
        .map(|f| f.trim().replace('_', "").parse::<u128>().expect("a number"))
        .product()
}

fn n(v: usize) -> u128 {
    v as u128
}

#[test]
fn every_number_of_the_readme_limits_is_the_constant_it_names() {
    let readme = read("README.md");
    let section = limits_section(&readme);
    let rows: Vec<(&str, &str)> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| What") && !l.starts_with("|---"))
        .map(|l| {
            let what = l.split('|').nth(1).unwrap_or_default().trim();
            (what, l)
        })
        .collect();
    let matches = jq::MAX_BUILT / jq::MATCH_BYTES;
    let expected: Vec<(&str, Vec<u128>)> = vec![
        (
            "Manifest or definition text",
            vec![n(yaml::MAX_TEXT_BYTES), n(yaml::MAX_OBJECT_VALUES)],
        ),
        ("Nesting of YAML", vec![n(yaml::MAX_DEPTH)]),
        ("Values in one text", vec![n(yaml::MAX_NODES)]),
        (
            "Alias expansion",
            vec![n(yaml::MAX_ALIAS_NODES), n(yaml::MAX_ALIAS_BYTES)],
        ),
        (
            "jq expression",
            vec![
                n(jq::MAX_SOURCE_LEN),
                n(jq::MAX_NESTING),
                n(jq::MAX_TOKENS),
                n(jq::MAX_OPERATORS),
                n(jq::MAX_TERM_DEPTH),
            ],
        ),
        (
            "jq evaluation",
            vec![
                u128::from(jq::MAX_STEPS),
                u128::from(jq::MAX_DEPTH),
                n(jq::MAX_VALUE_DEPTH),
                n(jq::MAX_SIZE),
                n(jq::MAX_BUILT),
                n(jq::MAX_READ),
            ],
        ),
        (
            "Regular expressions in jq",
            vec![
                n(matches),
                n(jq::MAX_BUILT),
                n(jq::REGEX_UNIT),
                n(jq::MAX_READ),
            ],
        ),
        // ("never 0": not a limit.)
        ("jq results", vec![n(MAX_RESULTS), 0]),
        (
            "CEL expression",
            vec![
                n(jq::MAX_SOURCE_LEN),
                n(cel::MAX_NESTING),
                n(cel::MAX_OPERATORS),
            ],
        ),
        (
            "CEL evaluation",
            vec![
                u128::from(cel::MAX_ITERATIONS),
                u128::from(cel::MAX_COST),
                n(cel::BYTES_PER_UNIT),
                n(jq::MAX_SIZE),
            ],
        ),
        ("Owner chain", vec![n(pods::MAX_HOPS)]),
        (
            "Amounts",
            vec![u128::from(i128::BITS), u128::from(resources::MAX_EXACT)],
        ),
        (
            "Quantities",
            vec![10u128.pow(29), (1u128 << 63) - 1, 10u128.pow(29)],
        ),
    ];
    assert_eq!(
        rows.len(),
        expected.len(),
        "rows: {:?}",
        rows.iter().map(|(what, _)| *what).collect::<Vec<_>>()
    );
    for ((what, row), (label, want)) in rows.iter().zip(&expected) {
        assert!(what.starts_with(label), "row {what:?}, expected {label:?}");
        assert_eq!(&numbers(row), want, "README Limits, row {what:?}: {row}");
    }
    // CEL's 512 KiB is jq's MAX_SIZE (one limit); its 16 KiB jq's MAX_SOURCE_LEN.
    assert_eq!(matches, 4096, "the README says 4,096 in words too");

    // The quantity limits, by what the parser accepts.
    assert!(Quantity::parse("1e29").is_ok());
    assert!(Quantity::parse("100000000000000000000000000001").is_err());
    let units = |text: &str| Quantity::parse(text).map(|q| q.nanos() / 1_000_000_000);
    assert_eq!(
        units("16Ei"),
        Ok(i128::from(i64::MAX)),
        "capped at 2^63 - 1"
    );
    assert_eq!(units("7Ei"), Ok(7 << 60));

    // The paragraph after the table: the playground's watchdog and share-link cap.
    let prose: &str = section
        .split("\n\n")
        .find(|p| p.starts_with("In the browser"))
        .expect("the playground paragraph");
    assert_eq!(
        numbers(prose),
        vec![
            js_constant("js/render/engine.js", "DEFAULT_TIMEOUT_MS"),
            js_constant("js/render/engine.js", "MIN_TIMEOUT_MS"),
            js_constant("js/render/engine.js", "MAX_TIMEOUT_MS"),
            js_constant("www/src/state.js", "MAX_SHARE_BYTES"),
        ],
        "{prose}"
    );
    // The other paragraphs state no number.
    for paragraph in section.split("\n\n").skip(1) {
        if paragraph.starts_with('|') || paragraph.starts_with("In the browser") {
            continue;
        }
        assert_eq!(numbers(paragraph), Vec::<u128>::new(), "{paragraph}");
    }
}

#[test]
fn the_number_reader_reads_the_forms_the_readme_uses() {
    assert_eq!(
        numbers("16 KiB, 2,000 tokens, `MAX_2` 64 MiB; 2 s, 100 ms–60 s, 1e29, 2^53 − 1, 128-bit"),
        vec![
            16 * KIB,
            2000,
            64 * MIB,
            2000,
            100,
            60_000,
            10u128.pow(29),
            (1 << 53) - 1,
            128
        ]
    );
}

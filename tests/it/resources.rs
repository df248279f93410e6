//! Quantities and pod requests, as data.
//!
//! Quantity cases are one-liners below. Pod cases are JSON files in
//! `tests/fixtures/resources/`, one per behaviour, named after it: `kind` (`podSpec`,
//! `podTemplate` or `fragment`), `input`, the expected view `expect` and the expected
//! diagnostics as `"code path"` strings in order.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use workload_map::quantity::{human_bytes, human_millis, Quantity};
use workload_map::resources::{
    fragmented_request, pod_spec_request, pod_template_request, PodRequest,
};

// --- the one place that touches the API ---------------------------------------------------

fn q(text: &str) -> Quantity {
    match Quantity::parse(text) {
        Ok(quantity) => quantity,
        Err(error) => panic!("{text:?} should parse: {error}"),
    }
}

/// A valid quantity: its MilliValue, Value and canonical string.
fn valid(text: &str, milli: i64, value: i64, canonical: &str) {
    let quantity = q(text);
    assert_eq!(
        (
            quantity.milli_value_ceil(),
            quantity.value_ceil(),
            quantity.format().as_str()
        ),
        (milli, value, canonical),
        "parsing {text:?}"
    );
}

/// An invalid quantity whose message mentions `needle` and shows an example.
fn invalid(text: &str, needle: &str) {
    match Quantity::parse(text) {
        Ok(quantity) => panic!("{text:?} should not parse, got {quantity}"),
        Err(error) => {
            let message = error.to_string();
            assert!(
                message.contains(needle),
                "{text:?}: {message:?} should mention {needle:?}"
            );
            assert!(
                message.contains("e.g. `500m`"),
                "{text:?}: {message:?} should show an example"
            );
        }
    }
}

fn json_quantity(value: Value) -> Result<String, String> {
    Quantity::from_json(&value)
        .map(|q| q.format())
        .map_err(|e| e.to_string())
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/resources")
}

fn check_fixture(name: &str) {
    let path = fixture_dir().join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let case: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let input = &case["input"];
    let request: PodRequest = match case["kind"].as_str() {
        Some("podSpec") => pod_spec_request(input, "spec"),
        Some("podTemplate") => pod_template_request(input, "spec.template"),
        Some("fragment") => fragmented_request(input, "spec"),
        other => panic!("{name}: unknown kind {other:?}"),
    };
    let mut view = serde_json::to_value(request.to_view()).expect("the view serialises");
    // These cases are about amounts; how they read (`text`) is tested in tests/table.rs.
    if let Some(map) = view.as_object_mut() {
        map.remove("text");
    }
    let diagnostics: Vec<String> = request
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code, d.path))
        .collect();
    let expected_diagnostics: Vec<String> =
        serde_json::from_value(case["diagnostics"].clone()).expect("diagnostics are strings");
    assert_eq!(
        (&view, &diagnostics),
        (&case["expect"], &expected_diagnostics),
        "{name}: {}",
        case["about"]
    );
}

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { check_fixture(stringify!($name)); } )*

        #[test]
        fn every_fixture_has_a_test() {
            let listed = [$(stringify!($name)),*];
            let mut missing = Vec::new();
            for entry in std::fs::read_dir(fixture_dir()).expect("fixture folder") {
                let file = entry.expect("fixture entry").file_name().to_string_lossy().into_owned();
                let stem = file.strip_suffix(".json").unwrap_or(&file).to_owned();
                if !listed.contains(&stem.as_str()) {
                    missing.push(file);
                }
            }
            assert!(missing.is_empty(), "fixtures without a test: {missing:?}");
        }
    };
}

// --- quantity grammar ---------------------------------------------------------------------

#[test]
fn plain_and_decimal_numbers_parse() {
    valid("0", 0, 0, "0");
    valid("1", 1000, 1, "1");
    valid("+2", 2000, 2, "2");
    valid("00012", 12000, 12, "12");
    valid("1.5", 1500, 2, "1500m");
    valid(".5", 500, 1, "500m");
    valid("5.", 5000, 5, "5");
    valid("+.5", 500, 1, "500m");
    valid("0.0", 0, 0, "0");
    valid("-1", -1000, -1, "-1");
    valid("-0.5", -500, -1, "-500m");
}

#[test]
fn decimal_si_suffixes_parse() {
    valid("500m", 500, 1, "500m");
    valid("1500m", 1500, 2, "1500m");
    valid("1n", 1, 1, "1n");
    valid("1u", 1, 1, "1u");
    valid("1k", 1_000_000, 1000, "1k");
    valid("1000", 1_000_000, 1000, "1k");
    valid("70M", 70_000_000_000, 70_000_000, "70M");
    valid("100M", 100_000_000_000, 100_000_000, "100M");
    valid("2G", 2_000_000_000_000, 2_000_000_000, "2G");
    valid("1T", 1_000_000_000_000_000, 1_000_000_000_000, "1T");
    valid("1P", 1_000_000_000_000_000_000, 1_000_000_000_000_000, "1P");
    valid("1E", i64::MAX, 1_000_000_000_000_000_000, "1E");
    valid("1.G", 1_000_000_000_000, 1_000_000_000, "1G");
}

#[test]
fn binary_suffixes_parse_and_stay_binary() {
    valid("1Ki", 1_024_000, 1024, "1Ki");
    valid("1Mi", 1_048_576_000, 1_048_576, "1Mi");
    valid("1024Ki", 1_048_576_000, 1_048_576, "1Mi");
    valid("1.5Gi", 1_610_612_736_000, 1_610_612_736, "1536Mi");
    valid("0.5Gi", 536_870_912_000, 536_870_912, "512Mi");
    valid("16Gi", 17_179_869_184_000, 17_179_869_184, "16Gi");
    valid("1Ti", 1_099_511_627_776_000, 1_099_511_627_776, "1Ti");
    valid("1Ei", i64::MAX, 1_152_921_504_606_846_976, "1Ei");
}

#[test]
fn binary_amounts_below_1024_print_in_decimal() {
    valid("0.5Ki", 512_000, 512, "512");
    valid("0.5Mi", 524_288_000, 524_288, "512Ki");
    valid("1.1Ki", 1_126_400, 1127, "1126400m");
}

#[test]
fn binary_amounts_cap_at_int64_max() {
    valid("8Ei", i64::MAX, i64::MAX, "9223372036854775807");
}

#[test]
fn decimal_exponents_parse() {
    valid("1e3", 1_000_000, 1000, "1e3");
    valid("1E3", 1_000_000, 1000, "1e3");
    valid("1e+3", 1_000_000, 1000, "1e3");
    valid("15e-1", 1500, 2, "1500e-3");
    valid("5e0", 5000, 5, "5");
    valid("1e-9", 1, 1, "1e-9");
}

#[test]
fn amounts_beyond_the_e_suffix_print_with_an_exponent() {
    valid("1000E", i64::MAX, i64::MAX, "1e21");
}

#[test]
fn sub_nano_amounts_round_up_to_one_nano() {
    valid("0.1n", 1, 1, "1n");
    valid("1e-12", 1, 1, "1e-9");
    valid("0.0000000001", 1, 1, "1n");
    valid("-0.1n", -1, -1, "-1n");
}

#[test]
fn milli_and_unit_values_round_up() {
    valid("0.1m", 1, 1, "100u");
    valid("1001u", 2, 1, "1001u");
    valid("1.0001", 1001, 2, "1000100u");
}

#[test]
fn malformed_quantities_are_rejected_with_a_reason() {
    invalid("", "empty");
    invalid(" 1", "whitespace");
    invalid("1 ", "whitespace");
    invalid("5 Gi", "whitespace");
    invalid("1.2.3", "more than one decimal point");
    invalid("Mi", "no number");
    invalid(".", "no number");
    invalid("-", "no number");
    invalid("+Ki", "no number");
    invalid("1e", "unknown suffix");
    invalid("1e+", "unknown suffix");
    invalid("1e1.5", "unknown suffix");
    invalid("1ee3", "unknown suffix");
    invalid("1K", "lowercase `k`");
    invalid("1ki", "binary suffixes");
    invalid("1kb", "unknown suffix");
    invalid("1Gi5", "unknown suffix");
    invalid("1m5", "unknown suffix");
    invalid("1i", "unknown suffix");
    invalid("--1", "no number");
    invalid("0x10", "unknown suffix");
    invalid("abc", "no number");
    invalid("1e99999999999", "exponent out of range");
    invalid("٣", "no number");
}

#[test]
fn decimal_amounts_above_1e29_are_rejected_without_a_saturated_number() {
    let hundred_digits = format!("1{}", "0".repeat(99));
    for text in [
        "1e30",
        "-1e30",
        "1e400",
        "1e1000000",
        "1000000000000E",
        hundred_digits.as_str(),
    ] {
        invalid(text, "too large");
        let message = Quantity::parse(text).map(|_| ()).unwrap_err().to_string();
        assert!(
            !message.contains("1701411834"),
            "{text}: {message:?} shows a saturated amount"
        );
    }
    valid("1e29", i64::MAX, i64::MAX, "100e27");
    assert_eq!(q("1e29").units_ceil_wide(), 10_i128.pow(29));
}

#[test]
fn json_numbers_and_strings_are_quantities() {
    assert_eq!(json_quantity(json!(2)), Ok("2".to_owned()));
    assert_eq!(json_quantity(json!(0.5)), Ok("500m".to_owned()));
    assert_eq!(json_quantity(json!(1.5e3)), Ok("1500".to_owned()));
    assert_eq!(json_quantity(json!(1e-7)), Ok("100e-9".to_owned()));
    assert_eq!(json_quantity(json!(-3)), Ok("-3".to_owned()));
    assert_eq!(json_quantity(json!("1Gi")), Ok("1Gi".to_owned()));
    assert_eq!(
        json_quantity(json!(" 1Gi ")),
        Ok("1Gi".to_owned()),
        "UnmarshalJSON trims spaces"
    );
    assert_eq!(json_quantity(json!(null)), Ok("0".to_owned()));
}

#[test]
fn json_values_that_are_not_strings_or_numbers_are_rejected() {
    for value in [json!(true), json!([1]), json!({"cpu": 1})] {
        let error = json_quantity(value.clone()).expect_err("not a quantity");
        assert!(error.contains("string or a number"), "{value}: {error}");
    }
}

// --- exact arithmetic ---------------------------------------------------------------------

#[test]
fn sums_are_exact_before_rounding() {
    assert_eq!((q("0.5m") + q("0.5m")).milli_value_ceil(), 1);
    assert_eq!((q("0.5m") + q("0.5m")).format(), "1m");
    let tenth_ten_times = (0..10).fold(Quantity::ZERO, |sum, _| sum + q("0.1"));
    assert_eq!(tenth_ten_times.format(), "1");
    assert!(tenth_ten_times.is_integer());
}

#[test]
fn binary_and_decimal_amounts_sum_by_value() {
    assert_eq!((q("1Gi") + q("512Mi")).format(), "1536Mi");
    assert_eq!((q("1Gi") + q("1G")).value_ceil(), 2_073_741_824);
    assert_eq!(q("1Ki"), q("1024"));
}

#[test]
fn a_zero_left_side_takes_the_right_notation() {
    assert_eq!((Quantity::ZERO + q("2Gi")).format(), "2Gi");
    assert_eq!((q("1") + q("1Ki")).format(), "1025");
}

#[test]
fn max_keeps_the_left_side_on_a_tie() {
    assert_eq!(q("1Ki").max(q("1024")).format(), "1Ki");
    assert_eq!(q("1024").max(q("1Ki")).format(), "1024");
    assert_eq!(q("1").max(q("2Gi")).format(), "2Gi");
}

#[test]
fn multiplying_by_replicas_is_exact_and_saturates() {
    assert_eq!((q("0.5m") * 3).milli_value_ceil(), 2);
    assert_eq!((q("8") * 4).value_ceil(), 32);
    assert_eq!((q("1E") * u64::MAX * u64::MAX).value_ceil(), i64::MAX);
}

#[test]
fn integers_are_whole_units() {
    assert!(q("8").is_integer());
    assert!(q("1000m").is_integer());
    assert!(!q("0.5").is_integer());
    assert!(!q("1n").is_integer());
}

#[test]
fn to_f64_approximates() {
    assert_eq!(q("1500m").to_f64(), 1.5);
    assert_eq!(q("1Ki").to_f64(), 1024.0);
}

#[test]
fn human_readings_are_short() {
    for (text, human) in [
        ("16Gi", "16Gi"),
        ("1536Mi", "1.5Gi"),
        ("70M", "70M"),
        ("20", "20"),
        ("1500m", "1.5"),
        ("500m", "500m"),
        ("0", "0"),
        ("100u", "100u"),
        ("2500", "2.5k"),
    ] {
        assert_eq!(q(text).human(), human, "{text}");
    }
    assert_eq!(human_millis(20_000), "20");
    assert_eq!(human_millis(500), "500m");
    assert_eq!(human_bytes(17_179_869_184), "16Gi");
    assert_eq!(human_bytes(70_000_000), "70M");
}

// --- pod requests -------------------------------------------------------------------------

#[test]
fn scaled_pod_request_rounds_after_multiplying() {
    let request = pod_spec_request(
        &json!({"containers": [{"resources": {"requests": {"cpu": "0.5m"}, "limits": {"nvidia.com/gpu": 8}}}]}),
        "spec",
    );
    let scaled = request.resources.scale(4).to_view();
    assert_eq!((scaled.gpus, scaled.cpu_millis), (32, 2));
}

/// The amounts of a request as the view shows them, with the overflows reported.
fn shown(spec: Value, replicas: u64) -> (Value, Vec<(String, Option<String>)>) {
    let list = pod_spec_request(&spec, "").resources.scale(replicas);
    let view = serde_json::to_value(list.to_view()).expect("the view serialises");
    let overflows = list
        .overflows()
        .into_iter()
        .map(|o| (o.field, o.amount))
        .collect();
    (view, overflows)
}

fn gpus(amount: &str) -> Value {
    json!({"containers": [{"resources": {"limits": {"nvidia.com/gpu": amount}}}]})
}

#[test]
fn amounts_up_to_2_pow_53_minus_1_are_exact() {
    let (view, overflows) = shown(gpus("9007199254740991"), 1);
    assert_eq!(view["gpus"], json!(9_007_199_254_740_991_u64));
    assert_eq!(view.get("incomplete"), None);
    assert!(overflows.is_empty());
}

#[test]
fn amounts_beyond_2_pow_53_show_the_bound_as_a_lower_bound() {
    for (spec, replicas, field, exact) in [
        (gpus("9007199254740992"), 1, "gpus", "9007199254740992"),
        (
            gpus("9223372036854775807"),
            1,
            "gpus",
            "9223372036854775807",
        ),
        // Kubernetes caps binary amounts at 2^63 - 1 units.
        (
            gpus("99999999999999999999Ti"),
            1,
            "gpus",
            "9223372036854775807",
        ),
        (gpus("4194305"), 2_147_483_647, "gpus", "9007201398030335"),
        (
            json!({"containers": [{"resources": {"requests": {"cpu": "1E"}}}]}),
            1,
            "cpuMillis",
            "1000000000000000000000",
        ),
    ] {
        let (view, overflows) = shown(spec, replicas);
        let (shown_amount, incomplete) = (&view[field], &view["incomplete"]);
        assert_eq!(
            (shown_amount, incomplete),
            (&json!(9_007_199_254_740_991_u64), &json!(true)),
            "{field} {exact}"
        );
        assert!(
            overflows.contains(&(field.to_owned(), Some(exact.to_owned()))),
            "{overflows:?} should name {field} = {exact}"
        );
    }
}

#[test]
fn saturated_products_are_reported_without_an_amount() {
    let list = pod_spec_request(&gpus("1e29"), "")
        .resources
        .scale(u64::MAX)
        .scale(u64::MAX);
    let overflows: Vec<(String, Option<String>)> = list
        .overflows()
        .into_iter()
        .map(|o| (o.field, o.amount))
        .collect();
    assert!(
        overflows.contains(&("gpus".to_owned(), None)),
        "{overflows:?}"
    );
    assert_eq!(list.to_view().gpus, 9_007_199_254_740_991);
}

#[test]
fn diagnostics_point_into_the_object_with_help() {
    let request = pod_spec_request(
        &json!({"containers": [{"resources": {"limits": {"cpu": "1K"}}}]}),
        "",
    );
    let diagnostic = request.diagnostics.first().expect("one diagnostic");
    assert_eq!(diagnostic.path, "containers[0].resources.limits.cpu");
    assert_eq!(diagnostic.source, workload_map::diagnostic::Source::Object);
    assert!(
        diagnostic.message.contains("lowercase `k`"),
        "{}",
        diagnostic.message
    );
    assert_eq!(diagnostic.help.as_deref(), Some("e.g. `cpu: 500m`"));
    assert_eq!(diagnostic.range, None);
}

#[test]
fn no_shape_makes_the_reader_panic() {
    let shapes = [
        json!(null),
        json!(1),
        json!("x"),
        json!([]),
        json!({"containers": {"a": 1}}),
        json!({"containers": [null, [], "x", {"resources": []}, {"resources": {"limits": "x"}}]}),
        json!({"initContainers": [{"restartPolicy": 1, "resources": {"requests": {"": "1"}}}]}),
        json!({"resources": "x", "overhead": [1], "resourceClaims": "x"}),
        json!({"resources": {"requests": {"cpu": [1]}, "limits": 3}}),
    ];
    for shape in &shapes {
        let _ = pod_spec_request(shape, "spec");
        let _ = pod_template_request(shape, "spec.template");
        let _ = pod_template_request(&json!({ "spec": shape }), "spec.template");
        let _ = fragmented_request(shape, "spec");
        let _ = fragmented_request(
            &json!({ "container": shape, "containers": shape, "resources": shape }),
            "spec",
        );
    }
}

fixtures! {
    amd_and_nvidia_gpus_both_count,
    binary_and_decimal_memory_sum,
    container_claims_mark_result_incomplete,
    containers_not_a_list_is_reported,
    containers_sum_exactly_before_rounding,
    empty_pod_spec_requests_nothing,
    explicit_zero_request_counts_as_declared,
    fractional_gpu_is_reported,
    fragment_ignores_cr_resources_when_containers_ask_something,
    fragment_sums_containers_and_container,
    fragment_uses_cr_resources_only_when_containers_ask_nothing,
    fragment_with_resource_claims_is_incomplete,
    gpu_amount_beyond_2_pow_53_is_a_lower_bound,
    gpu_request_differing_from_limit_is_reported,
    gpu_request_without_limit_is_reported,
    init_container_gpus_do_not_add_to_main_containers,
    init_peak_is_per_resource,
    invalid_quantity_is_reported_and_counts_as_zero,
    json_numbers_are_quantities,
    limit_stands_in_for_missing_request,
    negative_quantity_is_reported,
    nulls_are_absent,
    other_resources_keep_their_names,
    overhead_is_added,
    pod_level_gpu_is_ignored,
    pod_level_hugepages_limit_applies_only_without_container_requests,
    pod_level_requests_win_over_pod_level_limits,
    pod_level_resources_replace_cpu_and_memory,
    pod_spec_not_an_object_is_reported,
    quantity_above_1e29_is_reported_and_incomplete,
    regular_init_after_sidecar_counts_with_it,
    regular_init_before_sidecar_does_not_count_it,
    resource_claims_mark_result_incomplete,
    resources_a_string_is_reported,
    sidecar_gpu_adds_to_main_containers,
    sidecars_accumulate_toward_init_peak,
    template_reads_its_spec,
    template_spec_wrong_shape_is_reported,
    template_without_spec_requests_nothing,
    wrong_shapes_deep_inside_are_reported,
}

/// How amounts read: one reading for every front end (the view's `text`).
#[test]
fn amounts_read_once_with_lower_bounds_and_unknowns() {
    use workload_map::view::{LowerBounds, Resources};
    let mut r = Resources {
        gpus: 8,
        cpu_millis: 1500,
        memory_bytes: 70_000_000,
        ..Resources::default()
    };
    r.extended.insert("example.com/fpga".into(), 2);
    let text = r.text();
    assert_eq!(
        (text.gpus.as_str(), text.cpu.as_str(), text.memory.as_str()),
        ("8", "1.5", "70M")
    );
    assert_eq!(text.extended["example.com/fpga"], "2");
    r.mark(LowerBounds::DEVICES);
    r.extended.insert("example.com/fpga".into(), 0);
    let text = r.text();
    assert_eq!(text.gpus, "≥ 8");
    assert_eq!(text.extended["example.com/fpga"], "n/a");
    assert_eq!(text.memory, "70M");
    let json = serde_json::to_value(&r).expect("serialises");
    assert_eq!(json["text"]["gpus"], "≥ 8");
}

/// `parseQuantity`'s `milliValue`: thousandths when a JavaScript number holds them exactly,
/// `None` past ±2^53 - 1 (a clamped number would look exact).
#[test]
fn milli_values_are_given_only_when_exact() {
    let milli = |text: &str| Quantity::parse(text).expect(text).milli_value();
    assert_eq!(milli("500m"), Some(500));
    assert_eq!(milli("1.5"), Some(1500));
    assert_eq!(milli("-2"), Some(-2000));
    assert_eq!(
        milli("0.1m"),
        Some(1),
        "rounded away from zero, as MilliValue"
    );
    // 2^53 - 1 thousandths is the last exact one; one more is not.
    assert_eq!(milli("9007199254740991m"), Some(9_007_199_254_740_991));
    assert_eq!(milli("9007199254740992m"), None);
    assert_eq!(milli("-9007199254740992m"), None);
    assert_eq!(milli("1e20"), None);
}

/// `formatCpu`/`formatMemory` take view amounts: whole numbers from 0 to 2^53 - 1.
#[test]
fn exact_amounts_are_whole_and_within_the_safe_range() {
    use workload_map::quantity::{exact_amount, MAX_EXACT};
    assert_eq!(exact_amount(0.0), Some(0));
    assert_eq!(exact_amount(1500.0), Some(1500));
    assert_eq!(exact_amount(MAX_EXACT as f64), Some(MAX_EXACT));
    for bad in [-1.0, 0.5, (MAX_EXACT as f64) + 2.0, f64::NAN, f64::INFINITY] {
        assert_eq!(exact_amount(bad), None, "{bad}");
    }
}

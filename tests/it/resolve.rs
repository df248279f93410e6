//! Resolution, data-driven: every `tests/fixtures/resolve/*.yaml` case carries an inline
//! definition, an object and the `expect:` block of `tests/README.md`.

use crate::common;

use serde_json::Value;
use workload_map::compile::CompiledDefinition;
use workload_map::ResolveOptions;

fn run_case(path: &std::path::Path) -> Vec<String> {
    let case = common::read_yaml(path);
    let definition = CompiledDefinition::from_json(&case["definition"]);
    let view = definition.resolve(&case["object"]);
    common::check(&view, &case["expect"])
}

#[test]
fn every_resolve_fixture_gives_its_expected_view() {
    common::check_fixture_folder("resolve", 10, run_case);
}

/// The seed's worked example through upstream's own JobSet definition (read from the
/// conformance corpus, never copied): leader 1 pod × 4 GPUs + workers 2 pods × 4 GPUs = 12.
#[test]
fn seed_jobset_with_upstream_definition_counts_twelve_gpus() {
    let Some(dir) = common::conformance_dir() else {
        return;
    };
    let text =
        std::fs::read_to_string(dir.join("definitions/jobset-x-k8s-io-jobset-v1alpha2.yaml"))
            .expect("upstream JobSet definition");
    let definition = CompiledDefinition::from_text(&text);
    assert!(definition.is_valid(), "{:#?}", definition.diagnostics());
    let case = common::read_yaml(&common::repo().join("tests/fixtures/resolve/seed-jobset.yaml"));
    let view = definition.resolve(&case["object"]);
    let expect: Value = serde_json::json!({
        "phases": ["Running"],
        "resources": {"gpus": 12},
        "components": [
            {"path": "jobset/replicatedjob", "instances": ["leader", "workers"]},
            {"path": "jobset/replicatedjob[leader]", "desired": 1, "gpus": 4},
            {"path": "jobset/replicatedjob[workers]", "desired": 2, "gpus": 8},
        ],
    });
    let problems = common::check(&view, &expect);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The lean view of `object` is the full view without its status explanations; returns how
/// many mappings the full view explained.
fn lean_equals_full_minus_explanations(definition: &CompiledDefinition, object: &Value) -> usize {
    let full = definition.resolve(object);
    let lean = definition.resolve_with(object.clone(), None, ResolveOptions::LEAN);
    let explained = full.status.mappings.len();
    let mut expected = full;
    expected.status.mappings.clear();
    assert_eq!(lean, expected, "lean view differs beyond the explanations");
    explained
}

/// Every resolve fixture and every recorded event of the corpus (when present): the lean view
/// (`ResolveOptions::LEAN`) equals the full view with `status.mappings` emptied.
#[test]
fn lean_view_is_the_full_view_without_status_explanations() {
    let mut explained = 0;
    for path in common::yaml_files(&common::repo().join("tests/fixtures/resolve")) {
        let case = common::read_yaml(&path);
        let definition = CompiledDefinition::from_json(&case["definition"]);
        explained += lean_equals_full_minus_explanations(&definition, &case["object"]);
    }
    if let Some(dir) = common::conformance_dir() {
        let expectations = common::read_yaml(&dir.join("expectations.yaml"));
        for recording in expectations["recordings"].as_array().into_iter().flatten() {
            let (Some(file), Some(def)) =
                (recording["file"].as_str(), recording["definition"].as_str())
            else {
                continue;
            };
            let text = std::fs::read_to_string(dir.join(def)).expect("corpus definition");
            let definition = CompiledDefinition::from_text(&text);
            for event in common::recorded_events(&dir.join(file)) {
                explained += lean_equals_full_minus_explanations(&definition, &event.object);
            }
        }
    }
    assert!(explained > 0, "no full view had explanations to leave out");
}

/// A count an expression computes as NaN or an infinity is named as such (jq's `nan`,
/// `infinite`, and `0/0` as jaq computes it: gojq raises an error there).
#[test]
fn replicas_computed_as_nan_or_an_infinity_are_named_so() {
    let messages = |expression: &str| -> Vec<String> {
        let definition = CompiledDefinition::from_json(&serde_json::json!({
            "apiVersion": "run.ai/v1alpha1", "kind": "Karta", "metadata": {"name": "t"},
            "spec": {"structureDefinition": {"rootComponent": {
                "name": "pod", "kind": {"group": "", "version": "v1", "kind": "Pod"},
                "specDefinition": {"podSpecPath": ".spec"},
                "scaleDefinition": {"replicasPath": expression},
                "statusDefinition": {"statusMappings": {}}}}}
        }));
        assert!(definition.is_valid(), "{:?}", definition.diagnostics());
        let view = definition.resolve(&serde_json::json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c"}]}, "n": 0}));
        let root = view.root.as_ref().expect("root");
        assert!(root.replicas.incomplete, "{expression}");
        view.diagnostics
            .iter()
            .map(|d| format!("{} {}", d.code, d.message))
            .collect()
    };
    let nan =
        "object/replicas-not-a-number pod: replicas value .nan at index 0 is not a number (NaN)";
    let inf = "object/replicas-not-a-number pod: replicas value .inf at index 0 is not a number \
               (an infinity)";
    assert_eq!(messages(".n / .n"), [nan]);
    assert_eq!(messages("nan"), [nan]);
    assert_eq!(messages("infinite"), [inf]);
    assert_eq!(messages("-infinite"), [inf.replace(".inf", "-.inf")]);
}

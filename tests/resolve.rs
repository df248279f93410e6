//! Resolution, data-driven: every `tests/fixtures/resolve/*.yaml` case carries an inline
//! definition, an object and the `expect:` block of `tests/README.md`.

mod common;

use serde_json::Value;
use workload_map::compile::CompiledDefinition;

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

//! Gang-scheduling groups, data-driven: every `tests/fixtures/groups/*.yaml` case resolves an
//! object (with `related` pods when given) through an inline `definition` or the `catalog`
//! definition it names, and checks `expect.groups` and the diagnostics (`tests/README.md`).
//! The cases include upstream's stated test facts for `CalculateSubtreeScale`.

mod common;

use workload_map::compile::CompiledDefinition;

fn run_case(path: &std::path::Path) -> Vec<String> {
    let case = common::read_yaml(path);
    let definition = match case["catalog"].as_str() {
        Some(name) => {
            let entry = workload_map::catalog::entries()
                .iter()
                .find(|e| e.name == name)
                .unwrap_or_else(|| panic!("no catalog entry {name}"));
            CompiledDefinition::from_text(entry.text)
        }
        None => CompiledDefinition::from_json(&case["definition"]),
    };
    let view = common::resolve_case(&definition, &case, &case["object"]);
    common::check(&view, &case["expect"])
}

#[test]
fn every_groups_fixture_gives_its_expected_view() {
    common::check_fixture_folder("groups", 5, run_case);
}

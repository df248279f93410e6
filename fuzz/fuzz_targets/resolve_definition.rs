//! Resolve: a fuzzed definition and fixed objects (the seed JobSet, and an object of the
//! definition's own root kind). Views hold their invariants and are deterministic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::json;
use workload_map::CompiledDefinition;

mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let definition = CompiledDefinition::from_text(text);
    common::check_diagnostics(definition.diagnostics(), Some(text), None);
    let mut objects = vec![common::seed_object().clone()];
    if let Some(gvk) = definition.root_gvk() {
        let api_version = if gvk.group.is_empty() {
            gvk.version.clone()
        } else {
            format!("{}/{}", gvk.group, gvk.version)
        };
        objects.push(json!({
            "apiVersion": api_version,
            "kind": gvk.kind,
            "metadata": {"name": "x"},
            "spec": {"replicas": 2},
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}
        }));
    }
    for object in &objects {
        let view = definition.resolve(object);
        common::check_view(&view, text);
        assert_eq!(view, definition.resolve(object), "resolving twice differs");
    }
});

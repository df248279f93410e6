//! Resolve: a fixed catalog definition (chosen by the first byte) and fuzzed manifest text.
//! Views hold their invariants and resolving twice gives the same view.
#![no_main]

use std::cell::RefCell;
use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use workload_map::{catalog, CompiledDefinition};

mod common;

thread_local! {
    /// Each catalog definition, compiled once (compile once, evaluate many).
    static COMPILED: RefCell<BTreeMap<usize, CompiledDefinition>> = RefCell::default();
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(objects) = workload_map::object::parse_objects(text) else {
        return;
    };
    let entries = catalog::entries();
    let index = usize::from(pick) % entries.len();
    COMPILED.with(|compiled| {
        let mut compiled = compiled.borrow_mut();
        let definition = compiled
            .entry(index)
            .or_insert_with(|| CompiledDefinition::from_text(entries[index].text));
        for object in objects.iter().take(4) {
            let view = definition.resolve(object);
            common::check_view(&view, definition.text());
            assert_eq!(view, definition.resolve(object), "resolving twice differs");
        }
    });
});

//! Definition text: parse + read + validate + compile. Diagnostics carry known codes and
//! ranges inside the text; compiling twice gives the same result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use workload_map::CompiledDefinition;

mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let first = CompiledDefinition::from_text(text);
    assert_eq!(first.text(), text);
    common::check_diagnostics(first.diagnostics(), Some(text), None);
    let _ = (
        first.name(),
        first.root_gvk(),
        first.component_names(),
        first.is_valid(),
    );
    let second = CompiledDefinition::from_text(text);
    assert_eq!(
        first.diagnostics(),
        second.diagnostics(),
        "compiling twice differs"
    );
});

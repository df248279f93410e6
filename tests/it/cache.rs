//! Compiled definitions shared by text (`src/cache.rs`): compiling a text compiled before is a
//! lookup that gives the same definition; different texts, and a text against the JSON of a
//! plain object, compile apart; what no holder keeps is bounded (`RECENT` definitions, of
//! `RECENT_TEXT_BYTES` of text together, none holding CEL), and what a holder keeps is shared
//! for as long as it is held.

use std::cell::Cell;
use std::rc::Rc;

use workload_map::cache::{DefinitionCache, Source, RECENT, RECENT_TEXT_BYTES};
use workload_map::compile::CompiledDefinition;

// ----- the helper that touches the API -------------------------------------------------------------

/// A cache and how many times it compiled.
#[derive(Default)]
struct Counted {
    cache: DefinitionCache,
    compiles: Cell<usize>,
}

impl Counted {
    fn get(&mut self, source: Source, text: &str) -> Rc<CompiledDefinition> {
        let compiles = &self.compiles;
        self.cache.get(source, text, |text| {
            compiles.set(compiles.get() + 1);
            match source {
                Source::Text => CompiledDefinition::from_text(text),
                Source::Object => CompiledDefinition::from_json_text(text),
            }
        })
    }

    fn text(&mut self, text: &str) -> Rc<CompiledDefinition> {
        self.get(Source::Text, text)
    }
}

/// A small valid definition, made distinct by its name.
fn definition(name: &str) -> String {
    with_matcher(name, "{byPhase: Running}")
}

/// The same with a CEL matcher.
fn cel_definition(name: &str) -> String {
    with_matcher(
        name,
        "{byExpression: {expression: 'object.status.ready > 0', language: cel, expectedResult: 'true'}}",
    )
}

fn with_matcher(name: &str, matcher: &str) -> String {
    format!(
        "apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {{name: {name}}}
spec:
  structureDefinition:
    rootComponent:
      name: w
      kind: {{group: example.com, version: v1, kind: W}}
      specDefinition: {{podTemplateSpecPath: .spec.template}}
      statusDefinition:
        phaseDefinition: {{path: .status.phase}}
        statusMappings:
          running: [{matcher}]
"
    )
}

// ----- cases --------------------------------------------------------------------------------------

#[test]
fn compiling_one_text_again_is_a_lookup_that_gives_the_same_definition() {
    let mut cache = Counted::default();
    let text = definition("w");
    let first = cache.text(&text);
    let handles: Vec<_> = (0..2_000).map(|_| cache.text(&text)).collect();
    assert_eq!(cache.compiles.get(), 1);
    assert!(handles.iter().all(|h| Rc::ptr_eq(h, &first)));
    assert!(first.is_valid(), "{:?}", first.diagnostics());
}

#[test]
fn different_texts_and_sources_compile_apart() {
    let mut cache = Counted::default();
    let a = cache.text(&definition("a"));
    let b = cache.text(&definition("b"));
    assert!(!Rc::ptr_eq(&a, &b));
    assert_eq!((a.name(), b.name()), (Some("a"), Some("b")));
    // A plain object's JSON is no definition text: its views carry no ranges.
    let json = r#"{"apiVersion":"run.ai/v1alpha1","kind":"Karta","metadata":{"name":"a"}}"#;
    let from_text = cache.get(Source::Text, json);
    let from_object = cache.get(Source::Object, json);
    assert!(!Rc::ptr_eq(&from_text, &from_object));
    assert_eq!(cache.compiles.get(), 4);
    assert!(Rc::ptr_eq(&cache.get(Source::Object, json), &from_object));
    assert_eq!(cache.compiles.get(), 4);
}

#[test]
fn a_dropped_definition_is_kept_among_the_recent_only() {
    let mut cache = Counted::default();
    let texts: Vec<String> = (0..=RECENT).map(|i| definition(&format!("d{i}"))).collect();
    // Compiled and dropped at once: the last RECENT stay compiled, the first is gone.
    for text in &texts {
        drop(cache.text(text));
    }
    assert_eq!(cache.cache.kept(), RECENT);
    let compiled = cache.compiles.get();
    for text in &texts[1..] {
        drop(cache.text(text));
    }
    assert_eq!(cache.compiles.get(), compiled, "the recent are lookups");
    drop(cache.text(&texts[0]));
    assert_eq!(cache.compiles.get(), compiled + 1, "the oldest was let go");
}

#[test]
fn a_held_definition_is_shared_however_many_others_came_since() {
    let mut cache = Counted::default();
    let held = cache.text(&definition("held"));
    for i in 0..3 * RECENT {
        drop(cache.text(&definition(&format!("other{i}"))));
    }
    let again = cache.text(&definition("held"));
    assert!(Rc::ptr_eq(&held, &again));
    assert_eq!(cache.compiles.get(), 1 + 3 * RECENT);
    // Once its last holder is gone it is compiled again.
    drop((held, again));
    for i in 0..RECENT {
        drop(cache.text(&definition(&format!("more{i}"))));
    }
    drop(cache.text(&definition("held")));
    assert_eq!(cache.compiles.get(), 2 + 4 * RECENT);
}

#[test]
fn a_definition_holding_cel_lives_only_as_long_as_its_holders() {
    let mut cache = Counted::default();
    let text = cel_definition("cel");
    let held = cache.text(&text);
    assert!(Rc::ptr_eq(&held, &cache.text(&text)), "shared while held");
    assert_eq!(cache.cache.kept(), 0, "never kept for later");
    let weak = Rc::downgrade(&held);
    drop(held);
    assert!(weak.upgrade().is_none(), "freed with its last holder");
    drop(cache.text(&text));
    assert_eq!(cache.compiles.get(), 2);
}

#[test]
fn texts_longer_than_the_recent_bound_are_shared_while_held_never_kept() {
    let mut cache = Counted::default();
    let long = definition("long") + &format!("# {}\n", "x".repeat(RECENT_TEXT_BYTES));
    let held = cache.text(&long);
    assert!(Rc::ptr_eq(&held, &cache.text(&long)));
    assert_eq!(cache.cache.kept(), 0);
    // The recent hold at most RECENT_TEXT_BYTES of text together.
    let half = definition("half") + &format!("# {}\n", "x".repeat(RECENT_TEXT_BYTES / 2));
    let other = definition("other") + &format!("# {}\n", "y".repeat(RECENT_TEXT_BYTES / 2));
    drop(cache.text(&half));
    drop(cache.text(&other));
    assert_eq!(cache.cache.kept(), 1);
}

//! Compiled definitions shared by their text: compiling a text that is compiled already costs a
//! lookup.
//!
//! A caller that compiles the same definition text again and again (a `new Definition(text)`
//! per object, `resolve(text, object)` in a loop, `validate(text)` before `new
//! Definition(text)`) gets the one [`CompiledDefinition`] the first compile made, shared
//! through an [`Rc`]: compiling nothing and holding nothing more. What is shared is never
//! changed, so the holders stay independent: dropping one leaves the others as they were.
//!
//! The memory it holds is bounded:
//! - Every definition it handed out is found again through a [`Weak`] entry as long as some
//!   holder keeps it, and lives exactly as long as they do (an entry whose definition is gone is
//!   dropped on the next compile).
//! - On top of that it keeps the [`RECENT`] most recently used definitions alive after their
//!   holders are gone, of at most [`RECENT_TEXT_BYTES`] of text together (a compiled definition
//!   takes about forty times its text), so that a compile after the last holder was dropped
//!   is still a lookup. A definition that holds CEL is never kept so: its programs may live in
//!   another engine (the npm package's CEL module) and are freed with its last holder.
//! - A definition compiled while its CEL engine was unavailable (`expr/cel-unavailable`) is not
//!   entered at all: compiled again, it may find the engine there.

use std::rc::{Rc, Weak};

use crate::compile::CompiledDefinition;
use crate::diagnostic::codes;

/// How many definitions no holder keeps stay alive: the most recently used ones.
pub const RECENT: usize = 16;
/// Most text the definitions in [`RECENT`] may hold together: 512 KiB (a catalog definition
/// is about 5 KiB); a longer text alone is shared while it is held, never kept.
pub const RECENT_TEXT_BYTES: usize = 512 * 1024;

/// What a definition was compiled from: its text is a key only together with this.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Definition text (YAML or JSON), [`CompiledDefinition::from_text`].
    Text,
    /// The JSON text of a plain object, [`CompiledDefinition::from_json_text`] (its views
    /// carry no definition ranges).
    Object,
}

/// Compiled definitions by text; see the module documentation.
#[derive(Default)]
pub struct DefinitionCache {
    /// Every definition handed out, while some holder keeps it.
    entries: Vec<Entry>,
    /// The most recently used, oldest first, kept alive for a later compile.
    recent: Vec<Rc<CompiledDefinition>>,
}

struct Entry {
    source: Source,
    key: Box<str>,
    compiled: Weak<CompiledDefinition>,
}

impl DefinitionCache {
    /// The compiled definition of `text`: the one handed out before when there is one, else
    /// `compile(text)`'s (called at most once).
    pub fn get(
        &mut self,
        source: Source,
        text: &str,
        compile: impl FnOnce(&str) -> CompiledDefinition,
    ) -> Rc<CompiledDefinition> {
        let found = self
            .entries
            .iter()
            .filter(|e| e.source == source && *e.key == *text)
            .find_map(|e| e.compiled.upgrade());
        if let Some(compiled) = found {
            self.used(&compiled);
            return compiled;
        }
        self.entries.retain(|e| e.compiled.strong_count() > 0);
        let compiled = Rc::new(compile(text));
        let unavailable = compiled
            .diagnostics()
            .iter()
            .any(|d| d.code == codes::EXPR_CEL_UNAVAILABLE);
        if !unavailable {
            self.entries.push(Entry {
                source,
                key: text.into(),
                compiled: Rc::downgrade(&compiled),
            });
            self.used(&compiled);
        }
        compiled
    }

    /// How many definitions are kept alive for later compiles (at most [`RECENT`]).
    pub fn kept(&self) -> usize {
        self.recent.len()
    }

    /// Makes `compiled` the most recently used, keeping it alive when it may be kept.
    fn used(&mut self, compiled: &Rc<CompiledDefinition>) {
        // At most RECENT entries: moving one is cheaper than any list that avoids it.
        if let Some(at) = self.recent.iter().position(|r| Rc::ptr_eq(r, compiled)) {
            let kept = self.recent.remove(at);
            self.recent.push(kept);
            return;
        }
        if compiled.text().len() > RECENT_TEXT_BYTES || compiled.definition().holds_cel() {
            return;
        }
        self.recent.push(Rc::clone(compiled));
        let mut total: usize = self.recent.iter().map(|r| r.text().len()).sum();
        while self.recent.len() > RECENT || total > RECENT_TEXT_BYTES {
            total -= self.recent.remove(0).text().len();
        }
    }
}

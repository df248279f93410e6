//! Plain objects measured before they are serialised.
//!
//! Every plain JavaScript object crosses as `JSON.stringify` text, and the engines' stringify
//! recurses: an object a few thousand levels deep runs it out of stack (a `RangeError` that the
//! package would have to take for a trap). So each object is measured first, without
//! recursion, by the hook js/web-core.mjs registers on every instance (`setMeasureHook`): how
//! many values stringify would write, or the steps to the first value that nests deeper than
//! [`yaml::MAX_DEPTH`]. Only an object that fits is serialised; the core makes the diagnostic
//! of one that does not ([`yaml::too_deep`], [`yaml::too_many_values`]), the same one its text
//! would give. Without a hook (nothing registered one) nothing is measured and the text's own
//! depth scan is the only check, as before.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::path::Step;
use crate::yaml;

thread_local! {
    /// The hook js/web-core.mjs registered on this instance.
    static HOOK: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Registers the measuring hook of this instance (js/web-core.mjs, once per instance):
/// `(value, max, cap) => number | (string | number)[]`, the number of values `JSON.stringify`
/// would write (more than `cap`: it stopped counting), or the keys and indices that lead to the
/// first value opening a level past `max`.
#[wasm_bindgen(js_name = setMeasureHook)]
pub fn set_measure_hook(hook: js_sys::Function) {
    HOOK.with(|h| h.replace(Some(hook)));
}

/// What measuring a value found.
pub(crate) enum Measured {
    /// It fits: stringify would write this many values (0 when nothing measured it).
    Fits(usize),
    /// It nests deeper than [`yaml::MAX_DEPTH`]: the steps to the first value past it.
    Deep(Vec<Step>),
    /// It holds more values than the cap.
    Many,
}

impl Measured {
    /// The problem with a value past a limit ([`yaml::too_deep`], [`yaml::too_many_values`]).
    pub(crate) fn problem(self) -> Option<crate::diagnostic::Diagnostic> {
        match self {
            Measured::Fits(_) => None,
            Measured::Deep(steps) => Some(yaml::too_deep(&steps)),
            Measured::Many => Some(yaml::too_many_values()),
        }
    }
}

/// Measures `value` (a root at level 1) against [`yaml::MAX_DEPTH`], with at most `cap` values
/// counted.
pub(crate) fn measure(value: &JsValue, cap: usize) -> Result<Measured, JsValue> {
    measure_to(value, yaml::MAX_DEPTH, cap)
}

/// [`measure`] against `max` levels.
pub(crate) fn measure_to(value: &JsValue, max: usize, cap: usize) -> Result<Measured, JsValue> {
    let Some(hook) = HOOK.with(|h| h.borrow().clone()) else {
        return Ok(Measured::Fits(0));
    };
    // Both limits are far below 2^53, so they cross as numbers exactly.
    let answer = hook.call3(
        &JsValue::UNDEFINED,
        value,
        &JsValue::from(max as f64),
        &JsValue::from(cap as f64),
    )?;
    if let Some(count) = answer.as_f64() {
        return Ok(if count > cap as f64 {
            Measured::Many
        } else {
            Measured::Fits(count as usize)
        });
    }
    let steps = answer
        .unchecked_ref::<js_sys::Array>()
        .iter()
        .map(|step| match step.as_f64() {
            Some(index) => Step::index(index as usize),
            None => Step::Key(step.as_string().unwrap_or_default()),
        })
        .collect();
    Ok(Measured::Deep(steps))
}

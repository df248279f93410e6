//! JSON documents as edits see them: RFC 6902 JSON Patch operations computed as the minimal
//! difference between two documents, RFC 7396 merge patches, and writing a value at a concrete
//! location (jq's `setpath`). Locations and JSON Pointers are [`crate::path`]'s.
//!
//! The patch is a *difference*, not a log of the writes: an edit writes through the
//! definition's paths into a copy of the object and [`diff`] compares the result with the
//! input, so the patch touches exactly the locations whose value changed and always turns the
//! input into the result.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::path::{array_index, escape_token, Step};

/// A JSON Patch operation kind (only the three an edit needs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// Adds a member or inserts an array element (the parent exists).
    Add,
    /// Removes a member or an array element.
    Remove,
    /// Replaces an existing value.
    Replace,
}

/// One RFC 6902 operation: `{op, path, value?}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PatchOp {
    /// `add`, `remove` or `replace`.
    pub op: Op,
    /// RFC 6901 JSON Pointer (`/spec/replicatedJobs/1/template`).
    pub path: String,
    /// The new value (absent for `remove`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

/// The operations that turn `from` into `to`, touching only what differs: objects are
/// compared member by member, arrays element by element (a longer array gets its new
/// elements added at the end, a shorter one loses its last elements, last first), and any
/// other difference is one `replace`.
pub fn diff(from: &Value, to: &Value) -> Vec<PatchOp> {
    let mut ops = Vec::new();
    diff_at(from, to, &mut String::new(), &mut ops);
    ops
}

fn diff_at(from: &Value, to: &Value, at: &mut String, ops: &mut Vec<PatchOp>) {
    if from == to {
        return;
    }
    match (from, to) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, old) in a {
                let len = at.len();
                at.push('/');
                at.push_str(&escape_token(key));
                match b.get(key) {
                    Some(new) => diff_at(old, new, at, ops),
                    None => ops.push(PatchOp {
                        op: Op::Remove,
                        path: at.clone(),
                        value: None,
                    }),
                }
                at.truncate(len);
            }
            for (key, new) in b {
                if !a.contains_key(key) {
                    ops.push(PatchOp {
                        op: Op::Add,
                        path: format!("{at}/{}", escape_token(key)),
                        value: Some(new.clone()),
                    });
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, (old, new)) in a.iter().zip(b).enumerate() {
                let len = at.len();
                at.push('/');
                at.push_str(&i.to_string());
                diff_at(old, new, at, ops);
                at.truncate(len);
            }
            for (i, new) in b.iter().enumerate().skip(a.len()) {
                ops.push(PatchOp {
                    op: Op::Add,
                    path: format!("{at}/{i}"),
                    value: Some(new.clone()),
                });
            }
            for i in (b.len()..a.len()).rev() {
                ops.push(PatchOp {
                    op: Op::Remove,
                    path: format!("{at}/{i}"),
                    value: None,
                });
            }
        }
        _ => ops.push(PatchOp {
            op: Op::Replace,
            path: at.clone(),
            value: Some(to.clone()),
        }),
    }
}

/// Applies an RFC 7396 JSON merge patch to `target`: an object patch merges member by member
/// (`null` removes a member), anything else replaces the target.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(members) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(object) = target {
        for (key, value) in members {
            if value.is_null() {
                object.remove(key);
            } else {
                merge_patch(object.entry(key.clone()).or_insert(Value::Null), value);
            }
        }
    }
}

/// Sets the value at `steps` as jq's `setpath` does: missing members are created, `null`
/// becomes an object or an array as the step needs, an array grows with `null`s up to a
/// positive index. Fails (with jq's wording) on a step into a value of another type or a
/// negative index before the start.
pub fn set(doc: &mut Value, steps: &[Step], value: Value) -> Result<(), String> {
    let Some((first, rest)) = steps.split_first() else {
        *doc = value;
        return Ok(());
    };
    if matches!(first, Step::Each | Step::Items | Step::Values) {
        return Err("not a concrete location (a step over every element)".to_owned());
    }
    if doc.is_null() {
        *doc = match first {
            Step::Key(_) => Value::Object(Map::new()),
            _ => Value::Array(Vec::new()),
        };
    }
    let child = match (first, doc) {
        (Step::Key(k), Value::Object(o)) => o.entry(k.clone()).or_insert(Value::Null),
        (Step::Index(i), Value::Array(a)) => {
            let index = if *i < 0 {
                array_index(*i, a.len())
                    .ok_or_else(|| "out of bounds negative array index".to_owned())?
            } else {
                usize::try_from(*i).map_err(|_| "array index too large".to_owned())?
            };
            if index >= a.len() {
                // Bounded: the index came from a path over the object, or is the next element.
                if index > a.len().saturating_add(MAX_GROWTH) {
                    return Err(format!("array index {index} is too far past the end"));
                }
                a.resize(index + 1, Value::Null);
            }
            &mut a[index]
        }
        (Step::Key(k), other) => {
            return Err(format!(
                "cannot index {} with \"{k}\"",
                crate::path::type_name(other, crate::path::Words::Json)
            ))
        }
        (_, other) => {
            return Err(format!(
                "cannot index {} with a number",
                crate::path::type_name(other, crate::path::Words::Json)
            ))
        }
    };
    set(child, rest, value)
}

/// How far past the end of an array a write may reach (jq pads with nulls; a huge index is
/// never what a definition means).
const MAX_GROWTH: usize = 1024;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_patch_follows_rfc_7396_examples() {
        // The examples of RFC 7396 appendix A, one line each: (target, patch, result).
        let cases = [
            (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
            (
                json!({"a": "b"}),
                json!({"b": "c"}),
                json!({"a": "b", "b": "c"}),
            ),
            (json!({"a": "b"}), json!({"a": null}), json!({})),
            (
                json!({"a": "b", "b": "c"}),
                json!({"a": null}),
                json!({"b": "c"}),
            ),
            (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
            (json!({"a": "c"}), json!({"a": ["b"]}), json!({"a": ["b"]})),
            (
                json!({"a": {"b": "c"}}),
                json!({"a": {"b": "d", "c": null}}),
                json!({"a": {"b": "d"}}),
            ),
            (
                json!({"a": [{"b": "c"}]}),
                json!({"a": [1]}),
                json!({"a": [1]}),
            ),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a": "b"}), json!(["c"]), json!(["c"])),
            (json!({"a": "foo"}), json!(null), json!(null)),
            (json!({"a": "foo"}), json!("bar"), json!("bar")),
            (
                json!({"e": null}),
                json!({"a": 1}),
                json!({"e": null, "a": 1}),
            ),
            (
                json!([1, 2]),
                json!({"a": "b", "c": null}),
                json!({"a": "b"}),
            ),
            (
                json!({}),
                json!({"a": {"bb": {"ccc": null}}}),
                json!({"a": {"bb": {}}}),
            ),
        ];
        for (mut target, patch, want) in cases {
            merge_patch(&mut target, &patch);
            assert_eq!(target, want, "patch {patch}");
        }
    }

    #[test]
    fn set_creates_missing_parents_and_refuses_wrong_types() {
        let mut doc = json!({"a": 1});
        set(
            &mut doc,
            &[Step::Key("b".into()), Step::Index(1)],
            json!(true),
        )
        .unwrap();
        assert_eq!(doc, json!({"a": 1, "b": [null, true]}));
        let err = set(
            &mut doc,
            &[Step::Key("a".into()), Step::Key("x".into())],
            json!(1),
        );
        assert_eq!(err, Err("cannot index a number with \"x\"".to_owned()));
        set(
            &mut doc,
            &[Step::Key("b".into()), Step::Index(-1)],
            json!(2),
        )
        .unwrap();
        assert_eq!(doc, json!({"a": 1, "b": [null, 2]}));
    }

    #[test]
    fn diff_of_equal_documents_is_empty_and_arrays_shrink_from_the_end() {
        let a = json!({"x": [1, 2, 3], "y": {"z": 1}});
        assert!(diff(&a, &a).is_empty());
        let b = json!({"x": [1], "y": {"z": 1}, "w": "n"});
        let ops = serde_json::to_value(diff(&a, &b)).unwrap();
        assert_eq!(
            ops,
            json!([
                {"op": "remove", "path": "/x/2"},
                {"op": "remove", "path": "/x/1"},
                {"op": "add", "path": "/w", "value": "n"}
            ])
        );
    }
}

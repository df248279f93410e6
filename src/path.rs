//! Paths into JSON values and YAML nodes, at the bottom of the crate: the one path step type
//! ([`Step`]) that YAML locations, provenance, edits and drafts share, RFC 6901 JSON Pointers,
//! concrete locations read and normalised, and the one way a message names a value's type
//! ([`type_name`]).

use serde_json::Value;

/// One step of a path: an object key, an array index, or a step over every element.
///
/// A *concrete location* (an edit's write, a JSON Pointer, a place in a YAML document) is made
/// of [`Key`](Step::Key)s and [`Index`](Step::Index)es only; the steps over every element
/// appear in the paths that stand for many locations (a plain jq path with `.[]`, a drafted
/// location), which are never written or printed as a pointer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Step {
    /// An object key.
    Key(String),
    /// An array index; negative counts from the end, as in jq.
    Index(i64),
    /// Every element of an array or value of an object (jq's `.[]`).
    Each,
    /// Every element of an array (where the value is known to be one).
    Items,
    /// Every value of an object (where the value is known to be one).
    Values,
}

impl Step {
    /// An array index step for a position.
    pub fn index(i: usize) -> Step {
        Step::Index(i64::try_from(i).unwrap_or(i64::MAX))
    }
}

/// Escapes one reference token of a JSON Pointer (`~` → `~0`, `/` → `~1`).
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The JSON Pointer of a concrete location (indices must already be non-negative; a step over
/// every element, which no concrete location has, is written `*`).
pub fn pointer(steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        out.push('/');
        match step {
            Step::Key(k) => out.push_str(&escape_token(k)),
            Step::Index(i) => out.push_str(&i.to_string()),
            Step::Each | Step::Items | Step::Values => out.push('*'),
        }
    }
    out
}

/// The value at a concrete location, if there is one (a negative index counts from the end).
pub fn get<'v>(doc: &'v Value, steps: &[Step]) -> Option<&'v Value> {
    let mut current = doc;
    for step in steps {
        current = match (step, current) {
            (Step::Key(k), Value::Object(o)) => o.get(k)?,
            (Step::Index(i), Value::Array(a)) => a.get(array_index(*i, a.len())?)?,
            _ => return None,
        };
    }
    Some(current)
}

/// The position of index `i` (negative from the end) in an array of `len` elements.
pub(crate) fn array_index(i: i64, len: usize) -> Option<usize> {
    if i < 0 {
        let back = usize::try_from(i.unsigned_abs()).ok()?;
        len.checked_sub(back)
    } else {
        usize::try_from(i).ok()
    }
}

/// Turns negative indices into positions in `doc` (jq's `path(.[-1])` yields `-1`), so the
/// location can be written as a JSON Pointer.
pub fn normalise(doc: &Value, steps: &[Step]) -> Vec<Step> {
    let mut out = Vec::with_capacity(steps.len());
    let mut current = Some(doc);
    for step in steps {
        let step = match (step, current) {
            (Step::Index(i), Some(Value::Array(a))) if *i < 0 => match array_index(*i, a.len()) {
                Some(p) => Step::Index(i64::try_from(p).unwrap_or(i64::MAX)),
                None => step.clone(),
            },
            _ => step.clone(),
        };
        current = current.and_then(|c| get(c, std::slice::from_ref(&step)));
        out.push(step);
    }
    out
}

/// Reads one result of `path(f)` (an array of keys and indices) as steps; `None` for anything
/// else (a slice `{start, end}`, a fractional index).
pub fn steps_of(path: &Value) -> Option<Vec<Step>> {
    path.as_array()?
        .iter()
        .map(|p| match p {
            Value::String(s) => Some(Step::Key(s.clone())),
            Value::Number(n) => n
                .as_i64()
                .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64))
                .map(Step::Index),
            _ => None,
        })
        .collect()
}

/// How a message names a value's type: the vocabularies the messages use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Words {
    /// JSON's (and jq's): `an array`, `an object`.
    Json,
    /// Kubernetes manifests': `a list`, `an object`.
    Manifest,
    /// YAML's, for the texts users write as YAML (test cases): `a list`, `a mapping`.
    Yaml,
}

/// The type of `value` for a message, with its article: `null`, `a boolean`, `a number`,
/// `a string`, and the array and object words of `words`.
pub fn type_name(value: &Value, words: Words) -> &'static str {
    match (value, words) {
        (Value::Null, _) => "null",
        (Value::Bool(_), _) => "a boolean",
        (Value::Number(_), _) => "a number",
        (Value::String(_), _) => "a string",
        (Value::Array(_), Words::Json) => "an array",
        (Value::Array(_), Words::Manifest | Words::Yaml) => "a list",
        (Value::Object(_), Words::Json | Words::Manifest) => "an object",
        (Value::Object(_), Words::Yaml) => "a mapping",
    }
}

/// The steps of an RFC 6901 JSON Pointer (`""` is the whole document); `None` when it is not
/// one (no leading `/`).
pub fn pointer_tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|token| token.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// A JSON Pointer as a dotted path for people: `/spec/replicatedJobs/0/replicas` is
/// `spec.replicatedJobs[0].replicas`; a key that is not a plain name is bracketed and quoted
/// (`limits["nvidia.com/gpu"]`). A number is taken for an index (a pointer does not say).
pub fn dotted(pointer: &str) -> String {
    let mut out = String::new();
    for token in pointer_tokens(pointer).unwrap_or_default() {
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{token}]"));
        } else if !token.is_empty()
            && token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&token);
        } else {
            out.push_str(&format!("[{token:?}]"));
        }
    }
    out
}

/// The JSON Pointer of a dotted path relative to `base` (a JSON Pointer): the paths the
/// resource reader gives its problems (`spec.containers[0].resources.limits["nvidia.com/gpu"]`:
/// names, `[n]` indices and keys bracketed and quoted). `None` when the path is not of that
/// form.
pub fn pointer_below(base: &str, path: &str) -> Option<String> {
    let mut out = base.to_owned();
    let mut rest = path;
    let push = |out: &mut String, token: &str| {
        out.push('/');
        out.push_str(&escape_token(token));
    };
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("[\"") {
            // A quoted key, as Rust's `{:?}` writes it: only `\"` and `\\` are taken (keys
            // with other escapes are rare; their problem is then shown at the pod).
            let mut key = String::new();
            let mut chars = after.char_indices();
            let end = loop {
                match chars.next()? {
                    (i, '"') => break i,
                    (_, '\\') => match chars.next()?.1 {
                        c @ ('"' | '\\') => key.push(c),
                        _ => return None,
                    },
                    (_, c) => key.push(c),
                }
            };
            rest = after[end + 1..].strip_prefix(']')?;
            push(&mut out, &key);
        } else if let Some(after) = rest.strip_prefix('[') {
            let close = after.find(']')?;
            let index = &after[..close];
            if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            push(&mut out, index);
            rest = &after[close + 1..];
        } else {
            let name = rest.strip_prefix('.').unwrap_or(rest);
            let end = name.find(['.', '[']).unwrap_or(name.len());
            if end == 0 {
                return None;
            }
            push(&mut out, &name[..end]);
            rest = &name[end..];
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointer_tokens_escape_tilde_before_slash() {
        assert_eq!(escape_token("a/b~c"), "a~1b~0c");
        assert_eq!(
            pointer(&[Step::Key("x~/y".into()), Step::Index(2)]),
            "/x~0~1y/2"
        );
    }

    #[test]
    fn negative_indices_count_from_the_end() {
        let doc = json!({"a": [1, 2, 3]});
        let steps = [Step::Key("a".into()), Step::Index(-1)];
        assert_eq!(get(&doc, &steps), Some(&json!(3)));
        assert_eq!(
            normalise(&doc, &steps),
            [Step::Key("a".into()), Step::Index(2)]
        );
        assert_eq!(get(&doc, &[Step::Key("a".into()), Step::Index(-4)]), None);
    }

    #[test]
    fn type_names_follow_their_vocabulary() {
        assert_eq!(type_name(&json!([1]), Words::Json), "an array");
        assert_eq!(type_name(&json!([1]), Words::Manifest), "a list");
        assert_eq!(type_name(&json!({}), Words::Manifest), "an object");
        assert_eq!(type_name(&json!({}), Words::Yaml), "a mapping");
        assert_eq!(type_name(&json!(null), Words::Yaml), "null");
        assert_eq!(type_name(&json!("x"), Words::Json), "a string");
    }
}

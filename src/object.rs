//! Reading manifests: YAML or JSON text into objects.
//!
//! Every document of a stream is one object, except a `kind: List` (or another `…List` kind
//! with an `items` list), which stands for its items. Only mappings are objects: a document or
//! a list item that is anything else (`null`, a string, a list) is reported at the place it was
//! written and skipped, never passed on.

use serde_json::Value;

use crate::diagnostic::{codes, Diagnostic, TextRange};
use crate::yaml::{self, Limits, Node, NodeValue};

/// The objects of a manifest text, and the problems found reading it.
#[derive(Debug, Clone, Default)]
pub struct ReadObjects {
    /// Every object, in text order, each with the byte range it was written at.
    pub objects: Vec<(Value, TextRange)>,
    /// The document node each object was read from, in the same order (empty when the objects
    /// were not read from text): where each part of an object was written.
    pub nodes: Vec<Node>,
    /// Problems, all pointing into the manifest text: a syntax error or a too-large text (then
    /// there are no objects), or a document or list item that is not an object (skipped).
    pub diagnostics: Vec<Diagnostic>,
}

impl ReadObjects {
    /// True when a diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The one object read, or the problems that stopped reading it (an error among them):
    /// the reading's own when one is an error, else [`no_object`]. For the calls that take
    /// exactly one object (an edit, a draft).
    pub fn into_single(self) -> Result<Value, Vec<Diagnostic>> {
        let ReadObjects {
            mut objects,
            mut diagnostics,
            ..
        } = self;
        if objects.len() == 1 && !diagnostics.iter().any(Diagnostic::is_error) {
            return Ok(objects.remove(0).0);
        }
        if !diagnostics.iter().any(Diagnostic::is_error) {
            diagnostics.push(no_object());
        }
        Err(diagnostics)
    }

    /// Why `index` cannot pick the workload among the objects read: it is past the last one
    /// (when there are any; with none, the view says the text holds no object).
    pub fn pick_problem(&self, index: usize) -> Option<String> {
        let count = self.objects.len();
        (count > 0 && index >= count)
            .then(|| format!("options.workload is {index}, but the input holds {count} objects"))
    }
}

/// The problem with a text that holds no object (empty, only comments, or nothing but what was
/// skipped): the one rule every call that takes an object follows.
pub fn no_object() -> Diagnostic {
    Diagnostic::error(codes::OBJECT_INVALID, "the text holds no object")
        .with_range(TextRange::empty(0))
        .in_object()
        .with_help(
            "give one Kubernetes object, e.g. `apiVersion: jobset.x-k8s.io/v1alpha2` / `kind: JobSet` / ...",
        )
}

/// Reads one object given as JSON text that is not the caller's (a JavaScript object as the
/// engine's `JSON.stringify` wrote it), held to the reader's nesting limit
/// ([`yaml::MAX_DEPTH`]). A problem has no range (positions in that text mean nothing to the
/// caller): its path locates it.
pub fn read_json_object(text: &str) -> ReadObjects {
    match yaml::parse_json(text) {
        Ok(value) => ReadObjects {
            objects: vec![(value, TextRange::default())],
            ..Default::default()
        },
        Err(problem) => ReadObjects {
            diagnostics: vec![unplaced(problem.in_object())],
            ..Default::default()
        },
    }
}

/// The reading of a plain object that was not read at all: the problem found measuring it
/// before it was serialised ([`yaml::too_deep`], [`yaml::too_many_values`]), in the object, and
/// no object.
pub fn unread(problem: Diagnostic) -> ReadObjects {
    ReadObjects {
        diagnostics: vec![unplaced(problem.in_object())],
        ..Default::default()
    }
}

/// A `kind: List` given as a value whose `items` are not all objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListItemsNotObjects;

/// Reads the objects of a manifest given as one JSON value that is not the caller's text (see
/// [`read_json_object`]): an object of `kind: List` stands for its `items` (none when it has
/// no `items` list; every item must be an object), any other value for itself.
pub fn read_json_objects(text: &str) -> Result<ReadObjects, ListItemsNotObjects> {
    let mut read = read_json_object(text);
    let Some((Value::Object(map), _)) = read.objects.first_mut() else {
        return Ok(read);
    };
    if map.get("kind").and_then(Value::as_str) != Some("List") {
        return Ok(read);
    }
    read.objects = match map.remove("items") {
        Some(Value::Array(items)) if items.iter().all(Value::is_object) => items
            .into_iter()
            .map(|item| (item, TextRange::default()))
            .collect(),
        Some(Value::Array(_)) => return Err(ListItemsNotObjects),
        _ => Vec::new(),
    };
    Ok(read)
}

/// A diagnostic about a value that was not given as text: located by its path only.
fn unplaced(mut problem: Diagnostic) -> Diagnostic {
    problem.range = None;
    problem
}

/// An object's identity as every list of objects shows it: `apiVersion`, `kind`,
/// `metadata.name` (`""` when absent or not a string) and `metadata.namespace`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Identity<'a> {
    /// `apiVersion`.
    pub api_version: &'a str,
    /// `kind`.
    pub kind: &'a str,
    /// `metadata.name`.
    pub name: &'a str,
    /// `metadata.namespace`, when it is a string.
    pub namespace: Option<&'a str>,
}

impl<'a> Identity<'a> {
    /// The identity of `object`.
    pub fn of(object: &'a Value) -> Identity<'a> {
        let text = |at: &str| pointer(object, at).and_then(Value::as_str);
        Identity {
            api_version: text("/apiVersion").unwrap_or_default(),
            kind: text("/kind").unwrap_or_default(),
            name: text("/metadata/name").unwrap_or_default(),
            namespace: text("/metadata/namespace"),
        }
    }
}

/// `value.pointer(at)` for the crate's own pointers (literals such as `/metadata/uid`, with no
/// `~` escapes), without serde_json's allocations: it unescapes every token into a new
/// `String`, where this walks the tokens in place. The reading of a manifest and of pods looks
/// up several fields of every object.
pub(crate) fn pointer<'v>(value: &'v Value, at: &str) -> Option<&'v Value> {
    debug_assert!(!at.contains('~'), "an escaped pointer: {at}");
    if at.is_empty() {
        return Some(value);
    }
    let rest = at.strip_prefix('/')?;
    rest.split('/').try_fold(value, |target, token| match target {
        Value::Object(map) => map.get(token),
        Value::Array(list) => array_index(token).and_then(|i| list.get(i)),
        _ => None,
    })
}

/// An array index token as serde_json's pointer reads it: digits without a `+` sign or a
/// leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

/// `metadata.creationTimestamp`, when it is a string.
pub fn creation_timestamp(object: &Value) -> Option<&str> {
    pointer(object, "/metadata/creationTimestamp").and_then(Value::as_str)
}

/// Reads a manifest stream: every non-empty document that is a mapping, with `kind: List`
/// (and other `…List` kinds with an `items` list) expanded into its items. A U+FEFF byte order
/// mark at the start of the text is skipped. Never fails: problems are in
/// [`ReadObjects::diagnostics`].
pub fn read_objects(text: &str) -> ReadObjects {
    read_objects_with(text, &Limits::default())
}

/// [`read_objects`] with other size limits.
pub fn read_objects_with(text: &str, limits: &Limits) -> ReadObjects {
    let mut read = ReadObjects::default();
    let documents = match yaml::parse_documents_with(text, limits) {
        Ok(documents) => documents,
        Err(problem) => {
            read.diagnostics.push(problem.in_object());
            return read;
        }
    };
    for doc in documents {
        if !matches!(doc.value, NodeValue::Map(_)) {
            read.diagnostics.push(not_an_object(&doc, "the document"));
            continue;
        }
        match list_items(doc) {
            Ok(items) => {
                for (i, item) in items.into_iter().enumerate() {
                    if matches!(item.value, NodeValue::Map(_)) {
                        read.objects.push((item.to_json(), item.range));
                        read.nodes.push(item);
                    } else {
                        let what = format!("item {i} of the list");
                        read.diagnostics
                            .push(not_an_object(&item, &what).with_path(format!("items[{i}]")));
                    }
                }
            }
            Err(doc) => {
                read.objects.push((doc.to_json(), doc.range));
                read.nodes.push(doc);
            }
        }
    }
    read
}

/// Parses a manifest stream into objects, stopping at the first error: the objects of
/// [`read_objects`] when it reports no error, else that error.
pub fn parse_objects(text: &str) -> Result<Vec<Value>, Diagnostic> {
    let read = read_objects(text);
    match read.diagnostics.into_iter().find(Diagnostic::is_error) {
        Some(problem) => Err(problem),
        None => Ok(read.objects.into_iter().map(|(v, _)| v).collect()),
    }
}

/// The items of a `kind: List` (or `…List`) document with an `items` list; any other
/// document back as it was.
fn list_items(doc: Node) -> Result<Vec<Node>, Node> {
    let is_list = doc
        .get("kind")
        .and_then(Node::as_str)
        .is_some_and(|k| k.ends_with("List"));
    if !is_list || doc.get("items").and_then(Node::as_seq).is_none() {
        return Err(doc);
    }
    let NodeValue::Map(entries) = doc.value else {
        return Ok(Vec::new());
    };
    Ok(entries
        .into_iter()
        .find(|(k, _)| k.as_str() == Some("items"))
        .and_then(|(_, v)| match v.value {
            NodeValue::Seq(items) => Some(items),
            _ => None,
        })
        .unwrap_or_default())
}

fn not_an_object(node: &Node, what: &str) -> Diagnostic {
    Diagnostic::error(
        codes::OBJECT_INVALID,
        format!(
            "{what} is {}, not an object (a mapping)",
            article(node.type_name())
        ),
    )
    .with_range(node.range)
    .in_object()
    .with_help("a Kubernetes object is a mapping: `apiVersion: …`, `kind: …`, `metadata: …`")
}

fn article(type_name: &str) -> String {
    match type_name {
        "null" => "null".to_owned(),
        "list" => "a list".to_owned(),
        "map" => "a map".to_owned(),
        other => format!("a {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::pointer;
    use serde_json::json;

    #[test]
    fn the_pointer_walk_answers_as_serde_json() {
        let value = json!({
            "metadata": {"name": "a", "labels": {"x/y": "1", "a~b": "2", "": "empty"}},
            "list": [{"k": 0}, {"k": 1}, [10, 11]],
            "": {"": "nested empty keys"},
            "0": "zero key",
        });
        let pointers = [
            "", "/", "//", "metadata", "/metadata", "/metadata/name", "/metadata/name/x",
            "/metadata/labels/", "/list/0/k",
            "/list/1/k", "/list/2/1", "/list/3", "/list/01", "/list/+1", "/list/-1", "/list/ 1",
            "/list/k", "/0", "/missing/deeper", "/list/18446744073709551616",
        ];
        for p in pointers {
            assert_eq!(pointer(&value, p), value.pointer(p), "pointer {p:?}");
        }
    }
}

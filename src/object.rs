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

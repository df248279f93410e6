//! Reading manifests: YAML or JSON text into objects.

use serde_json::Value;

use crate::diagnostic::Diagnostic;

/// Parses a manifest stream: every non-empty document, with `kind: List` (and other
/// `…List` kinds with an `items` array) expanded into its items. Errors point into the text.
pub fn parse_objects(text: &str) -> Result<Vec<Value>, Diagnostic> {
    let documents = crate::yaml::parse_documents(text).map_err(Diagnostic::in_object)?;
    let mut objects = Vec::new();
    for doc in documents {
        let value = doc.to_json();
        let is_list = value
            .get("kind")
            .and_then(Value::as_str)
            .is_some_and(|k| k == "List" || k.ends_with("List"));
        match value.get("items") {
            Some(Value::Array(items)) if is_list => objects.extend(items.iter().cloned()),
            _ => objects.push(value),
        }
    }
    Ok(objects)
}

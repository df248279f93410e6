//! The fields a schema has at a path: what an editor completes and shows on hover.
//!
//! [`fields_at`] walks a simple path (`.spec.groups[].template`, `["a.b"]`, `[0]`, `[]?`)
//! from a type's root through the schema, the way [`super::jq`] follows a definition's paths:
//! a name is a property (its `$ref`s and `allOf` parts included) or, on a map, any key; `[]`
//! and `[n]` step into a list's items or a map's values. It answers with what the schema has
//! there and the fields below it, each with its type and the first line of its description.

use super::{describe_resolved, NodeId, SchemaSet, TypeEntry};

/// One field below a path.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Field {
    /// Its name, as the object spells it.
    pub name: String,
    /// What it holds: `an integer`, `a pod template`, `an array`, ... (as findings say it).
    #[serde(rename = "type")]
    pub kind: String,
    /// The first line of its description, when the schema has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// What a schema has at a path.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct FieldsAt {
    /// The schema has the path (every step is a field it names, or under an open object).
    pub found: bool,
    /// What the path holds (absent when not found, or under an open object).
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The first line of the path's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Any field may appear here (`x-kubernetes-preserve-unknown-fields`, a free-form object).
    pub open: bool,
    /// A map: any key leads to its values.
    pub map: bool,
    /// A list (or a map): `[]` steps into its items.
    pub list: bool,
    /// The fields the schema names here, sorted by name.
    pub fields: Vec<Field>,
}

/// One step of a simple path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Each,
}

/// Reads a simple path: `.a.b`, `."a b"`, `["a"]`, `[]`, `[3]`, each optionally followed by `?`;
/// `.` alone (or nothing) is the root. `None` when it is anything else.
fn parse(path: &str) -> Option<Vec<Step>> {
    let chars: Vec<char> = path.trim().chars().collect();
    let mut steps = Vec::new();
    let mut i = 0;
    let quoted = |i: &mut usize| -> Option<String> {
        // chars[*i] is the opening quote; JSON string escapes are enough here.
        let start = *i;
        *i += 1;
        while *i < chars.len() && chars[*i] != '"' {
            if chars[*i] == '\\' {
                *i += 1;
            }
            *i += 1;
        }
        if *i >= chars.len() {
            return None;
        }
        *i += 1;
        serde_json::from_str(&chars[start..*i].iter().collect::<String>()).ok()
    };
    while i < chars.len() {
        match chars[i] {
            '.' => {
                i += 1;
                if i < chars.len() && chars[i] == '"' {
                    steps.push(Step::Key(quoted(&mut i)?));
                    continue;
                }
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                if i > start {
                    let name: String = chars[start..i].iter().collect();
                    if name.starts_with(|c: char| c.is_ascii_digit()) {
                        return None;
                    }
                    steps.push(Step::Key(name));
                } else if i < chars.len() && chars[i] != '[' {
                    return None;
                }
            }
            '[' => {
                i += 1;
                if i < chars.len() && chars[i] == '"' {
                    let key = quoted(&mut i)?;
                    if chars.get(i) != Some(&']') {
                        return None;
                    }
                    steps.push(Step::Key(key));
                } else {
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                    if chars.get(i) != Some(&']') {
                        return None;
                    }
                    steps.push(Step::Each);
                }
                i += 1;
            }
            '?' => i += 1,
            _ => return None,
        }
    }
    Some(steps)
}

/// What `entry`'s schema has at `path` (see the module doc). `Err` when the path is not a
/// simple path.
pub fn fields_at(set: &SchemaSet, entry: &TypeEntry, path: &str) -> Result<FieldsAt, String> {
    let steps = parse(path)
        .ok_or_else(|| format!("`{path}` is not a simple path (.a.b, .a[], .a[0], .a[\"b\"])"))?;
    let mut node: NodeId = entry.root;
    for (depth, step) in steps.iter().enumerate() {
        let r = set.resolve(node);
        let next = match step {
            Step::Key(name) => set.field(node, name).or(r.additional),
            Step::Each => r.items.or(r.additional),
        };
        match next {
            Some(child) => node = child,
            None => {
                // Every object has these, whatever its CRD declares; below an open object
                // anything may be.
                let always = depth == 0
                    && matches!(step, Step::Key(k) if matches!(k.as_str(), "apiVersion" | "kind" | "metadata"));
                return Ok(FieldsAt {
                    found: r.open || always,
                    open: r.open || always,
                    ..FieldsAt::default()
                });
            }
        }
    }
    let r = set.resolve(node);
    let description = r
        .parts
        .iter()
        .find_map(|p| set.node(*p).and_then(|n| n.description.clone()));
    let fields = set
        .field_names(node)
        .into_iter()
        .filter_map(|name| {
            let child = set.field(node, name)?;
            Some(Field {
                name: name.to_owned(),
                kind: describe_resolved(&set.resolve(child)),
                description: set
                    .resolve(child)
                    .parts
                    .iter()
                    .find_map(|p| set.node(*p).and_then(|n| n.description.clone())),
            })
        })
        .collect();
    Ok(FieldsAt {
        found: true,
        kind: Some(describe_resolved(&r)),
        description,
        open: r.open,
        map: r.additional.is_some(),
        list: r.items.is_some() || r.additional.is_some(),
        fields,
    })
}

#[cfg(test)]
mod tests {
    use super::{parse, Step};

    #[test]
    fn simple_paths_parse_and_others_do_not() {
        let key = |k: &str| Step::Key(k.to_owned());
        assert_eq!(parse("."), Some(vec![]));
        assert_eq!(parse(""), Some(vec![]));
        assert_eq!(
            parse(".spec.groups[]?.template"),
            Some(vec![
                key("spec"),
                key("groups"),
                Step::Each,
                key("template")
            ])
        );
        assert_eq!(
            parse(r#".metadata.labels["a.b/c"]"#),
            Some(vec![key("metadata"), key("labels"), key("a.b/c")])
        );
        assert_eq!(parse(r#"."x y"[0]"#), Some(vec![key("x y"), Step::Each]));
        assert_eq!(parse(".a | .b"), None);
        assert_eq!(parse(".a[\"b"), None);
        assert_eq!(parse(".a[x]"), None);
    }
}

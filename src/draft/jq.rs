//! Writing jq: the paths and filters of a draft, from the places [`super::shape`] found.

use super::*;

pub(super) fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `.a.b["c-d"]`, or `.` for no keys.
pub(super) fn jq_path(keys: &[String]) -> String {
    if keys.is_empty() {
        return ".".to_owned();
    }
    let mut out = String::new();
    for key in keys {
        if is_identifier(key) {
            out.push('.');
            out.push_str(key);
        } else {
            if out.is_empty() {
                out.push('.');
            }
            out.push_str(&format!("[{}]", json_string(key)));
        }
    }
    out
}

pub(super) fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

/// A path below a jq path: `.a` + `b` = `.a.b`, `.` + `b` = `.b`.
pub(super) fn below(base: &str, keys: &[String]) -> String {
    let rest = jq_path(keys);
    if base == "." {
        rest
    } else if rest == "." {
        base.to_owned()
    } else {
        format!("{base}{rest}")
    }
}

impl ComponentPlan {
    /// A jq program giving one result per instance: `filter` applied to each element.
    pub(super) fn per_instance(&self, filter: &str) -> String {
        match &self.each {
            None => filter.to_owned(),
            Some((prefix, _)) => {
                let keys = keys_of(&prefix[..prefix.len() - 1]);
                let list = jq_path(&keys);
                match prefix.last() {
                    Some(Step::Values) => {
                        format!("({list} // {{}}) | to_entries[] | .value | {filter}")
                    }
                    _ => format!("{list}[]? | {filter}"),
                }
            }
        }
    }

    pub(super) fn spec_path(&self) -> String {
        let mut keys = self.relative.clone();
        if let Some(field) = &self.location.field {
            keys.push(field.clone());
        }
        let path = jq_path(&keys);
        match &self.each {
            None => path,
            Some(_) if path == "." => self.per_instance("."),
            Some(_) => self.per_instance(&path),
        }
    }

    pub(super) fn id_path(&self) -> Option<String> {
        let (prefix, ids) = self.each.as_ref()?;
        let list = jq_path(&keys_of(&prefix[..prefix.len() - 1]));
        Some(match ids {
            Ids::Field(field, _) => {
                format!("{list}[]? | {}", below(".", std::slice::from_ref(field)))
            }
            Ids::Key(_) => format!("({list} // {{}}) | to_entries[] | .key"),
            Ids::Index(_) => format!("({list} // []) | keys[] | tostring"),
        })
    }

    pub(super) fn replicas_path(&self) -> Option<String> {
        if self.scale.factors.is_empty() {
            return None;
        }
        let parts: Vec<String> = self
            .scale
            .factors
            .iter()
            .map(|f| {
                let node = jq_path(&f.node);
                if f.with_completions {
                    let n = if node == "." {
                        String::new()
                    } else {
                        format!("{node} | ")
                    };
                    format!("({n}[(.parallelism // 1), (.completions // .parallelism // 1)] | min)")
                } else {
                    format!("({} // 1)", below(&node, &[f.field.to_owned()]))
                }
            })
            .collect();
        Some(self.per_instance(&parts.join(" * ")))
    }

    pub(super) fn bound_path(
        &self,
        bound: &Option<(Vec<String>, String, Value)>,
    ) -> Option<String> {
        let (node, field, _) = bound.as_ref()?;
        Some(self.per_instance(&below(&jq_path(node), std::slice::from_ref(field))))
    }
}

pub(super) fn keys_of(segs: &[Step]) -> Vec<String> {
    segs.iter()
        .filter_map(|s| match s {
            Step::Key(k) => Some(k.clone()),
            _ => None,
        })
        .collect()
}

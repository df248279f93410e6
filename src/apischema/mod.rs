//! API schemas: what the Kubernetes API says a type's objects hold, for checking definitions.
//!
//! [`SchemaSet::add_text`] reads CustomResourceDefinitions (`spec.versions[].schema
//! .openAPIV3Schema`, one entry per version) and Kubernetes OpenAPI v3 documents
//! (`components.schemas`, with `$ref`, one entry per `x-kubernetes-group-version-kind`), as
//! YAML or JSON, one or many documents (a CRD bundle, a `kind: List`). Every schema becomes
//! [`SchemaNode`]s in one arena, built once: a field's type, its properties, map values
//! (`additionalProperties`), list items, `x-kubernetes-preserve-unknown-fields`,
//! `x-kubernetes-int-or-string`, its enum, and whether it is a pod template or a pod spec (by
//! `$ref` name, or by shape for CRDs that inline them). A `$ref` is a link to the referenced
//! node (cycles are fine); `allOf`/`oneOf`/`anyOf` add their parts' fields and types.
//! Reading is bounded (the YAML reader's limits, and [`MAX_NODES`] schema nodes) and never
//! panics; what cannot be read is a [`codes::SCHEMA_INVALID`] diagnostic.
//!
//! [`check`] checks a definition's paths and expressions against the entries for its type.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::diagnostic::{codes, Diagnostic};

pub mod check;
pub mod draft;
pub mod fields;
pub mod jq;

pub use check::{check_definition, CheckOptions, CheckReport};

/// More schema nodes than this in one set is an error (a 2.7 MB CRD has about 40,000).
pub const MAX_NODES: usize = 2_000_000;

/// Links followed through `$ref`/`allOf` when looking a field up (the same node twice ends it).
const MAX_LINKS: usize = 32;

/// Identifies a node of a [`SchemaSet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub usize);

/// JSON types a schema allows, as bits.
pub mod types {
    /// `object`.
    pub const OBJECT: u8 = 1;
    /// `array`.
    pub const ARRAY: u8 = 2;
    /// `string`.
    pub const STRING: u8 = 4;
    /// `integer`.
    pub const INTEGER: u8 = 8;
    /// `number`.
    pub const NUMBER: u8 = 16;
    /// `boolean`.
    pub const BOOLEAN: u8 = 32;
}

/// What a node is, beyond its JSON type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Role {
    /// Nothing special.
    #[default]
    Plain,
    /// A PodTemplateSpec (`metadata` + a pod spec).
    PodTemplateSpec,
    /// A PodSpec (`containers`, ...).
    PodSpec,
}

/// One schema: a field of an API type and what it may hold.
#[derive(Debug, Clone, Default)]
pub struct SchemaNode {
    /// The JSON types allowed ([`types`] bits); 0 when the schema says nothing.
    pub types: u8,
    /// Named properties, sorted by name.
    pub properties: Vec<(String, NodeId)>,
    /// `additionalProperties`: the schema of every value of a map.
    pub additional: Option<NodeId>,
    /// `additionalProperties: true` (any value) or no `properties` on an `object`.
    pub additional_any: bool,
    /// `items`: the schema of every item of a list.
    pub items: Option<NodeId>,
    /// Nodes whose fields and types this one also has (`$ref`, `allOf`, `oneOf`, `anyOf`).
    pub links: Vec<NodeId>,
    /// `x-kubernetes-preserve-unknown-fields: true`: any field may appear below.
    pub preserve_unknown: bool,
    /// `x-kubernetes-int-or-string: true` (or `format: int-or-string`).
    pub int_or_string: bool,
    /// The `enum` values, as jq's `tostring` prints them.
    pub enum_values: Vec<String>,
    /// The referenced schema's name (`io.k8s.api.core.v1.PodSpec`), for `$ref`ed nodes.
    pub ref_name: Option<String>,
    /// Pod template, pod spec or neither (filled once the whole set is read).
    pub role: Role,
    /// The first line of `description`, when there is one.
    pub description: Option<String>,
}

/// One API type at one version, as a schema says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeEntry {
    /// API group (`""` for the core group).
    pub group: String,
    /// Version (`v1alpha2`).
    pub version: String,
    /// Kind (`JobSet`).
    pub kind: String,
    /// The schema of a whole object.
    pub root: NodeId,
    /// Served (a CRD version with `served: false` is not).
    pub served: bool,
    /// The storage version of its CRD.
    pub storage: bool,
    /// Marked `deprecated: true` in its CRD.
    pub deprecated: bool,
    /// The label of the text it was read from (a file name).
    pub source: String,
}

impl TypeEntry {
    /// `group/version` (`v1` for the core group).
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
}

/// Every schema read: one arena of nodes and the types they describe.
#[derive(Debug, Clone, Default)]
pub struct SchemaSet {
    nodes: Vec<SchemaNode>,
    entries: Vec<TypeEntry>,
}

/// A node with all of its links followed: the union of its fields and types.
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    /// Union of the JSON types; 0 when nothing says.
    pub types: u8,
    /// Any field may appear (`x-kubernetes-preserve-unknown-fields`, or a free-form object).
    pub open: bool,
    /// The map value schema, when a map.
    pub additional: Option<NodeId>,
    /// The item schema, when a list.
    pub items: Option<NodeId>,
    /// Pod template / pod spec / neither.
    pub role: Role,
    /// int-or-string.
    pub int_or_string: bool,
    /// The enum values (empty: any value).
    pub enum_values: Vec<String>,
    /// The nodes taking part (the node and its links).
    pub parts: Vec<NodeId>,
}

/// A schema set read from texts, with the problems found reading them (shared by the calls
/// that check or draft against the same texts).
pub type ReadSchemas = std::rc::Rc<(SchemaSet, Vec<Diagnostic>)>;

/// The schema set of the last texts read, kept by a hash of them: checking many definitions
/// (the CLI, the playground's keystrokes) against the same schemas reads them once.
#[derive(Default)]
pub struct SchemaCache {
    last: Option<(u64, ReadSchemas)>,
}

impl SchemaCache {
    /// The schema set of `texts` (`(label, text)` pairs), read unless the last call had the
    /// same texts.
    pub fn read(&mut self, texts: &[(String, String)]) -> ReadSchemas {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        texts.hash(&mut hasher);
        let key = hasher.finish();
        if let Some((k, read)) = &self.last {
            if *k == key {
                return read.clone();
            }
        }
        let read = std::rc::Rc::new(SchemaSet::read_texts(texts));
        self.last = Some((key, read.clone()));
        read
    }
}

impl SchemaSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// The set of several texts (`(label, text)` pairs, read in order with
    /// [`add_text`](Self::add_text)), with the problems found reading them.
    pub fn read_texts(texts: &[(String, String)]) -> (SchemaSet, Vec<Diagnostic>) {
        let mut set = SchemaSet::new();
        let mut problems = Vec::new();
        for (label, text) in texts {
            problems.extend(set.add_text(text, label));
        }
        (set, problems)
    }

    /// The types read so far, in reading order.
    pub fn entries(&self) -> &[TypeEntry] {
        &self.entries
    }

    /// The node `id` (`None` for an id of another set).
    pub fn node(&self, id: NodeId) -> Option<&SchemaNode> {
        self.nodes.get(id.0)
    }

    /// The entries for a group and kind (every version), in reading order.
    pub fn find(&self, group: &str, kind: &str) -> Vec<&TypeEntry> {
        self.entries
            .iter()
            .filter(|e| e.group == group && e.kind == kind)
            .collect()
    }

    /// Reads one text holding CRDs and/or OpenAPI v3 documents (YAML or JSON, one or more
    /// documents, `kind: List` items). `label` names the text in entries and messages. The
    /// problems found are returned; what could be read is added either way.
    pub fn add_text(&mut self, text: &str, label: &str) -> Vec<Diagnostic> {
        let mut problems = Vec::new();
        let documents: Vec<Value> = if text.trim_start().starts_with('{') {
            match crate::yaml::parse_json(text) {
                Ok(value) => vec![value],
                Err(d) => return vec![schema_problem(label, &d.message)],
            }
        } else {
            match crate::yaml::parse_documents(text) {
                Ok(docs) => docs.iter().map(crate::yaml::Node::to_json).collect(),
                Err(d) => return vec![schema_problem(label, &d.message)],
            }
        };
        let before = self.entries.len();
        let first_node = self.nodes.len();
        for doc in &documents {
            let items: Vec<&Value> = match (doc.get("kind"), doc.get("items")) {
                (Some(Value::String(k)), Some(Value::Array(items))) if k.ends_with("List") => {
                    items.iter().collect()
                }
                _ => vec![doc],
            };
            for item in items {
                if let Err(message) = self.add_document(item, label) {
                    problems.push(schema_problem(label, &message));
                    if message.contains("too many") {
                        return problems;
                    }
                }
            }
        }
        self.assign_roles(first_node);
        if self.entries.len() == before && problems.is_empty() {
            problems.push(schema_problem(
                label,
                "holds no CustomResourceDefinition with a schema and no OpenAPI v3 document with \
                 components.schemas",
            ));
        }
        problems
    }

    fn add_document(&mut self, doc: &Value, label: &str) -> Result<(), String> {
        if doc.get("kind").and_then(Value::as_str) == Some("CustomResourceDefinition") {
            return self.add_crd(doc, label);
        }
        if let Some(Value::Object(schemas)) = doc.get("components").and_then(|c| c.get("schemas")) {
            return self.add_openapi(schemas, label);
        }
        let kind = doc.get("kind").and_then(Value::as_str).unwrap_or("no kind");
        Err(format!(
            "a document ({kind}) is neither a CustomResourceDefinition nor an OpenAPI v3 document"
        ))
    }

    fn add_crd(&mut self, doc: &Value, label: &str) -> Result<(), String> {
        let spec = doc.get("spec");
        let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_owned();
        let group = text(spec.and_then(|s| s.get("group")));
        let kind = text(
            spec.and_then(|s| s.get("names"))
                .and_then(|n| n.get("kind")),
        );
        if kind.is_empty() {
            return Err("a CustomResourceDefinition has no spec.names.kind".to_owned());
        }
        // apiextensions.k8s.io/v1beta1 kept one schema for all versions in spec.validation.
        let shared = spec
            .and_then(|s| s.get("validation"))
            .and_then(|v| v.get("openAPIV3Schema"));
        let versions = spec
            .and_then(|s| s.get("versions"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut any = false;
        for v in &versions {
            let schema = v
                .get("schema")
                .and_then(|s| s.get("openAPIV3Schema"))
                .or(shared);
            let Some(schema) = schema else { continue };
            let refs = HashMap::new();
            let mut builder = Builder {
                set: self,
                refs,
                schemas: None,
                pending: Vec::new(),
            };
            let root = builder.build(schema)?;
            builder.finish()?;
            let flag = |name: &str| v.get(name).and_then(Value::as_bool).unwrap_or(false);
            self.entries.push(TypeEntry {
                group: group.clone(),
                version: text(v.get("name")),
                kind: kind.clone(),
                root,
                served: v.get("served").and_then(Value::as_bool).unwrap_or(true),
                storage: flag("storage"),
                deprecated: flag("deprecated"),
                source: label.to_owned(),
            });
            any = true;
        }
        if any {
            Ok(())
        } else {
            Err(format!(
                "the CustomResourceDefinition for {kind} has no version with \
                 schema.openAPIV3Schema"
            ))
        }
    }

    fn add_openapi(&mut self, schemas: &Map<String, Value>, label: &str) -> Result<(), String> {
        let mut builder = Builder {
            set: self,
            refs: HashMap::new(),
            schemas: Some(schemas),
            pending: Vec::new(),
        };
        let mut found = Vec::new();
        for (name, schema) in schemas {
            let Some(Value::Array(gvks)) = schema.get("x-kubernetes-group-version-kind") else {
                continue;
            };
            let id = builder.reference(name)?;
            for gvk in gvks {
                let get = |k: &str| gvk.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
                found.push((get("group"), get("version"), get("kind"), id));
            }
        }
        builder.finish()?;
        for (group, version, kind, root) in found {
            self.entries.push(TypeEntry {
                group,
                version,
                kind,
                root,
                served: true,
                storage: true,
                deprecated: false,
                source: label.to_owned(),
            });
        }
        Ok(())
    }

    /// Fills [`SchemaNode::role`] of the nodes from `first` on (one text's; links never leave
    /// a text): by `$ref` name, then by shape.
    fn assign_roles(&mut self, first: usize) {
        let count = self.nodes.len();
        for i in first..count {
            let role = self.role_by_name(NodeId(i)).unwrap_or(Role::Plain);
            if let Some(n) = self.nodes.get_mut(i) {
                n.role = role;
            }
        }
        for i in first..count {
            if self.nodes.get(i).is_some_and(|n| n.role == Role::Plain)
                && self.pod_spec_shape(NodeId(i))
            {
                if let Some(n) = self.nodes.get_mut(i) {
                    n.role = Role::PodSpec;
                }
            }
        }
        for i in first..count {
            if self.nodes.get(i).is_some_and(|n| n.role == Role::Plain) {
                // A spec that is a pod spec, or `metadata` beside a spec the schema leaves
                // open (operators that prune the PodSpec to preserve-unknown-fields).
                let spec = self.field(NodeId(i), "spec").map(|s| self.resolve(s));
                let metadata = self.field(NodeId(i), "metadata").is_some();
                let template = spec.is_some_and(|s| {
                    s.role == Role::PodSpec || (metadata && s.open && s.types & types::OBJECT != 0)
                }) && self.field(NodeId(i), "containers").is_none();
                if template {
                    if let Some(n) = self.nodes.get_mut(i) {
                        n.role = Role::PodTemplateSpec;
                    }
                }
            }
        }
    }

    fn role_by_name(&self, id: NodeId) -> Option<Role> {
        let name = self.node(id)?.ref_name.as_deref()?;
        if name.ends_with(".PodTemplateSpec") {
            Some(Role::PodTemplateSpec)
        } else if name.ends_with(".PodSpec") {
            Some(Role::PodSpec)
        } else {
            None
        }
    }

    /// A pod spec by shape: `containers`, a list of objects with `name` and `image` (or of
    /// objects the CRD leaves open).
    fn pod_spec_shape(&self, id: NodeId) -> bool {
        let Some(containers) = self.own_field(id, "containers") else {
            return false;
        };
        let Some(item) = self.resolve(containers).items else {
            return false;
        };
        let named = self.field(item, "name").is_some() && self.field(item, "image").is_some();
        let open = self.resolve(item);
        named || (open.open && open.types & types::OBJECT != 0)
    }

    /// Property `name` of the node itself (links not followed).
    fn own_field(&self, id: NodeId, name: &str) -> Option<NodeId> {
        let node = self.node(id)?;
        node.properties
            .binary_search_by(|(k, _)| k.as_str().cmp(name))
            .ok()
            .and_then(|i| node.properties.get(i))
            .map(|(_, v)| *v)
    }

    /// The node and the nodes it links to, each once, links first-come.
    fn parts(&self, id: NodeId) -> Vec<NodeId> {
        let mut parts = vec![id];
        let mut i = 0;
        while let Some(&at) = parts.get(i) {
            if parts.len() >= MAX_LINKS {
                break;
            }
            if let Some(node) = self.node(at) {
                for link in &node.links {
                    if !parts.contains(link) {
                        parts.push(*link);
                    }
                }
            }
            i += 1;
        }
        parts
    }

    /// Property `name` of the node, its links included.
    pub fn field(&self, id: NodeId, name: &str) -> Option<NodeId> {
        self.parts(id)
            .into_iter()
            .find_map(|p| self.own_field(p, name))
    }

    /// The node with its links followed.
    pub fn resolve(&self, id: NodeId) -> Resolved {
        let mut r = Resolved::default();
        let mut has_properties = false;
        let mut declared_any = false;
        for p in self.parts(id) {
            let Some(n) = self.node(p) else { continue };
            r.types |= n.types;
            r.open |= n.preserve_unknown;
            declared_any |= n.additional_any;
            has_properties |= !n.properties.is_empty();
            r.additional = r.additional.or(n.additional);
            r.items = r.items.or(n.items);
            r.int_or_string |= n.int_or_string;
            if r.role == Role::Plain {
                r.role = n.role;
            }
            if r.enum_values.is_empty() {
                r.enum_values.clone_from(&n.enum_values);
            }
            r.parts.push(p);
        }
        if r.int_or_string {
            r.types |= types::INTEGER | types::STRING;
        }
        // An object that names no field and no value schema holds anything (`metadata` in a
        // CRD, `type: object` alone): nothing can be said about its fields.
        let object_like = r.types & types::OBJECT != 0 || r.types == 0;
        if object_like && !has_properties && r.additional.is_none() && r.items.is_none() {
            r.open |= declared_any || r.types & types::OBJECT != 0 || r.types == 0;
        }
        r
    }

    /// The property names of a node (its links included), sorted and each once.
    pub fn field_names(&self, id: NodeId) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .parts(id)
            .into_iter()
            .filter_map(|p| self.node(p))
            .flat_map(|n| n.properties.iter().map(|(k, _)| k.as_str()))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// A short name of what the node holds: `pod template`, `map`, `array`, `integer`, ...
    pub fn describe(&self, id: NodeId) -> String {
        describe_resolved(&self.resolve(id))
    }
}

/// A short name of what a resolved node holds.
pub(crate) fn describe_resolved(r: &Resolved) -> String {
    match r.role {
        Role::PodTemplateSpec => return "a pod template".to_owned(),
        Role::PodSpec => return "a pod spec".to_owned(),
        Role::Plain => {}
    }
    if r.int_or_string {
        return "an int-or-string".to_owned();
    }
    let mut names = Vec::new();
    for (bit, name) in [
        (
            types::OBJECT,
            if r.additional.is_some() {
                "a map"
            } else {
                "an object"
            },
        ),
        (types::ARRAY, "an array"),
        (types::STRING, "a string"),
        (types::INTEGER, "an integer"),
        (types::NUMBER, "a number"),
        (types::BOOLEAN, "a boolean"),
    ] {
        if r.types & bit != 0 {
            names.push(name);
        }
    }
    if names.is_empty() {
        "any value".to_owned()
    } else {
        names.join(" or ")
    }
}

fn schema_problem(label: &str, message: &str) -> Diagnostic {
    let mut d = Diagnostic::error(codes::SCHEMA_INVALID, format!("{label}: {message}"));
    d.source = crate::diagnostic::Source::Schema;
    d
}

/// Builds nodes from one document: CRD schemas inline, OpenAPI schemas through `$ref`.
struct Builder<'s, 'v> {
    set: &'s mut SchemaSet,
    /// `$ref` name → its node (created on first reference, filled from `pending`).
    refs: HashMap<String, NodeId>,
    /// `components.schemas`, for an OpenAPI document.
    schemas: Option<&'v Map<String, Value>>,
    /// Referenced schemas still to fill, so `$ref` chains never recurse.
    pending: Vec<(NodeId, String)>,
}

impl Builder<'_, '_> {
    fn alloc(&mut self, node: SchemaNode) -> Result<NodeId, String> {
        if self.set.nodes.len() >= MAX_NODES {
            return Err(format!("too many schema nodes (more than {MAX_NODES})"));
        }
        self.set.nodes.push(node);
        Ok(NodeId(self.set.nodes.len() - 1))
    }

    /// The node of `#/components/schemas/<name>` (created empty, filled by `finish`).
    fn reference(&mut self, name: &str) -> Result<NodeId, String> {
        if let Some(id) = self.refs.get(name) {
            return Ok(*id);
        }
        let id = self.alloc(SchemaNode {
            ref_name: Some(name.to_owned()),
            ..SchemaNode::default()
        })?;
        self.refs.insert(name.to_owned(), id);
        self.pending.push((id, name.to_owned()));
        Ok(id)
    }

    /// Fills every referenced schema (which may reference more).
    fn finish(&mut self) -> Result<(), String> {
        while let Some((id, name)) = self.pending.pop() {
            let Some(schema) = self.schemas.and_then(|s| s.get(&name)) else {
                continue; // a dangling reference holds anything
            };
            let built = self.build(schema)?;
            if let Some(node) = self.set.nodes.get_mut(id.0) {
                node.links.push(built);
            }
        }
        Ok(())
    }

    /// Builds the node of one schema value. Recursion follows the value's nesting, which the
    /// reader bounds (yaml::MAX_DEPTH); `$ref`s are links, filled later.
    fn build(&mut self, schema: &Value) -> Result<NodeId, String> {
        let Value::Object(s) = schema else {
            // `true`/`false` schemas, or damage: anything.
            return self.alloc(SchemaNode::default());
        };
        let mut node = SchemaNode::default();
        if let Some(Value::String(r)) = s.get("$ref") {
            let name = r.rsplit('/').next().unwrap_or(r);
            let target = self.reference(name)?;
            node.links.push(target);
        }
        match s.get("type") {
            Some(Value::String(t)) => node.types |= type_bit(t),
            Some(Value::Array(ts)) => {
                for t in ts.iter().filter_map(Value::as_str) {
                    node.types |= type_bit(t);
                }
            }
            _ => {}
        }
        let flag = |k: &str| s.get(k).and_then(Value::as_bool).unwrap_or(false);
        node.preserve_unknown = flag("x-kubernetes-preserve-unknown-fields");
        node.int_or_string = flag("x-kubernetes-int-or-string")
            || s.get("format").and_then(Value::as_str) == Some("int-or-string");
        if let Some(Value::Array(values)) = s.get("enum") {
            node.enum_values = values.iter().map(crate::expr::to_jq_string).collect();
        }
        node.description = s
            .get("description")
            .and_then(Value::as_str)
            .and_then(|d| d.lines().next())
            .map(|d| d.chars().take(200).collect());
        if let Some(Value::Object(props)) = s.get("properties") {
            let mut properties = Vec::with_capacity(props.len());
            for (name, value) in props {
                properties.push((name.clone(), self.build(value)?));
            }
            properties.sort_by(|a, b| a.0.cmp(&b.0));
            node.properties = properties;
        }
        match s.get("additionalProperties") {
            Some(Value::Bool(true)) => node.additional_any = true,
            Some(v @ Value::Object(_)) => node.additional = Some(self.build(v)?),
            _ => {}
        }
        match s.get("items") {
            Some(v @ Value::Object(_)) => node.items = Some(self.build(v)?),
            Some(Value::Array(tuple)) => {
                if let Some(first) = tuple.first() {
                    node.items = Some(self.build(first)?);
                }
            }
            _ => {}
        }
        for key in ["allOf", "oneOf", "anyOf"] {
            if let Some(Value::Array(parts)) = s.get(key) {
                for part in parts {
                    let id = self.build(part)?;
                    node.links.push(id);
                }
            }
        }
        self.alloc(node)
    }
}

fn type_bit(t: &str) -> u8 {
    match t {
        "object" => types::OBJECT,
        "array" => types::ARRAY,
        "string" => types::STRING,
        "integer" => types::INTEGER,
        "number" => types::NUMBER,
        "boolean" => types::BOOLEAN,
        _ => 0,
    }
}

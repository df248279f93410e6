//! A YAML/JSON reader that keeps source positions.
//!
//! Manifests and definitions are read the way `kubectl` reads them, so that what we resolve is
//! what the cluster would see: YAML 1.2 core schema scalars plus the YAML 1.1 booleans of
//! go-yaml v2 (`yes`, `on`, `y`, ...), duplicate keys rejected, non-string keys turned into
//! their string form. Unlike serde-based readers, every [`Node`] keeps the byte range it was
//! written at, so diagnostics can point at the exact text.
//!
//! The tree is built from `saphyr-parser` events with an explicit stack: nesting depth
//! ([`MAX_DEPTH`], the one limit for text and plain objects alike) and the node count and bytes
//! that alias expansion may add ([`Limits`]) are capped, and every cap is checked *before* the
//! work it bounds is done, so that hostile input ends in a [`codes::TOO_LARGE`] diagnostic at
//! the offending place, never a stack overflow, an out-of-memory abort or a long stall.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use saphyr_parser::{Event, Parser, ScalarStyle, Span, Tag};
use serde_json::{Map, Number, Value};

use crate::diagnostic::{codes, Diagnostic, TextRange};
use crate::path::Step;

/// Deepest nesting of collections (mappings and sequences) accepted in a document: 128.
///
/// The one nesting limit of every input, YAML and JSON text and plain JavaScript objects
/// alike (the wasm boundary checks objects against it before reading them), so that whatever is
/// accepted as text is also accepted as an object and the other way round. It also bounds every
/// recursive walk of a tree. Real Kubernetes objects nest a few dozen levels at most.
pub const MAX_DEPTH: usize = 128;
/// Most nodes a stream may hold, aliases expanded (the default of [`Limits::nodes`]).
pub const MAX_NODES: usize = 2_000_000;
/// Most nodes that anchors and alias expansion may copy in a stream, the "billion laughs"
/// guard (the default of [`Limits::alias_nodes`]).
pub const MAX_ALIAS_NODES: usize = 100_000;
/// Most bytes of scalar text that anchors and alias expansion may copy in a stream: 64 MiB
/// (the default of [`Limits::alias_bytes`]).
pub const MAX_ALIAS_BYTES: usize = 64 * 1024 * 1024;
/// Most bytes a text may hold: 64 MiB (the default of [`Limits::text_bytes`]). The largest
/// Kubernetes object etcd stores is about 1.5 MiB; a `kind: List` of many is larger, but not this.
pub const MAX_TEXT_BYTES: usize = 64 * 1024 * 1024;

/// Size limits of the reader; [`Limits::default`] is what [`parse_documents`] and
/// [`parse_single`] use. Nesting depth is not here: it is [`MAX_DEPTH`] for every input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most nodes a stream may hold, aliases expanded.
    pub nodes: usize,
    /// Most nodes that the copies made for anchors and aliases may hold in all.
    pub alias_nodes: usize,
    /// Most bytes that the copies made for anchors and aliases may hold in all, counting the
    /// text of every scalar copied (keys and values). Checked before each copy is made.
    pub alias_bytes: usize,
    /// Most bytes of text read at all; a longer text is refused before it is parsed.
    pub text_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            nodes: MAX_NODES,
            alias_nodes: MAX_ALIAS_NODES,
            alias_bytes: MAX_ALIAS_BYTES,
            text_bytes: MAX_TEXT_BYTES,
        }
    }
}

/// A parsed YAML/JSON value with the byte range it was written at.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The value.
    pub value: NodeValue,
    /// Byte range of the value in the source text (for an expanded alias: the alias).
    pub range: TextRange,
}

/// The value of a [`Node`].
#[derive(Debug, Clone, PartialEq)]
pub enum NodeValue {
    /// `null`, `~` or nothing.
    Null,
    /// A boolean (YAML 1.2 `true`/`false` and the YAML 1.1 forms Kubernetes accepts).
    Bool(bool),
    /// A finite number. `.inf`, `-.inf` and `.nan` have no JSON form and are kept as
    /// [`NodeValue::String`]s (see [`non_finite_text`]).
    Number(Number),
    /// A string.
    String(String),
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping in document order; keys are always [`NodeValue::String`] nodes.
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The node as a JSON value (mapping keys sorted, as `serde_json::Map` keeps them).
    pub fn to_json(&self) -> Value {
        // Depth is bounded by MAX_DEPTH, so recursion is safe here.
        match &self.value {
            NodeValue::Null => Value::Null,
            NodeValue::Bool(b) => Value::Bool(*b),
            NodeValue::Number(n) => Value::Number(n.clone()),
            NodeValue::String(s) => Value::String(s.clone()),
            NodeValue::Seq(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            NodeValue::Map(entries) => {
                let mut map = Map::new();
                for (k, v) in entries {
                    if let Some(k) = k.as_str() {
                        map.insert(k.to_owned(), v.to_json());
                    }
                }
                Value::Object(map)
            }
        }
    }

    /// The value of mapping key `key`, when this is a mapping holding it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.get_entry(key).map(|(_, v)| v)
    }

    /// The key node and value of mapping key `key`, when this is a mapping holding it.
    pub fn get_entry(&self, key: &str) -> Option<(&Node, &Node)> {
        match &self.value {
            NodeValue::Map(entries) => entries
                .iter()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(k, v)| (k, v)),
            _ => None,
        }
    }

    /// Item `index` of a sequence.
    pub fn index(&self, index: usize) -> Option<&Node> {
        self.as_seq().and_then(|items| items.get(index))
    }

    /// The string, when this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            NodeValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, when this is a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            NodeValue::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The number, when this is a number.
    pub fn as_number(&self) -> Option<&Number> {
        match &self.value {
            NodeValue::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The items, when this is a sequence.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            NodeValue::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The entries, when this is a mapping.
    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            NodeValue::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self.value, NodeValue::Null)
    }

    /// What kind of value this is, for messages: `null`, `boolean`, `number`, `string`,
    /// `list` or `map`.
    pub fn type_name(&self) -> &'static str {
        match self.value {
            NodeValue::Null => "null",
            NodeValue::Bool(_) => "boolean",
            NodeValue::Number(_) => "number",
            NodeValue::String(_) => "string",
            NodeValue::Seq(_) => "list",
            NodeValue::Map(_) => "map",
        }
    }

    /// The node a JSON path leads to (to find where a value of [`to_json`](Self::to_json)'s
    /// result was written).
    /// Only keys and non-negative indices lead anywhere.
    pub fn locate(&self, json_path: &[Step]) -> Option<&Node> {
        let mut node = self;
        for segment in json_path {
            node = match segment {
                Step::Key(key) => node.get(key)?,
                Step::Index(i) => node.index(usize::try_from(*i).ok()?)?,
                Step::Each | Step::Items | Step::Values => return None,
            };
        }
        Some(node)
    }

    /// The key node of the last step of `json_path` when it is a mapping key (to point at a
    /// key rather than its value).
    pub fn locate_key(&self, json_path: &[Step]) -> Option<&Node> {
        let (last, parent) = json_path.split_last()?;
        match last {
            Step::Key(key) => self.locate(parent)?.get_entry(key).map(|(k, _)| k),
            _ => None,
        }
    }
}

/// Parses a stream of YAML (or JSON) documents; empty documents are skipped.
pub fn parse_documents(text: &str) -> Result<Vec<Node>, Diagnostic> {
    parse_documents_with(text, &Limits::default())
}

/// [`parse_documents`] with other size limits.
///
/// A text that is one JSON value (after an optional byte order mark and whitespace) is read by
/// [`Builder::run_json`], which counts every value as it reads it: `saphyr-parser` scans a
/// whole flow collection before it reports its first event (any flow collection could still
/// turn out to be a mapping key), so a large JSON text would be held as tokens, several hundred
/// bytes a value, before the value cap could see one of them. Any other text is read as YAML,
/// after [`check_flow_items`] has held its flow collections to the value cap the same way.
pub fn parse_documents_with(text: &str, limits: &Limits) -> Result<Vec<Node>, Diagnostic> {
    check_text_bytes(text, limits.text_bytes)?;
    if let Some(docs) = Builder::new(text, *limits).run_json()? {
        return Ok(docs);
    }
    check_flow_items(text, limits.nodes)?;
    Builder::new(text, *limits).run()
}

/// Parses text that must hold exactly one document.
pub fn parse_single(text: &str) -> Result<Node, Diagnostic> {
    let mut docs = parse_documents(text)?.into_iter();
    match (docs.next(), docs.next()) {
        (Some(doc), None) => Ok(doc),
        (None, _) => Err(
            Diagnostic::error(codes::EMPTY_DOCUMENT, "the text holds no document")
                .with_range(TextRange::empty(0))
                .with_help("write one YAML or JSON object"),
        ),
        (Some(_), Some(second)) => Err(Diagnostic::error(
            codes::SYNTAX,
            "expected a single document, found several",
        )
        .with_range(second.range)
        .with_help("remove the `---` separated documents after the first")),
    }
}

/// Parses JSON text as a JavaScript engine's `JSON.stringify` writes it (a plain object crossing
/// the wasm boundary) into a value, holding it to the same nesting limit as YAML and JSON text:
/// deeper text is a [`codes::TOO_LARGE`] diagnostic with the document path where the limit was
/// passed, found by a flat scan before anything recursive reads the text.
pub fn parse_json(text: &str) -> Result<Value, Diagnostic> {
    check_text_bytes(text, MAX_TEXT_BYTES)?;
    check_json_depth(text, MAX_DEPTH)?;
    deserialize_json(text)
}

/// Parses the JSON text of an array of plain objects as `JSON.stringify` writes it (the objects
/// of a manifest given as an array), holding each item to [`MAX_DEPTH`] on its own, as if it
/// had been given alone: a deeper item is a [`codes::TOO_LARGE`] diagnostic whose path starts
/// with the item's index. The text as a whole is not held to [`MAX_TEXT_BYTES`] (a
/// JavaScript array has no text the user wrote).
pub fn parse_json_items(text: &str) -> Result<Value, Diagnostic> {
    // The array is one level more than each item.
    check_json_depth(text, MAX_DEPTH + 1)?;
    deserialize_json(text)
}

/// Reads JSON text whose depth was checked.
fn deserialize_json(text: &str) -> Result<Value, Diagnostic> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    // The depth scan bounds the recursion; serde_json's own limit (127) is below MAX_DEPTH.
    deserializer.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut deserializer)
        .and_then(|v: Value| deserializer.end().map(|()| v));
    value.map_err(|e| {
        let at = byte_offset(text, e.line(), e.column());
        Diagnostic::error(codes::SYNTAX, e.to_string()).with_range(TextRange::empty(at))
    })
}

/// The problem with a plain object that nests deeper than [`MAX_DEPTH`], found before it was
/// serialised (the wasm boundary measures JavaScript objects first, because the engine's
/// `JSON.stringify` recurses and runs out of stack a few thousand levels down): the same
/// diagnostic that reading its JSON text gives, `steps` leading to the first value past the
/// limit. It has no range (the object has no text).
pub fn too_deep(steps: &[Step]) -> Diagnostic {
    Diagnostic::error(
        codes::TOO_LARGE,
        format!("the object nests deeper than {MAX_DEPTH} levels"),
    )
    .with_path(json_path(steps))
}

/// Most values a plain object may hold: more than this would make its JSON text longer than
/// [`MAX_TEXT_BYTES`] (every value written takes at least its own byte and a separator), so the
/// wasm boundary refuses such an object while measuring it, before serialising it.
pub const MAX_OBJECT_VALUES: usize = MAX_TEXT_BYTES / 2 + 1;

/// The problem with a plain object of more than [`MAX_OBJECT_VALUES`] values, found before it
/// was serialised: its text would be past [`MAX_TEXT_BYTES`]. It has no range.
pub fn too_many_values() -> Diagnostic {
    Diagnostic::error(
        codes::TOO_LARGE,
        format!(
            "the object holds more than {MAX_OBJECT_VALUES} values: as JSON text it would be more than the {} that are read",
            human_bytes(MAX_TEXT_BYTES)
        ),
    )
}

/// A byte offset from serde_json's 1-based line and column (columns count bytes).
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + column.saturating_sub(1)).min(text.len())
}

/// One open collection of the JSON depth scan: the key or index being read in it.
enum Level {
    Object(String),
    Array(usize),
}

/// Scans JSON text flat for a collection opened past `max` levels (the reader's depth check
/// of [`parse_json`] and [`parse_json_items`]).
fn check_json_depth(text: &str, max: usize) -> Result<(), Diagnostic> {
    let bytes = text.as_bytes();
    let mut stack: Vec<Level> = Vec::new();
    let mut expect_key = false;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' => {
                let start = i;
                i += 1;
                while let Some(&c) = bytes.get(i) {
                    match c {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
                if std::mem::take(&mut expect_key) {
                    if let Some(Level::Object(key)) = stack.last_mut() {
                        *key = text
                            .get(start..=i)
                            .and_then(|quoted| serde_json::from_str(quoted).ok())
                            .unwrap_or_default();
                    }
                }
            }
            b'{' | b'[' => {
                if stack.len() >= max {
                    let steps: Vec<Step> = stack
                        .drain(..)
                        .map(|level| match level {
                            Level::Object(key) => Step::Key(key),
                            Level::Array(n) => Step::index(n),
                        })
                        .collect();
                    return Err(too_deep(&steps).with_range(TextRange::new(i, i + 1)));
                }
                stack.push(if b == b'{' {
                    expect_key = true;
                    Level::Object(String::new())
                } else {
                    Level::Array(0)
                });
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Level::Array(n)) => *n += 1,
                Some(Level::Object(_)) => expect_key = true,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// `spec.template.containers[0]`: the dotted path of a too deep value (keys as they are
/// written, indices in brackets).
fn json_path(steps: &[Step]) -> String {
    let mut path = String::new();
    for step in steps {
        match step {
            Step::Key(key) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Step::Index(i) => {
                let _ = write!(path, "[{i}]");
            }
            Step::Each | Step::Items | Step::Values => path.push_str("[]"),
        }
    }
    path
}

/// Converts saphyr's character indexes into byte offsets.
enum Offsets {
    Ascii,
    Table(Vec<u32>),
}

impl Offsets {
    fn new(text: &str) -> Self {
        if text.is_ascii() {
            return Offsets::Ascii;
        }
        let mut table: Vec<u32> = text.char_indices().map(|(i, _)| to_u32(i)).collect();
        table.push(to_u32(text.len()));
        Offsets::Table(table)
    }

    fn byte(&self, char_index: usize) -> usize {
        match self {
            Offsets::Ascii => char_index,
            Offsets::Table(t) => t
                .get(char_index)
                .or(t.last())
                .map_or(char_index, |&b| b as usize),
        }
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A collection being built.
struct Frame {
    start: usize,
    anchor: usize,
    /// Nodes inside, aliases expanded (for the alias node cap).
    count: usize,
    /// Bytes of scalar text inside, aliases expanded (for the alias byte cap).
    bytes: usize,
    /// Collection levels of the subtree, this one included.
    height: usize,
    kind: FrameKind,
}

enum FrameKind {
    Seq(Vec<Node>),
    Map(MapFrame),
}

struct MapFrame {
    entries: Vec<(Node, Node)>,
    /// The key waiting for its value, and whether it is a merge key (`<<`).
    pending_key: Option<(Node, bool)>,
    /// Values of `<<` keys, merged when the mapping ends.
    merges: Vec<Node>,
    /// Keys seen, once the mapping is large enough for a linear scan to hurt.
    index: Option<HashSet<String>>,
}

/// An anchored node kept for its aliases.
struct Anchored {
    node: Node,
    count: usize,
    bytes: usize,
    height: usize,
}

struct Builder<'t> {
    text: &'t str,
    offsets: Offsets,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Anchored>,
    docs: Vec<Node>,
    limits: Limits,
    nodes: usize,
    alias_nodes: usize,
    alias_bytes: usize,
}

/// A completed node with the size facts the caps need.
struct Done {
    node: Node,
    anchor: usize,
    count: usize,
    bytes: usize,
    /// Collection levels (0 for a scalar).
    height: usize,
    /// A plain `<<` scalar (a merge key when used as a key).
    merge_key: bool,
}

const LINEAR_KEY_SCAN: usize = 16;

impl<'t> Builder<'t> {
    fn new(text: &'t str, limits: Limits) -> Self {
        Builder {
            text,
            // Only the YAML reader needs it (`run`): a table of every character's offset.
            offsets: Offsets::Ascii,
            stack: Vec::new(),
            anchors: HashMap::new(),
            docs: Vec::new(),
            limits,
            nodes: 0,
            alias_nodes: 0,
            alias_bytes: 0,
        }
    }

    fn range(&self, span: &Span) -> TextRange {
        TextRange::new(
            self.offsets.byte(span.start.index()),
            self.offsets.byte(span.end.index()),
        )
    }

    fn run(mut self) -> Result<Vec<Node>, Diagnostic> {
        self.offsets = Offsets::new(self.text);
        let mut parser = Parser::new_from_str(self.text);
        while let Some(event) = parser.next_event() {
            let (event, span) = event.map_err(|e| {
                let at = self.offsets.byte(e.marker().index());
                let end = self
                    .text
                    .get(at..)
                    .and_then(|s| s.chars().next())
                    .map_or(0, char::len_utf8);
                let range = TextRange::new(at, at + end);
                // saphyr counts flow levels in a u8: its only size limit.
                if e.info() == "recursion limit exceeded" {
                    return too_large(
                        range,
                        format!("the document nests deeper than {MAX_DEPTH} levels"),
                    );
                }
                Diagnostic::error(codes::SYNTAX, e.info().to_owned()).with_range(range)
            })?;
            let range = self.range(&span);
            self.event(event, range)?;
        }
        Ok(self.docs)
    }

    fn event(&mut self, event: Event<'_>, range: TextRange) -> Result<(), Diagnostic> {
        match event {
            Event::DocumentStart(_) => {
                // Anchors are scoped to their document.
                self.anchors.clear();
            }
            Event::Scalar(value, style, anchor, tag) => {
                let range = self.scalar_range(range);
                let merge_key = style == ScalarStyle::Plain && tag.is_none() && value == "<<";
                let bytes = value.len();
                let value = resolve_scalar(&value, style, tag.as_deref(), range)?;
                self.count_nodes(1, range)?;
                self.complete(Done {
                    node: Node { value, range },
                    anchor,
                    count: 1,
                    bytes,
                    height: 0,
                    merge_key,
                })?;
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if self.stack.len() >= MAX_DEPTH {
                    return Err(too_large(
                        range,
                        format!("the document nests deeper than {MAX_DEPTH} levels"),
                    ));
                }
                self.count_nodes(1, range)?;
                let kind = if matches!(event, Event::SequenceStart(..)) {
                    FrameKind::Seq(Vec::new())
                } else {
                    FrameKind::Map(MapFrame {
                        entries: Vec::new(),
                        pending_key: None,
                        merges: Vec::new(),
                        index: None,
                    })
                };
                self.stack.push(Frame {
                    start: range.start as usize,
                    anchor,
                    count: 1,
                    bytes: 0,
                    height: 1,
                    kind,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Ok(());
                };
                let end_range = range;
                let value = match frame.kind {
                    FrameKind::Seq(items) => NodeValue::Seq(items),
                    FrameKind::Map(map) => NodeValue::Map(merge(map)?),
                };
                // A flow collection ends at its bracket; a block one at its last child (the
                // end event of a block collection sits at the next token, past comments).
                let last_child_end = match &value {
                    NodeValue::Seq(items) => items.last().map(|n| n.range.end),
                    NodeValue::Map(entries) => entries.iter().map(|(_, v)| v.range.end).max(),
                    _ => None,
                };
                let end = if end_range.start < end_range.end {
                    end_range.end as usize
                } else {
                    last_child_end.map_or(frame.start, |e| e as usize)
                };
                let node = Node {
                    value,
                    range: TextRange::new(frame.start, end),
                };
                self.complete(Done {
                    node,
                    anchor: frame.anchor,
                    count: frame.count,
                    bytes: frame.bytes,
                    height: frame.height,
                    merge_key: false,
                })?;
            }
            Event::Alias(id) => {
                let Some(anchored) = self.anchors.get(&id) else {
                    return Err(
                        Diagnostic::error(codes::SYNTAX, "unknown anchor").with_range(range)
                    );
                };
                let (count, bytes, height) = (anchored.count, anchored.bytes, anchored.height);
                if self.stack.len() + height > MAX_DEPTH {
                    return Err(too_large(
                        range,
                        format!("the alias expands to a document deeper than {MAX_DEPTH} levels"),
                    ));
                }
                // Both caps are checked before the copy is made, so a huge anchored value
                // costs at most the cap in copying, however many aliases follow.
                self.count_copy(count, bytes, range, "aliases expand")?;
                let Some(mut node) = self.anchors.get(&id).map(|a| a.node.clone()) else {
                    return Ok(());
                };
                node.range = range;
                self.count_nodes(count, range)?;
                self.complete(Done {
                    node,
                    anchor: 0,
                    count,
                    bytes,
                    height,
                    merge_key: false,
                })?;
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => {}
        }
        Ok(())
    }

    /// Reads a text that is one JSON value (RFC 8259; after an optional byte order mark),
    /// handing the builder the events the YAML reader would make of it, one value at a time, so
    /// that the value cap and the nesting limit stop a large or deep text where they are passed.
    /// `Ok(None)` when the text is not strict JSON (YAML flow style, comments, several
    /// documents, an escape JSON does not have, ...): the YAML reader then reads it, and reports
    /// its syntax errors in its words.
    fn run_json(mut self) -> Result<Option<Vec<Node>>, Diagnostic> {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut i = if text.starts_with('\u{feff}') { 3 } else { 0 };
        i = skip_json_space(bytes, i);
        if !matches!(bytes.get(i), Some(b'{' | b'[')) {
            return Ok(None);
        }
        // The open collections (true: an object), and whether a value was read in the
        // innermost one (then a `,` or its end comes next).
        let mut open: Vec<bool> = Vec::new();
        let mut after_value = false;
        loop {
            i = skip_json_space(bytes, i);
            let Some(&b) = bytes.get(i) else {
                return Ok(None);
            };
            let in_object = open.last().copied();
            if after_value {
                match (b, in_object) {
                    (b',', Some(_)) => {
                        i = skip_json_space(bytes, i + 1);
                        after_value = false;
                        if in_object == Some(true) && bytes.get(i) != Some(&b'"') {
                            return Ok(None);
                        }
                        if matches!(bytes.get(i), Some(b']' | b'}')) {
                            return Ok(None);
                        }
                        continue;
                    }
                    (b'}', Some(true)) | (b']', Some(false)) => {
                        let event = if b == b'}' {
                            Event::MappingEnd
                        } else {
                            Event::SequenceEnd
                        };
                        self.event(event, TextRange::new(i, i + 1))?;
                        open.pop();
                        i += 1;
                        if open.is_empty() {
                            break;
                        }
                        continue;
                    }
                    _ => return Ok(None),
                }
            }
            // A value (or, in an object, a key and its `:`).
            let start = i;
            let scalar = match b {
                b'{' | b'[' => {
                    let range = TextRange::new(i, i + 1);
                    let event = if b == b'{' {
                        Event::MappingStart(0, None)
                    } else {
                        Event::SequenceStart(0, None)
                    };
                    self.event(event, range)?;
                    open.push(b == b'{');
                    i = skip_json_space(bytes, i + 1);
                    match bytes.get(i) {
                        Some(b'"') => {}
                        Some(b']') if b == b'[' => {}
                        Some(b'}') if b == b'{' => {}
                        Some(_) if b == b'[' => {}
                        _ => return Ok(None),
                    }
                    // An empty collection ends right away.
                    after_value = matches!(bytes.get(i), Some(b']' | b'}'));
                    continue;
                }
                b'"' => {
                    let Some((end, value)) = json_string(text, i) else {
                        return Ok(None);
                    };
                    i = end;
                    (value, ScalarStyle::DoubleQuoted)
                }
                _ => {
                    let end = json_literal_end(bytes, i);
                    let Some(literal) = text.get(start..end).filter(|l| is_json_literal(l)) else {
                        return Ok(None);
                    };
                    i = end;
                    (std::borrow::Cow::Borrowed(literal), ScalarStyle::Plain)
                }
            };
            let range = TextRange::new(start, i);
            let is_key = in_object == Some(true)
                && self.stack.last().is_some_and(
                    |f| matches!(&f.kind, FrameKind::Map(m) if m.pending_key.is_none()),
                );
            if is_key && scalar.1 != ScalarStyle::DoubleQuoted {
                return Ok(None);
            }
            self.event(Event::Scalar(scalar.0, scalar.1, 0, None), range)?;
            if is_key {
                i = skip_json_space(bytes, i);
                if bytes.get(i) != Some(&b':') {
                    return Ok(None);
                }
                i += 1;
                after_value = false;
            } else if open.is_empty() {
                return Ok(None);
            } else {
                after_value = true;
            }
        }
        if skip_json_space(bytes, i) != bytes.len() {
            return Ok(None);
        }
        Ok(Some(self.docs))
    }

    /// A scalar's range without the trailing line breaks and indentation of block scalars.
    fn scalar_range(&self, r: TextRange) -> TextRange {
        let (start, mut end) = (r.start as usize, r.end as usize);
        let bytes = self.text.as_bytes();
        while end > start && bytes.get(end - 1).is_some_and(|b| b.is_ascii_whitespace()) {
            end -= 1;
        }
        TextRange::new(start, end)
    }

    fn count_nodes(&mut self, n: usize, range: TextRange) -> Result<(), Diagnostic> {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > self.limits.nodes {
            return Err(too_large(
                range,
                format!("the text holds more than {} values", self.limits.nodes),
            ));
        }
        Ok(())
    }

    /// Counts a copy of `count` nodes holding `bytes` of scalar text against the caps, before
    /// it is made.
    fn count_copy(
        &mut self,
        count: usize,
        bytes: usize,
        range: TextRange,
        what: &str,
    ) -> Result<(), Diagnostic> {
        self.alias_nodes = self.alias_nodes.saturating_add(count);
        if self.alias_nodes > self.limits.alias_nodes {
            return Err(too_large(
                range,
                format!("{what} to more than {} values", self.limits.alias_nodes),
            )
            .with_help("write the repeated values out, or use fewer aliases"));
        }
        self.alias_bytes = self.alias_bytes.saturating_add(bytes);
        if self.alias_bytes > self.limits.alias_bytes {
            return Err(too_large(
                range,
                format!(
                    "{what} to more than {} of text",
                    human_bytes(self.limits.alias_bytes)
                ),
            )
            .with_help("write the repeated values out, or use fewer aliases"));
        }
        Ok(())
    }

    fn complete(&mut self, done: Done) -> Result<(), Diagnostic> {
        if done.anchor != 0 {
            // Keeping an anchored value is a copy too: anchors nested around one large value
            // would otherwise copy it once per level.
            self.count_copy(
                done.count,
                done.bytes,
                done.node.range,
                "anchored values amount",
            )?;
            self.anchors.insert(
                done.anchor,
                Anchored {
                    node: done.node.clone(),
                    count: done.count,
                    bytes: done.bytes,
                    height: done.height,
                },
            );
        }
        let Some(parent) = self.stack.last_mut() else {
            if !done.node.is_null() {
                self.docs.push(done.node);
            }
            return Ok(());
        };
        parent.count = parent.count.saturating_add(done.count);
        parent.bytes = parent.bytes.saturating_add(done.bytes);
        parent.height = parent.height.max(done.height + 1);
        match &mut parent.kind {
            FrameKind::Seq(items) => items.push(done.node),
            FrameKind::Map(map) => match map.pending_key.take() {
                None => {
                    let key = key_node(done.node)?;
                    map.pending_key = Some((key, done.merge_key));
                }
                Some((_, true)) => map.merges.push(done.node),
                Some((key, false)) => insert_entry(map, key, done.node)?,
            },
        }
        Ok(())
    }
}

fn skip_json_space(bytes: &[u8], mut i: usize) -> usize {
    while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The JSON string starting at the `"` at `start`: the offset past its closing quote and its
/// value; `None` when it is not a JSON string (unterminated, a control character, a bad
/// escape or a lone surrogate).
fn json_string(text: &str, start: usize) -> Option<(usize, std::borrow::Cow<'_, str>)> {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    let mut escaped = false;
    loop {
        match *bytes.get(i)? {
            b'"' => break,
            b'\\' => {
                escaped = true;
                i += 2;
            }
            0..=0x1f => return None,
            _ => i += 1,
        }
    }
    let end = i + 1;
    let quoted = text.get(start..end)?;
    if !escaped {
        return Some((
            end,
            std::borrow::Cow::Borrowed(quoted.get(1..quoted.len() - 1)?),
        ));
    }
    serde_json::from_str::<String>(quoted)
        .ok()
        .map(|s| (end, std::borrow::Cow::Owned(s)))
}

/// Where a number or `true`/`false`/`null` starting at `start` ends.
fn json_literal_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start;
    while bytes
        .get(i)
        .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.'))
    {
        i += 1;
    }
    i
}

/// `true`, `false`, `null` or a number as RFC 8259 writes it
/// (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`).
fn is_json_literal(text: &str) -> bool {
    if matches!(text, "true" | "false" | "null") {
        return true;
    }
    let b = text.as_bytes();
    let digits = |mut i: usize| {
        let from = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i > from).then_some(i)
    };
    let mut i = usize::from(b.first() == Some(&b'-'));
    i = match b.get(i) {
        Some(b'0') => i + 1,
        Some(b'1'..=b'9') => match digits(i) {
            Some(i) => i,
            None => return false,
        },
        _ => return false,
    };
    if b.get(i) == Some(&b'.') {
        match digits(i + 1) {
            Some(end) => i = end,
            None => return false,
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        match digits(i) {
            Some(end) => i = end,
            None => return false,
        }
    }
    i == b.len()
}

/// Holds a YAML text's flow collections (`[...]`, `{...}`) to the value cap before
/// `saphyr-parser` reads it. That parser scans a flow collection to its end before it reports
/// its first event (the collection could still turn out to be a mapping key), holding several
/// hundred bytes per value, so the builder's count would come too late. Each value in a flow
/// collection is preceded by a `[`, `{` or `,`; they are counted wherever they are, also in
/// strings and comments (telling those apart needs the parser this guards), so the count is
/// never below the number of flow values and a text holding more than `cap` of them is
/// refused at the one past the cap. A text holding that many commas outside flow collections
/// is refused too, with a message that says what was counted.
fn check_flow_items(text: &str, cap: usize) -> Result<(), Diagnostic> {
    let mut count = 0usize;
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if matches!(b, b'[' | b'{' | b',') {
            count += 1;
            if count > cap {
                return Err(too_large(
                    TextRange::new(i, i + 1),
                    format!(
                        "the text holds more than {cap} `[`, `{{` and `,`, so it may hold more \
                         than {cap} values (flow collections are counted before they are read, \
                         strings and comments included)"
                    ),
                )
                .with_help("split a large kind: List into smaller files"));
            }
        }
    }
    Ok(())
}

/// `64 MiB`, `1000 bytes`: a limit as a person reads it.
fn human_bytes(n: usize) -> String {
    const MIB: usize = 1024 * 1024;
    if n >= MIB && n % MIB == 0 {
        format!("{} MiB", n / MIB)
    } else {
        format!("{n} bytes")
    }
}

/// Refuses a text longer than `limit` bytes, at the first byte past the limit.
fn check_text_bytes(text: &str, limit: usize) -> Result<(), Diagnostic> {
    if text.len() <= limit {
        return Ok(());
    }
    let mut at = limit;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    Err(too_large(
        TextRange::empty(at),
        format!(
            "the text is {} bytes, more than the {} that are read",
            text.len(),
            human_bytes(limit)
        ),
    )
    .with_help("split a large kind: List into smaller files"))
}

fn too_large(range: TextRange, message: String) -> Diagnostic {
    Diagnostic::error(codes::TOO_LARGE, message).with_range(range)
}

fn insert_entry(map: &mut MapFrame, key: Node, value: Node) -> Result<(), Diagnostic> {
    let name = key.as_str().unwrap_or_default();
    let duplicate = match &mut map.index {
        Some(index) => !index.insert(name.to_owned()),
        None => {
            let dup = map.entries.iter().any(|(k, _)| k.as_str() == Some(name));
            if !dup && map.entries.len() >= LINEAR_KEY_SCAN {
                let mut index: HashSet<String> = map
                    .entries
                    .iter()
                    .filter_map(|(k, _)| k.as_str().map(str::to_owned))
                    .collect();
                index.insert(name.to_owned());
                map.index = Some(index);
            }
            dup
        }
    };
    if duplicate {
        return Err(
            Diagnostic::error(codes::DUPLICATE_KEY, format!("duplicate key \"{name}\""))
                .with_range(key.range)
                .with_help("Kubernetes rejects a mapping that repeats a key: remove one of them"),
        );
    }
    map.entries.push((key, value));
    Ok(())
}

/// Applies `<<` merge keys: explicit keys win, then earlier merged mappings over later ones.
fn merge(mut map: MapFrame) -> Result<Vec<(Node, Node)>, Diagnostic> {
    if map.merges.is_empty() {
        return Ok(map.entries);
    }
    let mut seen: HashSet<String> = map
        .entries
        .iter()
        .filter_map(|(k, _)| k.as_str().map(str::to_owned))
        .collect();
    for source in std::mem::take(&mut map.merges) {
        let range = source.range;
        let sources = match source.value {
            NodeValue::Map(_) => vec![source],
            NodeValue::Seq(items) => items,
            _ => return Err(merge_error(range)),
        };
        for source in sources {
            let NodeValue::Map(entries) = source.value else {
                return Err(merge_error(range));
            };
            for (k, v) in entries {
                if seen.insert(k.as_str().unwrap_or_default().to_owned()) {
                    map.entries.push((k, v));
                }
            }
        }
    }
    Ok(map.entries)
}

fn merge_error(range: TextRange) -> Diagnostic {
    Diagnostic::error(
        codes::SYNTAX,
        "a merge key `<<` needs a mapping or a list of mappings",
    )
    .with_range(range)
}

/// Turns a key into a string key node, as sigs.k8s.io/yaml does for non-string keys.
fn key_node(key: Node) -> Result<Node, Diagnostic> {
    let text = match key.value {
        NodeValue::String(s) => s,
        NodeValue::Bool(b) => b.to_string(),
        NodeValue::Number(n) => n.to_string(),
        NodeValue::Null => "null".to_owned(),
        NodeValue::Seq(_) | NodeValue::Map(_) => {
            return Err(
                Diagnostic::error(codes::SYNTAX, "a mapping key must be a scalar")
                    .with_range(key.range),
            )
        }
    };
    Ok(Node {
        value: NodeValue::String(text),
        range: key.range,
    })
}

const CORE_TAG: &str = "tag:yaml.org,2002:";

fn resolve_scalar(
    text: &str,
    style: ScalarStyle,
    tag: Option<&Tag>,
    range: TextRange,
) -> Result<NodeValue, Diagnostic> {
    if let Some(tag) = tag.filter(|t| t.handle == CORE_TAG) {
        let bad = |what: &str| {
            Diagnostic::error(codes::SYNTAX, format!("cannot read `{text}` as {what}"))
                .with_range(range)
        };
        return match tag.suffix.as_str() {
            "str" | "binary" | "timestamp" => Ok(NodeValue::String(text.to_owned())),
            "null" => Ok(NodeValue::Null),
            "bool" => match plain_scalar(text) {
                v @ NodeValue::Bool(_) => Ok(v),
                _ => Err(bad("a boolean (!!bool)")),
            },
            "int" => match parse_int(text) {
                Some(v) => Ok(v),
                None => Err(bad("an integer (!!int)")),
            },
            "float" => match parse_int(text).or_else(|| parse_float(text)) {
                Some(v) => Ok(v),
                None => Err(bad("a number (!!float)")),
            },
            _ => Ok(plain_or_string(text, style)),
        };
    }
    Ok(plain_or_string(text, style))
}

fn plain_or_string(text: &str, style: ScalarStyle) -> NodeValue {
    if style == ScalarStyle::Plain {
        plain_scalar(text)
    } else {
        NodeValue::String(text.to_owned())
    }
}

/// Resolves a plain scalar: YAML 1.2 core schema plus go-yaml v2's YAML 1.1 booleans.
fn plain_scalar(text: &str) -> NodeValue {
    let first = text.bytes().next();
    match first {
        None => return NodeValue::Null,
        Some(b'0'..=b'9' | b'-' | b'+' | b'.') => {
            if let Some(v) = parse_int(text).or_else(|| parse_float(text)) {
                return v;
            }
        }
        Some(_) => match text {
            "null" | "Null" | "NULL" | "~" => return NodeValue::Null,
            "true" | "True" | "TRUE" | "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => {
                return NodeValue::Bool(true)
            }
            "false" | "False" | "FALSE" | "n" | "N" | "no" | "No" | "NO" | "off" | "Off"
            | "OFF" => return NodeValue::Bool(false),
            _ => {}
        },
    }
    NodeValue::String(text.to_owned())
}

fn parse_int(text: &str) -> Option<NodeValue> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, text.get(1..)?),
        b'+' => (false, text.get(1..)?),
        _ => (false, text),
    };
    let (radix, digits) = if let Some(hex) = digits.strip_prefix("0x") {
        (16, hex)
    } else if let Some(oct) = digits.strip_prefix("0o") {
        (8, oct)
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.bytes().all(|b| (b as char).is_digit(radix)) {
        return None;
    }
    if radix != 10 && (text.starts_with('-') || text.starts_with('+')) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix);
    let number = match (negative, magnitude) {
        (false, Ok(m)) => Number::from(m),
        (true, Ok(m)) if m <= i64::MAX as u64 + 1 => Number::from(0i64.wrapping_sub_unsigned(m)),
        // Too big for 64 bits: a float, as Go's JSON decoding would make it.
        _ => return parse_float(text),
    };
    Some(NodeValue::Number(number))
}

/// How a number that JSON cannot hold is represented in the tree (and in JSON values): the
/// string `.nan`, `.inf` or `-.inf`, whichever way the YAML text spelt it (`.NaN`, `+.Inf`, ...).
/// The wasm boundary turns `NaN` and `±Infinity` in plain JavaScript objects into the same
/// strings, so text and objects reach the resolver identically. `None` for a finite number.
pub fn non_finite_text(value: f64) -> Option<&'static str> {
    if value.is_nan() {
        Some(".nan")
    } else if value == f64::INFINITY {
        Some(".inf")
    } else if value == f64::NEG_INFINITY {
        Some("-.inf")
    } else {
        None
    }
}

fn parse_float(text: &str) -> Option<NodeValue> {
    let non_finite = match text {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => non_finite_text(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => non_finite_text(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => non_finite_text(f64::NAN),
        _ => None,
    };
    if let Some(text) = non_finite {
        return Some(NodeValue::String(text.to_owned()));
    }
    // The core schema float: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let int_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
            frac_digits += 1;
        }
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == exp_start {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    let f: f64 = text.parse().ok()?;
    Number::from_f64(f).map(NodeValue::Number)
}

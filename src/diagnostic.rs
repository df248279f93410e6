//! Problems in user input, returned as data.
//!
//! Every problem the resolver finds in what a user wrote (a definition, a manifest, an
//! expression) is a [`Diagnostic`] with a stable [`code`](Diagnostic::code), never a panic
//! or an `Err` that loses the rest of the work. Positions are byte ranges into the text the
//! problem lives in; [`LineIndex`] turns them into 1-based line and column numbers once, at
//! the boundary (UTF-16 columns for JavaScript, UTF-8 columns for terminals).

use serde::Serialize;

/// A half-open byte range `[start, end)` into a source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, PartialOrd, Ord, Hash)]
pub struct TextRange {
    /// First byte of the range.
    pub start: u32,
    /// One past the last byte of the range.
    pub end: u32,
}

impl TextRange {
    /// A range from `start` to `end` (bytes).
    pub fn new(start: usize, end: usize) -> Self {
        let start = u32::try_from(start).unwrap_or(u32::MAX);
        let end = u32::try_from(end).unwrap_or(u32::MAX).max(start);
        TextRange { start, end }
    }

    /// An empty range at `offset`.
    pub fn empty(offset: usize) -> Self {
        Self::new(offset, offset)
    }

    /// The same range moved `by` bytes to the right (for an expression inside a YAML scalar).
    pub fn shift(self, by: u32) -> Self {
        TextRange {
            start: self.start.saturating_add(by),
            end: self.end.saturating_add(by),
        }
    }
}

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something the user should know (e.g. the definition uses a feature upstream lacks).
    Info,
    /// Accepted, but probably not what the user meant.
    Warning,
    /// The input is wrong: upstream rejects it, or this part of the result could not be computed.
    Error,
}

/// Which text a diagnostic's [`range`](Diagnostic::range) refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    /// The workload definition text.
    Definition,
    /// The manifest (the workload object) text.
    Object,
}

/// One problem found in user input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    /// Stable code, grouped by where the problem lives, e.g. `definition/unknown-field`.
    /// Codes are never renamed; see [`codes`].
    pub code: &'static str,
    /// How bad it is.
    pub severity: Severity,
    /// What is wrong, in upstream's wording where upstream has one.
    pub message: String,
    /// Where in the document, as a dotted path (`spec.structureDefinition.rootComponent.kind`),
    /// or a component path in the view (`root/worker[a]`). Empty when not applicable.
    pub path: String,
    /// Which text [`range`](Self::range) points into.
    pub source: Source,
    /// Byte range of the offending text, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<TextRange>,
    /// How to fix it, when there is something useful to say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl Diagnostic {
    /// A new diagnostic about the definition text.
    pub fn new(code: &'static str, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            path: String::new(),
            source: Source::Definition,
            range: None,
            help: None,
        }
    }

    /// An error about the definition text.
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Error, message)
    }

    /// A warning about the definition text.
    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Warning, message)
    }

    /// An informational note about the definition text.
    pub fn info(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Info, message)
    }

    /// Sets the document path.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Sets the byte range.
    pub fn with_range(mut self, range: TextRange) -> Self {
        self.range = Some(range);
        self
    }

    /// Sets the byte range when there is one.
    pub fn with_range_opt(mut self, range: Option<TextRange>) -> Self {
        self.range = range;
        self
    }

    /// Sets the help text.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Marks the diagnostic as pointing into the manifest text.
    pub fn in_object(mut self) -> Self {
        self.source = Source::Object;
        self
    }

    /// True for [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The stable diagnostic codes. Grouped by where the problem lives; never renamed.
pub mod codes {
    // --- YAML / JSON text -------------------------------------------------------------
    /// The text is not valid YAML or JSON.
    pub const SYNTAX: &str = "syntax/invalid";
    /// A document in a multi-document stream was empty.
    pub const EMPTY_DOCUMENT: &str = "syntax/empty-document";
    /// A mapping has the same key twice.
    pub const DUPLICATE_KEY: &str = "syntax/duplicate-key";
    /// The text exceeds the size or nesting the reader accepts.
    pub const TOO_LARGE: &str = "syntax/too-large";

    // --- the definition ---------------------------------------------------------------
    /// `apiVersion`/`kind` are not `run.ai/v1alpha1` / `Karta`.
    pub const NOT_A_DEFINITION: &str = "definition/not-a-definition";
    /// A field the format does not know (a warning: forward compatibility).
    pub const UNKNOWN_FIELD: &str = "definition/unknown-field";
    /// A field has the wrong type (a string where a list is expected, ...).
    pub const WRONG_TYPE: &str = "definition/wrong-type";
    /// A required field is missing.
    pub const MISSING_FIELD: &str = "definition/missing-field";
    /// A field value is not one of the allowed values.
    pub const INVALID_VALUE: &str = "definition/invalid-value";
    /// Two components share a name (`component name %s is not unique`).
    pub const DUPLICATE_COMPONENT: &str = "definition/duplicate-component";
    /// A component has an empty name (`component name is empty`).
    pub const EMPTY_COMPONENT_NAME: &str = "definition/empty-component-name";
    /// The root kind lacks group, version or kind.
    pub const ROOT_KIND_INCOMPLETE: &str = "definition/root-kind-incomplete";
    /// The root component has an ownerRef.
    pub const ROOT_OWNER_REF: &str = "definition/root-owner-ref";
    /// The root component has no statusDefinition.
    pub const ROOT_WITHOUT_STATUS: &str = "definition/root-without-status";
    /// A child component has no ownerRef.
    pub const CHILD_WITHOUT_OWNER: &str = "definition/child-without-owner";
    /// A child's ownerRef names no component.
    pub const UNKNOWN_OWNER: &str = "definition/unknown-owner";
    /// The ownerRefs form a cycle.
    pub const OWNERSHIP_CYCLE: &str = "definition/ownership-cycle";
    /// More than one of podTemplateSpecPath / podSpecPath / fragmentedPodSpecDefinition.
    pub const MULTIPLE_POD_SPECS: &str = "definition/multiple-pod-specs";
    /// instanceIdPath without componentInstanceSelector.
    pub const INSTANCE_ID_WITHOUT_SELECTOR: &str = "definition/instance-id-without-selector";
    /// componentInstanceSelector without instanceIdPath.
    pub const SELECTOR_WITHOUT_INSTANCE_ID: &str = "definition/selector-without-instance-id";
    /// A gang-scheduling member names no component.
    pub const UNKNOWN_GANG_MEMBER: &str = "definition/unknown-gang-member";
    /// componentTypeSelector with neither keyPath nor matchLabels.
    pub const EMPTY_TYPE_SELECTOR: &str = "definition/empty-type-selector";
    /// componentTypeSelector value without keyPath.
    pub const VALUE_WITHOUT_KEY_PATH: &str = "definition/value-without-key-path";
    /// matchLabels present but empty.
    pub const EMPTY_MATCH_LABELS: &str = "definition/empty-match-labels";
    /// A matchLabels key or value is not a valid Kubernetes label key/value.
    pub const INVALID_LABEL: &str = "definition/invalid-label";
    /// byConditions used without a conditionsDefinition (never matches).
    pub const CONDITIONS_WITHOUT_DEFINITION: &str = "definition/conditions-without-definition";
    /// byPhase used without a phaseDefinition (never matches).
    pub const PHASE_WITHOUT_DEFINITION: &str = "definition/phase-without-definition";
    /// A byConditions `reason` matcher without `reasonFieldName` (never matches upstream).
    pub const REASON_WITHOUT_FIELD_NAME: &str = "definition/reason-without-field-name";
    /// metadataPath without podSpecPath (upstream documents it for podSpecPath only).
    pub const METADATA_WITHOUT_POD_SPEC: &str = "definition/metadata-without-pod-spec";
    /// A statusDefinition on a child component (upstream ignores it).
    pub const STATUS_ON_CHILD: &str = "definition/status-on-child";
    /// Two additionalChildKinds entries share a kind (a list-map key collision upstream).
    pub const DUPLICATE_CHILD_KIND: &str = "definition/duplicate-child-kind";
    /// A definition uses CEL, which upstream consumers cannot read.
    pub const CEL_NOT_PORTABLE: &str = "definition/cel-not-portable";
    /// A definition has a top-level `status` (a definition is a spec; its status is never read).
    pub const STATUS_IGNORED: &str = "definition/status-ignored";

    // --- expressions --------------------------------------------------------------------
    /// The expression does not parse.
    pub const EXPR_SYNTAX: &str = "expr/syntax";
    /// The expression parses but does not compile (unknown function, wrong arity, ...).
    pub const EXPR_COMPILE: &str = "expr/compile";
    /// The expression uses something upstream forbids (`del`, `..`, `range`, assignment, ...).
    pub const EXPR_FORBIDDEN: &str = "expr/forbidden";
    /// The expression is longer or deeper than the resolver accepts.
    pub const EXPR_TOO_COMPLEX: &str = "expr/too-complex";
    /// The expression raised an error on this object.
    pub const EXPR_RUNTIME: &str = "expr/runtime-error";
    /// The expression exceeded its step, depth or size budget (a runaway expression).
    pub const EXPR_BUDGET: &str = "expr/budget-exceeded";
    /// The expression produced 1000 or more results (upstream's cap).
    pub const EXPR_TOO_MANY_RESULTS: &str = "expr/too-many-results";
    /// A CEL expression in a build without CEL (the package variant built without the `cel`
    /// cargo feature).
    pub const EXPR_CEL_UNAVAILABLE: &str = "expr/cel-unavailable";

    // --- the object (manifest) ----------------------------------------------------------
    /// The manifest is not an object with apiVersion/kind.
    pub const OBJECT_INVALID: &str = "object/invalid";
    /// The object's kind differs from the definition's root kind.
    pub const OBJECT_KIND_MISMATCH: &str = "object/kind-mismatch";
    /// An extracted value has the wrong shape (a pod spec that is not an object, ...).
    pub const OBJECT_WRONG_SHAPE: &str = "object/wrong-shape";
    /// Instance ids and a zipped path yield different counts.
    pub const INSTANCE_COUNT_MISMATCH: &str = "object/instance-count-mismatch";
    /// instanceIdPath yielded an empty id.
    pub const EMPTY_INSTANCE_ID: &str = "object/empty-instance-id";
    /// A replicas value is not a number.
    pub const REPLICAS_NOT_A_NUMBER: &str = "object/replicas-not-a-number";
    /// The phase path yielded a non-string.
    pub const PHASE_NOT_A_STRING: &str = "object/phase-not-a-string";
    /// Drafting found no pod template, pod spec or resources in the object's spec.
    pub const NO_POD_TEMPLATE: &str = "object/no-pod-template";

    // --- resources ----------------------------------------------------------------------
    /// A quantity is not a valid Kubernetes quantity.
    pub const INVALID_QUANTITY: &str = "resources/invalid-quantity";
    /// An extended resource (e.g. a GPU) is requested in a fractional amount.
    pub const FRACTIONAL_EXTENDED: &str = "resources/fractional-extended-resource";
    /// A GPU request differs from its limit (Kubernetes rejects such a pod).
    pub const GPU_REQUEST_LIMIT_MISMATCH: &str = "resources/gpu-request-limit-mismatch";
    /// Devices requested through resourceClaims (DRA) cannot be counted from the spec.
    pub const RESOURCE_CLAIMS: &str = "resources/resource-claims";
    /// A replicas, minReplicas or maxReplicas value is negative.
    pub const REPLICAS_NEGATIVE: &str = "object/replicas-negative";
    /// An amount is larger than a JavaScript number holds exactly (2^53 - 1): the view
    /// shows that bound as a lower bound.
    pub const RESOURCES_OVERFLOW: &str = "resources/overflow";

    // --- pods given with the object ---------------------------------------------------------
    /// A pod's owner chain leaves the input; the pod was attributed by podSelector (info).
    pub const POD_OWNER_NOT_IN_INPUT: &str = "pods/owner-not-in-input";
    /// A single-value pod read (instance id, replica key, group key, filter) gave no value or
    /// several (`expected single query result, got N` / `query result is empty`).
    pub const POD_QUERY: &str = "pods/query-failed";
    /// A pod's instance id names no instance of its component.
    pub const POD_NO_INSTANCE: &str = "pods/no-instance";
    /// Attributed pods that no component claims (info).
    pub const POD_UNPLACED: &str = "pods/unplaced";

    // --- gang scheduling --------------------------------------------------------------------
    /// No component's type selector matches a pod (`no component found for pod X`).
    pub const GANG_NO_COMPONENT: &str = "gang/no-component";
    /// No podGroups member takes a pod (`pod NS/X does not match any Karta pod group member
    /// definition`).
    pub const GANG_NO_MEMBER: &str = "gang/no-member";
    /// A podGroup sub-group's subtree has no scale (`component X must expose a replica scale
    /// definition`).
    pub const GANG_NO_SCALE: &str = "gang/no-scale";
    /// A gang group's minimum is more than a JavaScript number holds exactly (2^53 - 1).
    pub const GANG_TOO_LARGE: &str = "gang/too-large";

    // --- edits (suspend, resume, pod spec edits: src/edit) -------------------------------
    /// A path that edits write through is not a path expression (a computed value).
    pub const PATH_NOT_WRITABLE: &str = "definition/path-not-writable";
    /// A suspend or resume action's `value` is not JSON text.
    pub const INVALID_ACTION_VALUE: &str = "definition/invalid-action-value";
    /// The edit was refused because the definition has errors.
    pub const EDIT_INVALID_DEFINITION: &str = "edit/invalid-definition";
    /// Suspend or resume asked of a definition whose root has no such actions.
    pub const EDIT_NO_SUSPEND_DEFINITION: &str = "edit/no-suspend-definition";
    /// The component to edit is not in the definition.
    pub const EDIT_UNKNOWN_COMPONENT: &str = "edit/unknown-component";
    /// The instance to edit is not in the object.
    pub const EDIT_UNKNOWN_INSTANCE: &str = "edit/unknown-instance";
    /// The component to edit has no specDefinition.
    pub const EDIT_NO_POD_SPEC: &str = "edit/no-pod-spec";
    /// The merge patch is not an object (a pod spec is one).
    pub const EDIT_INVALID_MERGE_PATCH: &str = "edit/invalid-merge-patch";
    /// A value could not be written at a location (e.g. a step into a number).
    pub const EDIT_WRITE_FAILED: &str = "edit/write-failed";
    /// The definition's paths cannot carry this change (no path for a field, or writes that
    /// reach other instances or undo each other).
    pub const EDIT_NOT_REPRESENTABLE: &str = "edit/not-representable";
    /// The edit would change components, instance ids or replicas; refused.
    pub const EDIT_STRUCTURE_CHANGED: &str = "edit/structure-changed";
    /// A path selects no location in this object: that action writes nothing.
    pub const EDIT_NO_TARGET: &str = "edit/no-target";
    /// The edit changes nothing (e.g. suspending a suspended object): the patch is empty.
    pub const EDIT_NO_CHANGE: &str = "edit/no-change";
}

/// Converts byte offsets of one text into 1-based lines and columns.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    text_len: u32,
}

/// A 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LineCol {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// What a column counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnUnit {
    /// Unicode scalar values (what a terminal user counts).
    Char,
    /// UTF-16 code units (what JavaScript editors count).
    Utf16,
}

impl LineIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(u32::try_from(i + 1).unwrap_or(u32::MAX));
            }
        }
        LineIndex {
            line_starts,
            text_len: u32::try_from(text.len()).unwrap_or(u32::MAX),
        }
    }

    /// The line and column of byte `offset` in `text` (which must be the indexed text).
    pub fn line_col(&self, text: &str, offset: u32, unit: ColumnUnit) -> LineCol {
        let offset = offset.min(self.text_len);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while end > start && !text.is_char_boundary(end) {
            end -= 1;
        }
        let prefix = text.get(start..end).unwrap_or("");
        let column = match unit {
            ColumnUnit::Char => prefix.chars().count(),
            ColumnUnit::Utf16 => prefix.encode_utf16().count(),
        };
        LineCol {
            line: u32::try_from(line + 1).unwrap_or(u32::MAX),
            column: u32::try_from(column + 1).unwrap_or(u32::MAX),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str, offset: u32, unit: ColumnUnit) -> (u32, u32) {
        let lc = LineIndex::new(text).line_col(text, offset, unit);
        (lc.line, lc.column)
    }

    #[test]
    fn first_byte_is_line_one_column_one() {
        assert_eq!(pos("abc", 0, ColumnUnit::Char), (1, 1));
    }

    #[test]
    fn offset_after_newline_starts_next_line() {
        assert_eq!(pos("ab\ncd", 3, ColumnUnit::Char), (2, 1));
        assert_eq!(pos("ab\ncd", 4, ColumnUnit::Char), (2, 2));
    }

    #[test]
    fn astral_characters_count_two_utf16_units() {
        let text = "a: \"😀\" x";
        let x = text.find('x').unwrap() as u32;
        assert_eq!(pos(text, x, ColumnUnit::Char), (1, 8));
        assert_eq!(pos(text, x, ColumnUnit::Utf16), (1, 9));
    }

    #[test]
    fn offset_past_end_clamps() {
        assert_eq!(pos("ab", 99, ColumnUnit::Char), (1, 3));
    }
}

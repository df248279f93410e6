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
    /// A definition's test case text (`src/cases.rs`).
    Case,
    /// An API schema text (a CRD or an OpenAPI document, `src/apischema`).
    Schema,
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
    /// For a problem with a value of the object ([`Source::Object`]): the RFC 6901 JSON Pointer
    /// of that value in the object, from which a reader that has the object's text sets
    /// [`range`](Self::range) (see `provenance::place_diagnostics`). Not serialised: `path`
    /// says the same for people.
    #[serde(skip)]
    pub pointer: Option<Box<str>>,
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
            pointer: None,
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

    /// Marks the diagnostic as about the object's value at `pointer` (an RFC 6901 JSON Pointer),
    /// and sets [`path`](Self::path) to the same place written as a dotted path.
    pub fn at_object_pointer(mut self, pointer: String) -> Self {
        self.source = Source::Object;
        self.path = crate::path::dotted(&pointer);
        self.pointer = Some(pointer.into_boxed_str());
        self
    }

    /// Marks the diagnostic as pointing into a test case text.
    pub fn in_case(mut self) -> Self {
        self.source = Source::Case;
        self
    }

    /// True for [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// What one stable code means: its doc comment in [`codes`], from which `docs/diagnostics.md`
/// and the CLI's SARIF rules are generated (tests/it/catalog_generated.rs), so the explanation of
/// a code lives next to it and nowhere else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeDoc {
    /// The code, e.g. `definition/unknown-field`.
    pub code: &'static str,
    /// The doc comment as written: a first paragraph saying what the code means, then, after
    /// an empty line, why it matters and how to fix it.
    pub doc: &'static str,
}

impl CodeDoc {
    /// The lines of the doc comment, each without the one space after `///`.
    fn lines(&self) -> impl Iterator<Item = &'static str> {
        self.doc
            .lines()
            .map(|line| line.strip_prefix(' ').unwrap_or(line))
    }

    /// The first paragraph, on one line: what the code means.
    pub fn summary(&self) -> String {
        self.lines()
            .map_while(|line| (!line.trim().is_empty()).then_some(line.trim()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The paragraphs after the first (why it matters, how to fix it), Markdown, or empty.
    pub fn details(&self) -> String {
        let lines: Vec<&str> = self
            .lines()
            .skip_while(|line| !line.trim().is_empty())
            .collect();
        lines.join("\n").trim().to_owned()
    }
}

/// Declares the stable codes: one constant each (with its doc comment) and [`codes::ALL`].
macro_rules! stable_codes {
    ($( $(#[doc = $doc:literal])+ $name:ident = $code:literal; )+) => {
        $( $(#[doc = $doc])+ pub const $name: &str = $code; )+

        /// Every stable code with its documentation, in the order declared here.
        pub const ALL: &[super::CodeDoc] = &[
            $( super::CodeDoc { code: $code, doc: concat!($($doc, "\n"),+) }, )+
        ];
    };
}

/// The stable diagnostic codes. Grouped by where the problem lives; never renamed.
///
/// Each doc comment is the code's documentation: the first paragraph says what it means, the
/// rest why it matters and how to fix it (see [`CodeDoc`]).
pub mod codes {
    stable_codes! {
    // --- YAML / JSON text -------------------------------------------------------------
    /// The text is not valid YAML or JSON.
    ///
    /// The message says what the reader expected at that position. Common causes: a tab used
    /// for indentation, a `:` inside an unquoted value, or an unclosed quote or bracket.
    SYNTAX = "syntax/invalid";
    /// A document in a multi-document stream was empty.
    ///
    /// Two `---` separators follow each other with nothing between them, or the text holds no
    /// document at all. Remove the extra separator or write the object.
    EMPTY_DOCUMENT = "syntax/empty-document";
    /// A mapping has the same key twice.
    ///
    /// YAML readers disagree on which value wins (Kubernetes takes the last), so the duplicate
    /// is reported instead of silently picked. Keep one of the two keys.
    DUPLICATE_KEY = "syntax/duplicate-key";
    /// The text exceeds the size or nesting the reader accepts.
    ///
    /// The reader caps the text size, the nesting depth and the number of nodes so that no input
    /// can exhaust memory. Split the input (one workload per file) or flatten it.
    TOO_LARGE = "syntax/too-large";

    // --- the definition ---------------------------------------------------------------
    /// `apiVersion`/`kind` are not `run.ai/v1alpha1` / `Karta`.
    ///
    /// A definition starts with `apiVersion: run.ai/v1alpha1` and `kind: Karta`. A manifest
    /// (a JobSet, a Pod, ...) is not a definition: `describe -f` reads manifests.
    NOT_A_DEFINITION = "definition/not-a-definition";
    /// A field the format does not know (a warning: forward compatibility).
    ///
    /// Usually a misspelt field, which is then silently ignored: the help names the closest
    /// known field (`did you mean "replicasPath"?`). `validate --strict` fails on it.
    UNKNOWN_FIELD = "definition/unknown-field";
    /// A field has the wrong type (a string where a list is expected, ...).
    ///
    /// The message names the expected type. Paths and expressions are strings, lists are YAML
    /// sequences, components are mappings.
    WRONG_TYPE = "definition/wrong-type";
    /// A required field is missing.
    ///
    /// Add the field the message names; `catalog/definition.schema.json` lists what each part
    /// of a definition requires.
    MISSING_FIELD = "definition/missing-field";
    /// A field value is not one of the allowed values.
    ///
    /// The message lists the values the format accepts (for example the workload phases, or
    /// `jq` and `cel` as expression languages).
    INVALID_VALUE = "definition/invalid-value";
    /// Two components share a name (`component name %s is not unique`).
    ///
    /// Component names identify components in ownerRefs, gang scheduling and the view: give
    /// each component its own name.
    DUPLICATE_COMPONENT = "definition/duplicate-component";
    /// A component has an empty name (`component name is empty`).
    ///
    /// Give the component a name; other components refer to it by that name.
    EMPTY_COMPONENT_NAME = "definition/empty-component-name";
    /// The root kind lacks group, version or kind.
    ///
    /// The root component's `kind` says which objects the definition reads. Write all three of
    /// `group` (empty for the core group), `version` and `kind`.
    ROOT_KIND_INCOMPLETE = "definition/root-kind-incomplete";
    /// The root component has an ownerRef.
    ///
    /// The root is the workload object itself and is owned by nothing in the definition: remove
    /// its `ownerRef`.
    ROOT_OWNER_REF = "definition/root-owner-ref";
    /// The root component has no statusDefinition.
    ///
    /// Without it the workload's phase cannot be read. Add a `statusDefinition` with at least
    /// one `statusMappings` entry.
    ROOT_WITHOUT_STATUS = "definition/root-without-status";
    /// A child component has no ownerRef.
    ///
    /// Every component but the root names the component that owns it in `ownerRef`.
    CHILD_WITHOUT_OWNER = "definition/child-without-owner";
    /// A child's ownerRef names no component.
    ///
    /// Check the spelling of the `ownerRef` against the component names.
    UNKNOWN_OWNER = "definition/unknown-owner";
    /// The ownerRefs form a cycle.
    ///
    /// Ownership is a tree rooted at the root component: make one of the components in the
    /// cycle owned by a component outside it.
    OWNERSHIP_CYCLE = "definition/ownership-cycle";
    /// More than one of podTemplateSpecPath / podSpecPath / fragmentedPodSpecDefinition.
    ///
    /// A component's pod spec is read in exactly one way: keep one of the three.
    MULTIPLE_POD_SPECS = "definition/multiple-pod-specs";
    /// instanceIdPath without componentInstanceSelector.
    ///
    /// Instances are matched to their pods through the selector: add a
    /// `componentInstanceSelector`, or remove `instanceIdPath`.
    INSTANCE_ID_WITHOUT_SELECTOR = "definition/instance-id-without-selector";
    /// componentInstanceSelector without instanceIdPath.
    ///
    /// The selector matches pods to instance ids, which `instanceIdPath` reads: add it, or
    /// remove the selector.
    SELECTOR_WITHOUT_INSTANCE_ID = "definition/selector-without-instance-id";
    /// A gang-scheduling member names no component.
    ///
    /// Check the member's name against the component names.
    UNKNOWN_GANG_MEMBER = "definition/unknown-gang-member";
    /// An expression that must say something is empty or blank: `byExpression.expression`, or
    /// an entry of a gang member's `groupByKeyPaths` or `filters`.
    ///
    /// An empty `byExpression` never matches (upstream fails the whole status on it), and an
    /// empty group key or filter fails for every pod. Write the jq expression, or remove the
    /// matcher or list entry. (An empty *path*, such as `replicasPath: ""`, means "not set",
    /// as upstream reads it.)
    EMPTY_EXPRESSION = "definition/empty-expression";
    /// componentTypeSelector with neither keyPath nor matchLabels.
    ///
    /// A type selector needs a `keyPath` (optionally with a `value`) or `matchLabels` to match
    /// anything.
    EMPTY_TYPE_SELECTOR = "definition/empty-type-selector";
    /// componentTypeSelector value without keyPath.
    ///
    /// The `value` is compared with what `keyPath` reads: add the `keyPath`.
    VALUE_WITHOUT_KEY_PATH = "definition/value-without-key-path";
    /// matchLabels present but empty.
    ///
    /// An empty `matchLabels` matches every pod; write the labels or remove the field.
    EMPTY_MATCH_LABELS = "definition/empty-match-labels";
    /// A component with a pod spec has a `scaleDefinition` that sets no path: its replicas
    /// read as 1.
    ///
    /// The API server leaves this when it prunes a misspelt `replicasPath` from a Karta applied
    /// without field validation. Write `replicasPath`, or remove the block.
    EMPTY_SCALE_DEFINITION = "definition/empty-scale-definition";
    /// A matchLabels key or value is not a valid Kubernetes label key/value.
    ///
    /// Label keys are an optional DNS prefix and a name of at most 63 characters; values are at
    /// most 63 characters of letters, digits, `-`, `_` and `.`. No pod can carry this label.
    INVALID_LABEL = "definition/invalid-label";
    /// byConditions used without a conditionsDefinition (never matches).
    ///
    /// Add a `conditionsDefinition` to the status definition, or match by phase or expression.
    CONDITIONS_WITHOUT_DEFINITION = "definition/conditions-without-definition";
    /// byPhase used without a phaseDefinition (never matches).
    ///
    /// Add a `phaseDefinition` saying where the object's phase is, or match by conditions or
    /// expression.
    PHASE_WITHOUT_DEFINITION = "definition/phase-without-definition";
    /// A byConditions `reason` matcher without `reasonFieldName` (never matches upstream).
    ///
    /// Add `reasonFieldName` to the `conditionsDefinition` (usually `reason`).
    REASON_WITHOUT_FIELD_NAME = "definition/reason-without-field-name";
    /// metadataPath without podSpecPath (upstream documents it for podSpecPath only).
    ///
    /// With `podTemplateSpecPath` the template carries its own metadata: remove `metadataPath`,
    /// or read the pod spec through `podSpecPath`.
    METADATA_WITHOUT_POD_SPEC = "definition/metadata-without-pod-spec";
    /// A statusDefinition on a child component (upstream ignores it).
    ///
    /// Only the root's status is read. Remove it, or move it to the root.
    STATUS_ON_CHILD = "definition/status-on-child";
    /// Two additionalChildKinds entries share a kind (a list-map key collision upstream).
    ///
    /// Keep one entry per kind.
    DUPLICATE_CHILD_KIND = "definition/duplicate-child-kind";
    /// A definition uses CEL, which upstream consumers cannot read.
    ///
    /// workload-map evaluates CEL, but a definition meant for upstream tools must use jq only.
    CEL_NOT_PORTABLE = "definition/cel-not-portable";
    /// A definition has a top-level `status` (a definition is a spec; its status is never read).
    ///
    /// Probably a `statusDefinition` written at the wrong level: move it under the root
    /// component, or remove it.
    STATUS_IGNORED = "definition/status-ignored";

    // --- the definition against the API schema (src/apischema) --------------------------
    /// A path names a field that the type's schema (its CRD or OpenAPI document) does not have.
    ///
    /// The path reads nothing on every real object: usually a typo (`.spec.replicatedJob[]`
    /// for `.spec.replicatedJobs[]`) or a field an operator release renamed. The help names the
    /// closest field the schema has. When several schemas were checked, the message says in
    /// which versions the field is missing.
    SCHEMA_UNKNOWN_FIELD = "schema/unknown-field";
    /// A path leads to the wrong kind of value for what reads it.
    ///
    /// A pod template path that is not a pod template, a pod spec path that is not a pod spec,
    /// a replica path that is not an integer, a field read from a string, iterating (`[]`)
    /// something that is neither an array nor a map, or a suspend or resume action writing
    /// `true`/`false` to a field that is not a boolean. The message says what the schema has
    /// there.
    SCHEMA_WRONG_KIND = "schema/wrong-kind";
    /// A string compared with (or written to, or matched by `byPhase` against) a field whose
    /// schema lists its values (`enum`) is not one of them.
    ///
    /// The comparison can never hold. The help lists the values, or the closest one.
    SCHEMA_NOT_IN_ENUM = "schema/not-in-enum";
    /// Part of an expression is not checked against the schema (a note, never an error).
    ///
    /// The check follows paths, pipes, variables, `//`, `if`, `select`, `any`, `all`, `map` and
    /// the usual functions; a local `def`, `reduce`, a field of a computed value or a function
    /// it does not model ends the check of that part. Nothing is wrong: the part is only not
    /// checked.
    SCHEMA_NOT_FOLLOWED = "schema/not-followed";
    /// No schema was given for the definition's type (group, kind and version).
    ///
    /// Give the type's CustomResourceDefinition (or, for a built-in type, the Kubernetes
    /// OpenAPI v3 document of its group) with `--crd`. The help lists the types and versions
    /// the schemas given describe.
    SCHEMA_NOT_FOUND = "schema/not-found";
    /// A schema text could not be read (not YAML or JSON, or neither a CustomResourceDefinition
    /// nor an OpenAPI v3 document).
    ///
    /// The message names the text. A CRD carries `spec.versions[].schema.openAPIV3Schema`; an
    /// OpenAPI v3 document `components.schemas` (as `kubectl get --raw /openapi/v3/apis/<group>/<version>`
    /// returns it).
    SCHEMA_INVALID = "schema/invalid";

    // --- expressions --------------------------------------------------------------------
    /// The expression does not parse.
    ///
    /// The position points at the first character the parser could not read. Paths are jq
    /// (`.spec.replicas`); quote YAML values that start with a character YAML treats specially.
    EXPR_SYNTAX = "expr/syntax";
    /// The expression parses but does not compile (unknown function, wrong arity, ...).
    ///
    /// Only the jq and CEL functions the resolver implements are available; the message names
    /// the one that is not.
    EXPR_COMPILE = "expr/compile";
    /// The expression uses something upstream forbids (`del`, `..`, `range`, assignment, ...).
    ///
    /// Definitions only read objects: upstream rejects expressions that could change them or
    /// run unbounded. Rewrite the expression with plain paths, filters and `map`.
    EXPR_FORBIDDEN = "expr/forbidden";
    /// The expression is longer or deeper than the resolver accepts.
    ///
    /// Split the logic across fields or simplify it.
    EXPR_TOO_COMPLEX = "expr/too-complex";
    /// The expression raised an error on this object.
    ///
    /// For example indexing a string as an object. The part of the view that needs the value is
    /// incomplete; guard the expression (`.a? // empty`) if the field may be absent.
    EXPR_RUNTIME = "expr/runtime-error";
    /// The expression exceeded its step, depth or size budget (a runaway expression).
    ///
    /// Each evaluation has a budget so that no object can hang the resolver. Simplify the
    /// expression.
    EXPR_BUDGET = "expr/budget-exceeded";
    /// The expression produced 1000 or more results (upstream's cap).
    ///
    /// Upstream stops there; so do we, and the amounts depending on it are lower bounds.
    EXPR_TOO_MANY_RESULTS = "expr/too-many-results";
    /// A CEL expression where no CEL engine is available.
    ///
    /// The npm package loads CEL, a second WebAssembly module, the first time a definition
    /// holds a CEL expression: by itself in Node and in the inline entry; in browsers, call
    /// `await loadCel()` before compiling such a definition (`needsCel(text)` tells). A build
    /// of the Rust core without its `cel` feature has no CEL unless its embedder registers an
    /// engine. Or write the expression in jq.
    EXPR_CEL_UNAVAILABLE = "expr/cel-unavailable";

    // --- the object (manifest) ----------------------------------------------------------
    /// The manifest is not an object with apiVersion/kind.
    ///
    /// Each document of a manifest is one Kubernetes object (a mapping with `apiVersion` and
    /// `kind`), or a `kind: List` of them.
    OBJECT_INVALID = "object/invalid";
    /// The object's kind differs from the definition's root kind.
    ///
    /// The definition was written for another type: pick the definition for this kind (without
    /// `--definition`, the catalog is searched by apiVersion and kind).
    OBJECT_KIND_MISMATCH = "object/kind-mismatch";
    /// An extracted value has the wrong shape (a pod spec that is not an object, ...).
    ///
    /// The definition's path reads something else than it expects in this object: check the
    /// path against the object.
    OBJECT_WRONG_SHAPE = "object/wrong-shape";
    /// Instance ids and a zipped path yield different counts.
    ///
    /// `instanceIdPath` and the paths read per instance must yield one value per instance.
    INSTANCE_COUNT_MISMATCH = "object/instance-count-mismatch";
    /// instanceIdPath yielded an empty id.
    ///
    /// Every instance needs a non-empty id; check `instanceIdPath` against the object.
    EMPTY_INSTANCE_ID = "object/empty-instance-id";
    /// A replicas value is not a number.
    ///
    /// The replica count is then unknown and shown as a lower bound.
    REPLICAS_NOT_A_NUMBER = "object/replicas-not-a-number";
    /// The phase path yielded a non-string.
    ///
    /// `phaseDefinition.path` must read a string such as `Running`.
    PHASE_NOT_A_STRING = "object/phase-not-a-string";
    /// Drafting found no pod template, pod spec or resources in the object's spec.
    ///
    /// The draft has no components to offer; write them by hand.
    NO_POD_TEMPLATE = "object/no-pod-template";
    /// `resolveAll` with the catalog: no catalog definition covers this object's
    /// apiVersion/kind, so it has no view.
    ///
    /// The object is listed without a view; add a definition for its type (or pass one
    /// explicitly) to read it.
    NO_CATALOG_DEFINITION = "object/no-catalog-definition";

    // --- resources ----------------------------------------------------------------------
    /// A quantity is not a valid Kubernetes quantity.
    ///
    /// Quantities are a number with an optional suffix (`500m`, `16Gi`, `1e3`). The amount is
    /// left out of the totals, which become lower bounds.
    INVALID_QUANTITY = "resources/invalid-quantity";
    /// An extended resource (e.g. a GPU) is requested in a fractional amount.
    ///
    /// Kubernetes only accepts whole numbers of extended resources such as GPUs.
    FRACTIONAL_EXTENDED = "resources/fractional-extended-resource";
    /// A GPU request differs from its limit (Kubernetes rejects such a pod).
    ///
    /// Extended resources cannot be overcommitted: set the request equal to the limit, or give
    /// the limit only.
    GPU_REQUEST_LIMIT_MISMATCH = "resources/gpu-request-limit-mismatch";
    /// Devices requested through resourceClaims (DRA) cannot be counted from the spec.
    ///
    /// The devices a claim gets are decided by the cluster, so GPU totals are lower bounds.
    RESOURCE_CLAIMS = "resources/resource-claims";
    /// A replicas, minReplicas or maxReplicas value is negative.
    ///
    /// The count is treated as unknown; fix the object.
    REPLICAS_NEGATIVE = "object/replicas-negative";
    /// An amount is larger than a JavaScript number holds exactly (2^53 - 1): the view
    /// shows that bound as a lower bound.
    ///
    /// Rather than a rounded number that looks exact, the view shows `≥ 9007199254740991`.
    RESOURCES_OVERFLOW = "resources/overflow";

    /// An object's controller owner is not in the input (info). A workload whose owner is
    /// missing is read as a workload of its own; any other object whose chain leaves the input
    /// belongs to no workload of the input.
    ///
    /// Give the owners too (`kubectl get trainjobs,jobsets,jobs,pods -o yaml`) to read the
    /// object as part of its owner's workload.
    OWNER_NOT_IN_INPUT = "object/owner-not-in-input";
    /// A related object (given apart from the manifest, e.g. `kubectl get pods` output) that
    /// no workload of the input owns (info).
    ///
    /// Related objects are never workloads themselves: give the object in the manifest to
    /// read it as a workload of its own.
    NOT_OWNED = "object/not-owned";
    /// Objects of the input name each other as controller owners (a cycle): no workload can
    /// be read from them.
    ///
    /// Kubernetes' garbage collector never builds such a chain; the manifest was edited by
    /// hand or assembled from different clusters. Fix the `ownerReferences` that point back.
    OWNER_CYCLE = "object/owner-cycle";

    // --- pods given with the object ---------------------------------------------------------
    /// A pod's owner chain leaves the input: the pod is not attributed to the workload (info).
    ///
    /// A pod belongs to a workload only when its controller chain reaches the workload through
    /// the objects given (upstream's rule); labels never attribute it. Give the owning
    /// objects too (`kubectl get jobset,jobs,pods -o yaml`).
    POD_OWNER_NOT_IN_INPUT = "pods/owner-not-in-input";
    /// A pod's controller chain reaches its workload only after more than 6 owners (warning):
    /// it is not attributed, as upstream walks at most 6.
    ///
    /// Real controllers nest two or three levels deep; a longer chain is usually a hand-made
    /// manifest.
    POD_CHAIN_TOO_LONG = "pods/chain-too-long";
    /// A single-value pod read (instance id, replica key, group key, filter) gave no value or
    /// several (`expected single query result, got N` / `query result is empty`).
    ///
    /// The definition's pod path reads something else in this pod than expected: check it
    /// against the pod's labels and fields.
    POD_QUERY = "pods/query-failed";
    /// A pod's instance id names no instance of its component.
    ///
    /// The pod belongs to an instance the object no longer declares, or the instance id path
    /// reads the wrong label.
    POD_NO_INSTANCE = "pods/no-instance";
    /// Attributed pods that no component claims (info).
    ///
    /// The pods belong to the workload but match no component's type selector.
    POD_UNPLACED = "pods/unplaced";

    // --- gang scheduling --------------------------------------------------------------------
    /// No component's type selector matches a pod (`no component found for pod X`).
    ///
    /// Check the components' `componentTypeSelector` against the pod's labels.
    GANG_NO_COMPONENT = "gang/no-component";
    /// No podGroups member takes a pod (`pod NS/X does not match any Karta pod group member
    /// definition`).
    ///
    /// Add the pod's component to a pod group, or check the members' selectors.
    GANG_NO_MEMBER = "gang/no-member";
    /// A podGroup sub-group's subtree has no scale (`component X must expose a replica scale
    /// definition`).
    ///
    /// Give the component a `scaleDefinition` so the group's minimum can be computed.
    GANG_NO_SCALE = "gang/no-scale";
    /// A gang group's minimum is more than a JavaScript number holds exactly (2^53 - 1).
    ///
    /// The minimum is shown as a lower bound.
    GANG_TOO_LARGE = "gang/too-large";

    // --- edits (suspend, resume, pod spec edits: src/edit) -------------------------------
    /// A path that edits write through is not a path expression (a computed value).
    ///
    /// Edits write where a path points, so such paths must be plain paths (`.spec.suspend`),
    /// not computations.
    PATH_NOT_WRITABLE = "definition/path-not-writable";
    /// A suspend or resume action's `value` is not JSON text.
    ///
    /// Write the value as JSON, e.g. `value: "true"` or `value: '"Suspended"'`.
    INVALID_ACTION_VALUE = "definition/invalid-action-value";
    /// The edit was refused because the definition has errors.
    ///
    /// Run `workload-map validate` on the definition and fix its errors first.
    EDIT_INVALID_DEFINITION = "edit/invalid-definition";
    /// Suspend or resume asked of a definition whose root has no such actions.
    ///
    /// Add `suspendDefinition` with `suspendActions` and `resumeActions` to the root component.
    EDIT_NO_SUSPEND_DEFINITION = "edit/no-suspend-definition";
    /// The component to edit is not in the definition.
    ///
    /// `workload-map definitions NAME` shows the component names.
    EDIT_UNKNOWN_COMPONENT = "edit/unknown-component";
    /// The instance to edit is not in the object.
    ///
    /// `workload-map describe` shows the instances of each component.
    EDIT_UNKNOWN_INSTANCE = "edit/unknown-instance";
    /// The component to edit has no specDefinition.
    ///
    /// Only components that run pods have a pod spec to edit.
    EDIT_NO_POD_SPEC = "edit/no-pod-spec";
    /// The merge patch is not an object (a pod spec is one).
    ///
    /// Give an RFC 7396 merge patch object, e.g. `{"schedulerName":"kai-scheduler"}`.
    EDIT_INVALID_MERGE_PATCH = "edit/invalid-merge-patch";
    /// A value could not be written at a location (e.g. a step into a number).
    ///
    /// The object's shape at the path differs from what the definition expects.
    EDIT_WRITE_FAILED = "edit/write-failed";
    /// The definition's paths cannot carry this change (no path for a field, or writes that
    /// reach other instances or undo each other).
    ///
    /// Edit the object directly, or extend the definition's fragmented pod spec paths.
    EDIT_NOT_REPRESENTABLE = "edit/not-representable";
    /// The edit would change components, instance ids or replicas; refused.
    ///
    /// Pod spec edits must leave the workload's structure as it is: edit those fields directly.
    EDIT_STRUCTURE_CHANGED = "edit/structure-changed";
    /// A path selects no location in this object: that action writes nothing.
    ///
    /// The object lacks the field the action writes through; check the path against it.
    EDIT_NO_TARGET = "edit/no-target";
    /// The edit changes nothing (e.g. suspending a suspended object): the patch is empty.
    ///
    /// Nothing to do; the empty patch is safe to apply.
    EDIT_NO_CHANGE = "edit/no-change";

    // --- definition test cases (src/cases.rs) -----------------------------------------------
    /// A test case has a value of the wrong type or shape (an expectation that is not a list,
    /// an unknown action, both `object` and `objectFrom`, ...).
    ///
    /// The message names the key and what it must be; the catalog's case format is described
    /// in `catalog/README.md`.
    CASE_INVALID = "case/invalid";
    /// A test case has a key the format does not know: it would never be checked.
    ///
    /// Usually a misspelt key: check it against the case format in `catalog/README.md`.
    CASE_UNKNOWN_FIELD = "case/unknown-field";
    /// A test case lacks a key it needs (`expect`, `object` or `objectFrom`, `expect.patch`).
    ///
    /// Add the key; a case without expectations would check nothing.
    CASE_MISSING_FIELD = "case/missing-field";
    /// `objectFrom` names no case file of the folder, or one without a readable `object`.
    ///
    /// `objectFrom` takes the file name of another case in the same `tests/` folder.
    CASE_OBJECT_FROM = "case/object-from";
    }
}

/// Converts byte offsets of one text into 1-based lines and columns, each in O(log n): a text
/// written on one line (JSON from `JSON.stringify`) with thousands of positions costs no more
/// than a text of many lines.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    /// Every character of more than one byte (none in ASCII text): its byte offset, and how
    /// many bytes more than characters, and than UTF-16 code units, the text holds up to and
    /// including it.
    wide: Vec<Wide>,
    text_len: u32,
}

#[derive(Debug, Clone, Copy)]
struct Wide {
    offset: u32,
    extra_chars: u32,
    extra_utf16: u32,
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
        let mut wide = Vec::new();
        let at = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
        if text.is_ascii() {
            for (i, b) in text.bytes().enumerate() {
                if b == b'\n' {
                    line_starts.push(at(i + 1));
                }
            }
        } else {
            let (mut extra_chars, mut extra_utf16) = (0u32, 0u32);
            for (i, c) in text.char_indices() {
                let len = c.len_utf8();
                if len > 1 {
                    extra_chars = extra_chars.saturating_add(at(len - 1));
                    extra_utf16 = extra_utf16.saturating_add(at(len - c.len_utf16()));
                    wide.push(Wide {
                        offset: at(i),
                        extra_chars,
                        extra_utf16,
                    });
                } else if c == '\n' {
                    line_starts.push(at(i + 1));
                }
            }
        }
        LineIndex {
            line_starts,
            wide,
            text_len: at(text.len()),
        }
    }

    /// How many bytes more than units of `unit` the text holds before byte `offset`.
    fn extra_before(&self, offset: u32, unit: ColumnUnit) -> u32 {
        let k = self.wide.partition_point(|w| w.offset < offset);
        match k.checked_sub(1).and_then(|k| self.wide.get(k)) {
            None => 0,
            Some(w) => match unit {
                ColumnUnit::Char => w.extra_chars,
                ColumnUnit::Utf16 => w.extra_utf16,
            },
        }
    }

    /// `offset` within the text, moved back to the start of the character it falls in.
    fn boundary(&self, text: &str, offset: u32) -> u32 {
        let mut end = offset.min(self.text_len) as usize;
        while end > 0 && !text.is_char_boundary(end) {
            end -= 1;
        }
        u32::try_from(end).unwrap_or(u32::MAX)
    }

    /// The 0-based UTF-16 offset of byte `offset` in `text` (which must be the indexed text):
    /// where JavaScript strings and editors place it.
    pub fn utf16_offset(&self, text: &str, offset: u32) -> u32 {
        let end = self.boundary(text, offset);
        end - self.extra_before(end, ColumnUnit::Utf16)
    }

    /// The line and column of byte `offset` in `text` (which must be the indexed text).
    pub fn line_col(&self, text: &str, offset: u32, unit: ColumnUnit) -> LineCol {
        let offset = offset.min(self.text_len);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let end = self.boundary(text, offset).max(start);
        let column =
            (end - start) - (self.extra_before(end, unit) - self.extra_before(start, unit));
        LineCol {
            line: u32::try_from(line + 1).unwrap_or(u32::MAX),
            column: column.saturating_add(1),
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
    fn utf16_offsets_count_surrogate_pairs_and_cjk_before_the_line() {
        let text = "# 🚀 漢字\nname: x\n";
        let index = LineIndex::new(text);
        let name = text.find("name").unwrap_or_default() as u32;
        // "# " 2 + rocket 2 + " " 1 + two CJK 2 + newline 1.
        assert_eq!(index.utf16_offset(text, name), 8);
        assert_eq!(index.utf16_offset(text, 0), 0);
        let ascii = "a\nbc";
        assert_eq!(LineIndex::new(ascii).utf16_offset(ascii, 3), 3);
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
    fn every_offset_agrees_with_counting_the_line_prefix() {
        // The index answers without scanning the line; counting the prefix is the definition.
        let text = "a: é\n\nb: \"😀x漢\"\r\n  - c\u{10FFFF}d\nlast é😀";
        let index = LineIndex::new(text);
        for offset in 0..=text.len() as u32 + 2 {
            let clamped = (offset as usize).min(text.len());
            let mut end = clamped;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
            let line = text[..start].matches('\n').count() as u32 + 1;
            let prefix = &text[start..end];
            for (unit, width) in [
                (ColumnUnit::Char, prefix.chars().count()),
                (ColumnUnit::Utf16, prefix.encode_utf16().count()),
            ] {
                let got = index.line_col(text, offset, unit);
                assert_eq!(
                    (got.line, got.column),
                    (line, width as u32 + 1),
                    "{offset} {unit:?}"
                );
            }
            let utf16 = text[..end].encode_utf16().count() as u32;
            assert_eq!(index.utf16_offset(text, offset), utf16, "{offset}");
        }
    }

    #[test]
    fn offset_past_end_clamps() {
        assert_eq!(pos("ab", 99, ColumnUnit::Char), (1, 3));
    }
}

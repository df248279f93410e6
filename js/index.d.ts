// Types of the workload-map package. Hand-written to mirror the Rust boundary (src/view.rs,
// src/diagnostic.rs, src/wasm.rs); tests/node/types.test.mjs pins them by type-checking real
// results against them with `tsc --strict`, so a field added or renamed on one side fails there.
// scripts/build.mjs writes this one file as pkg/index.d.mts (import) and pkg/index.d.cts
// (require), with the union of diagnostic codes filled in from src/diagnostic.rs.
//
// They need no DOM lib: `lib: ["es2022"]` alone (with or without @types/node) is enough. Types
// that only some environments declare (URL, Response, WebAssembly.Module) are taken from the
// environment when it has them and left out when it does not.

declare global {
  interface SymbolConstructor {
    /**
     * `Symbol.dispose` (explicit resource management), declared here as TypeScript's
     * `esnext.disposable` lib and @types/node declare it, so that `using` works without them.
     */
    readonly dispose: unique symbol;
  }
  /** What `using` takes (declared as TypeScript's `esnext.disposable` lib and @types/node do). */
  interface Disposable {
    [Symbol.dispose](): void;
  }
}

/** The instance type of the global constructor `Name`, or `never` where the environment's types do not declare it. */
type GlobalInstance<Name extends string> = typeof globalThis extends { readonly [K in Name]: { readonly prototype: infer T } } ? T : never;

/** `WebAssembly.Module`, or `never` where the environment's types do not declare it. */
type WasmModule = typeof globalThis extends { readonly WebAssembly: { readonly Module: { readonly prototype: infer T } } } ? T : never;

/**
 * The stable diagnostic codes (`codes` in src/diagnostic.rs): never renamed, only added. The
 * build writes the union here from that list.
 */
export type DiagnosticCode = string /* @generated diagnostic codes */;

/** How bad a problem is. */
export type Severity = 'info' | 'warning' | 'error';

/** One problem in what the user wrote. Positions are 1-based, columns in UTF-16 code units. */
export interface Diagnostic {
  /** Stable code, e.g. `definition/unknown-field`; never renamed. */
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  /** Dotted document path (`spec.structureDefinition.rootComponent.kind`) or component path; may be empty. */
  path: string;
  /** Which text the position refers to: the definition, the object (manifest), a test case (`runCase`), or an API schema (`checkDefinition`; no position). */
  source: 'definition' | 'object' | 'case' | 'schema';
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  /** How to fix it, when there is something useful to say. */
  help?: string;
}

/** A group/version/kind (`group` is `""` for the core group). */
export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

/** The shared workload phases. */
export type Phase =
  | 'Initializing'
  | 'Running'
  | 'Completed'
  | 'Failed'
  | 'Degraded'
  | 'Suspended'
  | 'Suspending'
  | 'Resuming'
  | 'Undefined';

/** The language of a `byExpression`. */
export type Language = 'jq' | 'cel';

/**
 * Resource amounts: whole numbers, never above `Number.MAX_SAFE_INTEGER`, exact unless listed
 * in `lowerBounds`.
 */
export interface Resources {
  /** `nvidia.com/gpu` + `amd.com/gpu`. */
  gpus: number;
  cpuMillis: number;
  memoryBytes: number;
  /** Every other extended resource (and each GPU resource by its own name), in whole units. */
  extended: Record<string, number>;
  /**
   * Present and true when some amount here is a lower bound, not exact (`lowerBounds` says
   * which): something could not be counted (devices through `resourceClaims`, a quantity that
   * does not parse, instances, a replica count or a pod spec that could not be read, e.g. past
   * the 1000-result cap), or an amount is larger than a JavaScript number holds exactly and is
   * shown as `Number.MAX_SAFE_INTEGER` (`resources/overflow`). A diagnostic says why.
   */
  incomplete?: boolean;
  /**
   * The amounts that are lower bounds (present exactly when `incomplete` is): show such an
   * amount n as "≥ n" when n > 0 and "n/a" when 0; `extended` covers every extended amount.
   */
  lowerBounds?: ('gpus' | 'cpuMillis' | 'memoryBytes' | 'extended')[];
  /**
   * The amounts as a person reads them: the one reading every front end prints (CPU `500m`,
   * `2`; memory `16Gi`, `70M`; GPUs and extended resources as whole numbers), a lower bound n > 0
   * as `≥ n` and an unknown amount as `n/a`. Show these strings rather than formatting numbers.
   */
  text: AmountsText;
}

/** Amounts as read by a person (see `Resources.text`). */
export interface AmountsText {
  gpus: string;
  cpu: string;
  memory: string;
  extended: Record<string, string>;
}

/** A count of pods as the front ends show it. */
export interface PodCount {
  /** Pods asked for (what is known: see `incomplete`). */
  desired: number;
  /** Present and true when `desired` is a lower bound. */
  incomplete?: boolean;
  /** Pods placed here (present when pods were given). */
  current?: number;
  /** Of those, the ready ones (present when pods were given). */
  ready?: number;
  /** `desired` as read: `3`, `≥ 3`, `n/a`. */
  text: string;
}

/**
 * One row of the resources table: the pods of one instance of a component that runs pods, over
 * the whole workload (an instance under a logical group of N replicas counts N times).
 */
export interface ResourceRow {
  /** The component's path from the root, e.g. `jobset/replicatedjob`. */
  component: string;
  /** The instance id (absent for a single-instance component). */
  instance?: string;
  /** The row's label: the component name, with `[id]` for an instance. */
  name: string;
  pods: PodCount;
  /** The effective request of one pod. */
  perPod: Resources;
  /** `perPod` × `pods.desired`. */
  total: Resources;
  /** The nodes its placed pods run on, sorted (present when pods were given). */
  nodes?: string[];
}

/**
 * The resources table: its rows add up to the view's `resources` (exactly, when no amount is a
 * lower bound), and `pods` is their sum. The CLI, the playground and the web component print it.
 */
export interface ResourceTable {
  rows: ResourceRow[];
  pods: PodCount;
}

/** Replica counts. */
export interface Replicas {
  /** Desired replicas: replicas, else minReplicas, else 1 (what is known: see `incomplete`). */
  desired: number;
  replicas?: number;
  min?: number;
  max?: number;
  /**
   * Present and true when `desired` is a lower bound: the instances, or a count that decides
   * it, could not be read, are not a number or are negative. Show "≥ n" for n > 0, "n/a" for 0.
   */
  incomplete?: boolean;
  /**
   * What one replica is: `pods` for a component that runs pods, `groups` for a logical group
   * whose replicas are copies of its children (a LeaderWorkerSet's groups); absent when the
   * count stands for nothing. Show "× N" exactly when it is present.
   */
  unit?: 'pods' | 'groups';
  /** `desired` as read: `3`, `≥ 3`, `n/a`. */
  text: string;
}

/** One component of the role tree. */
export interface Component {
  name: string;
  /** Null for logical grouping components. */
  kind: Gvk | null;
  hasPodSpec: boolean;
  replicas: Replicas;
  /** Effective per-pod request when every instance has the same one. */
  podResources: Resources | null;
  /** Subtree total. */
  resources: Resources;
  /**
   * Pods the subtree asks for, per copy of the logical groups above it (as the tree shows it),
   * with the placed and ready ones when pods were given.
   */
  podCount: PodCount;
  /** Empty, with `replicas.incomplete`, when the instances could not be read (see diagnostics). */
  instances: Instance[];
  /** The live pods placed here (present when pods were given to `resolve`). */
  pods?: Pods;
  /** Where the component was written: its entry in the definition text. */
  source: DefinitionSource;
}

/**
 * A range of a text the caller gave: `start`/`end` are 0-based UTF-16 offsets (what JavaScript
 * strings and editors such as CodeMirror count, `end` exclusive); `line`/`column` and
 * `endLine`/`endColumn` are the same places as 1-based lines and UTF-16 columns.
 */
export interface SourceRange {
  start: number;
  end: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/**
 * Where a component or a status matcher was written. `definition` is absent when the definition
 * was given as a plain object (there is no text to point into).
 */
export interface DefinitionSource {
  definition?: SourceRange;
}

/** Where an instance was read from in the object. */
export interface InstanceSource {
  /**
   * RFC 6901 JSON Pointer of the part of the object the instance was read from (the deepest
   * location holding its id, counts and pod template), e.g. `/spec/replicatedJobs/1`; `""` for
   * the root (the object itself). Absent when none of the definition's paths for this
   * component is a path expression that locates it (e.g. `keys[]`).
   */
  pointer?: string;
  /** Its range in the object text; absent when the object was given as a plain object. */
  object?: SourceRange;
}

/** One instance of a component. */
export interface Instance {
  /** Null for a single-instance component. */
  id: string | null;
  replicas: Replicas;
  /**
   * Effective per-pod request; null without a pod spec. Zero amounts with `incomplete` when the
   * definition has a pod spec but it could not be read here.
   */
  podResources: Resources | null;
  resources: Resources;
  /** Pods this instance asks for (with its children's when it is the only instance). */
  podCount: PodCount;
  /** Child components; with pods, each instance's children hold only that instance's pods. */
  children: Component[];
  /** The live pods placed in this instance (present when pods were given to `resolve`). */
  pods?: Pods;
  /** Where the instance was read from in the object. */
  source: InstanceSource;
}

/** Live pods of a component or instance. */
export interface Pods {
  /** Pods placed here. */
  current: number;
  /** Of them, the ready ones (`PodItem.ready`: `Ready` condition `True`, not terminating). */
  ready: number;
  /** The pods, sorted by name. */
  items: PodItem[];
}

/** One live pod. */
export interface PodItem {
  name: string;
  /** `status.phase` (`Unknown` when absent). */
  phase: string;
  /** Its `Ready` condition is `True` and it is not terminating (as the ReplicaSet and endpoints controllers count ready pods). */
  ready: boolean;
  /**
   * Present (true) when the pod is being deleted and has not finished: `metadata.deletionTimestamp`
   * is set and its phase is neither `Succeeded` nor `Failed`. kubectl shows it as `Terminating`;
   * it is never ready.
   */
  terminating?: boolean;
  /** For a pod that is not ready: the `PodScheduled=False` reason, else `status.reason`, else the `Ready=False` reason. */
  reason?: string;
  /** `spec.nodeName`, when scheduled. */
  node?: string;
  /** The replica key read by the nearest `replicaSelector` (a LeaderWorkerSet group index). */
  replica?: string;
  /** The pod's own effective request. */
  resources: Resources;
}

/** How the pods given with an object were attributed to it. */
export interface PodsSummary {
  /** Pods given. */
  total: number;
  /** Pods that belong to the workload. */
  attributed: number;
  /** Names of the pods that do not. */
  unattributed: string[];
  /**
   * The attributed pods no component claims (the `pods/unplaced` info names them), or all of them
   * when there is no role tree: they belong to the workload alone. Present when not empty.
   */
  unplaced?: PodItem[];
}

/** A gang-scheduling topology constraint. */
export interface Topology {
  topologyName: string;
  preferredTopologyLevel: string;
  requiredTopologyLevel: string;
}

/** One gang-scheduling group. */
export interface Group {
  /** `pg-<root uid>[-<key>...]` as KAI names it; without pods, the `podGroups` entry's name. */
  name: string;
  /** Pods that must be schedulable together (0 when the group is made of sub-groups). */
  minAvailable: number;
  /** `minAvailable` as read: `4`, `≥ 4` (a lower bound), `n/a`. */
  minAvailableText: string;
  /**
   * Present and true when `minAvailable` is a lower bound: a replica count it depends on could
   * not be read, is not a number or is negative (as `Replicas.incomplete`). Show "≥ n" for
   * n > 0, "n/a" for 0.
   */
  incomplete?: boolean;
  /** The components whose pods the group holds. */
  members: string[];
  /** `podGroup.subGroups`, each with its own minimum (`incomplete` as the group's). */
  subGroups?: { name: string; minAvailable: number; minAvailableText: string; incomplete?: boolean; topology?: Topology }[];
  topology?: Topology;
  /** The pods in the group (when pods were given). */
  pods?: string[];
}

/** Objects related to a workload, as `kubectl get jobset,jobs,pods -o yaml` returns them. */
export interface RelatedObjects {
  /**
   * Objects given apart from the manifest (pods, and the objects between them and the
   * workload: Jobs, ReplicaSets, ...). A pod belongs to the workload when its controller chain
   * reaches it (see `readManifest`); labels never attribute one. When given (even empty), the
   * view has `pods`. One that could not be read (nested past 128 levels) is left out, with a
   * `syntax/too-large` diagnostic in the view whose `path` starts with `related[i]`.
   */
  related?: readonly object[];
  /** The same as `related` (kept for older callers; both lists are read together). */
  pods?: readonly object[];
  /** The same as `related` (kept for older callers; both lists are read together). */
  owners?: readonly object[];
  /**
   * When the input holds several objects (a List, a multi-document stream): the index of the
   * workload among them, as `parseObjects` lists them. Without it, the first workload of the
   * definition's type is resolved, else the first workload (`readManifest`). The objects that
   * belong to it in the same input are its related objects, and the view's places
   * (diagnostics, instances' `source.object`) point into that text.
   */
  workload?: number;
}

/** Options of `resolve`: the related objects, and whether to explain the status. */
export interface ResolveOptions extends RelatedObjects {
  /**
   * `false` gives the lean view: the same view without `status.mappings` (the explanation of
   * every status mapping), lighter to make and to pass to JavaScript. Default `true`.
   */
  explain?: boolean;
}

/** The status of a lean view: what was read, without the mapping explanations. */
export type LeanStatusView = Omit<StatusView, 'mappings'>;

/** The view `resolve(object, { explain: false })` returns: phases, tree, totals, no explanations. */
export interface LeanWorkloadView extends Omit<WorkloadView, 'status'> {
  status: LeanStatusView;
}

/** One condition as read through the definition's field names. */
export interface Condition {
  type: string;
  status: string | null;
  reason: string | null;
  message: string | null;
}

/** The outcome of one part of a status matcher. */
export type Check =
  | { kind: 'phase'; expected: string; actual: string | null; matched: boolean }
  | {
      kind: 'condition';
      type: string;
      expectedStatus: string | null;
      expectedReason: string | null;
      actualStatus: string | null;
      actualReason: string | null;
      matched: boolean;
      failure?: 'missing' | 'statusDiffers' | 'reasonDiffers' | 'reasonNotRead' | 'noConditionsDefinition';
    }
  | {
      kind: 'expression';
      expression: string;
      language: Language;
      expected: string;
      actual: string | null;
      matched: boolean;
      error?: string;
    };

export interface MatcherExplanation {
  matched: boolean;
  checks: Check[];
  /** Where the matcher (one `statusMappings.<phase>` list item) was written. */
  source: DefinitionSource;
}

export interface MappingExplanation {
  status: Phase;
  matched: boolean;
  matchers: MatcherExplanation[];
}

export interface StatusView {
  phase: string | null;
  conditions: Condition[];
  mappings: MappingExplanation[];
}

/** The resolved view of one workload object. */
export interface WorkloadView {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string | null;
  definition: { name: string };
  /** Matched phases in mapping key order; `["Undefined"]` when nothing matched. */
  phases: Phase[];
  /**
   * Present (true) when the object is being deleted: `metadata.deletionTimestamp` is set (for a
   * pod, one that has not finished). Its phases are still what its status says; kubectl shows it
   * as `Terminating`.
   */
  terminating?: boolean;
  status: StatusView;
  /** Totals for the whole workload. */
  resources: Resources;
  /** The resources table; its rows add up to `resources`. */
  table: ResourceTable;
  root: Component | null;
  /** How the given pods were attributed (present when pods were given). */
  pods?: PodsSummary;
  /** Gang-scheduling groups (empty without `gangScheduling` instructions). */
  groups: Group[];
  diagnostics: Diagnostic[];
}

/** A JSON value (what a parsed manifest or definition is made of). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A plain object, e.g. a manifest read with another YAML/JSON library. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * An object or a definition as the API takes it: YAML/JSON text (one document), or a plain
 * object typed any way you have it (your own interface without an index signature, a
 * `JsonObject`, or `unknown` as a YAML/JSON library returns it). Anything that is neither a
 * string nor a plain JSON-compatible object throws a `TypeError`.
 */
export type ObjectInput = unknown;

/**
 * A compiled definition: parse, validate and compile once, resolve many objects.
 *
 * It belongs to the engine instance that compiled it. If the engine ever stops on an input (a
 * WebAssembly trap), that call throws an `Error` with `code: 'WORKLOAD_MAP_ENGINE_RESTARTED'`,
 * the engine is restarted, and a Definition compiled before then throws an `Error` with
 * `code: 'WORKLOAD_MAP_STALE_DEFINITION'`: compile it again. After `free()`, using it throws a
 * `TypeError`.
 */
export class Definition {
  /** Compiles YAML/JSON text or a plain object. Never throws on bad content (see `diagnostics`). */
  constructor(source: ObjectInput);
  /** Every problem in the definition. */
  readonly diagnostics: Diagnostic[];
  /** True when no diagnostic is an error. */
  readonly valid: boolean;
  /** `metadata.name`. */
  readonly name: string | undefined;
  /** The root component's group/version/kind. */
  readonly gvk: Gvk | null;
  /** Component names, root first. */
  readonly componentNames: string[];
  /**
   * Resolves one object given as YAML/JSON text (one document) or a plain object; with
   * `{ pods, owners }`, also places the workload's pods and forms its gang groups; with
   * `{ explain: false }`, returns the lean view (no `status.mappings`). Given a `Manifest`,
   * resolves it from the reading it keeps, with its related objects: the view
   * `resolve(text, { workload, related })` gives, without reading the text again.
   */
  resolve(manifest: Manifest, options: ManifestResolveOptions & { explain: false }): LeanWorkloadView;
  resolve(manifest: Manifest, options?: ManifestResolveOptions & { explain?: true }): WorkloadView;
  resolve(manifest: Manifest, options?: ManifestResolveOptions): WorkloadView | LeanWorkloadView;
  resolve(object: ObjectInput, options: ResolveOptions & { explain: false }): LeanWorkloadView;
  resolve(object: ObjectInput, options?: ResolveOptions & { explain?: true }): WorkloadView;
  resolve(object: ObjectInput, options?: ResolveOptions): WorkloadView | LeanWorkloadView;
  /** Frees the wasm memory now instead of when the object is garbage-collected. Idempotent. */
  free(): void;
  /** `free()`, so that `using definition = new Definition(text)` frees it at the end of the block. */
  [Symbol.dispose](): void;
}

/** The result of `validate`. */
export interface Validation {
  valid: boolean;
  diagnostics: Diagnostic[];
}

/** Checks a definition text. */
export function validate(definitionText: string): Validation;

/** Resolves one object with a definition (compiled, text or plain object). */
export function resolve(
  definition: Definition | ObjectInput,
  manifest: Manifest,
  options: ManifestResolveOptions & { explain: false },
): LeanWorkloadView;
export function resolve(
  definition: Definition | ObjectInput,
  manifest: Manifest,
  options?: ManifestResolveOptions & { explain?: true },
): WorkloadView;
export function resolve(
  definition: Definition | ObjectInput,
  manifest: Manifest,
  options?: ManifestResolveOptions,
): WorkloadView | LeanWorkloadView;
export function resolve(
  definition: Definition | ObjectInput,
  object: ObjectInput,
  options: ResolveOptions & { explain: false },
): LeanWorkloadView;
export function resolve(
  definition: Definition | ObjectInput,
  object: ObjectInput,
  options?: ResolveOptions & { explain?: true },
): WorkloadView;
export function resolve(
  definition: Definition | ObjectInput,
  object: ObjectInput,
  options?: ResolveOptions,
): WorkloadView | LeanWorkloadView;

/** The objects in a YAML/JSON text: every document, with `kind: List` expanded. */
export interface ParsedObjects {
  objects: JsonObject[];
  /** The problem that stopped reading (with its position in the text), if any. */
  diagnostics: Diagnostic[];
}

/** Splits YAML/JSON text into objects (multi-document streams and `kind: List`). */
export function parseObjects(text: string): ParsedObjects;

/** A Kubernetes quantity. */
export interface Quantity {
  /** The amount as the nearest JavaScript number (`"500m"` is 0.5); `canonical` is exact. */
  value: number;
  /**
   * The amount in thousandths, rounded up as Kubernetes does (`"0.5"` is 500); null when that
   * is beyond `Number.MAX_SAFE_INTEGER` (above about 9e12 units), where it could not be exact.
   */
  milliValue: number | null;
  /** The canonical spelling, as Kubernetes prints it (`"1000m"` is `"1"`). */
  canonical: string;
  /** A short reading for people (`"1536Mi"` is `"1.5Gi"`); rounded, not for arithmetic. */
  human: string;
}

/** Parses a Kubernetes quantity; throws a RangeError when the text is not one or is above 1e29. */
export function parseQuantity(text: string): Quantity;

/**
 * CPU millicores for display, as Kubernetes writes quantities: `20`, `1.5`, `500m`. Throws a
 * RangeError unless given a whole number from 0 to `Number.MAX_SAFE_INTEGER`.
 */
export function formatCpu(millis: number): string;

/**
 * Bytes for display: binary units when exact (`16Gi`), else decimal (`70M`), else rounded
 * (`1.5Gi`). Throws a RangeError unless given a whole number from 0 to `Number.MAX_SAFE_INTEGER`.
 */
export function formatMemory(bytes: number): string;

/** A catalog definition as listed. */
export interface CatalogEntry {
  name: string;
  /** Where it comes from (`catalog`). */
  origin: string;
  apiVersion: string;
  kind: string;
  /** Component names, root first. */
  components: string[];
}

/** A catalog definition with its text. */
export interface CatalogDefinition extends CatalogEntry {
  /** The definition YAML, ready for `new Definition(text)`. */
  text: string;
}

/** A catalog lookup result. */
export interface CatalogMatch extends CatalogDefinition {
  /** False when only the same group and kind at another version matched. */
  exactVersion: boolean;
}

/** The embedded catalog of definitions. */
export const catalog: {
  /** Every definition, sorted by name. */
  list(): CatalogEntry[];
  /** The definition for an object's apiVersion and kind, or null. */
  find(apiVersion: string, kind: string): CatalogMatch | null;
  /** The definition with this name, or null. */
  get(name: string): CatalogDefinition | null;
};

/** The package version. */
export const version: string;

/**
 * Where `init()` takes the `.wasm` from: a URL (string or `URL`), a `Request`, a `Response` (or
 * a promise of one), the bytes, or a compiled `WebAssembly.Module`.
 */
export type WasmSource =
  | string
  | GlobalInstance<'URL'>
  | GlobalInstance<'Request'>
  | GlobalInstance<'Response'>
  | PromiseLike<GlobalInstance<'Response'>>
  | ArrayBuffer
  | ArrayBufferView
  | WasmModule;

/**
 * Loads the WebAssembly module; required once in browsers and bundlers before any other call,
 * a no-op in Node. Idempotent. Accepts the `.wasm` as a URL, Response, bytes or compiled Module
 * (by default the file next to the module is fetched). It is compiled once: if the engine ever
 * traps, a new instance is made from that same module, synchronously.
 */
export function init(
  input?: WasmSource,
): Promise<void>;

// --- CEL: a second WebAssembly module, loaded the first time a definition holds CEL ----------

/**
 * Whether compiling this definition (YAML/JSON text or a plain object) needs the CEL module: it
 * holds a `byExpression` with `language: cel`. Reads the definition without compiling it.
 */
export function needsCel(definition: ObjectInput): boolean;

/**
 * Loads the CEL module. Node and the `workload-map/inline` entry load it by themselves,
 * synchronously, the first time a definition holds CEL (this resolves at once). In browsers
 * (the default entry) call it before compiling a definition that holds CEL (`needsCel(text)`
 * tells): it fetches `workload_map_cel_bg.wasm` next to the module by default, or takes the same
 * forms as `init()`. Idempotent. A definition compiled without it has an
 * `expr/cel-unavailable` error on each CEL expression. Definitions without CEL never load it.
 */
export function loadCel(input?: WasmSource): Promise<void>;

// --- Edits: suspend, resume and pod spec merge patches ------------------------------------------

/** One RFC 6902 JSON Patch operation (`kubectl patch --type json` takes a list of them). */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace';
  /** RFC 6901 JSON Pointer (`~` written `~0`, `/` written `~1`). */
  path: string;
  /** The new value; absent for `remove`. */
  value?: JsonValue;
}

/**
 * The result of an edit. When a diagnostic is an error the edit was refused: `object` is the
 * input unchanged (null when the input could not be read) and `patch` is empty. An edit that
 * changes nothing has an empty patch and an `edit/no-change` note.
 */
export interface EditResult {
  object: JsonObject | null;
  /** The operations that turn the input into `object`, touching only what changed. */
  patch: JsonPatchOperation[];
  diagnostics: Diagnostic[];
}

/** What `editPodSpec` changes. */
export interface PodSpecEditOptions {
  /** The component's name in the definition. */
  component: string;
  /** One instance id; omitted or null edits every instance. */
  instance?: string | null;
  /**
   * RFC 7396 merge patch for the pod spec as the definition reads it: the PodSpec
   * (podSpecPath), the template's `spec` (podTemplateSpecPath), or the fragmented pod spec
   * (`{containers, container, image, resources, schedulerName, ...}`).
   */
  merge: unknown;
}

export interface Definition {
  /** Applies the root's suspendActions in order. */
  suspend(object: ObjectInput): EditResult;
  /** Applies the root's resumeActions in order. */
  resume(object: ObjectInput): EditResult;
  /** Applies a JSON merge patch to one component's pod spec (one instance or all). */
  editPodSpec(object: ObjectInput, options: PodSpecEditOptions): EditResult;
}

/** Applies the root's suspendActions in order. */
export function suspend(definition: Definition | ObjectInput, object: ObjectInput): EditResult;

/** Applies the root's resumeActions in order. */
export function resume(definition: Definition | ObjectInput, object: ObjectInput): EditResult;

/** Applies a JSON merge patch to one component's pod spec, through the definition's paths. */
export function editPodSpec(
  definition: Definition | ObjectInput,
  object: ObjectInput,
  options: PodSpecEditOptions,
): EditResult;
// --- draft (added with the authoring loop) ---------------------------------------------------

/** The result of `draft`. */
export interface Draft {
  /**
   * A starting definition as commented YAML: every guess (pod templates, instances, replica
   * fields, status) with a comment saying what it saw. Empty when the object text could not be
   * parsed.
   */
  text: string;
  /**
   * Source `object`: what could not be drafted (no pod template, no apiVersion/kind, a syntax
   * error in the object text). Source `definition`: problems the draft itself has, placed in `text`.
   */
  diagnostics: Diagnostic[];
}

/** Drafts a commented starting definition from one object (YAML/JSON text or a plain object). */
export function draft(object: ObjectInput): Draft;

// --- resolveAll (many workloads of mixed types, e.g. for a dashboard's list page) ------------

/** Options of `resolveAll`: the catalog's definitions, or definitions given as texts. */
export type ResolveAllOptions = ResolveAllCommonOptions & (
  | {
      /** Read each workload with the catalog's definition for its apiVersion/kind. */
      catalog: true;
      definitions?: undefined;
    }
  | {
      /**
       * Definition texts: each workload is read with the one whose root type is its
       * apiVersion/kind (the only one, when one is given); `ResolvedWorkload.given` says which.
       */
      definitions: string[];
      /**
       * With `definitions`: the catalog reads every type no given definition is written for
       * (the given ones replace the catalog's per apiVersion/kind, as a cluster's Karta
       * definitions do); the rule "the only one given reads every workload" does not apply.
       */
      catalog?: boolean;
    }
);

/** What `resolveAll` takes with either source of definitions. */
export interface ResolveAllCommonOptions {
  /**
   * More related objects (`kubectl get pods -A -o json`): pods and the objects between them and
   * their workloads, as text, an array or a List; never workloads themselves. When given (even
   * empty), or when the objects hold a pod, every view is resolved with its pods.
   */
  related?: ObjectInput;
  /** The same as `related` (kept for older callers). */
  pods?: ObjectInput;
}

/** An object of the input that belongs to no workload. */
export interface UnownedObject {
  /** Its position among the objects (the manifest's, then the related ones). */
  index: number;
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string | null;
  /**
   * Why: `object/owner-not-in-input` (its chain leaves the input: give its owners),
   * `object/not-owned` (a related object no workload owns), `object/owner-cycle` (its owners name
   * each other, an error) or `pods/chain-too-long`.
   */
  diagnostic: Diagnostic;
}

/** One workload of `resolveAll`. */
export interface ResolvedWorkload {
  /** Its position among the objects given (after a List's items were expanded). */
  index: number;
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string | null;
  /** `metadata.creationTimestamp` (RFC 3339), when the object has one. */
  creationTimestamp: string | null;
  /** The catalog definition that read it; `null` when the catalog has none for its type. */
  definition: { name: string; exactVersion: boolean } | null;
  /** With `definitions`: the index of the given definition that read it (absent otherwise). */
  given?: number;
  /** Its view; `null` without a definition. Diagnostics are located by path. */
  view: WorkloadView | null;
  /** Problems not in a view: `object/no-catalog-definition`. */
  diagnostics: Diagnostic[];
}

/** The result of `resolveAll`. */
export interface ResolvedList {
  /**
   * One entry per workload, in the order given: every object whose controller chain reaches no
   * other object of the input (see `readManifest`).
   */
  items: ResolvedWorkload[];
  /** Objects that belong to no workload, each with the reason. */
  unowned: UnownedObject[];
  /**
   * Problems reading the objects' or the related objects' text, and with each plain object of
   * an array that could not be read (nested past 128 levels, `syntax/too-large`, its `path`
   * starting with `items[i]`: `i` is its index, which no other object takes).
   */
  diagnostics: Diagnostic[];
}

/** One workload of `readManifest`. */
export interface ManifestWorkload {
  /** Its position among the objects (after a List's items were expanded). */
  index: number;
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string | null;
  /** The objects that belong to it (indices: the manifest's objects, then the related ones). */
  related: number[];
  /** Notes about the workload itself (`object/owner-not-in-input`: its owner was not given). */
  diagnostics: Diagnostic[];
}

/** The result of `readManifest`. */
export interface ManifestReading {
  workloads: ManifestWorkload[];
  unowned: UnownedObject[];
  /** Problems reading the text, or a plain object of an array (see `ResolvedList.diagnostics`). */
  diagnostics: Diagnostic[];
}

/**
 * The one reading of a manifest that `resolve`, `resolveAll`, the CLI and the playground share:
 * a workload is an object whose controller chain reaches no other object of the input (an
 * owner missing from the input never hides an object); a pod or object belongs to the workload
 * its controller chain reaches (a pod at most 6 owners away); everything else is listed with
 * the reason. `options.related` are objects given apart, never workloads themselves.
 */
export function readManifest(objects: ObjectInput, options?: { related?: readonly object[] }): ManifestReading;

/** Options of `new Manifest(text, options)`. */
export interface ManifestOptions {
  /**
   * Objects given apart from the manifest (`kubectl get pods -o yaml`): YAML/JSON text (read
   * once, its problems in `relatedDiagnostics`) or plain objects. Given (even empty or
   * unreadable), every view of the manifest has `pods`, as `resolve`'s `related` does.
   */
  related?: string | readonly object[];
}

/** Options of `Definition.resolve(manifest, options)`: `resolve`'s, the related objects being the manifest's. */
export interface ManifestResolveOptions {
  /** The index of the workload among the manifest's objects (see `RelatedObjects.workload`). */
  workload?: number;
  /** `false` gives the lean view (see `ResolveOptions.explain`). */
  explain?: boolean;
}

/**
 * A manifest text read once and kept in the engine (with the related objects given with it),
 * for a page or a worker that asks several things of one large text: its diagnostics, its
 * reading, an object at a time, and views resolved from the kept reading
 * (`definition.resolve(manifest, { workload })`, equal to `definition.resolve(text, { workload,
 * related })`, places in the text included). Its objects never cross to JavaScript all at once.
 *
 * Like a `Definition`, it belongs to the engine instance that read it: after a restart (see
 * `Definition`) using it throws an `Error` with `code: 'WORKLOAD_MAP_STALE_MANIFEST'`: read it
 * again. After `free()`, using it throws a `TypeError`. Free it when done (or `using`).
 */
export class Manifest {
  /** Reads YAML/JSON text (a stream, a `kind: List`). Never throws on bad content (see `diagnostics`). */
  constructor(text: string, options?: ManifestOptions);
  /** The problems reading the text: `parseObjects(text).diagnostics`. */
  readonly diagnostics: Diagnostic[];
  /** The problems reading `options.related`: its text, or its plain objects that could not be read. */
  readonly relatedDiagnostics: Diagnostic[];
  /** How many objects the text holds (`parseObjects(text).objects.length`). */
  readonly count: number;
  /** How many related objects were given. */
  readonly relatedCount: number;
  /**
   * `readManifest(objects, { related })` of its objects and related objects. Its `diagnostics`
   * are empty: the text's problems are the manifest's `diagnostics`.
   */
  readonly reading: ManifestReading;
  /**
   * One object as a plain value, by the reading's index: the text's objects
   * (`parseObjects(text).objects[index]`), then the related ones; `undefined` past the last.
   */
  object(index: number): JsonObject | undefined;
  /** Frees the wasm memory now instead of when the object is garbage-collected. Idempotent. */
  free(): void;
  /** `free()`, so that `using manifest = new Manifest(text)` frees it at the end of the block. */
  [Symbol.dispose](): void;
}

/**
 * Resolves every workload of a List of mixed types (`kubectl get jobsets,pytorchjobs,... -A -o
 * json`, as text, an array of objects or a List object) with its catalog definition, each
 * definition compiled once, each with the pods and objects that belong to it (`readManifest`).
 * Given as text, the views point into it: problems with values of the manifest (source
 * `object`: a negative count, an invalid quantity) carry the line and column of the value, and
 * instances their `source.object`.
 *
 * A dashboard that refreshes: call it again with the same array of objects (and the same
 * `related` array), a few of them replaced by newer versions. Objects count as unchanged by
 * `uid` and `resourceVersion` (as the API server versions them), or by content when they have
 * neither. When the count and the uid at each position are the same and at most a quarter
 * changed, only the changed objects cross into the engine, only the workloads they belong to
 * are resolved again, and every other entry of `items` is the previous result's own object (so
 * a page can skip redrawing it by identity; treat results as read-only). The answer is always
 * what a full resolve of the same objects gives.
 */
export function resolveAll(objects: ObjectInput, options: ResolveAllOptions): ResolvedList;

// --- Test cases of a definition test folder (definition.yaml + tests/*.yaml) -------------------

/** One comparison of a case: an expected value against what the definition gave. */
export interface CaseExpectation {
  /** Where it is written in the case, as a dotted path: `expect.components[0].gpus`. */
  path: string;
  /** What was compared, in the view's terms: `component jobset/replicatedjob[workers]: gpus`. */
  label: string;
  passed: boolean;
  expected: JsonValue;
  /** What the definition gave; null when there is nothing there. */
  actual: JsonValue;
  /** More about a failure (the diagnostics' messages, the paths the tree has). */
  note?: string;
  /** The expected value's place in the case text (1-based, UTF-16 columns); for a default
   * that is not written (an action case's `diagnostics`), its closest written parent. */
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
}

/** The result of running one test case. */
export interface CaseResult {
  description: string | null;
  /** `view`: the object resolved and the view compared; `suspend`/`resume`: the action's patch compared. */
  kind: 'view' | 'suspend' | 'resume';
  /** True when the case was read without errors and every expectation passed. */
  passed: boolean;
  /** Every comparison, in the order the case writes them. */
  expectations: CaseExpectation[];
  /** Problems in the case itself (source `case`); an error means it is malformed and was not run. */
  diagnostics: Diagnostic[];
}

/** Options of `runCase`. */
export interface RunCaseOptions {
  /** The other case files of the folder by file name, for a case that takes its object from one (`objectFrom`). */
  files?: { [name: string]: string };
}

export interface Definition {
  /** Runs one test case (YAML/JSON text in the catalog's case format) with this definition. */
  runCase(caseText: string, options?: RunCaseOptions): CaseResult;
}

/** Runs one test case (YAML/JSON text in the catalog's case format) with a definition. */
export function runCase(definition: Definition | ObjectInput, caseText: string, options?: RunCaseOptions): CaseResult;

// --- checking a definition against the API it describes -------------------------------------

/** A schema text given to `checkDefinition`, with the name findings and `checked` use for it. */
export interface SchemaText {
  /** A file name, say; `schema N` when not given. */
  name?: string;
  /** A CustomResourceDefinition (or a bundle or List of them) or a Kubernetes OpenAPI v3 document, YAML or JSON. */
  text: string;
}

/** One schema a definition was checked against. */
export interface CheckedSchema {
  /** How findings name it: the version, with the schema's name when several were given. */
  label: string;
  group: string;
  version: string;
  kind: string;
  /** The name of the schema text it came from. */
  source: string;
}

/** A place in the definition text (1-based, UTF-16 columns). */
export interface TextPlace {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** A field the definition reads that exists in some of the checked schemas only. */
export interface PathPresence extends Partial<TextPlace> {
  /** The field, e.g. `.spec.replicatedJobs[].template`. */
  field: string;
  /** The definition field whose expression reads it. */
  definitionPath: string;
  /** Labels of the schemas that have it. */
  present: string[];
  /** Labels of the schemas that do not. */
  missing: string[];
}

/** One field a path of the definition reads, where it is written, and what the schema has there. */
export interface FieldRead extends TextPlace {
  field: string;
  /** What the (first checked) schema has there: `an integer`, `a pod template`, `a map`, ...; absent when it does not have the field. */
  type?: string;
  /** The schema names the field (not only allows any field there, as under `x-kubernetes-preserve-unknown-fields`). */
  declared: boolean;
}

/** The result of `checkDefinition`. */
export interface SchemaCheck {
  /** No error: every path the definition reads or writes exists and leads to the right kind of value. */
  valid: boolean;
  /** The schemas of the definition's type it was checked against (by group, kind and version). */
  checked: CheckedSchema[];
  /** The Pod schema the pod-side paths (selectors, gang keys) were checked against, when one was given. */
  podSchema?: CheckedSchema;
  /** `schema/...` findings located in the definition, and problems reading the schemas (source `schema`). */
  diagnostics: Diagnostic[];
  /** With several schemas (versions, operator releases): the fields that exist in some only. */
  paths: PathPresence[];
  /** Every field the definition's paths read from the object. */
  reads: FieldRead[];
}

/** Options of `checkDefinition`. */
export interface CheckOptions {
  /** Check against every version of the type the schemas hold, not only the definition's own. */
  allVersions?: boolean;
}

/**
 * Checks a definition's paths and expressions against the API schemas of its type: fields that
 * do not exist (with a did-you-mean), paths to the wrong kind of value, enum values. The schemas
 * are read once per distinct set of texts, so checking many definitions against the same texts
 * reads them once.
 */
export function checkDefinition(
  definitionText: string,
  schemas: string | Array<string | SchemaText>,
  options?: CheckOptions,
): SchemaCheck;

/** Options of `draftFromSchema`. */
export interface DraftFromSchemaOptions {
  /** The kind to draft, when the schemas describe several types. */
  kind?: string;
  /** Its API group (`""` for the core group), when several groups have the kind. */
  group?: string;
  /** The version; by default the storage version (else the first served one). */
  version?: string;
  /** An object of the type: its values are laid over the schema's sample (what it shows wins). */
  object?: ObjectInput;
}

/** The result of `draftFromSchema`. */
export interface SchemaDraft {
  /** The commented starting definition; empty when nothing could be drafted (see `diagnostics`). */
  text: string;
  /** The type and version it was drafted from. */
  drafted?: CheckedSchema;
  /** Source `schema`: why nothing was drafted, or a schema that could not be read; source `definition`: problems of the draft, placed in `text`. */
  diagnostics: Diagnostic[];
}

/**
 * Drafts a starting definition from API schemas alone (the texts `checkDefinition` takes):
 * every pod template becomes a component, lists and maps of them instances (ids from `name` or
 * the map key), integer replica fields beside a template its replica paths, documented
 * condition types condition matchers, a `spec.suspend` boolean suspend and resume actions.
 */
export function draftFromSchema(schemas: string | Array<string | SchemaText>, options?: DraftFromSchemaOptions): SchemaDraft;

/** Options of `schemaFields`. */
export interface SchemaFieldsOptions {
  /** The kind, when the schemas describe several types. */
  kind?: string;
  /** Its API group (`""` for the core group), when several groups have the kind. */
  group?: string;
  /** The version; by default the storage version (else the first served one). */
  version?: string;
  /** A simple path from the object's root: `.spec.groups[].template`, `.a["b.c"]`, `.a[0]` (`[]?` too); the root by default. */
  path?: string;
}

/** One field a schema names below a path. */
export interface SchemaField {
  name: string;
  /** What it holds, as findings say it: `an integer`, `a pod template`, `a map`, ... */
  type: string;
  /** The first line of its description. */
  description?: string;
}

/** The result of `schemaFields`. */
export interface SchemaFields {
  /** The type and version looked in; absent when none could be picked (see `diagnostics`). */
  schema?: CheckedSchema;
  /** The path exists: every step is a field the schema names, or lies under an open object. */
  found: boolean;
  /** What the path holds; absent when not found or under an open object. */
  type?: string;
  /** The first line of the path's description. */
  description?: string;
  /** Any field may appear here (`x-kubernetes-preserve-unknown-fields`, a free-form object). */
  open: boolean;
  /** A map: any key leads to its values. */
  map: boolean;
  /** A list or a map: `[]` steps into its items. */
  list: boolean;
  /** The fields the schema names here, sorted by name. */
  fields: SchemaField[];
  /** Why no type was picked, and problems reading the schemas (source `schema`). */
  diagnostics: Diagnostic[];
}

/**
 * The fields an API schema (the texts `checkDefinition` takes) has at a path of a type, each
 * with its type and description: what an editor completes after `.spec.` and shows on hover.
 * Throws a TypeError when `path` is not a simple path.
 */
export function schemaFields(schemas: string | Array<string | SchemaText>, options?: SchemaFieldsOptions): SchemaFields;

// Only what is marked `export` above is exported (the helper types stay private).
export {};

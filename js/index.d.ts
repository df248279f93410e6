// Types of the workload-map package. Hand-written to mirror the Rust boundary (src/view.rs,
// src/diagnostic.rs, src/wasm.rs); tests/node/types.test.mjs pins them by type-checking real
// results against them with `tsc --strict`, so a field added or renamed on one side fails there.

/** How bad a problem is. */
export type Severity = 'info' | 'warning' | 'error';

/** One problem in what the user wrote. Positions are 1-based, columns in UTF-16 code units. */
export interface Diagnostic {
  /** Stable code, e.g. `definition/unknown-field`; never renamed. */
  code: string;
  severity: Severity;
  message: string;
  /** Dotted document path (`spec.structureDefinition.rootComponent.kind`) or component path; may be empty. */
  path: string;
  /** Which text the position refers to: the definition or the object (manifest). */
  source: 'definition' | 'object';
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

/** Resource amounts. */
export interface Resources {
  /** `nvidia.com/gpu` + `amd.com/gpu`. */
  gpus: number;
  cpuMillis: number;
  memoryBytes: number;
  /** Every other extended resource (and each GPU resource by its own name), in whole units. */
  extended: Record<string, number>;
  /** Present and true when some amount cannot be known from the spec (e.g. `resourceClaims`). */
  incomplete?: boolean;
}

/** Replica counts. */
export interface Replicas {
  /** Desired replicas: replicas, else minReplicas, else 1. */
  desired: number;
  replicas?: number;
  min?: number;
  max?: number;
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
  instances: Instance[];
}

/** One instance of a component. */
export interface Instance {
  /** Null for a single-instance component. */
  id: string | null;
  replicas: Replicas;
  podResources: Resources | null;
  resources: Resources;
  children: Component[];
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
  status: StatusView;
  /** Totals for the whole workload. */
  resources: Resources;
  root: Component | null;
  diagnostics: Diagnostic[];
}

/** A JSON value (what a parsed manifest or definition is made of). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A plain object, e.g. a manifest read with another YAML/JSON library. */
export type JsonObject = { [key: string]: JsonValue };

/** A compiled definition: parse, validate and compile once, resolve many objects. */
export class Definition {
  /** Compiles YAML/JSON text or a plain object. Never throws on bad content (see `diagnostics`). */
  constructor(source: string | JsonObject);
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
  /** Resolves one object given as YAML/JSON text (one document) or a plain object. */
  resolve(object: string | JsonObject): WorkloadView;
  /** Frees the wasm memory now instead of when the object is garbage-collected. */
  free(): void;
}

/** The result of `validate`. */
export interface Validation {
  valid: boolean;
  diagnostics: Diagnostic[];
}

/** Checks a definition text. */
export function validate(definitionText: string): Validation;

/** Resolves one object with a definition (compiled, text or plain object). */
export function resolve(definition: Definition | string | JsonObject, object: string | JsonObject): WorkloadView;

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
  /** The amount as a number (`"500m"` is 0.5). */
  value: number;
  /** The amount in thousandths, rounded up as Kubernetes does (`"0.5"` is 500). */
  milliValue: number;
  /** The canonical spelling, as Kubernetes prints it (`"1000m"` is `"1"`). */
  canonical: string;
  /** A short reading for people (`"1536Mi"` is `"1.5Gi"`); rounded, not for arithmetic. */
  human: string;
}

/** Parses a Kubernetes quantity; throws a RangeError when the text is not one. */
export function parseQuantity(text: string): Quantity;

/** CPU millicores for display, as Kubernetes writes quantities: `20`, `1.5`, `500m`. */
export function formatCpu(millis: number): string;

/** Bytes for display: binary units when exact (`16Gi`), else decimal (`70M`), else rounded (`1.5Gi`). */
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
 * Loads the WebAssembly module; required once in browsers and bundlers before any other call,
 * a no-op in Node. Idempotent. Accepts the `.wasm` as a URL, Response, bytes or compiled Module
 * (by default the file next to the module is fetched).
 */
export function init(
  input?: string | URL | Request | Response | Promise<Response> | BufferSource | WebAssembly.Module,
): Promise<void>;

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
export function draft(object: string | JsonObject): Draft;

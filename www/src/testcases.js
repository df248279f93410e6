// "Save as test case" and "Export folder": the current manifest and the view it gives become a
// case in the catalog's format (tests/README.md, "The case format"), and the cases with their
// definition become a folder that `workload-map test` runs like a catalog entry:
//
//   definition.yaml
//   tests/<name>.yaml      {description, object, related?, expect}
//
// The expectations are what the view shows: the phases, the raw status phase, the workload's
// resource totals, every component's desired replicas, GPUs and instance ids (and the live pod
// counts when pods were given), the pods summary and the diagnostic codes (warning and above).
// The YAML is written here (block style, quoting every string that YAML could read otherwise),
// so the page carries no YAML library.

import { zip } from './zip.js';

/** A case name as a file name: lower-case words joined by `-`. */
export function caseFileName(name) {
  const slug = String(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || 'case';
}

/** `base`, or `base-2`, `base-3`, ... : the first that no case in `taken` has. */
export function uniqueName(base, taken) {
  const names = new Set(taken);
  if (!names.has(base)) return base;
  for (let n = 2; ; n++) if (!names.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Components addressed by the case format's paths: names from the root joined by `/`, an instance as `name[id]`. */
function addressable(text) {
  return typeof text === 'string' && text !== '' && !/[/[\]]/.test(text);
}

/** The `expect:` block for a view (see the file comment for what it holds). */
export function expectationsOf(view) {
  const expect = { phases: [...view.phases] };
  if (view.status?.phase !== null && view.status?.phase !== undefined) expect.statusPhase = view.status.phase;
  expect.resources = totals(view.resources);
  const components = [];
  if (view.root && addressable(view.root.name)) visit(view.root, view.root.name, components);
  if (components.length > 0) expect.components = components;
  if (view.pods) expect.pods = { total: view.pods.total, attributed: view.pods.attributed, unattributed: [...view.pods.unattributed] };
  expect.diagnostics = (view.diagnostics ?? []).filter((d) => d.severity === 'warning' || d.severity === 'error').map((d) => d.code);
  return expect;
}

function totals(resources) {
  const out = { gpus: resources.gpus, cpuMillis: resources.cpuMillis, memoryBytes: resources.memoryBytes };
  if (resources.incomplete) {
    out.incomplete = true;
    out.lowerBounds = [...(resources.lowerBounds ?? [])];
  }
  return out;
}

/** One entry per component (and per instance of a component with several), root first. */
function visit(component, path, out) {
  const entry = { path, desired: component.replicas.desired, gpus: component.resources.gpus };
  if (component.replicas.incomplete) entry.desiredIncomplete = true;
  if (component.resources.incomplete) entry.incomplete = true;
  const ids = component.instances.map((instance) => instance.id);
  if (ids.some((id) => id !== null)) entry.instances = ids;
  livePods(entry, component.pods);
  out.push(entry);
  if (component.instances.length === 1) {
    // A component with one instance is stepped through by its name alone.
    for (const child of component.instances[0].children) if (addressable(child.name)) visit(child, `${path}/${child.name}`, out);
    return;
  }
  const seen = new Set();
  for (const instance of component.instances) {
    if (!addressable(instance.id) || seen.has(instance.id)) continue;
    seen.add(instance.id);
    const at = `${path}[${instance.id}]`;
    const item = { path: at, desired: instance.replicas.desired, gpus: instance.resources.gpus };
    if (instance.replicas.incomplete) item.desiredIncomplete = true;
    if (instance.resources.incomplete) item.incomplete = true;
    livePods(item, instance.pods);
    out.push(item);
    for (const child of instance.children) if (addressable(child.name)) visit(child, `${at}/${child.name}`, out);
  }
}

function livePods(entry, pods) {
  if (!pods) return;
  entry.current = pods.current;
  entry.ready = pods.ready;
}

/**
 * A case from what the page shows: the workload object, its related objects (pods and owners,
 * or none) and the view they gave.
 *
 * @returns {{name: string, description: string, text: string, phases: string[], gpus: number}}
 */
export function caseFromView({ name, description, object, related, view }) {
  const expect = expectationsOf(view);
  const file = { description: description || describe(view), object };
  if (related && related.length > 0) file.related = related;
  file.expect = expect;
  const text = `# Saved in the workload-map playground: the expectations are the view it showed.\n${toYaml(file)}`;
  return { name: caseFileName(name), description: file.description, text, phases: expect.phases, gpus: view.resources.gpus };
}

function describe(view) {
  const gpus = view.resources.incomplete && view.resources.lowerBounds?.includes('gpus') ? `at least ${view.resources.gpus}` : String(view.resources.gpus);
  return `${view.kind} ${view.name}: ${view.phases.join(', ')}, ${gpus} GPUs`;
}

/**
 * The folder as files: `definition.yaml` and `tests/<name>.yaml` for each case.
 *
 * @param {string} definition the definition text
 * @param {{name: string, text: string}[]} cases
 */
export function folderFiles(definition, cases) {
  return [{ name: 'definition.yaml', data: definition }, ...cases.map((c) => ({ name: `tests/${c.name}.yaml`, data: c.text }))];
}

/** The folder as a zip archive (stored entries). */
export function folderZip(definition, cases, modified) {
  return zip(folderFiles(definition, cases), modified);
}

// --- YAML -----------------------------------------------------------------------------------

/** Words YAML 1.1 or 1.2 readers take as booleans or null. */
const RESERVED = /^(?:true|false|yes|no|y|n|on|off|null|~)$/i;
/** Plain scalars we write unquoted: no leading indicator, no `: ` or ` #`, no number look-alike. */
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./@-]*(?: [A-Za-z0-9_./@()-]+)*$/;

function scalar(value) {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  const text = String(value);
  // JSON's double-quoted strings are YAML double-quoted scalars (same escapes).
  if (!PLAIN.test(text) || RESERVED.test(text)) return JSON.stringify(text);
  return text;
}

const isScalar = (value) => value === null || typeof value !== 'object';

/** Block-style YAML for a JSON value, ending with a newline. */
export function toYaml(value) {
  return `${lines(value, 0).join('\n')}\n`;
}

function lines(value, indent) {
  const pad = ' '.repeat(indent);
  if (isScalar(value)) return [pad + scalar(value)];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${pad}[]`];
    if (value.every(isScalar)) {
      const flow = `[${value.map(scalar).join(', ')}]`;
      if (indent + flow.length <= 100) return [pad + flow];
    }
    const out = [];
    for (const item of value) {
      const block = lines(item, indent + 2);
      // The first line of the item goes after the dash; the rest keeps its indentation.
      out.push(`${pad}- ${block[0].slice(indent + 2)}`, ...block.slice(1));
    }
    return out;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return [`${pad}{}`];
  const out = [];
  for (const [key, item] of entries) {
    const name = scalar(key);
    if (isScalar(item) || (Array.isArray(item) && (item.length === 0 || item.every(isScalar))) || Object.keys(item).length === 0) {
      const block = lines(item, indent + 2);
      if (block.length === 1) {
        out.push(`${pad}${name}: ${block[0].trimStart()}`);
        continue;
      }
    }
    out.push(`${pad}${name}:`, ...lines(item, Array.isArray(item) ? indent : indent + 2));
  }
  return out;
}

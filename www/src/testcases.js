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
// The YAML is the CLI's (bin/yaml.mjs: the `yaml` package, block style, every string a YAML 1.1
// reader could take for something else quoted), the project's one YAML writer.

import { toYaml as cliYaml } from '../../bin/yaml.mjs';
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
 * @param {{name: string, description?: string, object: object, related?: object[], view: any}} shown
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

/** Block-style YAML for a JSON value, ending with a newline (the CLI's writer: the `yaml` package). */
export function toYaml(value) {
  return `${cliYaml(value)}\n`;
}

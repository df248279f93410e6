// Which definitions are in force and which types the exporter watches.
//
// Definitions come from the catalog, overridden per root type (group, version, kind) by Karta
// custom resources in the cluster (upstream-semantics §4): a Karta replaces the catalog's
// definition of its type; two Kartas for one type are ambiguous, and that type then has none.
// The watched types are every definition's root type (the covered types), the kinds its
// components name (the objects between a workload and its pods: a JobSet's Jobs, a
// LeaderWorkerSet's StatefulSets), apps/v1 ReplicaSets (between a Deployment and its pods,
// which no definition names) and pods. The core decides which of the objects are workloads and
// which pods belong to each; this file only says what to list.

import { parse } from 'yaml';

export const KARTA = { group: 'run.ai', version: 'v1alpha1', kind: 'Karta', plural: 'kartas' };
export const POD = { group: '', version: 'v1', kind: 'Pod', plural: 'pods' };
/** The owner between a Deployment and its pods, which no definition names. */
export const REPLICA_SET = { group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets' };

/** `group/version/Kind`, the key of a type. */
export function typeKey({ group, version, kind }) {
  return `${group}/${version}/${kind}`;
}

/** `apiVersion` of a type. */
export function apiVersionOf({ group, version }) {
  return group ? `${group}/${version}` : version;
}

/**
 * The resource name (plural) Kubernetes' tools give a kind by default: lower case, `-es` after
 * s, x, z, ch and sh, `-ies` for a consonant and y, else `-s`. The exporter itself reads plurals
 * from discovery; the shipped ClusterRole (scripts/exporter-rbac.mjs) is written with these,
 * and a test compares them with the CRDs' own names.
 */
export function pluralOf(kind) {
  const lower = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

function isGvk(value) {
  return value && typeof value === 'object' && typeof value.kind === 'string' && typeof value.version === 'string' && typeof value.group === 'string';
}

/** The kinds a definition's components name (root and children), read from its text. */
export function componentKinds(text) {
  let document;
  try {
    document = parse(text);
  } catch {
    return [];
  }
  const structure = document?.spec?.structureDefinition;
  const kinds = [];
  const add = (component) => {
    if (component && typeof component === 'object' && isGvk(component.kind)) kinds.push(component.kind);
  };
  add(structure?.rootComponent);
  if (Array.isArray(structure?.childComponents)) structure.childComponents.forEach(add);
  return kinds.map(({ group, version, kind }) => ({ group, version, kind }));
}

/**
 * The definitions in force: `[{ name, origin: 'catalog' | 'cluster', gvk, text }]`, the catalog's
 * with the cluster's Kartas laid over them per root type, and `problems` (ambiguous or
 * unreadable Kartas). `kartas` are Karta objects as the API server returns them; the engine
 * (`api.Definition`) reads each one's root type.
 */
export function definitionsInForce(api, kartas) {
  const problems = [];
  const catalog = api.catalog.list().map((entry) => {
    const [group, version] = entry.apiVersion.includes('/') ? entry.apiVersion.split('/') : ['', entry.apiVersion];
    return { name: entry.name, origin: 'catalog', gvk: { group, version, kind: entry.kind }, text: api.catalog.get(entry.name).text };
  });
  const byType = new Map();
  for (const karta of [...kartas].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))) {
    const name = karta.metadata?.name ?? '';
    const text = JSON.stringify({ apiVersion: `${KARTA.group}/${KARTA.version}`, kind: KARTA.kind, metadata: { name }, spec: karta.spec ?? {} });
    const definition = new api.Definition(text);
    const gvk = definition.gvk;
    definition.free();
    if (!gvk) {
      problems.push(`Karta ${name} names no root type (spec.structureDefinition.rootComponent.kind): left out`);
      continue;
    }
    const key = typeKey(gvk);
    if (!byType.has(key)) byType.set(key, []);
    byType.get(key).push({ name, origin: 'cluster', gvk: { group: gvk.group, version: gvk.version, kind: gvk.kind }, text });
  }
  const result = [];
  const ambiguous = new Set();
  for (const [key, list] of byType) {
    if (list.length > 1) {
      ambiguous.add(key);
      problems.push(`${list.length} Karta definitions claim ${key} (${list.map((d) => d.name).join(', ')}); remove one from the cluster: the type is left out`);
    } else result.push(list[0]);
  }
  for (const entry of catalog) {
    const key = typeKey(entry.gvk);
    if (!byType.has(key)) result.push(entry);
  }
  return { definitions: result.sort((a, b) => a.name.localeCompare(b.name)), problems, ambiguous };
}

/**
 * The types to watch for `definitions`: `[{ group, version, kind, covered }]` (`covered`: a
 * definition's root type), without duplicates, pods and ReplicaSets included, sorted.
 */
export function watchedTypes(definitions) {
  const types = new Map();
  const add = (gvk, covered) => {
    const key = typeKey(gvk);
    const known = types.get(key);
    if (known) known.covered ||= covered;
    else types.set(key, { group: gvk.group, version: gvk.version, kind: gvk.kind, covered });
  };
  for (const definition of definitions) {
    add(definition.gvk, true);
    for (const kind of componentKinds(definition.text)) add(kind, false);
  }
  add(POD, types.get(typeKey(POD))?.covered ?? false);
  add(REPLICA_SET, false);
  return [...types.values()].sort((a, b) => typeKey(a).localeCompare(typeKey(b)));
}

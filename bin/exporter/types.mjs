// Which types the exporter watches, for the definitions in force (which those are, the catalog
// overridden per root type by the cluster's Kartas, is bin/kube/definitions.mjs's rule).
//
// The watched types are every definition's root type (the covered types), the kinds its
// components name (the objects between a workload and its pods: a JobSet's Jobs, a
// LeaderWorkerSet's StatefulSets), apps/v1 ReplicaSets (between a Deployment and its pods,
// which no definition names) and pods. The core decides which of the objects are workloads and
// which pods belong to each; this file only says what to list.

import { parse } from 'yaml';

import { KARTA_RESOURCE } from '../kube/definitions.mjs';

export const KARTA = { group: KARTA_RESOURCE.group, version: KARTA_RESOURCE.version, kind: KARTA_RESOURCE.kind, plural: KARTA_RESOURCE.resource };
export const POD = { group: '', version: 'v1', kind: 'Pod', plural: 'pods' };
/** The owner between a Deployment and its pods, which no definition names. */
export const REPLICA_SET = { group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets' };

/** `group/version/Kind`, the key of a type. */
export function typeKey({ group, version, kind }) {
  return `${group}/${version}/${kind}`;
}

/**
 * Kubernetes' order of API versions (the API server's, which makes the first of a CRD's versions
 * its preferred one): GA before beta before alpha, a higher major first, then a higher minor;
 * anything else after them, in text order. A negative number when `a` comes first.
 */
export function compareVersions(a, b) {
  const rank = (v) => {
    const m = /^v(\d+)(?:(beta|alpha)(\d+))?$/.exec(v);
    if (!m) return [3, 0, 0];
    return [m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2, -Number(m[1]), -Number(m[3] ?? 0)];
  };
  const [x, y] = [rank(a), rank(b)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * One type per group and kind among `types` (`{ group, version, kind }` and more): the one at
 * the version the API server prefers among them (compareVersions). A resource served at two
 * versions holds the same objects at both (the same uids): watching both would read every
 * object twice, each time at another version and with another definition.
 *
 * @template {{ group: string, version: string, kind: string }} T
 * @param {T[]} types
 * @returns {T[]}
 */
export function oneVersionEach(types) {
  const best = new Map();
  for (const type of types) {
    const key = `${type.group}/${type.kind}`;
    const known = best.get(key);
    if (!known || compareVersions(type.version, known.version) < 0) best.set(key, type);
  }
  return types.filter((type) => best.get(`${type.group}/${type.kind}`) === type);
}

/** `apiVersion` of a type. */
export function apiVersionOf({ group, version }) {
  return group ? `${group}/${version}` : version;
}

/** The type `{ group, version, kind }` of an apiVersion and kind. */
export function typeOf(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return { group, version, kind };
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
 * The types to watch for `definitions` (bin/kube/definitions.mjs `effectiveDefinitions`'
 * `entries`: `{ apiVersion, kind, text }`): `[{ group, version, kind, covered }]` (`covered`: a
 * definition's root type), without duplicates, pods and ReplicaSets included, sorted.
 *
 * @param {{ apiVersion: string, kind: string, text: string }[]} definitions
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
    add(typeOf(definition.apiVersion, definition.kind), true);
    for (const kind of componentKinds(definition.text)) add(kind, false);
  }
  add(POD, types.get(typeKey(POD))?.covered ?? false);
  add(REPLICA_SET, false);
  return [...types.values()].sort((a, b) => typeKey(a).localeCompare(typeKey(b)));
}

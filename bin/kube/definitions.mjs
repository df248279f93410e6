// The definitions a cluster reads its workloads with (§4 of the upstream digest): the embedded
// catalog, overridden per root apiVersion/kind by the Karta custom resources of the cluster
// (run.ai/v1alpha1 kartas, cluster-scoped). Two Kartas claiming the same type are ambiguous:
// neither is used and the type is reported. A Karta that names no root type is left out and
// named. Without the Karta API in the cluster (no CRD), the catalog alone. The CLI and the
// exporter both take the definitions in force from here.

import { KubeError } from './errors.mjs';

/** The Karta resource (crd/kartas.run.ai.yaml). */
export const KARTA_RESOURCE = {
  group: 'run.ai',
  version: 'v1alpha1',
  apiVersion: 'run.ai/v1alpha1',
  resource: 'kartas',
  kind: 'Karta',
  namespaced: false,
  singular: 'karta',
  shortNames: ['krt'],
  verbs: ['get', 'list', 'watch'],
  preferred: true,
};

/** `group/version` of a Karta's root kind, with its kind: `{ apiVersion, kind }`, or null. */
export function kartaType(karta) {
  const gvk = karta?.spec?.structureDefinition?.rootComponent?.kind;
  if (!gvk || typeof gvk.kind !== 'string' || typeof gvk.version !== 'string') return null;
  return { apiVersion: gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version, kind: gvk.kind };
}

/** A Karta as a definition text: what the user wrote (no server fields). */
export function kartaText(karta) {
  return JSON.stringify({
    apiVersion: karta.apiVersion ?? KARTA_RESOURCE.apiVersion,
    kind: 'Karta',
    metadata: { name: karta.metadata?.name },
    spec: karta.spec,
  });
}

/**
 * The effective definitions, from the catalog's entries and the cluster's Kartas.
 *
 * Returns `{ texts, origins, entries, conflicts, unreadable }`: `texts` are the cluster definitions to give
 * `resolveAll` with `catalog: true` (each replaces the catalog's for its type; `origins[i]` is
 * `{ label: 'cluster', name }` for `texts[i]`); `entries` lists every effective definition
 * (`{ name, apiVersion, kind, origin: 'catalog' | 'cluster', replaces?, text }`, sorted by name);
 * `conflicts` maps `apiVersion/kind` to the names of the Kartas that claim it together;
 * `unreadable` names the Kartas that name no root type (`spec.structureDefinition.rootComponent.kind`).
 *
 * @param {{ catalog: { list(): { name: string, apiVersion: string, kind: string }[], get(name: string): { text: string } | undefined } }} api
 * @param {any[]} kartas the Karta objects (`readKartas`)
 */
export function effectiveDefinitions(api, kartas) {
  const byType = new Map();
  const unreadable = [];
  for (const karta of kartas) {
    const type = kartaType(karta);
    if (!type) {
      unreadable.push(karta?.metadata?.name ?? '');
      continue;
    }
    const key = `${type.apiVersion}/${type.kind}`;
    byType.set(key, [...(byType.get(key) ?? []), karta]);
  }
  const conflicts = new Map();
  const texts = [];
  const origins = [];
  const entries = [];
  const catalogEntries = api.catalog.list();
  for (const [key, claimed] of byType) {
    if (claimed.length > 1) {
      conflicts.set(key, claimed.map((k) => k.metadata?.name).sort());
      continue;
    }
    const [karta] = claimed;
    const type = /** @type {{ apiVersion: string, kind: string }} */ (kartaType(karta));
    const text = kartaText(karta);
    texts.push(text);
    origins.push({ label: 'cluster', name: karta.metadata?.name });
    const replaced = catalogEntries.find((e) => e.apiVersion === type.apiVersion && e.kind === type.kind);
    entries.push({ name: karta.metadata?.name, apiVersion: type.apiVersion, kind: type.kind, origin: 'cluster', replaces: replaced?.name, text });
  }
  for (const entry of catalogEntries) {
    const key = `${entry.apiVersion}/${entry.kind}`;
    if (byType.has(key)) continue;
    entries.push({ name: entry.name, apiVersion: entry.apiVersion, kind: entry.kind, origin: 'catalog', text: api.catalog.get(entry.name)?.text ?? '' });
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { texts, origins, entries, conflicts, unreadable: unreadable.sort() };
}

/**
 * The Karta custom resources of the cluster (`[]` when the cluster does not serve the Karta API,
 * or the credentials may not list it: the catalog is then the only source, as upstream's
 * best effort).
 *
 * @param {import('./client.mjs').KubeClient} client
 * @param {import('./discovery.mjs').Discovery} discovery
 * @param {{ chunkSize?: number }} [options]
 */
export async function readKartas(client, discovery, { chunkSize } = {}) {
  if (!discovery.serves(KARTA_RESOURCE.apiVersion, KARTA_RESOURCE.kind)) return [];
  try {
    return (await client.list(`/apis/${KARTA_RESOURCE.group}/${KARTA_RESOURCE.version}/${KARTA_RESOURCE.resource}`, { chunkSize })).items;
  } catch (error) {
    if (error instanceof KubeError && (error.reason === 'forbidden' || error.reason === 'not-found')) return [];
    throw error;
  }
}

// The definitions a cluster reads its workloads with (§4 of the upstream digest): the embedded
// catalog, overridden per root apiVersion/kind by the Karta custom resources of the cluster
// (run.ai/v1alpha1 kartas, cluster-scoped). Two Kartas claiming the same type are ambiguous:
// neither is used, the type keeps the catalog's definition, and the conflict is reported. A
// Karta that names no root type is left out and named. Every Karta is checked by the core
// (`validate`), its problems located by the Karta's name and the field path (its text is our
// re-serialisation, whose lines nobody wrote), and compared with what kubectl recorded as
// applied (`kubectl.kubernetes.io/last-applied-configuration`): the fields the API server
// pruned are named. Without the Karta API in the cluster (no CRD), the catalog alone. The CLI
// and the exporter both take the definitions in force, and what is wrong with them, from here.

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

/** What kubectl records as applied (client-side `kubectl apply`). */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The paths of what `applied` holds and `stored` does not (dotted, `[i]` for list items, as the
 * core's diagnostics name fields): what the API server dropped. A null applied is no field.
 */
export function droppedFields(applied, stored, path = '') {
  const dropped = [];
  if (Array.isArray(applied) && Array.isArray(stored)) {
    for (let i = 0; i < Math.min(applied.length, stored.length); i += 1) dropped.push(...droppedFields(applied[i], stored[i], `${path}[${i}]`));
  } else if (isObject(applied) && isObject(stored)) {
    for (const [key, value] of Object.entries(applied)) {
      const at = path ? `${path}.${key}` : key;
      if (value === null) continue;
      if (!Object.hasOwn(stored, key)) dropped.push(at);
      else dropped.push(...droppedFields(value, stored[key], at));
    }
  }
  return dropped;
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A core diagnostic without its position (which points into our re-serialisation). */
function unlocated({ code, severity, message, path, help }) {
  return { code, severity, message, path, ...(help ? { help } : {}) };
}

/**
 * What is wrong with a Karta: the core's diagnostics of its text (errors and warnings; notes
 * left out), then a warning per field the API server dropped from what `kubectl apply`
 * recorded: a field of the applied spec that the core does not know (the Karta CRD knows
 * the same fields, so it pruned it) and the stored spec lacks, with the core's hint for it
 * (a did-you-mean). A field the core knows that is missing was removed since, not dropped. No
 * positions: a problem is located by its `path`.
 *
 * @param {{ validate(text: string): { diagnostics: any[] } }} api the package
 * @param {any} karta
 */
export function kartaProblems(api, karta) {
  const found = api
    .validate(kartaText(karta))
    .diagnostics.filter((d) => d.severity !== 'info')
    .map(unlocated);
  const recorded = karta?.metadata?.annotations?.[LAST_APPLIED];
  if (typeof recorded !== 'string') return found;
  let applied;
  try {
    applied = JSON.parse(recorded);
  } catch {
    return found;
  }
  if (!isObject(applied?.spec)) return found;
  const dropped = new Set(droppedFields({ spec: applied.spec }, { spec: karta.spec ?? {} }));
  if (dropped.size === 0) return found;
  const unknown = api
    .validate(kartaText({ ...karta, spec: applied.spec }))
    .diagnostics.filter((d) => d.code === 'definition/unknown-field' && dropped.has(d.path));
  for (const d of unknown) {
    found.push({
      code: d.code,
      severity: 'warning',
      message: `the API server dropped ${d.path}: it is in what kubectl applied (${LAST_APPLIED}) but the Karta CRD has no such field, so the stored Karta does not have it`,
      path: d.path,
      help: d.help ?? 'check the spelling against catalog/definition.schema.json, and apply with field validation on (without --validate=false)',
    });
  }
  return found;
}

/**
 * The effective definitions, from the catalog's entries and the cluster's Kartas.
 *
 * Returns `{ texts, origins, entries, conflicts, unreadable, kartas }`: `texts` are the cluster
 * definitions to give `resolveAll` with `catalog: true` (each replaces the catalog's for its
 * type; `origins[i]` is `{ label: 'cluster', name, location: 'Karta/NAME' }` for `texts[i]`);
 * `entries` lists every effective definition (`{ name, apiVersion, kind, origin: 'catalog' |
 * 'cluster', replaces?, conflict?, valid?, text }`, sorted by name: a cluster entry says whether
 * the core finds it `valid`; a catalog entry whose type two Kartas claim names them in
 * `conflict`); `conflicts` maps `apiVersion/kind` to the names of the Kartas that claim it
 * together; `unreadable` names the Kartas that name no root type
 * (`spec.structureDefinition.rootComponent.kind`); `kartas` is every Karta, sorted by name:
 * `{ name, apiVersion?, kind?, state: 'in-force' | 'conflict' | 'no-root-kind', conflictsWith?,
 * readWith?, valid, errors, warnings, problems }` (`problems` from `kartaProblems`; `readWith`,
 * for a Karta in conflict, the catalog definition its type is read with instead, perhaps one
 * written for another version, as `resolveAll` falls back to it).
 *
 * @param {{ validate(text: string): { valid: boolean, diagnostics: any[] }, catalog: { list(): { name: string, apiVersion: string, kind: string }[], get(name: string): { text: string } | undefined, find(apiVersion: string, kind: string): { name: string } | undefined } }} api
 * @param {any[]} kartas the Karta objects (`readKartas`)
 */
export function effectiveDefinitions(api, kartas) {
  const byType = new Map();
  const unreadable = [];
  const reports = [];
  const report = (karta, type, state, more = {}) => {
    const problems = kartaProblems(api, karta);
    const count = (severity) => problems.filter((p) => p.severity === severity).length;
    const entry = {
      name: karta?.metadata?.name ?? '',
      ...(type ?? {}),
      state,
      ...more,
      valid: count('error') === 0,
      errors: count('error'),
      warnings: count('warning'),
      problems,
    };
    reports.push(entry);
    return entry;
  };
  for (const karta of kartas) {
    const type = kartaType(karta);
    if (!type) {
      unreadable.push(karta?.metadata?.name ?? '');
      report(karta, null, 'no-root-kind');
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
    const type = /** @type {{ apiVersion: string, kind: string }} */ (kartaType(claimed[0]));
    if (claimed.length > 1) {
      const names = claimed.map((k) => k.metadata?.name).sort();
      conflicts.set(key, names);
      const readWith = api.catalog.find(type.apiVersion, type.kind)?.name;
      for (const karta of claimed) report(karta, type, 'conflict', { conflictsWith: names.filter((n) => n !== karta.metadata?.name), readWith });
      continue;
    }
    const [karta] = claimed;
    const { valid } = report(karta, type, 'in-force');
    const text = kartaText(karta);
    const name = karta.metadata?.name;
    texts.push(text);
    origins.push({ label: 'cluster', name, location: `Karta/${name}` });
    const replaced = catalogEntries.find((e) => e.apiVersion === type.apiVersion && e.kind === type.kind);
    entries.push({ name, apiVersion: type.apiVersion, kind: type.kind, origin: 'cluster', replaces: replaced?.name, valid, text });
  }
  for (const entry of catalogEntries) {
    const key = `${entry.apiVersion}/${entry.kind}`;
    if (byType.has(key) && !conflicts.has(key)) continue;
    const conflict = conflicts.get(key);
    entries.push({
      name: entry.name,
      apiVersion: entry.apiVersion,
      kind: entry.kind,
      origin: 'catalog',
      ...(conflict ? { conflict } : {}),
      text: api.catalog.get(entry.name)?.text ?? '',
    });
  }
  const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  entries.sort(byName);
  return { texts, origins, entries, conflicts, unreadable: unreadable.sort(), kartas: reports.sort(byName) };
}

/**
 * What a front end says of a Karta that is broken: its missing root kind, or its errors and
 * warnings, as plain lines (the first the summary, then one per problem, indented,
 * `Karta/NAME: severity code: message (at PATH)`, and its help). Empty for a Karta without
 * errors or warnings, and for one in conflict (`conflictReport` says those once per type).
 *
 * @param {ReturnType<typeof effectiveDefinitions>['kartas'][number]} karta
 */
export function kartaReport(karta) {
  const where = `Karta/${karta.name}`;
  const lines = [];
  if (karta.state === 'conflict') return lines;
  if (karta.state === 'no-root-kind') {
    lines.push(`${where} names no root type (spec.structureDefinition.rootComponent.kind): it is not used`);
  } else if (karta.errors > 0 || karta.warnings > 0) {
    const counts = [karta.errors && plural(karta.errors, 'error'), karta.warnings && plural(karta.warnings, 'warning')].filter(Boolean).join(' and ');
    const state = karta.valid ? `has ${counts}` : `is invalid (${counts})`;
    lines.push(`${where}, the definition in force for ${karta.kind} (${karta.apiVersion}), ${state}: what it reads of its workloads may be wrong`);
  } else {
    return lines;
  }
  for (const p of karta.problems) {
    lines.push(`  ${where}: ${p.severity} ${p.code}: ${p.message}${p.path ? ` (at ${p.path})` : ''}`);
    if (p.help) lines.push(`    help: ${p.help}`);
  }
  return lines;
}

/**
 * What a front end says of a type two or more Kartas claim (`type`: `apiVersion/kind`, as
 * `conflicts` keys it), given the effective definitions: which Kartas, and what the type is
 * read with instead (the catalog's definition, or nothing).
 *
 * @param {ReturnType<typeof effectiveDefinitions>} effective
 * @param {string} type
 */
export function conflictReport(effective, type) {
  const names = effective.conflicts.get(type) ?? [];
  const slash = type.lastIndexOf('/');
  const [apiVersion, kind] = [type.slice(0, slash), type.slice(slash + 1)];
  const readWith = effective.kartas.find((k) => k.state === 'conflict' && k.apiVersion === apiVersion && k.kind === kind)?.readWith;
  const instead = readWith
    ? `its workloads are read with the catalog's definition ${readWith}`
    : 'no catalog definition covers it, so its workloads are not read';
  return `${names.length} Kartas claim ${kind} (${apiVersion}): ${names.map((n) => `Karta/${n}`).join(', ')}; ${names.length === 2 ? 'neither' : 'none'} is used and ${instead}: remove one from the cluster`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
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

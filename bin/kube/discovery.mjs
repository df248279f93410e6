// API discovery: which resources the server serves, and what a type token the user writes
// (`jobs`, `job`, `Job`, `pj`, `jobs.batch`, `jobs.v1.batch`, `Job.v1.batch`) means, as kubectl's
// REST mapper reads it. Aggregated discovery (one request for /api and one for /apis,
// Kubernetes 1.27+) when the server offers it, else one request per group version.

import { KubeError } from './errors.mjs';

const AGGREGATED =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

/**
 * One served resource.
 *
 * @typedef {{ group: string, version: string, apiVersion: string, resource: string, kind: string,
 *   namespaced: boolean, singular: string, shortNames: string[], verbs: string[], preferred: boolean }} ApiResource
 */

/** The URL path of a resource's collection, in `namespace` (or across all namespaces / cluster-scoped without). */
export function collectionPath(resource, namespace) {
  const base = resource.group ? `/apis/${resource.group}/${resource.version}` : `/api/${resource.version}`;
  return resource.namespaced && namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.resource}` : `${base}/${resource.resource}`;
}

/** The URL path of one object. */
export function objectPath(resource, namespace, name) {
  return `${collectionPath(resource, resource.namespaced ? namespace : undefined)}/${encodeURIComponent(name)}`;
}

export class Discovery {
  /** @param {ApiResource[]} resources */
  constructor(resources) {
    this.resources = resources;
  }

  /**
   * Reads what `client` serves.
   *
   * @param {import('./client.mjs').KubeClient} client
   */
  static async read(client) {
    const resources = [];
    for (const root of ['/api', '/apis']) {
      const answer = await client.json('GET', root, { headers: { Accept: AGGREGATED } });
      if (answer.kind === 'APIGroupDiscoveryList') {
        for (const group of answer.items ?? []) {
          const name = group.metadata?.name ?? '';
          (group.versions ?? []).forEach((version, i) => {
            for (const r of version.resources ?? []) {
              const kind = r.responseKind?.kind;
              if (!kind || !r.resource) continue;
              resources.push(entry(name, version.version, r.resource, kind, r.scope === 'Namespaced', r.singularResource, r.shortNames, r.verbs, i === 0));
            }
          });
        }
        continue;
      }
      // The server does not aggregate: one request per group version.
      const versions =
        answer.kind === 'APIVersions'
          ? (answer.versions ?? []).map((v, i) => ({ group: '', version: v, preferred: i === 0 }))
          : (answer.groups ?? []).flatMap((g) =>
              (g.versions ?? []).map((v) => ({ group: g.name, version: v.version, preferred: v.groupVersion === g.preferredVersion?.groupVersion })),
            );
      for (const { group, version, preferred } of versions) {
        const list = await client.get(group ? `/apis/${group}/${version}` : `/api/${version}`);
        for (const r of list.resources ?? []) {
          if (r.name.includes('/')) continue;
          resources.push(entry(group, version, r.name, r.kind, r.namespaced, r.singularName, r.shortNames, r.verbs, preferred));
        }
      }
    }
    return new Discovery(resources);
  }

  /** The resource serving `apiVersion`'s `kind`, or undefined. */
  forKind(apiVersion, kind) {
    return this.resources.find((r) => r.apiVersion === apiVersion && r.kind === kind);
  }

  /** Whether `apiVersion`/`kind` is served. */
  serves(apiVersion, kind) {
    return this.forKind(apiVersion, kind) !== undefined;
  }

  /**
   * The resource a type token names, kubectl's way: `NAME`, `NAME.GROUP` or `NAME.VERSION.GROUP`,
   * NAME being the plural, the singular, a short name or the kind (any case). An exact plural or
   * singular beats a short name, which beats a kind; the group's preferred version is taken
   * unless the token names one; ties go to the core group, then to discovery order. Throws a
   * KubeError `not-found` when nothing matches.
   *
   * @param {string} token
   * @returns {ApiResource}
   */
  resolve(token) {
    const lower = token.toLowerCase();
    const [name, ...rest] = lower.split('.');
    /** @type {{ version?: string, group: string }[]} */
    const scopes = [{ group: rest.join('.') }];
    if (rest.length >= 2) scopes.unshift({ version: rest[0], group: rest.slice(1).join('.') });
    for (const scope of scopes) {
      const inScope = this.resources.filter((r) => (rest.length === 0 || r.group === scope.group) && (!scope.version || r.version === scope.version));
      for (const matches of [(r) => r.resource === name || r.singular === name, (r) => r.shortNames.includes(name), (r) => r.kind.toLowerCase() === name]) {
        const found = inScope.filter(matches);
        if (found.length === 0) continue;
        const ordered = scope.version ? found : [...found.filter((r) => r.preferred), ...found.filter((r) => !r.preferred)];
        return ordered.find((r) => r.group === '') ?? ordered[0];
      }
    }
    throw new KubeError('not-found', `the server doesn't have a resource type "${token}"`);
  }
}

function entry(group, version, resource, kind, namespaced, singular, shortNames, verbs, preferred) {
  return {
    group,
    version,
    apiVersion: group ? `${group}/${version}` : version,
    resource,
    kind,
    namespaced: Boolean(namespaced),
    singular: singular || kind.toLowerCase(),
    shortNames: shortNames ?? [],
    verbs: verbs ?? [],
    preferred,
  };
}

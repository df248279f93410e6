// The objects a command reads from the cluster, fetched (never interpreted: which of them is a
// workload, what belongs to it, its phase and counts are the core's reading, `resolveAll`):
//
// - `fetchWorkload`: one root, the pods of its namespace whose controller chain reaches the
//   root's uid and the objects on those chains (§3.9 of the upstream digest: owners fetched by
//   name and cached, at most 6 hops, an unreadable chain is no match);
// - `Listings`: the objects of some types (the rows) plus every pod in scope and the types of
//   the owners between pods and rows, each a paged list, kept up to date by watches.
//
// Either way each object is handed over once (by uid): an object can be reached twice (a
// LeaderWorkerSet's leader pod is a pod of the workload and the owner of its workers'
// StatefulSet), and a copy would be read as a second object.

import { collectionPath, objectPath } from './discovery.mjs';
import { KubeError } from './errors.mjs';

/** How many controller owners a pod's chain may climb (as the core and upstream read it). */
export const MAX_OWNER_HOPS = 6;

/** An object's controller ownerReference, if any. */
export function controllerOf(object) {
  return (object?.metadata?.ownerReferences ?? []).find((ref) => ref && ref.controller === true);
}

/** The objects, each once: the first of those with one uid (objects without a uid are all kept). */
export function uniqueByUid(objects) {
  const seen = new Set();
  return objects.filter((object) => {
    const uid = object?.metadata?.uid;
    if (!uid) return true;
    if (seen.has(uid)) return false;
    seen.add(uid);
    return true;
  });
}

/** An object with its apiVersion and kind, as `kubectl get -o yaml` prints it. */
function typed(object, resource) {
  return object.apiVersion && object.kind ? object : { apiVersion: resource.apiVersion, kind: resource.kind, ...object };
}

/**
 * One workload as §3.9 fetches it: `{ root, related }`, `related` being the objects on the
 * controller chains of the matching pods (nearest the root first) and then the pods (sorted by
 * name). Throws a KubeError `not-found` when the root does not exist.
 *
 * @param {import('./client.mjs').KubeClient} client
 * @param {import('./discovery.mjs').Discovery} discovery
 * @param {import('./discovery.mjs').ApiResource} resource
 * @param {string} namespace
 * @param {string} name
 * @param {{ chunkSize?: number }} [options]
 */
export async function fetchWorkload(client, discovery, resource, namespace, name, { chunkSize } = {}) {
  let root;
  try {
    root = typed(await client.get(objectPath(resource, namespace, name)), resource);
  } catch (error) {
    if (error instanceof KubeError && error.reason === 'not-found') {
      throw new KubeError(
        'not-found',
        `${resource.resource}${resource.group ? `.${resource.group}` : ''} "${name}" not found${resource.namespaced ? ` in namespace "${namespace}"` : ''}`,
      );
    }
    throw error;
  }
  const rootUid = root.metadata?.uid;
  const podResource = discovery.forKind('v1', 'Pod');
  if (!podResource || !rootUid) return { root, related: [] };
  const { items: pods } = await client.list(collectionPath(podResource, resource.namespaced ? namespace : undefined), { chunkSize });
  /** Owners read so far, by `apiVersion/kind/namespace/name`: the object, or null when unreadable. */
  const owners = new Map();
  const readOwner = async (ref, ownerNamespace) => {
    const ownerResource = discovery.forKind(ref.apiVersion, ref.kind);
    if (!ownerResource) return null;
    const key = `${ref.apiVersion}/${ref.kind}/${ownerResource.namespaced ? ownerNamespace : ''}/${ref.name}`;
    if (!owners.has(key)) {
      let owner = null;
      try {
        owner = typed(await client.get(objectPath(ownerResource, ownerNamespace, ref.name)), ownerResource);
      } catch (error) {
        if (!(error instanceof KubeError) || !['not-found', 'forbidden'].includes(error.reason)) throw error;
      }
      owners.set(key, owner);
    }
    const owner = owners.get(key);
    return owner && owner.metadata?.uid === ref.uid ? owner : null;
  };
  const chainObjects = new Map();
  const matched = [];
  for (const pod of pods) {
    const chain = [];
    let ref = controllerOf(pod);
    let hops = 0;
    while (ref && hops < MAX_OWNER_HOPS) {
      hops += 1;
      if (ref.uid === rootUid) {
        matched.push(pod);
        for (const object of chain) chainObjects.set(object.metadata.uid, object);
        break;
      }
      const owner = await readOwner(ref, pod.metadata?.namespace);
      if (!owner) break;
      chain.push(owner);
      ref = controllerOf(owner);
    }
  }
  matched.sort((a, b) => compare(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  // A pod on another pod's chain (a leader pod owns its workers' StatefulSet) is both a chain
  // object and a matched pod: once, and never the root again.
  const [, ...related] = uniqueByUid([root, ...chainObjects.values(), ...matched]);
  return { root, related };
}

function compare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The objects of some types in one namespace or all, kept in listings: each listing one paged
 * list of one resource (with a label or field selector, or all of it) and, once `watch` is
 * called, a watch that keeps it current (relisting after a 410 Gone).
 */
export class Listings {
  /**
   * @param {import('./client.mjs').KubeClient} client
   * @param {import('./discovery.mjs').Discovery} discovery
   * @param {{ namespace?: string, chunkSize?: number }} options namespace: undefined for all
   */
  constructor(client, discovery, { namespace, chunkSize } = {}) {
    this.client = client;
    this.discovery = discovery;
    this.namespace = namespace;
    this.chunkSize = chunkSize;
    /**
     * Each listing: its objects by uid, and when each was read (ms: the list, or the watch event
     * that brought it).
     * @type {Map<string, { resource: import('./discovery.mjs').ApiResource, labelSelector?: string, fieldSelector?: string, rows: boolean, objects: Map<string, any>, readAt: Map<string, number>, resourceVersion: string, stop?: () => void }>}
     */
    this.listings = new Map();
  }

  #path(resource) {
    return collectionPath(resource, resource.namespaced ? this.namespace : undefined);
  }

  /**
   * Lists `resource` (once per resource and selectors). `rows`: its objects are the ones the
   * caller shows (see `rowUids`).
   *
   * @param {import('./discovery.mjs').ApiResource} resource
   * @param {{ labelSelector?: string, fieldSelector?: string, rows?: boolean }} [options]
   */
  async add(resource, { labelSelector, fieldSelector, rows = false } = {}) {
    const key = `${resource.apiVersion}/${resource.kind}|${labelSelector ?? ''}|${fieldSelector ?? ''}`;
    const known = this.listings.get(key);
    if (known) {
      known.rows ||= rows;
      return known;
    }
    const listing = { resource, labelSelector, fieldSelector, rows, objects: new Map(), readAt: new Map(), resourceVersion: '' };
    this.listings.set(key, listing);
    await this.#relist(listing);
    return listing;
  }

  async #relist(listing) {
    const { items, resourceVersion } = await this.client.list(this.#path(listing.resource), {
      chunkSize: this.chunkSize,
      labelSelector: listing.labelSelector,
      fieldSelector: listing.fieldSelector,
      apiVersion: listing.resource.apiVersion,
      kind: listing.resource.kind,
    });
    const readAt = Date.now();
    listing.objects = new Map(items.map((item) => [item.metadata?.uid ?? `${item.metadata?.namespace}/${item.metadata?.name}`, item]));
    listing.readAt = new Map([...listing.objects.keys()].map((uid) => [uid, readAt]));
    listing.resourceVersion = resourceVersion;
  }

  /** Whether `resource` is listed in full (no selector). */
  #listedInFull(apiVersion, kind) {
    return this.listings.has(`${apiVersion}/${kind}||`);
  }

  /**
   * Lists, in full, the types of the controller owners that the objects name but that are not
   * listed yet (those `follow(object, ref)` accepts), and so on up the chains (at most 6
   * levels): the objects between pods and their workloads, and the owners that make an object
   * part of another workload. Types the server does not serve are left out.
   *
   * @param {(object: any, ref: { apiVersion: string, kind: string }) => boolean} [follow]
   */
  async addOwnerTypes(follow = () => true) {
    for (let level = 0; level < MAX_OWNER_HOPS; level += 1) {
      const uids = new Set(this.objects().map((o) => o.metadata?.uid));
      const wanted = new Map();
      for (const object of this.objects()) {
        const ref = controllerOf(object);
        if (!ref || uids.has(ref.uid) || this.#listedInFull(ref.apiVersion, ref.kind) || !follow(object, ref)) continue;
        const resource = this.discovery.forKind(ref.apiVersion, ref.kind);
        // An owner in another namespace cannot be (owner references are namespace-local), and
        // a namespaced owner of a cluster-scoped object neither.
        if (resource) wanted.set(`${resource.apiVersion}/${resource.kind}`, resource);
      }
      if (wanted.size === 0) return;
      for (const resource of wanted.values()) {
        try {
          await this.add(resource);
        } catch (error) {
          // A type the credentials may not list: its objects stay out, as owners missing from a
          // file do (the pods then stand on their own).
          if (!(error instanceof KubeError) || error.reason !== 'forbidden') throw error;
          this.listings.set(`${resource.apiVersion}/${resource.kind}||`, { resource, rows: false, objects: new Map(), readAt: new Map(), resourceVersion: '' });
        }
      }
    }
  }

  /** Every object listed, each once (by uid), in listing order. */
  objects() {
    const seen = new Map();
    for (const listing of this.listings.values()) for (const [uid, object] of listing.objects) if (!seen.has(uid)) seen.set(uid, object);
    return [...seen.values()];
  }

  /** When the object of this uid was last read (ms since the epoch), if it is held. */
  readAt(uid) {
    for (const listing of this.listings.values()) if (listing.readAt.has(uid)) return listing.readAt.get(uid);
    return undefined;
  }

  /** The uids of the objects of the row listings. */
  rowUids() {
    const uids = new Set();
    for (const listing of this.listings.values()) if (listing.rows) for (const uid of listing.objects.keys()) uids.add(uid);
    return uids;
  }

  /**
   * Watches every listing from its resourceVersion; `onChange()` is called after each change
   * (added, modified, deleted, or a relist after 410 Gone), `onError(error)` when a watch cannot
   * be restarted. A watch the server ends is started again from the last resourceVersion.
   *
   * @param {{ onChange: () => void, onError: (error: Error) => void }} handlers
   */
  watch({ onChange, onError }) {
    for (const listing of this.listings.values()) {
      const start = () => {
        listing.stop = this.client.watch(this.#path(listing.resource), {
          resourceVersion: listing.resourceVersion,
          labelSelector: listing.labelSelector,
          onEvent: (event) => {
            const object = event.object;
            if (event.type === 'BOOKMARK') {
              listing.resourceVersion = object?.metadata?.resourceVersion ?? listing.resourceVersion;
              return;
            }
            if (event.type === 'ERROR') {
              // 410 Gone: the resourceVersion is too old; list again.
              listing.resourceVersion = '';
              return;
            }
            if (listing.fieldSelector && !matchesFieldSelector(object, listing.fieldSelector)) return;
            const item = typed(object, listing.resource);
            const uid = item.metadata?.uid;
            listing.resourceVersion = item.metadata?.resourceVersion ?? listing.resourceVersion;
            if (event.type === 'DELETED') {
              listing.objects.delete(uid);
              listing.readAt.delete(uid);
            } else {
              listing.objects.set(uid, item);
              listing.readAt.set(uid, Date.now());
            }
            onChange();
          },
          onEnd: (error) => {
            if (error && (!(error instanceof KubeError) || error.reason !== 'gone')) {
              onError(error);
              return;
            }
            const restart = listing.resourceVersion && !error ? Promise.resolve() : this.#relist(listing).then(onChange);
            restart.then(start, onError);
          },
        });
      };
      start();
    }
  }

  /** Stops every watch. */
  stop() {
    for (const listing of this.listings.values()) listing.stop?.();
  }
}

/** `metadata.name=NAME` (the one field selector this module writes), checked on an event's object. */
function matchesFieldSelector(object, selector) {
  const [field, value] = selector.split('=');
  return field !== 'metadata.name' || object?.metadata?.name === value;
}

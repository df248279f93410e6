// The exporter's state: it watches the Kartas (which definitions are in force), every type
// those definitions cover or name, and pods, and keeps the objects by namespace (owner
// references never cross namespaces). What belongs to which workload is the engine's reading
// (`readManifest`) of a namespace, taken again when an object of it is added or deleted or its
// ownerReferences change; any other change of an object makes only its workload stale. A moment
// (`debounceMs`) after the first change (what arrives meanwhile is coalesced) the stale
// workloads are resolved through `resolveAll`, each with its own objects, and their series kept
// as text for the next scrape. With shards, only this shard's workloads are ever resolved.
// What is wrong with the Kartas (a conflict, errors, fields the server dropped) is logged once
// per change, and exported as a series per Karta. The last sync time is how current the
// exporter's view is proven to be: the oldest of the watches' proofs (a list, a bookmark), taken
// whenever nothing is waiting to be resolved, so it moves in a quiet cluster too: bookmarks come
// about every minute, and a watch without a recent one gets a heartbeat (`heartbeatMs`), the
// read that makes the server send it.

import { SELF_FAMILIES, WORKLOAD_FAMILIES, WORKLOAD_HEADERS, firstSeenSince, workloadLines } from './metrics.mjs';
import { familyHeader, sampleLine } from './exposition.mjs';
import { conflictReport, effectiveDefinitions, kartaReport } from '../kube/definitions.mjs';
import { collectionPath } from '../kube/discovery.mjs';
import { KubeError } from '../kube/errors.mjs';
import { Reflector } from './reflector.mjs';
import { shardOf } from './shard.mjs';
import { KARTA, apiVersionOf, oneVersionEach, typeKey, typeOf, watchedTypes } from './types.mjs';

export class Exporter {
  /**
   * @param {object} options
   * @param {any} options.api the package (`workload-map`)
   * @param {import('../kube/client.mjs').KubeClient} options.client
   * @param {number} [options.shard]
   * @param {number} [options.totalShards]
   * @param {number} [options.debounceMs] how long to gather changes before resolving
   * @param {number} [options.discoveryMs] how often to look for types served since
   * @param {string} [options.version]
   * @param {(message: string) => void} [options.log]
   * @param {number} [options.watchTimeoutSeconds] how long the server keeps each watch open
   * @param {() => number} [options.now] the clock of the watches' proofs (milliseconds since the epoch)
   * @param {number} [options.heartbeatMs] how often a watch not proven current since gets a heartbeat read
   */
  constructor({
    api,
    client,
    shard = 0,
    totalShards = 1,
    debounceMs = 100,
    discoveryMs = 30000,
    version = '',
    log = () => {},
    watchTimeoutSeconds = 300,
    now = Date.now,
    heartbeatMs = 30000,
  }) {
    this.api = api;
    this.client = client;
    this.shard = shard;
    this.totalShards = totalShards;
    this.debounceMs = debounceMs;
    this.discoveryMs = discoveryMs;
    this.version = version;
    this.log = log;
    this.watchTimeoutSeconds = watchTimeoutSeconds;
    this.now = now;
    this.heartbeatMs = heartbeatMs;
    /** @type {Map<string, Reflector>} by type key */
    this.reflectors = new Map();
    this.kartas = null;
    /** @type {Map<string, {plural: string, namespaced: boolean}>} served types by key */
    this.served = new Map();
    this.definitions = [];
    this.texts = [];
    /** @type {ReturnType<typeof effectiveDefinitions>['kartas']} every Karta, with its state and problems */
    this.kartaStates = [];
    /** @type {Map<string, string>} what was logged last of each Karta and conflict (logged again only when it changes) */
    this.reported = new Map();
    /** @type {Map<string, Map<string, any>>} objects by namespace, then uid */
    this.namespaces = new Map();
    /** @type {Set<string>} namespaces to read again (objects added, deleted, owners changed) */
    this.dirtyNamespaces = new Set();
    /** @type {Map<string, Set<string>>} stale workloads (root uids) by namespace */
    this.dirtyWorkloads = new Map();
    /**
     * Each namespace's reading and series: `groups` (workload root uid to the uids of its objects,
     * root first), `member` (object uid to its workload's root uid), `unowned` (uids of no
     * workload), `lines` (root uid to its series per workload family), `phases` (root uid to its
     * phases and since when).
     * @type {Map<string, {groups: Map<string, string[]>, member: Map<string, string>, unowned: Set<string>, lines: Map<string, string[]>, phases: Map<string, {key: string, since: number}>}>}
     */
    this.state = new Map();
    this.definitionsChanged = true;
    this.lastSync = 0;
    this.resolves = 0;
    this.resolveErrors = 0;
    this.ready = false;
    this.timer = null;
    this.stopped = false;
  }

  async start() {
    await this.#discover();
    if (this.served.has(typeKey(KARTA))) {
      this.kartas = this.#reflector(KARTA, this.served.get(typeKey(KARTA)).plural, () => {
        this.definitionsChanged = true;
        this.#schedule();
      });
      // The definitions in force come first: wait (a while) for the Kartas' first list.
      const deadline = Date.now() + 10000;
      while (!this.kartas.settled && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    }
    this.#applyDefinitions();
    this.discoveryTimer = setInterval(() => this.#rediscover(), this.discoveryMs);
    this.discoveryTimer.unref?.();
    this.heartbeatTimer = setInterval(() => this.#heartbeat(), this.heartbeatMs);
    this.heartbeatTimer.unref?.();
    this.#schedule();
    return this;
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.discoveryTimer);
    clearInterval(this.heartbeatTimer);
    clearTimeout(this.timer);
    await Promise.all([...this.reflectors.values(), this.kartas].filter(Boolean).map((r) => r.stop()));
  }

  #reflector(type, plural, onChange) {
    const reflector = new Reflector({
      client: this.client,
      // Every namespace's objects: the collection of the type across the cluster.
      path: collectionPath({ group: type.group, version: type.version, resource: plural, namespaced: false }),
      label: type.group ? `${plural}.${type.group}` : plural,
      onChange,
      log: this.log,
      timeoutSeconds: this.watchTimeoutSeconds,
      now: this.now,
    });
    reflector.onState = () => this.#schedule();
    reflector.onCurrent = () => this.#synced();
    return reflector.start();
  }

  /** Which of the types the definitions need the server serves (discovery of their group versions). */
  async #discover() {
    const definitions = effectiveDefinitions(this.api, this.kartas ? [...this.kartas.store.values()] : []).entries;
    const groupVersions = new Set([apiVersionOf(KARTA), ...watchedTypes(definitions).map(apiVersionOf)]);
    const served = new Map();
    await Promise.all(
      [...groupVersions].map(async (gv) => {
        try {
          const list = await this.client.get(gv.includes('/') ? `/apis/${gv}` : `/api/${gv}`);
          const [group, version] = gv.includes('/') ? gv.split('/') : ['', gv];
          for (const resource of list.resources ?? []) {
            if (resource.name.includes('/') || !resource.verbs?.includes('watch')) continue;
            served.set(typeKey({ group, version, kind: resource.kind }), { plural: resource.name, namespaced: resource.namespaced });
          }
        } catch (error) {
          if (!(error instanceof KubeError && error.reason === 'not-found')) throw error;
        }
      }),
    );
    this.served = served;
  }

  async #rediscover() {
    try {
      const before = [...this.served.keys()].sort().join(',');
      await this.#discover();
      if ([...this.served.keys()].sort().join(',') !== before) {
        if (!this.kartas && this.served.has(typeKey(KARTA))) {
          this.kartas = this.#reflector(KARTA, this.served.get(typeKey(KARTA)).plural, () => {
            this.definitionsChanged = true;
            this.#schedule();
          });
        }
        this.definitionsChanged = true;
        this.#schedule();
      }
    } catch (error) {
      this.log(`discovery: ${error.message}`);
    }
  }

  /** Takes the definitions in force and starts or stops watches to match them. */
  #applyDefinitions() {
    this.definitionsChanged = false;
    // Which definitions are in force is bin/kube's rule, the CLI's too; the exporter gives every
    // text in force to resolveAll itself (the catalog's included), so `given` indexes them.
    const effective = effectiveDefinitions(this.api, this.kartas ? [...this.kartas.store.values()] : []);
    const { entries } = effective;
    this.kartaStates = effective.kartas;
    this.#report(effective);
    const definitions = entries.map((entry) => ({ ...entry, gvk: typeOf(entry.apiVersion, entry.kind) }));
    this.definitions = definitions;
    this.texts = definitions.map((d) => d.text);
    // Each resource once, at the version the server prefers among those the definitions name
    // (the objects of a type served at two versions are one set).
    const wanted = new Map();
    for (const type of oneVersionEach(watchedTypes(definitions).filter((t) => this.served.has(typeKey(t))))) {
      wanted.set(typeKey(type), { type, plural: this.served.get(typeKey(type)).plural });
    }
    for (const [key, reflector] of this.reflectors) {
      if (wanted.has(key)) continue;
      this.reflectors.delete(key);
      reflector.stop();
      for (const object of reflector.store.values()) this.#change('delete', object);
    }
    for (const [key, { type, plural }] of wanted) {
      if (!this.reflectors.has(key))
        this.reflectors.set(
          key,
          this.#reflector(type, plural, (kind, object) => this.#change(kind, object)),
        );
    }
    // Every view may read differently now.
    for (const ns of this.namespaces.keys()) this.#staleNamespace(ns, true);
    for (const ns of this.state.keys()) this.#staleNamespace(ns, true);
  }

  /** Logs what is wrong with the Kartas: each problem once, again only when it changes. */
  #report(effective) {
    const now = new Map();
    for (const type of effective.conflicts.keys()) now.set(`conflict ${type}`, conflictReport(effective, type));
    for (const karta of effective.kartas) {
      const lines = kartaReport(karta);
      if (lines.length > 0) now.set(`Karta ${karta.name}`, lines.join('\n'));
    }
    for (const [key, message] of now) {
      if (this.reported.get(key) !== message) for (const line of message.split('\n')) this.log(line);
    }
    this.reported = now;
  }

  #change(kind, object) {
    const ns = object.metadata?.namespace ?? '';
    const uid = object.metadata.uid;
    let objects = this.namespaces.get(ns);
    const previous = objects?.get(uid);
    if (kind === 'upsert') {
      if (!objects) this.namespaces.set(ns, (objects = new Map()));
      objects.set(uid, object);
    } else if (objects) {
      objects.delete(uid);
      if (objects.size === 0) this.namespaces.delete(ns);
    }
    const state = this.state.get(ns);
    const sameOwners = kind === 'upsert' && previous && JSON.stringify(previous.metadata?.ownerReferences) === JSON.stringify(object.metadata?.ownerReferences);
    const root = state?.member.get(uid);
    if (sameOwners && root !== undefined) this.#staleWorkload(ns, root);
    else if (!(sameOwners && state?.unowned.has(uid))) this.#staleNamespace(ns);
    this.#schedule();
  }

  /** The namespace is read again: its workloads and what belongs to each may have changed. */
  #staleNamespace(ns, everyWorkload = false) {
    this.dirtyNamespaces.add(ns);
    if (everyWorkload) for (const root of this.state.get(ns)?.groups.keys() ?? []) this.#staleWorkload(ns, root);
  }

  #staleWorkload(ns, root) {
    if (!this.dirtyWorkloads.has(ns)) this.dirtyWorkloads.set(ns, new Set());
    this.dirtyWorkloads.get(ns).add(root);
  }

  #schedule() {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.#pass();
    }, this.debounceMs);
  }

  /** Every watch has listed once (or its type is refused or not served). */
  get settled() {
    return (!this.kartas || this.kartas.settled) && [...this.reflectors.values()].every((r) => r.settled);
  }

  /** Every watch is open. */
  get watching() {
    return (!this.kartas || this.kartas.watching || this.kartas.unavailable) && [...this.reflectors.values()].every((r) => r.watching || r.unavailable);
  }

  #pass() {
    if (this.stopped) return;
    if (this.definitionsChanged) this.#applyDefinitions();
    if (!this.settled) return; // a reflector's state change schedules the pass again
    const namespaces = [...this.dirtyNamespaces];
    const workloads = this.dirtyWorkloads;
    this.dirtyNamespaces = new Set();
    this.dirtyWorkloads = new Map();
    try {
      for (const ns of namespaces) this.#read(ns, workloads);
      this.#resolve(workloads);
    } catch (error) {
      this.resolveErrors += 1;
      this.log(`resolve: ${error.message}`);
      for (const ns of namespaces) this.#staleNamespace(ns, true);
      for (const [ns, roots] of workloads) for (const root of roots) this.#staleWorkload(ns, root);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        this.#pass();
      }, 1000);
      return;
    }
    this.ready = true;
    this.#synced();
  }

  /**
   * Moves the last sync time when nothing is waiting to be resolved and every watch is open: to
   * the oldest proof among the watches (each one's last list or bookmark), since the view is
   * current up to then.
   */
  #synced() {
    if (!this.ready || this.timer || this.definitionsChanged || !this.watching) return;
    if (this.dirtyNamespaces.size > 0 || this.dirtyWorkloads.size > 0) return;
    const proofs = [this.kartas, ...this.reflectors.values()].filter((r) => r && !r.unavailable).map((r) => r.currentAt);
    const at = proofs.length > 0 ? Math.min(...proofs) : this.now();
    if (at > this.lastSync) this.lastSync = at;
  }

  /** A heartbeat for every watch not proven current within `heartbeatMs` (see Reflector.heartbeat). */
  #heartbeat() {
    const now = this.now();
    for (const reflector of [this.kartas, ...this.reflectors.values()]) {
      if (reflector && now - reflector.currentAt >= this.heartbeatMs) reflector.heartbeat();
    }
  }

  /** Reads a namespace again (the engine's reading): its workloads, and what belongs to each. */
  #read(ns, stale) {
    const objects = [...(this.namespaces.get(ns)?.values() ?? [])];
    const state = this.state.get(ns) ?? { groups: new Map(), member: new Map(), unowned: new Set(), lines: new Map(), phases: new Map() };
    const reading = objects.length ? this.api.readManifest(objects) : { workloads: [], unowned: [] };
    const groups = new Map();
    for (const workload of reading.workloads) {
      const uids = [workload.index, ...workload.related].map((i) => objects[i].metadata.uid);
      groups.set(uids[0], uids);
    }
    const mark = (root) => {
      if (!stale.has(ns)) stale.set(ns, new Set());
      stale.get(ns).add(root);
    };
    for (const [root, uids] of groups) {
      if (state.groups.get(root)?.join() !== uids.join()) mark(root);
    }
    for (const root of state.groups.keys()) {
      if (!groups.has(root)) {
        state.lines.delete(root);
        state.phases.delete(root);
      }
    }
    state.groups = groups;
    state.member = new Map();
    for (const [root, uids] of groups) for (const uid of uids) state.member.set(uid, root);
    state.unowned = new Set(reading.unowned.map((u) => objects[u.index].metadata.uid));
    if (groups.size === 0 && objects.length === 0) this.state.delete(ns);
    else this.state.set(ns, state);
  }

  /** Resolves the stale workloads of this shard, each with its own objects, in calls of at most `batchObjects` objects. */
  #resolve(stale, batchObjects = 5000) {
    let batch = [];
    let roots = [];
    const flush = () => {
      if (roots.length) this.#resolveBatch(batch, roots);
      batch = [];
      roots = [];
    };
    for (const [ns, set] of stale) {
      const state = this.state.get(ns);
      const objects = this.namespaces.get(ns);
      for (const root of set) {
        const uids = state?.groups.get(root);
        if (!state || !uids || !objects) continue;
        if (this.totalShards > 1 && shardOf(root, this.totalShards) !== this.shard) continue;
        for (const uid of uids) batch.push(objects.get(uid));
        roots.push([ns, root]);
        if (batch.length >= batchObjects) flush();
      }
    }
    flush();
  }

  #resolveBatch(objects, roots) {
    const result = this.api.resolveAll(objects, { definitions: this.texts, related: [] });
    this.resolves += 1;
    const now = Date.now();
    const done = new Set();
    for (const item of result.items) {
      const object = objects[item.index];
      const root = object?.metadata?.uid;
      const state = this.state.get(item.namespace ?? '');
      if (!state || !state.groups.has(root)) continue;
      done.add(root);
      if (!item.view || item.given === undefined) {
        state.lines.delete(root);
        state.phases.delete(root);
        continue;
      }
      const key = item.view.phases.join(',');
      const before = state.phases.get(root);
      const since = before ? (before.key === key ? before.since : Math.floor(now / 1000)) : firstSeenSince(object, now);
      state.phases.set(root, { key, since });
      state.lines.set(root, workloadLines(item, object, this.definitions[item.given], since));
    }
    // A workload the engine did not read as one (its objects changed meanwhile) is read again.
    for (const [ns, root] of roots) {
      if (!done.has(root)) {
        this.state.get(ns)?.lines.delete(root);
        this.#staleNamespace(ns);
      }
    }
  }

  /** The exposition text of /metrics. */
  metrics() {
    const namespaces = [...this.state.keys()].sort();
    let text = '';
    let workloads = 0;
    for (let i = 0; i < WORKLOAD_FAMILIES.length; i++) {
      text += WORKLOAD_HEADERS[i];
      for (const ns of namespaces) for (const lines of this.state.get(ns).lines.values()) text += lines[i];
    }
    for (const ns of namespaces) workloads += this.state.get(ns).lines.size;
    const self = (family, samples) => {
      text += familyHeader(family);
      for (const [labels, value] of samples) text += sampleLine(family.name, labels, value);
    };
    self(SELF_FAMILIES.info, [[{ version: this.version, shard: String(this.shard), total_shards: String(this.totalShards) }, 1]]);
    self(
      SELF_FAMILIES.definition,
      this.definitions.map((d) => [
        { definition: d.name, group: d.gvk.group, version: d.gvk.version, kind: d.gvk.kind, origin: d.origin, served: String(this.served.has(typeKey(d.gvk))) },
        1,
      ]),
    );
    self(
      SELF_FAMILIES.karta,
      this.kartaStates.map((k) => {
        const type = k.kind ? typeOf(k.apiVersion, k.kind) : { group: '', version: '', kind: '' };
        return [{ karta: k.name, group: type.group, version: type.version, kind: type.kind, state: k.state, valid: String(k.valid) }, 1];
      }),
    );
    self(
      SELF_FAMILIES.kartaErrors,
      this.kartaStates.map((k) => [{ karta: k.name }, k.errors]),
    );
    self(
      SELF_FAMILIES.kartaWarnings,
      this.kartaStates.map((k) => [{ karta: k.name }, k.warnings]),
    );
    self(SELF_FAMILIES.synced, [[{}, this.lastSync / 1000]]);
    const reflectors = [this.kartas, ...this.reflectors.values()].filter(Boolean).sort((a, b) => a.label.localeCompare(b.label));
    self(
      SELF_FAMILIES.up,
      reflectors.map((r) => [{ resource: r.label }, r.watching ? 1 : 0]),
    );
    self(
      SELF_FAMILIES.restarts,
      reflectors.map((r) => [{ resource: r.label }, r.restarts]),
    );
    self(
      SELF_FAMILIES.relists,
      reflectors.map((r) => [{ resource: r.label }, r.lists]),
    );
    self(
      SELF_FAMILIES.objects,
      reflectors.map((r) => [{ resource: r.label }, r.store.size]),
    );
    self(SELF_FAMILIES.resolves, [[{}, this.resolves]]);
    self(SELF_FAMILIES.errors, [[{}, this.resolveErrors]]);
    self(SELF_FAMILIES.workloads, [[{}, workloads]]);
    return text;
  }
}

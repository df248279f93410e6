// The exporter's state: it watches the Kartas (which definitions are in force), every type
// those definitions cover or name, and pods; keeps the objects by namespace; and resolves the
// namespaces that changed through the engine's `resolveAll`, a moment (`debounceMs`) after the
// first change, coalescing what arrives meanwhile. Owner references never cross namespaces, so
// a namespace's objects are all a workload of it can own; the engine keeps the last call's views
// by fingerprint, so a workload whose objects did not change is not resolved again. The series
// of each namespace are kept as text, ready for the next scrape.

import { SELF_FAMILIES, WORKLOAD_FAMILIES, WORKLOAD_HEADERS, firstSeenSince, workloadLines } from './metrics.mjs';
import { familyHeader, sampleLine } from './exposition.mjs';
import { ApiError } from './kube.mjs';
import { Reflector } from './reflector.mjs';
import { shardOf } from './shard.mjs';
import { KARTA, apiVersionOf, definitionsInForce, typeKey, watchedTypes } from './types.mjs';

/** The collection path of a served type. */
function collectionPath({ group, version }, plural) {
  return group ? `/apis/${group}/${version}/${plural}` : `/api/${version}/${plural}`;
}

export class Exporter {
  /**
   * @param {object} options
   * @param {any} options.api the package (`workload-map`)
   * @param {import('./kube.mjs').KubeClient} options.client
   * @param {number} [options.shard]
   * @param {number} [options.totalShards]
   * @param {number} [options.debounceMs] how long to gather changes before resolving
   * @param {number} [options.discoveryMs] how often to look for types served since
   * @param {string} [options.version]
   * @param {(message: string) => void} [options.log]
   */
  constructor({ api, client, shard = 0, totalShards = 1, debounceMs = 100, discoveryMs = 30000, version = '', log = () => {} }) {
    this.api = api;
    this.client = client;
    this.shard = shard;
    this.totalShards = totalShards;
    this.debounceMs = debounceMs;
    this.discoveryMs = discoveryMs;
    this.version = version;
    this.log = log;
    /** @type {Map<string, Reflector>} by type key */
    this.reflectors = new Map();
    this.kartas = null;
    /** @type {Map<string, {plural: string, namespaced: boolean}>} served types by key */
    this.served = new Map();
    this.definitions = [];
    this.texts = [];
    /** @type {Map<string, Map<string, any>>} objects by namespace, then uid */
    this.namespaces = new Map();
    /** @type {Set<string>} namespaces to resolve again */
    this.dirty = new Set();
    /** @type {Map<string, string[]>} each namespace's series, per workload family */
    this.series = new Map();
    /** @type {Map<string, Map<string, {key: string, since: number}>>} phases by namespace, then workload uid */
    this.phases = new Map();
    this.workloadCount = new Map();
    this.definitionsChanged = true;
    this.lastSync = 0;
    this.resolves = 0;
    this.resolveErrors = 0;
    this.ready = false;
    this.timer = null;
    this.stopped = false;
    this.waiters = [];
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
    this.#schedule();
    return this;
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.discoveryTimer);
    clearTimeout(this.timer);
    await Promise.all([...this.reflectors.values(), this.kartas].filter(Boolean).map((r) => r.stop()));
  }

  /** Resolves after the next resolve pass that finds every watch open (for tests and benchmarks). */
  nextSync() {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  #reflector(type, plural, onChange) {
    const reflector = new Reflector({
      client: this.client,
      path: collectionPath(type, plural),
      label: type.group ? `${plural}.${type.group}` : plural,
      onChange,
      log: this.log,
    });
    reflector.onState = () => this.#schedule();
    return reflector.start();
  }

  /** Which of the types the definitions need the server serves (discovery of their group versions). */
  async #discover() {
    const definitions = definitionsInForce(this.api, this.kartas ? [...this.kartas.store.values()] : []).definitions;
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
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        }
      }),
    );
    this.served = served;
  }

  async #rediscover() {
    try {
      const before = [...this.served.keys()].join(',');
      await this.#discover();
      if ([...this.served.keys()].join(',') !== before) {
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
    const { definitions, problems } = definitionsInForce(this.api, this.kartas ? [...this.kartas.store.values()] : []);
    for (const problem of problems) this.log(problem);
    this.definitions = definitions;
    this.texts = definitions.map((d) => d.text);
    const wanted = new Map();
    for (const type of watchedTypes(definitions)) {
      const served = this.served.get(typeKey(type));
      if (served) wanted.set(typeKey(type), { type, plural: served.plural });
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
    for (const ns of this.namespaces.keys()) this.dirty.add(ns);
    for (const ns of this.series.keys()) this.dirty.add(ns);
  }

  #change(kind, object) {
    const ns = object.metadata?.namespace ?? '';
    let objects = this.namespaces.get(ns);
    if (kind === 'upsert') {
      if (!objects) this.namespaces.set(ns, (objects = new Map()));
      objects.set(object.metadata.uid, object);
    } else if (objects) {
      objects.delete(object.metadata.uid);
      if (objects.size === 0) this.namespaces.delete(ns);
    }
    this.dirty.add(ns);
    this.#schedule();
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
    const dirty = [...this.dirty];
    this.dirty.clear();
    try {
      if (dirty.length) this.#resolve(dirty);
    } catch (error) {
      this.resolveErrors += 1;
      this.log(`resolve: ${error.message}`);
      for (const ns of dirty) this.dirty.add(ns);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        this.#pass();
      }, 1000);
      return;
    }
    this.ready = true;
    if (this.watching && this.dirty.size === 0) {
      this.lastSync = Date.now();
      for (const resolve of this.waiters.splice(0)) resolve();
    }
  }

  #resolve(dirty) {
    let objects = dirty.flatMap((ns) => [...(this.namespaces.get(ns)?.values() ?? [])]);
    if (this.totalShards > 1 && objects.length) {
      // The core says which objects are workloads and what belongs to each; this shard keeps
      // its workloads (by uid) with everything that belongs to them.
      const reading = this.api.readManifest(objects);
      const keep = [];
      for (const workload of reading.workloads) {
        const uid = objects[workload.index].metadata?.uid ?? '';
        if (shardOf(uid, this.totalShards) === this.shard) keep.push(workload.index, ...workload.related);
      }
      objects = keep.sort((a, b) => a - b).map((i) => objects[i]);
    }
    const result = objects.length ? this.api.resolveAll(objects, { definitions: this.texts }) : { items: [] };
    this.resolves += 1;
    const now = Date.now();
    const lines = new Map(dirty.map((ns) => [ns, WORKLOAD_FAMILIES.map(() => '')]));
    const phases = new Map(dirty.map((ns) => [ns, new Map()]));
    const counts = new Map(dirty.map((ns) => [ns, 0]));
    for (const item of result.items) {
      if (!item.view || item.given === undefined) continue;
      const object = objects[item.index];
      const ns = item.namespace ?? '';
      const uid = object?.metadata?.uid ?? `${item.kind}/${ns}/${item.name}`;
      const key = item.view.phases.join(',');
      const before = this.phases.get(ns)?.get(uid);
      const since = before ? (before.key === key ? before.since : Math.floor(now / 1000)) : firstSeenSince(object, now);
      phases.get(ns)?.set(uid, { key, since });
      const definition = this.definitions[item.given];
      const mine = workloadLines(item, object, definition, since);
      const target = lines.get(ns);
      if (!target) continue;
      for (let i = 0; i < mine.length; i++) target[i] += mine[i];
      counts.set(ns, (counts.get(ns) ?? 0) + 1);
    }
    for (const ns of dirty) {
      if (counts.get(ns)) {
        this.series.set(ns, lines.get(ns));
        this.phases.set(ns, phases.get(ns));
        this.workloadCount.set(ns, counts.get(ns));
      } else {
        this.series.delete(ns);
        this.phases.delete(ns);
        this.workloadCount.delete(ns);
      }
    }
  }

  /** The exposition text of /metrics. */
  metrics() {
    const namespaces = [...this.series.keys()].sort();
    let text = '';
    for (let i = 0; i < WORKLOAD_FAMILIES.length; i++) {
      text += WORKLOAD_HEADERS[i];
      for (const ns of namespaces) text += this.series.get(ns)[i];
    }
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
    let workloads = 0;
    for (const n of this.workloadCount.values()) workloads += n;
    self(SELF_FAMILIES.workloads, [[{}, workloads]]);
    return text;
  }
}

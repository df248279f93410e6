// List, then watch from the list's resourceVersion, for one resource: the objects are kept in
// `store` (by uid) and every change is handed to `onChange`. A watch that ends is started again
// from the last resourceVersion seen (bookmarks included); one the server answers with 410 Gone
// (the version is too old) lists again, and the objects gone meanwhile are removed. A
// connection error waits (200 ms doubling to 5 s) and tries again. Every watch after the first
// counts as a restart. `currentAt` is when the store was last proven to match the server: a list
// done, or a BOOKMARK event (everything before it was delivered). The API server sends one on a
// watch about every minute and 2 s before the watch's timeout, but only when its watch cache has
// moved past the version the watch last saw; `heartbeat()`, a consistent read of one item, has
// the server bring its cache up to date with etcd, so that a quiet resource gets them too.
// The requests are bin/kube's (`KubeClient.list` and `watch`): this file is only the loop around
// them.

import { KubeError } from '../kube/errors.mjs';

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** An object as the exporter keeps it: without managedFields, which nothing reads. */
export function trim(object) {
  if (object?.metadata?.managedFields) delete object.metadata.managedFields;
  return object;
}

export class Reflector {
  /**
   * @param {object} options
   * @param {import('../kube/client.mjs').KubeClient} options.client
   * @param {string} options.path the collection path (`/api/v1/pods`, `/apis/G/V/PLURAL`)
   * @param {string} options.label the resource as metrics name it (`pods`, `jobsets.jobset.x-k8s.io`)
   * @param {(kind: 'upsert' | 'delete', object: any) => void} options.onChange
   * @param {(message: string) => void} [options.log]
   * @param {number} [options.pageSize]
   * @param {string} [options.resourceVersion] resume: watch from this version, without a first list
   * @param {number} [options.timeoutSeconds] how long the server keeps each watch open
   * @param {() => number} [options.now] the clock (milliseconds since the epoch)
   */
  constructor({ client, path, label, onChange, log = () => {}, pageSize = 500, resourceVersion = '', timeoutSeconds = 300, now = Date.now }) {
    this.client = client;
    this.path = path;
    this.label = label;
    this.onChange = onChange;
    this.log = log;
    this.pageSize = pageSize;
    this.timeoutSeconds = timeoutSeconds;
    this.now = now;
    /** When the store was last proven current (a list, a bookmark), in milliseconds; 0 before. */
    this.currentAt = 0;
    /** @type {Map<string, any>} */
    this.store = new Map();
    this.resourceVersion = resourceVersion;
    this.synced = false;
    this.watching = false;
    this.restarts = 0;
    this.lists = 0;
    /** The server refuses or does not serve the resource (403, 404): tried again later. */
    this.unavailable = false;
    this.lastError = '';
    this.controller = new AbortController();
    this.stopped = false;
    /** Called whenever `synced` or `watching` changes. */
    this.onState = () => {};
    /** Called when a bookmark proves the store current (`currentAt` moved). */
    this.onCurrent = () => {};
  }

  /** Listed at least once, or known to be unavailable: nothing more to wait for. */
  get settled() {
    return this.synced || this.unavailable;
  }

  start() {
    this.done = this.#run();
    return this;
  }

  /**
   * Reads one item of the collection, consistently (no resourceVersion): the API server brings
   * its watch cache up to date with etcd to answer, so its next bookmark to this watch carries
   * a newer version and is sent. Only while the watch is open; a failure is logged (the watch's
   * own errors are the ones that count).
   */
  async heartbeat() {
    if (!this.watching || this.stopped) return;
    try {
      await this.client.get(`${this.path}?limit=1`, { signal: this.controller.signal });
    } catch (error) {
      if (!this.stopped) this.log(`${this.label}: heartbeat: ${error.message}`);
    }
  }

  async stop() {
    this.stopped = true;
    this.controller.abort();
    await this.done?.catch(() => {});
  }

  async #list() {
    const seen = new Set();
    // Paged, each page stored as it comes; the items get the list's apiVersion and kind (the
    // core reads objects by them).
    const { resourceVersion } = await this.client.list(this.path, {
      chunkSize: this.pageSize,
      signal: this.controller.signal,
      onPage: (items) => {
        for (const object of items) {
          const uid = object.metadata?.uid;
          if (!uid) continue;
          seen.add(uid);
          this.store.set(uid, trim(object));
          this.onChange('upsert', object);
        }
      },
    });
    for (const [uid, object] of this.store) {
      if (!seen.has(uid)) {
        this.store.delete(uid);
        this.onChange('delete', object);
      }
    }
    this.resourceVersion = resourceVersion;
    this.lists += 1;
    this.currentAt = this.now();
  }

  #setState(synced, watching) {
    if (this.synced === synced && this.watching === watching) return;
    this.synced = synced;
    this.watching = watching;
    this.onState();
  }

  async #run() {
    let backoff = 200;
    let needList = !this.resourceVersion;
    let watches = 0;
    while (!this.stopped) {
      try {
        if (needList) {
          await this.#list();
          needList = false;
          this.unavailable = false;
          this.#setState(true, this.watching);
        }
        if (watches > 0) this.restarts += 1;
        watches += 1;
        let gone = false;
        const onEvent = (event) => {
          if (event.type === 'ERROR') {
            if (event.object?.code === 410) gone = true;
            else this.lastError = event.object?.message ?? 'watch error';
            return;
          }
          const object = event.object;
          const version = object?.metadata?.resourceVersion;
          if (version) this.resourceVersion = version;
          if (event.type === 'BOOKMARK') {
            this.currentAt = this.now();
            this.onCurrent();
            return;
          }
          if (!object?.metadata?.uid) return;
          if (event.type === 'DELETED') {
            this.store.delete(object.metadata.uid);
            this.onChange('delete', object);
          } else {
            this.store.set(object.metadata.uid, trim(object));
            this.onChange('upsert', object);
          }
        };
        // Resolves when the server ends the watch (or the reflector stops), rejects with its error.
        await new Promise((resolve, reject) => {
          const signal = this.controller.signal;
          const abort = () => {
            stop();
            resolve(undefined);
          };
          const stop = this.client.watch(this.path, {
            resourceVersion: this.resourceVersion,
            timeoutSeconds: this.timeoutSeconds,
            onOpen: () => this.#setState(true, true),
            onEvent,
            onEnd: (error) => {
              signal.removeEventListener('abort', abort);
              if (error) reject(error);
              else resolve(undefined);
            },
          });
          if (signal.aborted) abort();
          else signal.addEventListener('abort', abort, { once: true });
        });
        backoff = 200;
        if (gone) {
          this.log(`${this.label}: the watch's resourceVersion is gone (410): listing again`);
          needList = true;
        }
      } catch (error) {
        if (this.stopped) break;
        this.#setState(this.synced, false);
        this.lastError = error.message;
        if (error instanceof KubeError && error.reason === 'gone') needList = true;
        if (error instanceof KubeError && (error.reason === 'forbidden' || error.reason === 'not-found')) {
          // Not allowed (the ClusterRole lacks the type) or not served: said, and tried again later.
          this.unavailable = true;
          this.onState();
          this.log(`${this.label}: ${error.message}; trying again in 60 s`);
          await sleep(60000, this.controller.signal);
          continue;
        }
        this.log(`${this.label}: ${error.message}; trying again in ${backoff} ms`);
        await sleep(backoff, this.controller.signal);
        backoff = Math.min(backoff * 2, 5000);
      }
      if (!this.stopped) this.#setState(this.synced, false);
    }
  }
}

// List, then watch from the list's resourceVersion, for one resource: the objects are kept in
// `store` (by uid) and every change is handed to `onChange`. A watch that ends is started again
// from the last resourceVersion seen (bookmarks included); one the server answers with 410 Gone
// (the version is too old) lists again, and the objects gone meanwhile are removed. A
// connection error waits (200 ms doubling to 5 s) and tries again. Every watch after the first
// counts as a restart. The requests are bin/kube's (`KubeClient.list` and `watch`): this file is
// only the loop around them.

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
   */
  constructor({ client, path, label, onChange, log = () => {}, pageSize = 500, resourceVersion = '' }) {
    this.client = client;
    this.path = path;
    this.label = label;
    this.onChange = onChange;
    this.log = log;
    this.pageSize = pageSize;
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
  }

  /** Listed at least once, or known to be unavailable: nothing more to wait for. */
  get settled() {
    return this.synced || this.unavailable;
  }

  start() {
    this.done = this.#run();
    return this;
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
          if (event.type === 'BOOKMARK' || !object?.metadata?.uid) return;
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
            timeoutSeconds: 300,
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

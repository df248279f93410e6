// The page's side of the evaluation worker: run ids, one run in flight at a time, the newest
// request waiting behind it, and a watchdog that terminates a runaway worker and starts a fresh
// one. Only the result of the newest request is ever delivered, so a stale result can never
// overwrite a newer one.

/** The watchdog's default, and the range `?timeout=MS` is clamped to. */
export const DEFAULT_TIMEOUT_MS = 2000;
export const MIN_TIMEOUT_MS = 100;
export const MAX_TIMEOUT_MS = 60_000;
/** How long reading a share link may take in the worker before it is given up. */
export const DECODE_TIMEOUT_MS = 5000;

/** The watchdog time from a `?timeout=` value: a number clamped to the range, else the default. */
export function timeoutFrom(value) {
  const ms = value === null || value === undefined || String(value).trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(ms)) return DEFAULT_TIMEOUT_MS;
  return Math.min(MAX_TIMEOUT_MS, Math.max(MIN_TIMEOUT_MS, Math.round(ms)));
}

/**
 * What the page hears from the worker. `onResult`: the result of the newest run; `onTimeout`:
 * the newest run was stopped (a result with `trapped: true` also means the worker was replaced:
 * the engine stopped on it); `onReady` and `onBusy` are optional (the elements leave them out).
 *
 * @typedef {object} EngineHandlers
 * @property {(info: {version: string, catalogSize: number}) => void} [onReady]
 * @property {(result: any) => void} onResult
 * @property {(run: {id: number, ms: number}) => void} onTimeout
 * @property {(busy: boolean) => void} [onBusy]
 * @property {(message: string) => void} onFatal
 */

export class Engine {
  /**
   * @param {EngineHandlers} handlers
   * @param {number} [timeoutMs]
   * @param {() => Worker} [createWorker] makes the worker (the element passes its own); the
   *   playground's by default
   */
  constructor(handlers, timeoutMs = DEFAULT_TIMEOUT_MS, createWorker = undefined) {
    this.handlers = handlers;
    this.timeoutMs = timeoutMs;
    this.createWorker = createWorker;
    this.nextId = 1;
    this.latestId = 0;
    this.inFlight = undefined;
    this.pending = undefined;
    this.restarts = 0;
    /** How long the last run that gave a result took, in ms (undefined before the first). */
    this.lastRunMs = undefined;
    this.decodes = new Map();
    this.start();
  }

  start() {
    // The watchdog times evaluation, not loading: a run sent before the worker is ready gets
    // its timer when the worker says so (a slow network must not stop the first run).
    this.workerReady = false;
    this.worker = this.createWorker ? this.createWorker() : new Worker(new URL('worker.js', document.baseURI), { type: 'module' });
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      this.handlers.onFatal?.(event.message || 'the evaluation worker failed');
    };
  }

  /** Replaces the worker (its runs and decodes are lost; the caller settles them). */
  replace() {
    this.worker.terminate();
    this.restarts += 1;
    for (const pending of this.decodes.values()) pending.reject(new Error('the engine was restarted before it answered'));
    this.decodes.clear();
    this.start();
  }

  /**
   * Reads a share link in the worker (untrusted input never blocks the page); resolves to the
   * state, rejects with an Error saying what is wrong. A worker that does not answer in time is
   * replaced.
   */
  decodeShare(hash) {
    return this.ask('decode', { hash }, DECODE_TIMEOUT_MS, 'reading it');
  }

  /**
   * Asks the worker for something besides a run (`draft`, `case`: see worker.js); resolves to
   * its answer. A worker that does not answer in time is replaced.
   */
  ask(type, payload, timeoutMs = Math.max(DECODE_TIMEOUT_MS, this.timeoutMs), what = 'it') {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.decodes.delete(id);
        this.replace();
        reject(new Error(`${what} took longer than ${timeoutMs / 1000} s`));
      }, timeoutMs);
      const settle = (done) => (value) => {
        clearTimeout(timer);
        this.decodes.delete(id);
        done(value);
      };
      this.decodes.set(id, { resolve: settle(resolve), reject: settle(reject) });
      this.worker.postMessage({ ...payload, type, id });
    });
  }

  /** Queues a run of this state; returns its id. */
  run(state) {
    const request = { type: 'run', id: this.nextId++, mode: state.mode, definition: state.definition, manifest: state.manifest };
    // Related objects (the Pods pane) and the edit panel's request ride along with the run.
    if (typeof state.pods === 'string' && state.pods !== '') request.pods = state.pods;
    if (state.edit?.action) request.edit = { ...state.edit };
    // The workload the user picked among several (its `workloadKey`).
    if (typeof state.workload === 'string' && state.workload !== '') request.workload = state.workload;
    if (state.trapForTests) request.trapForTests = true;
    // The page already holds the workload object of this manifest: the result need not carry it.
    if (state.objectKnown) request.objectKnown = true;
    return this.enqueue(request);
  }

  /**
   * Queues a `resolveAll` of many workloads with their catalog definitions (`objects`: text, a
   * List or an array; `related` optional, objects given apart in the same forms); returns its
   * id. Same rules as `run`: one in flight, only the newest result delivered.
   */
  runAll({ objects, related }) {
    const request = { type: 'resolveAll', id: this.nextId++, objects };
    if (related !== undefined && related !== null) request.related = related;
    return this.enqueue(request);
  }

  enqueue(request) {
    this.latestId = request.id;
    if (this.inFlight) {
      this.pending = request;
    } else {
      this.send(request);
    }
    return request.id;
  }

  send(request) {
    this.inFlight = { id: request.id, started: performance.now(), timer: undefined };
    if (this.workerReady) this.startWatchdog();
    this.handlers.onBusy?.(true);
    this.worker.postMessage(request);
  }

  startWatchdog() {
    if (!this.inFlight || this.inFlight.timer !== undefined) return;
    this.inFlight.started = performance.now();
    this.inFlight.timer = setTimeout(() => this.stopRunaway(), this.timeoutMs);
  }

  receive(message) {
    if (message.type === 'ready') {
      this.workerReady = true;
      this.startWatchdog();
      this.handlers.onReady?.(message);
      return;
    }
    if (message.type === 'fatal') {
      this.handlers.onFatal?.(message.message);
      return;
    }
    if (message.type === 'decoded' || message.type === 'answer') {
      const pending = this.decodes.get(message.id);
      if (message.error) pending?.reject(new Error(message.error));
      else pending?.resolve(message.type === 'decoded' ? message.state : message.result);
      return;
    }
    if (message.type !== 'result' || message.id !== this.inFlight?.id) return;
    this.lastRunMs = performance.now() - this.inFlight.started;
    // After a trap the worker is replaced before anything else is sent to it.
    if (message.trapped) this.replace();
    this.finish();
    if (message.id === this.latestId) this.handlers.onResult?.(message);
  }

  stopRunaway() {
    const stopped = this.inFlight;
    if (!stopped) return;
    this.replace();
    this.finish();
    if (stopped.id === this.latestId) {
      this.handlers.onTimeout?.({ id: stopped.id, ms: performance.now() - stopped.started });
    }
  }

  finish() {
    clearTimeout(this.inFlight?.timer);
    this.inFlight = undefined;
    const next = this.pending;
    this.pending = undefined;
    if (next) {
      this.send(next);
    } else {
      this.handlers.onBusy?.(false);
    }
  }
}

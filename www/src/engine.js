// The page's side of the evaluation worker: run ids, one run in flight at a time, the newest
// request waiting behind it, and a watchdog that terminates a runaway worker and starts a fresh
// one. Only the result of the newest request is ever delivered, so a stale result can never
// overwrite a newer one.

export class Engine {
  /**
   * @param {object} handlers
   * @param {(info: {version: string, catalogSize: number}) => void} handlers.onReady
   * @param {(result: object) => void} handlers.onResult    result of the newest run
   * @param {(run: {id: number, ms: number}) => void} handlers.onTimeout  the newest run was stopped
   * @param {(busy: boolean) => void} handlers.onBusy
   * @param {(message: string) => void} handlers.onFatal
   * @param {number} [timeoutMs]
   */
  constructor(handlers, timeoutMs = 2000) {
    this.handlers = handlers;
    this.timeoutMs = timeoutMs;
    this.nextId = 1;
    this.latestId = 0;
    this.inFlight = undefined;
    this.pending = undefined;
    this.restarts = 0;
    this.start();
  }

  start() {
    this.worker = new Worker(new URL('worker.js', document.baseURI), { type: 'module' });
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      this.handlers.onFatal?.(event.message || 'the evaluation worker failed');
    };
  }

  /** Queues a run of this state; returns its id. */
  run(state) {
    const request = { type: 'run', id: this.nextId++, definition: state.definition, manifest: state.manifest };
    this.latestId = request.id;
    if (this.inFlight) {
      this.pending = request;
    } else {
      this.send(request);
    }
    return request.id;
  }

  send(request) {
    const timer = setTimeout(() => this.stopRunaway(), this.timeoutMs);
    this.inFlight = { id: request.id, started: performance.now(), timer };
    this.handlers.onBusy?.(true);
    this.worker.postMessage(request);
  }

  receive(message) {
    if (message.type === 'ready') {
      this.handlers.onReady?.(message);
      return;
    }
    if (message.type === 'fatal') {
      this.handlers.onFatal?.(message.message);
      return;
    }
    if (message.type !== 'result' || message.id !== this.inFlight?.id) return;
    this.finish();
    if (message.id === this.latestId) this.handlers.onResult?.(message);
  }

  stopRunaway() {
    const stopped = this.inFlight;
    if (!stopped) return;
    this.worker.terminate();
    this.restarts += 1;
    this.start();
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

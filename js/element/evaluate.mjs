// How the elements evaluate: in a Web Worker by default (the playground's worker and its
// watchdog, `js/render/worker.js` and `js/render/engine.js`: a runaway definition is stopped and
// the worker replaced, the page never blocks), or on the page's thread with `sync` (the
// package's web entry, for pages that cannot start workers).
//
// A request is `{definition, object, pods}` (one workload) or `{all: true, objects, pods}`
// (`resolveAll` with the catalog); `pods` are related objects given apart (the core's
// `related`: which of them belong to the workload is the core's to say). The answer is the
// worker's result message: `{view, definitionDiagnostics, objectDiagnostics, error}` or
// `{batch, error}`. Only the newest request
// of an evaluator is answered with a result; an older one that is still waiting gets
// `{stale: true}`.

import { Engine, timeoutFrom } from '../render/engine.js';
import { createWorker, loadApi, loadCel } from './load.mjs';

/** An object or pods as the worker's text: text as is, an array as a List. */
function asText(value) {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  return JSON.stringify(Array.isArray(value) ? { apiVersion: 'v1', kind: 'List', items: value } : value);
}

/** Related objects for `resolve`: read by the core from any form (text, a List, an array, an object). */
function relatedObjects(api, pods) {
  const text = asText(pods);
  return text === undefined ? undefined : api.parseObjects(text).objects;
}

export class WorkerEvaluator {
  /** `timeout`: the `timeout` attribute (ms, clamped to 100 ms .. 60 s), or `null` for `defaultMs`. */
  constructor(timeout, defaultMs = undefined) {
    this.waiting = undefined;
    this.engine = new Engine(
      {
        onResult: (message) => this.settle(message),
        onTimeout: ({ ms }) => this.settle({ error: `evaluation stopped after ${Math.round(ms)} ms (the watchdog replaced the worker)` }),
        onFatal: (message) => this.settle({ error: `the engine could not start: ${message}` }),
      },
      timeoutFrom(timeout ?? defaultMs),
      createWorker,
    );
  }

  evaluate(request) {
    this.waiting?.resolve({ stale: true });
    return new Promise((resolve) => {
      this.waiting = { resolve };
      if (request.all) {
        this.engine.runAll({ objects: request.objects, related: request.pods ?? undefined });
      } else if (request.definition === 'catalog') {
        // The catalog path is resolveAll of the one object: the same lookup the table makes.
        this.engine.runAll({ objects: request.object, related: request.pods ?? undefined });
      } else {
        this.engine.run({ definition: request.definition, manifest: asText(request.object), pods: asText(request.pods) });
      }
    }).then((message) => (request.definition === 'catalog' && !request.all ? fromBatch(message) : message));
  }

  settle(message) {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve(message);
  }

  close() {
    this.settle({ stale: true });
    this.engine.worker.terminate();
  }
}

/**
 * One workload's result from a `resolveAll` of its object: the first workload the catalog
 * knows (as the playground picks one), else the first; when the object holds no workload, the
 * core's reasons (`unowned`).
 */
function fromBatch(message) {
  if (message.stale || message.error || !message.batch) return message;
  const items = message.batch.items;
  const item = items.find((i) => i.view) ?? items[0];
  const objectDiagnostics = [...message.batch.diagnostics, ...(item?.diagnostics ?? [])];
  if (!item) {
    const reasons = (message.batch.unowned ?? []).map((u) => ({ source: 'object', ...u.diagnostic }));
    objectDiagnostics.push(...reasons);
    if (!reasons.some((d) => d.severity === 'error'))
      objectDiagnostics.push({ code: 'object/invalid', severity: 'error', message: 'no workload in the object given', path: '', source: 'object' });
  }
  return { view: item?.view ?? null, definitionDiagnostics: [], objectDiagnostics, error: null };
}

export class SyncEvaluator {
  constructor() {
    this.compiled = { text: undefined, definition: undefined };
    this.latest = 0;
  }

  async evaluate(request) {
    const id = ++this.latest;
    let api;
    try {
      api = await loadApi();
    } catch (error) {
      return { error: `the engine could not start: ${error.message}` };
    }
    if (id !== this.latest) return { stale: true };
    try {
      if (request.all) {
        const options = request.pods === undefined || request.pods === null ? { catalog: true } : { catalog: true, related: request.pods };
        return { batch: api.resolveAll(request.objects, options), error: null };
      }
      if (request.definition === 'catalog') {
        const options = request.pods === undefined || request.pods === null ? { catalog: true } : { catalog: true, related: request.pods };
        return fromBatch({ batch: api.resolveAll(request.object, options) });
      }
      if (this.compiled.text !== request.definition) {
        // A definition that holds CEL needs the CEL module before it compiles (fetched once).
        if (api.needsCel(request.definition)) await loadCel(api).catch(() => {});
        if (id !== this.latest) return { stale: true };
        this.compiled.definition?.free();
        this.compiled = { text: request.definition, definition: new api.Definition(request.definition) };
      }
      const definition = this.compiled.definition;
      const related = relatedObjects(api, request.pods);
      const view = definition.resolve(request.object, related ? { related } : undefined);
      return { view, definitionDiagnostics: definition.diagnostics, objectDiagnostics: [], error: null };
    } catch (error) {
      if (error?.code === 'WORKLOAD_MAP_STALE_DEFINITION' || error?.code === 'WORKLOAD_MAP_ENGINE_RESTARTED')
        this.compiled = { text: undefined, definition: undefined };
      const carried = error?.diagnostics;
      if (Array.isArray(carried) && carried.length) return { view: null, definitionDiagnostics: [], objectDiagnostics: carried, error: null };
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  close() {
    this.latest += 1;
    this.compiled.definition?.free();
    this.compiled = { text: undefined, definition: undefined };
  }
}

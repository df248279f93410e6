// The evaluation worker. It owns the engine (wasm) so a runaway expression blocks only this
// thread; the page terminates and recreates the worker when a run overstays its time.
//
// Protocol (all messages are plain data):
//   page -> worker  {type: 'run', id, definition, manifest}
//   worker -> page  {type: 'ready', version, catalogSize}
//                   {type: 'result', id, view, definitionDiagnostics, objectDiagnostics, error, ms}
//                   {type: 'fatal', message}        the engine could not start

import { Definition, catalog, init, version } from 'workload-map';

/** The compiled definition is kept while its text is unchanged: compile once, evaluate many. */
let compiled = { text: undefined, definition: undefined };

const ready = (async () => {
  await init(new URL('engine.wasm', self.location.href));
  let catalogSize = 0;
  try {
    catalogSize = catalog?.list?.().length ?? 0;
  } catch {
    catalogSize = 0;
  }
  self.postMessage({ type: 'ready', version: String(version), catalogSize });
})().catch((error) => {
  self.postMessage({ type: 'fatal', message: messageOf(error) });
  throw error;
});

self.onmessage = async (event) => {
  const message = event.data;
  if (message?.type !== 'run') return;
  await ready;
  self.postMessage(run(message));
};

function run({ id, definition, manifest }) {
  const started = performance.now();
  let definitionDiagnostics = [];
  let view = null;
  let error = null;
  let objectDiagnostics = [];
  try {
    const compiledDefinition = compile(definition);
    definitionDiagnostics = plain(compiledDefinition.diagnostics ?? []);
    view = plain(compiledDefinition.resolve(manifest));
  } catch (caught) {
    // Problems in the input come back as diagnostics; an exception may still carry them (e.g. a
    // manifest that is not YAML at all), and anything else is reported, never swallowed.
    const carried = caught?.diagnostics ?? (caught?.diagnostic ? [caught.diagnostic] : undefined);
    if (Array.isArray(carried) && carried.length > 0) {
      objectDiagnostics = plain(carried).map((d) => ({ source: 'object', ...d }));
    } else {
      error = messageOf(caught);
    }
  }
  return { type: 'result', id, view, definitionDiagnostics, objectDiagnostics, error, ms: performance.now() - started };
}

function compile(text) {
  if (compiled.text !== text) {
    compiled.definition?.free?.();
    compiled = { text, definition: new Definition(text) };
  }
  return compiled.definition;
}

/** Views cross postMessage as plain JSON (no Maps, no wasm handles). */
function plain(value) {
  return JSON.parse(JSON.stringify(value, (_, v) => (v instanceof Map ? Object.fromEntries(v) : v)));
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

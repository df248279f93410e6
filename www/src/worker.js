// The evaluation worker. It owns the engine (wasm) so a runaway expression blocks only this
// thread; the page terminates and recreates the worker when a run overstays its time.
//
// Protocol (all messages are plain data):
//   page -> worker  {type: 'run', id, definition, manifest, trapForTests?}
//                   {type: 'decode', id, hash}        read a share link (untrusted input)
//   worker -> page  {type: 'ready', version, catalogSize}
//                   {type: 'result', id, view, definitionDiagnostics, objectDiagnostics, error, trapped, ms}
//                   {type: 'decoded', id, state?, error?}
//                   {type: 'fatal', message}        the engine could not start
//
// `trapped: true` means the engine stopped on this input (a WebAssembly trap); the package has
// restarted it, but the page replaces this worker anyway so that nothing of the old instance's
// memory stays. `trapForTests` makes the run trap on purpose (the package's internal
// `__trapForTests`); only the end-to-end tests send it.

import { Definition, __trapForTests, catalog, init, version } from 'workload-map';
import { decodeShare } from './state.js';

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
  if (message?.type === 'decode') {
    // Needs no engine: answered at once, even while the wasm is still loading.
    decodeShare(String(message.hash)).then(
      (state) => self.postMessage({ type: 'decoded', id: message.id, state }),
      (error) => self.postMessage({ type: 'decoded', id: message.id, error: messageOf(error) }),
    );
    return;
  }
  if (message?.type !== 'run') return;
  await ready;
  self.postMessage(run(message));
};

function run({ id, definition, manifest, trapForTests }) {
  const started = performance.now();
  let definitionDiagnostics = [];
  let view = null;
  let error = null;
  let trapped = false;
  let objectDiagnostics = [];
  try {
    if (trapForTests) __trapForTests();
    const compiledDefinition = compile(definition);
    definitionDiagnostics = plain(compiledDefinition.diagnostics ?? []);
    view = plain(compiledDefinition.resolve(manifest));
  } catch (caught) {
    // Problems in the input come back as diagnostics; an exception may still carry them (e.g. a
    // manifest that is not YAML at all), and anything else is reported, never swallowed.
    const carried = caught?.diagnostics ?? (caught?.diagnostic ? [caught.diagnostic] : undefined);
    if (caught?.code === 'WORKLOAD_MAP_ENGINE_RESTARTED' || caught?.code === 'WORKLOAD_MAP_STALE_DEFINITION') {
      // The compiled definition belonged to the stopped instance; never touch it again.
      compiled = { text: undefined, definition: undefined };
      trapped = true;
      error = messageOf(caught);
    } else if (Array.isArray(carried) && carried.length > 0) {
      objectDiagnostics = plain(carried).map((d) => ({ source: 'object', ...d }));
    } else {
      error = messageOf(caught);
    }
  }
  return { type: 'result', id, view, definitionDiagnostics, objectDiagnostics, error, trapped, ms: performance.now() - started };
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

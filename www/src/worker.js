// The playground's evaluation worker: the package's worker core (js/render/worker.js: runs,
// `resolveAll`, the engine's start and restarts; its protocol is described there) and what only
// the playground asks of it:
//
//   page -> worker  {type: 'decode', id, hash}        read a share link (untrusted input)
//                   {type: 'draft', id, manifest}     draft a definition from the workload object
//                   {type: 'case', id, ...as run}     a run that also returns its objects (a test case)
//                   {type: 'cases', id, definition, cases}  the saved cases' texts run with a
//                   definition text (the core's runCase), for the Test cases card's live verdicts
//                   {type: 'schema' | 'schemaCheck' | 'schemaFields' | 'schemaDraft', id, ...}
//                   the API schema loaded on the page: see schema-worker.js (answers as 'answer')
//                   a run's `trapForTests`            trap the engine on purpose (end-to-end tests)
//   worker -> page  {type: 'decoded', id, state?, error?}
//                   {type: 'answer', id, result}      to draft ({text, diagnostics}), case
//                   (a result plus definitionText, workload and related) and cases
//                   ({results: [{passed, failed: [{label, path, expected, actual, note?}], errors}]}
//                   or {error} when the definition does not compile)
//
// The trap is the package's internal test hook `__trapForTests` (pkg/test-hooks.mjs, which
// www/build.mjs maps `workload-map/test-hooks` to; not in the package's `exports`).

import { Manifest, draft } from 'workload-map';
import { __trapForTests } from 'workload-map/test-hooks';
import { pickWorkload } from '../../js/render/follow.js';
import { compile, hooks, messageOf, onMessage, plain, run } from '../../js/render/worker.js';
import { decodeShare } from './state.js';
import { SCHEMA_MESSAGES, answerSchema } from './schema-worker.js';

hooks.trap = __trapForTests;
hooks.answer.draft = (message) => draftFrom(String(message.manifest ?? ''));
hooks.answer.case = caseOf;
hooks.answer.cases = casesWith;
for (const type of SCHEMA_MESSAGES) hooks.answer[type] = answerSchema;

self.onmessage = (event) => {
  const message = event.data;
  if (message?.type === 'decode') {
    // Needs no engine: answered at once, even while the wasm is still loading.
    decodeShare(String(message.hash)).then(
      (state) => self.postMessage({ type: 'decoded', id: message.id, state }),
      (error) => self.postMessage({ type: 'decoded', id: message.id, error: messageOf(error) }),
    );
    return;
  }
  return onMessage(event);
};

/** A starting definition drafted from the manifest's workload object (the core's first workload). */
function draftFrom(manifest) {
  let input = manifest;
  const read = new Manifest(manifest);
  try {
    if (read.diagnostics.length === 0 && read.count > 1) {
      // Only the workload object crosses, not every object of the manifest.
      const workload = pickWorkload(plain(read.reading).workloads);
      input = read.object(workload?.index ?? 0);
    }
  } finally {
    read.free();
  }
  // One object goes as text, so that what the draft says about it points into the editor.
  const drafted = plain(draft(input));
  return { text: drafted.text, diagnostics: drafted.diagnostics };
}

/** A run whose answer also holds the workload, its related objects and the definition's text. */
function caseOf(message) {
  const { result, definitionText, objects } = run(message, { objects: true });
  return { ...result, definitionText, workload: objects?.workload ?? null, related: objects?.related ?? [] };
}

/**
 * The saved cases run with a definition text, as `workload-map test` runs them (the core's
 * runCase): whether each passes, and its failed expectations as the core wrote them.
 */
function casesWith(message) {
  let definition;
  try {
    definition = compile(String(message.definition ?? ''));
  } catch (error) {
    return { error: messageOf(error) };
  }
  const results = (Array.isArray(message.cases) ? message.cases : []).map((text) => {
    try {
      const result = plain(definition.runCase(String(text)));
      return {
        passed: result.passed,
        failed: result.expectations
          .filter((e) => !e.passed)
          .map(({ label, path, expected, actual, note }) => ({ label, path, expected, actual, ...(note ? { note } : {}) })),
        errors: result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
      };
    } catch (error) {
      return { passed: false, failed: [], errors: [messageOf(error)] };
    }
  });
  return { results };
}

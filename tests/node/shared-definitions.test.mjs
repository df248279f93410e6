// Compiling a definition text that was compiled before is a lookup and a handle: the engine
// shares one compiled definition between every handle made from the same text (src/cache.rs),
// observed without timing through the compile counter of the test hooks (pkg/test-hooks.cjs).
// Handles stay independent: freeing one leaves the others working. What no handle holds is
// bounded: the 16 most recently used definitions (`cache::RECENT`) stay compiled.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

import * as wm from 'workload-map';

import { fixture, root } from './helpers.mjs';

const hooks = createRequire(import.meta.url)(path.join(root, 'pkg', 'test-hooks.cjs'));

/** How many definitions the engine's instance has compiled. */
const compiled = () => hooks.__compiledForTests();

/** How many compiles `run` costs. */
function compilesOf(run) {
  const start = compiled();
  run();
  return compiled() - start;
}

const RECENT = 16;
const JOBSET = wm.catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet').text;
const SEED = fixture('seed-jobset.yaml');

/** The catalog's JobSet text, made a text no other test compiles. */
const text = (name) => `${JOBSET}\n# ${name}\n`;

test('two_thousand_definitions_of_one_text_compile_once', () => {
  const handles = [];
  const compiles = compilesOf(() => {
    for (let i = 0; i < 2_000; i += 1) handles.push(new wm.Definition(text('two thousand')));
  });
  assert.equal(compiles, 1);
  const view = handles[0].resolve(SEED);
  assert.equal(view.resources.gpus, 12);
  assert.deepEqual(handles[1_999].resolve(SEED), view);
  for (const handle of handles) handle.free();
});

test('different_texts_compile_apart_and_each_once', () => {
  const a = text('a');
  const b = text('b');
  assert.equal(
    compilesOf(() => [new wm.Definition(a), new wm.Definition(b)]),
    2,
  );
  assert.equal(
    compilesOf(() => [new wm.Definition(a), new wm.Definition(b), new wm.Definition(a)]),
    0,
  );
  // A plain object is another source than its text (its views carry no definition ranges).
  const object = { apiVersion: 'run.ai/v1alpha1', kind: 'Karta', metadata: { name: 'as-object' } };
  assert.equal(
    compilesOf(() => {
      for (let i = 0; i < 100; i += 1) new wm.Definition(object);
    }),
    1,
  );
  assert.equal(
    compilesOf(() => new wm.Definition(JSON.stringify(object))),
    1,
  );
});

test('freeing_one_handle_leaves_the_others_made_from_the_same_text_working', () => {
  const first = new wm.Definition(text('free'));
  const second = new wm.Definition(text('free'));
  const view = first.resolve(SEED);
  first.free();
  assert.throws(
    () => first.resolve(SEED),
    (error) => error instanceof TypeError && /used after free\(\)/.test(error.message),
  );
  assert.deepEqual(second.resolve(SEED), view);
  assert.deepEqual(second.diagnostics, []);
  assert.equal(second.name, 'jobset-x-k8s-io-jobset-v1alpha2');
  // Freed twice, or after the other: each handle only drops its own reference.
  first.free();
  const third = new wm.Definition(text('free'));
  second.free();
  assert.deepEqual(third.resolve(SEED), view);
  third.free();
});

test('every_call_given_a_definition_text_shares_its_compile', () => {
  const shared = text('calls');
  assert.equal(
    compilesOf(() => {
      wm.validate(shared);
      for (let i = 0; i < 100; i += 1) wm.resolve(shared, SEED);
      const definition = new wm.Definition(shared);
      definition.free();
      wm.suspend(shared, SEED);
      wm.resolveAll(SEED, { definitions: [shared] });
    }),
    1,
  );
});

test('the_recently_used_stay_compiled_after_their_handles_are_freed_and_no_more', () => {
  const texts = Array.from({ length: RECENT + 1 }, (_, i) => text(`recent ${i}`));
  const compileAndFree = (t) => new wm.Definition(t).free();
  assert.equal(
    compilesOf(() => texts.forEach(compileAndFree)),
    RECENT + 1,
  );
  // The last RECENT are kept; the first was let go and compiles again.
  assert.equal(
    compilesOf(() => texts.slice(1).forEach(compileAndFree)),
    0,
  );
  assert.equal(
    compilesOf(() => compileAndFree(texts[0])),
    1,
  );
  // A held definition is shared however many others came since.
  const held = new wm.Definition(text('held'));
  for (let i = 0; i < 2 * RECENT; i += 1) compileAndFree(text(`other ${i}`));
  assert.equal(
    compilesOf(() => new wm.Definition(text('held')).free()),
    0,
  );
  held.free();
});

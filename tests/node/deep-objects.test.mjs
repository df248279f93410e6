// Plain objects nested deeper than the one nesting limit (128 levels, `yaml::MAX_DEPTH`), given
// to every entry that takes JavaScript objects, through the package as users get it (pkg/).
// Each object is measured before the engine serialises it, so however deep it is (5,000 levels
// used to run `JSON.stringify` out of stack, which restarted the engine and made every
// Definition compiled before stale) the answer is the `syntax/too-large` diagnostic with the
// path where the limit was passed, on that object alone, or a TypeError for an option; the
// engine is not restarted and what was compiled and read before keeps working.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

import * as wm from 'workload-map';

import { assertNoHang, fixture, root } from './helpers.mjs';

const hooks = createRequire(import.meta.url)(path.join(root, 'pkg', 'test-hooks.cjs'));

const MAX_DEPTH = 128;
const DEPTHS = [MAX_DEPTH + 1, 1_000, 5_000, 100_000];

const JOBSET = wm.catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet').text;
const SEED = wm.parseObjects(fixture('seed-jobset.yaml')).objects[0];

// Compiled and read before any deep object is given: they must keep working.
const before = new wm.Definition(JOBSET);
const manifestBefore = new wm.Manifest(fixture('seed-jobset.yaml'));
const seedView = before.resolve(SEED);
const manifestView = before.resolve(manifestBefore);

// ----- the helpers that touch the API -------------------------------------------------------------

/** `{a: {a: … 1}}`, `levels` objects deep. */
function nested(levels) {
  let value = 1;
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
}

/** A JobSet whose nesting is `levels` deep in all (its `spec` holds the rest). */
function deepJobSet(levels, name = 'deep') {
  return { apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', metadata: { name }, spec: nested(levels - 1) };
}

/** Where a deep object of `deepJobSet` passes the limit, as the diagnostic names it. */
const PAST = `spec${'.a'.repeat(MAX_DEPTH - 1)}`;

/** `code path` of each diagnostic that has no place in a text, `code line:column` of the others. */
const named = (diagnostics) => diagnostics.map((d) => (d.line ? `${d.code} ${d.line}:${d.column}` : `${d.code} ${d.path}`));

/** Runs `call` under the hang guard, and checks the engine kept its instance. */
function call(what, run) {
  const compiled = hooks.__compiledForTests();
  const started = performance.now();
  const result = run();
  assertNoHang(performance.now() - started, what);
  // The compile counter belongs to the instance: a restart would start it again from 0.
  assert.ok(hooks.__compiledForTests() >= compiled, `${what}: the engine was restarted`);
  return result;
}

/** Checks that what was compiled and read before still works as it did. */
function stillWorking(what) {
  assert.deepEqual(before.resolve(SEED), seedView, `${what}: the Definition made before`);
  assert.deepEqual(before.resolve(manifestBefore), manifestView, `${what}: the Manifest read before`);
}

// ----- cases --------------------------------------------------------------------------------------

test('resolve_of_a_deep_object_is_the_diagnostic_at_the_path_past_the_limit', () => {
  for (const levels of DEPTHS) {
    const object = deepJobSet(levels);
    for (const [what, run] of [
      ['resolve(text, object)', () => wm.resolve(JOBSET, object)],
      ['Definition#resolve(object)', () => before.resolve(object)],
      ['resolve(definition, object)', () => wm.resolve(before, object)],
    ]) {
      const view = call(`${what} ${levels}`, run);
      assert.deepEqual(view.phases, ['Undefined'], `${what} ${levels}`);
      assert.equal(view.root, null);
      const problems = view.diagnostics.filter((d) => d.source === 'object');
      assert.deepEqual(named(problems), [`syntax/too-large ${PAST}`], `${what} ${levels}`);
      assert.equal(problems[0].message, `the object nests deeper than ${MAX_DEPTH} levels`);
    }
    stillWorking(`resolve ${levels}`);
  }
});

test('an_object_as_deep_as_the_limit_is_read_by_every_entry', () => {
  // readManifest and resolveAll used to refuse objects from about 124 levels (a TypeError).
  const object = deepJobSet(MAX_DEPTH);
  assert.deepEqual(named(before.resolve(object).diagnostics.filter((d) => d.code === 'syntax/too-large')), []);
  const reading = wm.readManifest([object]);
  assert.deepEqual(reading.diagnostics, []);
  assert.deepEqual(
    reading.workloads.map((w) => w.index),
    [0],
  );
  const all = wm.resolveAll([object], { catalog: true });
  assert.deepEqual(all.diagnostics, []);
  assert.equal(all.items.length, 1);
  assert.ok(all.items[0].view);
});

test('read_manifest_names_the_deep_object_and_reads_the_others_at_their_indices', () => {
  for (const levels of DEPTHS) {
    const alone = call(`readManifest([deep]) ${levels}`, () => wm.readManifest([deepJobSet(levels)]));
    assert.deepEqual(named(alone.diagnostics), [`syntax/too-large items[0].${PAST}`], `${levels}`);
    assert.deepEqual(alone.workloads, []);
    assert.deepEqual(alone.unowned, []);

    const mixed = call(`readManifest([deep, seed], { related: [deep] }) ${levels}`, () =>
      wm.readManifest([deepJobSet(levels), SEED], { related: [deepJobSet(levels, 'deep-related')] }),
    );
    assert.deepEqual(named(mixed.diagnostics), [`syntax/too-large items[0].${PAST}`, `syntax/too-large items[2].${PAST}`], `${levels}`);
    assert.deepEqual(
      mixed.workloads.map((w) => [w.index, w.name]),
      [[1, 'train-llm']],
    );
    stillWorking(`readManifest ${levels}`);
  }
});

test('one_deep_object_in_a_resolve_all_batch_is_a_diagnostic_and_every_other_item_resolves', () => {
  for (const levels of DEPTHS) {
    for (const options of [{ catalog: true }, { definitions: [JOBSET] }]) {
      const other = { ...SEED, metadata: { ...SEED.metadata, name: 'second' } };
      const result = call(`resolveAll([seed, deep, second]) ${levels}`, () => wm.resolveAll([SEED, deepJobSet(levels), other], options));
      assert.deepEqual(named(result.diagnostics), [`syntax/too-large items[1].${PAST}`], `${levels}`);
      assert.deepEqual(
        result.items.map((item) => [item.index, item.name, item.view?.resources.gpus]),
        [
          [0, 'train-llm', 12],
          [2, 'second', 12],
        ],
      );
      assert.deepEqual(result.items[0].view, seedView);
    }
    // Given apart, as related objects: the same, named by the reading's index.
    const related = call(`resolveAll([seed], { related: [deep] }) ${levels}`, () => wm.resolveAll([SEED], { catalog: true, related: [deepJobSet(levels)] }));
    assert.deepEqual(named(related.diagnostics), [`syntax/too-large items[1].${PAST}`]);
    assert.deepEqual(related.items[0].view.resources.gpus, 12);
    stillWorking(`resolveAll ${levels}`);
  }
});

test('a_refreshed_batch_with_a_deep_object_is_resolved_in_full_and_names_it', () => {
  // Objects without uid and version are compared by content: a deep one is no refresh.
  const bare = (object) => ({ ...object, metadata: { name: object.metadata.name } });
  const first = wm.resolveAll([bare(SEED), bare({ ...SEED, metadata: { name: 'second' } })], { catalog: true });
  assert.deepEqual(first.diagnostics, []);
  for (const levels of DEPTHS) {
    const result = call(`refresh with deep ${levels}`, () => wm.resolveAll([bare(SEED), deepJobSet(levels)], { catalog: true }));
    assert.deepEqual(named(result.diagnostics), [`syntax/too-large items[1].${PAST}`], `${levels}`);
    assert.deepEqual(
      result.items.map((item) => item.index),
      [0],
    );
  }
  stillWorking('refresh');
});

test('every_other_entry_that_takes_objects_answers_a_deep_one_the_same_way', () => {
  const definitionObject = (levels) => ({ apiVersion: 'run.ai/v1alpha1', kind: 'Karta', metadata: { name: 'deep' }, spec: nested(levels - 1) });
  for (const levels of DEPTHS) {
    const object = deepJobSet(levels);
    // As a related object of one resolve: a problem of that view, the workload still read.
    const view = call(`resolve(seed, { related: [deep] }) ${levels}`, () => before.resolve(SEED, { related: [object] }));
    assert.deepEqual(named(view.diagnostics.filter((d) => d.code === 'syntax/too-large')), [`syntax/too-large related[0].${PAST}`]);
    assert.equal(view.resources.gpus, 12);
    // A definition given as an object: compiled into nothing, saying why.
    const definition = call(`new Definition(deep) ${levels}`, () => new wm.Definition(definitionObject(levels)));
    assert.deepEqual(named(definition.diagnostics), [`syntax/too-large ${PAST}`]);
    assert.equal(definition.valid, false);
    definition.free();
    assert.equal(
      call(`needsCel(deep) ${levels}`, () => wm.needsCel(definitionObject(levels))),
      false,
    );
    // Edits and drafts of the object.
    for (const [what, run] of [
      ['suspend', () => wm.suspend(before, object)],
      ['resume', () => before.resume(object)],
      ['draft', () => wm.draft(object)],
    ]) {
      const result = call(`${what} ${levels}`, run);
      assert.deepEqual(named(result.diagnostics.filter((d) => d.source === 'object')), [`syntax/too-large ${PAST}`], `${what} ${levels}`);
    }
    // A manifest's related objects.
    const manifest = call(`new Manifest(text, { related: [deep] }) ${levels}`, () => new wm.Manifest(fixture('seed-jobset.yaml'), { related: [object] }));
    assert.deepEqual(named(manifest.relatedDiagnostics), [`syntax/too-large items[1].${PAST}`]);
    assert.deepEqual(before.resolve(manifest).resources, seedView.resources);
    manifest.free();
    // A merge patch is an option: past the limit it is misuse, a TypeError.
    assert.throws(
      () =>
        call(`editPodSpec merge ${levels}`, () =>
          before.editPodSpec(SEED, { component: 'replicatedjob', instance: 'workers', merge: { spec: nested(levels - 1) } }),
        ),
      (error) => error instanceof TypeError && /merge cannot be read: the object nests deeper than 128 levels \(at `spec\.a\.a/.test(error.message),
    );
    stillWorking(`other entries ${levels}`);
  }
});

test('an_object_of_more_values_than_its_text_may_hold_is_refused_before_it_is_serialised', () => {
  // Shared parts are written out once per reference: 2^26 leaves, about 128 MB as JSON text,
  // past the 64 MiB a text may hold (the values past yaml::MAX_OBJECT_VALUES are not counted).
  let shared = [1, 1];
  for (let i = 0; i < 25; i += 1) shared = [shared, shared];
  const object = { apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', metadata: { name: 'wide' }, spec: { shared } };
  const view = call('resolve of 2^26 shared leaves', () => before.resolve(object));
  assert.deepEqual(
    view.diagnostics.filter((d) => d.source === 'object').map((d) => d.code),
    ['syntax/too-large'],
  );
  assert.match(view.diagnostics.find((d) => d.source === 'object').message, /more than 33554433 values/);
  const all = call('resolveAll with it', () => wm.resolveAll([object, SEED], { catalog: true }));
  assert.deepEqual(named(all.diagnostics), ['syntax/too-large items[0]']);
  assert.deepEqual(
    all.items.map((item) => item.index),
    [1],
  );
  stillWorking('many values');
});

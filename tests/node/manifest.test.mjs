// `Manifest`: a manifest text read once (and the related objects' text with it), kept in the
// engine. Everything it gives is what the calls that read the text again give: its diagnostics
// are `parseObjects(text).diagnostics`, its reading `readManifest` of those objects, `object(i)`
// `parseObjects(text).objects[i]`, and a definition resolves it into the very view
// `resolve(text, { workload, related })` gives (places in the text included).
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';

import * as wm from 'workload-map';

import { fixture, root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const cjs = require('workload-map');
const hooks = require(path.join(root, 'pkg', 'test-hooks.cjs'));

const jobset = new wm.Definition(wm.catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet').text);
const job = new wm.Definition(wm.catalog.find('batch/v1', 'Job').text);

// A multi-document stream: a JobSet, its Job, the Job's pod and a pod of nothing given.
const STREAM = `${fixture('seed-jobset.yaml').replace('  namespace: ml-team\n', '  namespace: ml-team\n  uid: js-1\n')}---
apiVersion: batch/v1
kind: Job
metadata:
  name: train-llm-workers-0
  namespace: ml-team
  uid: job-1
  ownerReferences: [{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: train-llm, uid: js-1, controller: true}]
spec: {parallelism: 2, template: {spec: {containers: [{name: main}]}}}
---
apiVersion: v1
kind: Pod
metadata:
  name: train-llm-workers-0-0-abcde
  namespace: ml-team
  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: train-llm-workers-0, uid: job-1, controller: true}]
spec: {nodeName: gpu-1, containers: [{name: main, resources: {limits: {nvidia.com/gpu: 4}}}]}
status: {phase: Running, conditions: [{type: Ready, status: "True"}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: ml-team}
spec: {containers: [{name: web}]}
`;

const LIST = fixture('jobset-with-pods-list.yaml');
const listObjects = wm.parseObjects(LIST).objects;
/** The List's JobSet as JSON text of its own, and its Jobs and pods as a text given apart. */
const TRAIN = JSON.stringify(listObjects[0], null, 2);
const TRAIN_RELATED = listObjects
  .slice(1)
  .map((o) => JSON.stringify(o))
  .join('\n---\n');

// name -> [manifest text, related text or objects (undefined: none given)]
const CASES = {
  list: [LIST, undefined],
  stream: [STREAM, undefined],
  'syntax error': ['apiVersion: v1\nkind: Pod\nmetadata: {name: [\n', undefined],
  empty: ['', undefined],
  'non-object documents': [`- a list\n---\njust text\n---\n${fixture('seed-jobset.yaml')}`, undefined],
  'related text': [TRAIN, TRAIN_RELATED],
  'related text with a syntax error': [TRAIN, 'kind: Pod\nmetadata: {name: [\n'],
  'related objects': [TRAIN, listObjects.slice(1)],
  'related with a stream': [STREAM, TRAIN_RELATED],
};

/** What the calls that read the text again give, and the Manifest's answers, side by side. */
function both(text, related) {
  const parsed = wm.parseObjects(text);
  const relatedObjects = typeof related === 'string' ? wm.parseObjects(related).objects : related;
  const manifest = new wm.Manifest(text, related === undefined ? undefined : { related });
  return { parsed, relatedObjects, manifest };
}

/** The result of `run()`, or the error it threw as `{threw: [type, message]}`. */
function outcome(run) {
  try {
    return run();
  } catch (error) {
    return { threw: [error.constructor.name, error.message] };
  }
}

describe('Manifest gives what reading the text again gives', () => {
  for (const [name, [text, related]] of Object.entries(CASES)) {
    test(`${name}: diagnostics, count, objects and reading`, () => {
      const { parsed, relatedObjects, manifest } = both(text, related);
      assert.deepEqual(manifest.diagnostics, parsed.diagnostics);
      assert.equal(manifest.count, parsed.objects.length);
      for (let i = 0; i < parsed.objects.length; i++) assert.deepEqual(manifest.object(i), parsed.objects[i], `object ${i}`);
      const all = [...parsed.objects, ...(relatedObjects ?? [])];
      assert.equal(manifest.relatedCount, relatedObjects?.length ?? 0);
      for (let i = parsed.objects.length; i < all.length; i++) assert.deepEqual(manifest.object(i), all[i], `related object ${i}`);
      assert.equal(manifest.object(all.length), undefined);
      assert.deepEqual(manifest.relatedDiagnostics, typeof related === 'string' ? wm.parseObjects(related).diagnostics : []);
      assert.deepEqual(manifest.reading, wm.readManifest(parsed.objects, relatedObjects ? { related: relatedObjects } : undefined));
      manifest.free();
    });

    test(`${name}: each definition resolves it as it resolves the text`, () => {
      const { parsed, relatedObjects, manifest } = both(text, related);
      // Every object, none named, and one past the end (a TypeError for both).
      const picks = [undefined, ...parsed.objects.keys(), parsed.objects.length, 7];
      for (const definition of [jobset, job]) {
        for (const workload of picks) {
          const options = {};
          if (relatedObjects) options.related = relatedObjects;
          if (workload !== undefined) options.workload = workload;
          const expected = outcome(() => definition.resolve(text, options));
          const given = workload === undefined ? undefined : { workload };
          assert.deepEqual(
            outcome(() => definition.resolve(manifest, given)),
            expected,
            `${definition.name}, workload ${workload}`,
          );
          assert.deepEqual(
            outcome(() => wm.resolve(definition, manifest, given)),
            expected,
          );
          assert.deepEqual(
            outcome(() => definition.resolve(manifest, { ...given, explain: false })),
            outcome(() => definition.resolve(text, { ...options, explain: false })),
          );
        }
      }
      manifest.free();
    });
  }

  test('the views point into the text, and a definition given as text resolves it too', () => {
    const manifest = new wm.Manifest(STREAM);
    const view = jobset.resolve(manifest);
    assert.equal(view.name, 'train-llm');
    // The pod of nothing given is a workload of its own (a bare Pod), not one of the JobSet's.
    assert.deepEqual(view.pods, { total: 1, attributed: 1, unattributed: [] });
    const workers = view.root.instances[0].children.find((c) => c.name === 'replicatedjob').instances.find((i) => i.id === 'workers');
    assert.equal(STREAM.slice(workers.source.object.start, workers.source.object.end).split('\n')[0], 'name: workers');
    assert.deepEqual(wm.resolve(wm.catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet').text, manifest), jobset.resolve(STREAM));
    manifest.free();
  });

  test('require and import share the class', () => {
    const manifest = new cjs.Manifest(STREAM);
    assert.ok(manifest instanceof wm.Manifest);
    assert.equal(jobset.resolve(manifest).name, 'train-llm');
    manifest[Symbol.dispose]();
    assert.throws(() => manifest.count, TypeError);
  });

  test('misuse throws a TypeError', () => {
    for (const text of [undefined, 3, { kind: 'Pod' }]) assert.throws(() => new wm.Manifest(text), TypeError);
    assert.throws(() => new wm.Manifest('', { related: 3 }), TypeError);
    assert.throws(() => new wm.Manifest('', { related: [1] }), TypeError);
    assert.throws(() => new wm.Manifest('', []), TypeError);
    const manifest = new wm.Manifest(STREAM);
    for (const index of [-1, 0.5, '1', undefined]) assert.throws(() => manifest.object(index), TypeError, String(index));
    // Its related objects are its own: given again to resolve is a mistake, not a merge.
    assert.throws(() => jobset.resolve(manifest, { related: [] }), TypeError);
    assert.throws(() => jobset.resolve(manifest, { workload: -1 }), TypeError);
    manifest.free();
  });

  test('calls that take text or objects refuse a Manifest instead of reading it as {}', () => {
    const manifest = new wm.Manifest(STREAM);
    const refusals = [
      () => wm.parseObjects(manifest),
      () => wm.readManifest(manifest),
      () => wm.readManifest([], { related: manifest }),
      () => wm.resolveAll(manifest, { catalog: true }),
      () => wm.resolveAll([], { catalog: true, related: manifest }),
      () => wm.draft(manifest),
      () => wm.suspend(jobset, manifest),
      () => wm.resume(jobset, manifest),
      () => wm.editPodSpec(jobset, manifest, { component: 'x', merge: {} }),
      () => jobset.suspend(manifest),
      () => jobset.resume(manifest),
      () => jobset.editPodSpec(manifest, { component: 'x', merge: {} }),
    ];
    for (const refuse of refusals) assert.throws(refuse, { name: 'TypeError', message: /not a Manifest/ }, String(refuse));
    manifest.free();
  });

  test('after free() it throws a TypeError, and free() is idempotent', () => {
    const manifest = new wm.Manifest(STREAM);
    manifest.free();
    manifest.free();
    for (const use of [() => manifest.count, () => manifest.reading, () => manifest.object(0), () => jobset.resolve(manifest)])
      assert.throws(use, (error) => error instanceof TypeError && /used after free\(\)/.test(error.message));
  });
});

describe('Manifest across an engine restart', () => {
  test('a manifest read before the restart throws the stale error and never reaches the new instance', () => {
    const before = new wm.Manifest(STREAM, { related: TRAIN_RELATED });
    assert.throws(
      () => hooks.__trapForTests(),
      (error) => error.code === 'WORKLOAD_MAP_ENGINE_RESTARTED',
    );
    const fresh = new wm.Definition(wm.catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet').text);
    const compiled = hooks.__compiledForTests();
    const uses = {
      diagnostics: () => before.diagnostics,
      relatedDiagnostics: () => before.relatedDiagnostics,
      count: () => before.count,
      relatedCount: () => before.relatedCount,
      reading: () => before.reading,
      object: () => before.object(0),
      resolve: () => fresh.resolve(before),
      'resolve()': () => wm.resolve(fresh, before, { workload: 0 }),
    };
    for (const [member, use] of Object.entries(uses)) {
      assert.throws(
        use,
        (error) => error.code === 'WORKLOAD_MAP_STALE_MANIFEST' && /read before the engine was restarted/.test(error.message) && !(error instanceof TypeError),
        member,
      );
    }
    // Freeing it does not call into the new instance (which still answers as before).
    before.free();
    assert.equal(hooks.__compiledForTests(), compiled);
    const after = new wm.Manifest(STREAM);
    assert.deepEqual(fresh.resolve(after), fresh.resolve(STREAM));
    after.free();
  });
});

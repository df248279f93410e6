// resolveAll: every workload of a List of mixed types with its catalog definition, through the
// built package. The List here is a JobSet with its Jobs and Pods plus a pod of another
// application; the expected views come from resolve() on the same objects.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import * as wm from 'workload-map';
import { parse } from 'yaml';

import { fixture, root } from './helpers.mjs';

const text = fixture('jobset-with-pods-list.yaml');
const { objects } = wm.parseObjects(text);
const jobset = objects.find((o) => o.kind === 'JobSet');
const related = objects.filter((o) => o !== jobset);
const definition = wm.catalog.find(jobset.apiVersion, jobset.kind);

/** The workloads of a result: [kind, name, catalog definition]. */
function rows(result) {
  return result.items.map((item) => [item.kind, item.name, item.definition?.name ?? null]);
}

describe('resolveAll', () => {
  test('text, an array and a List object give the same workloads, each with its catalog definition', () => {
    const fromText = wm.resolveAll(text, { catalog: true });
    // Only a text says where each instance was written (`source.object`); otherwise the same.
    const places = [];
    const unplaced = JSON.parse(JSON.stringify(fromText), (key, value) => {
      if (key === 'source' && value && typeof value === 'object' && 'object' in value) {
        places.push(value.object);
        const { object: _, ...rest } = value;
        return rest;
      }
      return value;
    });
    assert.ok(places.length > 0 && places.every((p) => p.line >= 1 && p.column >= 1), JSON.stringify(places));
    assert.deepEqual(unplaced, wm.resolveAll(objects, { catalog: true }));
    assert.deepEqual(unplaced, wm.resolveAll({ apiVersion: 'v1', kind: 'List', items: objects }, { catalog: true }));
    assert.equal(fromText.items.find((i) => i.kind === 'JobSet').definition.name, definition.name);
    assert.deepEqual(fromText.diagnostics, []);
  });

  test('objects whose controller is in the List are parts of a workload, not rows; a missing owner hides nothing', () => {
    const result = wm.resolveAll(objects, { catalog: true });
    const uids = new Set(objects.map((o) => o.metadata?.uid).filter(Boolean));
    const owned = objects.filter((o) => o.metadata?.ownerReferences?.some((r) => r.controller && uids.has(r.uid)));
    assert.equal(result.items.length, objects.length - owned.length);
    for (const item of result.items) assert.ok(!owned.includes(objects[item.index]));
    // The web pod's ReplicaSet is not in the List: it stands on its own, with a note.
    const web = result.items.find((i) => i.kind === 'Pod');
    assert.ok(web.view.diagnostics.some((d) => d.code === 'object/owner-not-in-input'));
    assert.deepEqual(result.unowned, []);
  });

  test('readManifest names the same workloads and gives each its related objects', () => {
    const reading = wm.readManifest(objects);
    const result = wm.resolveAll(objects, { catalog: true });
    assert.deepEqual(
      reading.workloads.map((w) => w.index),
      result.items.map((i) => i.index),
    );
    const js = reading.workloads.find((w) => w.kind === 'JobSet');
    assert.deepEqual(
      js.related.map((i) => objects[i].kind).sort(),
      related
        .filter((o) => o.kind !== 'Pod' || o.metadata.name.startsWith('train'))
        .map((o) => o.kind)
        .sort(),
    );
  });

  test('the_jobset_view_is_what_resolve_gives_with_its_own_pods', () => {
    const item = wm.resolveAll(objects, { catalog: true }).items.find((i) => i.kind === 'JobSet');
    const own = wm
      .readManifest(objects)
      .workloads.find((w) => w.kind === 'JobSet')
      .related.map((i) => objects[i]);
    const alone = wm.resolve(definition.text, jobset, { related: own });
    // The JobSet resolved alone with what belongs to it is the same to the last field.
    assert.deepEqual(item.view, alone);
  });

  test('pods given apart are shared out the same way', () => {
    const apart = wm.resolveAll([jobset], { catalog: true, pods: related });
    const together = wm.resolveAll(objects, { catalog: true }).items.find((i) => i.kind === 'JobSet');
    assert.deepEqual(apart.items[0].view, together.view);
  });

  test('a workload the catalog has no definition for is a row with object/no-catalog-definition', () => {
    const unknown = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns', creationTimestamp: '2026-01-01T00:00:00Z' } };
    const result = wm.resolveAll([unknown, jobset], { catalog: true });
    assert.deepEqual(rows(result), [
      ['Widget', 'w', null],
      ['JobSet', jobset.metadata.name, definition.name],
    ]);
    assert.equal(result.items[0].view, null);
    assert.equal(result.items[0].creationTimestamp, '2026-01-01T00:00:00Z');
    assert.deepEqual(
      result.items[0].diagnostics.map((d) => [d.code, d.severity, d.path]),
      [['object/no-catalog-definition', 'warning', 'items[0]']],
    );
  });

  test('without pods no view has pods', () => {
    const result = wm.resolveAll([jobset], { catalog: true });
    assert.equal(result.items[0].view.pods, undefined);
  });

  test('a List text that does not parse gives located diagnostics', () => {
    const result = wm.resolveAll('apiVersion: v1\nkind: List\nitems: [\n', { catalog: true });
    assert.deepEqual(result.items, []);
    assert.equal(result.diagnostics[0].code, 'syntax/invalid');
    assert.ok(result.diagnostics[0].line >= 1);
  });

  test('options without catalog: true are a TypeError', () => {
    assert.throws(() => wm.resolveAll(objects, {}), TypeError);
    assert.throws(() => wm.resolveAll(objects), TypeError);
    assert.throws(() => wm.resolveAll([1, 2], { catalog: true }), TypeError);
  });
});

describe('resolveAll reads what resolve reads', () => {
  const jobsetWith = (replicas) => ({
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    metadata: { name: 'nan', namespace: 'ml' },
    spec: {
      replicatedJobs: [
        { name: 'w', replicas, template: { spec: { template: { spec: { containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': 8 } } }] } } } } },
      ],
    },
  });

  for (const [label, value] of [
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
  ]) {
    test(`${label} replicas give the same diagnostic and lower bound through resolveAll as through resolve`, () => {
      const object = jobsetWith(value);
      const alone = wm.resolve(definition.text, object);
      const [item] = wm.resolveAll([object], { catalog: true }).items;
      const codes = (view) => view.diagnostics.map((d) => d.code).filter((c) => c.startsWith('object/'));
      assert.ok(codes(alone).includes('object/replicas-not-a-number'), JSON.stringify(alone.diagnostics));
      assert.deepEqual(codes(item.view), codes(alone));
      assert.equal(item.view.resources.incomplete, true);
      assert.equal(item.view.resources.text.gpus, alone.resources.text.gpus);
    });
  }
});

describe('resolveAll refreshes', () => {
  test('a refresh where some objects changed gives what a full resolve of the same List gives', async () => {
    const { clusterList } = await import('../../scripts/bench-scale.mjs');
    const items = clusterList(60, 4);
    const first = wm.resolveAll(items, { catalog: true });
    // Unchanged: the same answer from the views kept.
    assert.deepEqual(wm.resolveAll(items, { catalog: true }), first);
    // Some pods fail, one JobSet is suspended, one pod goes, all with new resourceVersions;
    // an object without uid or resourceVersion counts by its content.
    const changed = items.slice();
    for (let at = 2; at < changed.length; at += 37) {
      if (changed[at].kind !== 'Pod') continue;
      changed[at] = { ...changed[at], metadata: { ...changed[at].metadata, resourceVersion: '2' }, status: { phase: 'Failed' } };
    }
    changed[6 * 12] = { ...changed[6 * 12], metadata: { ...changed[6 * 12].metadata, resourceVersion: '2' }, spec: { ...changed[6 * 12].spec, suspend: true } };
    changed.splice(9 * 6 + 3, 1);
    const bare = changed.findIndex((o) => o.kind === 'JobSet' && o.metadata.name === 'train-20');
    const { uid: _, resourceVersion: __, ...metadata } = changed[bare].metadata;
    changed[bare] = { ...changed[bare], metadata, status: { conditions: [{ type: 'Completed', status: 'True' }] } };
    const refreshed = wm.resolveAll(changed, { catalog: true });
    const full = wm.resolveAll(
      changed.map((o) => ({ ...o, metadata: { ...o.metadata, resourceVersion: `${o.metadata.resourceVersion ?? ''}-full` } })),
      { catalog: true },
    );
    assert.deepEqual(refreshed, full);
    assert.notDeepEqual(refreshed, first);
    assert.deepEqual(refreshed.items.find((i) => i.name === 'train-20').view.phases, full.items.find((i) => i.name === 'train-20').view.phases);
  });
  test('a refresh sends only the changed objects, keeps the unchanged entries, and equals a full resolve', async () => {
    const { clusterList } = await import('../../scripts/bench-scale.mjs');
    const items = clusterList(40, 3);
    const pods = items.filter((o) => o.kind === 'Pod');
    const bare = { ...items[0], metadata: { name: 'bare', namespace: 'bench' } };
    const owners = [...items.filter((o) => o.kind !== 'Pod'), bare];
    const bump = (o, version) => ({ ...o, metadata: { ...o.metadata, resourceVersion: version } });
    // Each call below refreshes the one before (a full resolve in between would be the last).
    const first = wm.resolveAll(owners, { catalog: true, related: pods });
    // Pods of three workloads fail (new resourceVersions): those three entries are new, every
    // other entry is the last result's own object.
    const changedPods = pods.slice();
    for (const at of [1, 31, 100]) changedPods[at] = { ...bump(pods[at], '2'), status: { phase: 'Failed' } };
    const second = wm.resolveAll(owners, { catalog: true, related: changedPods });
    const newer = (now, before) => now.items.filter((item, k) => item !== before.items[k]).map((item) => item.name);
    assert.deepEqual(newer(second, first), ['train-0', 'train-10', 'train-33']);
    // A workload changes (suspended), and an object without uid counts by its content.
    const changedOwners = owners.slice();
    changedOwners[4] = { ...bump(owners[4], '3'), spec: { ...owners[4].spec, suspend: true } };
    changedOwners[owners.length - 1] = { ...bare, status: { conditions: [{ type: 'Completed', status: 'True' }] } };
    const third = wm.resolveAll(changedOwners, { catalog: true, related: changedPods });
    assert.deepEqual(newer(third, second), ['train-2', 'bare']);
    assert.notDeepEqual(third.items.at(-1).view.phases, second.items.at(-1).view.phases);
    // Changes the reading sees are resolved in full: a pod given to another workload, objects
    // in another order, one object fewer.
    const moved = changedPods.slice();
    moved[0] = { ...bump(moved[0], '4'), metadata: { ...bump(moved[0], '4').metadata, ownerReferences: changedPods[5].metadata.ownerReferences } };
    const fourth = wm.resolveAll(changedOwners, { catalog: true, related: moved });
    assert.ok(fourth.items.every((item, k) => item !== third.items[k]));
    const reordered = changedOwners.slice().reverse();
    const fifth = wm.resolveAll(reordered, { catalog: true, related: moved });
    const fewer = moved.slice(1);
    const sixth = wm.resolveAll(reordered, { catalog: true, related: fewer });
    // Every answer is what a full resolve of the same objects gives (new resourceVersions
    // everywhere: nothing is taken from an earlier call).
    const full = (objects, related) =>
      wm.resolveAll(
        objects.map((o) => bump(o, `${o.metadata.resourceVersion}-full`)),
        { catalog: true, related: related.map((o) => bump(o, `${o.metadata.resourceVersion}-full`)) },
      );
    assert.deepEqual(second, full(owners, changedPods));
    assert.deepEqual(third, full(changedOwners, changedPods));
    assert.deepEqual(fourth, full(changedOwners, moved));
    assert.deepEqual(fifth, full(reordered, moved));
    assert.deepEqual(sixth, full(reordered, fewer));
  });
});

describe('resolveAll with definitions over the catalog', () => {
  // A cluster's Karta for batch/v1 Job (a definition of its own, read in place of the
  // catalog's); every other type keeps the catalog's.
  const caseObject = (dir, file) => parse(readFileSync(path.join(root, 'catalog', dir, 'tests', file), 'utf8')).object;
  const job = caseObject('batch-job-v1', 'running.yaml');
  const deployment = caseObject('apps-deployment-v1', 'running.yaml');
  const karta = parse(wm.catalog.get('batch-job-v1').text);
  karta.metadata = { name: 'team-job' };
  karta.spec.structureDefinition.rootComponent.statusDefinition.statusMappings = {
    degraded: [{ byExpression: { expression: '(.status.active // 0) > 0', expectedResult: 'true' } }],
  };
  const text = JSON.stringify(karta);

  test('definitions with catalog: true replace the catalog per type and leave the other types to it', () => {
    const result = wm.resolveAll([job, deployment], { definitions: [text], catalog: true });
    const [readJob, readDeployment] = result.items;
    assert.equal(readJob.given, 0);
    assert.equal(readJob.definition, null);
    assert.equal(readJob.view.definition.name, 'team-job');
    assert.deepEqual(readJob.view.phases, ['Degraded']);
    assert.equal(readDeployment.given, undefined);
    assert.deepEqual(readDeployment.definition, { name: 'apps-deployment-v1', exactVersion: true });
    assert.deepEqual(readDeployment.view.phases, wm.resolveAll([deployment], { catalog: true }).items[0].view.phases);
    // The catalog alone reads the Job as Running; the definitions alone leave the Deployment out.
    assert.deepEqual(wm.resolveAll([job], { catalog: true }).items[0].view.phases, ['Running']);
    assert.deepEqual(
      wm.resolveAll([job, deployment], { definitions: [text] }).items.map((i) => i.kind),
      ['Job'],
    );
  });

  test('a given definition for another version of a type does not replace the catalog for this one', () => {
    const other = structuredClone(karta);
    other.spec.structureDefinition.rootComponent.kind.version = 'v2';
    const [read] = wm.resolveAll([job], { definitions: [JSON.stringify(other)], catalog: true }).items;
    assert.equal(read.given, undefined);
    assert.equal(read.definition.name, 'batch-job-v1');
  });
});

describe('resolveAll with given definitions', () => {
  test('the_same_definition_texts_are_compiled_once_across_calls_and_give_the_same_views', () => {
    // A fresh process: the compile counter is per engine instance. An exporter passes the
    // definitions in force (the catalog's and the cluster's Kartas) with every refresh.
    const script = `
      import { createRequire } from 'node:module';
      import * as wm from 'workload-map';
      const hooks = createRequire(import.meta.url)('./pkg/test-hooks.cjs');
      const texts = wm.catalog.list().map((e) => wm.catalog.get(e.name).text);
      const { objects } = wm.parseObjects(process.argv[1]);
      const counts = [hooks.__compiledForTests()];
      const first = wm.resolveAll(objects, { definitions: texts });
      counts.push(hooks.__compiledForTests());
      const again = wm.resolveAll(objects, { definitions: texts });
      counts.push(hooks.__compiledForTests());
      // One text changed: only it is compiled; the texts the call before had are kept.
      const changed = texts.map((t, i) => (i === 0 ? t + '\\n# changed\\n' : t));
      wm.resolveAll(objects, { definitions: changed });
      counts.push(hooks.__compiledForTests());
      wm.resolveAll(objects, { definitions: texts.slice(1) });
      counts.push(hooks.__compiledForTests());
      const same = JSON.stringify(first) === JSON.stringify(again);
      const catalog = wm.resolveAll(objects, { catalog: true });
      console.log(JSON.stringify({ counts, same, n: texts.length, phases: [first, catalog].map((r) => r.items.map((i) => i.view?.phases)) }));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, text], { cwd: root, encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    const { counts, same, n, phases } = JSON.parse(child.stdout);
    assert.deepEqual(counts, [0, n, n, n + 1, n + 1]);
    assert.ok(same, 'the second call gives what the first gave');
    assert.deepEqual(phases[0], phases[1], 'given the catalog texts, the views are the catalog views');
  });
});

// Provenance through the built package: the view's source ranges are UTF-16 offsets and 1-based
// UTF-16 lines/columns of the texts the caller gave, also with emoji and CJK text before them.
// The JobSet case is the Rust fixture's (tests/fixtures/provenance), read in place.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import * as wm from 'workload-map';

import { component, root } from './helpers.mjs';

const jobsetCase = wm.parseObjects(readFileSync(path.join(root, 'tests', 'fixtures', 'provenance', 'jobset-two-replicated-jobs.yaml'), 'utf8')).objects[0];

/** `[line, column]` of a UTF-16 offset, counted here in JavaScript (1-based). */
function lineColumn(text, offset) {
  const before = text.slice(0, offset).split('\n');
  return [before.length, before[before.length - 1].length + 1];
}

/** Checks that a range's offsets and its lines/columns name the same places of `text`. */
function assertConsistent(text, range) {
  assert.deepEqual([range.line, range.column], lineColumn(text, range.start));
  assert.deepEqual([range.endLine, range.endColumn], lineColumn(text, range.end));
}

test('component and matcher ranges are UTF-16 places after a comment with emoji and CJK', () => {
  const { definition, object } = jobsetCase;
  assert.match(definition, /🚀 作業/);
  const view = wm.resolve(definition, object);
  const job = component(view, 'jobset/replicatedjob');
  const range = job.source.definition;
  assert.equal(range.line, 21);
  assert.equal(range.column, 9);
  assertConsistent(definition, range);
  assert.ok(definition.slice(range.start, range.end).startsWith('name: replicatedjob'));
  assert.ok(definition.slice(range.start, range.end).endsWith('.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]'));
  const matcher = view.status.mappings.find((m) => m.status === 'Running').matchers[0];
  assertConsistent(definition, matcher.source.definition);
  assert.ok(definition.slice(matcher.source.definition.start).startsWith('byConditions:'));
});

test('instances carry their JSON Pointer and their range in the object text', () => {
  const { definition, object } = jobsetCase;
  const view = wm.resolve(definition, object);
  assert.deepEqual(view.root.instances[0].source.pointer, '');
  const workers = component(view, 'jobset/replicatedjob[workers]');
  assert.equal(workers.source.pointer, '/spec/replicatedJobs/1');
  assert.equal(workers.source.object.line, 17);
  assert.equal(workers.source.object.column, 5);
  assertConsistent(object, workers.source.object);
  assert.ok(object.slice(workers.source.object.start).startsWith('name: workers'));
});

test('columns count UTF-16 code units of non-ASCII text on the same line', () => {
  const definition = `apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: t}
spec:
  structureDefinition:
    rootComponent:
      name: 根
      kind: {group: example.com, version: v1, kind: Thing}
      statusDefinition: {statusMappings: {running: [{byPhase: "🏃"}, {byPhase: Running}]}}
    childComponents: [{name: "作業🚀", ownerRef: 根}, {name: w, ownerRef: 根, specDefinition: {podSpecPath: .spec.pod}}]
`;
  const object = 'apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: "名前🚀"}\nspec: {pod: {containers: [{name: c}]}}\n';
  const view = wm.resolve(definition, object);
  const w = view.root.instances[0].children.find((c) => c.name === 'w');
  // `    childComponents: [{name: "作業🚀", ownerRef: 根}, ` is 51 UTF-16 code units (59 bytes).
  assert.equal(w.source.definition.line, 10);
  assert.equal(w.source.definition.column, 52);
  assertConsistent(definition, w.source.definition);
  assert.ok(definition.slice(w.source.definition.start).startsWith('{name: w,'));
  const second = view.status.mappings[0].matchers[1].source.definition;
  assert.equal(definition.slice(second.start, second.end), '{byPhase: Running}');
  assertConsistent(definition, second);
  const pod = w.instances[0].source;
  assert.equal(pod.pointer, '/spec/pod');
  assert.equal(object.slice(pod.object.start, pod.object.end), '{containers: [{name: c}]}');
  assertConsistent(object, pod.object);
});

test('plain objects have pointers but no ranges', () => {
  const { definition, object } = jobsetCase;
  const plainObject = wm.parseObjects(object).objects[0];
  const view = wm.resolve(definition, plainObject);
  const workers = component(view, 'jobset/replicatedjob[workers]');
  assert.deepEqual(workers.source, { pointer: '/spec/replicatedJobs/1' });
  const plainDefinition = wm.parseObjects(definition).objects[0];
  const fromObject = wm.resolve(plainDefinition, object);
  assert.deepEqual(component(fromObject, 'jobset/replicatedjob').source, {});
  assert.deepEqual(fromObject.status.mappings[0].matchers[0].source, {});
  assert.equal(component(fromObject, 'jobset/replicatedjob[workers]').source.object.line, 17);
});

test('a workload picked out of a List keeps its places in the List text', () => {
  const { definition, object } = jobsetCase;
  const body = object
    .replace(/^# .*\n/, '')
    .trimEnd()
    .split('\n')
    .map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`))
    .join('\n');
  const list = `apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: p}}\n${body}\n`;
  const view = wm.resolve(definition, list, { workload: 1, pods: [wm.parseObjects(list).objects[0]] });
  const workers = component(view, 'jobset/replicatedjob[workers]');
  assert.equal(workers.source.pointer, '/spec/replicatedJobs/1');
  assertConsistent(list, workers.source.object);
  assert.ok(list.slice(workers.source.object.start).startsWith('name: workers'));
  assert.throws(() => wm.resolve(definition, list, { workload: 2 }), TypeError);
  assert.throws(() => wm.resolve(definition, list, { workload: -1 }), TypeError);
  // Without `workload`, the core's reading picks the workload of the definition's type.
  assert.deepEqual(wm.resolve(definition, list, { pods: [] }), wm.resolve(definition, list, { workload: 1, pods: [] }));
});

// resolve(object, { explain: false }): the lean view is the full view without
// status.mappings, for plain objects and text, through Definition.resolve and resolve().
import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as wm from 'workload-map';

import { fixture } from './helpers.mjs';

const catalogText = (apiVersion, kind) => wm.catalog.find(apiVersion, kind).text;
const listed = wm.parseObjects(fixture('jobset-with-pods-list.yaml')).objects;

// [what, definition text, object (text or plain object), related objects or undefined]
const cases = [
  ['seed JobSet, text', fixture('jobset-definition.yaml'), fixture('seed-jobset.yaml')],
  ['seed JobSet, object', fixture('jobset-definition.yaml'), wm.parseObjects(fixture('seed-jobset.yaml')).objects[0]],
  [
    'catalog JobSet with pods',
    catalogText('jobset.x-k8s.io/v1alpha2', 'JobSet'),
    listed.find((o) => o.kind === 'JobSet'),
    { pods: listed.filter((o) => o.kind === 'Pod'), owners: listed.filter((o) => o.kind === 'Job') },
  ],
  ['catalog Pod', catalogText('v1', 'Pod'), fixture('pod.yaml')],
  ['RayCluster', catalogText('ray.io/v1', 'RayCluster'), fixture('raycluster-two-groups.yaml')],
  ['invalid definition', fixture('invalid-definition.yaml'), 'apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: x}\n'],
  ['unreadable object', fixture('jobset-definition.yaml'), 'kind: ['],
];

function withoutExplanations(view) {
  const { mappings, ...status } = view.status;
  assert.ok(Array.isArray(mappings), 'the full view explains its mappings');
  return { ...view, status };
}

for (const [what, definitionText, object, related] of cases) {
  test(`lean_view_equals_full_view_minus_mappings: ${what}`, () => {
    const definition = new wm.Definition(definitionText);
    const full = definition.resolve(object, related);
    const lean = definition.resolve(object, { ...related, explain: false });
    assert.equal('mappings' in lean.status, false);
    assert.deepEqual(lean, withoutExplanations(full));
    assert.deepEqual(wm.resolve(definitionText, object, { ...related, explain: false }), lean);
    assert.deepEqual(definition.resolve(object, { ...related, explain: true }), full);
    definition.free();
  });
}

test('lean_view_leaves_out_explanations_that_the_full_view_has', () => {
  const full = wm.resolve(fixture('jobset-definition.yaml'), fixture('seed-jobset.yaml'));
  assert.ok(full.status.mappings.length > 0);
  const lean = wm.resolve(fixture('jobset-definition.yaml'), fixture('seed-jobset.yaml'), { explain: false });
  assert.ok(JSON.stringify(lean).length < JSON.stringify(full).length);
});

test('explain_must_be_a_boolean', () => {
  for (const explain of ['no', 0, null, {}]) {
    assert.throws(() => wm.resolve(fixture('jobset-definition.yaml'), fixture('seed-jobset.yaml'), { explain }), TypeError);
  }
});

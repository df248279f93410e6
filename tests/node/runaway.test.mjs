// Runaway jq expressions in the real wasm module: each ends with `expr/budget-exceeded` as a
// diagnostic next to its matcher, never a trap, and the same module keeps working afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Definition } from 'workload-map';

import { fixture, fixturePath } from './helpers.mjs';

const RUNAWAY = [
  'def f: f + 1; f',
  'def f: ., f; [f] | length',
  '[limit(100000000; def r: ., (.+1|r); 0|r)] | length',
  '0 | until(false; .+1)',
  '"x" * 100000000 | length',
  'def d: [., .]; d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d|d | tostring | length',
  'reduce (1,2,3,4,5,6,7,8,9,10) as $a (0; reduce (1,2,3,4,5,6,7,8,9,10) as $b (.; reduce (1,2,3,4,5,6,7,8,9,10) as $c (.; reduce (1,2,3,4,5,6,7,8,9,10) as $d (.; reduce (1,2,3,4,5,6,7,8,9,10) as $e (.; reduce (1,2,3,4,5,6,7,8,9,10) as $f (.; . + 1))))))',
];

function definitionWith(expression) {
  return new Definition({
    apiVersion: 'run.ai/v1alpha1',
    kind: 'Karta',
    metadata: { name: 'runaway' },
    spec: {
      structureDefinition: {
        rootComponent: {
          name: 'w',
          kind: { group: 'example.com', version: 'v1', kind: 'W' },
          statusDefinition: {
            statusMappings: {
              running: [{ byExpression: { expression, expectedResult: 'true' } }],
              failed: [{}],
            },
          },
        },
      },
    },
  });
}

test('runaway_expressions_end_with_a_budget_diagnostic_and_the_module_keeps_working', () => {
  const object = { apiVersion: 'example.com/v1', kind: 'W', metadata: { name: 'w' } };
  for (const expression of RUNAWAY) {
    const definition = definitionWith(expression);
    const view = definition.resolve(object);
    const codes = view.diagnostics.map((d) => d.code);
    assert.deepEqual(codes, ['expr/budget-exceeded'], expression);
    assert.deepEqual(view.phases, ['Failed'], expression);
  }
  const seed = new Definition(fixture('jobset-definition.yaml')).resolve(fixture('seed-jobset.yaml'));
  assert.equal(seed.resources.gpus, 12, fixturePath('seed-jobset.yaml'));
});

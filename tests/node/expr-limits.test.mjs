// Expression limits in the real wasm module. CEL operator chains and nesting that would
// overflow the parser's stack are refused when the definition is read (`expr/too-complex`,
// located in the definition text); runaway CEL evaluations and jq expressions that build
// strings without end stop with `expr/budget-exceeded`. Each call ends within two seconds,
// never with a trap, and the same module keeps working afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Definition } from 'workload-map';

import { assertNoHang, fixture, fixturePath } from './helpers.mjs';

const OBJECT = { apiVersion: 'example.com/v1', kind: 'W', metadata: { name: 'w' } };
const TEN = '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]';

/** `reduce` over 1, 2, ..., n with `update`, from `init`. */
function grows(init, update, n) {
  const items = Array.from({ length: n }, (_, i) => i + 1).join(',');
  return `reduce (${items}) as $i (${init}; ${update}) | length`;
}

/** `levels` nested `.map` calls that each double their value with `step` (`a` is the value). */
function doubled(seed, step, levels) {
  let expression = seed;
  for (let i = 0; i < levels; i += 1) {
    expression = `[${expression}].map(a${i}, ${step.replaceAll('a', `a${i}`)})[0]`;
  }
  return `size(${expression}) > 0`;
}

const TOO_COMPLEX = [
  `1${' + 1'.repeat(800)}`,
  `1${' * 1'.repeat(800)}`,
  `1${' == 1'.repeat(800)}`,
  `[0]${'[0]'.repeat(800)}`,
  `object${'.a'.repeat(800)}`,
  `${'('.repeat(200)}1${')'.repeat(200)}`,
  `${'['.repeat(200)}1${']'.repeat(200)}`,
];

const RUNAWAY = [
  ['cel', `size(${`${TEN}.map(x, `.repeat(8)}0${')'.repeat(8)}) > 0`],
  ['cel', `${`${TEN}.exists(x, `.repeat(8)}false${')'.repeat(8)}`],
  ['cel', `${`${TEN}.exists(x, object.nope || `.repeat(8)}false${')'.repeat(8)}`],
  ['cel', doubled("'xx'", 'a + a', 30)],
  ['cel', doubled('[1]', '[a, a]', 30)],
  ['jq', grows('"x"', '"\\(.)\\(.)"', 31)],
  ['jq', grows('"xxxx"', '@base64', 80)],
  ['jq', '"&" * 200000 | @html | length'],
  ['jq', '"x" * 200 | split("") | join("y" * 500000) | length'],
  ['jq', '"\u{1F600}" * 100000 | explode | . + . | implode | length'],
  ['jq', '("x" * 500000) as $s | reduce ("x" * 2000 | explode[]) as $x (0; $s | test("y"))'],
  ['jq', '("x" * 500000) as $s | reduce ("x" * 2000 | explode[]) as $x (0; $s / "" | length)'],
  ['cel', 'object.items.all(i, size(object.big) > 0)', { ...OBJECT, big: 'x'.repeat(400000), items: Array.from({ length: 2000 }, (_, i) => i) }],
];

function definitionWith(expression, language) {
  return new Definition({
    apiVersion: 'run.ai/v1alpha1',
    kind: 'Karta',
    metadata: { name: 'limits' },
    spec: {
      structureDefinition: {
        rootComponent: {
          name: 'w',
          kind: { group: 'example.com', version: 'v1', kind: 'W' },
          statusDefinition: {
            statusMappings: {
              running: [{ byExpression: { expression, expectedResult: 'true', language } }],
              failed: [{}],
            },
          },
        },
      },
    },
  });
}

/** Builds and resolves a definition with `expression`: its `expr/…` diagnostics and phases. */
function resolveWith(expression, language, object = OBJECT) {
  const start = performance.now();
  const view = definitionWith(expression, language).resolve(object);
  assertNoHang(performance.now() - start, expression.slice(0, 80));
  return { view, diagnostics: view.diagnostics.filter((d) => d.code.startsWith('expr/')) };
}

function assertStillWorks() {
  const seed = new Definition(fixture('jobset-definition.yaml')).resolve(fixture('seed-jobset.yaml'));
  assert.equal(seed.resources.gpus, 12, fixturePath('seed-jobset.yaml'));
  const largest = resolveWith(`1${' + 1'.repeat(198)} == 199`, 'cel');
  assert.deepEqual(largest.diagnostics, []);
  assert.deepEqual(largest.view.phases, ['Running', 'Failed']);
}

test('cel_chains_and_nesting_are_too_complex_at_read_time_located_and_the_module_keeps_working', () => {
  for (const expression of TOO_COMPLEX) {
    const { view, diagnostics } = resolveWith(expression, 'cel');
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['expr/too-complex'],
      expression.slice(0, 40),
    );
    const [d] = diagnostics;
    assert.equal(d.source, 'definition');
    assert.match(d.path, /byExpression\.expression$/);
    assert.ok(Number.isInteger(d.line) && Number.isInteger(d.column), JSON.stringify(d));
    assert.deepEqual(view.phases, ['Failed'], expression.slice(0, 40));
  }
  assertStillWorks();
});

test('runaway_cel_and_jq_string_growth_end_with_a_budget_diagnostic_and_the_module_keeps_working', () => {
  for (const [language, expression, object] of RUNAWAY) {
    const { view, diagnostics } = resolveWith(expression, language, object);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['expr/budget-exceeded'],
      expression.slice(0, 80),
    );
    assert.deepEqual(view.phases, ['Failed'], expression.slice(0, 80));
  }
  assertStillWorks();
});

// Bounded on every input, in the real wasm module: every call below ends in under 2 s with a
// located diagnostic (line/column in the text, or the path in a plain object), never a trap or
// an exception, and the same module keeps working afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Definition, parseObjects, resolve } from 'workload-map';

import { assertNoHang, fixture } from './helpers.mjs';

const MAX_DEPTH = 128;

const definition = new Definition(`apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: w}
spec:
  structureDefinition:
    rootComponent:
      name: w
      kind: {group: example.com, version: v1, kind: W}
      specDefinition: {podTemplateSpecPath: .spec.template}
      scaleDefinition: {replicasPath: .spec.replicas}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          initializing: [{byExpression: {expression: '.status.phase == null', expectedResult: 'true'}}]
          running: [{byPhase: Running}]
`);

/** Runs `call` under the hang guard (each test asserts the limit that bounds it). */
function timed(what, call) {
  const started = performance.now();
  const result = call();
  assertNoHang(performance.now() - started, what);
  return result;
}

/** `code line:column` (or `code path` when there is no text) of each diagnostic. */
const located = (diagnostics) => diagnostics.map((d) => (d.line ? `${d.code} ${d.line}:${d.column}` : `${d.code} ${d.path}`));

const aliasesOf = (value, count) => `big: &big ${value}\nlist: [${Array(count).fill('*big').join(', ')}]\n`;

/** `{a: {a: … 1}}` nested `levels` deep, as a plain object. */
function nested(levels) {
  let value = 1;
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
}

const pod = (replicas) => ({
  apiVersion: 'example.com/v1',
  kind: 'W',
  metadata: { name: 'w' },
  spec: { replicas, template: { spec: { containers: [{ name: 'c', resources: { requests: { 'nvidia.com/gpu': '1' } } }] } } },
});

/** A view without text positions, to compare a plain object's view with its text's. */
/** The view without places in the text: diagnostics' positions and instances' object ranges. */
function unplaced(view) {
  const withoutRanges = JSON.parse(JSON.stringify(view), (key, value) =>
    key === 'source' && value !== null && typeof value === 'object' ? (({ object, ...rest }) => rest)(value) : value,
  );
  return { ...withoutRanges, diagnostics: view.diagnostics.map(({ line, column, endLine, endColumn, ...rest }) => rest) };
}

test('aliases_are_capped_in_bytes_at_the_alias_past_the_cap', () => {
  const copies = 63; // 64 MiB of 1 MiB copies: the anchor's and 63 aliases'
  const column = 'list: ['.length + copies * '*big, '.length + 1;
  const mib = aliasesOf('x'.repeat(1024 * 1024), 99_000);
  const parsed = timed('1 MiB x 99k aliases', () => parseObjects(mib));
  assert.deepEqual(parsed.objects, []);
  assert.deepEqual(located(parsed.diagnostics), [`syntax/too-large 2:${column}`]);
  const view = timed('resolve of 10 KiB x 99k aliases', () => definition.resolve(aliasesOf('x'.repeat(10 * 1024), 99_000)));
  assert.deepEqual(view.phases, ['Undefined']);
  assert.match(located(view.diagnostics).join(), /^syntax\/too-large 2:\d+$/);
});

test('list_items_that_are_not_objects_are_located_and_skipped', () => {
  const parsed = timed('null item', () => parseObjects('kind: List\nitems: [null, 7, {kind: W}]\n'));
  assert.deepEqual(parsed.objects, [{ kind: 'W' }]);
  assert.deepEqual(located(parsed.diagnostics), ['object/invalid 2:9', 'object/invalid 2:15']);
  assert.deepEqual(
    parsed.diagnostics.map((d) => d.path),
    ['items[0]', 'items[1]'],
  );
});

test('text_and_plain_objects_share_one_nesting_limit', () => {
  for (const levels of [MAX_DEPTH, MAX_DEPTH + 1, 200, 256, 1000]) {
    const object = { apiVersion: 'example.com/v1', kind: 'W', metadata: { name: 'w' }, spec: nested(levels - 1) };
    const fits = levels <= MAX_DEPTH;
    const fromObject = timed(`object nested ${levels}`, () => definition.resolve(object));
    const fromText = timed(`text nested ${levels}`, () => definition.resolve(JSON.stringify(object)));
    for (const view of [fromObject, fromText]) {
      const tooLarge = view.diagnostics.filter((d) => d.code === 'syntax/too-large');
      assert.equal(tooLarge.length, fits ? 0 : 1, `${levels}: ${JSON.stringify(view.diagnostics)}`);
      assert.deepEqual(view.phases, fits ? ['Initializing'] : ['Undefined'], `${levels}`);
    }
    if (!fits) {
      const [fromPath] = located(fromObject.diagnostics);
      assert.equal(fromPath, `syntax/too-large spec${'.a'.repeat(MAX_DEPTH - 1)}`);
      assert.match(located(fromText.diagnostics).join(), /^syntax\/too-large 1:\d+$/);
      // A definition given as an object has no text either: located by its path.
      const deepDefinition = timed(`definition nested ${levels}`, () => new Definition({ apiVersion: 'run.ai/v1alpha1', kind: 'Karta', spec: nested(levels) }));
      assert.deepEqual(located(deepDefinition.diagnostics), [`syntax/too-large spec${'.a'.repeat(MAX_DEPTH - 1)}`]);
      deepDefinition.free();
    }
  }
});

test('object_text_without_an_object_gives_an_error_and_no_phase', () => {
  for (const text of ['', '   \n', '{', '- a\n- b', '# only a comment\n', 'kind: List\nitems: [null]\n']) {
    const view = timed(JSON.stringify(text), () => resolve(definition, text));
    assert.deepEqual(view.phases, ['Undefined'], JSON.stringify(text));
    assert.equal(view.root, null);
    const errors = view.diagnostics.filter((d) => d.severity === 'error' && d.source === 'object');
    assert.equal(errors.length, 1, `${JSON.stringify(text)}: ${JSON.stringify(view.diagnostics)}`);
    assert.ok(errors[0].line >= 1 && errors[0].column >= 1, JSON.stringify(errors[0]));
  }
});

test('non_finite_numbers_in_a_plain_object_arrive_as_in_yaml_text', () => {
  for (const [number, yaml] of [
    [NaN, '.nan'],
    [Infinity, '.inf'],
    [-Infinity, '-.inf'],
  ]) {
    const fromObject = timed(`replicas ${number}`, () => definition.resolve(pod(number)));
    const text = JSON.stringify(pod(0)).replace('"replicas":0', `"replicas": ${yaml}`);
    const fromText = timed(`replicas ${yaml}`, () => definition.resolve(text));
    assert.deepEqual(unplaced(fromObject), unplaced(fromText), yaml);
    assert.notDeepEqual(unplaced(fromObject), unplaced(definition.resolve(pod(null))), `${yaml} read as null`);
  }
});

test('a_byte_order_mark_is_skipped_and_positions_stay_right', () => {
  const view = timed('BOM', () => definition.resolve('\uFEFFapiVersion: example.com/v1\nkind: W\nkind: W\n'));
  assert.deepEqual(located(view.diagnostics), ['syntax/duplicate-key 3:1']);
  const ok = definition.resolve(`\uFEFF${JSON.stringify(pod(2))}`);
  assert.equal(ok.resources.gpus, 2);
});

test('the_module_keeps_working_after_every_limit', () => {
  const seed = new Definition(fixture('jobset-definition.yaml')).resolve(fixture('seed-jobset.yaml'));
  assert.equal(seed.resources.gpus, 12);
  assert.equal(definition.resolve(pod(3)).resources.gpus, 3);
});

test('an_explicit_null_in_a_definition_reads_as_missing_and_a_top_level_status_warns', async () => {
  const { validate } = await import('workload-map');
  const base = (matcher) => `apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: w}
spec:
  structureDefinition:
    rootComponent:
      name: w
      kind: {group: example.com, version: v1, kind: W}
      statusDefinition:
        statusMappings:
          running: [{byExpression: {expression: '.x', ${matcher}}}]
`;
  const summary = (text) => timed('validate', () => validate(text)).diagnostics.map((d) => `${d.code} ${d.path}`);
  const omitted = summary(base(''));
  assert.ok(
    omitted.some((line) => line.startsWith('definition/missing-field')),
    omitted.join('\n'),
  );
  assert.deepEqual(summary(base('expectedResult: null')), omitted);
  const withStatus = timed('validate', () => validate(`${base("expectedResult: 'true'")}status: {phase: Running}\n`));
  const ignored = withStatus.diagnostics.find((d) => d.code === 'definition/status-ignored');
  assert.ok(ignored, JSON.stringify(withStatus.diagnostics));
  assert.equal(ignored.severity, 'warning');
  assert.equal(ignored.line, 12);
});

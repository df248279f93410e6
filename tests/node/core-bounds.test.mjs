// Issue 22, the core's items, through the package as users get it (pkg/): a JSON text counted
// as it is read (1), replica counts computed as NaN or an infinity (5), empty expressions (6),
// gang minimums built from an unreadable count (7) and regular expression work (8). Every call
// ends in bounded time with a diagnostic, and the module keeps working afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { catalog, Definition, parseObjects, resolve, validate } from 'workload-map';

import { assertNoHang } from './helpers.mjs';

/** Runs `call` under the hang guard (each test asserts the cap or budget that bounds it). */
function timed(what, call) {
  const started = performance.now();
  const result = call();
  assertNoHang(performance.now() - started, what);
  return result;
}

const codes = (diagnostics) => diagnostics.map((d) => d.code);

/** The first component named `name` in the tree under `c`. */
function component(c, name) {
  if (c.name === name) return c;
  for (const instance of c.instances) {
    for (const child of instance.children) {
      const found = component(child, name);
      if (found) return found;
    }
  }
  return null;
}

/** `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":[1,1,…]}}` with `count` ones, then `tail`. */
function jsonOfOnes(count, tail = '') {
  return `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":[${'1,'.repeat(count - 1)}1]${tail}}}`;
}

test('a_json_text_is_refused_at_the_value_past_the_cap_while_it_is_read', () => {
  // 2.1 million values and a syntax error at the end: the error is never reached.
  const parsed = timed('2.1M values', () => parseObjects(jsonOfOnes(2_100_000, ' @')));
  assert.deepEqual(parsed.objects, []);
  assert.deepEqual(codes(parsed.diagnostics), ['syntax/too-large']);
  assert.equal(parsed.diagnostics[0].line, 1);
  assert.match(parsed.diagnostics[0].message, /more than 2000000 values/);
  // The text: 31 million values in 62 MB (under the 64 MiB cap) took 35 s and 4.1 GB,
  // then trapped the engine.
  const huge = jsonOfOnes(31_000_000);
  assert.ok(huge.length < 64 * 1024 * 1024);
  const view = timed('31M values', () => resolve(catalog.get('core-pod-v1').text, huge));
  assert.deepEqual(codes(view.diagnostics), ['syntax/too-large']);
  // Under the cap JSON reads as before, and the module kept working.
  assert.deepEqual(parseObjects(jsonOfOnes(3)).objects, [{ apiVersion: 'v1', kind: 'ConfigMap', data: { a: [1, 1, 1] } }]);
});

test('yaml_flow_collections_are_counted_before_they_are_read', () => {
  // The YAML reader scans a flow collection that could be a key (`- [...]`) to its end before
  // its first event: it held 2.1M values as tokens (730 MB) and reported the `@` at the end.
  const text = `# a list\n- [${'1,'.repeat(2_100_000)}1, @]\n`;
  const parsed = timed('a YAML flow list of 2.1M values', () => parseObjects(text));
  assert.deepEqual(codes(parsed.diagnostics), ['syntax/too-large']);
  assert.equal(parsed.diagnostics[0].line, 2);
});

/** A one-component definition whose replicas are `replicasPath`. */
const counted = (replicasPath) => `apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: t}
spec:
  structureDefinition:
    rootComponent:
      name: set
      kind: {group: example.com, version: v1, kind: Set}
      specDefinition: {podTemplateSpecPath: .spec.template}
      scaleDefinition: {replicasPath: '${replicasPath}'}
      statusDefinition: {statusMappings: {running: [{byExpression: {expression: '.status.ready', expectedResult: 'true'}}]}}
`;

const set = {
  apiVersion: 'example.com/v1',
  kind: 'Set',
  metadata: { name: 's' },
  spec: { total: 0, perPod: 0, template: { spec: { containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': '4' } } }] } } },
};

test('replicas_computed_as_nan_or_an_infinity_are_not_a_number_and_a_lower_bound', () => {
  for (const [path, named] of [
    ['.spec.total / .spec.perPod', /\.nan .*\(NaN\)/],
    ['infinite', /\.inf .*infinity/],
    ['-infinite', /-\.inf .*infinity/],
  ]) {
    const view = resolve(counted(path), set);
    assert.deepEqual(codes(view.diagnostics), ['object/replicas-not-a-number'], path);
    assert.match(view.diagnostics[0].message, named);
    assert.equal(view.root.replicas.incomplete, true, path);
    assert.equal(view.root.replicas.desired, 0, `${path}: never the default of 1`);
    assert.equal(view.resources.incomplete, true);
  }
});

test('an_empty_or_blank_expression_is_a_validation_error_on_the_field', () => {
  const text = counted('.spec.replicas').replace("expression: '.status.ready'", "expression: '  '");
  const result = validate(text);
  assert.equal(result.valid, false);
  const empty = result.diagnostics.filter((d) => d.code === 'definition/empty-expression');
  assert.equal(empty.length, 1);
  assert.equal(empty[0].line, 11);
  assert.equal(text.split('\n')[10].slice(empty[0].column - 1, empty[0].endColumn - 1), "'  '");
  assert.deepEqual(codes(new Definition(text).diagnostics), ['definition/empty-expression']);
});

test('a_gang_minimum_from_an_unreadable_count_is_marked_incomplete', () => {
  const lws = new Definition(catalog.get('leaderworkerset-x-k8s-io-leaderworkerset-v1').text);
  for (const replicas of ['abc', 1.5, true]) {
    const view = lws.resolve({
      apiVersion: 'leaderworkerset.x-k8s.io/v1',
      kind: 'LeaderWorkerSet',
      metadata: { name: 'vllm', namespace: 'serve' },
      spec: {
        replicas,
        leaderWorkerTemplate: { size: 4, workerTemplate: { spec: { containers: [{ name: 'vllm', resources: { limits: { 'nvidia.com/gpu': '4' } } }] } } },
      },
    });
    assert.equal(component(view.root, 'group').replicas.incomplete, true, `${replicas}`);
    assert.deepEqual(view.groups, [{ name: 'group', minAvailable: 4, incomplete: true, minAvailableText: '≥ 4', members: ['group'] }], `${replicas}`);
  }
  lws.free();
});

test('regular_expression_work_ends_quickly_with_a_budget_error_that_names_it', () => {
  // Ten matchers like the (it took 32 s for one resolve).
  const running = Array.from(
    { length: 10 },
    (_, i) => `{byExpression: {expression: '[("a" * 524000) | match(""; "g")] | length + ${i}', expectedResult: '1'}}`,
  ).join(', ');
  const text = counted('1').replace(/running: \[.*\]\}\}$/m, `running: [${running}]}}`);
  const definition = new Definition(text);
  assert.deepEqual(codes(definition.diagnostics), []);
  const view = timed('ten matchers', () => definition.resolve(set));
  const budget = view.diagnostics.filter((d) => d.code === 'expr/budget-exceeded');
  assert.equal(budget.length, 10);
  for (const d of budget) assert.match(d.message, /regular expressions produced more matches/);
  const gsub = timed('gsub', () => resolve(counted('("a" * 524000) | gsub(""; "") | length'), set));
  assert.match(gsub.diagnostics.find((d) => d.code === 'expr/budget-exceeded').message, /regular expressions/);
  definition.free();
});

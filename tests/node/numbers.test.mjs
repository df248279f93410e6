// No silent wrong total, through the real wasm module and the CLI: amounts beyond what a
// JavaScript number holds exactly, negative and non-finite replica counts, and components cut by
// the 1000-result cap are diagnosed and shown as "≥ n" or "n/a", never as a rounded, clamped or
// zero number that looks exact.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import * as wm from 'workload-map';

import { assertNoHang, cli, component } from './helpers.mjs';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Resolves `objectText` with the catalog definition for its type; returns the view and the time taken. */
function resolve(objectText, apiVersion, kind) {
  const entry = wm.catalog.find(apiVersion, kind);
  assert.ok(entry, `a catalog definition for ${apiVersion} ${kind}`);
  const definition = new wm.Definition(entry.text);
  const start = performance.now();
  const view = definition.resolve(objectText);
  const ms = performance.now() - start;
  definition.free();
  return { view, ms };
}

function codes(view) {
  return view.diagnostics.map((d) => d.code);
}

/** Every number anywhere in the view is a safe integer (JSON carried it exactly). */
function assertEveryNumberExact(value, where = 'view') {
  if (typeof value === 'number') assert.ok(Number.isSafeInteger(value), `${where} = ${value} is not exact`);
  else if (Array.isArray(value)) value.forEach((v, i) => assertEveryNumberExact(v, `${where}[${i}]`));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) assertEveryNumberExact(v, `${where}.${k}`);
}

const deployment = (replicas, gpus = 2) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  replicas: ${replicas}
  template:
    spec:
      containers: [{name: c, resources: {limits: {nvidia.com/gpu: ${gpus}}}}]
`;

const jobset = (jobs, gpus = '"4"') => `apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: j}
spec:
  replicatedJobs:
${Array.from(
  { length: jobs },
  (_, i) => `  - name: job${i}
    replicas: 2
    template: {spec: {template: {spec: {containers: [{name: c, resources: {limits: {nvidia.com/gpu: ${gpus}}}}]}}}}`,
).join('\n')}
`;

const lws = (replicas, size) => `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: l}
spec:
  replicas: ${replicas}
  leaderWorkerTemplate:
    size: ${size}
    workerTemplate:
      spec:
        containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]
`;

describe('parseQuantity', () => {
  test('amounts_above_1e29_throw_a_range_error_quickly', () => {
    for (const text of ['1e1000000', '1e400', '1e30']) {
      const start = performance.now();
      assert.throws(
        () => wm.parseQuantity(text),
        (error) => {
          assert.ok(error instanceof RangeError, `${text}: ${error}`);
          assert.doesNotMatch(error.message, /\d{20}/, `${text}: the message shows a saturated number`);
          assert.match(error.message, /too large/);
          return true;
        },
      );
      assertNoHang(performance.now() - start);
    }
  });

  test('milli_value_is_null_where_a_number_would_not_be_exact', () => {
    assert.equal(wm.parseQuantity('1000E').milliValue, null);
    assert.equal(wm.parseQuantity('99999999999999999999Ti').milliValue, null);
    assert.equal(wm.parseQuantity('1000E').canonical, '1e21');
    assert.equal(wm.parseQuantity('9007199254740991m').milliValue, MAX_SAFE);
    assert.equal(wm.parseQuantity('16Gi').milliValue, 16 * 2 ** 30 * 1000);
  });

  test('format_functions_refuse_amounts_they_cannot_print_exactly', () => {
    for (const fn of ['formatCpu', 'formatMemory']) {
      for (const bad of [2 ** 53, 1e300, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        assert.throws(() => wm[fn](bad), RangeError, `${fn}(${bad})`);
      }
      assert.equal(typeof wm[fn](MAX_SAFE), 'string');
    }
  });
});

describe('resolve', () => {
  for (const [name, amount] of [
    ['int64_max', '"9223372036854775807"'],
    ['binary_capped_by_kubernetes', '"99999999999999999999Ti"'],
  ]) {
    test(`gpu_quantity_${name}_is_a_lower_bound_with_resources_overflow`, () => {
      const { view, ms } = resolve(jobset(1, amount), 'jobset.x-k8s.io/v1alpha2', 'JobSet');
      assertNoHang(ms);
      assert.deepEqual(codes(view), ['resources/overflow']);
      assert.match(view.diagnostics[0].message, /9223372036854775807/);
      assert.equal(view.resources.gpus, MAX_SAFE);
      assert.equal(view.resources.incomplete, true);
      assert.deepEqual(view.resources.lowerBounds, ['gpus', 'extended']);
      assert.equal(component(view, 'jobset/replicatedjob[job0]').podResources.incomplete, true);
      assertEveryNumberExact(view);
    });
  }

  test('nested_group_replicas_multiply_exactly_and_overflow_is_reported_once', () => {
    const { view, ms } = resolve(lws(2147483647, 2147483647), 'leaderworkerset.x-k8s.io/v1', 'LeaderWorkerSet');
    assertNoHang(ms);
    assert.deepEqual(
      codes(view).filter((c) => c === 'resources/overflow'),
      ['resources/overflow'],
    );
    assert.equal(view.resources.gpus, MAX_SAFE);
    assert.equal(view.resources.incomplete, true);
    assertEveryNumberExact(view);
  });

  test('negative_replicas_are_an_error_and_the_count_is_unknown', () => {
    const { view, ms } = resolve(deployment(-1), 'apps/v1', 'Deployment');
    assertNoHang(ms);
    const d = view.diagnostics.find((x) => x.code === 'object/replicas-negative');
    assert.ok(d, JSON.stringify(view.diagnostics));
    assert.equal(d.severity, 'error');
    assert.equal(view.root.replicas.incomplete, true);
    assert.equal(view.root.replicas.desired, 0);
    assert.deepEqual(view.resources.lowerBounds, ['gpus', 'extended']);
    assert.equal(view.root.podResources.gpus, 2);
  });

  for (const value of ['.nan', '.inf', '-.inf']) {
    test(`replicas_${value}_is_diagnosed_never_a_default_of_1`, () => {
      const { view, ms } = resolve(deployment(value), 'apps/v1', 'Deployment');
      assertNoHang(ms);
      assert.ok(codes(view).includes('object/replicas-not-a-number'), JSON.stringify(view.diagnostics));
      assert.equal(view.root.replicas.incomplete, true);
      assert.equal(view.resources.incomplete, true);
      assert.equal(view.resources.gpus, 0);
    });
  }

  test('a_jobset_past_the_1000_result_cap_is_incomplete_not_zero_gpus', () => {
    const { view, ms } = resolve(jobset(1000), 'jobset.x-k8s.io/v1alpha2', 'JobSet');
    assertNoHang(ms);
    assert.ok(codes(view).includes('expr/too-many-results'), JSON.stringify(codes(view)));
    const jobs = component(view, 'jobset/replicatedjob');
    assert.equal(jobs.resources.incomplete, true);
    assert.equal(jobs.replicas.incomplete, true);
    assert.deepEqual(view.resources.lowerBounds, ['gpus', 'cpuMillis', 'memoryBytes', 'extended']);
  });
});

describe('describe (CLI)', () => {
  /** The Resources table's rows (header first), split into cells. */
  function table(stdout) {
    const end = stdout.indexOf('\nDiagnostics:');
    return stdout
      .slice(stdout.indexOf('Resources:'), end === -1 ? undefined : end)
      .split('\n')
      .slice(1)
      .filter((line) => line && !line.startsWith('('))
      .map((line) => line.split(/ {2,}/));
  }

  /** No cell prints a number beyond 2^53 - 1 as if exact: such amounts read "≥ 9007199254740991". */
  function assertNoInexactNumber(rows, stdout) {
    for (const row of rows) {
      for (const cell of row.slice(1)) {
        assert.doesNotMatch(cell, /\d{17}/, `${cell} in\n${stdout}`);
        const plain = /^\d+$/.exec(cell);
        if (plain) assert.ok(Number.isSafeInteger(Number(cell)), `${cell} in\n${stdout}`);
        if (cell.includes(String(MAX_SAFE))) assert.match(cell, /^≥ /, `${cell} in\n${stdout}`);
      }
    }
  }

  test('quantity_overflow_rows_and_total_read_as_lower_bounds', () => {
    const start = performance.now();
    const { code, stdout } = cli(['describe', '-f', '-'], { input: jobset(1, '"9223372036854775807"') });
    assertNoHang(performance.now() - start);
    assert.equal(code, 0);
    const rows = table(stdout);
    assertNoInexactNumber(rows, stdout);
    const total = rows.find((row) => row[0] === 'TOTAL');
    assert.deepEqual(total.slice(0, 3), ['TOTAL', '2', `≥ ${MAX_SAFE}`]);
    assert.match(stdout, /warning resources\/overflow/);
  });

  test('group_product_overflow_rows_and_total_read_as_lower_bounds', () => {
    const { stdout } = cli(['describe', '-f', '-'], { input: lws(2147483647, 2147483647) });
    const rows = table(stdout);
    assertNoInexactNumber(rows, stdout);
    assert.deepEqual(rows.find((row) => row[0] === 'TOTAL').slice(2, 3), [`≥ ${MAX_SAFE}`]);
  });

  test('negative_replicas_read_n_a_not_zero', () => {
    const { code, stdout } = cli(['describe', '-f', '-'], { input: deployment(-1) });
    assert.equal(code, 1);
    const rows = table(stdout);
    assert.deepEqual(rows.find((row) => row[0] === 'TOTAL').slice(0, 3), ['TOTAL', 'n/a', 'n/a']);
    assert.match(stdout, /error object\/replicas-negative/);
  });

  test('devices_through_resource_claims_read_n_a_while_cpu_stays_exact', () => {
    const pod = `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  resourceClaims: [{name: gpus, resourceClaimTemplateName: four-gpus}]
  containers: [{name: c, resources: {requests: {cpu: "2"}, claims: [{name: gpus}]}}]
`;
    const { stdout } = cli(['describe', '-f', '-'], { input: pod });
    const rows = table(stdout);
    assert.deepEqual(rows.find((row) => row[0] === 'TOTAL').slice(2, 4), ['n/a', '2']);
  });

  test('jobset_past_the_result_cap_reads_n_a_not_zero', () => {
    const start = performance.now();
    const { code, stdout } = cli(['describe', '-f', '-'], { input: jobset(1000) });
    assertNoHang(performance.now() - start);
    assert.equal(code, 1);
    const rows = table(stdout);
    assertNoInexactNumber(rows, stdout);
    assert.deepEqual(rows.find((row) => row[0] === 'TOTAL').slice(0, 3), ['TOTAL', 'n/a', 'n/a']);
    assert.match(stdout, /error expr\/too-many-results/);
  });
});

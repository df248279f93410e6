// The CLI's Resources table over every catalog case: its rows and TOTAL are the view's `table`
// (the core's rows and amount texts, nothing recomputed), and its rows add up to its TOTAL.
// The playground and the element are held to the same in tests/www.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import YAML from 'yaml';
import * as wm from 'workload-map';

import { resourceCells } from '../../bin/resource-table.mjs';
import { cli, root } from './helpers.mjs';

/** Every catalog case's view, resolved as the case runner and the CLI resolve it. */
function catalogViews() {
  const views = [];
  const catalog = path.join(root, 'catalog');
  for (const entry of wm.catalog.list()) {
    const dir = path.join(catalog, entry.name, 'tests');
    const definition = new wm.Definition(wm.catalog.get(entry.name).text);
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .sort()) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      const found = YAML.parse(text);
      const object = found.objectFrom ? YAML.parse(readFileSync(path.join(dir, found.objectFrom), 'utf8')).object : found.object;
      if (!object || typeof object !== 'object') continue;
      const view = definition.resolve(object, found.related ? { related: found.related } : undefined);
      views.push({ name: `${entry.name}/${file}`, view });
    }
    definition.free();
  }
  return views;
}

/** A cell as a number and whether it is a lower bound: "≥ 8" → [8, true], "n/a" → [0, true]. */
function amount(cell, parse) {
  if (cell === 'n/a') return [0, true];
  if (cell.startsWith('≥ ')) return [parse(cell.slice(2)), true];
  return [parse(cell), false];
}

const whole = (text) => Number(text);
const cpu = (text) => wm.parseQuantity(text).milliValue;
const memory = (text) => wm.parseQuantity(text).value;

test('the_cli_resources_table_is_the_views_table_and_adds_up_for_every_catalog_case', () => {
  const views = catalogViews();
  assert.ok(views.length >= 200, `the catalog's cases: ${views.length}`);
  const failures = [];
  for (const { name, view } of views) {
    const { cells } = resourceCells(view);
    const rows = cells.slice(0, -1);
    const total = cells.at(-1);
    // The rows are the view's, in order, with the view's texts.
    const expected = view.table.rows.map((r) => [r.name, r.pods.text, r.total.text.gpus, r.total.text.cpu, r.total.text.memory]);
    if (JSON.stringify(rows) !== JSON.stringify(expected))
      failures.push(`${name}: rows ${JSON.stringify(rows)} are not the view's ${JSON.stringify(expected)}`);
    if (
      JSON.stringify(total) !== JSON.stringify(['TOTAL', view.table.pods.text, view.resources.text.gpus, view.resources.text.cpu, view.resources.text.memory])
    )
      failures.push(`${name}: TOTAL ${JSON.stringify(total)}`);
    // The rows add up to the TOTAL, column by column (pods and GPUs exactly; CPU and memory as
    // read, which `human` shortens, within the rounding of what is shown); a lower bound in a
    // row makes the TOTAL one.
    for (const [column, parse, tolerance] of [
      [1, whole, 0],
      [2, whole, 0],
      [3, cpu, 0.01],
      [4, memory, 0.01],
    ]) {
      let sum = 0;
      let bounded = false;
      for (const row of rows) {
        const [n, lower] = amount(row[column], parse);
        sum += n;
        bounded ||= lower;
      }
      const [t, totalLower] = amount(total[column], parse);
      if (Math.abs(sum - t) > tolerance * Math.max(sum, t)) failures.push(`${name}: column ${column} rows add up to ${sum}, TOTAL says ${total[column]}`);
      if (bounded && !totalLower) failures.push(`${name}: column ${column} has a lower bound in a row, TOTAL is exact`);
    }
  }
  assert.deepEqual(failures, []);
});

test('a_leaderworkerset_with_3_groups_reads_3_groups_in_the_cli', () => {
  const lws = wm.catalog.get('leaderworkerset-x-k8s-io-leaderworkerset-v1');
  const object = YAML.parse(readFileSync(path.join(root, 'catalog', lws.name, 'tests', 'three-groups-of-two.yaml'), 'utf8')).object;
  const { code, stdout } = cli(['describe', '-f', '-'], { input: JSON.stringify(object) });
  assert.equal(code, 0);
  assert.match(stdout, /`-- group +replicas: 3 /);
  assert.match(stdout, /\nleader +3 /);
  assert.match(stdout, /\nTOTAL +6 /);
});

test('70000000_bytes_read_70M_in_the_cli_as_in_the_view', () => {
  const input = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, resources: {requests: {memory: "70000000"}}}]}\n';
  const { stdout } = cli(['describe', '-f', '-'], { input });
  assert.match(stdout, /\nTOTAL +1 +0 +0 +70M$/m);
});

// The resources table as each front end shows it, compared with the view's `table` (the core's
// rows and totals). Three pieces, so that another front end (the CLI's table) can join the same
// comparison:
//
//   expectedTable(view)       the rows and TOTAL a front end must show, from `view.table`
//   readResourceTable(where)  runs in the page: the rows and TOTAL drawn in the DOM
//   assertAddsUp(table, what) the rows of a table add up to its TOTAL (parsed from the texts)

import assert from 'node:assert/strict';

/**
 * The rows and TOTAL a resources table shows for `view`, as texts: `{rows: [{name, pods, gpus,
 * cpu, memory}], total: {name: 'TOTAL', pods, gpus, cpu, memory}}`. The rows are
 * `view.table.rows` (pods: `pods.text`, amounts: the row's `total.text`); the TOTAL is
 * `view.table.pods` and `view.resources`.
 */
export function expectedTable(view) {
  const row = (name, pods, amounts) => ({ name, pods: pods.text, gpus: amounts.gpus, cpu: amounts.cpu, memory: amounts.memory });
  return {
    rows: view.table.rows.map((r) => row(r.name, r.pods, r.total.text)),
    total: row('TOTAL', view.table.pods, view.resources.text),
  };
}

/**
 * In the page (pass it to `page.evaluate`): the resources table drawn in `where.selector` (inside
 * the shadow root of `where.host` when given), as `expectedTable` gives it. Throws when the
 * table collapses rows (a "Show all" row) or draws a window of them: it must show every row.
 */
export function readResourceTable({ host, selector = '.resource-table' }) {
  const root = host ? document.querySelector(host)?.shadowRoot : document;
  const table = root?.querySelector(selector);
  if (!table) throw new Error(`no resources table at ${host ?? ''} ${selector}`);
  if (table.querySelector('tr.more-row, tr.spacer')) throw new Error('the table does not show every row');
  const text = (tr, cell) => tr.querySelector(`:scope > .${cell}`)?.textContent ?? null;
  const read = (tr) => ({ name: text(tr, 'name'), pods: text(tr, 'pods'), gpus: text(tr, 'gpu'), cpu: text(tr, 'cpu'), memory: text(tr, 'memory') });
  return {
    rows: Array.from(table.querySelectorAll(':scope > tbody > tr'), read),
    total: read(table.querySelector(':scope > tfoot > tr.total-row')),
  };
}

const SUFFIXES = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };

/**
 * An amount as the core writes it (`2`, `500m`, `1.5Gi`, `70M`, `≥ 16`, `n/a`): its value in
 * base units, whether it is a lower bound, and how far the text may be from the amount (the core
 * rounds to two decimals).
 */
export function parseAmount(text) {
  if (text === 'n/a') return { value: 0, lowerBound: true, error: 0 };
  const match = /^(≥ )?(\d+)(?:\.(\d+))?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(String(text));
  if (!match) throw new Error(`not an amount as the core writes one: ${JSON.stringify(text)}`);
  const unit = match[4] ? SUFFIXES[match[4]] : 1;
  const value = Number(`${match[2]}.${match[3] ?? '0'}`) * unit;
  return { value, lowerBound: Boolean(match[1]), error: match[3] ? 0.005 * unit : 0 };
}

/**
 * Asserts that the rows of `table` (`{rows, total}` of texts, as `expectedTable` and
 * `readResourceTable` give them) add up to its TOTAL, column by column: exactly (within the
 * core's rounding of each text) when no value is a lower bound; when a row's value is a lower
 * bound ("≥ n", "n/a"), the TOTAL must be one too, and at least the sum.
 */
export function assertAddsUp(table, what) {
  for (const column of ['pods', 'gpus', 'cpu', 'memory']) {
    const rows = table.rows.map((row) => parseAmount(row[column]));
    const total = parseAmount(table.total[column]);
    const sum = rows.reduce((a, r) => a + r.value, 0);
    const slack = rows.reduce((a, r) => a + r.error, total.error) + 1e-9 * Math.max(1, sum);
    const shown = `${what}: ${column} ${table.rows.map((r) => r[column]).join(' + ')} = ${table.total[column]}`;
    if (rows.some((r) => r.lowerBound)) {
      assert.ok(total.lowerBound, `${shown}: a row is a lower bound, so the TOTAL must be one`);
      assert.ok(total.value + slack >= sum, `${shown}: the TOTAL is less than the rows`);
    } else if (total.lowerBound) {
      assert.ok(total.value + slack >= sum, `${shown}: the TOTAL is less than the rows`);
    } else {
      assert.ok(Math.abs(total.value - sum) <= slack, `${shown}: the rows do not add up to the TOTAL`);
    }
  }
}

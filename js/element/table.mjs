// <workload-map-table>: the workloads of a `kind: List` of mixed types (`kubectl get
// jobsets,pytorchjobs,rayclusters,deployments -A -o json`), each read with its catalog
// definition by one `resolveAll` (in the worker by default), as a sortable, filterable table
// whose rows expand into <workload-map-view>. The objects that belong to no workload
// (`resolveAll`'s `unowned`: a pod whose owner chain leaves the List, owners that form a cycle)
// are rows too, with the core's reason, never dropped. See element.d.ts.

import { fill, h } from '../render/dom.js';
import { encodeShare } from '../render/share-link.js';
import { SyncEvaluator, WorkerEvaluator } from './evaluate.mjs';
import { loadApi } from './load.mjs';
import { PARTS, adoptStyles } from './view.mjs';

/**
 * Phases by severity, most severe first: what failed, then what is degraded, then a state
 * nothing explains (Undefined: no mapping matched), then work that is not running yet or is
 * changing (Initializing, Resuming, Suspending), then paused (Suspended), healthy (Running) and
 * finished (Completed). A row's rank is its most severe phase; a workload without a catalog
 * definition ranks after every phase.
 */
export const PHASE_SEVERITY = ['Failed', 'Degraded', 'Undefined', 'Initializing', 'Resuming', 'Suspending', 'Suspended', 'Running', 'Completed'];
const NO_DEFINITION = 'No definition';
/** The phase chip of an object that belongs to no workload. */
const NOT_ATTRIBUTED = 'Not attributed';
/** The watchdog's default for a List: it grows with the List, unlike one workload's 2 s. */
const LIST_TIMEOUT_MS = 15_000;
/** Rows drawn per task when a new List arrives. */
const ROWS_PER_TASK = 50;

/** Resolves in a new task (after the page has had a chance to render and handle input). */
function nextTask() {
  return new Promise((done) => setTimeout(done, 0));
}

function rank(phase) {
  const at = PHASE_SEVERITY.indexOf(phase);
  return at === -1 ? PHASE_SEVERITY.length : at;
}

/**
 * True when every word of the search is in the row's name, namespace, kind or phases (any case).
 * An empty search matches every row.
 */
export function matchesSearch(item, search) {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = [item.name, item.namespace ?? '', item.kind, ...phasesOf(item)].join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** An object or objects as text the core reads (a List for an array). */
function listText(value) {
  if (typeof value === 'string') return value;
  return JSON.stringify(Array.isArray(value) ? { apiVersion: 'v1', kind: 'List', items: value } : value);
}

/** The phase filter's value of a row: its phases, or what it is instead. */
function phasesOf(item) {
  if (item.unowned) return [NOT_ATTRIBUTED];
  return item.view?.phases ?? [NO_DEFINITION];
}

/** A row's phases, most severe first. */
export function rankedPhases(item) {
  if (!item.view) return [];
  return [...item.view.phases].sort((a, b) => rank(a) - rank(b));
}

/** `5m`, `3h`, `2d`, `1y` since an RFC 3339 time, as kubectl prints ages; '' when unknown. */
export function age(timestamp, now = Date.now()) {
  const then = timestamp ? Date.parse(timestamp) : NaN;
  if (!Number.isFinite(then)) return '';
  const seconds = Math.max(0, Math.floor((now - then) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h`;
  if (seconds < 86400 * 365) return `${Math.floor(seconds / 86400)}d`;
  return `${Math.floor(seconds / (86400 * 365))}y`;
}

function group(apiVersion) {
  return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : 'core';
}

/** The columns: key, title, sort value of a row. */
const COLUMNS = [
  { key: 'workload', title: 'Workload', value: (item) => item.name },
  { key: 'type', title: 'Type', value: (item) => `${item.kind} ${item.apiVersion}` },
  { key: 'namespace', title: 'Namespace', value: (item) => item.namespace ?? '' },
  { key: 'phase', title: 'Phase', value: (item) => (item.view ? Math.min(...item.view.phases.map(rank)) : PHASE_SEVERITY.length + (item.unowned ? 2 : 1)) },
  { key: 'gpus', title: 'GPUs', value: (item) => item.view?.resources.gpus ?? -1, numeric: true },
  {
    key: 'ready',
    title: 'Ready pods',
    value: (item) => (item.view?.root?.pods ? item.view.root.pods.ready / Math.max(1, item.view.root.pods.current) : -1),
    numeric: true,
    pods: true,
  },
  { key: 'age', title: 'Age', value: (item) => -(Date.parse(item.creationTimestamp ?? '') || Number.POSITIVE_INFINITY), numeric: true },
];

export class WorkloadMapTable extends HTMLElement {
  static observedAttributes = ['sync', 'timeout', 'theme'];
  /** The phases by severity, most severe first (as `PHASE_SEVERITY`). */
  static phaseSeverity = PHASE_SEVERITY;

  #objects;
  #pods;
  /** Every row: the workloads, then the objects that belong to none. */
  #items = [];
  #workloads = [];
  #unowned = [];
  #rows = new Map();
  #sort = { key: 'phase', direction: 1 };
  #filter = { phase: '', type: '', search: '' };
  /** The objects and related objects as parsed for the playground links, once per List. */
  #parsed;
  #evaluator;
  #scheduled = false;
  #generation = 0;
  #drawing = 0;
  #elements;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    adoptStyles(root);
    const phase = h('select', { attrs: { part: 'filter', 'aria-label': 'Filter by phase' }, on: { change: (e) => this.#setFilter('phase', e.target.value) } });
    const type = h('select', { attrs: { part: 'filter', 'aria-label': 'Filter by type' }, on: { change: (e) => this.#setFilter('type', e.target.value) } });
    const search = h('input', {
      attrs: {
        type: 'search',
        part: 'filter search',
        placeholder: 'name, namespace, kind, phase',
        'aria-label': 'Search workloads by name, namespace, kind or phase',
      },
      on: { input: (e) => this.#setFilter('search', e.target.value) },
    });
    this.#elements = {
      phase,
      type,
      search,
      count: h('span', { class: 'count', attrs: { part: 'count', role: 'status' } }),
      message: h('p', { class: 'message', attrs: { part: 'message', hidden: true } }),
      head: h('thead', { attrs: { role: 'rowgroup' } }),
      body: h('tbody', { attrs: { role: 'rowgroup' } }),
    };
    this.#elements.table = h('table', { class: 'workloads', attrs: { part: 'table', role: 'table' } }, this.#elements.head, this.#elements.body);
    root.append(
      h(
        'div',
        { class: 'toolbar', attrs: { part: 'toolbar' } },
        h('label', null, 'Search ', search),
        h('label', null, 'Phase ', phase),
        h('label', null, 'Type ', type),
        this.#elements.count,
      ),
      this.#elements.message,
      this.#elements.table,
    );
  }

  /** The List: YAML/JSON text, a `kind: List` object or an array of objects. */
  get objects() {
    return this.#objects;
  }
  set objects(value) {
    this.#objects = value;
    this.#schedule();
  }

  /** More pods and owners (text, a List or an array), shared out among the workloads. */
  get pods() {
    return this.#pods;
  }
  set pods(value) {
    this.#pods = value;
    this.#schedule();
  }

  /** The workloads: `resolveAll`'s items (after the last evaluation). */
  get items() {
    return this.#workloads;
  }

  /** The objects that belong to no workload, each with the reason (`resolveAll`'s `unowned`): rows too. */
  get unowned() {
    return this.#unowned;
  }

  /** Sorts by a column (`workload`, `type`, `namespace`, `phase`, `gpus`, `ready`, `age`). */
  sortBy(key, direction = 'ascending') {
    if (!COLUMNS.some((c) => c.key === key)) throw new TypeError(`workload-map-table: no column ${JSON.stringify(key)}`);
    this.#sort = { key, direction: direction === 'descending' ? -1 : 1 };
    this.#drawBody();
  }

  get sync() {
    return this.hasAttribute('sync');
  }
  set sync(value) {
    this.toggleAttribute('sync', Boolean(value));
  }

  attributeChangedCallback(name, before, after) {
    if (before === after) return;
    if (name === 'theme') {
      // The views in expanded rows follow the table's theme.
      for (const view of this.shadowRoot.querySelectorAll('workload-map-view')) this.#theme(view);
      return;
    }
    this.#evaluator?.close();
    this.#evaluator = undefined;
    this.#schedule();
  }

  connectedCallback() {
    this.#schedule();
  }

  disconnectedCallback() {
    this.#evaluator?.close();
    this.#evaluator = undefined;
  }

  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (this.isConnected) this.#evaluate();
    });
  }

  async #evaluate() {
    if (this.#objects === undefined || this.#objects === null) return;
    const generation = ++this.#generation;
    this.#evaluator ??= this.sync ? new SyncEvaluator() : new WorkerEvaluator(this.getAttribute('timeout'), LIST_TIMEOUT_MS);
    const result = await this.#evaluator.evaluate({ all: true, objects: this.#objects, pods: this.#pods });
    if (result.stale || generation !== this.#generation) return;
    const diagnostics = [
      ...(result.batch?.diagnostics ?? []),
      ...(result.batch?.items ?? []).flatMap((item) => item.diagnostics),
      ...(result.batch?.unowned ?? []).map((u) => u.diagnostic),
    ];
    // The result arrived in this task: draw from the next one, in slices.
    await nextTask();
    if (generation !== this.#generation) return;
    await this.#show(result.batch?.items ?? [], result.batch?.unowned ?? [], result.error ?? null);
    if (generation !== this.#generation) return;
    this.dispatchEvent(new CustomEvent('wm-diagnostics', { detail: { diagnostics, error: result.error ?? null }, bubbles: true, composed: true }));
  }

  #show(items, unowned, error) {
    this.#workloads = items;
    this.#unowned = unowned;
    this.#parsed = undefined;
    // An object of no workload is a row of its own, with the core's reason.
    const rows = unowned.map((u) => ({
      index: u.index,
      apiVersion: u.apiVersion,
      kind: u.kind,
      name: u.name,
      namespace: u.namespace,
      definition: null,
      view: null,
      diagnostics: [u.diagnostic],
      unowned: u.diagnostic,
    }));
    this.#items = [...items, ...rows].sort((a, b) => a.index - b.index);
    this.#rows = new Map();
    const { message } = this.#elements;
    message.hidden = !error && this.#items.length > 0;
    message.className = `message${error ? ' error' : ''}`;
    message.textContent = error ?? (this.#items.length ? '' : 'No workloads in this List.');
    this.#drawHead();
    this.#drawFilters();
    return this.#drawBody({ sliced: true });
  }

  #columns() {
    const withPods = this.#items.some((item) => item.view?.pods);
    return COLUMNS.filter((c) => !c.pods || withPods);
  }

  #drawHead() {
    this.#elements.table.classList.toggle('without-pods', this.#columns().length < COLUMNS.length);
    const sortOn = (key) => {
      this.#sort = { key, direction: this.#sort.key === key ? -this.#sort.direction : 1 };
      this.#drawHead();
      this.#drawBody();
    };
    fill(
      this.#elements.head,
      h(
        'tr',
        { attrs: { role: 'row' } },
        this.#columns().map((column) =>
          h(
            'th',
            {
              class: column.numeric ? 'num' : null,
              attrs: {
                scope: 'col',
                role: 'columnheader',
                'aria-sort': this.#sort.key === column.key ? (this.#sort.direction === 1 ? 'ascending' : 'descending') : 'none',
              },
              data: { column: column.key },
            },
            h('button', { attrs: { type: 'button', part: 'sort' }, on: { click: () => sortOn(column.key) } }, column.title),
          ),
        ),
      ),
    );
  }

  #drawFilters() {
    const phases = new Set();
    const types = new Set();
    for (const item of this.#items) {
      for (const phase of phasesOf(item)) phases.add(phase);
      types.add(item.kind);
    }
    const options = (select, values, current, all) => {
      const list = [...values];
      fill(
        select,
        h('option', { attrs: { value: '' } }, all),
        list.map((v) => h('option', { attrs: { value: v, selected: v === current ? '' : undefined } }, v)),
      );
      if (!list.includes(current)) this.#filter[select === this.#elements.phase ? 'phase' : 'type'] = '';
    };
    options(
      this.#elements.phase,
      [...phases].sort((a, b) => rank(a) - rank(b)),
      this.#filter.phase,
      'All phases',
    );
    options(this.#elements.type, [...types].sort(), this.#filter.type, 'All types');
  }

  #setFilter(which, value) {
    this.#filter[which] = value;
    this.#drawBody();
  }

  /**
   * Draws the rows in the current order and filters. A new List is drawn in slices of
   * `ROWS_PER_TASK` rows, one task each, so a long List never blocks the page (rows built once
   * are reused by later sorts and filters, which redraw at once).
   */
  async #drawBody({ sliced = false } = {}) {
    const draw = ++this.#drawing;
    const columns = this.#columns();
    const column = COLUMNS.find((c) => c.key === this.#sort.key) ?? COLUMNS[0];
    const { phase, type, search } = this.#filter;
    const shown = this.#items.filter((item) => (!phase || phasesOf(item).includes(phase)) && (!type || item.kind === type) && matchesSearch(item, search));
    // Sort keys once per row; ties keep the List's order.
    const keyed = shown.map((item) => ({ item, key: column.value(item) }));
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.item.index - b.item.index) * (a.key === b.key ? 1 : this.#sort.direction));
    const all = this.#items.length;
    const none = this.#unowned.length;
    this.#elements.count.textContent = none
      ? `${shown.length} of ${all} rows (${all - none} workload${all - none === 1 ? '' : 's'}, ${none} not attributed)`
      : `${shown.length} of ${all} workload${all === 1 ? '' : 's'}`;
    if (!sliced) {
      fill(
        this.#elements.body,
        keyed.map(({ item }) => this.#row(item, columns)),
      );
      return;
    }
    fill(this.#elements.body);
    for (let start = 0; start < keyed.length; start += ROWS_PER_TASK) {
      if (start > 0) await nextTask();
      if (draw !== this.#drawing) return;
      this.#elements.body.append(...keyed.slice(start, start + ROWS_PER_TASK).flatMap(({ item }) => this.#row(item, columns)));
    }
  }

  /** A row and its detail row, built once per result and reused by every sort and filter. */
  #row(item, columns) {
    let row = this.#rows.get(item.index);
    if (!row || row.columns !== columns.length) {
      row = this.#buildRow(item, columns);
      this.#rows.set(item.index, row);
    }
    return row.expanded ? [row.tr, row.detail] : row.tr;
  }

  #buildRow(item, columns) {
    const row = { columns: columns.length, expanded: false, detail: undefined, tr: undefined };
    const toggle = h(
      'button',
      { class: 'expand', attrs: { type: 'button', part: 'expand', 'aria-expanded': 'false', 'aria-label': `Details of ${item.name}` } },
      '▸',
    );
    toggle.addEventListener('click', () => {
      row.expanded = !row.expanded;
      toggle.setAttribute('aria-expanded', String(row.expanded));
      toggle.textContent = row.expanded ? '▾' : '▸';
      if (row.expanded) {
        row.detail ??= this.#detail(item, columns.length);
        row.tr.after(row.detail);
      } else {
        row.detail?.remove();
      }
    });
    const cells = {
      workload: () => h('td', { class: 'name' }, toggle, h('span', null, item.name), this.#playgroundLink(item)),
      type: () =>
        h(
          'td',
          { class: 'type', title: item.definition ? `${item.apiVersion} · definition ${item.definition.name}` : item.apiVersion },
          item.kind,
          ' ',
          h('small', null, group(item.apiVersion)),
        ),
      namespace: () => h('td', null, item.namespace ?? ''),
      phase: () =>
        h(
          'td',
          null,
          h(
            'span',
            { class: 'chips' },
            item.view
              ? rankedPhases(item).map((p) => h('span', { class: `chip phase-${p.toLowerCase()}`, attrs: { part: 'chip' }, data: { phase: p } }, p))
              : item.unowned
                ? h(
                    'span',
                    { class: 'chip unowned', attrs: { part: 'chip' }, title: item.unowned.message ?? '', data: { code: item.unowned.code ?? '' } },
                    NOT_ATTRIBUTED,
                  )
                : h('span', { class: 'chip no-definition', attrs: { part: 'chip' }, title: item.diagnostics[0]?.message ?? '' }, NO_DEFINITION),
          ),
        ),
      gpus: () => h('td', { class: 'num' }, item.view ? item.view.resources.text.gpus : ''),
      ready: () => h('td', { class: 'num' }, item.view?.root?.pods ? `${item.view.root.pods.ready}/${item.view.root.pods.current}` : ''),
      age: () => h('td', { class: 'num', title: item.creationTimestamp ?? '' }, age(item.creationTimestamp) || '—'),
    };
    row.tr = h(
      'tr',
      {
        class: item.unowned ? 'row unowned' : 'row',
        attrs: { part: 'row', role: 'row' },
        data: item.unowned
          ? { index: item.index, kind: item.kind, name: item.name, unowned: item.unowned.code ?? '' }
          : { index: item.index, kind: item.kind, name: item.name },
      },
      columns.map((c) => cells[c.key]()),
    );
    for (const cell of row.tr.children) cell.setAttribute('role', 'cell');
    return row;
  }

  /**
   * "Open in the playground" (attribute `playground`: the playground's URL): a link to a share
   * link holding the workload's object as the manifest, the objects that belong to it (the
   * core's `readManifest`) as the Pods pane, and the catalog mode, so the playground shows the
   * definition that read it. The link is made when the pointer or the focus reaches it.
   */
  #playgroundLink(item) {
    const playground = this.getAttribute('playground');
    if (playground === null || item.unowned) return null;
    const link = /** @type {HTMLAnchorElement} */ (
      h(
        'a',
        { class: 'open', attrs: { part: 'open', target: '_blank', rel: 'noopener', href: playground, 'aria-label': `Open ${item.name} in the playground` } },
        'playground',
      )
    );
    let made;
    const make = () => (made ??= this.#shareLink(item, playground).then((href) => (link.href = href)));
    link.addEventListener('pointerenter', make);
    link.addEventListener('focus', make);
    link.addEventListener('click', (event) => {
      if (link.dataset.ready) return;
      event.preventDefault();
      make().then(() => {
        link.dataset.ready = 'true';
        link.click();
      });
    });
    return link;
  }

  async #shareLink(item, playground) {
    const api = await loadApi();
    this.#parsed ??= (() => {
      const objects = api.parseObjects(listText(this.#objects)).objects;
      const related = this.#pods === undefined || this.#pods === null ? [] : api.parseObjects(listText(this.#pods)).objects;
      const reading = api.readManifest(objects, { related });
      return { all: [...objects, ...related], workloads: new Map(reading.workloads.map((w) => [w.index, w])) };
    })();
    const { all, workloads } = this.#parsed;
    const belonging = (workloads.get(item.index)?.related ?? []).map((i) => all[i]).filter(Boolean);
    const state = {
      definition: '',
      manifest: `${JSON.stringify(all[item.index] ?? {}, null, 2)}\n`,
      pods: belonging.length ? `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items: belonging }, null, 2)}\n` : '',
      mode: 'catalog',
      options: {},
    };
    return `${new URL(playground, document.baseURI).href.replace(/#.*$/, '')}#${await encodeShare(state, api.version)}`;
  }

  #theme(view) {
    const theme = this.getAttribute('theme');
    if (theme === null) view.removeAttribute('theme');
    else view.setAttribute('theme', theme);
  }

  #detail(item, span) {
    let content;
    if (item.view) {
      content = document.createElement('workload-map-view');
      content.setAttribute('exportparts', PARTS.map((part) => `${part}: view-${part}`).join(', '));
      this.#theme(content);
      Object.assign(content, { view: item.view });
    } else {
      content = h('p', { class: 'message' }, item.diagnostics.map((d) => (d.help ? `${d.message} ${d.help}` : d.message)).join(' '));
    }
    return h('tr', { class: 'detail', attrs: { part: 'detail', role: 'row' } }, h('td', { attrs: { colspan: span, role: 'cell' } }, content));
  }
}

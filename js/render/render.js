// The result panels, drawn from a view. Every value from the view goes through `h`/`patch`
// (text nodes only). Each panel is drawn with `patch`, so drawing the next view into the same
// element keeps the nodes that are still there (keyed by component path, instance id, pod
// name) and changes only what differs. Lists longer than COLLAPSE_OVER (instances, pods) show
// their first PREVIEW items, a count and "Show all"; the choice is kept per element and list
// (component path) across drawings.

import { h, patch } from './dom.js';
import { gvk, isGpuResource, replicas } from './format.js';
import { gangReadiness, podsByName } from './gang.js';

const FAILURES = {
  missing: 'no condition of this type',
  statusDiffers: 'its status differs',
  reasonDiffers: 'its reason differs',
  reasonNotRead: 'reason not read: the definition sets no reasonFieldName',
  noConditionsDefinition: 'the definition has no conditionsDefinition',
};

/** Lists longer than this are collapsed to their first PREVIEW items until "Show all". */
export const COLLAPSE_OVER = 50;
export const PREVIEW = 20;

/** Per drawn element: the lists shown in full (by key) and how to draw the element again. */
const lists = new WeakMap();

function listState(element) {
  let state = lists.get(element);
  if (!state) lists.set(element, (state = { open: new Set(), redraw: () => {} }));
  return state;
}

/** Whether the list `key` of `element` is shown in full. */
function isOpen(element, key) {
  return listState(element).open.has(key);
}

/**
 * `items` drawn with `draw`, or, when there are more than COLLAPSE_OVER and the list `key` of
 * `element` has not been opened, the first PREVIEW of them and a `more(content)` item with the
 * count and a "Show all" button. An opened long list starts with "Show fewer"; with `scroll`
 * (`{ keyOf, spacer }`) it draws only the items near its scroll box's viewport (`windowed`).
 */
function collapsible(element, key, items, draw, noun, more, scroll) {
  if (items.length <= COLLAPSE_OVER) return items.map(draw);
  const state = listState(element);
  const open = state.open.has(key);
  const toggle = () => {
    if (open) state.open.delete(key);
    else state.open.add(key);
    state.redraw();
  };
  const control = more(
    open ? `${items.length} ${noun} ` : `… ${items.length - PREVIEW} more ${noun} (${items.length} in all) `,
    h(
      'button',
      { class: 'show-all', attrs: { type: 'button', 'aria-expanded': String(open) }, data: { list: key }, on: { click: toggle } },
      open ? 'Show fewer' : `Show all ${items.length}`,
    ),
  );
  if (!open) return [...items.slice(0, PREVIEW).map(draw), control];
  return [control, ...(scroll ? windowed(element, key, items, scroll.keyOf, draw, scroll.spacer) : items.map(draw))];
}

/** Extra height drawn above and below a window's viewport, in pixels. */
const OVERSCAN = 600;

function windowState(element, key) {
  const state = listState(element);
  state.windows ??= new Map();
  let scroll = state.windows.get(key);
  if (!scroll) state.windows.set(key, (scroll = { top: 0, viewport: 600, heights: new Map(), frame: 0 }));
  return scroll;
}

/**
 * The items of a long list that its scroll box shows (plus OVERSCAN above and below), between
 * two spacers as tall as the items left out: item heights are measured as they are seen
 * (`onWindowScroll`), the others estimated from those.
 */
function windowed(element, key, items, keyOf, draw, spacer) {
  const scroll = windowState(element, key);
  let estimate = 28;
  if (scroll.heights.size) {
    let sum = 0;
    for (const height of scroll.heights.values()) sum += height;
    estimate = sum / scroll.heights.size;
  }
  const heightOf = (item) => scroll.heights.get(keyOf(item)) ?? estimate;
  const low = scroll.top - OVERSCAN;
  const high = scroll.top + scroll.viewport + OVERSCAN;
  let y = 0;
  let first = items.length;
  let before = 0;
  let last = items.length;
  for (let i = 0; i < items.length; i++) {
    const height = heightOf(items[i]);
    if (first === items.length && y + height > low) {
      first = i;
      before = y;
    }
    if (y > high) {
      last = i;
      break;
    }
    y += height;
  }
  if (first === items.length) before = y;
  let after = 0;
  for (let i = last; i < items.length; i++) after += heightOf(items[i]);
  const drawn = items.slice(first, last).map((item) => {
    const node = draw(item);
    node.dataset.windowKey = keyOf(item);
    return node;
  });
  return [spacer('before', before), ...drawn, spacer('after', after)];
}

/** The scroll handler of a windowed list's box: remembers where it is, measures, draws again. */
function onWindowScroll(element, key) {
  return (event) => {
    const box = event.currentTarget;
    const scroll = windowState(element, key);
    scroll.top = box.scrollTop;
    scroll.viewport = box.clientHeight || scroll.viewport;
    for (const item of box.querySelectorAll('[data-scroll-key]')) scroll.heights.set(item.dataset.windowKey, item.offsetHeight);
    scroll.frame ||= requestAnimationFrame(() => {
      scroll.frame = 0;
      listState(element).redraw();
    });
  };
}

/** A windowed list's box: its class and scroll handler (nothing while the list is collapsed). */
function windowBox(element, key, long) {
  return long && isOpen(element, key) ? { class: 'windowed', on: { scroll: onWindowScroll(element, key) } } : {};
}

// Spacer keys cannot be an instance id or a pod name (no NUL in those).
const spacerItem = (where, height) => h('li', { class: 'spacer', key: `\u0000${where}`, attrs: { 'aria-hidden': 'true', style: `height:${height}px` } });
const spacerRow = (where, height) => h('tr', { class: 'spacer', key: `\u0000${where}`, attrs: { 'aria-hidden': 'true', style: `height:${height}px` } });

/** `Kind/name  namespace  definition` and the phase chips. */
export function renderHeadline(element, view) {
  patch(
    element,
    h('span', { class: 'object-name' }, `${view.kind}/${view.name}`),
    view.namespace ? h('span', { class: 'meta' }, 'namespace: ', h('b', null, view.namespace)) : null,
    h('span', { class: 'meta' }, 'definition: ', h('b', null, view.definition?.name ?? '?')),
    h('span', { class: 'chips' }, phaseChips(view.phases)),
  );
}

function phaseChips(phases) {
  return (phases ?? []).map((phase) => h('span', { class: `chip phase-${phase.toLowerCase()}`, data: { phase } }, phase));
}

export function renderResources(element, view) {
  listState(element).redraw = () => renderResources(element, view);
  // Every number here is the view's: the rows and their sums are `view.table` (rows that add up
  // to `view.resources`), the amounts their `text` as the core wrote them.
  const total = view.resources;
  const amounts = total.text;
  const table = view.table ?? { rows: [], pods: { text: 'n/a' } };
  const otherExtended = Object.entries(amounts.extended ?? {}).filter(([name]) => !isGpuResource(name));
  const gpuKinds = Object.entries(amounts.extended ?? {}).filter(([name]) => isGpuResource(name));
  const withPods = table.pods.current !== undefined && table.pods.current !== null;
  const columns = ['Component', 'Pods', ...(withPods ? ['Ready'] : []), 'GPU / pod', 'GPUs', 'CPU', 'Memory'];
  // A component's rows in a run (its instances), collapsed together when there are many.
  const runs = [];
  for (const row of table.rows) {
    const last = runs.at(-1);
    if (last && last.component === row.component) last.rows.push(row);
    else runs.push({ component: row.component, rows: [row] });
  }
  const keys = new Set();
  const rows = [];
  for (const run of runs) {
    const path = run.component;
    const depth = path.split('/').length - 1;
    const lazyRow = (row) => {
      let key = `r:${path}/${row.instance ?? ''}`;
      while (keys.has(key)) key += '\u0000';
      keys.add(key);
      return { key, draw: () => tableRow(row, key, depth, withPods) };
    };
    const moreRow = (...content) => ({
      key: `more:${path}`,
      draw: () =>
        h(
          'tr',
          { class: 'more-row', key: `more:${path}` },
          h('td', { class: 'more', attrs: { colspan: columns.length } }, h('span', { class: 'indent', attrs: { style: `--depth:${depth}` } }), content),
        ),
    });
    rows.push(...collapsible(element, `table:${path}`, run.rows, lazyRow, 'instances', moreRow));
  }
  // A table longer than COLLAPSE_OVER rows (a list shown in full) draws the rows near its box's viewport.
  const long = rows.length > COLLAPSE_OVER + PREVIEW;
  const body = long
    ? windowed(
        element,
        'table',
        rows,
        (row) => row.key,
        (row) => row.draw(),
        spacerRow,
      )
    : rows.map((row) => row.draw());
  patch(
    element,
    h(
      'div',
      { class: 'stats' },
      h(
        'div',
        {
          class: 'stat stat-gpu',
          title: total.incomplete ? 'A lower bound: some amounts cannot be counted (see the diagnostics)' : 'nvidia.com/gpu + amd.com/gpu',
        },
        h('span', { class: 'value', attrs: { id: 'total-gpus' } }, amounts.gpus),
        h('span', { class: 'label' }, 'GPUs'),
        gpuKinds.length > 1 ? h('span', { class: 'detail' }, gpuKinds.map(([n, v]) => `${n}: ${v}`).join(' · ')) : null,
      ),
      h('div', { class: 'stat' }, h('span', { class: 'value', attrs: { id: 'total-cpu' } }, amounts.cpu), h('span', { class: 'label' }, 'CPU cores')),
      h('div', { class: 'stat' }, h('span', { class: 'value', attrs: { id: 'total-memory' } }, amounts.memory), h('span', { class: 'label' }, 'memory')),
    ),
    total.incomplete
      ? h(
          'p',
          { class: 'note' },
          'Some amounts cannot be known exactly (devices through resourceClaims, parts that could not be read, amounts too large to show exactly; see the diagnostics): they show as n/a or as a lower bound (≥).',
        )
      : null,
    otherExtended.length
      ? h(
          'p',
          { class: 'extended' },
          'Other extended resources: ',
          otherExtended.map(([name, value], i) => [i ? ', ' : '', h('code', null, name), ` ${value}`]),
        )
      : null,
    h(
      'div',
      { class: `table-box${long ? ' windowed' : ''}`, on: long ? { scroll: onWindowScroll(element, 'table') } : undefined },
      h(
        'table',
        { class: 'resource-table' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            columns.map((t) => h('th', null, t)),
          ),
        ),
        h('tbody', null, body),
        h(
          'tfoot',
          null,
          h(
            'tr',
            { class: 'total-row' },
            h('th', { class: 'name' }, 'TOTAL'),
            h('td', { class: 'num pods' }, table.pods.text),
            withPods ? h('td', { class: 'num ready' }, readyText(table.pods)) : null,
            h('td'),
            h('td', { class: 'num gpu' }, amounts.gpus),
            h('td', { class: 'num cpu' }, amounts.cpu),
            h('td', { class: 'num memory' }, amounts.memory),
          ),
        ),
      ),
    ),
  );
}

/** One row of the resources table (`view.table.rows`): its pods, per-pod GPUs and totals, as the view says them. */
function tableRow(row, key, depth, withPods) {
  const instance = row.instance !== undefined && row.instance !== null;
  return h(
    'tr',
    {
      class: instance ? 'instance-row' : 'component-row',
      key,
      attrs: { title: row.nodes?.length ? `on ${row.nodes.join(', ')}` : undefined },
      data: instance ? { component: row.component, instance: row.instance } : { component: row.component },
    },
    h('td', { class: 'name' }, h('span', { class: 'indent', attrs: { style: `--depth:${depth}` } }), row.name),
    h('td', { class: 'num pods' }, row.pods.text),
    withPods ? h('td', { class: 'num ready' }, readyText(row.pods)) : null,
    h('td', { class: 'num per-pod' }, row.perPod.text.gpus),
    h('td', { class: 'num gpu' }, row.total.text.gpus),
    h('td', { class: 'num cpu' }, row.total.text.cpu),
    h('td', { class: 'num memory' }, row.total.text.memory),
  );
}

/** `ready/current` of a pod count (the view's counts of the pods given). */
function readyText(pods) {
  return pods.current === undefined || pods.current === null ? '' : `${pods.ready ?? 0}/${pods.current}`;
}

/**
 * The role tree. `onHover(node | null)` / `onSelect(node | null)` receive
 * `{component, instance?, definition?, object?}`: the names, and the view's source ranges of the
 * component's entry in the definition and of the instance's part of the manifest (the one
 * instance of a single-instance component), so the page can highlight and select them, and
 * `path`, the node's place in the tree (component names and instance ids from the root).
 * `selected`: the path of the node to draw selected (a selection kept across results); the
 * node found there is returned (with this view's source ranges), else undefined.
 *
 * @param {Element} element
 * @param {any} view
 * @param {{onHover: (node: any) => void, onSelect: (node: any) => void, selected?: string}} options
 * @returns {any}
 */
export function renderTree(element, view, { onHover, onSelect, selected: selectedPath }) {
  // A redraw (Show all, scrolling a window) keeps the node selected since.
  let current = selectedPath;
  listState(element).redraw = () => renderTree(element, view, { onHover, onSelect, selected: current });
  if (!view.root) {
    patch(element, h('p', { class: 'empty' }, 'No role tree: the definition has no usable root component.'));
    return undefined;
  }
  let found;
  const node = (target, ...content) => {
    const isSelected = selectedPath !== undefined && target.path === selectedPath;
    if (isSelected) found = target;
    return h(
      'div',
      {
        class: 'node',
        attrs: { tabindex: 0, role: 'button', 'aria-pressed': String(isSelected) },
        on: {
          mouseenter: () => onHover(target),
          mouseleave: () => onHover(null),
          focus: () => onHover(target),
          blur: () => onHover(null),
          click: (event) => {
            const el = event.currentTarget;
            const previous = element.querySelector('.node[aria-pressed="true"]');
            const same = previous === el;
            previous?.setAttribute('aria-pressed', 'false');
            if (!same) el.setAttribute('aria-pressed', 'true');
            current = same ? undefined : target.path;
            onSelect(same ? null : target);
          },
          keydown: (event) => {
            if (event.key === 'Enter' || event.key === ' ') {
              event.preventDefault();
              event.currentTarget.click();
            } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              const nodes = Array.from(element.querySelectorAll('.node'), (n) => /** @type {HTMLElement} */ (n));
              const next = nodes.indexOf(event.currentTarget) + (event.key === 'ArrowDown' ? 1 : -1);
              nodes[Math.max(0, Math.min(nodes.length - 1, next))]?.focus();
            }
          },
        },
      },
      content,
    );
  };

  // The view's amounts as the core wrote them: per pod, and the subtree's total.
  const amounts = (pod, total) =>
    h(
      'span',
      { class: 'amounts' },
      pod ? h('span', { class: 'per-pod', title: 'per pod' }, `${pod.text.gpus} GPU · ${pod.text.cpu} CPU · ${pod.text.memory} / pod`) : null,
      h('span', { class: 'total', title: 'total of this node and below' }, `Σ ${total.text.gpus} GPU · ${total.text.cpu} CPU · ${total.text.memory}`),
    );
  // "× N" exactly when the count stands for something (pods, or a logical group's copies).
  const times = (r) => (r?.unit ? h('span', { class: 'replicas', title: r.unit === 'groups' ? 'groups' : 'pods' }, `× ${replicas(r)}`) : null);

  // `path`: the names and instance ids from the root, which keys the nodes and the lists opened.
  const componentItem = (component, path = component.name) => {
    const single = component.instances.length === 1 && component.instances[0].id === null;
    const instance = single ? component.instances[0] : undefined;
    const ownPods = (inst, at) => (inst.children.length === 0 ? podList(element, inst.pods, at) : null);
    // A tree item's own items sit in a group (ARIA: a treeitem is owned by a tree or a group).
    const podGroup = (item) => (item ? h('ul', { class: 'pods-group', attrs: { role: 'group' } }, item) : null);
    const instanceItem = (inst) => {
      const at = `${path}/${inst.id ?? ''}`;
      return h(
        'li',
        { class: 'instance', key: inst.id ?? '', attrs: { role: 'treeitem' }, data: { instance: inst.id ?? '' } },
        node(
          { component: component.name, instance: inst.id, path: at, definition: component.source?.definition, object: inst.source?.object },
          h('span', { class: 'label instance-label' }, inst.id ?? '(single)'),
          times(inst.replicas),
          amounts(inst.podResources, inst.resources),
          podCount(inst.pods),
        ),
        podGroup(ownPods(inst, at)),
        inst.children.length
          ? h(
              'ul',
              { attrs: { role: 'group' } },
              inst.children.map((child) => componentItem(child, `${at}/${child.name}`)),
            )
          : null,
      );
    };
    const children = single
      ? [ownPods(instance, path), ...instance.children.map((child) => componentItem(child, `${path}/${child.name}`))].filter(Boolean)
      : collapsible(
          element,
          `tree:${path}`,
          component.instances,
          instanceItem,
          'instances',
          (...content) => h('li', { class: 'more', key: 'more', attrs: { role: 'none' } }, content),
          {
            keyOf: (inst) => inst.id ?? '',
            spacer: spacerItem,
          },
        );
    return h(
      'li',
      { class: 'component', key: component.name, attrs: { role: 'treeitem' }, data: { component: component.name } },
      node(
        { component: component.name, path, definition: component.source?.definition, object: instance?.source?.object },
        h('span', { class: 'label' }, component.name),
        h('span', { class: 'kind' }, gvk(component.kind)),
        times(component.replicas),
        amounts(component.hasPodSpec ? component.podResources : undefined, component.resources),
        podCount(component.pods),
      ),
      children.length
        ? h('ul', { ...windowBox(element, `tree:${path}`, !single && component.instances.length > COLLAPSE_OVER), attrs: { role: 'group' } }, children)
        : null,
    );
  };
  patch(element, h('ul', { class: 'tree', attrs: { role: 'tree' } }, componentItem(view.root)));
  return found;
}

/** `ready/current` pods of a component or instance (nothing when no pods were given). */
function podCount(pods) {
  if (!pods) return null;
  const state = pods.current === 0 ? 'none' : pods.ready === pods.current ? 'all' : 'some';
  return h('span', { class: `pod-count pods-${state}`, title: `${pods.ready} of ${pods.current} pods ready` }, `${pods.ready}/${pods.current} ready`);
}

/** The pods placed in one instance, as tree items (an instance with child components lists them there). */
function podList(element, pods, path) {
  if (!pods?.items?.length) return null;
  const key = `pods:${path}`;
  const items = collapsible(
    element,
    key,
    pods.items,
    podItem,
    'pods',
    (...content) => h('li', { class: 'more', key: 'more', attrs: { role: 'none' } }, content),
    { keyOf: (pod) => pod.name, spacer: spacerItem },
  );
  const box = windowBox(element, key, pods.items.length > COLLAPSE_OVER);
  return h(
    'li',
    { class: 'pods-item', attrs: { role: 'treeitem' } },
    h('ul', { ...box, class: `pod-list${box.class ? ` ${box.class}` : ''}`, attrs: { role: 'group' } }, items),
  );
}

function podItem(pod) {
  // A pod being deleted reads as kubectl shows it; its phase is still its status's.
  const state = pod.terminating ? 'Terminating' : String(pod.phase);
  return h(
    'li',
    { class: `pod ${pod.ready ? 'ready' : 'not-ready'}`, key: pod.name, attrs: { role: 'treeitem' }, data: { pod: pod.name } },
    h('span', { class: 'mark' }, pod.ready ? '●' : '○'),
    h('code', { class: 'pod-name' }, pod.name),
    h('span', { class: `chip pod-phase phase-${state.toLowerCase()}` }, state),
    pod.reason ? h('span', { class: 'pod-reason' }, pod.reason) : null,
    pod.node ? h('span', { class: 'pod-node meta' }, `on ${pod.node}`) : null,
  );
}

/**
 * How the given pods were attributed, and the ones that are not the workload's. `noPods` is
 * what to say when none were given (the element has no Pods pane to point to).
 */
export function renderPods(element, view, options = {}) {
  listState(element).redraw = () => renderPods(element, view, options);
  drawPods(element, view, options);
}

function drawPods(
  element,
  view,
  {
    noPods = 'No pods given. Paste `kubectl get pods -o yaml` output in the Pods pane, or put a List with the workload, its Jobs and Pods in the manifest editor.',
  } = {},
) {
  const summary = view.pods;
  if (!summary) {
    patch(element, h('p', { class: 'empty' }, noPods));
    return;
  }
  patch(
    element,
    h(
      'p',
      { class: 'pods-summary' },
      h('span', { attrs: { id: 'pods-attributed' } }, `${summary.attributed} of ${summary.total}`),
      ` pod${summary.total === 1 ? '' : 's'} belong to this workload`,
      view.root?.pods ? ` · ${view.root.pods.ready}/${view.root.pods.current} ready` : '',
    ),
    summary.unattributed.length
      ? [
          h('h3', null, 'Not attributed'),
          h(
            'ul',
            { class: 'unattributed' },
            collapsible(
              element,
              'unattributed',
              summary.unattributed,
              (name) => h('li', { key: name }, h('code', null, name)),
              'pods',
              (...content) => h('li', { class: 'more', key: 'more' }, content),
            ),
          ),
        ]
      : h('p', { class: 'meta' }, 'Every pod given belongs to the workload.'),
  );
}

/** The gang-scheduling groups of the view. */
export function renderGroups(element, view) {
  const groups = view.groups ?? [];
  if (groups.length === 0) {
    patch(element, h('p', { class: 'empty' }, 'No gang groups: the definition has no gangScheduling instructions.'));
    return;
  }
  let podsOf;
  patch(
    element,
    h(
      'ul',
      { class: 'groups' },
      groups.map((group) =>
        h(
          'li',
          { class: 'group', data: { group: group.name } },
          h(
            'div',
            { class: 'group-head' },
            h('code', { class: 'group-name' }, group.name),
            h('span', { class: 'group-min' }, `minAvailable ${group.minAvailableText}`),
          ),
          h(
            'div',
            { class: 'group-members' },
            'members: ',
            group.members.map((m, i) => [i ? ', ' : '', h('code', null, m)]),
          ),
          group.topology ? h('div', { class: 'group-topology' }, `topology: ${topologyText(group.topology)}`) : null,
          group.subGroups?.length
            ? h(
                'ul',
                { class: 'subgroups' },
                group.subGroups.map((sub) =>
                  h(
                    'li',
                    null,
                    h('code', null, sub.name),
                    ` minAvailable ${sub.minAvailableText}`,
                    sub.topology ? ` · topology: ${topologyText(sub.topology)}` : '',
                  ),
                ),
              )
            : null,
          gangLine(gangReadiness(group, (podsOf ??= podsByName(view)))),
          group.pods
            ? h(
                'div',
                { class: 'group-pods' },
                `${group.pods.length} pod${group.pods.length === 1 ? '' : 's'}: `,
                group.pods.map((p, i) => [i ? ', ' : '', h('code', null, p)]),
              )
            : null,
        ),
      ),
    ),
  );
}

/** Whether the group's minimum is met by its ready pods (gang.js), or nothing without pods. */
function gangLine(readiness) {
  if (!readiness) return null;
  return h('div', { class: `group-ready ${readiness.met ? 'met' : 'not-met'}`, data: { met: String(readiness.met) } }, readiness.text);
}

/** `dc (preferred rack, required zone)`. */
function topologyText(topology) {
  const levels = [];
  if (topology.preferredTopologyLevel) levels.push(`preferred ${topology.preferredTopologyLevel}`);
  if (topology.requiredTopologyLevel) levels.push(`required ${topology.requiredTopologyLevel}`);
  return `${topology.topologyName ?? '?'}${levels.length ? ` (${levels.join(', ')})` : ''}`;
}

/**
 * The phase mapping, explained. `onSource(range)` receives a matcher's source range in the
 * definition when its head is clicked (omitted: nothing is clickable).
 */
/**
 * @param {HTMLElement} element
 * @param {any} view the view (plain JSON from the worker)
 * @param {{onSource?: (range: object) => void}} [options]
 */
export function renderPhases(element, view, { onSource } = {}) {
  const status = view.status ?? { conditions: [], mappings: [] };
  const undefinedOnly = view.phases?.length === 1 && view.phases[0] === 'Undefined';
  patch(
    element,
    h(
      'div',
      { class: 'phase-summary' },
      h('span', { class: 'chips' }, phaseChips(view.phases)),
      undefinedOnly ? h('span', { class: 'explain' }, 'Undefined: no mapping matched.') : null,
    ),
    h(
      'p',
      { class: 'read' },
      'Phase read: ',
      status.phase !== undefined && status.phase !== null ? h('code', null, status.phase) : h('i', null, 'none'),
      ` · ${status.conditions.length} condition${status.conditions.length === 1 ? '' : 's'} read`,
    ),
    status.conditions.length
      ? h(
          'table',
          { class: 'conditions' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['Type', 'Status', 'Reason', 'Message'].map((t) => h('th', null, t)),
            ),
          ),
          h(
            'tbody',
            null,
            status.conditions.map((c) =>
              h('tr', null, h('td', null, c.type), h('td', null, c.status ?? ''), h('td', null, c.reason ?? ''), h('td', null, c.message ?? '')),
            ),
          ),
        )
      : null,
    h(
      'ol',
      { class: 'mappings' },
      status.mappings.map((mapping) => renderMapping(mapping, onSource)),
    ),
  );
}

/** One status mapping; open when it matched, folded to a one-line reason when not. */
function renderMapping(mapping, onSource) {
  const head = (matcher, index) => {
    const text = `${mapping.matchers.length > 1 ? `matcher ${index + 1}: ` : ''}${matcher.matched ? '✓ matched' : '✗ no match'}`;
    const range = matcher.source?.definition;
    if (!range || !onSource) return h('span', { class: 'matcher-head' }, text);
    return h(
      'button',
      {
        class: 'matcher-head source-link',
        title: `Show this matcher in the definition (line ${range.line})`,
        attrs: { type: 'button' },
        on: { click: () => onSource(range) },
      },
      text,
      h('span', { class: 'line-ref' }, ` · line ${range.line}`),
    );
  };
  const matchers = mapping.matchers.map((matcher, index) =>
    h(
      'li',
      { class: matcher.matched ? 'matcher matched' : 'matcher' },
      head(matcher, index),
      matcher.checks.length === 0 ? h('span', { class: 'check' }, 'empty matcher: matches vacuously') : null,
      h('ul', { class: 'checks' }, matcher.checks.map(explainCheck)),
    ),
  );
  return h(
    'li',
    { class: mapping.matched ? 'mapping matched' : 'mapping', data: { status: mapping.status } },
    h(
      'details',
      { attrs: { open: mapping.matched ? '' : undefined } },
      h(
        'summary',
        { class: 'mapping-head' },
        h('span', { class: `chip ${mapping.matched ? `phase-${mapping.status.toLowerCase()}` : 'muted'}` }, mapping.status),
        h('span', { class: 'verdict' }, mapping.matched ? 'matched' : 'not matched'),
        mapping.matched ? null : h('span', { class: 'why' }, summarise(mapping)),
      ),
      mapping.matchers.length === 0 ? h('p', { class: 'empty' }, 'No matchers: this mapping can never match.') : null,
      h('ol', { class: 'matchers' }, matchers),
    ),
  );
}

/** One line for a closed, unmatched mapping: what its first failing check wanted. */
function summarise(mapping) {
  const check = mapping.matchers.flatMap((m) => m.checks).find((c) => !c.matched);
  if (!check) return '';
  if (check.kind === 'phase') return `phase is not ${check.expected}`;
  if (check.kind === 'condition') return `${check.type}${check.expectedStatus ? `=${check.expectedStatus}` : ''}: ${FAILURES[check.failure] ?? 'no match'}`;
  if (check.kind === 'expression') return check.error ? 'expression failed' : `expression returned ${check.actual ?? 'nothing'}`;
  return '';
}

function explainCheck(check) {
  const mark = h('span', { class: check.matched ? 'mark ok' : 'mark no' }, check.matched ? '✓' : '✗');
  if (check.kind === 'phase') {
    return h(
      'li',
      { class: 'check' },
      mark,
      ' byPhase ',
      h('code', null, check.expected),
      ' — read ',
      check.actual !== undefined && check.actual !== null ? h('code', null, check.actual) : h('i', null, 'no phase (no phaseDefinition or no value)'),
    );
  }
  if (check.kind === 'condition') {
    const wanted = [`type=${check.type}`];
    if (check.expectedStatus !== undefined && check.expectedStatus !== null) wanted.push(`status=${check.expectedStatus}`);
    if (check.expectedReason !== undefined && check.expectedReason !== null) wanted.push(`reason=${check.expectedReason}`);
    const found = [];
    if (check.actualStatus !== undefined && check.actualStatus !== null) found.push(`status=${check.actualStatus}`);
    if (check.actualReason !== undefined && check.actualReason !== null) found.push(`reason=${check.actualReason}`);
    return h(
      'li',
      { class: 'check' },
      mark,
      ' byConditions ',
      h('code', null, wanted.join(' ')),
      found.length ? [' — found ', h('code', null, found.join(' '))] : null,
      check.failure ? h('span', { class: 'why' }, ` (${FAILURES[check.failure] ?? check.failure})`) : null,
    );
  }
  if (check.kind === 'expression') {
    return h(
      'li',
      { class: 'check' },
      mark,
      ` byExpression (${check.language ?? 'jq'}) `,
      h('code', { class: 'expression' }, check.expression),
      ' returned ',
      check.error
        ? h('span', { class: 'error' }, `an error: ${check.error}`)
        : check.actual !== undefined && check.actual !== null
          ? h('code', null, check.actual)
          : h('i', null, 'no output'),
      ', expected ',
      h('code', null, check.expected),
    );
  }
  return h('li', { class: 'check' }, mark, ` ${JSON.stringify(check)}`);
}

/** The clickable diagnostics list. `onJump(diagnostic)` moves the cursor. */
export function renderDiagnostics(list, counter, diagnostics, onJump) {
  counter.textContent = String(diagnostics.length);
  counter.dataset.errors = String(diagnostics.filter((d) => d.severity === 'error').length);
  if (diagnostics.length === 0) {
    patch(list, h('li', { class: 'none' }, 'No problems.'));
    return;
  }
  patch(
    list,
    diagnostics.map((d) =>
      h(
        'li',
        { class: `diagnostic ${d.severity}` },
        h(
          'button',
          {
            attrs: { type: 'button', disabled: d.line ? undefined : true },
            data: { source: d.source, line: d.line ?? '', column: d.column ?? '' },
            on: { click: () => onJump(d) },
          },
          h('span', { class: 'severity' }, d.severity),
          h('span', { class: 'where' }, `${d.source === 'object' ? 'manifest' : (d.source ?? 'engine')}${d.line ? ` ${d.line}:${d.column ?? 1}` : ''}`),
          h('code', { class: 'code' }, d.code ?? ''),
          h('span', { class: 'message' }, d.message ?? ''),
          d.help ? h('span', { class: 'help' }, d.help) : null,
          d.path ? h('span', { class: 'path' }, d.path) : null,
        ),
      ),
    ),
  );
}

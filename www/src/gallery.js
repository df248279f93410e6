// The examples gallery (issue 18, "what authors expect"): the catalog's definitions and their
// examples in a dialog with a search field, instead of one long select. A search is words, all
// of which an item must match: a plain word matches any of its fields (kind, API group and
// version, the definition's name and folder, the example's file and description), and
// `kind:`, `group:`, `version:`, `type:` (apiVersion/kind), `name:` (definition or example)
// narrow it to one field. Keyboard: ↓ from the field goes to the first item, ↑ ↓ Home End move
// between items, Enter loads the item (in the field: the first match), Esc closes.

import { fill, h } from '../../js/render/dom.js';

/**
 * One searchable item per definition ("definition only") and per example.
 *
 * @param {{name: string, dir?: string, apiVersion: string, kind: string, examples: {file: string, description?: string}[]}[]} definitions
 * @returns {{value: string, definition: number, kind: string, group: string, version: string, apiVersion: string, name: string, dir: string, file: string, label: string}[]}
 */
export function galleryItems(definitions) {
  // The page's own default comes first (the JobSet of default-manifest.yaml).
  const items = [
    {
      value: 'default:',
      definition: -1,
      kind: 'JobSet',
      group: 'jobset.x-k8s.io',
      version: 'v1alpha2',
      apiVersion: 'jobset.x-k8s.io/v1alpha2',
      name: 'default',
      dir: '',
      file: '',
      label: 'Default: JobSet with a leader and two workers (12 GPUs)',
    },
  ];
  definitions.forEach((definition, index) => {
    const slash = definition.apiVersion.indexOf('/');
    const group = slash >= 0 ? definition.apiVersion.slice(0, slash) : '';
    const version = slash >= 0 ? definition.apiVersion.slice(slash + 1) : definition.apiVersion;
    const common = {
      definition: index,
      kind: definition.kind,
      group,
      version,
      apiVersion: definition.apiVersion,
      name: definition.name,
      dir: definition.dir ?? '',
    };
    items.push({ ...common, value: `${index}:`, file: '', label: 'definition only' });
    definition.examples.forEach((example, exampleIndex) => {
      items.push({ ...common, value: `${index}:${exampleIndex}`, file: example.file, label: example.description ?? example.file });
    });
  });
  return items;
}

const FIELDS = {
  kind: (item) => [item.kind],
  group: (item) => [item.group || 'core'],
  version: (item) => [item.version],
  type: (item) => [`${item.apiVersion}/${item.kind}`, `${item.kind}.${item.group}`],
  name: (item) => [item.name, item.dir, item.file, item.label],
};

/** True when the item matches every word of the query (see the top of this file). */
export function matches(item, query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return words.every((word) => {
    const colon = word.indexOf(':');
    const field = colon > 0 ? word.slice(0, colon) : '';
    if (Object.hasOwn(FIELDS, field)) {
      const wanted = word.slice(colon + 1);
      return FIELDS[field](item).some((value) => value.toLowerCase().includes(wanted));
    }
    return [item.kind, item.apiVersion, item.group, item.name, item.dir, item.file, item.label].some((value) => value.toLowerCase().includes(word));
  });
}

/**
 * @param {{open: HTMLButtonElement, dialog: HTMLDialogElement, search: HTMLInputElement, count: HTMLElement, list: HTMLElement, close: HTMLButtonElement}} ui
 * @param {{definitions: Parameters<typeof galleryItems>[0], onPick: (value: string) => void}} options
 *   onPick: `definition:example` ("3:" for a definition only, "default:" for the default)
 */
export function createGallery(ui, { definitions, onPick }) {
  const items = galleryItems(definitions);
  const total = items.length;

  function pick(value) {
    ui.dialog.close();
    onPick(value);
  }

  function itemButton(value, text, extra) {
    return h(
      'button',
      { class: 'gallery-item', attrs: { type: 'button' }, data: { example: value }, on: { click: () => pick(value), keydown: move } },
      text,
      extra,
    );
  }

  function draw() {
    const query = ui.search.value;
    const shown = items.filter((item) => matches(item, query));
    const groups = new Map();
    for (const item of shown) {
      const group = groups.get(item.definition) ?? [];
      group.push(item);
      groups.set(item.definition, group);
    }
    fill(
      ui.list,
      [...groups.values()].map((group) => {
        const first = group[0];
        const heading = `gallery-${first.definition + 1}`;
        return h(
          'li',
          { class: 'gallery-group', data: { kind: first.kind } },
          first.definition < 0
            ? h('h3', { attrs: { id: heading } }, "The page's default")
            : h('h3', { attrs: { id: heading } }, first.kind, ' ', h('span', { class: 'meta' }, `${first.apiVersion} · ${first.name}`)),
          h(
            'ul',
            { attrs: { 'aria-labelledby': heading } },
            group.map((item) =>
              h('li', null, itemButton(item.value, item.label, item.file ? h('span', { class: 'meta gallery-file' }, ` ${item.file}.yaml`) : null)),
            ),
          ),
        );
      }),
    );
    const count = shown.length;
    ui.count.textContent =
      count === total ? `${total} examples and definitions` : count === 0 ? `Nothing matches "${query.trim()}"` : `${count} of ${total} match`;
  }

  /** ↑ ↓ Home End between the items, ↑ from the first back to the field. */
  function move(event) {
    const buttons = /** @type {HTMLButtonElement[]} */ ([...ui.list.querySelectorAll('button.gallery-item')]);
    const at = buttons.indexOf(event.currentTarget);
    let next;
    if (event.key === 'ArrowDown') next = Math.min(buttons.length - 1, at + 1);
    else if (event.key === 'ArrowUp') next = at - 1;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = buttons.length - 1;
    else return;
    event.preventDefault();
    if (next < 0) ui.search.focus();
    else buttons[next]?.focus();
  }

  ui.search.addEventListener('input', draw);
  ui.search.addEventListener('keydown', (event) => {
    const first = /** @type {HTMLButtonElement | null} */ (ui.list.querySelector('button.gallery-item'));
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      first?.focus();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (first) pick(String(first.dataset.example));
    } else if (event.key === 'Escape') {
      // A search field would only clear itself: Esc closes the gallery from anywhere in it.
      event.preventDefault();
      ui.dialog.close();
    }
  });
  ui.open.addEventListener('click', () => {
    draw();
    ui.dialog.showModal();
    ui.search.focus();
    ui.search.select();
  });
  ui.close.addEventListener('click', () => ui.dialog.close());
  // A click on the backdrop (outside the dialog's box) closes it.
  ui.dialog.addEventListener('click', (event) => {
    if (event.target === ui.dialog) {
      const r = ui.dialog.getBoundingClientRect();
      if (event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom) ui.dialog.close();
    }
  });
  return { draw, total };
}

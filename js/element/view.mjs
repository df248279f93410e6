// <workload-map-view>: one workload's view (headline, resources, role tree, phase mapping,
// pods, gang groups), drawn by the renderer the playground uses too (`js/render/render.js`) inside a
// shadow root. See element.d.ts for the properties, attributes, events and parts.

import { fill, h } from '../render/dom.js';
import { renderGroups, renderHeadline, renderPhases, renderPods, renderResources, renderTree } from '../render/render.js';
import css from './element.css';
import { SyncEvaluator, WorkerEvaluator } from './evaluate.mjs';

/** The sections, in the order they are drawn. */
export const SECTIONS = ['resources', 'tree', 'phase', 'pods', 'groups'];
const TITLES = { resources: 'Resources', tree: 'Role tree', phase: 'Phase', pods: 'Pods', groups: 'Gang groups' };
const RENDER = {
  resources: renderResources,
  phase: renderPhases,
  pods: (element, view) => renderPods(element, view, { noPods: 'No pods given (set the element’s pods property to `kubectl get pods -o yaml` output).' }),
  groups: renderGroups,
};

/** The parts of a view, as <workload-map-table> re-exports them for the views in its rows (`view-chip`, ...). */
export const PARTS = ['view', 'headline', 'message', 'section', ...SECTIONS, 'section-title', 'chip', 'node', 'table'];

/** A stylesheet shared by every element of the page. */
let sheet;
export function adoptStyles(root) {
  if (typeof CSSStyleSheet === 'function' && 'adoptedStyleSheets' in root) {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    }
    root.adoptedStyleSheets = [sheet];
  } else {
    root.append(h('style', null, css));
  }
}

/** `sections="tree,phase"` → the known names in drawing order; absent or empty → all. */
export function parseSections(value) {
  if (value === null || value === undefined || value.trim() === '') return SECTIONS;
  const asked = new Set(value.split(/[\s,]+/).filter(Boolean));
  return SECTIONS.filter((name) => asked.has(name));
}

/** Marks the renderer's chips, tree nodes and tables with part names (for ::part styling). */
function markParts(root) {
  for (const chip of root.querySelectorAll('.chip')) chip.setAttribute('part', 'chip');
  for (const node of root.querySelectorAll('.node')) node.setAttribute('part', 'node');
  for (const table of root.querySelectorAll('table')) table.setAttribute('part', 'table');
}

export class WorkloadMapView extends HTMLElement {
  static observedAttributes = ['sections', 'definition', 'sync', 'timeout'];

  #definition = 'catalog';
  #object;
  #pods;
  #view;
  #result;
  #evaluator;
  #scheduled = false;
  #generation = 0;
  #elements;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    adoptStyles(root);
    this.#elements = {
      headline: h('header', { class: 'headline', attrs: { part: 'headline' } }),
      message: h('p', { class: 'message', attrs: { part: 'message', role: 'status', hidden: true } }),
      sections: Object.fromEntries(
        SECTIONS.map((name) => [
          name,
          h(
            'section',
            { class: `section section-${name}`, attrs: { part: `section ${name}`, hidden: true }, data: { section: name } },
            h('h3', { class: 'section-title', attrs: { part: 'section-title' } }, TITLES[name]),
            h('div', { class: 'body' }),
          ),
        ]),
      ),
    };
    root.append(h('div', { class: 'view', attrs: { part: 'view' } }, this.#elements.headline, this.#elements.message, Object.values(this.#elements.sections)));
    // The renderer draws again by itself (Show all, scrolling a long list): mark the new nodes too.
    new MutationObserver(() => markParts(root)).observe(root, { childList: true, subtree: true });
  }

  /** The definition: YAML/JSON text, or "catalog" (the default) for the catalog's entry for the object's type. */
  get definition() {
    return this.#definition;
  }
  set definition(value) {
    this.#definition = value === undefined || value === null || value === '' ? 'catalog' : String(value);
    this.#schedule();
  }

  /** The workload: YAML/JSON text or a plain object (a List of it and its objects is read by the core). */
  get object() {
    return this.#object;
  }
  set object(value) {
    this.#object = value;
    this.#view = undefined;
    this.#schedule();
  }

  /** Related objects (its pods and their owners): text (`kubectl get pods -o yaml`), a List or an array of objects. */
  get pods() {
    return this.#pods;
  }
  set pods(value) {
    this.#pods = value;
    this.#schedule();
  }

  /** A view computed elsewhere (e.g. by `resolveAll`): drawn as is, nothing is evaluated. */
  get view() {
    return this.#view ?? this.#result?.view ?? null;
  }
  set view(value) {
    this.#view = value ?? undefined;
    this.#object = undefined;
    this.#generation += 1;
    this.#draw({ view: this.#view ?? null, definitionDiagnostics: [], objectDiagnostics: [], error: null });
  }

  /** The sections drawn (attribute `sections`, comma-separated). */
  get sections() {
    return parseSections(this.getAttribute('sections'));
  }
  set sections(value) {
    this.setAttribute('sections', Array.isArray(value) ? value.join(',') : String(value));
  }

  /** Evaluate on the page's thread instead of a worker (attribute `sync`). */
  get sync() {
    return this.hasAttribute('sync');
  }
  set sync(value) {
    this.toggleAttribute('sync', Boolean(value));
  }

  attributeChangedCallback(name, before, after) {
    if (before === after) return;
    if (name === 'definition') {
      this.definition = after;
    } else if (name === 'sync' || name === 'timeout') {
      this.#evaluator?.close();
      this.#evaluator = undefined;
      this.#schedule();
    } else if (name === 'sections' && this.#result) {
      this.#draw(this.#result);
    }
  }

  connectedCallback() {
    this.#schedule();
  }

  disconnectedCallback() {
    // A worker per element: stopped when the element leaves the page, started again if it comes back.
    this.#evaluator?.close();
    this.#evaluator = undefined;
  }

  #schedule() {
    if (this.#scheduled || this.#view !== undefined) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (this.isConnected) this.#evaluate();
    });
  }

  async #evaluate() {
    if (this.#object === undefined || this.#object === null) return;
    const generation = ++this.#generation;
    this.#evaluator ??= this.sync ? new SyncEvaluator() : new WorkerEvaluator(this.getAttribute('timeout'));
    const result = await this.#evaluator.evaluate({ definition: this.#definition, object: this.#object, pods: this.#pods });
    if (result.stale || generation !== this.#generation) return;
    this.#draw(result);
    const diagnostics = [...(result.definitionDiagnostics ?? []), ...(result.objectDiagnostics ?? []), ...(result.view?.diagnostics ?? [])];
    this.dispatchEvent(
      new CustomEvent('wm-diagnostics', { detail: { diagnostics, error: result.error ?? null, view: result.view ?? null }, bubbles: true, composed: true }),
    );
  }

  #draw(result) {
    this.#result = result;
    const { headline, message, sections } = this.#elements;
    const view = result.view;
    const problem =
      result.error ??
      (view
        ? null
        : ([...(result.definitionDiagnostics ?? []), ...(result.objectDiagnostics ?? [])].find((d) => d.severity === 'error')?.message ?? 'nothing to show'));
    message.hidden = !problem;
    message.className = `message${result.error ? ' error' : ''}`;
    message.textContent = problem ?? '';
    if (view) renderHeadline(headline, view);
    else fill(headline);
    const shown = new Set(this.sections);
    for (const name of SECTIONS) {
      const section = sections[name];
      section.hidden = !view || !shown.has(name);
      if (section.hidden) continue;
      const body = section.querySelector('.body');
      if (name === 'tree') renderTree(body, view, { onHover: () => {}, onSelect: (node) => this.#select(view, node) });
      else RENDER[name](body, view);
    }
    markParts(this.shadowRoot);
  }

  #select(view, node) {
    const detail = {
      workload: { apiVersion: view.apiVersion, kind: view.kind, name: view.name, namespace: view.namespace ?? null },
      component: node?.component ?? null,
      instance: node && 'instance' in node ? node.instance : undefined,
      selected: Boolean(node),
    };
    this.dispatchEvent(new CustomEvent('wm-select', { detail, bubbles: true, composed: true }));
  }
}

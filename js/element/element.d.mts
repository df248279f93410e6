// Types of `workload-map/element`: <workload-map-view> and <workload-map-table>. DOM types live
// here, not in index.d.ts, so the main entry's types stay DOM-free.
import type { Diagnostic, JsonObject, Phase, ResolvedWorkload, WorkloadView } from './index.mjs';

/** An object of the List that belongs to no workload (`resolveAll`'s `unowned`), with the core's reason. */
export interface UnownedObject {
  index: number;
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  /** Why it belongs to no workload (its code names the reason). */
  diagnostic: Diagnostic;
}

/** The sections of <workload-map-view>, in drawing order (attribute `sections`). */
export type Section = 'resources' | 'tree' | 'phase' | 'pods' | 'groups';
export const SECTIONS: readonly Section[];

/**
 * Phases by severity, most severe first (the table's Phase column sorts and ranks chips by it):
 * Failed, Degraded, Undefined, Initializing, Resuming, Suspending, Suspended, Running, Completed.
 */
export const PHASE_SEVERITY: readonly Phase[];

/** `detail` of `wm-select`: the component or instance clicked in the role tree. */
export interface SelectDetail {
  workload: { apiVersion: string; kind: string; name: string; namespace: string | null };
  /** The component's name (`null` when the click cleared the selection). */
  component: string | null;
  /** Present when an instance was clicked: its id (`null` for a component's only, unnamed instance). */
  instance?: string | null;
  /** False when the click cleared the selection (the same node again). */
  selected: boolean;
}

/** `detail` of `wm-diagnostics`, sent after every evaluation. */
export interface DiagnosticsDetail {
  diagnostics: Diagnostic[];
  /** Why nothing could be evaluated (the engine could not start, the watchdog stopped a run). */
  error: string | null;
  /** The view drawn (<workload-map-view> only). */
  view?: WorkloadView | null;
}

export interface WorkloadMapEventMap extends HTMLElementEventMap {
  'wm-select': CustomEvent<SelectDetail>;
  'wm-diagnostics': CustomEvent<DiagnosticsDetail>;
}

/**
 * One workload: headline, resources, role tree, phase mapping, pods and gang groups, evaluated
 * in a Web Worker (with a watchdog) unless `sync` is set.
 *
 * Theming: custom properties `--wm-bg`, `--wm-fg`, `--wm-muted`, `--wm-border`, `--wm-accent`,
 * `--wm-accent-soft`, `--wm-ok`, `--wm-ok-soft`, `--wm-bad`, `--wm-bad-soft`, `--wm-warn`,
 * `--wm-warn-soft`, `--wm-highlight`, `--wm-code-bg`, `--wm-font`, `--wm-font-size`,
 * `--wm-radius`; attribute `theme="light" | "dark"` (the system's scheme by default). Parts:
 * `view`, `headline`, `message`, `section` (and the section's name), `section-title`, `chip`,
 * `node`, `table`.
 */
export class WorkloadMapView extends HTMLElement {
  /** Definition text (YAML/JSON), or `"catalog"` (the default): the catalog's entry for the object's type. */
  definition: string;
  /**
   * The workload: YAML/JSON text or a plain object. A List or stream of several objects is read
   * by the core: the first workload of a type the catalog knows (or, with a definition, of the
   * definition's type) is shown, with the objects that belong to it.
   */
  object: string | JsonObject | undefined;
  /** Related objects given apart (its pods and their owners): text (`kubectl get pods -o yaml`), a List or an array; the core decides which belong to the workload. */
  pods: string | JsonObject | JsonObject[] | undefined;
  /** The view drawn; set it to draw a view computed elsewhere (nothing is evaluated then). */
  view: WorkloadView | null;
  /** The sections drawn (attribute `sections="resources,tree,phase,pods,groups"`). */
  sections: Section[];
  /**
   * Evaluate on the page's thread instead of a worker (attribute `sync`). In a worker, a run
   * longer than the `timeout` attribute (ms, clamped to 100 ms .. 60 s; 2 s by default) is
   * stopped and the worker replaced.
   */
  sync: boolean;
  addEventListener<K extends keyof WorkloadMapEventMap>(type: K, listener: (this: WorkloadMapView, event: WorkloadMapEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

/**
 * The workloads of a List of mixed types (`kubectl get jobsets,pytorchjobs,... -A -o json`), each
 * with its catalog definition: columns Workload, Type, Namespace, Phase, GPUs, Ready pods (when
 * pods are given), Age; sorting by any column, filters by phase and type, rows that expand
 * into <workload-map-view>. An object that belongs to no workload (`unowned`) is a row too, with
 * the chip "Not attributed" and the reason in its detail row. A search box keeps the rows whose
 * name, namespace, kind or phases hold every word typed; an unknown Age reads "—". With the
 * attribute `playground` (the playground's URL, read when the rows are drawn), each workload row
 * links (part `open`) to the playground with its object, the objects that belong to it and the
 * catalog mode. Same theming as the view; parts `toolbar`, `filter` (and `search`), `count`,
 * `message`, `table`, `sort`, `row`, `expand`, `chip`, `detail`, and the parts of the views in
 * expanded rows prefixed with `view-` (`view-chip`, `view-node`, ...); its `theme` attribute
 * applies to them too.
 */
export class WorkloadMapTable extends HTMLElement {
  /** `PHASE_SEVERITY`, also where the element is only known by its tag name. */
  static readonly phaseSeverity: readonly Phase[];
  /** The List: YAML/JSON text, a `kind: List` object or an array of objects. */
  objects: string | JsonObject | JsonObject[] | undefined;
  /** More pods and owners, shared out among the workloads by owner chain (the core's `related`). */
  pods: string | JsonObject | JsonObject[] | undefined;
  /** The workloads of the last evaluation (`resolveAll`'s items). */
  readonly items: ResolvedWorkload[];
  /** The objects of the last evaluation that belong to no workload (`resolveAll`'s `unowned`). */
  readonly unowned: UnownedObject[];
  /** Evaluate on the page's thread instead of a worker (attribute `sync`; `timeout` as for the view, 15 s by default). */
  sync: boolean;
  /** Sorts by a column. */
  sortBy(column: 'workload' | 'type' | 'namespace' | 'phase' | 'gpus' | 'ready' | 'age', direction?: 'ascending' | 'descending'): void;
  addEventListener<K extends keyof WorkloadMapEventMap>(type: K, listener: (this: WorkloadMapTable, event: WorkloadMapEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'workload-map-view': WorkloadMapView;
    'workload-map-table': WorkloadMapTable;
  }
}

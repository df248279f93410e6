// The exporter's metric families and the series of one resolved workload. Every value is the
// core's (the view of `resolveAll`): which object is a workload, which pods belong to it and
// where they are placed, its phases, its pod counts and GPUs. This file only writes them as
// series. docs/exporter.md documents each family.

import { familyHeader, sampleLine } from './exposition.mjs';

/** The nine shared phases, one series each in the phase state set. */
export const PHASES = ['Undefined', 'Initializing', 'Running', 'Degraded', 'Completed', 'Failed', 'Suspending', 'Suspended', 'Resuming'];

const WORKLOAD = ['namespace', 'workload_kind', 'workload'];
const COMPONENT = [...WORKLOAD, 'component'];
const INSTANCE = [...COMPONENT, 'instance'];

/** The families of workloads, in the order they are written. */
export const WORKLOAD_FAMILIES = [
  {
    name: 'workload_map_workload_info',
    type: 'info',
    help: 'A top-level workload the exporter resolved, with its apiVersion, uid and the definition that read it (origin: catalog or cluster).',
    labels: [...WORKLOAD, 'api_version', 'uid', 'definition', 'origin'],
  },
  {
    name: 'workload_map_workload_status_phase',
    type: 'stateset',
    help: "The workload's phases, one series per phase: 1 when the definition's status mappings match it (several can), else 0.",
    labels: [...WORKLOAD, 'phase'],
  },
  {
    name: 'workload_map_workload_status_phase_last_transition_timestamp_seconds',
    type: 'gauge',
    help: "When the workload's phases last changed, in seconds since the epoch: the time the exporter saw the change, or for a workload first seen, the newest lastTransitionTime of its status conditions (else its creationTimestamp).",
    labels: WORKLOAD,
  },
  {
    name: 'workload_map_workload_gpus_requested',
    type: 'gauge',
    help: 'GPUs (nvidia.com/gpu + amd.com/gpu) the workload asks for: each pod spec times its desired replicas, summed.',
    labels: WORKLOAD,
  },
  {
    name: 'workload_map_component_pods_desired',
    type: 'gauge',
    help: "Pods the component asks for (all its instances, its children's included).",
    labels: COMPONENT,
  },
  { name: 'workload_map_component_pods_current', type: 'gauge', help: 'Pods placed in the component.', labels: COMPONENT },
  {
    name: 'workload_map_component_pods_ready',
    type: 'gauge',
    help: 'Pods placed in the component that are ready: their Ready condition is True and they are not terminating.',
    labels: COMPONENT,
  },
  { name: 'workload_map_component_gpus_requested', type: 'gauge', help: 'GPUs the component asks for (its children included).', labels: COMPONENT },
  {
    name: 'workload_map_instance_pods_desired',
    type: 'gauge',
    help: 'Pods one instance of a component asks for. instance: the instance ids from the top down, joined by "/" ("" for a single instance without an id).',
    labels: INSTANCE,
  },
  { name: 'workload_map_instance_pods_current', type: 'gauge', help: 'Pods placed in the instance.', labels: INSTANCE },
  {
    name: 'workload_map_instance_pods_ready',
    type: 'gauge',
    help: 'Pods placed in the instance that are ready: their Ready condition is True and they are not terminating.',
    labels: INSTANCE,
  },
  { name: 'workload_map_instance_gpus_requested', type: 'gauge', help: 'GPUs the instance asks for (its children included).', labels: INSTANCE },
  {
    name: 'workload_map_pod_info',
    type: 'info',
    help: 'A pod and the one top-level workload, component and instance it belongs to (its controller chain, placed by the definition; component and instance empty when the definition places it in none), the node it runs on (spec.nodeName, empty when unscheduled) and whether it is terminating (being deleted, not finished: "true" or "false"): join pod telemetry on namespace and pod.',
    labels: ['namespace', 'pod', 'workload_kind', 'workload', 'component', 'instance', 'node', 'terminating'],
  },
];

const FAMILY_INDEX = new Map(WORKLOAD_FAMILIES.map((f, i) => [f.name, i]));

/** Headers of the workload families, written once. */
export const WORKLOAD_HEADERS = WORKLOAD_FAMILIES.map((family) => familyHeader(family));

/** The exporter's own families. */
export const SELF_FAMILIES = {
  info: { name: 'workload_map_exporter_info', type: 'info', help: 'The exporter: its version and shard.', labels: ['version', 'shard', 'total_shards'] },
  definition: {
    name: 'workload_map_definition_info',
    type: 'info',
    help: "A definition in force: the catalog's, or a Karta of the cluster that replaces it (origin), and whether the API server serves its type.",
    labels: ['definition', 'group', 'version', 'kind', 'origin', 'served'],
  },
  karta: {
    name: 'workload_map_karta_info',
    type: 'info',
    help: 'A Karta of the cluster: the type it claims, its state (in-force; conflict: another Karta claims the type, the catalog reads it; no-root-kind: it names no type) and whether the core finds it valid (no errors).',
    labels: ['karta', 'group', 'version', 'kind', 'state', 'valid'],
  },
  kartaErrors: {
    name: 'workload_map_karta_errors',
    type: 'gauge',
    help: 'Errors the core finds in the Karta (the exporter logs them once).',
    labels: ['karta'],
  },
  kartaWarnings: {
    name: 'workload_map_karta_warnings',
    type: 'gauge',
    help: 'Warnings the core finds in the Karta, and fields the API server dropped from what kubectl applied.',
    labels: ['karta'],
  },
  synced: {
    name: 'workload_map_exporter_last_sync_timestamp_seconds',
    type: 'gauge',
    help: "The time up to which the exporter's series are proven to match the API server, in seconds since the epoch: the oldest of every watch's last list or bookmark, taken when nothing is waiting to be resolved (bookmarks, asked for by a heartbeat read where needed, move it about every minute in a quiet cluster); 0 before the first sync.",
    labels: [],
  },
  up: { name: 'workload_map_exporter_watch_up', type: 'gauge', help: '1 when the watch of the resource is open, else 0.', labels: ['resource'] },
  restarts: {
    name: 'workload_map_exporter_watch_restarts_total',
    type: 'counter',
    help: 'Watches started again after the first (the server ended one, the connection was cut, or its resourceVersion expired).',
    labels: ['resource'],
  },
  relists: {
    name: 'workload_map_exporter_lists_total',
    type: 'counter',
    help: 'Full lists of the resource (the first, and each after a 410 Gone).',
    labels: ['resource'],
  },
  objects: { name: 'workload_map_exporter_objects', type: 'gauge', help: 'Objects of the resource the exporter holds.', labels: ['resource'] },
  resolves: { name: 'workload_map_exporter_resolves_total', type: 'counter', help: 'Resolve passes (each resolves the namespaces that changed).', labels: [] },
  errors: {
    name: 'workload_map_exporter_resolve_errors_total',
    type: 'counter',
    help: 'Resolve passes that failed (the engine stopped on an input); the namespaces are resolved again.',
    labels: [],
  },
  workloads: { name: 'workload_map_exporter_workloads', type: 'gauge', help: 'Workloads this shard exports.', labels: [] },
};

const number = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * The series of one resolved workload (an item of `resolveAll` with a view), as lines per family:
 * an array indexed like WORKLOAD_FAMILIES. `definition` is `{ name, origin }`, `since` the phase
 * transition time in seconds. A pod the definition places in no component (the view's
 * `pods.unplaced`) is attributed to the workload alone (`component` and `instance` empty).
 */
export function workloadLines(item, object, definition, since) {
  const lines = WORKLOAD_FAMILIES.map(() => '');
  const add = (family, labels, value) => {
    const i = FAMILY_INDEX.get(family);
    lines[i] += sampleLine(family, labels, value);
  };
  const view = item.view;
  const base = [
    ['namespace', item.namespace ?? ''],
    ['workload_kind', item.kind],
    ['workload', item.name],
  ];
  add(
    'workload_map_workload_info',
    [...base, ['api_version', item.apiVersion], ['uid', object?.metadata?.uid ?? ''], ['definition', definition.name], ['origin', definition.origin]],
    1,
  );
  const phases = view.phases ?? [];
  for (const phase of [...PHASES, ...phases.filter((p) => !PHASES.includes(p))]) {
    add('workload_map_workload_status_phase', [...base, ['phase', phase]], phases.includes(phase) ? 1 : 0);
  }
  add('workload_map_workload_status_phase_last_transition_timestamp_seconds', base, since);
  add('workload_map_workload_gpus_requested', base, number(view.resources?.gpus));

  const components = new Map();
  const placement = new Map();
  const walk = (component, prefix) => {
    const total = components.get(component.name) ?? { desired: 0, current: 0, ready: 0, gpus: 0 };
    total.desired += number(component.podCount?.desired);
    total.current += number(component.podCount?.current);
    total.ready += number(component.podCount?.ready);
    total.gpus += number(component.resources?.gpus);
    components.set(component.name, total);
    for (const pod of component.pods?.items ?? []) placement.set(pod.name, [component.name, prefix.join('/'), pod]);
    for (const instance of component.instances ?? []) {
      const path = instance.id === null || instance.id === undefined ? prefix : [...prefix, instance.id];
      const labels = [...base, ['component', component.name], ['instance', path.join('/')]];
      add('workload_map_instance_pods_desired', labels, number(instance.podCount?.desired));
      add('workload_map_instance_pods_current', labels, number(instance.podCount?.current));
      add('workload_map_instance_pods_ready', labels, number(instance.podCount?.ready));
      add('workload_map_instance_gpus_requested', labels, number(instance.resources?.gpus));
      // A pod is placed where the core places it deepest: children are walked after their parent.
      for (const pod of instance.pods?.items ?? []) placement.set(pod.name, [component.name, path.join('/'), pod]);
      for (const child of instance.children ?? []) walk(child, path);
    }
  };
  if (view.root) walk(view.root, []);
  for (const [name, total] of components) {
    const labels = [...base, ['component', name]];
    add('workload_map_component_pods_desired', labels, total.desired);
    add('workload_map_component_pods_current', labels, total.current);
    add('workload_map_component_pods_ready', labels, total.ready);
    add('workload_map_component_gpus_requested', labels, total.gpus);
  }
  for (const pod of view.pods?.unplaced ?? []) if (!placement.has(pod.name)) placement.set(pod.name, ['', '', pod]);
  const ns = item.namespace ?? '';
  for (const [name, [component, instance, pod]] of placement) {
    add(
      'workload_map_pod_info',
      [
        ['namespace', ns],
        ['pod', name],
        ['workload_kind', item.kind],
        ['workload', item.name],
        ['component', component],
        ['instance', instance],
        ['node', pod.node ?? ''],
        ['terminating', String(pod.terminating === true)],
      ],
      1,
    );
  }
  return lines;
}

/**
 * The time a workload first seen entered its phases, in seconds: the newest lastTransitionTime
 * of its status conditions, else its creationTimestamp, else `now`.
 */
export function firstSeenSince(object, now) {
  let newest = 0;
  const conditions = object?.status?.conditions;
  if (Array.isArray(conditions)) {
    for (const condition of conditions) {
      const t = Date.parse(condition?.lastTransitionTime ?? '');
      if (Number.isFinite(t) && t > newest) newest = t;
    }
  }
  if (!newest) newest = Date.parse(object?.metadata?.creationTimestamp ?? '');
  if (!Number.isFinite(newest) || !newest || newest > now) newest = now;
  return Math.floor(newest / 1000);
}

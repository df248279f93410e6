// How amounts read on screen. Resources come from the view in integer units (GPUs, millicores,
// bytes), exact unless marked incomplete: then an amount n > 0 reads "≥ n" (a lower bound) and 0
// reads "n/a" (nothing known), never 0 as if exact. Products computed here that a JavaScript
// number cannot hold exactly become Number.MAX_SAFE_INTEGER as a lower bound, never rounded.

const GPU_RESOURCES = new Set(['nvidia.com/gpu', 'amd.com/gpu']);

export function isGpuResource(name) {
  return GPU_RESOURCES.has(name);
}

/** `text` of an amount, as a lower bound or "n/a" when `incomplete`. */
function bounded(amount, incomplete, text) {
  if (!incomplete) return text;
  return amount > 0 ? `≥ ${text}` : 'n/a';
}

/** A whole count: "n/a" when unknown, "≥ n" when only partly known. */
export function count(value, incomplete = false) {
  return bounded(value, incomplete, String(value));
}

const FIELDS = ['gpus', 'cpuMillis', 'memoryBytes', 'extended'];

/** Whether `field` of a resources object is a lower bound (`lowerBounds`; else `incomplete`). */
export function isLowerBound(resources, field) {
  if (!resources) return true;
  return resources.lowerBounds ? resources.lowerBounds.includes(field) : Boolean(resources.incomplete);
}

/** GPUs of a resources object: "n/a" when unknown, "≥ n" when only partly known. */
export function gpus(resources) {
  if (!resources) return 'n/a';
  return bounded(resources.gpus, isLowerBound(resources, 'gpus'), String(resources.gpus));
}

export function cpu(millis, incomplete = false) {
  if (millis === undefined || millis === null) return 'n/a';
  return bounded(millis, incomplete, cpuText(millis));
}

function cpuText(millis) {
  if (millis % 1000 === 0) return `${millis / 1000}`;
  if (millis < 1000) return `${millis}m`;
  return `${(millis / 1000).toFixed(3).replace(/0+$/, '')}`;
}

const BINARY = [
  ['Ei', 2 ** 60],
  ['Pi', 2 ** 50],
  ['Ti', 2 ** 40],
  ['Gi', 2 ** 30],
  ['Mi', 2 ** 20],
  ['Ki', 2 ** 10],
];

export function memory(bytes, incomplete = false) {
  if (bytes === undefined || bytes === null) return 'n/a';
  return bounded(bytes, incomplete, memoryText(bytes));
}

function memoryText(bytes) {
  if (bytes === 0) return '0';
  for (const [unit, size] of BINARY) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : value.toFixed(2)} ${unit}`;
    }
  }
  return `${bytes} B`;
}

export function gvk(kind) {
  if (!kind) return 'logical';
  return `${kind.group ? `${kind.group}/` : ''}${kind.version}/${kind.kind}`;
}

/** desired ("≥ n" or "n/a" when only partly known), plus "(min a, max b)" when read. */
export function replicas(r) {
  if (!r) return '';
  const bounds = [];
  if (r.min !== undefined && r.min !== null) bounds.push(`min ${r.min}`);
  if (r.max !== undefined && r.max !== null) bounds.push(`max ${r.max}`);
  const desired = bounded(r.desired, r.incomplete, String(r.desired));
  return bounds.length ? `${desired} (${bounds.join(', ')})` : desired;
}

/**
 * Adds `pod × n` into `into` (a resources object). A product or sum beyond what a JavaScript
 * number holds exactly becomes Number.MAX_SAFE_INTEGER, a lower bound; an unknown count
 * (`nLowerBound`) makes every non-zero amount a lower bound.
 */
function addScaled(into, pod, n, nLowerBound) {
  const bounds = new Set(into.lowerBounds);
  for (const field of FIELDS) if (isLowerBound(pod, field)) bounds.add(field);
  const add = (field, current, amount) => {
    // Nothing times any count is still nothing: only what a pod asks for is unknown.
    if (nLowerBound && amount > 0) bounds.add(field);
    const value = current + amount * n;
    if (Number.isSafeInteger(amount * n) && Number.isSafeInteger(value)) return value;
    bounds.add(field);
    return Number.MAX_SAFE_INTEGER;
  };
  into.gpus = add('gpus', into.gpus, pod.gpus);
  into.cpuMillis = add('cpuMillis', into.cpuMillis, pod.cpuMillis);
  into.memoryBytes = add('memoryBytes', into.memoryBytes, pod.memoryBytes);
  for (const [name, amount] of Object.entries(pod.extended ?? {})) {
    into.extended[name] = add('extended', into.extended[name] ?? 0, amount);
  }
  into.lowerBounds = FIELDS.filter((field) => bounds.has(field));
  into.incomplete = into.lowerBounds.length > 0;
  return into;
}

function empty(unknown) {
  return { gpus: 0, cpuMillis: 0, memoryBytes: 0, extended: {}, incomplete: unknown, lowerBounds: unknown ? [...FIELDS] : [] };
}

/** One instance's own pods: its per-pod request × its desired replicas. */
export function instanceResources(instance) {
  if (!instance.podResources) return empty(true);
  return addScaled(empty(false), instance.podResources, instance.replicas?.desired ?? 0, Boolean(instance.replicas?.incomplete));
}

/**
 * A component's own pods (per-pod request × desired replicas, over its instances); lower
 * bounds when its instances, a count or a pod spec could not be read.
 */
export function ownResources(component) {
  const own = empty(Boolean(component.replicas?.incomplete) && (component.instances ?? []).length === 0);
  for (const instance of component.instances ?? []) {
    const pod = instance.podResources;
    if (!pod) continue;
    addScaled(own, pod, instance.replicas?.desired ?? 0, Boolean(instance.replicas?.incomplete));
  }
  return own;
}

// How amounts read on screen. Resources come from the view in integer units (GPUs, millicores,
// bytes); "n/a" stands where a value cannot be known, never 0.

const GPU_RESOURCES = new Set(['nvidia.com/gpu', 'amd.com/gpu']);

export function isGpuResource(name) {
  return GPU_RESOURCES.has(name);
}

/** GPUs of a resources object: "n/a" when unknown, "≥ n" when only partly known. */
export function gpus(resources) {
  if (!resources) return 'n/a';
  if (resources.incomplete) return resources.gpus > 0 ? `≥ ${resources.gpus}` : 'n/a';
  return String(resources.gpus);
}

export function cpu(millis) {
  if (millis === undefined || millis === null) return 'n/a';
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

export function memory(bytes) {
  if (bytes === undefined || bytes === null) return 'n/a';
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

/** desired, plus "(min a, max b)" when the definition reads them. */
export function replicas(r) {
  if (!r) return '';
  const bounds = [];
  if (r.min !== undefined && r.min !== null) bounds.push(`min ${r.min}`);
  if (r.max !== undefined && r.max !== null) bounds.push(`max ${r.max}`);
  return bounds.length ? `${r.desired} (${bounds.join(', ')})` : String(r.desired);
}

/** A component's own pods (per-pod request × desired replicas, over its instances). */
export function ownResources(component) {
  const own = { gpus: 0, cpuMillis: 0, memoryBytes: 0, extended: {}, incomplete: false };
  for (const instance of component.instances ?? []) {
    const pod = instance.podResources;
    if (!pod) continue;
    const n = instance.replicas?.desired ?? 0;
    own.gpus += pod.gpus * n;
    own.cpuMillis += pod.cpuMillis * n;
    own.memoryBytes += pod.memoryBytes * n;
    own.incomplete ||= Boolean(pod.incomplete);
    for (const [name, amount] of Object.entries(pod.extended ?? {})) {
      own.extended[name] = (own.extended[name] ?? 0) + amount * n;
    }
  }
  return own;
}

// Words for the view's fields that are not amounts. Every number shown comes from the view as
// the core formatted it (`text` on resources, replicas, pod counts: "16Gi", "≥ 3", "n/a"); this
// module computes and formats no amount.

const GPU_RESOURCES = new Set(['nvidia.com/gpu', 'amd.com/gpu']);

export function isGpuResource(name) {
  return GPU_RESOURCES.has(name);
}

export function gvk(kind) {
  if (!kind) return 'logical';
  return `${kind.group ? `${kind.group}/` : ''}${kind.version}/${kind.kind}`;
}

/** The view's `replicas.text`, plus "(min a, max b)" when the view read them. */
export function replicas(r) {
  if (!r) return '';
  const bounds = [];
  if (r.min !== undefined && r.min !== null) bounds.push(`min ${r.min}`);
  if (r.max !== undefined && r.max !== null) bounds.push(`max ${r.max}`);
  return bounds.length ? `${r.text} (${bounds.join(', ')})` : r.text;
}

// The Prometheus text exposition format (version 0.0.4): `# HELP` and `# TYPE` lines, then one
// line per sample, every family's samples together. Label values escape `\`, `"` and line feeds;
// HELP text escapes `\` and line feeds; values are Go's float spellings (`NaN`, `+Inf`, `-Inf`).

/** The content type of the text format, for the `/metrics` response. */
export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A label value as the format writes it between double quotes. */
export function escapeLabelValue(value) {
  return String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text as the format writes it. */
export function escapeHelp(text) {
  return String(text).replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** A sample value: integers as written, `NaN`, `+Inf`, `-Inf`. */
export function formatValue(value) {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/**
 * One sample line: `name{a="x",b="y"} value`. `labels` is an array of `[name, value]` pairs (in
 * the order written) or an object; label names are checked once per family by `family`.
 */
export function sampleLine(name, labels, value) {
  const pairs = Array.isArray(labels) ? labels : Object.entries(labels ?? {});
  const text = pairs.map(([label, v]) => `${label}="${escapeLabelValue(v)}"`).join(',');
  return `${name}${text ? `{${text}}` : ''} ${formatValue(value)}\n`;
}

/**
 * A metric family's header: its HELP and TYPE lines. Throws for a name or type the format does
 * not allow (a bug of ours, never user input).
 */
export function familyHeader({ name, help, type, labels = [] }) {
  if (!NAME.test(name)) throw new Error(`invalid metric name ${name}`);
  if (!['gauge', 'counter', 'info', 'stateset', 'untyped'].includes(type)) throw new Error(`invalid metric type ${type}`);
  for (const label of labels) if (!LABEL.test(label) || label.startsWith('__')) throw new Error(`invalid label name ${label}`);
  // The 0.0.4 text format knows gauge, counter and untyped; info and state sets are gauges there.
  const written = type === 'info' || type === 'stateset' ? 'gauge' : type;
  return `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${written}\n`;
}

/**
 * A whole exposition from families `{ name, help, type, labels, samples: [{labels, value}] }`
 * (labels of a sample: pairs in the family's label order, or an object).
 */
export function render(families) {
  let text = '';
  for (const family of families) {
    text += familyHeader(family);
    for (const sample of family.samples) text += sampleLine(family.name, sample.labels, sample.value);
  }
  return text;
}

// jq paths in the definition, read against the current manifest: what `.spec.` can continue with
// and what `.spec.replicas` holds. Only simple path syntax is understood (`.a.b`, `.a[]`, `.a[0]`,
// `.a["x"]`, `."x"`), which is what definitions write for their paths; anything else (a pipe
// into a function, arithmetic) ends the path where it stops being one. Nothing here evaluates
// jq: the engine does that in the worker.

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PATH_CHAR = /[A-Za-z0-9_.[\]?]/;
/** Characters that may precede a path in an expression (so `a.b` or `x.y` in prose is not one). */
const BEFORE_PATH = /[\s(|,:;=!<>+\-*/{['"?]/;

/**
 * The path token that ends at `offset` in `line` (the text of one line), or null: its start
 * offset in the line and its text. A path starts with `.` after a space, an operator or the
 * start of the line, outside a YAML comment.
 */
export function pathBefore(line, offset) {
  let start = offset;
  while (start > 0) {
    const c = line[start - 1];
    if (c === '"') {
      // A quoted key (`."x"`, `["x"]`) belongs to the path; any other quote ends it.
      const open = line.lastIndexOf('"', start - 2);
      if (open > 0 && (line[open - 1] === '.' || line[open - 1] === '[')) {
        start = open;
        continue;
      }
      break;
    }
    if (!PATH_CHAR.test(c)) break;
    start--;
  }
  const text = line.slice(start, offset);
  if (!text.startsWith('.')) return null;
  if (start > 0 && !BEFORE_PATH.test(line[start - 1])) return null;
  if (isComment(line, start)) return null;
  return { start, text };
}

/** The path token around `offset` in `line` (for hover), or null. */
export function pathAt(line, offset) {
  let end = offset;
  while (end < line.length && /[A-Za-z0-9_]/.test(line[end])) end++;
  while (end < line.length && line[end] === '[') {
    const close = line.indexOf(']', end);
    if (close < 0) break;
    end = close + 1;
    // jq's optional iteration (`[]?`), as catalog definitions write it.
    if (line[end] === '?') end++;
  }
  const found = pathBefore(line, end);
  if (!found || found.start > offset) return null;
  return { ...found, end };
}

function isComment(line, before) {
  let quote = null;
  for (let i = 0; i < before; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
      return true;
    }
  }
  return false;
}

/**
 * Parses a path: its steps (`{key}`, `{index}`, `{each: true}`) and the partial key being typed
 * after the last `.` (`''` right after it), or null when the text is not a simple path.
 */
export function parsePath(text) {
  const steps = [];
  let i = 0;
  let partial = null;
  while (i < text.length) {
    if (text[i] === '.') {
      i++;
      if (text[i] === '"') {
        const { value, next } = readString(text, i);
        if (next < 0) return null;
        steps.push({ key: value });
        i = next;
        continue;
      }
      let j = i;
      while (j < text.length && /[A-Za-z0-9_]/.test(text[j])) j++;
      const name = text.slice(i, j);
      if (j === text.length) {
        partial = name;
        i = j;
        break;
      }
      if (name === '') {
        if (text[j] !== '[') return null;
      } else {
        if (!IDENT.test(name)) return null;
        steps.push({ key: name });
      }
      i = j;
    } else if (text[i] === '?') {
      // `.a?`, `.a[]?`: jq's optional forms read the same fields.
      i++;
    } else if (text[i] === '[') {
      const close = text.indexOf(']', i);
      if (close < 0) return null;
      const inside = text.slice(i + 1, close);
      if (inside === '') steps.push({ each: true });
      else if (/^\d+$/.test(inside)) steps.push({ index: Number(inside) });
      else if (inside.startsWith('"')) {
        const { value, next } = readString(inside, 0);
        if (next !== inside.length) return null;
        steps.push({ key: value });
      } else return null;
      i = close + 1;
    } else {
      return null;
    }
  }
  return { steps, partial };
}

function readString(text, at) {
  let out = '';
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') {
      out += text[i + 1] ?? '';
      i++;
    } else if (text[i] === '"') {
      return { value: out, next: i + 1 };
    } else {
      out += text[i];
    }
  }
  return { value: out, next: -1 };
}

/** Every value the steps lead to from `root` (`[]` spreads arrays and objects, as jq's `.[]`). */
export function valuesAt(root, steps) {
  let current = root === undefined || root === null ? [] : [root];
  for (const step of steps) {
    const next = [];
    for (const value of current) {
      if (step.each) {
        if (Array.isArray(value)) next.push(...value);
        else if (value && typeof value === 'object') next.push(...Object.values(value));
      } else if (step.index !== undefined) {
        if (Array.isArray(value) && step.index < value.length) next.push(value[step.index]);
      } else if (value && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, step.key)) {
        next.push(value[step.key]);
      }
    }
    current = next;
    if (current.length === 0) break;
  }
  return current;
}

/**
 * What may follow the path typed so far: the keys of the objects it leads to (a key whose value
 * is a list also as `key[]`), each with the kind of its value. `{from, options}`: `from` is the
 * offset in `text` where the partial key starts.
 */
export function completions(root, text) {
  const parsed = parsePath(text);
  if (!parsed || parsed.partial === null) return null;
  const seen = new Map();
  for (const value of valuesAt(root, parsed.steps)) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      if (!seen.has(key)) seen.set(key, child);
    }
  }
  const options = [];
  for (const [key, child] of seen) {
    const written = IDENT.test(key) ? key : JSON.stringify(key);
    const kind = kindOf(child);
    if (Array.isArray(child)) options.push({ label: `${written}[]`, detail: `each of ${child.length}`, type: 'property', boost: 1 });
    options.push({ label: written, detail: kind, type: 'property' });
  }
  return { from: text.length - parsed.partial.length, options };
}

function kindOf(value) {
  if (Array.isArray(value)) return `list of ${value.length}`;
  if (value === null) return 'null';
  if (typeof value === 'object') return `object (${Object.keys(value).length} keys)`;
  return typeof value;
}

/** The manifest's values at a path as short text (at most `limit` characters), or null. */
export function describeValues(root, text, limit = 240) {
  const parsed = parsePath(text);
  if (!parsed) return null;
  const steps = parsed.partial ? [...parsed.steps, { key: parsed.partial }] : parsed.steps;
  const values = valuesAt(root, steps);
  if (values.length === 0) return `${text}: not in the manifest`;
  const shown = values.slice(0, 5).map((v) => truncate(JSON.stringify(v) ?? String(v), limit));
  const more = values.length > shown.length ? `\n… ${values.length - shown.length} more` : '';
  return `${text} = ${shown.join('\n')}${more}`;
}

function truncate(text, limit) {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

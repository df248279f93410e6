// `node scripts/check-layers.mjs`: the module structure of the core crate (src/), checked.
//
// Reads every `crate::` and `super::` path of src/**/*.rs (comments, strings and the `#[cfg(test)]`
// module at the end of a file left out; src/modules.rs, the crate root's included part, is the
// root) and fails on
//   - a cycle between modules: between top-level modules (`compile` → `edit` → `compile`), and
//     between the submodules of one module (`definition::read` ⇄ `definition::schema`); a
//     module using its parent's items, or a parent its children's, is not an edge;
//   - an upward import: a module importing one of a higher layer than its own, the layers being
//     the numbered list in ARCHITECTURE.md's "Layers" section (lowest first; each item names its
//     modules in backticks before the colon);
//   - a top-level module that no layer lists, or a listed module that does not exist;
//   - the JavaScript boundary (crates/wasm, which compiles the core into itself) using one of the
//     core's private modules.
// Plain Node, no dependencies. `npm test` runs it; tests/node/check-layers.test.mjs plants a
// cycle and an upward import in a copy and sees them reported.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Module paths (`definition::read`) of every .rs file under `srcDir`, with the file's text. */
export function readModules(srcDir) {
  const modules = new Map();
  const walk = (dir, prefix) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) {
        walk(full, [...prefix, name]);
      } else if (name.endsWith('.rs') && !(prefix.length === 0 && name === 'modules.rs')) {
        // src/modules.rs is no module: src/lib.rs (and crates/wasm) include it as the crate root.
        const stem = name.slice(0, -3);
        const parts = stem === 'mod' || (prefix.length === 0 && (stem === 'lib' || stem === 'main')) ? prefix : [...prefix, stem];
        modules.set(parts.join('::'), readFileSync(full, 'utf8'));
      }
    }
  };
  walk(srcDir, []);
  return modules;
}

/** The code of a file without comments, string and char literals, and its trailing test module. */
export function codeOf(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < text.length && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') {
          depth += 1;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          depth -= 1;
          i += 2;
        } else i += 1;
      }
    } else if (c === 'r' && /^r#*"/.test(text.slice(i, i + 10)) && !/[A-Za-z0-9_]/.test(text[i - 1] ?? '')) {
      const hashes = /^r(#*)"/.exec(text.slice(i))[1];
      const end = text.indexOf(`"${hashes}`, i + hashes.length + 2);
      i = end < 0 ? text.length : end + hashes.length + 1;
      out += '""';
    } else if (c === '"') {
      i += 1;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i += 1;
      out += '""';
    } else if (
      c === "'" &&
      (/^'\\?.'/.test(text.slice(i, i + 4)) || /^'\\u\{[0-9a-fA-F]+\}'/.test(text.slice(i, i + 12)) || /^'\\x[0-9a-fA-F]{2}'/.test(text.slice(i, i + 6)))
    ) {
      // A char literal (a lifetime `'a` has no closing quote).
      i = text.indexOf("'", i + 2) + 1;
      out += "' '";
    } else {
      out += c;
      i += 1;
    }
  }
  const tests = /#\[cfg\(test\)\]\s*mod\s+\w+\s*\{/.exec(out);
  return tests ? out.slice(0, tests.index) : out;
}

/** Every module path the code names: `crate::a::b::C`, `use crate::{a::b, c}`, `super::x`. */
export function referencedPaths(code, self) {
  const found = [];
  const expand = (base, rest) => {
    // `rest` follows `base::`: either `{ ... }` (a group, possibly nested) or `a::b::...`.
    rest = rest.trimStart();
    if (rest.startsWith('{')) {
      let depth = 0;
      let start = 1;
      for (let i = 0; i < rest.length; i += 1) {
        if (rest[i] === '{') depth += 1;
        else if (rest[i] === '}') {
          depth -= 1;
          if (depth === 0) {
            const inner = rest.slice(start, i);
            if (inner.trim()) expand(base, inner);
            return;
          }
        } else if (rest[i] === ',' && depth === 1) {
          expand(base, rest.slice(start, i));
          start = i + 1;
        }
      }
      return;
    }
    const m = /^((?:[A-Za-z_][A-Za-z0-9_]*\s*::\s*)*)(\{|[A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    if (!m) return;
    const segs = m[1]
      .split('::')
      .map((s) => s.trim())
      .filter(Boolean);
    if (m[2] === '{') {
      expand([...base, ...segs], rest.slice(m[1].length));
    } else {
      found.push([...base, ...segs, m[2]]);
    }
  };
  const pattern = /\b(crate|super)\s*::/g;
  let m;
  while ((m = pattern.exec(code)) !== null) {
    if (m[1] === 'super' && /::\s*$/.test(code.slice(0, m.index))) continue; // super::super::: taken with the first
    let base;
    let restStart = pattern.lastIndex;
    if (m[1] === 'crate') {
      base = [];
    } else {
      base = self.slice(0, -1);
      let rest = code.slice(restStart);
      while (/^\s*super\s*::/.test(rest)) {
        const step = /^\s*super\s*::/.exec(rest)[0];
        base = base.slice(0, -1);
        restStart += step.length;
        rest = rest.slice(step.length);
      }
    }
    expand(base, code.slice(restStart, restStart + 4000));
  }
  return found;
}

/** The longest module path among `known` that `segments` starts with ([] for the crate root). */
function moduleOf(segments, known) {
  for (let n = segments.length; n > 0; n -= 1) {
    const candidate = segments.slice(0, n).join('::');
    if (known.has(candidate)) return candidate;
  }
  return '';
}

/** Edges between modules: [from, to] module paths, each pair once. */
export function moduleEdges(modules) {
  const known = new Set(modules.keys());
  const edges = new Map();
  for (const [name, text] of modules) {
    const self = name === '' ? [] : name.split('::');
    for (const segments of referencedPaths(codeOf(text), self)) {
      const target = moduleOf(segments, known);
      if (target === name || target === '') continue;
      const key = `${name}\u0000${target}`;
      if (!edges.has(key)) edges.set(key, [name, target]);
    }
  }
  return [...edges.values()];
}

/**
 * Cycles among sibling modules: every edge a → b becomes an edge between the children of their
 * deepest common ancestor that contain them (an edge between a module and its own ancestor or
 * descendant is none). Returns each cycle once, as a list of module paths.
 */
export function findCycles(edges) {
  const graphs = new Map();
  for (const [from, to] of edges) {
    const a = from.split('::');
    const b = to.split('::');
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common += 1;
    if (common === a.length || common === b.length) continue;
    const parent = a.slice(0, common).join('::');
    const x = a.slice(0, common + 1).join('::');
    const y = b.slice(0, common + 1).join('::');
    if (!graphs.has(parent)) graphs.set(parent, new Map());
    const g = graphs.get(parent);
    if (!g.has(x)) g.set(x, new Set());
    if (!g.has(y)) g.set(y, new Set());
    g.get(x).add(y);
  }
  const cycles = [];
  for (const g of graphs.values()) {
    // Tarjan's strongly connected components; a component of two or more is a cycle.
    let index = 0;
    const indices = new Map();
    const low = new Map();
    const stack = [];
    const onStack = new Set();
    const connect = (v) => {
      indices.set(v, index);
      low.set(v, index);
      index += 1;
      stack.push(v);
      onStack.add(v);
      for (const w of g.get(v)) {
        if (!indices.has(w)) {
          connect(w);
          low.set(v, Math.min(low.get(v), low.get(w)));
        } else if (onStack.has(w)) {
          low.set(v, Math.min(low.get(v), indices.get(w)));
        }
      }
      if (low.get(v) === indices.get(v)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) cycles.push(cyclePath(g, component));
      }
    };
    for (const v of [...g.keys()].sort()) if (!indices.has(v)) connect(v);
  }
  return cycles;
}

/** One cycle through a strongly connected component, as a path `a → b → a`. */
function cyclePath(g, component) {
  const inside = new Set(component);
  const start = [...component].sort()[0];
  // Breadth-first from start until an edge leads back to it.
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of [...g.get(v)].sort()) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== null; u = previous.get(u)) path.unshift(u);
        return path;
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...component, component[0]];
}

/** The layers of ARCHITECTURE.md's "## Layers" section: a list of module-name lists, lowest first. */
export function readLayers(architecture) {
  const section = /^## Layers\s*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(architecture);
  if (!section) throw new Error('ARCHITECTURE.md has no "## Layers" section');
  const layers = [];
  for (const line of section[1].split('\n')) {
    const item = /^\d+\.\s+(.*)$/.exec(line);
    if (!item) continue;
    const head = item[1].split(':')[0];
    const names = [...head.matchAll(/`([a-z_][a-z0-9_]*)`/g)].map((x) => x[1]);
    if (names.length > 0) layers.push(names);
  }
  if (layers.length === 0) throw new Error('ARCHITECTURE.md\'s "Layers" section lists no layers');
  return layers;
}

/**
 * The JavaScript boundary (crates/wasm) compiles the core into itself (see its Cargo.toml), so
 * the compiler would let it use the core's private modules: it must not. Returns a problem for
 * every use of a module that src/modules.rs declares without `pub`.
 */
export function boundaryProblems(root) {
  const dir = path.join(root, 'crates', 'wasm', 'src');
  const modulesFile = path.join(root, 'src', 'modules.rs');
  let declared;
  try {
    declared = readFileSync(modulesFile, 'utf8');
  } catch {
    return [];
  }
  const privateModules = [...codeOf(declared).matchAll(/^\s*mod\s+([a-z_][a-z0-9_]*)\s*;/gm)].map((m) => m[1]);
  const problems = [];
  let files = [];
  try {
    files = readdirSync(dir)
      .filter((name) => name.endsWith('.rs'))
      .sort();
  } catch {
    return [];
  }
  for (const name of files) {
    const code = codeOf(readFileSync(path.join(dir, name), 'utf8'));
    for (const m of privateModules) {
      if (new RegExp(`(?<![A-Za-z0-9_])(crate\\s*::\\s*)?${m}\\s*::`).test(code)) {
        problems.push(`crates/wasm/src/${name} uses the core's private module \`${m}\` (the boundary uses the public API only)`);
      }
    }
  }
  return problems;
}

/** Every problem found, as lines of text (none: the structure holds). */
export function check(root) {
  const modules = readModules(path.join(root, 'src'));
  const edges = moduleEdges(modules);
  const problems = [];
  for (const cycle of findCycles(edges)) problems.push(`cycle: ${cycle.join(' → ')}`);
  const layers = readLayers(readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8'));
  const layerOf = new Map();
  layers.forEach((names, i) => names.forEach((n) => layerOf.set(n, i)));
  const topLevel = new Set([...modules.keys()].filter((m) => m !== '').map((m) => m.split('::')[0]));
  for (const m of [...topLevel].sort()) {
    if (!layerOf.has(m)) problems.push(`module \`${m}\` is in no layer of ARCHITECTURE.md ("Layers")`);
  }
  for (const n of layerOf.keys()) {
    if (!topLevel.has(n)) problems.push(`ARCHITECTURE.md lists \`${n}\` in a layer, but src/ has no such module`);
  }
  for (const [from, to] of edges) {
    const a = from.split('::')[0];
    const b = to.split('::')[0];
    if (a === b || !layerOf.has(a) || !layerOf.has(b)) continue;
    if (layerOf.get(b) > layerOf.get(a)) {
      problems.push(`upward import: \`${from}\` (layer ${layerOf.get(a) + 1}) uses \`${to}\` (layer ${layerOf.get(b) + 1})`);
    }
  }
  problems.push(...boundaryProblems(root));
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
  const problems = check(root);
  if (problems.length > 0) {
    console.error(`check-layers: ${problems.length} problem(s) in src/:`);
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
  console.log('check-layers: no cycles, no upward imports');
}

// The JavaScript folders import only what ARCHITECTURE.md lets them: the package (js/) never
// imports the playground (www/), and the element's worker carries none of the playground's own
// work (share links, drafts, test cases).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { root } from './helpers.mjs';

/** Every JavaScript and declaration file under `dir`, as paths relative to the root. */
function sources(dir) {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(m|c)?(js|ts)$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** The specifiers a file imports, re-exports, requires or loads with import() or new URL(). */
function specifiers(file) {
  const text = readFileSync(path.join(root, file), 'utf8').replace(/^\s*(\/\/|\*|\/\*).*$/gm, '');
  const found = [];
  const patterns = [
    /\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]/g,
    /new URL\(\s*['"]([^'"]+)['"]/g,
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found;
}

test('nothing_under_js_imports_from_www', () => {
  const files = sources('js');
  assert.ok(files.includes(path.join('js', 'element', 'view.mjs')) && files.includes(path.join('js', 'render', 'worker.js')));
  const crossings = [];
  for (const file of files) {
    for (const specifier of specifiers(file)) {
      const target = specifier.startsWith('.') ? path.relative(root, path.resolve(root, path.dirname(file), specifier)) : specifier;
      if (target.split(/[\\/]/)[0] === 'www' || /(^|\/)www\//.test(specifier)) crossings.push(`${file} -> ${specifier}`);
    }
  }
  assert.deepEqual(crossings, []);
});

test('the_element_worker_bundle_carries_no_share_links_drafts_or_test_cases', () => {
  const worker = readFileSync(path.join(root, 'pkg', 'element-worker.mjs'), 'utf8');
  for (const name of ['decodeShare', 'DecompressionStream', 'draftFrom', 'caseOf', 'localStorage'])
    assert.ok(!worker.includes(name), `pkg/element-worker.mjs has no ${name}`);
  // What it is for: runs and resolveAll.
  assert.match(worker, /resolveAll/);
});

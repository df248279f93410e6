// The playground page's state has one owner (issue 20): main.js keeps no module-level `let`,
// and the state object (www/src/store.js) takes no field it does not declare.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createPageState } from '../../www/src/store.js';
import { root } from './browser.mjs';

test('main.js keeps its page state in the store, not in module-level variables', () => {
  const source = readFileSync(join(root, 'www', 'src', 'main.js'), 'utf8');
  // Module-level declarations start at the first column (the file is formatted that way).
  const lets = [...source.matchAll(/^(?:let|var)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]);
  assert.deepEqual(lets, []);
});

test('the page state is one sealed object: a misspelt field is an error, not a new field', () => {
  const page = createPageState();
  assert.equal(page.mode, 'catalog');
  assert.equal(page.waitingForEdit, false);
  page.mode = 'custom';
  assert.equal(page.mode, 'custom');
  assert.throws(() => {
    page.mdoe = 'catalog';
  }, TypeError);
  assert.equal('mdoe' in page, false);
  // Each page gets its own state.
  assert.notEqual(createPageState().loadHistory, page.loadHistory);
});

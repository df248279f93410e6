// Keyboard (issue 18, point 4): Tab moves focus out of an editor instead of indenting the YAML,
// until the user opts in with CodeMirror's Ctrl+M (its tab-focus mode); Esc then Tab leaves an
// editor where Tab indents; the "?" help says all of it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();

const inManifestEditor = (page) => page.evaluate(() => document.getElementById('manifest-editor').contains(document.activeElement));
const manifest = (page) => page.evaluate(() => window.playground.state.manifest);

test('Tab leaves the manifest editor without changing the text; Ctrl+M lets it indent; Esc then Tab leaves again', async () => {
  const page = await playground.open();
  const before = await manifest(page);
  await page.locator('#manifest-editor .cm-content').click();
  assert.equal(await inManifestEditor(page), true);
  await page.keyboard.press('Tab');
  assert.equal(await inManifestEditor(page), false);
  assert.equal(await manifest(page), before);
  // Shift+Tab comes back into it.
  await page.keyboard.press('Shift+Tab');
  assert.equal(await inManifestEditor(page), true);
  // Opted in: Tab indents and stays.
  await page.keyboard.press('Control+m');
  await page.keyboard.press('Tab');
  assert.equal(await inManifestEditor(page), true);
  assert.notEqual(await manifest(page), before);
  // Esc then Tab leaves even so.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  assert.equal(await inManifestEditor(page), false);
  await page.close();
});

test('the help says how Tab behaves in the editors and how to leave one', async () => {
  const page = await playground.open();
  await page.locator('#help-button').click();
  const help = await page.locator('#help').textContent();
  assert.match(help, /Tab does not indent/);
  assert.match(help, /Ctrl\s*\+\s*M/);
  assert.match(help, /Esc,\s*then\s*Tab\s*Leave an editor/);
  await page.close();
});

test('Overview/JSON is one tab stop: the arrow keys move between the tabs and show them', async () => {
  const page = await playground.open();
  assert.equal(await page.locator('[role="tab"][tabindex="0"]').count(), 1);
  assert.equal(await page.locator('[role="tab"][tabindex="-1"]').count(), 1);
  await page.getByRole('tab', { name: 'Overview' }).focus();
  await page.keyboard.press('ArrowRight');
  const json = page.getByRole('tab', { name: 'JSON' });
  assert.equal(await json.evaluate((el) => el === document.activeElement), true);
  assert.equal(await json.getAttribute('aria-selected'), 'true');
  assert.equal(await page.locator('#tab-json').isVisible(), true);
  assert.equal(await json.getAttribute('tabindex'), '0');
  // Tab leaves the tab list (it does not stop at the other tab).
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), null);
  await page.keyboard.press('Tab');
  assert.equal(await json.evaluate((el) => el === document.activeElement), true);
  await page.keyboard.press('Home');
  assert.equal(await page.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected'), 'true');
  await page.close();
});

test('the role tree is one tab stop: ↑/↓ move inside it and Tab leaves it', async () => {
  const page = await playground.open();
  const nodes = page.locator('#tree .node');
  assert.ok((await nodes.count()) > 2);
  assert.equal(await page.locator('#tree .node[tabindex="0"]').count(), 1);
  await nodes.first().focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await nodes.nth(1).evaluate((el) => el === document.activeElement), true);
  assert.equal(await nodes.nth(1).getAttribute('tabindex'), '0');
  assert.equal(await page.locator('#tree .node[tabindex="0"]').count(), 1);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('node')), false);
  await page.close();
});

test('the keyboard tests raised no error', () => {
  assert.deepEqual(playground.errors, []);
});

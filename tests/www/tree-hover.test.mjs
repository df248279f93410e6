// Hovering the role tree marks where a node came from without moving the editors; a click frames
// the source (issue 18, point 6).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();

const scrollTops = (page) => page.evaluate(() => ['definition-editor', 'manifest-editor'].map((id) => document.querySelector(`#${id} .cm-scroller`).scrollTop));

test('hovering a tree node highlights its lines without scrolling the editors; clicking it frames them', async () => {
  const page = await playground.open();
  assert.deepEqual(await scrollTops(page), [0, 0]);
  const workers = page.locator('#tree li.instance .node', { hasText: 'workers' });
  await workers.hover();
  await page.waitForFunction(() => document.querySelectorAll('.cm-source-highlight').length > 0);
  await page.waitForTimeout(200);
  assert.deepEqual(await scrollTops(page), [0, 0], 'a hover leaves both editors where they were');
  // The workers' lines of the manifest lie below the manifest editor's first screen.
  const below = await page.evaluate(() => {
    const scroller = document.querySelector('#manifest-editor .cm-scroller');
    const line = [...document.querySelectorAll('#manifest-editor .cm-line')].find((l) => /name: workers/.test(l.textContent));
    return line.getBoundingClientRect().top > scroller.getBoundingClientRect().bottom;
  });
  assert.ok(below, 'the default manifest shows the workers below the first screen');
  await workers.click();
  await page.waitForFunction(() => document.querySelector('#manifest-editor .cm-scroller').scrollTop > 0);
  const framed = await page.evaluate(() => {
    const scroller = document.querySelector('#manifest-editor .cm-scroller').getBoundingClientRect();
    const line = [...document.querySelectorAll('#manifest-editor .cm-line')].find((l) => /name: workers/.test(l.textContent)).getBoundingClientRect();
    return line.top >= scroller.top && line.bottom <= scroller.bottom;
  });
  assert.ok(framed, 'a click brings the workers into the manifest editor');
  await page.close();
});

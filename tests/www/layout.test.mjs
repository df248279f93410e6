// The playground at a phone's, a tablet's and a laptop's width (issue 18, point 1): no
// horizontal overflow, the editors, the panes and the results never overlap, the Pods and
// Diagnostics panes keep a usable height, and every control can be reached (scrolled to, it is
// the element a click at its centre lands on).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { results, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();

const WIDTHS = [
  [390, 844],
  [768, 1024],
  [1440, 900],
];

/** The page's layout as numbers: overflow, the regions' boxes (page coordinates). */
function measure(page) {
  return page.evaluate(() => {
    const box = (element) => {
      const r = element.getBoundingClientRect();
      return {
        name: element.id || element.className,
        left: r.left + scrollX,
        top: r.top + scrollY,
        right: r.right + scrollX,
        bottom: r.bottom + scrollY,
        width: r.width,
        height: r.height,
      };
    };
    const regions = [...document.querySelectorAll('.editors > .pane'), document.querySelector('.results')].map(box);
    return {
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      regions,
      // Anything drawn past the right edge of the page.
      past: [...document.querySelectorAll('body *')]
        .filter((e) => e.getClientRects().length > 0 && !e.closest('.cm-editor, [popover], .cm-tooltip'))
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`)
        .slice(0, 10),
    };
  });
}

function overlaps(a, b) {
  return a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
}

/** Every enabled control shown on the page that a click at its centre does not reach. */
async function unreachable(page) {
  const controls = page.locator(
    'header button:visible, header select:visible, main button:visible, main select:visible, main input:visible, main textarea:visible, main [role="tab"]:visible',
  );
  const count = await controls.count();
  assert.ok(count > 15, `only ${count} controls found`);
  const missed = [];
  for (let i = 0; i < count; i++) {
    const control = controls.nth(i);
    await control.scrollIntoViewIfNeeded();
    const hit = await control.evaluate((element) => {
      const r = element.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) return 'no size';
      if (r.left < 0 || r.right > document.documentElement.clientWidth + 0.5) return `outside the width (${Math.round(r.left)}..${Math.round(r.right)})`;
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return at && (at === element || element.contains(at) || at.closest('label')?.contains(element))
        ? ''
        : `covered by ${at?.tagName.toLowerCase()}#${at?.id}.${at?.className}`;
    });
    if (hit) missed.push(`${await control.evaluate((e) => `${e.tagName.toLowerCase()}#${e.id} ${e.textContent.trim().slice(0, 30)}`)}: ${hit}`);
  }
  return missed;
}

for (const [width, height] of WIDTHS) {
  test(`at ${width}×${height} nothing overflows sideways, nothing overlaps and every control is reachable`, async () => {
    const page = await playground.open();
    await page.setViewportSize({ width, height });
    // The editors' URL rows open, so that their controls are measured too.
    for (const id of ['definition-url', 'manifest-url']) await page.locator(`#${id}`).click();
    // A long status must not push the layout around either.
    await page.evaluate(() => {
      document.getElementById('run-status').textContent = '12 GPUs · Running, Initializing, Degraded · 3 errors · 1234.5 ms';
    });
    await page.waitForTimeout(100);
    const layout = await measure(page);
    assert.ok(layout.scrollWidth <= layout.clientWidth, `page ${layout.scrollWidth} px wide in ${layout.clientWidth}: ${layout.past.join(', ')}`);
    assert.deepEqual(layout.past, []);
    const [definition, manifest, pods, diagnostics, resultsBox] = layout.regions;
    for (const pane of [definition, manifest]) assert.ok(pane.height >= 200, `${pane.name}: ${pane.height} px tall`);
    for (const pane of [pods, diagnostics]) assert.ok(pane.height >= 56, `${pane.name}: ${pane.height} px tall`);
    for (let i = 0; i < layout.regions.length; i++) {
      for (let j = i + 1; j < layout.regions.length; j++) {
        assert.ok(
          !overlaps(layout.regions[i], layout.regions[j]),
          `${layout.regions[i].name} overlaps ${layout.regions[j].name}: ${JSON.stringify([layout.regions[i], layout.regions[j]])}`,
        );
      }
    }
    assert.ok(resultsBox.height >= 200, `the results are ${resultsBox.height} px tall`);
    assert.deepEqual(await unreachable(page), []);
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: join(results, `layout-${width}x${height}.png`), fullPage: true });
    await page.close();
  });
}

test('the top bar keeps one height at 1440 px whatever the status says', async () => {
  const page = await playground.open();
  const heightWith = (text) =>
    page.evaluate((t) => {
      document.getElementById('run-status').textContent = t;
      return document.querySelector('.topbar').getBoundingClientRect().height;
    }, text);
  const short = await heightWith('done');
  const long = await heightWith(`${'12 GPUs · Running, Initializing · '.repeat(6)}3 errors · 1234.5 ms`);
  assert.equal(long, short);
  // One row: every item of the bar starts on the same line.
  const centres = await page.evaluate(() =>
    [...document.querySelector('.topbar').children]
      .filter((e) => e.getClientRects().length > 0 && !e.matches('[popover], .spacer'))
      .map((e) => {
        const r = e.getBoundingClientRect();
        return (r.top + r.bottom) / 2;
      }),
  );
  assert.ok(Math.max(...centres) - Math.min(...centres) < 12, `items centred at ${centres.join(', ')}`);
  await page.close();
});

test('long JSON Patch lines stay inside the Edit card (each box scrolls instead)', async () => {
  const page = await playground.open();
  await page.locator('#edit-merge').fill(JSON.stringify({ schedulerName: `kai-scheduler-${'x'.repeat(300)}` }));
  await page.locator('#edit-apply').click();
  await page.waitForFunction(() => document.getElementById('edit-patch')?.textContent.includes('xxxx'));
  const spill = await page.evaluate(() => {
    const card = document.getElementById('edit-card').getBoundingClientRect();
    return ['edit-patch', 'edit-object'].map((id) => Math.round(document.getElementById(id).getBoundingClientRect().right - card.right)).filter((px) => px > 0);
  });
  assert.deepEqual(spill, []);
  await page.close();
});

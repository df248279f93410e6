// The one place the end-to-end tests touch the browser: builds nothing, serves www/dist/ on a free
// port, starts Debian's Chromium through playwright-core, and gives each test a fresh page that
// records console errors and every request that leaves the page's own origin.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../www/serve.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function startPlayground() {
  const { server, url } = await serve(0);
  const profile = mkdtempSync(join(tmpdir(), 'workload-map-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: FLAGS,
    headless: true,
    viewport: { width: 1440, height: 900 },
  });
  const foreign = [];
  const errors = [];
  context.on('request', (request) => {
    if (!request.url().startsWith(url) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) {
      foreign.push(request.url());
    }
  });
  return {
    url,
    foreign,
    errors,
    /** A fresh page at `path` (relative to the playground), settled on its first result. */
    async open(path = '', { settle = true } = {}) {
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('dialog', (dialog) => {
        errors.push(`unexpected dialog: ${dialog.message()}`);
        dialog.dismiss();
      });
      await page.goto(url + path);
      if (settle) await settled(page);
      return page;
    },
    async close() {
      await context.close();
      server.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Waits until the newest run has been rendered (or stopped). */
export async function settled(page, afterRunId = 0) {
  await page.waitForFunction(
    (after) => {
      const status = document.getElementById('run-status');
      const state = status?.dataset.state;
      return (state === 'done' && Number(status.dataset.runId) > after) || state === 'stopped';
    },
    afterRunId,
    { timeout: 15000 },
  );
}

export async function runId(page) {
  return Number(await page.locator('#run-status').getAttribute('data-run-id'));
}

/** Text of the editor whose container id is given. */
export function editorText(page, id) {
  return page.evaluate((editorId) => {
    const lines = document.querySelectorAll(`#${editorId} .cm-line`);
    return Array.from(lines, (line) => line.textContent).join('\n');
  }, id);
}

// The one place the end-to-end tests touch the browser: builds nothing, serves www/dist/ on a free
// port, starts Debian's Chromium through playwright-core, and gives each test a fresh page that
// records console errors and every request that leaves the page's own origin.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
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

/** The repository, and where the tests leave screenshots. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const results = join(root, 'test-results');

/**
 * One playground for a test file: builds www/dist/ and starts it before the file's tests, closes
 * it after them. The object returned stands for it (`open`, `url`, `foreign`, `errors`).
 */
export function sharedPlayground() {
  let started;
  before(async () => {
    execFileSync(process.execPath, [join(root, 'www', 'build.mjs')], { stdio: 'inherit' });
    mkdirSync(results, { recursive: true });
    started = await startPlayground();
  });
  after(async () => {
    await started?.close();
  });
  return {
    open: (...args) => started.open(...args),
    get url() {
      return started.url;
    },
    get foreign() {
      return started.foreign;
    },
    get errors() {
      return started.errors;
    },
  };
}

export async function startPlayground() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  const { server, url } = await serve(0);
  // Playwright gives the browser a fresh temporary profile of its own.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: FLAGS,
    headless: true,
  });
  const foreign = [];
  const errors = [];
  return {
    url,
    foreign,
    errors,
    /**
     * A page at `path` (relative to the playground), settled on its first result. Each call
     * gets a fresh browser context (own storage) unless `context` is given.
     */
    async open(path = '', { settle = true, context, colorScheme = 'light' } = {}) {
      context ??= await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme });
      context.on('request', (request) => {
        const target = request.url();
        if (!target.startsWith(url) && !target.startsWith('data:') && !target.startsWith('blob:')) foreign.push(target);
      });
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('dialog', (dialog) => {
        errors.push(`unexpected dialog: ${dialog.message()}`);
        dialog.dismiss();
      });
      await page.goto(url + path);
      if (settle) {
        await settled(page);
        // The page's 2 s watchdog is for people; a test's runs must not be stopped because other
        // work keeps the cores busy. Tests of the watchdog itself set `?timeout=`.
        await page.evaluate(() => {
          const playground = /** @type {any} */ (window).playground;
          if (playground && !new URLSearchParams(location.search).has('timeout')) playground.timeoutMs = 60_000;
        });
      }
      return page;
    },
    async close() {
      await browser.close();
      server.close();
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
    { timeout: 60_000 },
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

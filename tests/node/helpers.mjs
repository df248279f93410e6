// The one place the Node tests touch files and processes: fixtures, the CLI, the package root.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const fixturesDir = path.join(root, 'tests', 'node', 'fixtures');

/**
 * The one wall-clock bound a test asserts: a guard against a real hang, never a speed check (a
 * test must pass while other work keeps the cores busy). A runaway input is bounded by the
 * budget error or the cap that stopped it, which the tests assert; speed is the benches' job.
 */
export const HANG_GUARD_MS = 60_000;

/** Fails when `ms` is past HANG_GUARD_MS, naming `what`. */
export function assertNoHang(ms, what = 'the call') {
  if (!(ms < HANG_GUARD_MS)) throw new Error(`${what} ran ${Math.round(ms)} ms, past the hang guard of ${HANG_GUARD_MS} ms`);
}

export function fixturePath(name) {
  return path.join(fixturesDir, name);
}

export function fixture(name) {
  return readFileSync(fixturePath(name), 'utf8');
}

/**
 * Runs the CLI as users do (`node bin/workload-map.mjs`), from the package root. `env` adds to
 * the environment, from which the colour switches of the test run itself are removed.
 */
export function cli(args, { input, env } = {}) {
  const { FORCE_COLOR, NO_COLOR, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [path.join(root, 'bin', 'workload-map.mjs'), ...args], {
    cwd: root,
    input: input ?? '',
    encoding: 'utf8',
    env: { ...inherited, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The view's component at a path like `jobset/replicatedjob[workers]`. */
export function component(view, componentPath) {
  let found = null;
  let components = view.root ? [view.root] : [];
  for (const step of componentPath.split('/')) {
    const [, name, id] = /^([^[]+)(?:\[(.*)\])?$/.exec(step);
    const next = components.find((c) => c.name === name);
    if (!next) return null;
    found = id === undefined ? next : (next.instances.find((i) => i.id === id) ?? null);
    if (!found) return null;
    components = id === undefined ? next.instances.flatMap((i) => i.children) : found.children;
  }
  return found;
}

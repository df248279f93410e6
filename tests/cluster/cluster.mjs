// The control plane a cluster test talks to: the one `npm test` started (scripts/control-plane.mjs
// `run`, through WORKLOAD_MAP_CLUSTER_*), else one this file starts itself (building etcd and
// kube-apiserver once into the user's cache), so that `node --test tests/cluster/X.test.mjs` works
// alone. Under CI=true a control plane that cannot be built or started fails the test; elsewhere
// the test is skipped with the reason.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { fromEnvironment, start } from '../../scripts/control-plane.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `{ cp, skip }`: the control plane, or why there is none (never under CI=true: it throws). */
export async function controlPlane() {
  const given = fromEnvironment();
  if (given) return { cp: given };
  return ownControlPlane();
}

/** `{ cp, skip }` as controlPlane(), but always a new control plane of the caller's own. */
export async function ownControlPlane() {
  try {
    return { cp: await start() };
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    return { skip: `no control plane: ${error.message.split('\n')[0]}` };
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` (which returns a truthy value when done) every 100 ms, up to `timeoutMs`. */
export async function eventually(what, check, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await check();
    if (last) return last;
    await sleep(100);
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
}

export function readText(relative) {
  return readFileSync(path.join(root, relative), 'utf8');
}

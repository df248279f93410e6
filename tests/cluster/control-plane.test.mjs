// scripts/control-plane.mjs itself: a control plane it starts is the pinned release, answers only
// its token, and stop() ends both processes and removes its temporary folder; where it cannot be
// built, `run` and a cluster test fail under CI=true instead of skipping.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { versions } from '../../scripts/control-plane.mjs';
import { ownControlPlane, root } from './cluster.mjs';

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a_started_control_plane_is_the_pinned_release_and_stop_ends_it_and_removes_its_folder', async (t) => {
  // One of its own, not the one `npm test` shares with the other files.
  const { cp, skip } = await ownControlPlane();
  if (skip) return t.skip(skip);
  let stopped = false;
  try {
    assert.equal((await cp.request('GET', '/version')).json.gitVersion, versions().kubernetes);
    assert.equal((await cp.request('GET', '/readyz')).status, 200);
    assert.equal((await cp.request('GET', '/api/v1/namespaces', undefined, { token: 'wrong' })).status, 401);
    assert.equal((await cp.request('GET', '/api/v1/namespaces/default')).status, 200);
    const pids = cp.processes.map((child) => child.pid);
    assert.equal(pids.length, 2);
    assert.ok(existsSync(cp.dir));
    await cp.stop();
    stopped = true;
    assert.ok(!existsSync(cp.dir), 'the temporary folder is removed');
    for (const pid of pids) assert.ok(!alive(pid), `process ${pid} has ended`);
    await assert.rejects(cp.request('GET', '/readyz'), /ECONNREFUSED/);
  } finally {
    if (!stopped) await cp.stop();
  }
});

test('under_ci_a_control_plane_that_cannot_be_built_fails_the_run_and_the_tests_never_skip', () => {
  const cache = mkdtempSync(path.join(tmpdir(), 'workload-map-empty-cache-'));
  try {
    // No Go on PATH and an empty cache: nothing can be built.
    const env = { PATH: path.dirname(process.execPath), XDG_CACHE_HOME: cache, CI: 'true', HOME: cache };
    const run = spawnSync(process.execPath, ['scripts/control-plane.mjs', 'run', '--', process.execPath, '-e', ''], { cwd: root, env, encoding: 'utf8' });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /go build could not start/);
    const tests = spawnSync(process.execPath, ['--test', 'tests/cluster/karta.test.mjs'], { cwd: root, env, encoding: 'utf8' });
    assert.notEqual(tests.status, 0, tests.stdout);
    assert.match(tests.stdout, /go build could not start/);
    assert.match(tests.stdout, /^# skipped 0$/m);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

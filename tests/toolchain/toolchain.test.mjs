// The tool builds of scripts/toolchain.mjs, checked before anything is installed (the first step
// of `npm test`): a crate the toolchain unpacks must be a package of its own for cargo, never an
// undeclared member of this repository's workspace (cargo then refuses `update` and `install`,
// which is how a fresh machine failed while machines with a cached CLI passed), and the install
// function builds a real crate from a `.crate` file end to end.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { cacheRoot, checkToolBuildDir, installCrateBinary, ownWorkspace, root, toolBuildDir, writeTinyCrate } from '../../scripts/toolchain.mjs';

const inside = (child, parent) => !path.relative(parent, child).startsWith('..') && !path.isAbsolute(path.relative(parent, child));

test('tools are built outside the repository, where cargo sees each crate as its own workspace', () => {
  const dir = toolBuildDir('probe-of-the-test');
  assert.ok(!inside(dir, root), `${dir} is inside the repository ${root}`);
  assert.ok(inside(dir, cacheRoot()), `${dir} is not under the cache folder ${cacheRoot()}`);
  rmSync(dir, { recursive: true, force: true });
  try {
    writeTinyCrate(dir, 'probe-of-the-test');
    const own = ownWorkspace(dir);
    assert.ok(own.ok, `cargo locate-project --workspace in ${dir} names ${own.workspace}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  checkToolBuildDir();
});

test('the workspace check refuses a crate unpacked inside this repository', () => {
  // Where the toolchain used to unpack tool sources: cargo takes it for a workspace member.
  const dir = mkdtempSync(path.join(root, 'target-probe-'));
  try {
    writeTinyCrate(dir, 'probe-in-workspace');
    const own = ownWorkspace(dir);
    assert.equal(own.ok, false, `a crate in ${dir} was taken for a workspace of its own`);
    // And the whole check names the workspace when the cache folder is inside the repository.
    assert.throws(() => checkToolBuildDir({ ...process.env, XDG_CACHE_HOME: dir }), /believes it.s in a workspace|member of the workspace at/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('installCrateBinary builds a crate file into an install root and removes its build folder', { timeout: 300_000 }, () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'workload-map-toolchain-'));
  const env = { ...process.env, XDG_CACHE_HOME: path.join(scratch, 'cache') };
  try {
    // A .crate is a gzipped tarball of `name-version/`.
    writeTinyCrate(path.join(scratch, 'src', 'tiny-tool-0.1.0'), 'tiny-tool');
    const crate = path.join(scratch, 'tiny-tool-0.1.0.crate');
    const tar = spawnSync('tar', ['-czf', crate, '-C', path.join(scratch, 'src'), 'tiny-tool-0.1.0']);
    assert.equal(tar.status, 0, String(tar.stderr));
    const bin = installCrateBinary(crate, { bin: 'tiny-tool', installRoot: path.join(scratch, 'tools'), env });
    const ran = spawnSync(bin, [], { encoding: 'utf8' });
    assert.equal(ran.stdout.trim(), 'tiny-tool 0.1.0');
    assert.equal(existsSync(toolBuildDir('tiny-tool-0.1.0', env)), false, 'the build folder was left behind');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

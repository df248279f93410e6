// The package as published: its manifest and the files `npm pack` would ship.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { root } from './helpers.mjs';

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

test('exports_map_has_types_node_browser_and_default_conditions', () => {
  const main = manifest.exports['.'];
  assert.deepEqual(Object.keys(main), ['types', 'node', 'browser', 'default']);
  assert.deepEqual(Object.keys(main.node), ['import', 'require']);
  assert.equal(manifest.exports['./workload_map_bg.wasm'], './pkg/workload_map_bg.wasm');
  // Only the element entry has side effects (it defines the custom elements; its worker starts the engine).
  assert.deepEqual(manifest.sideEffects, ['./pkg/element.mjs', './pkg/element-worker.mjs']);
  assert.deepEqual(manifest.exports['./element'], { types: './pkg/element.d.ts', default: './pkg/element.mjs' });
  assert.equal(manifest.engines.node, '>=20');
  assert.equal(manifest.bin['workload-map'], 'bin/workload-map.mjs');
});

test('npm_pack_ships_the_built_package_and_the_cli_only', () => {
  const npm = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  assert.equal(npm.status, 0, npm.stderr);
  const files = JSON.parse(npm.stdout)[0].files.map((f) => f.path).sort();
  for (const required of ['bin/workload-map.mjs', 'package.json', 'pkg/index.d.ts', 'pkg/node.cjs', 'pkg/node.mjs', 'pkg/web.mjs', 'pkg/workload_map.cjs', 'pkg/workload_map.web.mjs', 'pkg/workload_map_bg.wasm', 'pkg/element.mjs', 'pkg/element-worker.mjs', 'pkg/element.d.ts']) {
    assert.ok(files.includes(required), `${required} is packed`);
  }
  assert.deepEqual(files.filter((f) => !/^(bin|pkg)\//.test(f) && !['package.json', 'README.md'].includes(f)), []);
});

test('every_exported_file_exists_after_the_build', () => {
  const targets = [manifest.exports['.'].types, manifest.exports['.'].node.import, manifest.exports['.'].node.require, manifest.exports['.'].browser, manifest.exports['./workload_map_bg.wasm'], manifest.exports['./element'].types, manifest.exports['./element'].default];
  for (const target of targets) assert.ok(readFileSync(path.join(root, target)).length > 0, target);
});

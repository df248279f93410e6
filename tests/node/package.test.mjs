// The package as published: its manifest and the files `npm pack` would ship.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

import * as inline from 'workload-map/inline';
import * as wm from 'workload-map';

import { fixture, root } from './helpers.mjs';

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

test('exports_map_has_node_browser_and_default_conditions_each_with_its_own_types', () => {
  const main = manifest.exports['.'];
  assert.deepEqual(Object.keys(main), ['node', 'browser', 'default']);
  assert.deepEqual(Object.keys(main.node), ['import', 'require']);
  // Types first in each condition, .d.mts for ES modules and .d.cts for CommonJS.
  for (const [target, types] of [
    [main.node.import, './pkg/index.d.mts'],
    [main.node.require, './pkg/index.d.cts'],
    [main.browser, './pkg/index.d.mts'],
    [main.default, './pkg/index.d.mts'],
    [manifest.exports['./inline'], './pkg/index.d.mts'],
  ]) {
    assert.deepEqual(Object.keys(target), ['types', 'default']);
    assert.equal(target.types, types);
  }
  assert.equal(manifest.types, './pkg/index.d.cts', 'node10 resolution (no exports) reads main, a CommonJS file');
  assert.equal(manifest.exports['./workload_map_bg.wasm'], './pkg/workload_map_bg.wasm');
  assert.equal(manifest.exports['./workload_map_cel_bg.wasm'], './pkg/workload_map_cel_bg.wasm');
  // Side effects: the element entry defines the custom elements (its worker starts the engine);
  // the inline entry loads the engine at import.
  assert.deepEqual(manifest.sideEffects, ['./pkg/element.mjs', './pkg/element-worker.mjs', './pkg/element-inline.mjs', './pkg/inline.mjs']);
  // The element is ES modules only: its types are a .d.mts (a .d.ts would be read as CommonJS).
  assert.deepEqual(manifest.exports['./element'], { types: './pkg/element.d.mts', default: './pkg/element.mjs' });
  assert.deepEqual(manifest.exports['./element/inline'], { types: './pkg/element.d.mts', default: './pkg/element-inline.mjs' });
  assert.equal(manifest.engines.node, '>=20');
  assert.equal(manifest.bin['workload-map'], 'bin/workload-map.mjs');
});

test('npm_pack_ships_the_built_package_and_the_cli_only', () => {
  const npm = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  assert.equal(npm.status, 0, npm.stderr);
  const files = JSON.parse(npm.stdout)[0]
    .files.map((f) => f.path)
    .sort();
  for (const required of [
    'bin/workload-map.mjs',
    'package.json',
    'LICENSE',
    'README.md',
    'pkg/index.d.mts',
    'pkg/index.d.cts',
    'pkg/node.cjs',
    'pkg/node.mjs',
    'pkg/web.mjs',
    'pkg/web-core.mjs',
    'pkg/inline.mjs',
    'pkg/workload_map.cjs',
    'pkg/workload_map.web.mjs',
    'pkg/workload_map_bg.wasm',
    'pkg/workload_map_bg.inline.mjs',
    'pkg/workload_map_cel.web.mjs',
    'pkg/workload_map_cel_bg.wasm',
    'pkg/workload_map_cel_bg.inline.mjs',
    'pkg/element.mjs',
    'pkg/element-worker.mjs',
    'pkg/element-inline.mjs',
    'pkg/element.d.mts',
  ]) {
    assert.ok(files.includes(required), `${required} is packed`);
  }
  assert.deepEqual(
    files.filter(
      (f) =>
        !/^(bin|pkg|deploy\/exporter)\//.test(f) &&
        !['package.json', 'README.md', 'LICENSE', 'catalog/definition.schema.json', 'crd/kartas.run.ai.yaml'].includes(f),
    ),
    [],
  );
  assert.ok(files.includes('catalog/definition.schema.json'), 'the definition JSON Schema is packed');
  assert.ok(files.includes('crd/kartas.run.ai.yaml'), 'the Karta CRD is packed');
  for (const file of ['clusterrole.yaml', 'deployment.yaml', 'kustomization.yaml', 'podmonitor.yaml', 'rules.yaml']) {
    assert.ok(files.includes(`deploy/exporter/${file}`), `the exporter's ${file} is packed`);
  }
});

test('every_exported_file_exists_after_the_build', () => {
  const targets = [];
  const walk = (value) => (typeof value === 'string' ? targets.push(value) : Object.values(value).forEach(walk));
  walk(manifest.exports);
  targets.push(manifest.types, manifest.main);
  for (const target of targets) assert.ok(existsSync(path.join(root, target)) && readFileSync(path.join(root, target)).length > 0, target);
});

test('the_license_is_the_apache_2_0_text_package_json_names', () => {
  assert.equal(manifest.license, 'Apache-2.0');
  const license = readFileSync(path.join(root, 'LICENSE'), 'utf8');
  assert.match(license, /^\s*Apache License\s+Version 2\.0, January 2004/);
  assert.match(license, /END OF TERMS AND CONDITIONS/);
});

test('every_entry_exports_the_same_api', async () => {
  const names = (module) => Object.keys(module).sort();
  const web = await import(path.join(root, 'pkg', 'web.mjs'));
  assert.deepEqual(names(web), names(wm));
  assert.deepEqual(names(inline), names(wm));
  // The entries list the API's names by hand; a name listed where the engine does not give it
  // is exported as undefined (the Node entries once lacked schemaFields that way).
  const cjs = createRequire(import.meta.url)(path.join(root, 'pkg', 'node.cjs'));
  for (const [entry, module] of [
    ['node.mjs', wm],
    ['node.cjs', cjs],
    ['web.mjs', web],
    ['inline.mjs', inline],
  ]) {
    for (const name of names(module)) assert.notEqual(module[name], undefined, `${entry} exports ${name} as undefined`);
  }
});

test('the_inline_entry_is_ready_at_import_without_a_wasm_file_or_import_meta', async () => {
  const text = readFileSync(path.join(root, 'pkg', 'inline.mjs'), 'utf8') + readFileSync(path.join(root, 'pkg', 'web-core.mjs'), 'utf8');
  // No import.meta and no path to a .wasm: bundlers see plain JavaScript (web-core.mjs fetches
  // only what a caller gives init(), which the inline entry never calls).
  assert.doesNotMatch(text.replace(/\/\/.*$/gm, ''), /import\.meta|['"`][^'"`]*\.wasm['"`]/);
  assert.equal(inline.resolve(fixture('jobset-definition.yaml'), fixture('seed-jobset.yaml')).resources.gpus, 12);
  assert.equal(await inline.init(), undefined);
  assert.equal(inline.version, manifest.version);
});

/** Every JavaScript file an `exports` entry leads to, with how Node loads it (require or import). */
function exportedModules() {
  const found = new Map();
  const walk = (value, conditions) => {
    if (typeof value === 'string') {
      if (/\.(c|m)?js$/.test(value)) found.set(value, conditions.includes('require') || value.endsWith('.cjs') ? 'require' : 'import');
      return;
    }
    for (const [condition, target] of Object.entries(value)) if (condition !== 'types') walk(target, [...conditions, condition]);
  };
  for (const [entry, target] of Object.entries(manifest.exports)) walk(target, [entry]);
  return found;
}

test('no_exported_entry_has_names_starting_with_two_underscores', () => {
  const modules = exportedModules();
  for (const file of ['./pkg/node.cjs', './pkg/node.mjs', './pkg/web.mjs', './pkg/inline.mjs', './pkg/element.mjs'])
    assert.ok(modules.has(file), `${file} is an exported module`);
  // A fresh process, with the one DOM name the elements need at import (they extend HTMLElement).
  const script = `
    import { createRequire } from 'node:module';
    import path from 'node:path';
    import { pathToFileURL } from 'node:url';
    globalThis.HTMLElement ??= class {};
    const require = createRequire(import.meta.url);
    const keys = {};
    for (const [file, how] of ${JSON.stringify([...modules])}) {
      const full = path.resolve(file);
      keys[file] = Object.keys(how === 'require' ? require(full) : await import(pathToFileURL(full).href));
    }
    console.log(JSON.stringify(keys));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  const keys = JSON.parse(child.stdout);
  for (const [file, names] of Object.entries(keys)) {
    assert.ok(names.length > 0, `${file} exports something`);
    assert.deepEqual(
      names.filter((name) => name.startsWith('__')),
      [],
      `${file} exports no internal names`,
    );
  }
  // The hooks are still there for the package's own tests, by file path only.
  const hooks = createRequire(import.meta.url)(path.join(root, 'pkg', 'test-hooks.cjs'));
  assert.equal(typeof hooks.__trapForTests, 'function');
  assert.equal(typeof hooks.__compiledForTests(), 'number');
});

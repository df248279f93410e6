// The newcomer path: `npm start` and `npm test` are the first commands of a fresh clone, when no
// node_modules exists anywhere. Their entry points must therefore load with Node's built-ins and
// the repository's own files only, until their install step (scripts/toolchain.mjs
// ensureBuildTools) has run; a dev dependency may be loaded after it, through `import()`.
//
// Two checks: the static import graph of every entry point (a top-level `import … from 'pkg'`
// of anything but `node:` or a relative file fails, naming the chain), and a real load of the
// modules that have no side effects at import from a copy of scripts/ with no node_modules above
// it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { root } from './helpers.mjs';

/** Entry points a newcomer runs before anything is installed: `npm start`, `npm test`, `npm run build`. */
const ENTRY_POINTS = ['scripts/start.mjs', 'scripts/test.mjs', 'scripts/build.mjs'];

/** Static import and re-export specifiers of a module (not `import()`, which runs later). */
function staticImports(source) {
  const specifiers = [];
  // Strip comments so that an example in a comment is not taken for an import.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const pattern = /^\s*(?:import|export)\s+(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const match of code.matchAll(pattern)) specifiers.push(match[1]);
  return specifiers;
}

/** Every package a file loads statically, directly or through the repository files it imports. */
function staticPackages(entry) {
  const found = [];
  const seen = new Set();
  const visit = (file, chain) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('node:')) continue;
      if (specifier.startsWith('.')) {
        visit(path.resolve(path.dirname(file), specifier), [...chain, path.relative(root, file)]);
      } else {
        found.push({ specifier, chain: [...chain, path.relative(root, file)] });
      }
    }
  };
  visit(path.join(root, entry), []);
  return found;
}

test('staticImports_reads_import_and_export_forms_and_skips_comments_and_dynamic_imports', () => {
  const source = [
    "import { a } from './a.mjs';",
    "import * as esbuild from 'esbuild';",
    "import 'side-effect';",
    'export { b } from "./b.mjs";',
    "// import { c } from 'in-a-comment';",
    "const d = await import('dynamic');",
  ].join('\n');
  assert.deepEqual(staticImports(source), ['./a.mjs', 'esbuild', 'side-effect', './b.mjs']);
});

test('start_test_and_build_entry_points_load_no_package_before_their_install_step', () => {
  for (const entry of ENTRY_POINTS) {
    assert.ok(existsSync(path.join(root, entry)), `${entry} exists`);
    const packages = staticPackages(entry);
    assert.deepEqual(
      packages.map((p) => `${[...p.chain].join(' -> ')} imports '${p.specifier}'`),
      [],
      `${entry} must load with Node's built-ins only until it has installed the dependencies; import packages with import() after ensureBuildTools()`,
    );
  }
});

test('build_and_toolchain_modules_load_in_a_copy_with_no_node_modules_above_it', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wm-newcomer-'));
  try {
    // Only what the build entry reads at import: the scripts and the manifest.
    cpSync(path.join(root, 'scripts'), path.join(dir, 'scripts'), { recursive: true });
    cpSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
    let above = dir;
    while (path.dirname(above) !== above) {
      assert.ok(!existsSync(path.join(above, 'node_modules')), `no node_modules at ${above}`);
      above = path.dirname(above);
    }
    const load = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "await import('./scripts/toolchain.mjs'); await import('./scripts/build.mjs'); console.log('loaded');"],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_PATH: '' } },
    );
    assert.equal(load.status, 0, `loading the build entry without node_modules failed:\n${load.stderr}`);
    assert.match(load.stdout, /loaded/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// scripts/check-layers.mjs: the module structure of src/ holds, and the check sees a planted
// cycle, a cycle between submodules and an upward import in a small copy of the layout.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { check, codeOf, referencedPaths } from '../../scripts/check-layers.mjs';
import { root } from './helpers.mjs';

const LAYERS = `# Architecture

## Layers

1. \`diagnostic\`: the vocabulary. Imports nothing.
2. \`yaml\`, \`definition\`: may import layer 1 (\`yaml\` and \`definition\` are one layer).
3. \`compile\`: may import layers 1–2.

## Code map
`;

/** A crate under a fresh folder: `files` maps paths under src/ to their text. */
function crate(files, architecture = LAYERS) {
  const dir = mkdtempSync(path.join(tmpdir(), 'check-layers-'));
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, 'src', name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  writeFileSync(path.join(dir, 'ARCHITECTURE.md'), architecture);
  return dir;
}

function problemsOf(files, architecture) {
  const dir = crate(files, architecture);
  try {
    return check(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CLEAN = {
  'lib.rs': 'pub mod compile;\npub mod definition;\npub mod diagnostic;\npub mod yaml;\n',
  'diagnostic.rs': 'pub struct Diagnostic;\n',
  'yaml.rs': 'use crate::diagnostic::Diagnostic;\n',
  'definition/mod.rs': 'pub mod read;\npub mod schema;\nuse crate::{diagnostic::Diagnostic, yaml};\n',
  'definition/read.rs': 'use crate::definition::schema::FIELDS;\nuse super::Spanned;\n',
  'definition/schema.rs': 'pub const FIELDS: &[&str] = &[];\n',
  'compile.rs': 'use crate::definition::read;\n',
};

test('the_repository_has_no_cycle_and_no_upward_import', () => {
  assert.deepEqual(check(root), []);
});

test('a_clean_layout_passes_and_parent_child_imports_are_no_cycle', () => {
  assert.deepEqual(problemsOf(CLEAN), []);
});

test('a_planted_cycle_between_modules_is_reported', () => {
  const problems = problemsOf({ ...CLEAN, 'yaml.rs': 'use crate::definition::Expr;\n' });
  assert.deepEqual(problems, ['cycle: definition → yaml → definition']);
});

test('a_cycle_between_submodules_of_one_folder_is_reported', () => {
  const problems = problemsOf({
    ...CLEAN,
    'definition/schema.rs': 'use super::read::{API_VERSION, KIND};\n',
  });
  assert.deepEqual(problems, ['cycle: definition::read → definition::schema → definition::read']);
});

test('an_upward_import_is_reported_with_both_layers', () => {
  const problems = problemsOf({
    ...CLEAN,
    'diagnostic.rs': 'fn f() { crate::compile::run(); }\n',
    'compile.rs': 'pub fn run() {}\n',
  });
  assert.deepEqual(problems, ['upward import: `diagnostic` (layer 1) uses `compile` (layer 3)']);
});

test('a_module_no_layer_lists_and_a_listed_module_that_is_gone_are_reported', () => {
  const problems = problemsOf({ ...CLEAN, 'extra.rs': '' }, LAYERS.replace('`compile`: may', '`compile`, `gone`: may'));
  assert.deepEqual(problems, [
    'module `extra` is in no layer of ARCHITECTURE.md ("Layers")',
    'ARCHITECTURE.md lists `gone` in a layer, but src/ has no such module',
  ]);
});

test('the_boundary_crate_may_not_use_a_private_core_module', () => {
  const dir = crate({ ...CLEAN, 'modules.rs': 'pub mod compile;\nmod definition;\npub mod diagnostic;\npub mod yaml;\n' });
  try {
    mkdirSync(path.join(dir, 'crates', 'wasm', 'src'), { recursive: true });
    const boundary = path.join(dir, 'crates', 'wasm', 'src', 'lib.rs');
    writeFileSync(boundary, '// crate::definition in a comment is fine\nuse crate::compile::run;\n');
    assert.deepEqual(check(dir), []);
    writeFileSync(boundary, 'use crate::compile::run;\nfn f() { definition::read::x(); }\n');
    assert.deepEqual(check(dir), ["crates/wasm/src/lib.rs uses the core's private module `definition` (the boundary uses the public API only)"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('comments_strings_and_the_test_module_are_not_imports', () => {
  const code = codeOf(
    [
      '//! See [`crate::compile`].',
      '/* crate::compile::x */',
      'const S: &str = "crate::compile";',
      "const C: char = '\"';",
      'use crate::yaml::Node;',
      '#[cfg(test)]',
      'mod tests {',
      '    use crate::compile::CompiledDefinition;',
      '}',
    ].join('\n'),
  );
  assert.deepEqual(referencedPaths(code, ['definition']), [['yaml', 'Node']]);
});

test('grouped_and_nested_use_paths_are_all_read', () => {
  const paths = referencedPaths('use crate::{a::{b, c::D}, e};\nuse super::super::f::G;\n', ['x', 'y', 'z']);
  assert.deepEqual(paths, [['a', 'b'], ['a', 'c', 'D'], ['e'], ['x', 'f', 'G']]);
});

// README examples are tests: the CLI output shown there is what the CLI prints.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { cli, fixturePath, root } from './helpers.mjs';

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

test('the_readme_section_the_init_error_links_to_exists_and_names_the_inline_entry', () => {
  const web = readFileSync(path.join(root, 'js', 'web.mjs'), 'utf8');
  const anchor = /https:\/\/github\.com\/workload-map\/workload-map#([\w-]+)/.exec(web);
  assert.ok(anchor, 'web.mjs links to a README section');
  const headings = [...readme.matchAll(/^#{2,3} (.+)$/gm)].map((m) =>
    m[1]
      .toLowerCase()
      .replace(/[^\w\s-]/g, '')
      .replace(/\s+/g, '-'),
  );
  assert.ok(headings.includes(anchor[1]), `README has a heading for #${anchor[1]}`);
  const section = readme.slice(readme.indexOf('\n## Bundlers\n'), readme.indexOf('\n## ', readme.indexOf('\n## Bundlers\n') + 1));
  for (const bundler of ['webpack 5', 'Vite', 'esbuild', 'Rollup']) assert.match(section, new RegExp(`\\| ${bundler} \\|`));
  assert.match(section, /workload-map\/inline/);
});

test('the_readme_sends_contributors_to_contributing_md', () => {
  assert.match(readme, /\(CONTRIBUTING\.md\)/);
  for (const contributorOnly of ['npm run build', 'cargo bench', 'cargo +nightly fuzz', 'rustup'])
    assert.ok(!readme.includes(contributorOnly), contributorOnly);
  const contributing = readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');
  for (const moved of ['npm start', 'npm test', 'cargo bench', 'cargo +nightly fuzz', 'ARCHITECTURE.md']) assert.ok(contributing.includes(moved), moved);
});

test('readme_describe_output_is_the_real_output_for_the_seed_jobset', () => {
  const shown = /```\n(JobSet\/train-llm [\s\S]*?)```/.exec(readme);
  assert.ok(shown, 'README shows the describe output of the seed JobSet');
  assert.equal(cli(['describe', '-f', fixturePath('seed-jobset.yaml')]).stdout, shown[1]);
});

test('readme_describe_output_with_pods_is_the_real_output_for_the_jobset_list', () => {
  const shown = /```\n(JobSet\/train {3}[\s\S]*?)```/.exec(readme);
  assert.ok(shown, 'README shows the describe output of a JobSet with its pods');
  const real = cli(['describe', '-f', fixturePath('jobset-with-pods-list.yaml')]).stdout;
  assert.ok(real.startsWith(shown[1]), `README:\n${shown[1]}\nreal:\n${real}`);
});

test('readme_validate_output_is_the_real_output_for_the_misspelt_definition', () => {
  const shown = /\(`workload-map (validate [^`]+)`\):\n\n```\n([\s\S]*?)```/.exec(readme);
  assert.ok(shown, 'README shows the output of a validate command');
  assert.equal(cli(shown[1].split(' ')).stdout, shown[2]);
});

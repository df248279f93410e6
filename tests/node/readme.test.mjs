// README examples are tests: the CLI output shown there is what the CLI prints.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { cli, fixturePath, root } from './helpers.mjs';

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

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

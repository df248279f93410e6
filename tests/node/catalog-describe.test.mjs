// `workload-map describe -f` with the embedded catalog on the types where upstream's definitions
// are wrong or fragile: a JobSet without parallelism, LeaderWorkerSet groups, and a RayCluster
// with two worker groups. The whole text output is compared, so a wrong tree or total fails.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { cli, fixturePath } from './helpers.mjs';

function describeFile(name) {
  const { code, stdout, stderr } = cli(['describe', '-f', fixturePath(name)]);
  assert.equal(stderr, '', stderr);
  assert.equal(code, 0, stdout);
  const lines = stdout.split('\n');
  const tree = lines.slice(
    2,
    lines.findIndex((l, i) => i > 2 && l === ''),
  );
  const table = lines.slice(lines.indexOf('Resources:') + 2).filter(Boolean);
  return { lines, tree, table, total: table.at(-1).split(/ {2,}/) };
}

describe('catalog describe', () => {
  test('jobset_without_parallelism_counts_one_pod_per_job', () => {
    const { lines, total } = describeFile('jobset-no-parallelism.yaml');
    assert.match(lines[0], /^JobSet\/no-parallelism {3}namespace: default {3}definition: jobset-x-k8s-io-jobset-v1alpha2 \(catalog\)$/);
    // driver 1 × 2 GPUs + workers 3 × 8 GPUs
    assert.deepEqual(total.slice(0, 3), ['TOTAL', '4', '26']);
  });

  test('leaderworkerset_three_groups_of_two_with_four_gpus_per_pod_is_24_gpus', () => {
    const { tree, total } = describeFile('lws-3x2.yaml');
    assert.ok(
      tree.some((l) => /group +replicas: 3 +gpu: 24/.test(l)),
      tree.join('\n'),
    );
    assert.ok(
      tree.some((l) => /leader +replicas: 1 +gpu: 4/.test(l)),
      tree.join('\n'),
    );
    assert.ok(
      tree.some((l) => /worker +replicas: 1 +gpu: 4/.test(l)),
      tree.join('\n'),
    );
    assert.deepEqual(total.slice(0, 3), ['TOTAL', '6', '24']);
  });

  test('raycluster_with_two_worker_groups_shows_each_group_and_the_sum', () => {
    const { tree, total } = describeFile('raycluster-two-groups.yaml');
    const text = tree.join('\n');
    assert.match(text, /head +replicas: 1/);
    assert.match(text, /small +replicas: 2 .*gpu: 2/);
    assert.match(text, /large +replicas: 1 .*gpu: 8/);
    assert.deepEqual(total.slice(0, 3), ['TOTAL', '4', '10']);
  });
});

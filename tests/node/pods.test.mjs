// Pods given with a workload, through the built package and the CLI: a List holding a JobSet,
// its Jobs, its Pods (one unschedulable) and a pod of another application.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import * as wm from 'workload-map';

import { cli, component, fixture, fixturePath } from './helpers.mjs';

const listPath = fixturePath('jobset-with-pods-list.yaml');
const { objects } = wm.parseObjects(fixture('jobset-with-pods-list.yaml'));
const jobset = objects.find((o) => o.kind === 'JobSet');
const others = objects.filter((o) => o !== jobset);
const pods = others.filter((o) => o.kind === 'Pod');
const owners = others.filter((o) => o.kind !== 'Pod');
const definition = wm.catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet').text;
const trainPods = ['train-leader-0-0-abcde', 'train-workers-0-0-fghij', 'train-workers-0-1-klmno'];

/** The counts a component or instance shows: [current, ready, pod names]. */
function counts(view, path) {
  const { pods: live } = component(view, path);
  return [live.current, live.ready, live.items.map((p) => p.name)];
}

describe('resolve with pods', () => {
  test('each_replicated_job_counts_its_own_pods_and_the_foreign_pod_is_left_out', () => {
    const view = wm.resolve(definition, jobset, { pods, owners });
    assert.deepEqual(view.pods, { total: 4, attributed: 3, unattributed: ['web-6f7d8-pqrst'] });
    assert.deepEqual(counts(view, 'jobset/replicatedjob[leader]'), [1, 1, ['train-leader-0-0-abcde']]);
    assert.deepEqual(counts(view, 'jobset/replicatedjob[workers]'), [2, 1, ['train-workers-0-0-fghij', 'train-workers-0-1-klmno']]);
    assert.deepEqual(counts(view, 'jobset'), [3, 2, trainPods]);
    assert.equal(view.diagnostics.filter((d) => d.severity !== 'info').length, 0, JSON.stringify(view.diagnostics));
  });

  test('a_pending_pod_shows_its_scheduling_reason_and_no_node', () => {
    const view = wm.resolve(definition, jobset, { pods, owners });
    const pending = component(view, 'jobset/replicatedjob[workers]').pods.items.find((p) => p.phase === 'Pending');
    assert.equal(pending.reason, 'Unschedulable');
    assert.equal(pending.ready, false);
    assert.equal('node' in pending, false);
    assert.equal(pending.resources.gpus, 4);
  });

  test('one_gang_holds_the_three_pods_with_a_minimum_of_every_replicated_job', () => {
    const view = wm.resolve(definition, jobset, { pods, owners });
    assert.deepEqual(view.groups, [{ name: 'pg-7c1e-jobset-train', minAvailable: 3, minAvailableText: '3', members: ['replicatedjob'], pods: trainPods }]);
  });

  test('a_mixed_list_as_pods_counts_its_other_objects_as_owners', () => {
    const mixed = wm.resolve(definition, jobset, { pods: others });
    assert.deepEqual(mixed.pods, wm.resolve(definition, jobset, { pods, owners }).pods);
  });

  test('definition_resolve_takes_the_same_related_objects', () => {
    const compiled = new wm.Definition(definition);
    assert.deepEqual(compiled.resolve(jobset, { pods, owners }), wm.resolve(definition, jobset, { pods, owners }));
    compiled.free();
  });

  test('without_pods_the_view_has_no_pod_fields_and_one_group_per_pod_group', () => {
    const view = wm.resolve(definition, jobset);
    assert.equal('pods' in view, false);
    assert.equal('pods' in view.root, false);
    assert.deepEqual(view.groups, [{ name: 'jobset', minAvailable: 3, minAvailableText: '3', members: ['replicatedjob'] }]);
  });

  test('options_of_the_wrong_shape_throw_a_type_error', () => {
    assert.throws(() => wm.resolve(definition, jobset, 'pods'), TypeError);
    assert.throws(() => wm.resolve(definition, jobset, { pods: 'x' }), TypeError);
    assert.throws(() => wm.resolve(definition, jobset, { pods: [1] }), TypeError);
  });
});

describe('describe with pods', () => {
  test('describes_the_workloads_with_ready_counts_pod_rows_and_nodes', () => {
    const { code, stdout, stderr } = cli(['describe', '-f', listPath]);
    assert.equal(code, 0, stderr);
    const lines = stdout.split('\n');
    const row = (start) => lines.find((l) => l.replace(/^[|`\- ]+/, '').startsWith(start)) ?? '';
    assert.match(stdout, /^JobSet\/train {3}namespace: ml {3}definition: jobset-x-k8s-io-jobset-v1alpha2 \(catalog\)/);
    assert.match(row('jobset '), /2\/3 ready +gpu: 12 +gpu-node-1,gpu-node-2$/);
    assert.match(row('leader '), /1\/1 ready +gpu: 4 +gpu-node-1$/);
    assert.match(row('workers '), /1\/2 ready +gpu: 8 +gpu-node-2$/);
    assert.match(row('train-workers-0-1-klmno'), /Pending \(Unschedulable\) +gpu: 4 +<none>$/);
    assert.match(row('train-leader-0-0-abcde'), /Running +gpu: 4 +gpu-node-1$/);
    assert.match(stdout, /Gang scheduling:\n +GROUP +MIN +PODS +MEMBERS\n +pg-7c1e-jobset-train +3 +3 +replicatedjob/);
  });

  test('owned_jobs_and_pods_are_context_and_the_foreign_pod_is_described_on_its_own', () => {
    const { stdout } = cli(['describe', '-f', listPath]);
    assert.doesNotMatch(stdout, /^Job\//m);
    assert.doesNotMatch(stdout, /^Pod\/train-/m);
    assert.match(stdout, /^Pod\/web-6f7d8-pqrst {3}namespace: ml {3}definition: core-pod-v1 \(catalog\)/m);
    // Each workload is given only what belongs to it: the foreign pod (its ReplicaSet is not in
    // the List) is a workload of its own, with a note, and the JobSet's pods are not offered to it.
    const list = JSON.parse(cli(['describe', '-f', listPath, '-o', 'json']).stdout);
    assert.deepEqual(
      list.items.map((v) => `${v.kind}/${v.name}`),
      ['JobSet/train', 'Pod/web-6f7d8-pqrst'],
    );
    assert.deepEqual(list.items[0].pods, { total: trainPods.length, attributed: trainPods.length, unattributed: [] });
    assert.deepEqual(list.items[1].pods, { total: 1, attributed: 1, unattributed: [] });
    assert.ok(list.items[1].diagnostics.some((d) => d.code === 'object/owner-not-in-input'));
  });

  test('pod_limit_lists_unhealthy_pods_first_and_says_how_many_are_left', () => {
    const { code, stdout } = cli(['describe', '-f', listPath, '--pod-limit', '1']);
    assert.equal(code, 0);
    assert.match(stdout, /workers .*\n.*train-workers-0-1-klmno +Pending \(Unschedulable\).*\n.*\.\.\. +and 1 more \(1 unhealthy shown\)/);
    assert.doesNotMatch(stdout, /train-workers-0-0-fghij/);
  });

  test('a_pod_limit_that_is_not_a_whole_number_is_a_usage_error', () => {
    const { code, stderr } = cli(['describe', '-f', listPath, '--pod-limit', 'x']);
    assert.equal(code, 2);
    assert.match(stderr, /--pod-limit takes a whole number/);
  });
});

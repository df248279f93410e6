// `workload-map describe`: several -f files, where a --definition's problems are, -o wide,
// --no-headers, and one compilation per catalog definition per run.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';

import * as api from 'workload-map';
import { parse } from 'yaml';

import { CatalogDefinitions } from '../../bin/catalog-definitions.mjs';
import { cli, fixture, fixturePath, root } from './helpers.mjs';

/** A pod of the Job `train` (uid job-1) in namespace ml, ready, with `metadata` added. */
function trainPod(name, metadata = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'ml',
      uid: `pod-${name}`,
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'train', uid: 'job-1', controller: true }],
      ...metadata,
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'main' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}
const TRAIN = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'train', namespace: 'ml', uid: 'job-1' },
  spec: { parallelism: 2, completions: 2, template: { spec: { containers: [{ name: 'main' }] } } },
  status: { active: 2, ready: 2 },
};

const seed = fixturePath('seed-jobset.yaml');
const withPods = fixturePath('jobset-with-pods-list.yaml');
const scratch = mkdtempSync(path.join(tmpdir(), 'workload-map-describe-'));
after(() => rmSync(scratch, { recursive: true }));

/** Writes `objects` as a `kind: List` JSON file in the scratch folder; returns its path. */
function listFile(name, objects) {
  const file = path.join(scratch, name);
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  return file;
}

/** The Resources table of a describe text (the lines after `Resources:` up to a blank one). */
function resourcesTable(text) {
  const lines = text.split('\n');
  const start = lines.indexOf('Resources:') + 1;
  const end = lines.indexOf('', start);
  return lines.slice(start, end === -1 ? undefined : end);
}

describe('several files', () => {
  test('every_f_is_read_and_each_workload_described', () => {
    const { code, stdout } = cli(['describe', '-f', fixturePath('two-jobsets.yaml'), '-f', seed, '-o', 'json']);
    assert.equal(code, 0);
    assert.deepEqual(
      JSON.parse(stdout).items.map((v) => v.name),
      ['first', 'second', 'train-llm'],
    );
  });

  test('a_workload_in_one_file_finds_its_pods_in_another', () => {
    const objects = api.parseObjects(fixture('jobset-with-pods-list.yaml')).objects;
    const workload = listFile(
      'workload.json',
      objects.filter((o) => o.kind === 'JobSet'),
    );
    const owned = listFile(
      'owned.json',
      objects.filter((o) => o.kind !== 'JobSet'),
    );
    const apart = JSON.parse(cli(['describe', '-f', workload, '-f', owned, '-o', 'json']).stdout);
    // One file goes to the core as text, which also says where each instance was written.
    const together = JSON.parse(cli(['describe', '-f', withPods, '-o', 'json']).stdout, (key, value) => {
      if (key === 'source' && value && typeof value === 'object' && 'object' in value) {
        const { object: _, ...rest } = value;
        return rest;
      }
      return value;
    });
    assert.ok(apart.items[0].pods.attributed > 0);
    assert.deepEqual(apart, together);
  });

  test('a_folder_or_a_glob_is_read_as_its_manifest_files', () => {
    const dir = mkdtempSync(path.join(scratch, 'manifests-'));
    writeFileSync(path.join(dir, 'a.yaml'), fixture('seed-jobset.yaml'));
    writeFileSync(path.join(dir, 'b.yml'), fixture('two-jobsets.yaml'));
    writeFileSync(path.join(dir, 'notes.txt'), 'not a manifest\n');
    for (const arg of [dir, `${dir}/*.y*ml`]) {
      const { code, stdout, stderr } = cli(['describe', '-f', arg, '-o', 'json']);
      assert.equal(code, 0, stderr);
      assert.deepEqual(
        JSON.parse(stdout).items.map((v) => v.name),
        ['train-llm', 'first', 'second'],
      );
    }
    const { code, stderr } = cli(['describe', '-f', `${dir}/*.json`]);
    assert.equal(code, 2);
    assert.match(stderr, /no file matches ".*\*\.json"/);
  });

  test('an_unparsable_second_file_is_named', () => {
    const { code, stderr } = cli(['describe', '-f', seed, '-f', fixturePath('not-yaml.yaml')]);
    assert.equal(code, 2);
    assert.match(stderr, /not-yaml\.yaml:3:\d+: /);
  });
});

describe('definition diagnostics', () => {
  test('a_definition_file_s_problems_are_located_in_that_file', () => {
    const file = fixturePath('invalid-definition.yaml');
    const { code, stdout } = cli(['describe', '-f', seed, '--definition', file]);
    assert.equal(code, 1);
    assert.ok(stdout.includes(`  ${file}:13:41: error expr/forbidden: del function is not allowed`), stdout);
    assert.match(stdout, /^ {4}help: definitions may only read/m);
    assert.doesNotMatch(stdout, /\bdefinition:13:41/);
  });

  test('a_manifest_s_problems_are_located_at_the_value_in_the_manifest_file', () => {
    // A negative count and an unreadable quantity are problems of the user's file, read by a
    // catalog definition: they are shown at the value in that file, never in the catalog.
    const file = path.join(scratch, 'bad-values.yaml');
    const lines = [
      'apiVersion: jobset.x-k8s.io/v1alpha2', // 1
      'kind: JobSet',
      'metadata:',
      '  name: bad',
      'spec:', // 5
      '  replicatedJobs:',
      '  - name: workers',
      '    replicas: -1',
      '    template:',
      '      spec:', // 10
      '        template:',
      '          spec:',
      '            containers:',
      '            - name: main',
      '              resources:', // 15
      '                limits:',
      '                  nvidia.com/gpu: "8x"',
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    for (const args of [
      ['describe', '-f', file],
      ['describe', '-f', file, '-d', path.join(root, 'catalog/jobset-x-k8s-io-jobset-v1alpha2/definition.yaml')],
    ]) {
      const { code, stdout } = cli(args);
      assert.equal(code, 1, stdout);
      const diagnostics = stdout.slice(stdout.indexOf('Diagnostics:'));
      assert.ok(diagnostics.includes(`  ${file}:7:5: error object/replicas-negative:`), diagnostics);
      assert.ok(diagnostics.includes(`  ${file}:17:35: error resources/invalid-quantity:`), diagnostics);
      assert.doesNotMatch(diagnostics, /catalog:jobset/);
    }
    // The JSON output has the same lines and columns, with the object as the source.
    const view = JSON.parse(cli(['describe', '-f', file, '-o', 'json']).stdout);
    const quantity = view.diagnostics.find((d) => d.code === 'resources/invalid-quantity');
    assert.deepEqual([quantity.source, quantity.line, quantity.column], ['object', 17, 35]);
  });

  test('severities_are_coloured_with_force_color_only', () => {
    const args = ['describe', '-f', seed, '--definition', fixturePath('invalid-definition.yaml')];
    assert.ok(cli(args, { env: { FORCE_COLOR: '1' } }).stdout.includes(': \u001b[31merror\u001b[39m expr/forbidden'));
    assert.ok(!cli(args, { env: { NO_COLOR: '1' } }).stdout.includes('\u001b['));
    assert.ok(!cli([...args, '-o', 'json'], { env: { FORCE_COLOR: '1' } }).stdout.includes('\u001b['));
  });
});

describe('a definition file holding several definitions', () => {
  /** A `---` stream of the test JobSet definition and the catalog's LeaderWorkerSet one. */
  function definitionStream() {
    const file = path.join(scratch, 'definitions.yaml');
    writeFileSync(file, `${fixture('jobset-definition.yaml')}---\n${api.catalog.get('leaderworkerset-x-k8s-io-leaderworkerset-v1').text}`);
    return file;
  }

  test('each_object_is_described_by_the_definition_written_for_its_type', () => {
    const { code, stdout, stderr } = cli(['describe', '-f', seed, '-f', fixturePath('lws-3x2.yaml'), '-d', definitionStream(), '-o', 'json']);
    assert.equal(code, 0, stderr);
    assert.deepEqual(
      JSON.parse(stdout).items.map((v) => [v.kind, v.definition.name, v.resources.gpus]),
      [
        ['JobSet', 'test-jobset', 12],
        ['LeaderWorkerSet', 'leaderworkerset-x-k8s-io-leaderworkerset-v1', 24],
      ],
    );
  });

  test('an_object_no_definition_of_the_file_covers_exits_4', () => {
    const file = definitionStream();
    const { code, stderr } = cli(['describe', '-f', fixturePath('raycluster-two-groups.yaml'), '-d', file]);
    assert.equal(code, 4);
    assert.ok(stderr.includes(`no definition in ${file} covers RayCluster (ray.io/v1)`), stderr);
  });

  test('edits_pick_the_definition_for_the_object_too', () => {
    const edit = (definitionFile) =>
      cli(['edit', '-f', seed, '-d', definitionFile, '-c', 'replicatedjob', '-i', 'workers', '-m', '{"schedulerName":"kai-scheduler"}']);
    const fromStream = edit(definitionStream());
    assert.equal(fromStream.code, 0, fromStream.stderr);
    assert.match(fromStream.stdout, /schedulerName/);
    assert.equal(fromStream.stdout, edit(fixturePath('jobset-definition.yaml')).stdout);
  });
});

describe('table options', () => {
  test('wide_adds_pods_and_nodes_per_row_when_pods_are_given', () => {
    const { code, stdout } = cli(['describe', '-f', withPods, '-o', 'wide']);
    assert.equal(code, 0);
    assert.deepEqual(resourcesTable(stdout), [
      'COMPONENT                REPLICAS   GPU   CPU   MEMORY   PODS   NODES',
      'replicatedjob[leader]    1          4     2     8Gi      1/1    gpu-node-1',
      'replicatedjob[workers]   2          8     4     16Gi     1/2    gpu-node-2',
      'TOTAL                    3          12    6     24Gi     2/3    gpu-node-1,gpu-node-2',
    ]);
  });

  test('wide_without_pods_is_the_text_output', () => {
    assert.equal(cli(['describe', '-f', seed, '-o', 'wide']).stdout, cli(['describe', '-f', seed]).stdout);
  });

  test('no_headers_leaves_out_the_header_rows', () => {
    const table = resourcesTable(cli(['describe', '-f', seed, '--no-headers']).stdout);
    assert.equal(table.length, 3);
    assert.match(table[0], /^replicatedjob\[leader\] +1 +4 /);
    const definitions = cli(['definitions', '--no-headers']).stdout.trimEnd().split('\n');
    assert.equal(definitions.length, api.catalog.list().length);
    assert.doesNotMatch(definitions[0], /^NAME /);
  });
});

describe('one compilation per catalog definition per run', () => {
  /** The package, counting catalog lookups and compilations. */
  function countingApi() {
    const counts = { finds: 0, compilations: 0 };
    const catalog = { find: (...args) => ((counts.finds += 1), api.catalog.find(...args)) };
    class Definition extends api.Definition {
      constructor(source) {
        super(source);
        counts.compilations += 1;
      }
    }
    return { counts, api: { catalog, Definition } };
  }

  const [jobset] = api.parseObjects(fixture('seed-jobset.yaml')).objects;
  const copies = (n, apiVersion) => Array.from({ length: n }, (_, i) => ({ ...jobset, apiVersion, metadata: { ...jobset.metadata, name: `train-${i}` } }));

  test('500_objects_of_one_type_look_up_and_compile_its_definition_once', () => {
    const { counts, api: counting } = countingApi();
    const definitions = new CatalogDefinitions(counting);
    const found = copies(500, jobset.apiVersion).map((o) => definitions.find(o));
    assert.equal(counts.finds, 1);
    assert.equal(counts.compilations, 1);
    assert.ok(found.every((f) => f === found[0]));
    definitions.free();
  });

  test('two_versions_falling_back_to_one_entry_share_its_compilation', () => {
    const { counts, api: counting } = countingApi();
    const definitions = new CatalogDefinitions(counting);
    const [exact, fallback] = [copies(3, jobset.apiVersion), copies(3, 'jobset.x-k8s.io/v9')].map((list) => list.map((o) => definitions.find(o))[0]);
    assert.equal(counts.finds, 2);
    assert.equal(definitions.compiled, 1);
    assert.equal(exact.definition, fallback.definition);
    assert.match(fallback.origin.note, /no catalog definition for jobset\.x-k8s\.io\/v9/);
    definitions.free();
  });

  test('a_500_item_list_through_the_catalog_describes_every_item', () => {
    const file = listFile('list500.json', copies(500, jobset.apiVersion));
    const { code, stdout } = cli(['describe', '-f', file, '-o', 'json']);
    assert.equal(code, 0);
    const list = JSON.parse(stdout);
    assert.equal(list.kind, 'List');
    const views = list.items;
    assert.equal(views.length, 500);
    assert.ok(views.every((v, i) => v.name === `train-${i}` && v.resources.gpus === 12));
  });
});

describe('which objects describe reads as workloads (the core reading)', () => {
  test('a_jobset_whose_trainjob_is_not_in_the_input_is_described_with_a_note', () => {
    const input = JSON.stringify({
      apiVersion: 'jobset.x-k8s.io/v1alpha2',
      kind: 'JobSet',
      metadata: {
        name: 'trainer',
        namespace: 'ml',
        uid: 'js-t',
        ownerReferences: [{ apiVersion: 'trainer.kubeflow.org/v1alpha1', kind: 'TrainJob', name: 'trainer', uid: 'tj', controller: true }],
      },
      spec: { replicatedJobs: [{ name: 'node', replicas: 1, template: { spec: { template: { spec: { containers: [{ name: 'c' }] } } } } }] },
    });
    const { code, stdout } = cli(['describe', '-f', '-'], { input });
    assert.equal(code, 0);
    assert.match(stdout, /^JobSet\/trainer /);
    assert.match(stdout, /object\/owner-not-in-input: its controller TrainJob\/trainer is not in the input/);
  });

  test('objects_that_own_each_other_are_an_error_not_a_silent_exit_0', () => {
    const input = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          apiVersion: 'jobset.x-k8s.io/v1alpha2',
          kind: 'JobSet',
          metadata: { name: 'loop', uid: 'a', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'b', controller: true }] },
          spec: {},
        },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'p',
            uid: 'b',
            ownerReferences: [{ apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', name: 'loop', uid: 'a', controller: true }],
          },
          spec: {},
        },
      ],
    });
    const { code, stderr } = cli(['describe', '-f', '-'], { input });
    assert.equal(code, 1, stderr);
    assert.match(stderr, /error: .*JobSet\/loop.*name each other as controllers.*\(object\/owner-cycle\)/);
  });
});

describe('Kartas among the objects read', () => {
  // An export of a cluster (kubectl get kartas,deployments,pods -o yaml) holds its Kartas: they
  // are the definitions in force, as live describe reads them from the cluster.
  const karta = (name, edit = (d) => d) => {
    const definition = /** @type {any} */ (
      api.parseObjects(readFileSync(path.join(root, 'catalog', 'apps-deployment-v1', 'definition.yaml'), 'utf8')).objects[0]
    );
    return edit({ ...definition, metadata: { name } });
  };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'prod' },
    spec: { replicas: 3, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c' }] } } },
  };

  test('a Karta in the input is the definition of its type, named as from the input', () => {
    const { code, stdout, stderr } = cli(['describe', '-f', listFile('karta-in-force.json', [karta('my-deployments'), deployment])]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^Deployment\/web {3}namespace: prod {3}definition: my-deployments \(input\)/);
    assert.doesNotMatch(stderr, /no definition covers Karta/);
  });

  test('two Kartas for one type: read with the catalog, and said', () => {
    const { code, stdout, stderr } = cli(['describe', '-f', listFile('karta-conflict.json', [karta('one'), karta('two'), deployment])]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /definition: apps-deployment-v1 \(catalog\)/);
    assert.match(stderr, /warning: .*Karta\/one.*Karta\/two|warning: .*one, two/);
  });

  test('a broken Karta is said once and located by its name', () => {
    const broken = karta('bad-jq', (d) => {
      d.spec.structureDefinition.rootComponent.statusDefinition.statusMappings.running = [
        { byExpression: { expression: '.status |', expectedResult: 'true' } },
      ];
      return d;
    });
    const { stdout, stderr } = cli(['describe', '-f', listFile('karta-broken.json', [broken, deployment])]);
    assert.match(stdout, /definition: bad-jq \(input\)/);
    assert.equal(stderr.split('\n').filter((line) => line.startsWith('warning:') && line.includes('Karta/bad-jq')).length, 1, stderr);
    assert.match(
      stderr,
      /Karta\/bad-jq: error expr\/syntax: .* \(at spec\.structureDefinition\.rootComponent\.statusDefinition\.statusMappings\.running/,
      stderr,
    );
  });
});

describe('pods being deleted, and objects given twice', () => {
  test('a_terminating_pod_reads_Terminating_and_is_not_ready', () => {
    // Deleted, held by a finalizer: its phase and Ready condition still say Running and True.
    const leaving = trainPod('train-a', { deletionTimestamp: '2025-01-01T00:00:30Z', finalizers: ['example.com/hold'] });
    const file = listFile('terminating.json', [TRAIN, leaving, trainPod('train-b')]);
    const { code, stdout } = cli(['describe', '-f', file]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /^job {2,}1\/2 ready {2,}node-1$/m, 'the terminating pod is not counted ready');
    assert.match(stdout, /^\|-- train-a {2,}Terminating {2,}node-1$/m, 'kubectl says Terminating');
    assert.match(stdout, /^`-- train-b {2,}Running {2,}node-1$/m);
    const view = JSON.parse(cli(['describe', '-f', file, '-o', 'json']).stdout);
    const [a, b] = view.root.pods.items;
    assert.deepEqual([a.name, a.phase, a.ready, a.terminating], ['train-a', 'Running', false, true]);
    assert.deepEqual([b.name, b.ready, 'terminating' in b], ['train-b', true, false], 'terminating is absent when false');
    assert.equal(view.terminating, undefined, 'the Job itself is not being deleted');
  });

  test('a_pod_workload_being_deleted_says_so_in_its_phase_line', () => {
    const pod = {
      ...trainPod('solo', { deletionTimestamp: '2025-01-01T00:00:30Z' }),
      metadata: { name: 'solo', namespace: 'ml', uid: 'p', deletionTimestamp: '2025-01-01T00:00:30Z' },
    };
    const { code, stdout } = cli(['describe', '-f', listFile('terminating-pod.json', [pod])]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /^Phase: Running \(Terminating\)$/m);
    assert.match(stdout, /^pod {2,}0\/1 ready {2,}node-1\n`-- solo {2,}Terminating {2,}node-1$/m);
  });

  test('an_object_given_twice_is_described_once', () => {
    // A LeaderWorkerSet as a live fetch returns it: each leader pod once as the owner of its
    // workers' StatefulSet and once as a pod.
    const testCase = parse(readFileSync(path.join(root, 'tests', 'fixtures', 'pods', 'lws-leader-given-twice.yaml'), 'utf8'));
    const objects = [testCase.object, ...testCase.related];
    assert.equal(objects.filter((o) => o.metadata.uid === 'pod-l0').length, 2, 'the leader pod is given twice');
    const { code, stdout } = cli(['describe', '-f', listFile('lws-twice.json', objects)]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /^leaderworkerset {2,}3\/4 ready /m);
    for (const pod of ['vllm-0', 'vllm-1', 'vllm-0-1', 'vllm-1-1']) {
      assert.equal(stdout.split('\n').filter((line) => new RegExp(`-- ${pod} `).test(line)).length, 1, `${pod} is listed once`);
    }
    assert.match(stdout, /^ {2}pg-lws-1-vllm-0 +2 +2 +group$/m, 'a gang of two pods');
  });
});

// The live CLI without a cluster: its arguments, the kubeconfig read the kubectl way (several
// KUBECONFIG files, --kubeconfig, --context, the in-cluster service account), type tokens read
// as kubectl's REST mapper reads them, kubectl's ages, the exit code when there is no
// cluster to ask, and bin/kube as the one place of the cluster rules (client-node, the Kartas
// over the catalog) for the CLI and the exporter. The cluster itself is tests/cluster/cli.test.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';

import { parse } from 'yaml';

import { cellsOf, jsonOf, rowOf } from '../../bin/commands/get.mjs';
import { loadKubeConfig } from '../../bin/kube/config.mjs';
import { conflictReport, droppedFields, effectiveDefinitions, kartaProblems, kartaReport, LAST_APPLIED } from '../../bin/kube/definitions.mjs';
import { Discovery, objectPath } from '../../bin/kube/discovery.mjs';
import { fetchWorkload } from '../../bin/kube/objects.mjs';
import { humanAge } from '../../bin/live.mjs';
import { cli, root } from './helpers.mjs';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'workload-map-live-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A kubeconfig file with one context per entry: `[context, cluster, server, namespace?]`. */
function kubeconfig(file, entries, current) {
  const lines = ['apiVersion: v1', 'kind: Config', 'clusters:'];
  for (const [, cluster, server] of entries) lines.push(`- name: ${cluster}`, '  cluster:', `    server: ${server}`);
  lines.push('users:', '- name: u', '  user: {token: abc}', 'contexts:');
  for (const [context, cluster, , namespace] of entries) {
    lines.push(`- name: ${context}`, `  context: {cluster: ${cluster}, user: u${namespace ? `, namespace: ${namespace}` : ''}}`);
  }
  if (current) lines.push(`current-context: ${current}`);
  const full = path.join(tmp, file);
  writeFileSync(full, `${lines.join('\n')}\n`);
  return full;
}

/** The CLI with no cluster configured anywhere (no KUBECONFIG, an empty home, not in a pod). */
function noCluster(args, env = {}) {
  const home = path.join(tmp, 'empty-home');
  mkdirSync(home, { recursive: true });
  return cli(args, { env: { KUBECONFIG: '', HOME: home, KUBERNETES_SERVICE_HOST: '', KUBERNETES_SERVICE_PORT: '', ...env } });
}

/** A Karta claiming `group/version/kind` (none without a group), read by nothing else. */
function karta(name, group, version, kind) {
  return {
    apiVersion: 'run.ai/v1alpha1',
    kind: 'Karta',
    metadata: { name },
    spec: { structureDefinition: { rootComponent: { name: 'root', kind: group === undefined ? undefined : { group, version, kind } } } },
  };
}

/** The catalog's PyTorchJob definition as a Karta named `name`. */
function pytorch(name) {
  const definition = parse(readFileSync(path.join(root, 'catalog', 'kubeflow-org-pytorchjob-v1', 'definition.yaml'), 'utf8'));
  definition.metadata = { name };
  return definition;
}

describe('get and describe TYPE/NAME: arguments', () => {
  for (const [args, message] of [
    [['get', '-n', 'a', '-A'], /-n and -A exclude each other/],
    [['get', '--phase', 'Sleeping'], /--phase: unknown phase "Sleeping": use Undefined, Initializing, Running/],
    [['get', 'jobs/x', '-l', 'a=b'], /-l selects among many objects: it cannot be given with NAME/],
    [['get', 'jobs', '--all-types'], /--all-types lists every covered type: give it or TYPE, not both/],
    [['get', '-o', 'json', '--watch'], /--watch prints rows: use it with -o table, wide or name/],
    [['get', '-o', 'csv'], /unknown output format "csv" for get/],
    [['get', '--chunk-size', 'many'], /--chunk-size takes a whole number \(0: no paging\), not "many"/],
    [['get', 'a', 'b', 'c'], /get takes TYPE\[\/NAME\] or TYPE NAME, not 3 arguments/],
    [['get', 'jobs/'], /get: "jobs\/" is not TYPE\/NAME/],
    [['get', '--namespaces', 'x'], /unknown option --namespaces; did you mean --namespace\?/],
    [['describe', 'jobs'], /describe: a NAME is required: give it as TYPE\/NAME or as TYPE NAME/],
    [['describe', 'jobs/x', '-f', 'x.yaml'], /describe reads either -f FILE or TYPE\/NAME from the cluster, not both/],
    [['describe', '-f', 'x.yaml', '-n', 'ml'], /describe: --namespace reads the cluster: it cannot be given with -f/],
  ]) {
    test(`${args.join(' ')}: usage error, exit 2, before any cluster is asked`, () => {
      const result = noCluster(args);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    });
  }

  test('the main help lists get and the exit codes of cluster problems', () => {
    const help = cli(['--help']).stdout;
    assert.match(help, /^ {2}get {11}List the workloads of a cluster/m);
    assert.match(help, /3 not found in the cluster, 4 no definition covers the object's type, 5 no cluster configured/);
    assert.match(cli(['get', '--help']).stdout, /Rows: NAME, NAMESPACE, TYPE, PHASE/);
  });
});

describe('no cluster: exit 5 with the reason', () => {
  test('nothing configured', () => {
    for (const args of [['get'], ['describe', 'job/x'], ['definitions', '--cluster']]) {
      const result = noCluster(args);
      assert.equal(result.code, 5, `${args.join(' ')}: ${result.stderr}`);
      assert.match(
        result.stderr,
        /^workload-map: no cluster configured: no kubeconfig \(--kubeconfig, KUBECONFIG or ~\/\.kube\/config\) and not running in a pod/,
      );
    }
  });

  test('--kubeconfig names no file', () => {
    const result = noCluster(['get', '--kubeconfig', path.join(tmp, 'nope')]);
    assert.equal(result.code, 5);
    assert.match(result.stderr, /--kubeconfig .*nope: no such file/);
  });

  test('--context names no context', () => {
    const file = kubeconfig('one.yaml', [['a', 'c', 'https://127.0.0.1:1']], 'a');
    const result = noCluster(['get', '--kubeconfig', file, '--context', 'b']);
    assert.equal(result.code, 5);
    assert.match(result.stderr, /no context named "b" in the kubeconfig \(contexts: a\)/);
  });

  test('the server does not answer', () => {
    const file = kubeconfig('refused.yaml', [['a', 'c', 'https://127.0.0.1:1']], 'a');
    const result = noCluster(['get', '-A'], { KUBECONFIG: file });
    assert.equal(result.code, 5);
    assert.match(result.stderr, /cannot reach the cluster at https:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
  });

  test('offline commands never need a cluster: definitions and describe -f as before', () => {
    const result = noCluster(['definitions']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^NAME\s+APIVERSION\s+KIND\s+COMPONENTS$/m);
  });
});

describe('the kubeconfig, the kubectl way', () => {
  test('KUBECONFIG: several files, the first to set a value wins, missing files skipped', async () => {
    const first = kubeconfig('first.yaml', [['a', 'shared', 'https://first.example:6443', 'team-a']], 'a');
    const second = kubeconfig(
      'second.yaml',
      [
        ['b', 'shared', 'https://second.example:6443'],
        ['a', 'other', 'https://other.example:6443'],
      ],
      'b',
    );
    const env = { KUBECONFIG: [path.join(tmp, 'missing.yaml'), first, second].join(path.delimiter) };
    const merged = await loadKubeConfig({ env });
    assert.equal(merged.context, 'a', 'the first current-context');
    assert.equal(merged.server, 'https://first.example:6443');
    assert.equal(merged.namespace, 'team-a');
    const other = await loadKubeConfig({ env, context: 'b' });
    assert.equal(other.server, 'https://first.example:6443', 'cluster "shared" as the first file names it');
    assert.equal(other.namespace, 'default');
    assert.equal((await loadKubeConfig({ env, context: 'b', namespace: 'ns' })).namespace, 'ns');
    // --kubeconfig: that file alone.
    assert.equal((await loadKubeConfig({ env, kubeconfig: second })).context, 'b');
  });

  test('in a pod: the service account token, CA and namespace', async () => {
    const podRoot = path.join(tmp, 'pod');
    const dir = path.join(podRoot, 'var/run/secrets/kubernetes.io/serviceaccount');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'token'), 'sa-token');
    writeFileSync(path.join(dir, 'ca.crt'), '');
    writeFileSync(path.join(dir, 'namespace'), 'monitoring');
    const config = await loadKubeConfig({
      env: { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' },
      home: path.join(tmp, 'empty-home'),
      serviceAccountRoot: podRoot,
    });
    assert.equal(config.inCluster, true);
    assert.equal(config.server, 'https://10.96.0.1:443');
    assert.equal(config.namespace, 'monitoring');
    const options = { headers: {} };
    await config.kubeConfig.applyToHTTPSOptions(options);
    assert.equal(options.headers.Authorization, 'Bearer sa-token');
  });
});

describe('type tokens, as kubectl reads them', () => {
  const r = (group, version, resource, kind, shortNames = [], preferred = true) => ({
    group,
    version,
    apiVersion: group ? `${group}/${version}` : version,
    resource,
    kind,
    namespaced: true,
    singular: kind.toLowerCase(),
    shortNames,
    verbs: ['list'],
    preferred,
  });
  const discovery = new Discovery([
    r('', 'v1', 'pods', 'Pod', ['po']),
    r('batch', 'v1', 'jobs', 'Job'),
    r('jobset.x-k8s.io', 'v1alpha2', 'jobsets', 'JobSet'),
    r('ray.io', 'v1', 'rayclusters', 'RayCluster'),
    r('ray.io', 'v1alpha1', 'rayclusters', 'RayCluster', [], false),
    r('kubeflow.org', 'v1', 'pytorchjobs', 'PyTorchJob', ['pj']),
    r('example.com', 'v1', 'jobs', 'Job'),
  ]);
  const named = (token) => {
    const found = discovery.resolve(token);
    return `${found.resource}.${found.version}.${found.group}`;
  };

  test('plural, singular, short name and kind, any case', () => {
    assert.equal(named('pytorchjobs'), 'pytorchjobs.v1.kubeflow.org');
    assert.equal(named('pytorchjob'), 'pytorchjobs.v1.kubeflow.org');
    assert.equal(named('pj'), 'pytorchjobs.v1.kubeflow.org');
    assert.equal(named('PyTorchJob'), 'pytorchjobs.v1.kubeflow.org');
    assert.equal(named('po'), 'pods.v1.');
  });

  test('with a group, or a version and a group; else the preferred version', () => {
    assert.equal(named('jobs.example.com'), 'jobs.v1.example.com');
    assert.equal(named('jobs'), 'jobs.v1.batch', 'ties go to discovery order');
    assert.equal(named('Job.v1.batch'), 'jobs.v1.batch');
    assert.equal(named('rayclusters'), 'rayclusters.v1.ray.io');
    assert.equal(named('rayclusters.v1alpha1.ray.io'), 'rayclusters.v1alpha1.ray.io');
    assert.equal(named('raycluster.ray.io'), 'rayclusters.v1.ray.io');
  });

  test('an unknown token is not found', () => {
    assert.throws(
      () => discovery.resolve('nothings'),
      (error) => error.reason === 'not-found' && /doesn't have a resource type "nothings"/.test(error.message),
    );
    assert.throws(
      () => discovery.resolve('jobs.v2.batch'),
      (error) => error.reason === 'not-found',
    );
  });
});

test('ages as kubectl prints them', () => {
  const now = Date.parse('2026-01-10T00:00:00Z');
  const ago = (seconds) => humanAge(new Date(now - seconds * 1000).toISOString(), now);
  assert.equal(ago(45), '45s');
  assert.equal(ago(119), '119s');
  assert.equal(ago(192), '3m12s');
  assert.equal(ago(600), '10m');
  assert.equal(ago(3 * 3600 + 5 * 60), '3h5m');
  assert.equal(ago(30 * 3600), '30h');
  assert.equal(ago(3 * 86400 + 2 * 3600), '3d2h');
  assert.equal(ago(100 * 86400), '100d');
  assert.equal(ago(3 * 365 * 86400 + 86400), '3y1d');
  assert.equal(humanAge(undefined, now), '<unknown>');
});

describe('get: a row as the view says it', () => {
  /** The row `get` makes of `objects` (the first workload's), read at `readAt`. */
  const rowFor = async (objects, readAt = Date.now()) => {
    const api = await import('workload-map');
    const [item] = api.resolveAll(objects, { catalog: true, related: [] }).items;
    return rowOf(item, objects[item.index], [], readAt);
  };
  const job = (spec, containers = [{ name: 'main', resources: { limits: { 'nvidia.com/gpu': 4 } } }]) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'train', namespace: 'ml', uid: 'job-1', creationTimestamp: '2026-01-10T00:00:00Z' },
    spec: { ...spec, template: { spec: { containers } } },
  });

  test('json_amounts_are_numbers_beside_their_texts', async () => {
    const json = jsonOf(await rowFor([job({ parallelism: 3, completions: 3 })]));
    assert.equal(json.gpus, 12);
    assert.equal(json.gpusText, '12');
    assert.deepEqual(json.ready, { ready: 0, desired: 3, desiredText: '3' });
    assert.equal(json.terminating, false);
    assert.equal('readAt' in json || 'uid' in json, false);
  });

  test('json_amounts_not_known_exactly_are_null_and_their_text_says_why', async () => {
    // A parallelism that is not a number: the pods asked for, and so the GPUs, are unknown.
    const unknown = jsonOf(await rowFor([job({ parallelism: 'many' })]));
    assert.equal(unknown.gpus, null);
    assert.equal(unknown.gpusText, 'n/a');
    assert.deepEqual(unknown.ready, { ready: 0, desired: null, desiredText: 'n/a' });
    // A GPU count that is not a quantity: a lower bound of the rest.
    const bounded = jsonOf(
      await rowFor([
        job({ parallelism: 2 }, [
          { name: 'a', resources: { limits: { 'nvidia.com/gpu': 4 } } },
          { name: 'b', resources: { limits: { 'nvidia.com/gpu': 'lots' } } },
        ]),
      ]),
    );
    assert.equal(bounded.gpus, null);
    assert.equal(bounded.gpusText, '≥ 8');
    assert.deepEqual(bounded.ready, { ready: 0, desired: 2, desiredText: '2' });
  });

  test('age_counts_to_when_the_objects_were_read_not_to_the_printing', async () => {
    const readAt = Date.parse('2026-01-10T00:00:45Z');
    const row = await rowFor([job({ parallelism: 1 })], readAt);
    assert.equal(cellsOf(row, false).at(-1), '45s');
  });

  test('a_pod_being_deleted_reads_Terminating_and_not_ready', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'solo', namespace: 'ml', uid: 'p-1', creationTimestamp: '2026-01-10T00:00:00Z', deletionTimestamp: '2026-01-10T00:01:00Z' },
      spec: { nodeName: 'n1', containers: [{ name: 'main' }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    };
    const row = await rowFor([pod], Date.parse('2026-01-10T00:01:50Z'));
    assert.deepEqual(cellsOf(row, false), ['solo', 'ml', 'Pod', 'Terminating', '0', '0/1', '110s']);
    const json = jsonOf(row);
    assert.deepEqual([json.phases, json.terminating], [['Running'], true], '--phase still reads the phases');
  });
});

describe('fetchWorkload: each object once', () => {
  // A LeaderWorkerSet in a fake cluster: the worker pods' chain passes through their leader pod
  // (it owns their StatefulSet), so the leader is reached as a chain object and as a pod.
  const owner = (kind, name, apiVersion = kind === 'Pod' ? 'v1' : 'apps/v1') => [{ apiVersion, kind, name, uid: `${kind}-${name}`, controller: true }];
  const object = (apiVersion, kind, name, ownerReferences) => ({
    apiVersion,
    kind,
    metadata: { name, namespace: 'serve', uid: `${kind}-${name}`, ...(ownerReferences ? { ownerReferences } : {}) },
  });
  const lws = object('leaderworkerset.x-k8s.io/v1', 'LeaderWorkerSet', 'vllm');
  const leaderSet = object('apps/v1', 'StatefulSet', 'vllm', owner('LeaderWorkerSet', 'vllm', 'leaderworkerset.x-k8s.io/v1'));
  const leader = object('v1', 'Pod', 'vllm-0', owner('StatefulSet', 'vllm'));
  const workerSet = object('apps/v1', 'StatefulSet', 'vllm-0', owner('Pod', 'vllm-0'));
  const worker = object('v1', 'Pod', 'vllm-0-1', owner('StatefulSet', 'vllm-0'));
  const resources = {
    LeaderWorkerSet: {
      group: 'leaderworkerset.x-k8s.io',
      version: 'v1',
      apiVersion: 'leaderworkerset.x-k8s.io/v1',
      kind: 'LeaderWorkerSet',
      resource: 'leaderworkersets',
      namespaced: true,
    },
    StatefulSet: { group: 'apps', version: 'v1', apiVersion: 'apps/v1', kind: 'StatefulSet', resource: 'statefulsets', namespaced: true },
    Pod: { group: '', version: 'v1', apiVersion: 'v1', kind: 'Pod', resource: 'pods', namespaced: true },
  };
  const discovery = { forKind: (_apiVersion, kind) => resources[kind] };
  const byPath = new Map([lws, leaderSet, leader, workerSet, worker].map((o) => [objectPath(resources[o.kind], 'serve', o.metadata.name), o]));
  const client = {
    get: async (p) => byPath.get(p) ?? Promise.reject(new Error(`no ${p}`)),
    list: async () => ({ items: [leader, worker] }),
  };

  test('a_leader_pod_on_its_workers_chain_is_related_once', async () => {
    const { root, related } = await fetchWorkload(client, discovery, resources.LeaderWorkerSet, 'serve', 'vllm');
    assert.equal(root.metadata.name, 'vllm');
    const uids = related.map((o) => o.metadata.uid);
    assert.deepEqual(uids, [...new Set(uids)], `no object twice: ${uids.join(', ')}`);
    assert.deepEqual(related.map((o) => `${o.kind}/${o.metadata.name}`).sort(), ['Pod/vllm-0', 'Pod/vllm-0-1', 'StatefulSet/vllm', 'StatefulSet/vllm-0']);
  });
});

test('the kubectl plugin is a package executable that runs the CLI', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  assert.equal(pkg.bin['kubectl-workload_map'], 'bin/kubectl-workload_map');
  const result = spawnSync(path.join(root, 'bin', 'kubectl-workload_map'), ['get', '--help'], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, cli(['get', '--help']).stdout);
});

describe('one place for the cluster rules, for the CLI and the exporter', () => {
  test('only bin/kube/config.mjs imports @kubernetes/client-node', () => {
    // A static import or an `await import(...)` (JSDoc type imports load nothing).
    const RUNTIME_IMPORT = /^\s*import\s[^;]*?from\s*['"]@kubernetes\/client-node['"]|\bawait\s+import\(\s*['"]@kubernetes\/client-node['"]\s*\)/m;
    const importers = [];
    const walk = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.[cm]?js$/.test(entry.name) && RUNTIME_IMPORT.test(readFileSync(full, 'utf8'))) {
          importers.push(path.relative(root, full).split(path.sep).join('/'));
        }
      }
    };
    walk(path.join(root, 'bin'));
    assert.deepEqual(importers, ['bin/kube/config.mjs']);
  });

  test('effectiveDefinitions: a Karta replaces the catalog for its type, two are a conflict read with the catalog, one without a root type is named', async () => {
    const api = await import('workload-map');
    const { entries, conflicts, unreadable, kartas } = effectiveDefinitions(api, [
      karta('team-job', 'batch', 'v1', 'Job'),
      karta('ray-a', 'ray.io', 'v1', 'RayJob'),
      karta('ray-b', 'ray.io', 'v1', 'RayJob'),
      karta('no-kind'),
    ]);
    const job = entries.filter((e) => e.apiVersion === 'batch/v1' && e.kind === 'Job');
    assert.deepEqual(
      job.map((e) => [e.name, e.origin, e.replaces]),
      [['team-job', 'cluster', 'batch-job-v1']],
    );
    assert.deepEqual(
      entries.filter((e) => e.kind === 'RayJob').map((e) => [e.name, e.origin, e.conflict]),
      [['ray-io-rayjob-v1', 'catalog', ['ray-a', 'ray-b']]],
      'a type two Kartas claim keeps the catalog definition, marked',
    );
    assert.deepEqual([...conflicts], [['ray.io/v1/RayJob', ['ray-a', 'ray-b']]]);
    assert.deepEqual(unreadable, ['no-kind']);
    assert.ok(entries.some((e) => e.name === 'apps-deployment-v1' && e.origin === 'catalog'));
    assert.deepEqual(
      kartas.map((k) => [k.name, k.state, k.conflictsWith]),
      [
        ['no-kind', 'no-root-kind', undefined],
        ['ray-a', 'conflict', ['ray-b']],
        ['ray-b', 'conflict', ['ray-a']],
        ['team-job', 'in-force', undefined],
      ],
    );
    assert.match(
      conflictReport({ entries, conflicts, kartas }, 'ray.io/v1/RayJob'),
      /^2 Kartas claim RayJob \(ray\.io\/v1\): Karta\/ray-a, Karta\/ray-b; neither is used and its workloads are read with the catalog's definition ray-io-rayjob-v1: remove one/,
    );
  });

  test('a_broken_karta_is_invalid_with_its_problems_located_by_name_and_field_path', async () => {
    const api = await import('workload-map');
    const badjq = pytorch('pytorch-badjq');
    badjq.spec.structureDefinition.childComponents[1].scaleDefinition.replicasPath =
      '.spec.pytorchReplicaSpecs.Worker | if . == null then 0 else (.replicas // 1)';
    const [report] = effectiveDefinitions(api, [badjq]).kartas;
    assert.deepEqual([report.state, report.valid, report.errors, report.warnings], ['in-force', false, 1, 0]);
    assert.deepEqual(
      report.problems.map((p) => [p.code, p.path, 'line' in p]),
      [['expr/syntax', 'spec.structureDefinition.childComponents[1].scaleDefinition.replicasPath', false]],
      'no line or column: they would point into our re-serialisation',
    );
    const lines = kartaReport(report);
    assert.match(lines[0], /^Karta\/pytorch-badjq, the definition in force for PyTorchJob \(kubeflow\.org\/v1\), is invalid \(1 error\)/);
    assert.match(
      lines[1],
      /^ {2}Karta\/pytorch-badjq: error expr\/syntax: .+ \(at spec\.structureDefinition\.childComponents\[1\]\.scaleDefinition\.replicasPath\)$/,
    );
    const entry = effectiveDefinitions(api, [badjq]).entries.find((e) => e.name === 'pytorch-badjq');
    assert.equal(entry.valid, false);
  });

  test('a_field_the_api_server_dropped_from_what_kubectl_applied_is_named_with_a_hint', async () => {
    const api = await import('workload-map');
    // kubectl apply --validate=false: the annotation holds what was applied; the stored spec
    // is what the Karta CRD kept of it (the misspelt field pruned, an empty block left).
    const applied = pytorch('pytorch-typo');
    applied.spec.structureDefinition.childComponents[1].scaleDefinition = { replicaPath: '.spec.pytorchReplicaSpecs.Worker.replicas' };
    const stored = structuredClone(applied);
    stored.spec.structureDefinition.childComponents[1].scaleDefinition = {};
    stored.metadata.annotations = { [LAST_APPLIED]: JSON.stringify(applied) };
    const problems = kartaProblems(api, stored);
    assert.deepEqual(
      problems.map((p) => [p.severity, p.code, p.path]),
      [
        ['warning', 'definition/empty-scale-definition', 'spec.structureDefinition.childComponents[1].scaleDefinition'],
        ['warning', 'definition/unknown-field', 'spec.structureDefinition.childComponents[1].scaleDefinition.replicaPath'],
      ],
    );
    assert.match(problems[1].message, /^the API server dropped spec\.structureDefinition\.childComponents\[1\]\.scaleDefinition\.replicaPath: /);
    assert.equal(problems[1].help, 'did you mean "replicasPath"?');
    // Without the annotation (kubectl create, server-side apply), the empty block still warns.
    delete stored.metadata.annotations;
    assert.deepEqual(
      kartaProblems(api, stored).map((p) => p.code),
      ['definition/empty-scale-definition'],
    );
    // A known field the stored Karta lacks was removed since (kubectl edit), not dropped.
    const edited = pytorch('pytorch-edited');
    edited.metadata.annotations = { [LAST_APPLIED]: JSON.stringify(pytorch('pytorch-edited')) };
    delete edited.spec.optimizationInstructions;
    assert.deepEqual(kartaProblems(api, edited), []);
    assert.deepEqual(droppedFields({ a: { b: 1, c: [{ d: 1, e: 2 }] }, n: null }, { a: { c: [{ d: 1 }] } }), ['a.b', 'a.c[0].e']);
  });
});

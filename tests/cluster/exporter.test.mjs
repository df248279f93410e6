// The exporter against a real kube-apiserver (scripts/control-plane.mjs, a control plane of this
// file's own, since one test stops its API server): workloads from the catalog's test manifests
// (a JobSet with its Jobs and pods, a Deployment with its ReplicaSet and pods, stray pods),
// created for real, their status written through the status subresource. The series are
// checked against what the manifests say; a status change reaches /metrics within 2 s; the
// shipped ClusterRole, bound to the exporter's ServiceAccount, reads everything it needs and no
// write; the exporter survives its own restart and an API server outage of 5 s; a watch resumed
// from an expired resourceVersion (410 Gone) lists again; two shards
// partition the series of one exporter; bookmarks move the last sync time while nothing
// changes; a Karta in the cluster replaces the catalog's definition of its type, two for one
// type leave it read with the catalog's, and each Karta has a series (a broken one logged once).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { parse } from 'yaml';

import { eventually, ownControlPlane, root } from './cluster.mjs';
import {
  applyKartaCrd,
  applySharedCrd,
  catalogManifest,
  createAll,
  createNamespace,
  fetchText,
  metricsWhen,
  samples,
  setStatus,
  sharedCrdsMissing,
  startExporter,
  valueOf,
} from './fixtures.mjs';

let cp;
let skip;
let created;
const exporters = [];
const temp = mkdtempSync(path.join(tmpdir(), 'workload-map-exporter-test-'));

async function exporter(args = []) {
  const started = await startExporter(['--kubeconfig', cp.kubeconfig, ...args]);
  exporters.push(started);
  return started;
}

const W = (ns, kind, name) => `namespace="${ns}",workload_kind="${kind}",workload="${name}"`;
const READY_POD = {
  phase: 'Running',
  conditions: [
    { type: 'PodScheduled', status: 'True' },
    { type: 'Ready', status: 'True' },
  ],
};

/** The workload series of an exposition, as a sorted list (the exporter's own families left out). */
const seriesOf = (text) => samples(text).sort();
/** The exporter has synced and exports the llm JobSet with its pods. */
const llmIsRight = (text) =>
  valueOf(text, 'workload_map_exporter_last_sync_timestamp_seconds') > 0 &&
  valueOf(text, `workload_map_instance_pods_ready{${W('ml', 'JobSet', 'llm')},component="replicatedjob",instance="workers"}`) !== undefined;

before(async () => {
  skip = sharedCrdsMissing();
  if (skip) return;
  ({ cp, skip } = await ownControlPlane());
  if (!cp) return;
  await applySharedCrd(cp, 'jobset.x-k8s.io_jobsets.yaml.gz');
  await applyKartaCrd(cp);
  await createNamespace(cp, 'ml');
  await createNamespace(cp, 'prod');
  created = await createAll(cp, [...catalogManifest('jobset-x-k8s-io-jobset-v1alpha2', 'pods.yaml'), ...catalogManifest('apps-deployment-v1', 'pods.yaml')]);
});

after(async () => {
  for (const e of exporters) await e.stop();
  await cp?.stop();
  rmSync(temp, { recursive: true, force: true });
});

describe('the exporter on a real kube-apiserver', { concurrency: false }, () => {
  test('the_series_say_what_the_manifests_say', { skip }, async () => {
    const e = await exporter();
    const text = await metricsWhen(e.url, 'the JobSet is exported', llmIsRight);
    const llm = W('ml', 'JobSet', 'llm');
    // Pod attribution: each pod to its workload, component and instance (the core's placement),
    // with its node (none while unscheduled) and whether it is being deleted.
    for (const [pod, instance, node] of [
      ['llm-driver-0-0', 'driver', 'node-1'],
      ['llm-workers-0-0', 'workers', 'node-1'],
      ['llm-workers-0-1', 'workers', 'node-1'],
      ['llm-workers-1-0', 'workers', 'node-1'],
      ['llm-workers-1-1', 'workers', ''],
    ]) {
      assert.equal(
        valueOf(
          text,
          `workload_map_pod_info{namespace="ml",pod="${pod}",workload_kind="JobSet",workload="llm",component="replicatedjob",instance="${instance}",node="${node}",terminating="false"}`,
        ),
        1,
        pod,
      );
    }
    // The stray pod is a workload of its own (no controller); the Jobs are not workloads.
    assert.match(
      text,
      /^workload_map_pod_info\{namespace="ml",pod="stray",workload_kind="Pod",workload="stray",component="[^"]+",instance="",node="node-1",terminating="false"\} 1$/m,
    );
    assert.doesNotMatch(text, /workload_kind="Job"/);
    assert.equal(samples(text).filter((l) => l.startsWith('workload_map_pod_info{namespace="ml"')).length, 6, 'one series per pod');
    // The phase as a state set.
    assert.equal(valueOf(text, `workload_map_workload_status_phase{${llm},phase="Running"}`), 1);
    for (const phase of ['Undefined', 'Initializing', 'Degraded', 'Completed', 'Failed', 'Suspending', 'Suspended', 'Resuming']) {
      assert.equal(valueOf(text, `workload_map_workload_status_phase{${llm},phase="${phase}"}`), 0, phase);
    }
    assert.ok(valueOf(text, `workload_map_workload_status_phase_last_transition_timestamp_seconds{${llm}}`) > 1.7e9);
    // Pod counts and GPUs (the manifest: 1 driver, 2 x 2 workers with 4 GPUs each; one worker not ready).
    assert.equal(valueOf(text, `workload_map_workload_gpus_requested{${llm}}`), 16);
    assert.equal(valueOf(text, `workload_map_instance_pods_desired{${llm},component="replicatedjob",instance="workers"}`), 4);
    assert.equal(valueOf(text, `workload_map_instance_pods_current{${llm},component="replicatedjob",instance="workers"}`), 4);
    assert.equal(valueOf(text, `workload_map_instance_pods_ready{${llm},component="replicatedjob",instance="workers"}`), 3);
    assert.equal(valueOf(text, `workload_map_instance_gpus_requested{${llm},component="replicatedjob",instance="workers"}`), 16);
    assert.equal(valueOf(text, `workload_map_instance_pods_ready{${llm},component="replicatedjob",instance="driver"}`), 1);
    assert.equal(valueOf(text, `workload_map_component_pods_current{${llm},component="replicatedjob"}`), 5);
    assert.equal(valueOf(text, `workload_map_component_pods_ready{${llm},component="replicatedjob"}`), 4);
    // The Deployment reaches its pods through its ReplicaSet.
    const web = W('prod', 'Deployment', 'web');
    for (const [pod, node] of [
      ['web-5d8f-a', 'node-1'],
      ['web-5d8f-b', 'node-2'],
      ['web-5d8f-c', ''],
    ]) {
      assert.equal(
        valueOf(
          text,
          `workload_map_pod_info{namespace="prod",pod="${pod}",workload_kind="Deployment",workload="web",component="deployment",instance="",node="${node}",terminating="false"}`,
        ),
        1,
        pod,
      );
    }
    assert.equal(valueOf(text, `workload_map_component_pods_current{${web},component="deployment"}`), 3);
    assert.equal(valueOf(text, `workload_map_component_pods_ready{${web},component="deployment"}`), 2);
    assert.match(
      text,
      new RegExp(
        `^workload_map_workload_info\\{${W('ml', 'JobSet', 'llm')},api_version="jobset.x-k8s.io/v1alpha2",uid="${created.get('JobSet/ml/llm').metadata.uid}",definition="jobset-x-k8s-io-jobset-v1alpha2",origin="catalog"\\} 1$`,
        'm',
      ),
    );
    // The exporter's own freshness, and the exposition's headers.
    assert.ok(valueOf(text, 'workload_map_exporter_last_sync_timestamp_seconds') > Date.now() / 1000 - 60);
    assert.equal(valueOf(text, 'workload_map_exporter_resolve_errors_total'), 0);
    assert.match(text, /^# TYPE workload_map_pod_info gauge$/m);
    assert.match(text, /^# HELP workload_map_workload_status_phase /m);
    assert.equal((await fetchText(`${e.url}/healthz`)).status, 200);
    await e.stop();
  });

  test('a_status_change_reaches_the_metrics_within_2_s', { skip }, async () => {
    const e = await exporter();
    await metricsWhen(e.url, 'the JobSet is exported', llmIsRight);
    const series = `workload_map_instance_pods_ready{${W('ml', 'JobSet', 'llm')},component="replicatedjob",instance="workers"}`;
    assert.equal(valueOf((await fetchText(`${e.url}/metrics`)).body, series), 3);
    await setStatus(cp, created.get('Pod/ml/llm-workers-1-1'), READY_POD);
    const changed = Date.now();
    await metricsWhen(e.url, 'the pod is ready in /metrics', (text) => valueOf(text, series) === 4, 2000);
    const pod = Date.now() - changed;
    // A phase change of the workload itself: the JobSet completes.
    const phase = (p) => `workload_map_workload_status_phase{${W('ml', 'JobSet', 'llm')},phase="${p}"}`;
    const jobset = await cp.request('GET', '/apis/jobset.x-k8s.io/v1alpha2/namespaces/ml/jobsets/llm');
    // The catalog's completed.yaml status, written through the status subresource.
    const completedCase = parse(readFileSync(path.join(root, 'catalog', 'jobset-x-k8s-io-jobset-v1alpha2', 'tests', 'completed.yaml'), 'utf8'));
    const status = structuredClone(completedCase.object.status);
    for (const condition of status.conditions) Object.assign(condition, { message: 'done', lastTransitionTime: new Date().toISOString() });
    await setStatus(cp, jobset.json, status);
    const completed = Date.now();
    const text = await metricsWhen(e.url, 'the JobSet is Completed in /metrics', (t) => valueOf(t, phase('Completed')) === 1, 2000);
    assert.equal(valueOf(text, phase('Running')), 0);
    assert.ok(
      valueOf(text, `workload_map_workload_status_phase_last_transition_timestamp_seconds{${W('ml', 'JobSet', 'llm')}}`) >= Math.floor(completed / 1000) - 1,
    );
    console.log(`# a pod's readiness reached /metrics in ${pod} ms, the JobSet's phase in ${Date.now() - completed} ms`);
    await e.stop();
  });

  test('the_shipped_cluster_role_reads_everything_and_writes_nothing', { skip }, async () => {
    await createNamespace(cp, 'workload-map');
    for (const file of ['serviceaccount.yaml', 'clusterrole.yaml', 'clusterrolebinding.yaml']) {
      const object = parse(readFileSync(path.join(root, 'deploy', 'exporter', file), 'utf8'));
      const collection = {
        ServiceAccount: '/api/v1/namespaces/workload-map/serviceaccounts',
        ClusterRole: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
        ClusterRoleBinding: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
      }[object.kind];
      const res = await cp.request('POST', collection, object);
      assert.ok([201, 409].includes(res.status), `${file}: ${res.status} ${res.body}`);
    }
    const tokenRequest = await cp.request('POST', '/api/v1/namespaces/workload-map/serviceaccounts/workload-map-exporter/token', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    });
    assert.equal(tokenRequest.status, 201, tokenRequest.body);
    const token = tokenRequest.json.status.token;
    const kubeconfig = path.join(temp, 'exporter-sa.kubeconfig');
    writeFileSync(
      kubeconfig,
      readFileSync(cp.kubeconfig, 'utf8')
        .replace(/token: .*/, `token: ${token}`)
        .replace(/workload-map-admin/g, 'workload-map-exporter'),
    );
    // What the admin's exporter sees, the ServiceAccount's sees.
    const admin = await exporter();
    const asAdmin = await metricsWhen(admin.url, 'the admin exporter synced', llmIsRight);
    const e = await startExporter(['--kubeconfig', kubeconfig]);
    exporters.push(e);
    const asSa = await metricsWhen(e.url, 'the ServiceAccount exporter synced', llmIsRight);
    assert.deepEqual(
      seriesOf(asSa).filter((l) => !l.includes('transition')),
      seriesOf(asAdmin).filter((l) => !l.includes('transition')),
    );
    assert.doesNotMatch(e.stderr(), /403/, 'no list or watch was refused');
    // Every read the exporter needs is allowed, and no write.
    for (const p of [
      '/api/v1/pods',
      '/apis/apps/v1/replicasets',
      '/apis/batch/v1/jobs',
      '/apis/jobset.x-k8s.io/v1alpha2/jobsets',
      '/apis/run.ai/v1alpha1/kartas',
    ]) {
      assert.equal((await cp.request('GET', p, undefined, { token })).status, 200, p);
    }
    const write = await cp.request('PATCH', '/api/v1/namespaces/ml/pods/stray', JSON.stringify({ metadata: { labels: { x: 'y' } } }), {
      token,
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    assert.equal(write.status, 403, write.body);
    const create = await cp.request(
      'POST',
      '/api/v1/namespaces/ml/pods',
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { containers: [{ name: 'x', image: 'x' }] } },
      { token },
    );
    assert.equal(create.status, 403, create.body);
    const secrets = await cp.request('GET', '/api/v1/secrets', undefined, { token });
    assert.equal(secrets.status, 403, 'no read beyond the covered types');
    await e.stop();
    await admin.stop();
  });

  test('an_exporter_restart_mid_watch_ends_with_the_right_metrics', { skip }, async () => {
    const first = await exporter();
    await metricsWhen(first.url, 'synced', llmIsRight);
    await first.stop();
    // Changes while no exporter runs: a pod goes away, another one is added.
    assert.equal((await cp.request('DELETE', '/api/v1/namespaces/prod/pods/web-5d8f-c')).status, 200);
    await createAll(cp, [
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'late', namespace: 'prod' }, spec: { containers: [{ name: 'main' }] }, status: READY_POD },
    ]);
    const second = await exporter();
    const text = await metricsWhen(second.url, 'synced again', (t) => llmIsRight(t) && t.includes('pod="late"'));
    assert.doesNotMatch(text, /pod="web-5d8f-c"/);
    assert.equal(valueOf(text, `workload_map_component_pods_current{${W('prod', 'Deployment', 'web')},component="deployment"}`), 2);
    await second.stop();
  });

  test('the_exporter_recovers_from_an_api_server_outage_of_5_s', { skip }, async () => {
    const e = await exporter();
    await metricsWhen(e.url, 'synced', llmIsRight);
    await cp.restartApiServer(5000);
    // Back: a change made now must arrive through the re-established watch.
    await createAll(cp, [
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'after-outage', namespace: 'prod' }, spec: { containers: [{ name: 'main' }] }, status: READY_POD },
    ]);
    const text = await metricsWhen(e.url, 'the change after the outage is exported', (t) => t.includes('pod="after-outage"'), 30000);
    assert.ok(
      samples(text, { all: true }).some((l) => /^workload_map_exporter_watch_restarts_total\{resource="pods"\} [1-9]/.test(l)),
      'the pods watch was restarted',
    );
    const fresh = await exporter();
    const expected = await metricsWhen(fresh.url, 'a fresh exporter synced', (t) => t.includes('pod="after-outage"'));
    const strip = (t) => seriesOf(t).filter((l) => !l.includes('transition'));
    assert.deepEqual(strip(text), strip(expected), 'the recovered exporter says what a fresh one says');
    await fresh.stop();
    await e.stop();
  });

  test('a_watch_from_an_expired_resource_version_lists_again', { skip }, async () => {
    // The reflector resumed from resourceVersion 1, long gone: the server answers 410 Gone, and
    // the reflector lists again and then watches from the list's version.
    const { KubeClient } = await import('../../bin/kube/client.mjs');
    const { loadKubeConfig } = await import('../../bin/kube/config.mjs');
    const { Reflector } = await import('../../bin/exporter/reflector.mjs');
    const config = await loadKubeConfig({ kubeconfig: cp.kubeconfig });
    const client = new KubeClient(config.kubeConfig, config.server);
    const logs = [];
    const reflector = new Reflector({
      client,
      path: '/api/v1/namespaces/ml/pods',
      label: 'pods',
      onChange: () => {},
      log: (m) => logs.push(m),
      resourceVersion: '1',
    });
    reflector.start();
    try {
      await eventually('listed again after 410 and watching', async () => reflector.lists === 1 && reflector.watching, 60_000);
      const listed = await cp.request('GET', '/api/v1/namespaces/ml/pods');
      assert.deepEqual([...reflector.store.values()].map((p) => p.metadata.name).sort(), listed.json.items.map((p) => p.metadata.name).sort());
      assert.ok(
        logs.some((m) => /410/.test(m)),
        logs.join('\n'),
      );
      // And it follows changes from there.
      await createAll(cp, [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'after-relist', namespace: 'ml' }, spec: { containers: [{ name: 'main' }] } }]);
      await eventually('the new pod is seen', async () => [...reflector.store.values()].some((p) => p.metadata.name === 'after-relist'), 60_000);
    } finally {
      await reflector.stop();
    }
  });

  test('two_shards_partition_the_series_of_one_exporter', { skip }, async () => {
    const one = await exporter();
    const all = seriesOf(await metricsWhen(one.url, 'synced', llmIsRight));
    const shards = [];
    for (const i of [0, 1]) {
      const e = await exporter(['--shard', String(i), '--total-shards', '2']);
      await metricsWhen(e.url, `shard ${i} synced`, (t) => valueOf(t, 'workload_map_exporter_last_sync_timestamp_seconds') > 0);
      shards.push(seriesOf((await fetchText(`${e.url}/metrics`)).body));
    }
    const strip = (list) => list.filter((l) => !l.includes('transition'));
    assert.deepEqual(strip([...shards[0], ...shards[1]]).sort(), strip(all), 'together the shards export exactly what one exporter does');
    assert.ok(shards[0].length > 0 && shards[1].length > 0, `both shards export something (${shards[0].length}, ${shards[1].length})`);
    // A pod's series is in its workload's shard.
    for (const shard of shards) {
      for (const line of shard.filter((l) => l.startsWith('workload_map_pod_info'))) {
        const [, ns, kind, name] = /namespace="([^"]*)",pod="[^"]*",workload_kind="([^"]*)",workload="([^"]*)"/.exec(line);
        assert.ok(
          shard.some((l) => l.startsWith(`workload_map_workload_info{${W(ns, kind, name)},`)),
          line,
        );
      }
    }
  });

  test('the_last_sync_moves_on_bookmarks_while_nothing_changes', { skip }, async () => {
    // The exporter in this process, with watches of 10 s and a heartbeat every 2 s: the API
    // server sends each watch a bookmark 2 s before its end (and about every minute, which the
    // 300 s watches of the CLI's exporter get) once the heartbeat's read has brought its cache
    // past the version the watch saw. No object changes meanwhile: nothing but bookmarks can
    // move it.
    const { KubeClient } = await import('../../bin/kube/client.mjs');
    const { loadKubeConfig } = await import('../../bin/kube/config.mjs');
    const { Exporter } = await import('../../bin/exporter/exporter.mjs');
    const api = await import('workload-map');
    const config = await loadKubeConfig({ kubeconfig: cp.kubeconfig });
    const e = new Exporter({ api, client: new KubeClient(config.kubeConfig, config.server), watchTimeoutSeconds: 10, heartbeatMs: 2000 });
    await e.start();
    try {
      await eventually('synced', async () => e.lastSync > 0, 60_000);
      const first = e.lastSync;
      const resolves = e.resolves;
      await eventually('the last sync moved', async () => e.lastSync > first, 40_000);
      assert.equal(e.resolves, resolves, 'nothing was resolved again: no object changed');
      assert.ok(
        [e.kartas, ...e.reflectors.values()].every((r) => r.unavailable || r.currentAt > first),
        'every watch was proven current by a bookmark',
      );
      assert.match(e.metrics(), new RegExp(`^workload_map_exporter_last_sync_timestamp_seconds ${e.lastSync / 1000}$`, 'm'));
    } finally {
      await e.stop();
    }
  });

  test('two_kartas_for_one_type_leave_its_series_read_with_the_catalog_and_each_karta_has_a_series', { skip }, async () => {
    const e = await exporter();
    await metricsWhen(e.url, 'synced', llmIsRight);
    const jobset = (name, edit = () => {}) => {
      const karta = parse(readFileSync(path.join(root, 'catalog', 'jobset-x-k8s-io-jobset-v1alpha2', 'definition.yaml'), 'utf8'));
      karta.metadata = { name };
      edit(karta);
      return karta;
    };
    const names = ['jobset-a', 'jobset-b'];
    for (const name of names) assert.equal((await cp.request('POST', '/apis/run.ai/v1alpha1/kartas', jobset(name))).status, 201);
    try {
      const text = await metricsWhen(e.url, 'both Kartas are in conflict', (t) => (t.match(/state="conflict"/g) ?? []).length === 2);
      for (const name of names) {
        assert.match(
          text,
          new RegExp(
            `^workload_map_karta_info\\{karta="${name}",group="jobset.x-k8s.io",version="v1alpha2",kind="JobSet",state="conflict",valid="true"\\} 1$`,
            'm',
          ),
        );
      }
      assert.match(
        text,
        /workload="llm",api_version="[^"]*",uid="[^"]*",definition="jobset-x-k8s-io-jobset-v1alpha2",origin="catalog"\} 1$/m,
        'the JobSet is still exported',
      );
      assert.ok(llmIsRight(text));
      // One of them goes, the other one (broken) is in force: invalid, with its error count, logged once.
      assert.equal((await cp.request('DELETE', '/apis/run.ai/v1alpha1/kartas/jobset-a')).status, 200);
      const broken = jobset('jobset-b', (karta) => {
        karta.spec.structureDefinition.rootComponent.statusDefinition.statusMappings.running[0].byExpression = {
          expression: '.status |',
          expectedResult: 'true',
        };
      });
      const current = await cp.request('GET', '/apis/run.ai/v1alpha1/kartas/jobset-b');
      broken.metadata.resourceVersion = current.json.metadata.resourceVersion;
      assert.equal((await cp.request('PUT', '/apis/run.ai/v1alpha1/kartas/jobset-b', broken)).status, 200);
      const after = await metricsWhen(e.url, 'the broken Karta is in force', (t) => /karta="jobset-b",[^}]*state="in-force",valid="false"/.test(t));
      assert.match(after, /^workload_map_karta_errors\{karta="jobset-b"\} 1$/m);
      assert.doesNotMatch(after, /karta="jobset-a"/);
      // Passes after it (a pod is not ready, then ready again) do not log it again.
      const workers = `workload_map_instance_pods_ready{${W('ml', 'JobSet', 'llm')},component="replicatedjob",instance="workers"}`;
      await setStatus(cp, created.get('Pod/ml/llm-workers-1-1'), { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] });
      await metricsWhen(e.url, 'a pass', (t) => valueOf(t, workers) === 3);
      await setStatus(cp, created.get('Pod/ml/llm-workers-1-1'), READY_POD);
      await metricsWhen(e.url, 'another pass', (t) => valueOf(t, workers) === 4);
      const logged = e
        .stderr()
        .split('\n')
        .filter((l) => l.includes('Karta/jobset-b, the definition in force'));
      assert.equal(logged.length, 1, e.stderr());
    } finally {
      for (const name of names) await cp.request('DELETE', `/apis/run.ai/v1alpha1/kartas/${name}`);
      await e.stop();
    }
  });

  test('a_pod_being_deleted_is_terminating_and_not_ready', { skip }, async () => {
    // A pod of its own namespace (the series above stay as they are), held by a finalizer.
    await createNamespace(cp, 'ending');
    const [pod] = [
      ...(
        await createAll(cp, [
          {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'leaving', namespace: 'ending', finalizers: ['example.com/hold'] },
            spec: { nodeName: 'node-3', containers: [{ name: 'main' }] },
            status: READY_POD,
          },
        ])
      ).values(),
    ];
    const series = (name, labels) => `${name}{${W('ending', 'Pod', 'leaving')}${labels}}`;
    const info = (terminating) =>
      `workload_map_pod_info{namespace="ending",pod="leaving",workload_kind="Pod",workload="leaving",component="pod",instance="",node="node-3",terminating="${terminating}"}`;
    const e = await exporter();
    try {
      await metricsWhen(e.url, 'the pod is exported, ready', (t) => valueOf(t, info('false')) === 1);
      assert.equal(valueOf((await fetchText(`${e.url}/metrics`)).body, series('workload_map_component_pods_ready', ',component="pod"')), 1);
      const deleted = await cp.request('DELETE', '/api/v1/namespaces/ending/pods/leaving');
      assert.equal(deleted.status, 200, deleted.body);
      const text = await metricsWhen(e.url, 'the pod is terminating in /metrics', (t) => valueOf(t, info('true')) === 1);
      assert.equal(valueOf(text, info('false')), undefined, 'one series per pod');
      assert.equal(valueOf(text, series('workload_map_component_pods_current', ',component="pod"')), 1);
      assert.equal(valueOf(text, series('workload_map_component_pods_ready', ',component="pod"')), 0, 'its Ready condition still says True');
    } finally {
      await cp.request('PATCH', `/api/v1/namespaces/ending/pods/${pod.metadata.name}`, JSON.stringify({ metadata: { finalizers: null } }), {
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      await e.stop();
    }
  });

  test('a_karta_in_the_cluster_replaces_the_catalog_definition_of_its_type', { skip }, async () => {
    const e = await exporter();
    await metricsWhen(e.url, 'synced', llmIsRight);
    const karta = parse(readFileSync(path.join(root, 'catalog', 'jobset-x-k8s-io-jobset-v1alpha2', 'definition.yaml'), 'utf8'));
    karta.metadata = { name: 'team-jobset' };
    const res = await cp.request('POST', '/apis/run.ai/v1alpha1/kartas', karta);
    assert.equal(res.status, 201, res.body);
    const text = await metricsWhen(e.url, 'the Karta is in force', (t) =>
      /workload="llm",api_version="[^"]*",uid="[^"]*",definition="team-jobset",origin="cluster"/.test(t),
    );
    assert.match(
      text,
      /^workload_map_definition_info\{definition="team-jobset",group="jobset.x-k8s.io",version="v1alpha2",kind="JobSet",origin="cluster",served="true"\} 1$/m,
    );
    assert.doesNotMatch(text, /definition_info\{definition="jobset-x-k8s-io-jobset-v1alpha2"/);
    await e.stop();
  });
});

// The exporter at cluster scale, on a real kube-apiserver (scripts/control-plane.mjs): 5,000
// workloads of 10 types (500 each, from the catalog's test manifests, renamed) in 50 namespaces,
// and 50,000 pods (10 per workload, owned by it), created in parallel over keep-alive
// connections. Then, for one exporter and for two shards: the initial sync time (start to the
// first `workload_map_exporter_last_sync_timestamp_seconds`), the resident memory after it (and
// the peak), and the CPU it uses while pods change at 100 updates/s (status patches) for 30 s.
// And the time of `workload-map get -A` over the same objects (the table and `-o name`), each
// run as users run it, a process of its own, from start to exit.
// A benchmark, not a test: it prints figures (CONTRIBUTING.md, "Cluster scale"), as JSON and
// then as rows, each with its goal (issue 19, part 6).
//
//   npm run bench:cluster [-- --workloads 5000 --pods-per-workload 10 --rate 100 --seconds 30]

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { parse } from 'yaml';

import { root, start } from './control-plane.mjs';
import { applySharedCrd, fetchText, startExporter, valueOf } from '../tests/cluster/fixtures.mjs';

const { values } = parseArgs({
  options: {
    workloads: { type: 'string', default: '5000' },
    'pods-per-workload': { type: 'string', default: '10' },
    namespaces: { type: 'string', default: '50' },
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '48' },
  },
});
const WORKLOADS = Number(values.workloads);
const PODS = Number(values['pods-per-workload']);
const NAMESPACES = Number(values.namespaces);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);

/** The 10 types: [catalog folder, test case, plural, the shared CRD (none for built-in types)]. */
const TYPES = [
  ['apps-deployment-v1', 'running.yaml', 'deployments', null],
  ['apps-statefulset-v1', 'running.yaml', 'statefulsets', null],
  ['batch-job-v1', 'running.yaml', 'jobs', null],
  ['jobset-x-k8s-io-jobset-v1alpha2', 'running.yaml', 'jobsets', 'jobset.x-k8s.io_jobsets.yaml.gz'],
  ['kubeflow-org-pytorchjob-v1', 'running.yaml', 'pytorchjobs', 'kubeflow.org_pytorchjobs.yaml.gz'],
  ['kubeflow-org-tfjob-v1', 'running.yaml', 'tfjobs', 'kubeflow.org_tfjobs.yaml.gz'],
  ['kubeflow-org-mpijob-v2beta1', 'running.yaml', 'mpijobs', 'kubeflow.org_mpijobs.yaml.gz'],
  ['ray-io-raycluster-v1', 'two-worker-groups.yaml', 'rayclusters', 'ray.io_rayclusters.yaml.gz'],
  ['ray-io-rayjob-v1', 'running.yaml', 'rayjobs', 'ray.io_rayjobs.yaml.gz'],
  ['leaderworkerset-x-k8s-io-leaderworkerset-v1', 'three-groups-of-two.yaml', 'leaderworkersets', 'leaderworkerset.x-k8s.io_leaderworkersets.yaml.gz'],
];

const log = (message) => console.error(`[bench-cluster] ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function template(dir, file) {
  const read = (f) => parse(readFileSync(path.join(root, 'catalog', dir, 'tests', f), 'utf8'));
  const c = read(file);
  const object = structuredClone(c.object ?? read(c.objectFrom).object);
  delete object.status;
  delete object.metadata.uid;
  delete object.metadata.resourceVersion;
  // What the API server requires of built-in types that a test manifest leaves out.
  if (object.apiVersion === 'apps/v1') {
    object.spec.template.metadata ??= {};
    object.spec.template.metadata.labels ??= { app: 'bench' };
    object.spec.selector ??= { matchLabels: object.spec.template.metadata.labels };
  }
  if (object.kind === 'Job' && object.apiVersion === 'batch/v1') object.spec.template.spec.restartPolicy ??= 'Never';
  const walk = (value) => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value.containers)) for (const c of value.containers) c.image ??= 'registry.invalid/bench:1';
    for (const child of Object.values(value)) walk(child);
  };
  walk(object.spec);
  return object;
}

/** Requests over keep-alive connections, trusting the control plane's CA. */
function client(cp) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: cp.ca });
  return (method, urlPath, body, contentType = 'application/json') =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = { Authorization: `Bearer ${cp.token}`, Accept: 'application/json' };
      if (payload) Object.assign(headers, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) });
      const req = https.request(new URL(urlPath, cp.url), { method, headers, agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          res.statusCode >= 400 ? reject(new Error(`${method} ${urlPath}: ${res.statusCode} ${text.slice(0, 300)}`)) : resolve(JSON.parse(text)),
        );
      });
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
}

/** Runs `task(i)` for i in [0, n) with `CONCURRENCY` in flight. */
async function parallel(n, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, n) }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

/** CPU seconds (user + system) and resident memory of a process, from /proc. */
function usage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = 100; // USER_HZ, 100 on Linux
  const cpu = (Number(fields[11]) + Number(fields[12])) / ticks;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { cpu, rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

async function synced(exporter) {
  for (;;) {
    try {
      const { body } = await fetchText(`${exporter.url}/metrics`);
      if (valueOf(body, 'workload_map_exporter_last_sync_timestamp_seconds') > 0) return body;
    } catch {}
    await sleep(100);
  }
}

/** Starts `shards` exporters together; their sync time, memory, and CPU under `RATE` pod updates/s. */
async function measure(cp, request, pods, shards) {
  const args = shards === 1 ? [[]] : Array.from({ length: shards }, (_, i) => ['--shard', String(i), '--total-shards', String(shards)]);
  const started = Date.now();
  const exporters = await Promise.all(args.map((a) => startExporter(['--kubeconfig', cp.kubeconfig, ...a])));
  const texts = await Promise.all(
    exporters.map(async (e) => {
      const text = await synced(e);
      e.syncMs = Date.now() - started;
      return text;
    }),
  );
  await sleep(2000);
  const resolvesOf = async (e) => valueOf((await fetchText(`${e.url}/metrics`)).body, 'workload_map_exporter_resolves_total');
  const resolvesBefore = await Promise.all(exporters.map(resolvesOf));
  const before = exporters.map((e) => usage(e.child.pid));
  // Pod status changes at RATE per second, spread over the pods (Ready flips).
  let updates = 0;
  const until = Date.now() + SECONDS * 1000;
  const interval = 1000 / RATE;
  let due = Date.now();
  const inFlight = new Set();
  while (Date.now() < until) {
    const pod = pods[(updates * 7919) % pods.length];
    // Each update flips the pod's readiness (a patch that changes nothing makes no event).
    pod.ready = !pod.ready;
    const ready = pod.ready ? 'True' : 'False';
    const p = request(
      'PATCH',
      `/api/v1/namespaces/${pod.ns}/pods/${pod.name}/status`,
      { status: { conditions: [{ type: 'Ready', status: ready }] } },
      'application/merge-patch+json',
    )
      .catch((error) => log(error.message))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    updates += 1;
    due += interval;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
  }
  await Promise.all(inFlight);
  const after = exporters.map((e) => usage(e.child.pid));
  const resolvesAfter = await Promise.all(exporters.map(resolvesOf));
  const series = texts.map((t) => t.split('\n').filter((l) => l.startsWith('workload_map_pod_info{')).length);
  const result = exporters.map((e, i) => ({
    shard: shards === 1 ? 'one' : `${i} of ${shards}`,
    syncSeconds: e.syncMs / 1000,
    rssMbAfterSync: Math.round(before[i].rssMb),
    peakRssMb: Math.round(after[i].peakMb),
    cpuCoresAtRate: Number(((after[i].cpu - before[i].cpu) / SECONDS).toFixed(3)),
    podSeries: series[i],
    resolvePasses: resolvesAfter[i] - resolvesBefore[i],
  }));
  for (const e of exporters) await e.stop();
  return { updatesPerSecond: Math.round(updates / SECONDS), exporters: result };
}

/**
 * `workload-map get -A ARGS` against the control plane, timed as a child process (start to
 * exit): `{ seconds, lines, exitCode }` (`lines`: what it printed, the table's header included).
 */
function timeGetAll(cp, args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [path.join(root, 'bin', 'workload-map.mjs'), 'get', '-A', ...args, '--kubeconfig', cp.kubeconfig], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      for (const byte of chunk) if (byte === 10) lines += 1;
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (exitCode) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (exitCode !== 0) log(`get -A ${args.join(' ')} exited ${exitCode}: ${stderr.slice(0, 500)}`);
      resolve({ seconds: Number(seconds.toFixed(2)), lines, exitCode });
    });
  });
}

/** The figures as rows: what, the value, the goal (issue 19, part 6) and whether it is met. */
function summary({ one, two, getAll }) {
  const rows = [];
  const row = (what, value, unit, goal) =>
    rows.push([what, `${value} ${unit}`, goal === undefined ? '' : `< ${goal} ${unit}`, goal === undefined ? '' : value < goal ? 'met' : 'missed']);
  for (const run of [one, two]) {
    for (const e of run.exporters) {
      const who = run.exporters.length === 1 ? 'one exporter' : `shard ${e.shard}`;
      row(`${who}: initial sync`, e.syncSeconds, 's', 30);
      row(`${who}: RSS after sync`, e.rssMbAfterSync, 'MB', 500);
      row(`${who}: peak RSS`, e.peakRssMb, 'MB', 500);
      row(`${who}: CPU at ${run.updatesPerSecond} updates/s`, e.cpuCoresAtRate, 'cores');
    }
  }
  row(`get -A (table, ${getAll.table.lines} lines, exit ${getAll.table.exitCode})`, getAll.table.seconds, 's', 5);
  row(`get -A -o name (${getAll.name.lines} lines, exit ${getAll.name.exitCode})`, getAll.name.seconds, 's', 5);
  const table = [['figure', 'value', 'goal', ''], ...rows];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...table.map((r) => r[i].length)));
  return table
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function main() {
  const t0 = Date.now();
  const cp = await start();
  log(`control plane ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  try {
    const request = client(cp);
    for (const [, , , crd] of TYPES) if (crd) await applySharedCrd(cp, crd);
    const namespaces = Array.from({ length: NAMESPACES }, (_, i) => `bench-${i}`);
    for (const ns of namespaces) await request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const templates = TYPES.map(([dir, file, plural]) => ({ object: template(dir, file), plural }));
    const loadStart = Date.now();
    const owners = new Array(WORKLOADS);
    await parallel(WORKLOADS, async (i) => {
      const { object: base, plural } = templates[i % templates.length];
      const object = structuredClone(base);
      const ns = namespaces[i % NAMESPACES];
      object.metadata = { ...object.metadata, name: `w-${i}`, namespace: ns };
      const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
      const created = await request('POST', `${group ? `/apis/${group}/${version}` : `/api/${version}`}/namespaces/${ns}/${plural}`, object);
      owners[i] = created;
    });
    const workloadSeconds = (Date.now() - loadStart) / 1000;
    log(`${WORKLOADS} workloads created in ${workloadSeconds.toFixed(1)} s`);
    const pods = [];
    const podStart = Date.now();
    await parallel(WORKLOADS * PODS, async (j) => {
      const owner = owners[Math.floor(j / PODS)];
      const ns = owner.metadata.namespace;
      const name = `${owner.metadata.name}-p${j % PODS}`;
      await request('POST', `/api/v1/namespaces/${ns}/pods`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace: ns,
          ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true }],
        },
        spec: {
          nodeName: `node-${j % 100}`,
          containers: [{ name: 'main', image: 'registry.invalid/bench:1', resources: { limits: { 'nvidia.com/gpu': '1' } } }],
        },
      });
      pods.push({ ns, name });
    });
    const podSeconds = (Date.now() - podStart) / 1000;
    log(`${pods.length} pods created in ${podSeconds.toFixed(1)} s`);
    const one = await measure(cp, request, pods, 1);
    log(JSON.stringify(one));
    const two = await measure(cp, request, pods, 2);
    log(JSON.stringify(two));
    // The live CLI over the same objects: every covered type in every namespace.
    const getAll = { table: await timeGetAll(cp, []), name: await timeGetAll(cp, ['-o', 'name']) };
    log(JSON.stringify(getAll));
    const figures = {
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
      load: { workloads: WORKLOADS, types: TYPES.length, pods: pods.length, namespaces: NAMESPACES, workloadSeconds, podSeconds },
      one,
      two,
      getAll,
    };
    console.log(JSON.stringify(figures, null, 2));
    console.log(summary(figures));
  } finally {
    await cp.stop();
  }
}

await main();

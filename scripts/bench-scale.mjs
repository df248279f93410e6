// Dashboards at cluster scale (issue 21): `resolveAll({catalog: true})` of a List of N JobSets,
// each with its Job and 10 pods, for N from 250 to 5,000, each N in a process of its own (a cold
// engine: the first call compiles the catalog definition and grows the module's memory), then
// again warm, and a refresh where 1% of the workloads changed (a pod's phase and its
// resourceVersion): resolveAll then sends only the changed objects into the engine, which
// resolves again only the workloads they belong to (js/web-core.mjs, the core's batch module).
// The refresh is checked equal to a full resolve of the same List.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A List of `n` JobSets, each with one Job and `pods` pods, all with uid and resourceVersion. */
export function clusterList(n, pods = 10) {
  const items = [];
  for (let i = 0; i < n; i++) {
    const name = `train-${i}`;
    const labels = { 'jobset.sigs.k8s.io/jobset-name': name, 'jobset.sigs.k8s.io/replicatedjob-name': 'workers' };
    items.push({
      apiVersion: 'jobset.x-k8s.io/v1alpha2',
      kind: 'JobSet',
      metadata: { name, namespace: 'bench', uid: `js-${i}`, resourceVersion: '1' },
      spec: {
        replicatedJobs: [
          {
            name: 'workers',
            replicas: 1,
            template: { spec: { parallelism: pods, template: { spec: { containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': 8 } } }] } } } },
          },
        ],
      },
      status: { conditions: [{ type: 'StartupPolicyCompleted', status: 'True' }] },
    });
    items.push({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: `${name}-workers-0`,
        namespace: 'bench',
        uid: `job-${i}`,
        resourceVersion: '1',
        labels,
        ownerReferences: [{ apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', name, uid: `js-${i}`, controller: true }],
      },
    });
    for (let p = 0; p < pods; p++) {
      items.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${name}-workers-0-${p}`,
          namespace: 'bench',
          uid: `pod-${i}-${p}`,
          resourceVersion: '1',
          labels,
          ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: `${name}-workers-0`, uid: `job-${i}`, controller: true }],
        },
        spec: { containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': 8 } } }] },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      });
    }
  }
  return items;
}

/** One N in this process: cold, warm (best of 3) and a 1% refresh (best of 3), in ms. */
function measure(n) {
  const wm = createRequire(import.meta.url)(path.join(root, 'pkg', 'node.cjs'));
  const items = clusterList(n);
  const time = (f) => {
    const start = performance.now();
    const result = f();
    return [performance.now() - start, result];
  };
  const [cold] = time(() => wm.resolveAll(items, { catalog: true }));
  let warm = Infinity;
  for (let r = 0; r < 3; r++) {
    // A copy each round: the same content, so the kept views would answer; a different
    // resourceVersion on every object makes each round a full resolve.
    const fresh = items.map((o) => ({ ...o, metadata: { ...o.metadata, resourceVersion: `full-${r}` } }));
    warm = Math.min(warm, time(() => wm.resolveAll(fresh, { catalog: true }))[0]);
  }
  let current = items;
  wm.resolveAll(current, { catalog: true });
  let refresh = Infinity;
  let equal = true;
  const per = items.length / n;
  for (let r = 0; r < 3; r++) {
    // 1% of the workloads: one pod each fails, with a new resourceVersion; each round changes
    // other workloads than the round before, so 1% changed since the last call.
    const changed = current.slice();
    for (let w = r; w < n; w += 100) {
      const at = w * per + 2;
      changed[at] = { ...changed[at], metadata: { ...changed[at].metadata, resourceVersion: `refresh-${r}` }, status: { phase: 'Failed' } };
    }
    const [ms, result] = time(() => wm.resolveAll(changed, { catalog: true }));
    refresh = Math.min(refresh, ms);
    current = changed;
    if (r === 2) {
      // A full resolve of the same List (new resourceVersions everywhere: nothing is taken
      // from an earlier call) must give the same answer.
      const full = wm.resolveAll(
        changed.map((o) => ({ ...o, metadata: { ...o.metadata, resourceVersion: `${o.metadata.resourceVersion}+` } })),
        { catalog: true },
      );
      equal = JSON.stringify(result) === JSON.stringify(full);
    }
  }
  return { n, pods: n * (per - 2), cold, warm, refresh, equal, rss: process.memoryUsage().rss };
}

/** The table rows: each N in a process of its own. */
export function scaleRows({ ns = [250, 500, 1000, 2000, 5000] } = {}) {
  const rows = [];
  const measured = [];
  for (const n of ns) {
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), String(n)], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (run.status !== 0) throw new Error(`bench-scale ${n} exited ${run.status}: ${run.stderr}`);
    const m = JSON.parse(run.stdout);
    measured.push(m);
    const ms = (v) => `${v.toFixed(0)} ms`;
    rows.push({
      measure: `resolveAll, ${n} JobSets with ${m.pods} pods: cold / warm / 1% refreshed`,
      value: `${ms(m.cold)} / ${ms(m.warm)} / ${ms(m.refresh)} (${(m.rss / 1e6).toFixed(0)} MB RSS${m.equal ? '' : '; REFRESH DIFFERS FROM A FULL RESOLVE'})`,
      target: undefined,
      met: m.equal ? undefined : false,
    });
    if (n === 5000) {
      // The two targets, each on a row of its own.
      rows.push(
        { measure: `  warm full resolve, ${n} JobSets`, value: ms(m.warm), target: '≤ 2 s', met: m.warm <= 2000 },
        { measure: `  1% refreshed, ${n} JobSets (equal to a full resolve)`, value: ms(m.refresh), target: '≤ 50 ms', met: m.refresh <= 50 && m.equal },
      );
    }
  }
  const first = measured[0];
  const last = measured[measured.length - 1];
  rows.push({
    measure: `  warm time per workload, ${last.n} / ${first.n}`,
    value: `${(last.warm / last.n / (first.warm / first.n)).toFixed(2)}×`,
    target: '≈ 1× (linear)',
    met: last.warm / last.n / (first.warm / first.n) <= 1.5,
  });
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2]) {
  process.stdout.write(JSON.stringify(measure(Number(process.argv[2]))));
}

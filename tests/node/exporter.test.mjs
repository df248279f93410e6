// The exporter's parts that need no cluster: the Prometheus text format (escaping, values,
// headers), the shard hash (FNV-1a as kube-state-metrics uses it), the series of a resolved
// workload, the exporter's state over a fake API server (freshness proven by bookmarks, the
// Kartas' series and log), the generated ClusterRole (matches the catalog; plurals as the CRDs
// name them; only reads) and the recording rules (parsed by Prometheus' own PromQL grammar, their joins checked
// against the labels the exporter writes). tests/cluster/exporter.test.mjs runs the exporter on
// a real API server.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { parse } from 'yaml';

import { escapeHelp, escapeLabelValue, familyHeader, formatValue, render, sampleLine } from '../../bin/exporter/exposition.mjs';
import { Exporter } from '../../bin/exporter/exporter.mjs';
import { PHASES, SELF_FAMILIES, WORKLOAD_FAMILIES, firstSeenSince, workloadLines } from '../../bin/exporter/metrics.mjs';
import { Reflector } from '../../bin/exporter/reflector.mjs';
import { readListen } from '../../bin/exporter/server.mjs';
import { fnv32a, readSharding, shardOf } from '../../bin/exporter/shard.mjs';
import { compareVersions, oneVersionEach, pluralOf, watchedTypes } from '../../bin/exporter/types.mjs';
import { effectiveDefinitions } from '../../bin/kube/definitions.mjs';
import { KubeError } from '../../bin/kube/errors.mjs';
import { roleFile, roleText } from '../../scripts/exporter-rbac.mjs';
import { cli, root } from './helpers.mjs';

const api = await import('workload-map');

describe('the Prometheus text format', () => {
  test('label_values_escape_backslash_quote_and_line_feed', () => {
    assert.equal(escapeLabelValue('a\\b"c\nd'), 'a\\\\b\\"c\\nd');
    assert.equal(sampleLine('m', [['l', 'x"y\\z\n']], 1), 'm{l="x\\"y\\\\z\\n"} 1\n');
    assert.equal(sampleLine('m', {}, 2), 'm 2\n');
    assert.equal(sampleLine('m', { a: 'é', b: '' }, 0), 'm{a="é",b=""} 0\n');
  });

  test('help_escapes_backslash_and_line_feed_but_not_quotes', () => {
    assert.equal(escapeHelp('a\\b\n"c"'), 'a\\\\b\\n"c"');
  });

  test('values_are_written_as_prometheus_reads_them', () => {
    assert.deepEqual([NaN, Infinity, -Infinity, 0, 1.5, 16, true, false].map(formatValue), ['NaN', '+Inf', '-Inf', '0', '1.5', '16', '1', '0']);
  });

  test('a_family_has_help_and_type_lines_and_info_and_state_sets_are_gauges', () => {
    assert.equal(
      render([{ name: 'x_info', type: 'info', help: 'An x.', labels: ['a'], samples: [{ labels: { a: '1' }, value: 1 }] }]),
      '# HELP x_info An x.\n# TYPE x_info gauge\nx_info{a="1"} 1\n',
    );
    assert.match(familyHeader({ name: 'x_total', type: 'counter', help: 'n' }), /# TYPE x_total counter\n$/);
    assert.throws(() => familyHeader({ name: '1x', type: 'gauge', help: '' }), /invalid metric name/);
    assert.throws(() => familyHeader({ name: 'x', type: 'histogram', help: '' }), /invalid metric type/);
    assert.throws(() => familyHeader({ name: 'x', type: 'gauge', help: '', labels: ['__x'] }), /invalid label name/);
  });

  test('every_family_is_well_named_and_documented', () => {
    const doc = readFileSync(path.join(root, 'docs', 'exporter.md'), 'utf8');
    for (const family of [...WORKLOAD_FAMILIES, ...Object.values(SELF_FAMILIES)]) {
      assert.match(family.name, /^workload_map_[a-z_]+$/);
      familyHeader(family);
      assert.ok(doc.includes(`\`${family.name}\``), `docs/exporter.md documents ${family.name}`);
    }
  });
});

describe('workload-map exporter', () => {
  test('wrong_options_are_usage_errors', () => {
    for (const [args, message] of [
      [['--shard', '2', '--total-shards', '2'], /--shard must be a whole number from 0 to 1/],
      [['--total-shards', 'x'], /--total-shards must be a whole number/],
      [['--listen', 'nowhere'], /--listen takes \[HOST\]:PORT/],
      [['extra'], /exporter takes no arguments/],
      [['--shards', '2'], /unknown option/],
    ]) {
      const { code, stderr } = cli(['exporter', ...args]);
      assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
      assert.match(stderr, message);
    }
    assert.match(cli(['exporter', '--help']).stdout, /--total-shards N/);
  });

  test('an_unreadable_kubeconfig_and_an_unreachable_cluster_are_said_and_exit_5_as_for_get', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'workload-map-exporter-'));
    try {
      const missing = cli(['exporter', '--listen', '127.0.0.1:0', '--kubeconfig', path.join(dir, 'none')]);
      assert.equal(missing.code, 5, missing.stderr);
      assert.match(missing.stderr, /cannot read the kubeconfig/);
      const file = path.join(dir, 'kubeconfig');
      writeFileSync(
        file,
        'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
      );
      const unreachable = cli(['exporter', '--listen', '127.0.0.1:0', '--kubeconfig', file]);
      assert.equal(unreachable.code, 5, unreachable.stderr);
      assert.match(unreachable.stderr, /cannot reach the cluster: .*ECONNREFUSED/);
      const context = cli(['exporter', '--listen', '127.0.0.1:0', '--kubeconfig', file, '--context', 'other']);
      assert.equal(context.code, 5);
      assert.match(context.stderr, /no context named "other"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sharding', () => {
  test('fnv32a_is_fnv_1a_32', () => {
    // The FNV-1a test vectors (offset basis 0x811c9dc5, prime 0x01000193).
    assert.equal(fnv32a(''), 0x811c9dc5);
    assert.equal(fnv32a('a'), 0xe40c292c);
    assert.equal(fnv32a('foobar'), 0xbf9cf968);
  });

  test('every_uid_has_one_shard_and_shards_are_balanced', () => {
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) {
      const uid = `5f0c${i.toString(16).padStart(4, '0')}-1c2d-4e5f-8a9b-${String(i).padStart(12, '0')}`;
      const shard = shardOf(uid, 3);
      assert.equal(shard, shardOf(uid, 3));
      counts[shard] += 1;
    }
    for (const n of counts) assert.ok(n > 850 && n < 1150, `balanced: ${counts}`);
    assert.equal(shardOf('anything', 1), 0);
  });

  test('shard_options_are_checked', () => {
    assert.deepEqual(readSharding(undefined, undefined), { shard: 0, total: 1 });
    assert.deepEqual(readSharding('1', '2'), { shard: 1, total: 2 });
    assert.match(readSharding('2', '2').error, /--shard must be a whole number from 0 to 1/);
    assert.match(readSharding('0', '0').error, /--total-shards/);
    assert.match(readSharding('-1', '2').error, /--shard/);
    assert.deepEqual(readListen(':9090'), { host: undefined, port: 9090 });
    assert.deepEqual(readListen('127.0.0.1:0'), { host: '127.0.0.1', port: 0 });
    assert.deepEqual(readListen('[::1]:80'), { host: '::1', port: 80 });
    assert.match(readListen('x').error, /--listen/);
  });
});

describe('the series of a resolved workload', () => {
  const dir = path.join(root, 'catalog', 'jobset-x-k8s-io-jobset-v1alpha2', 'tests');
  const c = parse(readFileSync(path.join(dir, 'pods.yaml'), 'utf8'));
  const object = parse(readFileSync(path.join(dir, c.objectFrom), 'utf8')).object;
  const result = api.resolveAll([object, ...c.related], { catalog: true });
  const item = result.items.find((i) => i.kind === 'JobSet');
  const text = workloadLines(item, object, { name: 'jobset-x-k8s-io-jobset-v1alpha2', origin: 'catalog' }, 1700000000).join('');
  const w = 'namespace="ml",workload_kind="JobSet",workload="llm"';

  test('each_pod_is_attributed_where_the_core_places_it_deepest', () => {
    const pods = text.split('\n').filter((l) => l.startsWith('workload_map_pod_info'));
    assert.deepEqual(pods.sort(), [
      'workload_map_pod_info{namespace="ml",pod="llm-driver-0-0",workload_kind="JobSet",workload="llm",component="replicatedjob",instance="driver",node="node-1",terminating="false"} 1',
      'workload_map_pod_info{namespace="ml",pod="llm-workers-0-0",workload_kind="JobSet",workload="llm",component="replicatedjob",instance="workers",node="node-1",terminating="false"} 1',
      'workload_map_pod_info{namespace="ml",pod="llm-workers-0-1",workload_kind="JobSet",workload="llm",component="replicatedjob",instance="workers",node="node-1",terminating="false"} 1',
      'workload_map_pod_info{namespace="ml",pod="llm-workers-1-0",workload_kind="JobSet",workload="llm",component="replicatedjob",instance="workers",node="node-1",terminating="false"} 1',
      'workload_map_pod_info{namespace="ml",pod="llm-workers-1-1",workload_kind="JobSet",workload="llm",component="replicatedjob",instance="workers",node="",terminating="false"} 1',
    ]);
  });

  test('a_pod_being_deleted_is_terminating_in_pod_info_and_not_ready', () => {
    // A worker deleted, held by a finalizer: Running, and its Ready condition still True.
    const leaving = c.related.map((o) =>
      o.metadata.name === 'llm-workers-0-0'
        ? { ...o, metadata: { ...o.metadata, deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['example.com/hold'] } }
        : o,
    );
    const deleted = api.resolveAll([object, ...leaving], { catalog: true });
    const lines = workloadLines(
      deleted.items.find((i) => i.kind === 'JobSet'),
      object,
      { name: 'jobset-x-k8s-io-jobset-v1alpha2', origin: 'catalog' },
      1700000000,
    ).join('');
    assert.ok(
      lines.includes(
        'workload_map_pod_info{namespace="ml",pod="llm-workers-0-0",workload_kind="JobSet",workload="llm",component="replicatedjob",instance="workers",node="node-1",terminating="true"} 1\n',
      ),
      lines,
    );
    assert.ok(lines.includes(`workload_map_instance_pods_current{${w},component="replicatedjob",instance="workers"} 4\n`));
    assert.ok(
      lines.includes(`workload_map_instance_pods_ready{${w},component="replicatedjob",instance="workers"} 2\n`),
      'one ready pod fewer than without the deletion',
    );
    assert.ok(text.includes(`workload_map_instance_pods_ready{${w},component="replicatedjob",instance="workers"} 3\n`));
  });

  test('the_phase_is_a_state_set_and_counts_and_gpus_are_the_views', () => {
    for (const phase of PHASES) {
      assert.ok(text.includes(`workload_map_workload_status_phase{${w},phase="${phase}"} ${phase === 'Running' ? 1 : 0}\n`), phase);
    }
    assert.ok(text.includes(`workload_map_workload_status_phase_last_transition_timestamp_seconds{${w}} 1700000000\n`));
    assert.ok(text.includes(`workload_map_workload_gpus_requested{${w}} 16\n`));
    assert.ok(text.includes(`workload_map_instance_pods_desired{${w},component="replicatedjob",instance="workers"} 4\n`));
    assert.ok(text.includes(`workload_map_instance_pods_ready{${w},component="replicatedjob",instance="workers"} 3\n`));
    assert.ok(text.includes(`workload_map_component_pods_current{${w},component="jobset"} 5\n`));
    assert.ok(text.includes(`workload_map_component_pods_ready{${w},component="replicatedjob"} 4\n`));
  });

  test('a_pod_the_definition_places_in_no_component_is_still_attributed_to_its_workload', () => {
    // A PyTorchJob's components claim pods by their replica-type label; these pods have none.
    const c = parse(readFileSync(path.join(root, 'catalog', 'kubeflow-org-pytorchjob-v1', 'tests', 'running.yaml'), 'utf8'));
    const job = { ...c.object, metadata: { ...c.object.metadata, uid: 'job-uid' } };
    const owner = [{ apiVersion: job.apiVersion, kind: job.kind, name: job.metadata.name, uid: 'job-uid', controller: true }];
    const pod = (name) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: job.metadata.namespace, uid: name, ownerReferences: owner },
      spec: { containers: [{ name: 'm' }] },
    });
    const result = api.resolveAll([job, pod('a'), { ...pod('b'), spec: { nodeName: 'n2', containers: [{ name: 'm' }] } }], { catalog: true, related: [] });
    assert.deepEqual(
      result.items[0].view.pods.unplaced.map((p) => p.name),
      ['a', 'b'],
      'the view keeps the pods no component claims',
    );
    const lines = workloadLines(result.items[0], job, { name: 'x', origin: 'catalog' }, 0).join('');
    const ns = job.metadata.namespace ?? '';
    for (const [name, node] of [
      ['a', ''],
      ['b', 'n2'],
    ]) {
      assert.ok(
        lines.includes(
          `workload_map_pod_info{namespace="${ns}",pod="${name}",workload_kind="PyTorchJob",workload="${job.metadata.name}",component="",instance="",node="${node}",terminating="false"} 1\n`,
        ),
        lines,
      );
    }
  });

  test('a_workload_first_seen_takes_its_newest_condition_time', () => {
    const now = Date.parse('2026-01-02T00:00:00Z');
    const at = (s) => Date.parse(s) / 1000;
    assert.equal(
      firstSeenSince(
        {
          status: { conditions: [{ lastTransitionTime: '2026-01-01T10:00:00Z' }, { lastTransitionTime: '2026-01-01T12:00:00Z' }] },
          metadata: { creationTimestamp: '2025-01-01T00:00:00Z' },
        },
        now,
      ),
      at('2026-01-01T12:00:00Z'),
    );
    assert.equal(firstSeenSince({ metadata: { creationTimestamp: '2025-01-01T00:00:00Z' } }, now), at('2025-01-01T00:00:00Z'));
    assert.equal(firstSeenSince({}, now), now / 1000);
  });
});

describe('deploy/exporter', () => {
  test('the_cluster_role_is_what_the_generator_makes_of_the_catalog', async () => {
    assert.equal(readFileSync(roleFile, 'utf8'), await roleText(), 'deploy/exporter/clusterrole.yaml is stale: run `node scripts/exporter-rbac.mjs`');
  });

  test('the_cluster_role_only_reads_and_covers_every_watched_type', () => {
    const role = parse(readFileSync(roleFile, 'utf8'));
    const granted = new Set();
    for (const rule of role.rules) {
      assert.deepEqual(rule.verbs, ['get', 'list', 'watch']);
      for (const resource of rule.resources) granted.add(`${rule.apiGroups[0]}/${resource}`);
    }
    for (const type of watchedTypes(effectiveDefinitions(api, []).entries)) assert.ok(granted.has(`${type.group}/${pluralOf(type.kind)}`), `${type.kind}`);
    assert.ok(granted.has('/pods') && granted.has('run.ai/kartas') && granted.has('apps/replicasets'));
  });

  test('plurals_are_the_ones_the_crds_and_kubernetes_use', (t) => {
    // The CRDs of ../shared/crds (read in place) name their plurals; the built-in ones are Kubernetes'.
    const crds = path.resolve(root, '..', 'shared', 'crds');
    const builtin = {
      Pod: 'pods',
      ReplicaSet: 'replicasets',
      Deployment: 'deployments',
      StatefulSet: 'statefulsets',
      Job: 'jobs',
      CronJob: 'cronjobs',
      Service: 'services',
    };
    for (const [kind, plural] of Object.entries(builtin)) assert.equal(pluralOf(kind), plural);
    if (!existsSync(crds)) {
      if (process.env.CI === 'true') assert.fail(`${crds} is missing`);
      t.skip('no ../shared/crds');
      return;
    }
    let compared = 0;
    for (const file of readdirSync(crds).filter((f) => f.endsWith('.yaml.gz'))) {
      const crd = parse(gunzipSync(readFileSync(path.join(crds, file))).toString('utf8'));
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      assert.equal(pluralOf(crd.spec.names.kind), crd.spec.names.plural, file);
      compared += 1;
    }
    assert.ok(compared >= 15, `${compared} CRDs compared`);
  });
});

describe('deploy/exporter/rules.yaml', async () => {
  const { parser } = await import('@prometheus-io/lezer-promql');
  const rules = parse(readFileSync(path.join(root, 'deploy', 'exporter', 'rules.yaml'), 'utf8')).groups.flatMap((g) => g.rules);
  const podInfo = WORKLOAD_FAMILIES.find((f) => f.name === 'workload_map_pod_info').labels;
  const exported = new Set(WORKLOAD_FAMILIES.map((f) => f.name));

  /** The parse tree of an expression as nested `{ name, text, children }`. */
  function tree(expr) {
    const root = { name: 'root', text: expr, children: [] };
    const stack = [root];
    const errors = [];
    parser.parse(expr).iterate({
      enter(node) {
        if (node.type.isError) errors.push(node.from);
        const entry = { name: node.name, text: expr.slice(node.from, node.to), children: [] };
        stack.at(-1).children.push(entry);
        stack.push(entry);
      },
      leave() {
        stack.pop();
      },
    });
    return { root, errors };
  }
  const all = (node, name) => [...(node.name === name ? [node] : []), ...node.children.flatMap((c) => all(c, name))];
  const labels = (node) => all(node, 'LabelName').map((l) => l.text);

  test('every_expression_parses_with_the_promql_grammar', () => {
    assert.ok(rules.length >= 4);
    for (const rule of rules) {
      const { errors } = tree(rule.expr);
      assert.deepEqual(errors, [], `${rule.record}: no syntax error`);
      assert.match(rule.record, /^[a-z_]+:[a-z_]+:[a-z]+$/, 'level:metric:operations');
    }
    // The grammar does find errors.
    assert.notDeepEqual(tree('avg by (namespace (x').errors, []);
  });

  test('every_join_is_on_namespace_and_pod_and_takes_labels_pod_info_has', () => {
    for (const rule of rules) {
      const { root } = tree(rule.expr);
      const selectors = all(root, 'VectorSelector').map((v) => all(v, 'Identifier')[0].text);
      for (const name of selectors) assert.ok(name === 'DCGM_FI_DEV_GPU_UTIL' || exported.has(name), `${rule.record}: ${name} is dcgm-exporter's or ours`);
      assert.ok(selectors.includes('DCGM_FI_DEV_GPU_UTIL') && selectors.includes('workload_map_pod_info'), rule.record);
      for (const join of all(root, 'BinaryExpr').filter((b) => b.children.some((c) => c.name === 'MatchingModifierClause'))) {
        const clause = join.children.find((c) => c.name === 'MatchingModifierClause');
        const groups = clause.children.filter((c) => c.name === 'GroupingLabels');
        const on = labels(groups[0]);
        const taken = labels(groups[1]);
        assert.deepEqual(on, ['namespace', 'pod'], `${rule.record}: joined on the labels dcgm-exporter writes`);
        for (const label of taken) assert.ok(podInfo.includes(label), `${rule.record}: group_left(${label}) is a label of workload_map_pod_info`);
        // The right side keeps one series per pod with every label the join takes.
        const right = join.children.at(-1);
        const kept = labels(right.children.find((c) => c.name === 'AggregateModifier'));
        assert.deepEqual([...kept].sort(), [...new Set([...on, ...taken])].sort(), `${rule.record}: max by keeps the joined labels`);
      }
      // The outer aggregation groups by labels the join provides.
      const outer = root.children[0].children[0];
      if (outer.name === 'AggregateExpr') {
        for (const label of labels(outer.children.find((c) => c.name === 'AggregateModifier')))
          assert.ok(podInfo.includes(label), `${rule.record}: by ${label}`);
      }
    }
  });
});

// --- the exporter over a fake API server: pods and Kartas, lists and watches driven by the test --

/**
 * A fake of the KubeClient the exporter uses, serving pods (`/api/v1`) and Kartas
 * (`/apis/run.ai/v1alpha1`): discovery, lists of what `objects` holds, and watches whose events
 * the test sends (`send(path, event)`).
 */
function fakeCluster(objects) {
  const watches = new Map();
  const served = {
    '/api/v1': [{ name: 'pods', kind: 'Pod', namespaced: true, verbs: ['list', 'watch'] }],
    '/apis/run.ai/v1alpha1': [{ name: 'kartas', kind: 'Karta', namespaced: false, verbs: ['list', 'watch'] }],
  };
  const collections = { '/api/v1/pods': 'Pod', '/apis/run.ai/v1alpha1/kartas': 'Karta' };
  let version = 10;
  /** The heartbeat reads, by collection path. */
  const reads = [];
  const client = {
    async get(path) {
      const [collection, query] = path.split('?');
      if (collections[collection] && query === 'limit=1') {
        reads.push(collection);
        return { items: [], metadata: { resourceVersion: String(version) } };
      }
      if (!served[path]) throw new KubeError('not-found', `${path}: not found`);
      return { resources: served[path] };
    },
    async list(path, { onPage }) {
      const items = objects.filter((o) => o.kind === collections[path]).map((o) => structuredClone(o));
      onPage?.(items);
      return { items: onPage ? [] : items, resourceVersion: String(version) };
    },
    watch(path, { onOpen, onEvent, onEnd }) {
      const watch = { onEvent, onEnd, open: true };
      watches.set(path, watch);
      queueMicrotask(() => onOpen?.());
      return () => {
        watch.open = false;
      };
    },
  };
  const send = (path, event) => {
    version += 1;
    const watch = watches.get(path);
    assert.ok(watch?.open, `a watch of ${path} is open`);
    watch.onEvent({ ...event, object: { ...event.object, metadata: { ...event.object.metadata, resourceVersion: String(version) } } });
  };
  const bookmark = (path) => send(path, { type: 'BOOKMARK', object: { kind: collections[path], metadata: {} } });
  return { client, send, bookmark, reads };
}

const strayPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stray', namespace: 'ml', uid: 'pod-1' }, spec: { containers: [{ name: 'main' }] } };

/** An exporter over `fakeCluster(objects)` with a clock the test moves; started and synced. */
async function fakeExporter(objects, options = {}) {
  const cluster = fakeCluster(objects);
  const clock = { now: 1_700_000_000_000 };
  const logs = [];
  const exporter = new Exporter({
    api,
    client: cluster.client,
    debounceMs: 0,
    discoveryMs: 3_600_000,
    log: (m) => logs.push(m),
    now: () => clock.now,
    ...options,
  });
  await exporter.start();
  await until('the first sync', () => exporter.lastSync > 0);
  return { exporter, clock, logs, ...cluster };
}

async function until(what, check) {
  for (let i = 0; i < 500; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`${what}: not within 5 s`);
}

/** Lets the exporter's passes (debounced by 0 ms) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the exporter over a fake API server', () => {
  test('a_bookmark_on_every_watch_moves_the_last_sync_in_a_quiet_cluster', async () => {
    const { exporter, clock, bookmark } = await fakeExporter([strayPod]);
    try {
      const first = exporter.lastSync;
      assert.equal(first, clock.now, 'synced as of the lists');
      // A minute without any change: only bookmarks arrive.
      clock.now += 60_000;
      bookmark('/api/v1/pods');
      await settle();
      assert.equal(exporter.lastSync, first, 'the Kartas watch has not proven itself yet');
      bookmark('/apis/run.ai/v1alpha1/kartas');
      await settle();
      assert.equal(exporter.lastSync, first + 60_000, 'every watch is proven current: so is the view');
      assert.match(exporter.metrics(), new RegExp(`^workload_map_exporter_last_sync_timestamp_seconds ${(first + 60_000) / 1000}$`, 'm'));
      // Nothing arrives: the metric stays, and ages as it should.
      clock.now += 60_000;
      await settle();
      assert.equal(exporter.lastSync, first + 60_000);
    } finally {
      await exporter.stop();
    }
  });

  test('a_bookmark_does_not_move_the_last_sync_while_a_change_waits_to_be_resolved', async () => {
    const { exporter, clock, bookmark, send } = await fakeExporter([strayPod]);
    try {
      const first = exporter.lastSync;
      clock.now += 60_000;
      exporter.debounceMs = 10_000;
      send('/api/v1/pods', { type: 'MODIFIED', object: { ...strayPod, status: { phase: 'Running' } } });
      bookmark('/api/v1/pods');
      bookmark('/apis/run.ai/v1alpha1/kartas');
      await settle();
      assert.equal(exporter.lastSync, first, 'the change is not resolved yet');
    } finally {
      await exporter.stop();
    }
  });

  /** The catalog's Pod definition as a Karta named `name`, changed by `edit`. */
  const podKarta = (name, edit = () => {}) => {
    const karta = parse(readFileSync(path.join(root, 'catalog', 'core-pod-v1', 'definition.yaml'), 'utf8'));
    karta.metadata = { name, uid: `karta-${name}` };
    edit(karta);
    return karta;
  };
  const badJq = (karta) => {
    karta.spec.structureDefinition.rootComponent.statusDefinition.statusMappings.initializing[1].byExpression.expression = '.status.phase ==';
  };

  test('a_broken_karta_has_its_series_and_its_errors_are_logged_once_not_per_pass', async () => {
    const { exporter, logs, send } = await fakeExporter([strayPod, podKarta('pod-badjq', badJq)]);
    try {
      const text = exporter.metrics();
      assert.match(text, /^workload_map_karta_info\{karta="pod-badjq",group="",version="v1",kind="Pod",state="in-force",valid="false"\} 1$/m);
      assert.match(text, /^workload_map_karta_errors\{karta="pod-badjq"\} 1$/m);
      assert.match(text, /^workload_map_karta_warnings\{karta="pod-badjq"\} 0$/m);
      assert.match(text, /definition="pod-badjq",origin="cluster"/, 'it stays in force: a partial reading beats none');
      // Passes come and go (a pod changes, twice): the error is not logged again.
      for (const phase of ['Running', 'Succeeded']) {
        send('/api/v1/pods', { type: 'MODIFIED', object: { ...strayPod, status: { phase } } });
        await settle();
      }
      const said = logs.filter((m) => m.includes('Karta/pod-badjq'));
      assert.equal(said.length, 2, `a summary and the error, once: ${logs.join('\n')}`);
      assert.match(said[0], /^Karta\/pod-badjq, the definition in force for Pod \(v1\), is invalid \(1 error\)/);
      assert.match(
        said[1],
        /^ {2}Karta\/pod-badjq: error expr\/syntax: .*\(at spec\.structureDefinition\.rootComponent\.statusDefinition\.statusMappings\.initializing\[1\]\.byExpression\.expression\)$/,
      );
      // Fixed: said no more, and valid.
      send('/apis/run.ai/v1alpha1/kartas', { type: 'MODIFIED', object: podKarta('pod-badjq') });
      await until('the fixed Karta is valid', () => /karta="pod-badjq",[^}]*valid="true"/.test(exporter.metrics()));
      assert.match(exporter.metrics(), /^workload_map_karta_errors\{karta="pod-badjq"\} 0$/m);
      assert.equal(logs.filter((m) => m.includes('Karta/pod-badjq')).length, 2);
    } finally {
      await exporter.stop();
    }
  });

  test('two_kartas_for_one_type_are_logged_once_and_its_workloads_are_read_with_the_catalog', async () => {
    const { exporter, logs, send } = await fakeExporter([strayPod, podKarta('pod-a'), podKarta('pod-b')]);
    try {
      const text = exporter.metrics();
      assert.match(
        text,
        /^workload_map_workload_info\{namespace="ml",workload_kind="Pod",workload="stray",[^}]*definition="core-pod-v1",origin="catalog"\} 1$/m,
      );
      for (const name of ['pod-a', 'pod-b'])
        assert.match(text, new RegExp(`^workload_map_karta_info\\{karta="${name}",group="",version="v1",kind="Pod",state="conflict",valid="true"\\} 1$`, 'm'));
      send('/api/v1/pods', { type: 'MODIFIED', object: { ...strayPod, status: { phase: 'Running' } } });
      await settle();
      const said = logs.filter((m) => /Kartas claim Pod/.test(m));
      assert.deepEqual(said, [
        "2 Kartas claim Pod (v1): Karta/pod-a, Karta/pod-b; neither is used and its workloads are read with the catalog's definition core-pod-v1: remove one from the cluster",
      ]);
    } finally {
      await exporter.stop();
    }
  });

  test('a_watch_without_a_recent_proof_gets_a_heartbeat_read_and_a_proven_one_does_not', async () => {
    const { exporter, clock, bookmark, reads } = await fakeExporter([strayPod], { heartbeatMs: 20 });
    try {
      await settle();
      assert.deepEqual(reads, [], 'both watches were just proven by their lists');
      clock.now += 60_000;
      bookmark('/api/v1/pods');
      await until('a heartbeat', () => reads.length > 0);
      await settle();
      assert.ok(reads.length >= 1 && reads.every((path) => path === '/apis/run.ai/v1alpha1/kartas'), reads.join(', '));
    } finally {
      await exporter.stop();
    }
  });

  test('a_reflector_is_proven_current_by_its_list_and_each_bookmark_not_by_other_events', async () => {
    const { client, send, bookmark } = fakeCluster([strayPod]);
    let now = 5;
    const reflector = new Reflector({ client, path: '/api/v1/pods', label: 'pods', onChange: () => {}, now: () => now });
    let proven = 0;
    reflector.onCurrent = () => (proven += 1);
    reflector.start();
    try {
      await until('watching', () => reflector.watching);
      assert.equal(reflector.currentAt, 5, 'the list');
      now = 7;
      send('/api/v1/pods', { type: 'MODIFIED', object: strayPod });
      assert.equal(reflector.currentAt, 5);
      now = 9;
      bookmark('/api/v1/pods');
      assert.deepEqual([reflector.currentAt, proven], [9, 1]);
      assert.equal(reflector.resourceVersion, '12', 'a bookmark also moves the version to resume from');
    } finally {
      await reflector.stop();
    }
  });
});

describe('a type served at two versions', () => {
  test('is watched once, at the version the API server prefers among those the definitions name', () => {
    assert.deepEqual(['v1alpha1', 'v1', 'v1beta2', 'v2alpha1', 'v1beta1', 'v2', 'v1alpha2', 'other'].sort(compareVersions), [
      'v2',
      'v1',
      'v1beta2',
      'v1beta1',
      'v2alpha1',
      'v1alpha2',
      'v1alpha1',
      'other',
    ]);
    // The catalog has LLMInferenceService at v1alpha1 and v1alpha2: one watch, at v1alpha2.
    const types = watchedTypes(effectiveDefinitions(api, []).entries);
    const llm = types.filter((t) => t.kind === 'LLMInferenceService');
    assert.equal(llm.length, 2, 'the catalog names both versions');
    const once = oneVersionEach(types);
    assert.deepEqual(
      once.filter((t) => t.kind === 'LLMInferenceService').map((t) => t.version),
      ['v1alpha2'],
    );
    for (const t of once) assert.equal(once.filter((o) => o.group === t.group && o.kind === t.kind).length, 1, `${t.group}/${t.kind} once`);
  });
});

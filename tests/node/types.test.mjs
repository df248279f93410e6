// Pins js/index.d.ts to what the package really returns: real results are written as object
// literals typed with the declared types, and `tsc --strict --exactOptionalPropertyTypes` must
// accept them. A field the boundary adds, drops or renames is then an excess or missing
// property error here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import * as wm from 'workload-map';

import { fixture, root } from './helpers.mjs';

const seed = fixture('seed-jobset.yaml');
const jobsetDefinition = fixture('jobset-definition.yaml');
const catalogFor = (apiVersion, kind) => wm.catalog.find(apiVersion, kind);
const listed = wm.parseObjects(fixture('jobset-with-pods-list.yaml')).objects;
const listedJobSet = listed.find((o) => o.kind === 'JobSet');
const related = { pods: listed.filter((o) => o.kind === 'Pod'), owners: listed.filter((o) => o.kind === 'Job') };
// A podGroup (current form) with sub-groups and topology, so every group field appears.
const podGroupDefinition = `apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: t}
spec:
  structureDefinition:
    rootComponent:
      name: root
      kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}
      statusDefinition: {statusMappings: {}}
    childComponents:
    - name: job
      ownerRef: root
      kind: {group: batch, version: v1, kind: Job}
      instanceIdPath: .spec.replicatedJobs[].name
      specDefinition: {podTemplateSpecPath: .spec.replicatedJobs[].template.spec.template}
      scaleDefinition: {replicasPath: .spec.replicatedJobs[].replicas}
      podSelector: {componentInstanceSelector: {idPath: '.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]'}}
  optimizationInstructions:
    gangScheduling:
      podGroup:
        name: g
        topology: {topologyName: dc, preferredTopologyLevel: rack, requiredTopologyLevel: zone}
        subGroups: [{componentName: job, topology: {topologyName: dc, preferredTopologyLevel: host, requiredTopologyLevel: rack}}]
`;

// [type, value] pairs: every shape the API returns, from real calls.
const samples = [
  ['WorkloadView', wm.resolve(jobsetDefinition, seed)],
  ['WorkloadView', wm.resolve(catalogFor('jobset.x-k8s.io/v1alpha2', 'JobSet').text, seed)],
  ['WorkloadView', wm.resolve(catalogFor('v1', 'Pod').text, fixture('pod.yaml'))],
  ['WorkloadView', wm.resolve(fixture('invalid-definition.yaml'), 'apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: x}\n')],
  ['WorkloadView', wm.resolve(jobsetDefinition, 'kind: [')],
  ['WorkloadView', wm.resolve(catalogFor('jobset.x-k8s.io/v1alpha2', 'JobSet').text, listedJobSet, related)],
  ['WorkloadView', wm.resolve(podGroupDefinition, listedJobSet, related)],
  ['LeanWorkloadView', wm.resolve(jobsetDefinition, seed, { explain: false })],
  ['LeanWorkloadView', wm.resolve(catalogFor('jobset.x-k8s.io/v1alpha2', 'JobSet').text, listedJobSet, { ...related, explain: false })],
  ['Validation', wm.validate(fixture('invalid-definition.yaml'))],
  ['Validation', wm.validate(fixture('not-yaml.yaml'))],
  ['ParsedObjects', wm.parseObjects(fixture('two-jobsets.yaml'))],
  ['ParsedObjects', wm.parseObjects('a: [')],
  ['Quantity', wm.parseQuantity('1536Mi')],
  ['CatalogEntry[]', wm.catalog.list()],
  ['CatalogMatch', catalogFor('jobset.x-k8s.io/v1alpha2', 'JobSet')],
  ['CatalogDefinition', wm.catalog.get(wm.catalog.list()[0].name)],
  ['Gvk', new wm.Definition(jobsetDefinition).gvk],
  ['Diagnostic[]', new wm.Definition(fixture('invalid-definition.yaml')).diagnostics],
  // Edits: a patch, a refusal, an unreadable object.
  ['EditResult', wm.suspend(catalogFor('jobset.x-k8s.io/v1alpha2', 'JobSet').text, seed)],
  ['EditResult', wm.editPodSpec(jobsetDefinition, seed, { component: 'nope', merge: {} })],
  ['EditResult', wm.resume(jobsetDefinition, 'kind: [')],
];

const usage = `
// The API's signatures, used as a TypeScript user would.
async function usage(): Promise<void> {
  await init();
  await init(new Uint8Array(0));
  const d: Definition = new Definition('kind: Karta');
  const fromObject: Definition = new Definition({ apiVersion: 'run.ai/v1alpha1', kind: 'Karta' });
  const view: WorkloadView = d.resolve('kind: JobSet');
  const again: WorkloadView = resolve(fromObject, { kind: 'JobSet', spec: { replicas: 2 } });
  const gpus: number = view.resources.gpus + again.resources.gpus;
  const phase: Phase | undefined = view.phases[0];
  const name: string | undefined = d.name;
  const names: string[] = d.componentNames;
  const valid: boolean = validate('x').valid && d.valid;
  const q: number = parseQuantity('1').value;
  const shown: string = formatCpu(gpus) + formatMemory(q);
  const entries: CatalogEntry[] = catalog.list();
  const found: CatalogMatch | null = catalog.find('v1', 'Pod');
  const objects: JsonObject[] = parseObjects('a: 1').objects;
  const v: string = version;
  const context: RelatedObjects = { pods: objects, owners: [] };
  const withPods: WorkloadView = d.resolve('kind: JobSet', context);
  const alsoWithPods: WorkloadView = resolve(d, { kind: 'JobSet' }, { pods: objects });
  const lean: LeanWorkloadView = d.resolve('kind: JobSet', { explain: false });
  const alsoLean: LeanWorkloadView = resolve(d, { kind: 'JobSet' }, { pods: objects, explain: false });
  const explained: WorkloadView = d.resolve('kind: JobSet', { explain: true });
  const leanOptions: ResolveOptions = { explain: false };
  const either: WorkloadView | LeanWorkloadView = d.resolve('kind: JobSet', leanOptions);
  const leanPhase: Phase | undefined = lean.phases[0] ?? alsoLean.phases[0] ?? explained.status.mappings[0]?.status ?? either.phases[0];
  // @ts-expect-error the lean view has no explanations
  lean.status.mappings;
  const group: Group | undefined = withPods.groups[0];
  const item: PodItem | undefined = alsoWithPods.root?.pods?.items[0];
  const summary: PodsSummary | undefined = withPods.pods;
  const suspended: EditResult = suspend(d, 'kind: JobSet');
  const ops: JsonPatchOperation[] = resume(d, { kind: 'JobSet' }).patch.concat(d.suspend('x').patch, d.resume('x').patch);
  const options: PodSpecEditOptions = { component: 'worker', instance: null, merge: { schedulerName: 'kai' } };
  const edited: JsonObject | null = editPodSpec(d, 'kind: JobSet', options).object ?? d.editPodSpec('x', { component: 'a', merge: {} }).object;
  d.free();
  void [phase, name, names, valid, shown, entries, found, objects, v, group, item, summary, suspended, ops, edited, leanPhase];
}
void usage;
`;

test('declared_types_accept_every_real_result_under_strict_tsc', () => {
  const dir = path.join(root, 'target', 'types-test');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const typeNames = [...new Set(samples.map(([type]) => type.replace('[]', '')).concat(['Definition', 'Phase', 'JsonObject', 'RelatedObjects', 'Group', 'PodItem', 'PodsSummary', 'JsonPatchOperation', 'PodSpecEditOptions', 'ResolveOptions', 'WorkloadView']))];
  const values = ['Definition', 'init', 'resolve', 'validate', 'parseQuantity', 'parseObjects', 'formatCpu', 'formatMemory', 'catalog', 'version', 'suspend', 'resume', 'editPodSpec'];
  const lines = [
    `import { ${values.join(', ')} } from 'workload-map';`,
    `import type { ${typeNames.filter((t) => !values.includes(t)).join(', ')} } from 'workload-map';`,
    '',
    ...samples.map(([type, value], i) => `export const sample${i}: ${type} = ${JSON.stringify(value, null, 2)};`),
    usage,
  ];
  writeFileSync(path.join(dir, 'check.ts'), lines.join('\n'));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, exactOptionalPropertyTypes: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], skipLibCheck: false },
      files: ['check.ts'],
    }),
  );
  const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: root, encoding: 'utf8' });
  assert.equal(tsc.status, 0, `tsc found type errors:\n${tsc.stdout}${tsc.stderr}`);
});

test('the_types_never_use_any', () => {
  const code = readFileSync(path.join(root, 'pkg', 'index.d.ts'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  assert.doesNotMatch(code, /\bany\b/);
});

// Pins js/index.d.ts to what the package really returns: real results are written as object
// literals typed with the declared types, and `tsc --strict --exactOptionalPropertyTypes` must
// accept them. A field the boundary adds, drops or renames is then an excess or missing
// property error here. Then the declarations as consumers compile against them: ESM and
// CommonJS, without the DOM lib (with and without @types/node), with `using`, typed objects
// and the union of diagnostic codes (generated from src/diagnostic.rs by the build).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import * as wm from 'workload-map';
import { parse } from 'yaml';

import { fixture, root } from './helpers.mjs';

const seed = fixture('seed-jobset.yaml');
const jobsetDefinition = fixture('jobset-definition.yaml');
const catalogFor = (apiVersion, kind) => wm.catalog.find(apiVersion, kind);
const listed = wm.parseObjects(fixture('jobset-with-pods-list.yaml')).objects;
const listedJobSet = listed.find((o) => o.kind === 'JobSet');
const related = { pods: listed.filter((o) => o.kind === 'Pod'), owners: listed.filter((o) => o.kind === 'Job') };
// A pod being deleted (the view's and the pod's `terminating`), and a pod no component claims
// (`pods.unplaced`: a PyTorchJob's components claim pods by a replica-type label this one lacks).
const terminatingPod = fixture('pod.yaml').replace('namespace: research}', 'namespace: research, deletionTimestamp: "2026-01-01T00:00:00Z"}');
const pytorchJob = parse(readFileSync(path.join(root, 'catalog', 'kubeflow-org-pytorchjob-v1', 'tests', 'running.yaml'), 'utf8')).object;
const unclaimed = {
  pods: [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'a',
        namespace: pytorchJob.metadata.namespace,
        ownerReferences: [{ apiVersion: pytorchJob.apiVersion, kind: pytorchJob.kind, name: pytorchJob.metadata.name, controller: true }],
      },
      spec: { containers: [{ name: 'm' }] },
    },
  ],
};
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
  ['WorkloadView', wm.resolve(catalogFor('v1', 'Pod').text, terminatingPod, { pods: [] })],
  ['WorkloadView', wm.resolve(catalogFor(pytorchJob.apiVersion, pytorchJob.kind).text, pytorchJob, unclaimed)],
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
  ['ManifestReading', new wm.Manifest(fixture('jobset-with-pods-list.yaml'), { related: 'kind: [' }).reading],
  ['Diagnostic[]', new wm.Manifest('a: [', { related: 'kind: [' }).relatedDiagnostics],
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
  // Many workloads: with pods, and a type the catalog has no definition for.
  ['ResolvedList', wm.resolveAll(fixture('jobset-with-pods-list.yaml'), { catalog: true })],
  ['ResolvedList', wm.resolveAll([{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }, listedJobSet], { catalog: true })],
  // Test cases: a failure with a note, a passing action case, a malformed case.
  [
    'CaseResult',
    wm.runCase(
      catalogFor('jobset.x-k8s.io/v1alpha2', 'JobSet').text,
      `object:\n${seed.replace(/^/gm, '  ')}\nexpect: {phases: [Completed], components: [{path: nope}]}\n`,
    ),
  ],
  [
    'CaseResult',
    wm.runCase(catalogFor('jobset.x-k8s.io/v1alpha2', 'JobSet').text, 'description: d\naction: suspend\nobjectFrom: a.yaml\nexpect: {patch: []}\n', {
      files: { 'a.yaml': `object:\n${seed.replace(/^/gm, '  ')}` },
    }),
  ],
  ['CaseResult', wm.runCase(jobsetDefinition, 'expect: {phase: []}\n')],
  // Checking against and drafting from API schemas: findings, versions, an unreadable schema.
  ['SchemaCheck', wm.checkDefinition(fixture('crds/trainer-typo.yaml'), [{ name: 'crd.yaml', text: fixture('crds/trainer-crd.yaml') }])],
  ['SchemaCheck', wm.checkDefinition(fixture('crds/trainer-definition.yaml'), fixture('crds/trainer-crd.yaml'), { allVersions: true })],
  ['SchemaCheck', wm.checkDefinition(fixture('crds/trainer-definition.yaml'), ['kind: ConfigMap'])],
  ['SchemaDraft', wm.draftFromSchema(fixture('crds/trainer-crd.yaml'), { version: 'v1' })],
  ['SchemaDraft', wm.draftFromSchema(fixture('crds/trainer-crd.yaml'), { kind: 'Nothing' })],
  ['SchemaFields', wm.schemaFields(fixture('crds/trainer-crd.yaml'), { path: '.spec.groups[]' })],
  ['SchemaFields', wm.schemaFields(fixture('crds/trainer-crd.yaml'), { kind: 'Nothing' })],
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
  const caseOptions: RunCaseOptions = { files: { 'running.yaml': 'object: {}' } };
  const result: CaseResult = d.runCase('expect: {}', caseOptions);
  const failed: CaseExpectation[] = runCase(d, 'expect: {}').expectations.filter((e) => !e.passed).concat(runCase('kind: Karta', 'x').expectations);
  const manifest: Manifest = new Manifest('kind: JobSet', { related: objects });
  const fromText: Manifest = new Manifest('kind: JobSet', { related: 'kind: Pod' });
  const read: ManifestReading = manifest.reading;
  const problems: Diagnostic[] = manifest.diagnostics.concat(fromText.relatedDiagnostics);
  const counted: number = manifest.count + manifest.relatedCount;
  const first: JsonObject | undefined = manifest.object(0);
  const fromManifest: WorkloadView = d.resolve(manifest, { workload: 0 });
  const leanManifest: LeanWorkloadView = resolve(d, fromText, { explain: false });
  const manifestOptions: ManifestOptions = { related: 'kind: Pod' };
  const resolveOptions: ManifestResolveOptions = { workload: 1 };
  manifest.free();
  fromText[Symbol.dispose]();
  d.free();
  void [phase, name, names, valid, shown, entries, found, objects, v, group, item, summary, suspended, ops, edited, result, failed, leanPhase];
  void [read, problems, counted, first, fromManifest, leanManifest, manifestOptions, resolveOptions];
}
void usage;
`;

/** Type-checks `files` ({name: text}) in a fresh directory with these compiler options; gives tsc's output. */
function tsc(name, files, compilerOptions) {
  const dir = path.join(root, 'target', 'types-test', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: false, ...compilerOptions },
      files: Object.keys(files),
    }),
  );
  const run = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const NODENEXT = { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022' };

test('declared_types_accept_every_real_result_under_strict_tsc', () => {
  const typeNames = [
    ...new Set(
      samples
        .map(([type]) => type.replace('[]', ''))
        .concat([
          'Definition',
          'Manifest',
          'ManifestOptions',
          'ManifestResolveOptions',
          'Diagnostic',
          'Phase',
          'JsonObject',
          'RelatedObjects',
          'Group',
          'PodItem',
          'PodsSummary',
          'JsonPatchOperation',
          'PodSpecEditOptions',
          'RunCaseOptions',
          'CaseExpectation',
          'ResolveOptions',
          'WorkloadView',
        ]),
    ),
  ];
  const values = [
    'Definition',
    'Manifest',
    'init',
    'resolve',
    'validate',
    'parseQuantity',
    'parseObjects',
    'formatCpu',
    'formatMemory',
    'catalog',
    'version',
    'suspend',
    'resume',
    'editPodSpec',
    'runCase',
  ];
  const lines = [
    `import { ${values.join(', ')} } from 'workload-map';`,
    `import type { ${typeNames.filter((t) => !values.includes(t)).join(', ')} } from 'workload-map';`,
    '',
    ...samples.map(([type, value], i) => `export const sample${i}: ${type} = ${JSON.stringify(value, null, 2)};`),
    usage,
  ];
  const { status, output } = tsc('results', { 'check.ts': lines.join('\n') }, { ...NODENEXT, lib: ['es2022', 'dom'], types: [] });
  assert.equal(status, 0, `tsc found type errors:\n${output}`);
});

test('the_types_never_use_any', () => {
  for (const file of ['index.d.mts', 'index.d.cts']) {
    const code = readFileSync(path.join(root, 'pkg', file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    assert.doesNotMatch(code, /\bany\b/, file);
  }
});

test('import_and_require_get_their_own_declarations_with_the_same_api', () => {
  const mts = readFileSync(path.join(root, 'pkg', 'index.d.mts'), 'utf8');
  assert.equal(readFileSync(path.join(root, 'pkg', 'index.d.cts'), 'utf8'), mts);
  assert.doesNotMatch(
    mts.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, ''),
    /export\s+default|export\s*=/,
    'no default export: the ES entries have none',
  );
});

test('diagnostic_code_is_the_union_of_the_codes_in_src_diagnostic_rs', () => {
  // Read here on its own (every string literal of the `codes` module), not with the build's
  // reader: a code the build misses, or a pkg/ built before a code was added, fails.
  const rust = readFileSync(path.join(root, 'src', 'diagnostic.rs'), 'utf8');
  const block = rust.slice(rust.indexOf('pub mod codes {'), rust.indexOf('\n}', rust.indexOf('pub mod codes {')));
  const expected = [...block.replace(/\/\/.*$/gm, '').matchAll(/"([^"]+)"/g)].map((m) => m[1]).sort();
  const declared = /export type DiagnosticCode =([^;]*);/.exec(readFileSync(path.join(root, 'pkg', 'index.d.mts'), 'utf8'));
  assert.ok(declared, 'pkg/index.d.mts declares DiagnosticCode');
  const union = [...declared[1].matchAll(/'([^']+)'/g)].map((m) => m[1]).sort();
  assert.ok(expected.length > 50, `read ${expected.length} codes`);
  assert.deepEqual(union, expected);
});

// A consumer's own code: a typed JobSet interface (no index signature), `unknown` from a YAML
// library, `using`, narrowing on diagnostic codes, and no default import.
const consumer = (importLine) => `${importLine}

interface JobSet {
  apiVersion: 'jobset.x-k8s.io/v1alpha2';
  kind: 'JobSet';
  metadata: { name: string; namespace?: string };
  spec: { replicatedJobs: { name: string; replicas: number }[] };
}
interface Pod {
  kind: 'Pod';
  metadata: { name: string };
}

export function consume(text: string, jobset: JobSet, parsed: unknown, pods: Pod[]): number {
  using definition = new wm.Definition(text);
  const view = definition.resolve(jobset, { pods, owners: [] });
  const again = wm.resolve(text, parsed);
  const fromUnknown = new wm.Definition(parsed);
  fromUnknown[Symbol.dispose]();
  const codes: wm.DiagnosticCode[] = view.diagnostics.map((d) => d.code);
  const known: wm.DiagnosticCode = 'definition/unknown-field';
  // @ts-expect-error not a stable code
  const unknownCode: wm.DiagnosticCode = 'definition/no-such-code';
  const edited = wm.editPodSpec(definition, jobset, { component: 'a', merge: { containers: [{ name: 'x' }] } });
  void [codes, known, unknownCode, edited, wm.draft(jobset), wm.suspend(text, parsed)];
  return view.resources.gpus + again.resources.gpus;
}
`;
const esm = consumer(`import * as wm from 'workload-map';
// @ts-expect-error no default export: \`import wm from 'workload-map'\` fails at runtime, so it must not type-check
import wmDefault from 'workload-map';
void wmDefault;
await wm.init();`);
const cjs = consumer(`import wm = require('workload-map');`);

test('a_consumer_type_checks_without_the_dom_lib_with_node_types_in_esm_and_commonjs', () => {
  const { status, output } = tsc('no-dom-node', { 'esm.mts': esm, 'cjs.cts': cjs }, { ...NODENEXT, lib: ['es2022'], types: ['node'] });
  assert.equal(status, 0, output);
});

test('a_consumer_type_checks_with_es2022_alone', () => {
  const { status, output } = tsc('es2022-only', { 'esm.mts': esm }, { ...NODENEXT, lib: ['es2022'], types: [] });
  assert.equal(status, 0, output);
});

test('a_consumer_type_checks_with_the_dom_and_esnext_libs_and_a_bundler', () => {
  const options = { module: 'esnext', moduleResolution: 'bundler', target: 'esnext', lib: ['esnext', 'dom'], types: [] };
  const browser = esm.replace('await wm.init();', "await wm.init(new URL('x.wasm', 'https://example.com/')); await wm.init(fetch('x.wasm'));");
  const { status, output } = tsc(
    'bundler-dom',
    { 'app.ts': browser, 'inline.ts': browser.replaceAll("from 'workload-map'", "from 'workload-map/inline'") },
    options,
  );
  assert.equal(status, 0, output);
});

test('the_element_types_name_both_elements_their_properties_and_events', () => {
  const dir = path.join(root, 'target', 'types-test-element');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'check.ts'),
    `import { PHASE_SEVERITY, SECTIONS, WorkloadMapTable, WorkloadMapView } from 'workload-map/element';
import type { SelectDetail } from 'workload-map/element';

const view: WorkloadMapView | null = document.querySelector('workload-map-view');
const table: WorkloadMapTable = document.createElement('workload-map-table');
if (view) {
  view.definition = 'catalog';
  view.object = { apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet' };
  view.sections = ['tree', 'phase'];
  view.addEventListener('wm-select', (event) => {
    const detail: SelectDetail = event.detail;
    const component: string | null = detail.component;
    void component;
  });
}
table.objects = 'kind: List';
table.addEventListener('wm-diagnostics', (event) => void event.detail.diagnostics.map((d) => d.code));
table.sortBy('phase', 'descending');
const first: string | undefined = table.items[0]?.name;
void [first, PHASE_SEVERITY[0], SECTIONS.length, WorkloadMapTable.phaseSeverity];
`,
  );
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
        skipLibCheck: false,
      },
      files: ['check.ts'],
    }),
  );
  const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: root, encoding: 'utf8' });
  assert.equal(tsc.status, 0, `tsc found type errors:\n${tsc.stdout}${tsc.stderr}`);
});

test('the_element_types_compile_under_node16_from_an_es_module', () => {
  // The element's types are a .d.mts: under node16 a .d.ts in this package (no "type": "module")
  // is read as CommonJS, and its type import of index.d.mts fails with TS1541.
  const dir = path.join(root, 'target', 'types-test-element-node16');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'check.mts'),
    `import { SECTIONS, WorkloadMapView } from 'workload-map/element';
import type { DiagnosticsDetail } from 'workload-map/element';

const view: WorkloadMapView | null = document.querySelector('workload-map-view');
view?.addEventListener('wm-diagnostics', (event) => {
  const detail: DiagnosticsDetail = event.detail;
  void detail.diagnostics.map((d) => d.code);
});
void SECTIONS.length;
`,
  );
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'node16',
        moduleResolution: 'node16',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
        skipLibCheck: false,
      },
      files: ['check.mts'],
    }),
  );
  const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: root, encoding: 'utf8' });
  assert.equal(tsc.status, 0, `tsc found type errors:\n${tsc.stdout}${tsc.stderr}`);
});

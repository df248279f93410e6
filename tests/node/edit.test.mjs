// Edits as users get them: suspend, resume and editPodSpec from the package (wasm), and the
// `suspend`, `resume` and `edit` commands of the CLI. Patches are compared exactly, and every
// patch is applied here (RFC 6902, independently of the package) to check that it turns the
// input into the returned object.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';

import * as wm from 'workload-map';

import { cli, fixture, fixturePath, root } from './helpers.mjs';

const jobset = wm.catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet').text;
const seedText = fixture('seed-jobset.yaml');
const seed = wm.parseObjects(seedText).objects[0];

/** RFC 6902 add/remove/replace on a copy. */
function applyPatch(doc, patch) {
  const out = structuredClone(doc);
  for (const { op, path, value } of patch) {
    const tokens = path
      .split('/')
      .slice(1)
      .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = tokens.pop();
    const parent = tokens.reduce((node, t) => node[Array.isArray(node) ? Number(t) : t], out);
    if (Array.isArray(parent)) {
      if (op === 'add') parent.splice(last === '-' ? parent.length : Number(last), 0, value);
      else if (op === 'remove') parent.splice(Number(last), 1);
      else parent[Number(last)] = value;
    } else if (op === 'remove') {
      assert.ok(last in parent, `${path}: nothing to remove`);
      delete parent[last];
    } else {
      if (op === 'replace') assert.ok(last in parent, `${path}: nothing to replace`);
      parent[last] = value;
    }
  }
  return out;
}

/** Checks the contract of every edit result and returns it. */
function checked(input, result) {
  assert.deepEqual(Object.keys(result), ['object', 'patch', 'diagnostics']);
  assert.deepEqual(applyPatch(input, result.patch), result.object);
  return result;
}

const codes = (result) => result.diagnostics.map((d) => d.code);

describe('package', () => {
  test('suspend_adds_spec_suspend_and_resume_replaces_it', () => {
    const definition = new wm.Definition(jobset);
    const suspended = checked(seed, definition.suspend(seed));
    assert.deepEqual(suspended.patch, [{ op: 'add', path: '/spec/suspend', value: true }]);
    assert.deepEqual(suspended.diagnostics, []);
    const resumed = checked(suspended.object, wm.resume(definition, suspended.object));
    assert.deepEqual(resumed.patch, [{ op: 'replace', path: '/spec/suspend', value: false }]);
    definition.free();
  });

  test('suspend_takes_text_and_a_suspended_object_gives_an_empty_patch', () => {
    const once = checked(seed, wm.suspend(jobset, seedText));
    const twice = checked(once.object, wm.suspend(jobset, once.object));
    assert.deepEqual(twice.patch, []);
    assert.deepEqual(codes(twice), ['edit/no-change']);
    assert.equal(twice.diagnostics[0].severity, 'info');
  });

  test('an_edit_of_one_replicated_job_touches_only_its_pod_spec', () => {
    const merge = { containers: [{ name: 'main', image: 'trainer:2' }], schedulerName: 'kai-scheduler' };
    const result = checked(seed, wm.editPodSpec(jobset, seed, { component: 'replicatedjob', instance: 'workers', merge }));
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(result.patch, [
      { op: 'replace', path: '/spec/replicatedJobs/1/template/spec/template/spec/containers/0/image', value: 'trainer:2' },
      { op: 'remove', path: '/spec/replicatedJobs/1/template/spec/template/spec/containers/0/resources' },
      { op: 'add', path: '/spec/replicatedJobs/1/template/spec/template/spec/schedulerName', value: 'kai-scheduler' },
    ]);
  });

  test('a_refused_edit_returns_the_input_and_a_located_diagnostic', () => {
    const definition = [
      'apiVersion: run.ai/v1alpha1',
      'kind: Karta',
      'metadata: {name: computed}',
      'spec:',
      '  structureDefinition:',
      '    rootComponent:',
      '      name: app',
      '      kind: {group: example.com, version: v1, kind: App}',
      '      suspendDefinition:',
      "        suspendActions: [{path: '.spec.suspend // false', value: 'true'}]",
      "        resumeActions: [{path: .spec.suspend, value: 'false'}]",
      '      statusDefinition: {statusMappings: {running: [{byPhase: Running}]}}',
      '',
    ].join('\n');
    const object = { apiVersion: 'example.com/v1', kind: 'App', metadata: { name: 'a' }, spec: {} };
    const result = checked(object, wm.suspend(definition, object));
    assert.deepEqual(result.object, object);
    assert.deepEqual(result.patch, []);
    const [d] = result.diagnostics;
    assert.equal(d.code, 'definition/path-not-writable');
    assert.equal(d.severity, 'error');
    assert.equal(d.source, 'definition');
    assert.equal(d.line, 10);
    assert.ok(wm.validate(definition).diagnostics.some((v) => v.code === 'definition/path-not-writable' && v.severity === 'warning'));
  });

  test('a_structure_change_is_refused', () => {
    // The catalog's KServe transformer keeps minReplicas inside its pod spec: a merge patch
    // can reach the replicas, and must be refused.
    const merge = { containers: [{ name: 'main', image: 'trainer:1' }] };
    const kserve = wm.catalog.find('serving.kserve.io/v1beta1', 'InferenceService').text;
    const isvc = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'm' },
      spec: { predictor: { model: { modelFormat: { name: 'sklearn' } } }, transformer: { minReplicas: 1, ...merge } },
    };
    const result = checked(isvc, wm.editPodSpec(kserve, isvc, { component: 'transformer', merge: { minReplicas: 2 } }));
    assert.deepEqual(codes(result), ['edit/structure-changed']);
    assert.deepEqual(result.patch, []);
  });

  test('misuse_throws_a_type_error_and_an_unreadable_object_is_a_diagnostic', () => {
    assert.throws(() => wm.editPodSpec(jobset, seed, { merge: {} }), TypeError);
    assert.throws(() => wm.editPodSpec(jobset, seed, { component: 'replicatedjob' }), TypeError);
    assert.throws(() => wm.editPodSpec(jobset, seed, 'replicatedjob'), TypeError);
    assert.throws(() => wm.suspend(jobset, 42), TypeError);
    const unreadable = wm.suspend(jobset, 'kind: [');
    assert.equal(unreadable.object, null);
    assert.deepEqual(unreadable.patch, []);
    assert.equal(unreadable.diagnostics[0].source, 'object');
  });
});

describe('web entry', () => {
  test('edits_before_init_name_the_fix_and_work_after_it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'workload-map-edit-web-'));
    try {
      for (const file of ['web.mjs', 'web-core.mjs', 'workload_map.web.mjs', 'workload_map_cel.web.mjs'])
        copyFileSync(path.join(root, 'pkg', file), path.join(dir, file));
      const web = await import(pathToFileURL(path.join(dir, 'web.mjs')).href);
      const options = { component: 'replicatedjob', merge: {} };
      for (const call of [() => web.suspend(jobset, seed), () => web.resume(jobset, seed), () => web.editPodSpec(jobset, seed, options)]) {
        assert.throws(call, /await init\(\)/);
      }
      await web.init(readFileSync(path.join(root, 'pkg', 'workload_map_bg.wasm')));
      assert.deepEqual(web.suspend(jobset, seed).patch, [{ op: 'add', path: '/spec/suspend', value: true }]);
      const definition = new web.Definition(jobset);
      assert.deepEqual(web.resume(definition, seed).patch, [{ op: 'add', path: '/spec/suspend', value: false }]);
      assert.deepEqual(codes(web.editPodSpec(definition, seed, options)), ['edit/no-change']);
      definition.free();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('cli', () => {
  test('suspend_prints_the_json_patch_for_kubectl', () => {
    const { code, stdout, stderr } = cli(['suspend', '-f', fixturePath('seed-jobset.yaml')]);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    assert.equal(stdout, '[{"op":"add","path":"/spec/suspend","value":true}]\n');
  });

  test('resume_with_yaml_output_prints_the_edited_object', () => {
    const suspended = cli(['suspend', '-f', '-', '-o', 'yaml'], { input: seedText });
    assert.equal(suspended.code, 0, suspended.stderr);
    assert.match(suspended.stdout, /^ {2}suspend: true$/m);
    const resumed = cli(['resume', '-f', '-'], { input: suspended.stdout });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout, '[{"op":"replace","path":"/spec/suspend","value":false}]\n');
  });

  test('edit_writes_one_instance_and_refusals_exit_1', () => {
    const merge = '{"schedulerName":"kai-scheduler"}';
    const ok = cli(['edit', '-f', fixturePath('seed-jobset.yaml'), '--component', 'replicatedjob', '--instance', 'leader', '--merge', merge]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout), [{ op: 'add', path: '/spec/replicatedJobs/0/template/spec/template/spec/schedulerName', value: 'kai-scheduler' }]);
    const refused = cli(['edit', '-f', fixturePath('seed-jobset.yaml'), '--component', 'replicatedjob', '--instance', 'nope', '--merge', merge]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /error edit\/unknown-instance: .*nope/);
    assert.match(refused.stderr, /help: instances: leader, workers/);
  });

  test('edit_usage_errors_exit_2', () => {
    const badMerge = cli(['edit', '-f', fixturePath('seed-jobset.yaml'), '--component', 'replicatedjob', '--merge', '{']);
    assert.equal(badMerge.code, 2);
    assert.match(badMerge.stderr, /--merge is not JSON/);
    const noComponent = cli(['edit', '-f', fixturePath('seed-jobset.yaml'), '--merge', '{}']);
    assert.equal(noComponent.code, 2);
    const two = cli(['suspend', '-f', fixturePath('two-jobsets.yaml')]);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /one object/);
    const help = cli(['edit', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--merge JSON/);
    assert.match(cli(['resume', '--help']).stdout, /resumeActions/);
  });

  test('readme_suspend_example_shows_the_real_patch', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const shown = /workload-map suspend -f jobset\.yaml +# a JSON Patch: (\[.*\])$/m.exec(readme);
    assert.ok(shown, 'README shows the suspend patch');
    assert.equal(cli(['suspend', '-f', fixturePath('seed-jobset.yaml')]).stdout, `${shown[1]}\n`);
  });
});

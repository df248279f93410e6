// CEL is a second WebAssembly module (pkg/workload_map_cel_bg.wasm), loaded the first time a
// definition holds a CEL expression: synchronously in Node and in the inline entry. This file
// runs in a process of its own (node --test), so what it observes of the module's loading is
// its own: first only jq definitions, then CEL. tests/node/expr-limits.test.mjs runs CEL's
// limits and budgets through the same path.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

import { Definition, catalog, loadCel, needsCel, resolve, resolveAll, validate } from 'workload-map';

import { fixture, root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const nodeHooks = require(path.join(root, 'pkg', 'test-hooks.cjs'));

const OBJECT = { apiVersion: 'example.com/v1', kind: 'W', metadata: { name: 'w' }, status: { failed: [1], ready: 2 } };

/** A definition whose phases are matched by `expressions` (running, failed), in `language`. */
function definitionText(language, running, failed) {
  const matcher = (expression) => `
              - byExpression:
                  expression: ${JSON.stringify(expression)}
                  expectedResult: "true"
                  language: ${language}`;
  return `apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: cel-test
spec:
  structureDefinition:
    rootComponent:
      name: w
      kind: {group: example.com, version: v1, kind: W}
      statusDefinition:
        statusMappings:
          running:${matcher(running)}
          failed:${matcher(failed)}
`;
}

test('jq_only_definitions_never_load_the_cel_module', () => {
  assert.equal(nodeHooks.__celForTests().loaded, false);
  const jq = definitionText('jq', '.status.ready > 1', '(.status.failed | length) > 0');
  assert.equal(needsCel(jq), false);
  assert.equal(needsCel(fixture('jobset-definition.yaml')), false);
  assert.deepEqual(resolve(jq, OBJECT).phases, ['Running', 'Failed']);
  assert.equal(resolve(fixture('jobset-definition.yaml'), fixture('seed-jobset.yaml')).resources.gpus, 12);
  assert.equal(validate(jq).valid, true);
  resolveAll(fixture('seed-jobset.yaml'), { catalog: true });
  for (const entry of catalog.list()) assert.equal(needsCel(catalog.get(entry.name).text), false, entry.name);
  assert.equal(nodeHooks.__celForTests().loaded, false, 'no jq definition and no catalog entry loads the CEL module');
});

test('a_cel_definition_loads_the_cel_module_on_first_need_and_resolves_as_before', () => {
  const text = definitionText('cel', 'object.status.ready > 1', 'size(object.status.failed) > 0');
  assert.equal(needsCel(text), true);
  assert.equal(needsCel(JSON.parse(JSON.stringify({ spec: {} }))), false);
  assert.equal(nodeHooks.__celForTests().loaded, false);
  const definition = new Definition(text);
  assert.equal(nodeHooks.__celForTests().loaded, true, 'compiling the first CEL definition loaded the module');
  assert.deepEqual(
    definition.diagnostics.map((d) => d.code),
    ['definition/cel-not-portable', 'definition/cel-not-portable'],
  );
  const view = definition.resolve(OBJECT);
  assert.deepEqual(view.phases, ['Running', 'Failed']);
  assert.deepEqual(resolve(text, { ...OBJECT, status: { failed: [], ready: 0 } }).phases, ['Undefined']);
  // Errors keep the built-in engine's codes, messages and positions.
  const broken = definitionText('cel', 'object.status.ready >', 'object.status.nope.deeper');
  const compiled = new Definition(broken);
  const syntax = compiled.diagnostics.find((d) => d.code === 'expr/syntax');
  assert.ok(syntax, JSON.stringify(compiled.diagnostics));
  assert.match(syntax.path, /running\[0\]\.byExpression\.expression$/);
  assert.equal(syntax.line, 14, 'on the expression');
  const runtime = compiled.resolve(OBJECT).diagnostics.find((d) => d.code === 'expr/runtime-error');
  assert.ok(runtime, 'a CEL runtime error is reported');
  assert.match(runtime.message, /nope|No such key/i);
  // Every program and document handed to the CEL module is freed with its definition.
  definition.free();
  compiled.free();
  assert.deepEqual(nodeHooks.__celForTests().held, [0, 0]);
});

test('load_cel_resolves_in_node_where_the_module_loads_by_itself', async () => {
  await loadCel();
  assert.equal(nodeHooks.__celForTests().loaded, true);
});

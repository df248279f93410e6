// `workload-map validate -o sarif`: valid SARIF 2.1.0 (the OASIS schema, as shipped in
// @microsoft/jest-sarif), with what GitHub code scanning requires and every rule documented;
// `-o codequality`: the fields GitLab's code quality report reads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';

import { cli, fixturePath, root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const Ajv = require('ajv-draft-04');
const addFormats = require('ajv-formats');

// The schema's language-tag pattern is not valid with the `u` flag; everything else is checked.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validateSarif = ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));

const folder = 'tests/node/fixtures/definitions';
const inputs = [folder, fixturePath('invalid-definition.yaml'), fixturePath('not-yaml.yaml'), fixturePath('nope.yaml')];
const run = cli(['validate', '-o', 'sarif', ...inputs]);
const log = JSON.parse(run.stdout);
const [sarifRun] = log.runs;

/** The anchors GitHub gives the headings of docs/diagnostics.md. */
const headings = [...readFileSync(path.join(root, 'docs', 'diagnostics.md'), 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) =>
  m[1]
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-'),
);
const anchors = new Set(headings);

describe('sarif', () => {
  test('exit_code_is_that_of_the_worst_input', () => {
    assert.equal(run.code, 2, run.stderr);
  });

  test('output_is_valid_against_the_sarif_2_1_0_schema', () => {
    assert.ok(validateSarif(log), ajv.errorsText(validateSarif.errors, { separator: '\n' }));
    assert.equal(log.version, '2.1.0');
  });

  test('a_log_without_problems_is_valid_too', () => {
    const clean = JSON.parse(cli(['validate', '-o', 'sarif', fixturePath('jobset-definition.yaml')]).stdout);
    assert.ok(validateSarif(clean), ajv.errorsText(validateSarif.errors));
    assert.deepEqual(clean.runs[0].results, []);
    assert.equal(clean.runs[0].invocations[0].executionSuccessful, true);
  });

  test('results_have_what_github_code_scanning_requires', () => {
    assert.equal(sarifRun.tool.driver.name, 'workload-map');
    const ruleIds = sarifRun.tool.driver.rules.map((r) => r.id);
    assert.ok(sarifRun.results.length >= 4);
    for (const result of sarifRun.results) {
      assert.ok(ruleIds.includes(result.ruleId), result.ruleId);
      assert.equal(sarifRun.tool.driver.rules[result.ruleIndex].id, result.ruleId);
      assert.ok(result.message.text.length > 0);
      assert.ok(['error', 'warning', 'note'].includes(result.level));
      const { artifactLocation, region } = result.locations[0].physicalLocation;
      // Relative to the checkout (the working folder), with forward slashes and no scheme.
      assert.match(artifactLocation.uri, /^(?![a-z]+:|\/)[^\\]+$/, artifactLocation.uri);
      assert.equal(artifactLocation.uriBaseId, '%SRCROOT%');
      assert.ok(Number.isInteger(region.startLine) && region.startLine >= 1);
      if (region.endLine !== undefined) assert.ok(region.endLine >= region.startLine);
    }
    assert.match(sarifRun.originalUriBaseIds['%SRCROOT%'].uri, /^file:\/\/.*\/$/);
  });

  test('results_point_into_the_files_with_their_hints', () => {
    const at = (uri, ruleId) => sarifRun.results.find((r) => r.locations[0].physicalLocation.artifactLocation.uri === uri && r.ruleId === ruleId);
    const typo = at(`${folder}/typo.yaml`, 'definition/unknown-field');
    assert.deepEqual(typo.locations[0].physicalLocation.region, { startLine: 31, startColumn: 9, endLine: 31, endColumn: 20 });
    assert.equal(typo.level, 'warning');
    assert.match(typo.message.text, /\nhelp: did you mean "replicasPath"\?$/);
    assert.equal(at(`${folder}/stream.yaml`, 'expr/forbidden').locations[0].physicalLocation.region.startLine, 27);
    assert.equal(at('tests/node/fixtures/not-yaml.yaml', 'syntax/invalid').level, 'error');
  });

  test('every_section_of_the_diagnostics_doc_has_its_own_anchor', () => {
    assert.equal(anchors.size, headings.length, 'GitHub numbers repeated anchors (-1), which would break the links');
  });

  test('every_rule_is_documented_with_a_link_to_its_section', () => {
    assert.deepEqual(sarifRun.tool.driver.rules.map((r) => r.id).sort(), ['definition/unknown-field', 'expr/forbidden', 'syntax/invalid']);
    for (const rule of sarifRun.tool.driver.rules) {
      assert.ok(rule.shortDescription.text.length > 0, rule.id);
      assert.ok(rule.fullDescription.text.length > rule.shortDescription.text.length, rule.id);
      assert.ok(rule.help.text.includes(rule.fullDescription.text), rule.id);
      assert.ok(rule.help.markdown.includes(rule.helpUri), rule.id);
      const [page, anchor] = rule.helpUri.split('#');
      assert.match(page, /^https:\/\/github\.com\/workload-map\/workload-map\/blob\/main\/docs\/diagnostics\.md$/);
      assert.ok(anchors.has(anchor), `${rule.id}: no heading for #${anchor} in docs/diagnostics.md`);
    }
  });

  test('an_unreadable_file_is_a_tool_execution_notification_with_its_uri', () => {
    const [invocation] = sarifRun.invocations;
    assert.equal(invocation.executionSuccessful, false);
    const [notification] = invocation.toolExecutionNotifications;
    assert.equal(notification.level, 'error');
    assert.match(notification.message.text, /cannot read .*nope\.yaml: no such file/);
    assert.deepEqual(notification.locations[0].physicalLocation.artifactLocation, { uri: 'tests/node/fixtures/nope.yaml', uriBaseId: '%SRCROOT%' });
  });

  test('a_file_outside_the_working_folder_is_an_absolute_file_uri', () => {
    const outside = path.resolve(root, '..', 'elsewhere', 'definition.yaml');
    const notification = JSON.parse(cli(['validate', '-o', 'sarif', outside]).stdout).runs[0].invocations[0].toolExecutionNotifications[0];
    assert.match(notification.locations[0].physicalLocation.artifactLocation.uri, /^file:\/\/\/.*\/elsewhere\/definition\.yaml$/);
  });
});

describe('gitlab code quality', () => {
  const report = JSON.parse(cli(['validate', '-o', 'codequality', ...inputs]).stdout);
  const SEVERITIES = ['info', 'minor', 'major', 'critical', 'blocker'];

  test('every_issue_has_the_fields_gitlab_reads', () => {
    assert.ok(report.length >= 5);
    for (const issue of report) {
      assert.equal(typeof issue.description, 'string');
      assert.equal(typeof issue.check_name, 'string');
      assert.match(issue.fingerprint, /^[0-9a-f]{64}$/);
      assert.ok(SEVERITIES.includes(issue.severity), issue.severity);
      assert.match(issue.location.path, /^(?!\/)[^\\]+$/);
      assert.ok(Number.isInteger(issue.location.lines.begin) && issue.location.lines.begin >= 1);
    }
    assert.equal(new Set(report.map((i) => i.fingerprint)).size, report.length, 'fingerprints are unique');
  });

  test('issues_are_located_with_their_hints_and_unreadable_files_block', () => {
    const typo = report.find((i) => i.location.path === `${folder}/typo.yaml`);
    assert.deepEqual([typo.check_name, typo.severity, typo.location.lines.begin], ['definition/unknown-field', 'minor', 31]);
    assert.match(typo.description, /\(help: did you mean "replicasPath"\?\)$/);
    assert.equal(report.find((i) => i.check_name === 'expr/forbidden' && i.location.path === `${folder}/stream.yaml`).severity, 'major');
    const unreadable = report.find((i) => i.check_name === 'unreadable');
    assert.deepEqual([unreadable.severity, unreadable.location.path], ['blocker', 'tests/node/fixtures/nope.yaml']);
  });
});

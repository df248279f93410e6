// `workload-map draft`: a starting definition drafted by the core from one object, or (with --crd,
// draft-schema.mjs) from the type's API schema.

import { loadApi, parse, print, printError } from '../command.mjs';
import { CliError, EXIT_OK } from '../errors.mjs';
import { displayName, readInput } from '../inputs.mjs';
import { draftFromSchemaCommand } from './draft-schema.mjs';

export const HELP = `Draft a starting definition from one workload object, or from the type's API schema.

Usage:
  workload-map draft -f FILE|-
  workload-map draft --crd FILE|DIR|- [--kind KIND] [--version V] [-f FILE]

Reads one object (any type, YAML or JSON) and prints a commented definition: pod templates
found wherever they live become components (lists and maps of role specs become instances),
replica counts come from the fields next to them, and the status definition from what the
object's status shows. Every guess has a comment saying what it saw. Problems go to stderr.

With --crd, the draft comes from the schema alone (a CustomResourceDefinition or a Kubernetes
OpenAPI v3 document, .gz too): every pod template it describes becomes a component, lists and
maps of them instances (ids from name or the map key), integer replica fields beside a template
the replica paths, documented condition types condition matchers, a spec.suspend boolean
suspend and resume actions. With -f too, the object's values are laid over the schema's.

Options:
  -f, --file FILE    The object ("-" reads standard input); the first object when FILE holds several
      --crd FILE     The API schema: a file, a folder or -; repeatable
      --kind KIND    With --crd: the type to draft when the schemas describe several
      --version V    With --crd: the version (default: the storage version)
  -h, --help         Show this help

Exit codes: 0 drafted, 2 usage error or unreadable/unparsable input.
`;

export const OPTIONS = {
  file: { type: 'string', valueName: 'FILE', short: 'f', description: 'The object (- for standard input)' },
  crd: { type: 'string', valueName: 'FILE', multiple: true, description: 'Draft from the API schema: a CRD or OpenAPI v3 file (.gz too), a folder, or -' },
  kind: { type: 'string', valueName: 'KIND', description: 'With --crd: the type to draft' },
  version: { type: 'string', valueName: 'V', description: 'With --crd: the version (default: the storage version)' },
};

export async function run(args) {
  const { values, positionals } = parse(args, OPTIONS, 'draft');
  if (values.help) return print(HELP, EXIT_OK);
  if (positionals.length > 0)
    throw new CliError(`draft reads the object from -f FILE, not from arguments ("${positionals[0]}")\nRun "workload-map draft --help" for usage.`);
  if (values.crd) return draftFromSchemaCommand(await loadApi(), values);
  if (!values.file) throw new CliError('draft needs -f FILE (or -f - for standard input)\nRun "workload-map draft --help" for usage.');
  const api = await loadApi();
  if (typeof api.draft !== 'function') throw new CliError('this build of the package has no draft(): run `npm run build`');
  const file = displayName(values.file);
  const parsed = api.parseObjects(readInput(values.file));
  const problem = parsed.diagnostics.find((d) => d.severity === 'error');
  if (problem) throw new CliError(`${file}${problem.line ? `:${problem.line}:${problem.column}` : ''}: ${problem.message}`);
  if (parsed.objects.length === 0) throw new CliError(`${file} holds no object`);
  if (parsed.objects.length > 1) printError(`note: ${file} holds ${parsed.objects.length} objects; drafting from the first`);
  const result = api.draft(parsed.objects[0]);
  for (const d of result.diagnostics) {
    const where = d.source === 'object' ? file : 'draft';
    printError(`${where}${d.line ? `:${d.line}:${d.column}` : ''}: ${d.severity} ${d.code}: ${d.message}`);
  }
  return print(result.text, EXIT_OK);
}

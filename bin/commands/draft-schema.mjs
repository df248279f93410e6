// `workload-map draft --crd FILE|DIR|- [--kind KIND] [--version V] [-f FILE]`: a starting
// definition from the type's API schema (and an object of it, when given).

import { print, printError } from '../command.mjs';
import { CliError, EXIT_OK } from '../errors.mjs';
import { displayName, readInput } from '../inputs.mjs';
import { readSchemas } from '../schemas.mjs';

export function draftFromSchemaCommand(api, values) {
  if (typeof api.draftFromSchema !== 'function') throw new CliError('this build of the package has no draftFromSchema(): run `npm run build`');
  if (values.crd.includes('-') && values.file === '-') throw new CliError('standard input (-) can hold the object or the --crd schemas, not both');
  const schemas = readSchemas(values.crd, (name, error) => {
    throw new CliError(error.message === name ? `cannot read ${name}` : error.message);
  });
  let object;
  if (values.file) {
    const file = displayName(values.file);
    const parsed = api.parseObjects(readInput(values.file));
    const problem = parsed.diagnostics.find((d) => d.severity === 'error');
    if (problem) throw new CliError(`${file}${problem.line ? `:${problem.line}:${problem.column}` : ''}: ${problem.message}`);
    if (parsed.objects.length === 0) throw new CliError(`${file} holds no object`);
    object = parsed.objects[0];
  }
  const result = api.draftFromSchema(schemas, { kind: values.kind, version: values.version, object });
  if (!result.text) {
    const why = result.diagnostics.map((d) => d.message).join('\n');
    throw new CliError(why || 'nothing could be drafted from the schemas given');
  }
  for (const d of result.diagnostics) {
    const where = d.source === 'definition' ? 'draft' : d.source;
    printError(`${where}${d.line ? `:${d.line}:${d.column}` : ''}: ${d.severity} ${d.code}: ${d.message}`);
  }
  return print(result.text, EXIT_OK);
}

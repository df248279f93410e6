// What the edit commands (suspend, resume, edit) share: reading the one object and the
// definition that covers it, printing the change, their options and output help.

import { CatalogDefinitions } from './catalog-definitions.mjs';
import { loadApi, outputFormat, parse, print, printError } from './command.mjs';
import { CliError, EXIT_INVALID, EXIT_NO_DEFINITION, EXIT_OK } from './errors.mjs';
import { givenFor, readDefinitions } from './given-definitions.mjs';
import { displayName, readInput } from './inputs.mjs';
import { toYaml } from './yaml.mjs';

export const EDIT_OUTPUT = `Output:
  -o json (default)  the RFC 6902 JSON Patch, ready for
                     kubectl patch TYPE NAME --type json -p "$(workload-map ...)"
  -o yaml            the edited object`;

export const EDIT_OPTIONS = {
  file: { type: 'string', valueName: 'FILE', short: 'f', description: 'The manifest (- for standard input)' },
  definition: { type: 'string', valueName: 'FILE', short: 'd', description: 'Use this definition instead of the catalog' },
  output: { type: 'string', short: 'o', values: ['json', 'yaml'], description: 'Output format' },
};

/** Reads the one object of -f FILE and the definition that covers it, for an edit command. */
export async function editInput(values, command) {
  if (!values.file) throw new CliError(`${command} needs -f FILE (or -f - for standard input)\nRun "workload-map ${command} --help" for usage.`);
  const api = await loadApi();
  const file = displayName(values.file);
  const parsed = api.parseObjects(readInput(values.file));
  const problem = parsed.diagnostics.find((d) => d.severity === 'error');
  if (problem) throw new CliError(`${file}${problem.line ? `:${problem.line}:${problem.column}` : ''}: ${problem.message}`);
  if (parsed.objects.length !== 1) throw new CliError(`${command} edits one object, but ${file} holds ${parsed.objects.length}`);
  const object = parsed.objects[0];
  if (values.definition) {
    const given = readDefinitions(api, values.definition);
    const chosen = givenFor(given, object);
    for (const other of given) if (other !== chosen) other.definition.free();
    if (!chosen) {
      const type = `${object.kind ?? '<no kind>'} (${object.apiVersion ?? '<no apiVersion>'})`;
      throw new CliError(`no definition in ${displayName(values.definition)} covers ${type}`, EXIT_NO_DEFINITION);
    }
    return { api, object, definition: chosen.definition };
  }
  // One object: the catalog's definition is compiled once, and belongs to the caller.
  const found = new CatalogDefinitions(api).find(object);
  if (!found) {
    const type = `${object.kind ?? '<no kind>'} (${object.apiVersion ?? '<no apiVersion>'})`;
    throw new CliError(`no definition covers ${type}; "workload-map definitions" lists what is available, or pass --definition FILE`, EXIT_NO_DEFINITION);
  }
  if (found.origin.note) printError(`note: ${found.origin.note}`);
  return { api, object, definition: found.definition };
}

/** Prints an edit's result: the patch (json) or the object (yaml); diagnostics on stderr. */
export function printEdit(result, format) {
  for (const d of result.diagnostics) {
    printError(`${d.severity} ${d.code}: ${d.message}${d.path ? ` (at ${d.path})` : ''}${d.help ? `\n  help: ${d.help}` : ''}`);
  }
  if (result.diagnostics.some((d) => d.severity === 'error')) return EXIT_INVALID;
  print(format === 'yaml' ? toYaml(result.object) : JSON.stringify(result.patch));
  return EXIT_OK;
}

/** suspend and resume: the definition's actions on the one object. */
export async function actionCommand(args, command, help) {
  const { values, positionals } = parse(args, EDIT_OPTIONS, command);
  if (values.help) return print(help, EXIT_OK);
  const format = outputFormat(values.output ?? 'json', ['json', 'yaml'], command);
  if (positionals.length > 0) throw new CliError(`${command} reads the manifest from -f FILE, not from arguments ("${positionals[0]}")`);
  const { object, definition } = await editInput(values, command);
  const result = command === 'suspend' ? definition.suspend(object) : definition.resume(object);
  definition.free();
  return printEdit(result, format);
}

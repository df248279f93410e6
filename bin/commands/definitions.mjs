// `workload-map definitions`: the embedded catalog, listed or one entry printed.

import { loadApi, outputFormat, parse, print } from '../command.mjs';
import { CliError, EXIT_OK } from '../errors.mjs';
import { table } from '../table.mjs';
import { toYaml } from '../yaml.mjs';

export const HELP = `List the definitions in the embedded catalog.

Usage:
  workload-map definitions [NAME] [-o text|json|yaml] [--no-headers]

Without NAME: one row per definition (name, apiVersion, kind, components).
With NAME: that definition (text and yaml print its YAML, ready for "workload-map validate -").

Options:
  -o, --output FORMAT  text (default), json or yaml
      --no-headers     Leave out the header row of the table
  -h, --help           Show this help
`;

export const OPTIONS = {
  output: { type: 'string', short: 'o', values: ['text', 'json', 'yaml'], description: 'Output format' },
  'no-headers': { type: 'boolean', description: 'No header row in the table' },
};

export async function run(args) {
  const { values, positionals } = parse(args, OPTIONS, 'definitions');
  if (values.help) return print(HELP, EXIT_OK);
  const format = outputFormat(values.output, ['text', 'json', 'yaml'], 'definitions');
  if (positionals.length > 1) throw new CliError('definitions takes at most one NAME');
  const api = await loadApi();
  if (positionals.length === 1) {
    const entry = api.catalog.get(positionals[0]);
    if (!entry) throw new CliError(`no definition named "${positionals[0]}". Run "workload-map definitions" to see what is available`);
    if (format === 'json') print(JSON.stringify(entry, null, 2));
    else print(entry.text.trimEnd());
    return EXIT_OK;
  }
  const entries = api.catalog.list();
  if (format === 'json') return print(JSON.stringify({ items: entries, count: entries.length }, null, 2), EXIT_OK);
  if (format === 'yaml') return print(toYaml({ items: entries, count: entries.length }), EXIT_OK);
  if (entries.length === 0) return print('No definitions in the catalog.', EXIT_OK);
  const rows = [['NAME', 'APIVERSION', 'KIND', 'COMPONENTS']];
  for (const e of entries) rows.push([e.name, e.apiVersion, e.kind || '<none>', e.components.join(', ')]);
  print(table(values['no-headers'] ? rows.slice(1) : rows).join('\n'));
  return EXIT_OK;
}

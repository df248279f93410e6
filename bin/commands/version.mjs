// `workload-map version` (and --version): the versions of the package, the engine and its catalog.

import { readFileSync } from 'node:fs';

import { loadApi, outputFormat, parse, print } from '../command.mjs';
import { CliError, EXIT_OK } from '../errors.mjs';

export const HELP = `Print the versions of the package, the engine and its catalog.

Usage:
  workload-map version [-o text|json]
  workload-map --version

The catalog is built into the engine: its version is the engine's, and the line says how many
definitions it holds.

Options:
  -o, --output FORMAT  text (default) or json
  -h, --help           Show this help
`;

export const OPTIONS = { output: { type: 'string', short: 'o', values: ['text', 'json'], description: 'Output format' } };

function packageVersion() {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

export async function run(args) {
  const { values, positionals } = parse(args, OPTIONS, 'version');
  if (values.help) return print(HELP, EXIT_OK);
  const format = outputFormat(values.output, OPTIONS.output.values, 'version');
  if (positionals.length > 0) throw new CliError(`version takes no arguments ("${positionals[0]}")`);
  const api = await loadApi();
  const versions = {
    package: packageVersion(),
    engine: api.version,
    catalog: { version: api.version, definitions: api.catalog.list().length },
    node: process.versions.node,
  };
  if (format === 'json') return print(JSON.stringify(versions, null, 2), EXIT_OK);
  return print(
    [
      `workload-map ${versions.package ?? api.version}`,
      `engine:  ${versions.engine} (WebAssembly)`,
      `catalog: ${versions.catalog.version} (${versions.catalog.definitions} definitions, built into the engine)`,
      `node:    ${versions.node}`,
    ].join('\n'),
    EXIT_OK,
  );
}

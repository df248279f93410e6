// What every command uses: the package, its arguments, its output.

import { ArgumentError, parseArguments } from './args.mjs';
import { CliError } from './errors.mjs';

export async function loadApi() {
  try {
    return await import('workload-map');
  } catch (error) {
    if (error && (error.code === 'ERR_MODULE_NOT_FOUND' || error.code === 'MODULE_NOT_FOUND')) {
      throw new CliError('the package is not built (pkg/ is missing): run `npm run build`');
    }
    throw error;
  }
}

/** `{ values, positionals }` of a command's arguments (see args.mjs); a usage error otherwise. */
export function parse(args, options, command) {
  try {
    return parseArguments(args, options);
  } catch (error) {
    if (!(error instanceof ArgumentError)) throw error;
    throw new CliError(`${command}: ${error.message}\nRun "workload-map ${command} --help" for usage.`);
  }
}

export function outputFormat(value, allowed, command) {
  const format = value ?? 'text';
  if (!allowed.includes(format)) {
    throw new CliError(`unknown output format "${format}" for ${command}: use ${allowed.join(', ')}`);
  }
  return format;
}

export function print(text, exitCode) {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  return exitCode;
}

export function printError(text) {
  process.stderr.write(`${text}\n`);
}

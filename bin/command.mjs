// What every command uses: the package, its arguments, its output.

import { ArgumentError, parseArguments } from './args.mjs';
import { CliError } from './errors.mjs';
import { escapeTerminal } from './terminal.mjs';

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

/**
 * Writes a message to standard error, every line with its control characters escaped
 * (escapeTerminal): messages quote file names and input, and stderr is a terminal too. A
 * message is never coloured.
 */
export function printError(text) {
  process.stderr.write(`${text.split('\n').map(escapeTerminal).join('\n')}\n`);
}

/**
 * Ends the process quietly when the reader of its output goes away (`workload-map ... | head
 * -1`), as Unix tools do, instead of Node's "Unhandled 'error' event" and a stack trace. The
 * exit code is the command's, or 0 when it has not finished.
 */
export function exitQuietlyWhenOutputCloses() {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(process.exitCode ?? 0);
    });
  }
}

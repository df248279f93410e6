#!/usr/bin/env node
// The `workload-map` command line: validate definitions, describe workloads from manifests,
// list the embedded catalog, edit and draft. All logic lives in the package (the wasm core);
// each command (bin/commands/) reads files, parses its arguments (node:util parseArgs, through
// command.mjs) and formats output. This file is the main help and the dispatch. Errors are
// messages, never stack traces.
//
// Exit codes: 0 ok; 1 invalid definition / the view has errors; 2 usage error or unreadable or
// unparsable input; 3 not found in the cluster; 4 no definition covers the object's type; 5 no
// cluster configured, unreachable, or the credentials refused.

import { exitQuietlyWhenOutputCloses, loadApi, parse, print, printError } from './command.mjs';
import * as completion from './commands/completion.mjs';
import * as definitions from './commands/definitions.mjs';
import * as describe from './commands/describe.mjs';
import * as draft from './commands/draft.mjs';
import * as edit from './commands/edit.mjs';
import * as get from './commands/get.mjs';
import * as exporter from './commands/exporter.mjs';
import * as resume from './commands/resume.mjs';
import * as suspend from './commands/suspend.mjs';
import { TEST_HELP, TEST_OPTIONS, testCommand } from './commands/test.mjs';
import { VALIDATE_HELP, VALIDATE_OPTIONS, validateCommand } from './commands/validate.mjs';
import * as version from './commands/version.mjs';
import { CliError, EXIT_INVALID, EXIT_OK, EXIT_USAGE } from './errors.mjs';
import { decodeText } from './inputs.mjs';

const HELP = `workload-map: read Kubernetes workloads through declarative definitions

Usage:
  workload-map <command> [options]

Commands:
  validate      Check definition files
  get           List the workloads of a cluster: phase, GPUs, ready pods
  describe      Resolve a workload manifest or a workload of a cluster: role tree, phases, resources
  definitions   List the definitions in the embedded catalog (--cluster: in effect on a cluster)
  suspend       Suspend a workload through its definition's suspendActions (a JSON Patch)
  resume        Resume a workload through its definition's resumeActions (a JSON Patch)
  edit          Merge-patch one component's pod spec through the definition's paths
  draft         Draft a starting definition from one object
  version       Print the versions of the package, the engine and its catalog
  completion    Print a completion script for bash, zsh or fish
  test          Run definition test folders (definition.yaml + tests/*.yaml)
  exporter      Serve a cluster's workloads as Prometheus metrics

Options:
  -h, --help     Show help (also after a command: workload-map describe --help)
  -V, --version  Print the versions (as the version command)

Colour: on a terminal; NO_COLOR=1 turns it off, FORCE_COLOR=1 on (e.g. in CI logs).

A cluster is read as kubectl reads it: --kubeconfig, KUBECONFIG, ~/.kube/config, or the pod's
service account; --context and -n choose the context and namespace. As a kubectl plugin
(kubectl-workload_map on PATH): kubectl workload-map get -A.

Exit codes: 0 ok, 1 invalid or the view has errors, 2 usage error or unreadable input,
3 not found in the cluster, 4 no definition covers the object's type, 5 no cluster configured,
the cluster unreachable, or the credentials refused.
`;

/**
 * The commands, in the order the main help lists them: each its help, its options (what it
 * parses and what completion scripts offer) and what runs it.
 *
 * @type {Record<string, {help: string, options: object, run: (args: string[]) => Promise<number> | number}>}
 */
const COMMANDS = {
  validate: { help: VALIDATE_HELP, options: VALIDATE_OPTIONS, run: validateCommand },
  get: { help: get.HELP, options: get.OPTIONS, run: get.run },
  describe: { help: describe.HELP, options: describe.OPTIONS, run: describe.run },
  definitions: { help: definitions.HELP, options: definitions.OPTIONS, run: definitions.run },
  suspend: { help: suspend.HELP, options: suspend.OPTIONS, run: suspend.run },
  resume: { help: resume.HELP, options: resume.OPTIONS, run: resume.run },
  edit: { help: edit.HELP, options: edit.OPTIONS, run: edit.run },
  draft: { help: draft.HELP, options: draft.OPTIONS, run: draft.run },
  version: { help: version.HELP, options: version.OPTIONS, run: version.run },
  completion: { help: completion.HELP, options: completion.OPTIONS, run: (args) => completion.run(args, { commands: COMMANDS, mainHelp: HELP }) },
  // `test` gets what it shares with the other commands.
  test: { help: TEST_HELP, options: TEST_OPTIONS, run: (args) => testCommand(args, { loadApi, parse, decodeText, CliError, print, printError }) },
  exporter: { help: exporter.HELP, options: exporter.OPTIONS, run: exporter.run },
};

/** The command the user named; own keys only, so `constructor` is not a command. */
function commandNamed(name) {
  if (Object.hasOwn(COMMANDS, name)) return COMMANDS[name];
  const close = name.length >= 3 ? Object.keys(COMMANDS).find((known) => known.startsWith(name.slice(0, 3))) : undefined;
  throw new CliError(
    `unknown command "${name}"${close ? `; did you mean "${close}"?` : ''}\n` +
      `Commands: ${Object.keys(COMMANDS).join(', ')}. Run "workload-map --help" for usage.`,
  );
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    if (command === 'help' && rest.length > 0) return print(commandNamed(rest[0]).help, EXIT_OK);
    return print(HELP, command === undefined ? EXIT_USAGE : EXIT_OK);
  }
  if (command === '-V' || command === '--version') return version.run(rest);
  return commandNamed(command).run(rest);
}

exitQuietlyWhenOutputCloses();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code ?? EXIT_OK;
  },
  (error) => {
    if (error instanceof CliError) {
      printError(`workload-map: ${error.message}`);
      process.exitCode = error.exitCode;
    } else {
      // A bug, not a user error: still no stack trace, but say what happened.
      printError(`workload-map: internal error: ${error && error.message ? error.message : String(error)}`);
      process.exitCode = EXIT_INVALID;
    }
  },
);

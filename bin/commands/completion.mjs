// `workload-map completion`: a completion script for bash, zsh or fish (completion.mjs writes it)
// from the commands' options and summaries.

import { loadApi, parse, print } from '../command.mjs';
import { completionScript, SHELLS } from '../completion.mjs';
import { CliError, EXIT_OK } from '../errors.mjs';

export const HELP = `Print a shell completion script.

Usage:
  workload-map completion bash|zsh|fish

  bash:  eval "$(workload-map completion bash)"                 (in ~/.bashrc)
  zsh:   source <(workload-map completion zsh)                  (in ~/.zshrc, after compinit)
  fish:  workload-map completion fish > ~/.config/fish/completions/workload-map.fish

Commands, options and output formats complete; files complete where a command reads them.

Options:
  -h, --help  Show this help
`;

export const OPTIONS = {};

/** Each command's one-line summary, as the main help lists it. */
function commandSummaries(mainHelp) {
  const block = mainHelp.slice(mainHelp.indexOf('Commands:'));
  return new Map([...block.matchAll(/^ {2}(\S+) {2,}(.+)$/gm)].map((m) => [m[1], m[2].trim()]));
}

/**
 * @param {string[]} args
 * @param {{commands: Record<string, {options: object}>, mainHelp: string}} cli the commands (in
 *   the order the main help lists them) and the main help
 */
export async function run(args, { commands, mainHelp }) {
  const { values, positionals } = parse(args, OPTIONS, 'completion');
  if (values.help) return print(HELP, EXIT_OK);
  if (positionals.length !== 1 || !SHELLS.includes(positionals[0])) {
    throw new CliError(
      `completion takes one shell: ${SHELLS.join(', ')}${positionals.length > 0 ? ` (not "${positionals.join(' ')}")` : ''}\nRun "workload-map completion --help" for usage.`,
    );
  }
  const summaries = commandSummaries(mainHelp);
  // Arguments that are a fixed list: the shells, and the names of the catalog built in.
  const api = await loadApi();
  const words = { completion: SHELLS, definitions: api.catalog.list().map((e) => e.name) };
  const list = Object.entries(commands).map(([name, command]) => ({
    name,
    summary: summaries.get(name) ?? '',
    options: { ...command.options, help: { type: 'boolean', short: 'h', description: 'Show help' } },
    ...(Object.hasOwn(words, name) ? { words: words[name] } : {}),
  }));
  return print(completionScript(positionals[0], list), EXIT_OK);
}

// Shell completion scripts, generated from the same command and option tables the argument
// parser reads, so a new command or option completes without touching this file.
//
// `commands` is a list of `{ name, summary, options, words? }`, `options` option specs as in
// args.mjs, `words` the arguments a command takes when they are a fixed list (a shell, a catalog
// name). Options that take a file (`valueName: 'FILE'`) and other arguments complete file names.

export const SHELLS = ['bash', 'zsh', 'fish'];

/** The completion script for `shell`. */
export function completionScript(shell, commands, program = 'workload-map') {
  if (shell === 'bash') return bash(commands, program);
  if (shell === 'zsh') return zsh(commands, program);
  return fish(commands, program);
}

function flags(spec, name) {
  return [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])];
}

function functionName(program) {
  return `_${program.replace(/[^A-Za-z0-9]/g, '_')}`;
}

function shellWords(items) {
  return items.join(' ');
}

function bash(commands, program) {
  const fn = functionName(program);
  const cases = commands.map(({ name, options, words }) => {
    const all = Object.entries(options);
    const withValues = all
      .filter(([, s]) => s.values)
      .map(([n, s]) => `        ${flags(s, n).join('|')}) COMPREPLY=($(compgen -W "${shellWords(s.values)}" -- "$cur")); return ;;`);
    const withFiles = all.filter(([, s]) => s.type === 'string' && !s.values);
    const fileCase = withFiles.length > 0 ? [`        ${withFiles.flatMap(([n, s]) => flags(s, n)).join('|')}) return ;;`] : [];
    const optionWords = shellWords(all.flatMap(([n, s]) => flags(s, n)));
    return [
      `    ${name})`,
      `      case "$prev" in`,
      ...withValues,
      ...fileCase,
      `      esac`,
      `      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${optionWords}" -- "$cur"))${words ? `; else COMPREPLY=($(compgen -W "${shellWords(words)}" -- "$cur"))` : ''}; fi`,
      `      ;;`,
    ].join('\n');
  });
  return `# bash completion for ${program}: eval "$(${program} completion bash)" in ~/.bashrc
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "${shellWords(commands.map((c) => c.name))} --help --version" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join('\n')}
  esac
}
# Nothing offered (a file argument): bash completes file names.
complete -o default -F ${fn} ${program}
`;
}

/** Text inside a single-quoted zsh word. */
function zshQuote(text) {
  return text.replaceAll("'", "'\\''");
}

/** An option's description inside `[...]` of an `_arguments` spec. */
function zshExplanation(text) {
  return zshQuote(text).replaceAll('[', '\\[').replaceAll(']', '\\]');
}

function zsh(commands, program) {
  const fn = functionName(program);
  const described = commands.map(({ name, summary }) => `    '${name}:${zshQuote(summary ?? '')}'`);
  const cases = commands.map(({ name, options, words }) => {
    const specs = Object.entries(options).map(([n, s]) => {
      const exclusive = s.short ? `'(-${s.short} --${n})'{-${s.short},--${n}}` : `'--${n}'`;
      const repeat = s.multiple ? `'*'` : '';
      const description = `'[${zshExplanation(s.description ?? n)}]`;
      let value = '';
      if (s.values) value = `:${n}:(${s.values.join(' ')})`;
      else if (s.type === 'string') value = s.valueName === 'FILE' ? `:file:_files` : `:${n}:`;
      const body = `${description}${value}'`;
      return s.multiple ? `${repeat}${exclusive.replace(/^'\([^)]*\)'/, '')}${body}` : `${exclusive}${body}`;
    });
    const rest = words ? `'1:${name}:(${words.join(' ')})'` : "'*:file:_files'";
    return `    ${name})\n      _arguments -s ${[...specs, rest].join(' \\\n        ')}\n      ;;`;
  });
  return `#compdef ${program}
# zsh completion for ${program}: put it in a folder of $fpath as _${program}, or
# source <(${program} completion zsh) after compinit.
${fn}() {
  local -a commands
  commands=(
${described.join('\n')}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands '${program} command' commands
    return
  fi
  local command=$words[2]
  shift words
  (( CURRENT-- ))
  case $command in
${cases.join('\n')}
  esac
}
if [[ "\${funcstack[1]}" == "${fn}" ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${program}
fi
`;
}

function fishQuote(text) {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function fish(commands, program) {
  const names = commands.map((c) => c.name).join(' ');
  const lines = [
    `# fish completion for ${program}: ${program} completion fish > ~/.config/fish/completions/${program}.fish`,
    `complete -c ${program} -f`,
    ...commands.map(({ name, summary }) => `complete -c ${program} -n 'not __fish_seen_subcommand_from ${names}' -a ${name} -d ${fishQuote(summary ?? '')}`),
  ];
  for (const { name, options, words } of commands) {
    const when = `-n '__fish_seen_subcommand_from ${name}'`;
    lines.push(words ? `complete -c ${program} ${when} -a ${fishQuote(words.join(' '))}` : `complete -c ${program} ${when} -F`);
    for (const [n, s] of Object.entries(options)) {
      const short = s.short ? ` -s ${s.short}` : '';
      let value = '';
      if (s.values) value = ` -x -a ${fishQuote(s.values.join(' '))}`;
      else if (s.type === 'string') value = s.valueName === 'FILE' ? ' -r -F' : ' -x';
      lines.push(`complete -c ${program} ${when}${short} -l ${n}${value} -d ${fishQuote(s.description ?? n)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

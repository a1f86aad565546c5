/**
 * `dpe-sim completion bash|zsh|fish`: a shell completion script, generated from commander's own
 * description of the program (its commands, their options and the choices of each option), so it
 * never falls behind the flags. Files complete where a command takes a DPE or a file.
 */
import { Argument, type Command, type Option } from 'commander';
import { DpeSimError } from '../../contract/errors.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

interface Spec {
  name: string;
  description: string;
  options: { flags: string[]; description: string; choices: string[]; takesValue: boolean }[];
  /** positional choices (e.g. `batch <operation>`, `completion <shell>`) */
  choices: string[];
}

function optionSpec(o: Option): Spec['options'][number] {
  const flags = [o.short, o.long].filter((f): f is string => typeof f === 'string');
  return {
    flags,
    description: o.description,
    choices: o.argChoices ?? [],
    takesValue: o.required || o.optional,
  };
}

function specOf(cmd: Command): Spec {
  const args = (cmd as unknown as { registeredArguments?: { argChoices?: string[] }[] })
    .registeredArguments;
  return {
    name: cmd.name(),
    description: cmd.description(),
    options: cmd.options.map(optionSpec),
    choices: args?.[0]?.argChoices ?? [],
  };
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(program: Command): string {
  const globals = specOf(program);
  const cmds = program.commands.map(specOf);
  const cases = cmds
    .map((c) => {
      const flags = [...c.options, ...globals.options].flatMap((o) => o.flags).join(' ');
      const valueCases = c.options
        .filter((o) => o.choices.length)
        .map(
          (o) =>
            `      ${o.flags.join('|')}) COMPREPLY=($(compgen -W ${q(o.choices.join(' '))} -- "$cur")); return ;;`,
        )
        .join('\n');
      const positional = c.choices.length
        ? `COMPREPLY=($(compgen -W ${q(c.choices.join(' '))} -- "$cur"))`
        : 'COMPREPLY=($(compgen -f -- "$cur"))';
      return `    ${c.name})
      case "$prev" in
${valueCases}
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W ${q(flags)} -- "$cur")); else ${positional}; fi
      ;;`;
    })
    .join('\n');
  return `# bash completion for dpe-sim (dpe-sim completion bash)
# install: dpe-sim completion bash > ~/.local/share/bash-completion/completions/dpe-sim
_dpe_sim() {
  local cur prev cmd i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) cmd="\${COMP_WORDS[i]}"; break ;; esac
  done
  if [[ -z "$cmd" ]]; then
    if [[ "$cur" == -* ]]; then
      COMPREPLY=($(compgen -W ${q(globals.options.flatMap((o) => o.flags).join(' ') + ' --help --version')} -- "$cur"))
    else
      COMPREPLY=($(compgen -W ${q(cmds.map((c) => c.name).join(' '))} -- "$cur"))
    fi
    return
  fi
  case "$cmd" in
${cases}
  esac
}
complete -o default -F _dpe_sim dpe-sim
`;
}

const zq = (s: string) => s.replace(/[[\]:'\\]/g, (c) => `\\${c}`);

function zsh(program: Command): string {
  const globals = specOf(program);
  const cmds = program.commands.map(specOf);
  const optLines = (opts: Spec['options']) =>
    opts
      .flatMap((o) =>
        o.flags.map(
          (f) =>
            `    '${f}[${zq(o.description)}]${o.takesValue ? `:value:${o.choices.length ? `(${o.choices.join(' ')})` : '_files'}` : ''}'`,
        ),
      )
      .join(' \\\n');
  const cases = cmds
    .map(
      (c) => `    ${c.name})
      _arguments \\
${optLines([...c.options, ...globals.options])} \\
    '*:argument:${c.choices.length ? `(${c.choices.join(' ')})` : '_files'}'
      ;;`,
    )
    .join('\n');
  return `#compdef dpe-sim
# zsh completion for dpe-sim (dpe-sim completion zsh)
# install: dpe-sim completion zsh > "\${fpath[1]}/_dpe-sim"   (then: compinit)
_dpe_sim() {
  local -a commands
  commands=(
${cmds.map((c) => `    '${c.name}:${zq(c.description)}'`).join('\n')}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case "\${words[2]}" in
${cases}
  esac
}
compdef _dpe_sim dpe-sim
`;
}

function fish(program: Command): string {
  const globals = specOf(program);
  const cmds = program.commands.map(specOf);
  const names = cmds.map((c) => c.name).join(' ');
  const opt = (o: Spec['options'][number], cond: string) => {
    const parts = o.flags.map((f) =>
      f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`,
    );
    const value = o.takesValue
      ? o.choices.length
        ? ` -x -a ${q(o.choices.join(' '))}`
        : ' -r -F'
      : '';
    return `complete -c dpe-sim ${cond} ${parts.join(' ')}${value} -d ${q(o.description)}`;
  };
  const lines = [
    '# fish completion for dpe-sim (dpe-sim completion fish)',
    '# install: dpe-sim completion fish > ~/.config/fish/completions/dpe-sim.fish',
    'complete -c dpe-sim -f',
    ...cmds.map(
      (c) =>
        `complete -c dpe-sim -n "not __fish_seen_subcommand_from ${names}" -a ${c.name} -d ${q(c.description)}`,
    ),
    ...globals.options.map((o) => opt(o, '')),
    ...cmds.flatMap((c) => [
      ...c.options.map((o) => opt(o, `-n "__fish_seen_subcommand_from ${c.name}"`)),
      c.choices.length
        ? `complete -c dpe-sim -n "__fish_seen_subcommand_from ${c.name}" -a ${q(c.choices.join(' '))}`
        : `complete -c dpe-sim -n "__fish_seen_subcommand_from ${c.name}" -F`,
    ]),
  ];
  return `${lines.join('\n')}\n`;
}

export function completionScript(program: Command, shell: string): string {
  if (shell === 'bash') return bash(program);
  if (shell === 'zsh') return zsh(program);
  if (shell === 'fish') return fish(program);
  throw new DpeSimError('invalid-input', `no completion for the shell '${shell}'`, {
    hint: `choose one of ${SHELLS.join(', ')}: dpe-sim completion bash`,
  });
}

/** The action: prints the script on stdout. */
export function completionCommand(program: Command, shell: string): void {
  process.stdout.write(completionScript(program, shell));
}

export function register(program: Command): void {
  program
    .command('completion')
    .addArgument(new Argument('<shell>', 'the shell').choices([...SHELLS]))
    .description('print a shell completion script')
    .addHelpText(
      'after',
      '\nExamples:\n  dpe-sim completion bash > ~/.local/share/bash-completion/completions/dpe-sim\n  dpe-sim completion zsh > "${fpath[1]}/_dpe-sim"\n  dpe-sim completion fish > ~/.config/fish/completions/dpe-sim.fish',
    )
    .action((shell: string, _opts: unknown, cmd: Command) => {
      completionCommand(cmd.parent ?? program, shell);
    });
}

/**
 * dpe-sim's command line: the commands and their flags. Every action is loaded on demand, so
 * `dpe-sim --help` never pays for the engine, the store or the server.
 */
import { Command, CommanderError } from 'commander';
import { EXIT_CODES } from '../contract/errors.js';
import { COMMANDS } from './commands/index.js';
import { commanderErrorView, errorView } from './error-view.js';
import { globalFlags } from './flags.js';
import { exitOnStopSignals } from '../process/stop-signals.js';
import { stderrWidth, wrapText } from './format.js';

const EXIT_HELP = `
Exit codes:
  0  success
  1  runtime failure (I/O, network, server error, a batch item failed)
  2  invalid input (bad flag or value, malformed DPE number, unknown DPE, invalid works; a DPE file
     that is a directory, unreadable, empty, not XML, XML but not a DPE, or over 10 MiB)
  3  the DPE is blocked (a "block" alert: malformed DPE XML, not a 3CL-2021 dwelling DPE, engine failure)
  4  authentication failed (partner key missing, unknown or revoked; login token used or expired)
  130 stopped by Ctrl-C (SIGINT); 143 stopped by SIGTERM (a second Ctrl-C exits at once)
Errors print "error: what happened" and "hint: what to do" on stderr; --debug adds the cause chain.

Environment: DPE_SIM_DPE_DIR, DPE_SIM_DATA_DIR, DPE_SIM_CONFIG_DIR, DPE_SIM_PROFILE,
  DPE_SIM_BACKEND, DPE_SIM_BASE_URL, DPE_SIM_PARTNER_KEY, DPE_SIM_APP_URL, NO_COLOR,
  DPE_SIM_REGISTRY_URL, DPE_SIM_OFFLINE, DPE_SIM_REGISTRY_TIMEOUT, DPE_SIM_REGISTRY_RETRIES,
  DPE_SIM_STORE_URL, DPE_SIM_QUEUE_URL.`;

export function buildProgram(): Command {
  const program = globalFlags(
    new Command('dpe-sim')
      .description(
        'DPE renovation simulations: pre-analysis, works options and recalculation on the bundled 3CL engine (local DPE XML files) or a remote partner service.',
      )
      .version('0.1.0'),
  )
    .addHelpText('after', EXIT_HELP)
    // commander's own errors (unknown option, missing argument…) are not printed by commander:
    // they come back to main() as CommanderError (exit 2), for every subcommand too, and are
    // printed in the one voice of error-view.ts
    .configureOutput({ outputError: () => undefined })
    .exitOverride();
  for (const register of COMMANDS) register(program);
  return program;
}

/**
 * The command named on the command line (its first word that is a command's name: global
 * options' values come before it), and its subcommand, if any: for hints.
 */
function namedCommand(program: Command, argv: readonly string[]): Command[] {
  const words = argv.slice(2).filter((a) => !a.startsWith('-'));
  for (const [at, w] of words.entries()) {
    const cmd = program.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (!cmd) continue;
    const sub = cmd.commands.find((c) => c.name() === words[at + 1]);
    return sub ? [cmd, sub] : [cmd];
  }
  return [];
}

/** The command named on the command line ('batch pre', 'pre'…), if any: for hints. */
function commandOf(program: Command, argv: readonly string[]): string | undefined {
  const named = namedCommand(program, argv);
  return named.length ? named.map((c) => c.name()).join(' ') : undefined;
}

/**
 * An option given before its command's name (`dpe-sim --customer-id c pre X`): commander reads
 * it as a global option and finds none; the command that has it, named, when there is one.
 */
function misplacedOption(
  program: Command,
  argv: readonly string[],
  err: CommanderError,
): string | undefined {
  if (err.code !== 'commander.unknownOption') return undefined;
  const flag = /'(-[^'=]+)/.exec(err.message)?.[1];
  const named = namedCommand(program, argv);
  const owner = named[named.length - 1];
  if (!flag || !owner || !owner.options.some((o) => o.long === flag || o.short === flag))
    return undefined;
  const name = named.map((c) => c.name()).join(' ');
  return `${flag} is an option of dpe-sim ${name}: give it after the command's name (dpe-sim ${name} … ${flag})`;
}

/** Runs the command line; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  exitOnStopSignals();
  const program = buildProgram();
  const debug = argv.includes('--debug') || argv.includes('--verbose') || argv.includes('-v');
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT_CODES.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (
        err.code === 'commander.helpDisplayed' ||
        err.code === 'commander.version' ||
        err.exitCode === 0
      ) {
        return EXIT_CODES.ok;
      }
      const view = commanderErrorView(
        err,
        commandOf(program, argv),
        misplacedOption(program, argv, err),
      );
      process.stderr.write(wrapText(view.text, stderrWidth()));
      return EXIT_CODES.invalidInput;
    }
    const view = errorView(err, debug, commandOf(program, argv));
    process.stderr.write(wrapText(view.text, stderrWidth()));
    return view.code;
  }
}

/**
 * dpe-sim's command line: the commands and their flags. Every action is loaded on demand, so
 * `dpe-sim --help` never pays for the engine, the store or the server.
 */
import { Command, CommanderError, Option } from 'commander';
import { DpeSimError, EXIT_CODES, errorMessage } from '../contract/errors.js';
import { identityOptions, run } from './command-kit.js';
import { registerApiCommands } from './register-api.js';
import { registerTrackingCommands } from './register-tracking.js';

const EXIT_HELP = `
Exit codes:
  0  success
  1  runtime failure (I/O, network, server error, a batch item failed)
  2  invalid input (bad flag or value, malformed DPE number, unknown DPE, invalid works)
  3  the DPE is blocked (a "block" alert: malformed XML, not a 3CL-2021 dwelling DPE, engine failure)
  4  authentication failed (partner key missing, unknown or revoked; login token used or expired)

Environment: DPE_SIM_DPE_DIR, DPE_SIM_DATA_DIR, DPE_SIM_CONFIG_DIR, DPE_SIM_PROFILE,
  DPE_SIM_BACKEND, DPE_SIM_BASE_URL, DPE_SIM_PARTNER_KEY, DPE_SIM_APP_URL, DPE_SIM_STORE_URL,
  DPE_SIM_QUEUE_URL, NO_COLOR.`;

function simulationOptions(cmd: Command): Command {
  return identityOptions(cmd)
    .addOption(
      new Option('--coef <mode>', 'electricity coefficient: 2026 (1.9) or 2025 (2.3)')
        .choices(['2026', '2025'])
        .default('2026'),
    )
    .option(
      '--force-normalization',
      'accept normalization to the registry for gaps between 5% and 15%',
    );
}

export function buildProgram(): Command {
  const program = new Command('dpe-sim')
    .description(
      'DPE renovation simulations: pre-analysis, works options and recalculation on the bundled 3CL engine (local DPE XML files) or a remote partner service.',
    )
    .version('0.1.0')
    .option('--json', 'print the response body as JSON on stdout, nothing else')
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .option('--no-input', 'never prompt (also CI=true)')
    .option('-v, --verbose', 'show stack traces and engine messages')
    .addOption(
      new Option('--backend <backend>', 'where computations run').choices(['local', 'remote']),
    )
    .option('--base-url <url>', 'remote service base URL (implies --backend remote)')
    .option('--partner-key-file <file>', 'read the partner key from a file (- for stdin)')
    .option('--profile <name>', 'configuration profile')
    .option('--config-dir <dir>', 'configuration directory (default: the OS config dir)')
    .option('--data-dir <dir>', 'where the local store lives (default: ~/.local/share/dpe-sim)')
    .option('--store <url>', 'a shared PostgreSQL store (postgres://…) instead of the local one')
    .option(
      '--dpe-dir <dir>',
      'directory of DPE XML files looked up by number (default: bundled fixtures/)',
    )
    .option(
      '--app-url <url>',
      'user-facing application URL in login links (default http://127.0.0.1:8787)',
    )
    .option('--costs <file>', 'JSON file overriding works cost figures')
    .option('--timeout <seconds>', 'remote request timeout (default 30)')
    .option('--retries <n>', 'remote retries on network errors, 429, 502, 503, 504 (default 2)')
    .addHelpText('after', EXIT_HELP)
    .showHelpAfterError('(run dpe-sim --help for usage)')
    // errors come back to main() as CommanderError (exit 2), for every subcommand too
    .exitOverride();

  simulationOptions(
    program
      .command('pre')
      .argument('<dpe>', 'DPE number (e.g. 2345E0123456A), path to a DPE XML file, or - for stdin')
      .description('pre-analysis: engine vs registry figures, alerts, and a login URL'),
  )
    .option(
      '--expire <minutes>',
      'validity of the login token in minutes (integer ≥ 1, default 10)',
    )
    .addHelpText(
      'after',
      '\nExample:\n  dpe-sim pre fixtures/0000E0000001H.xml\n  dpe-sim pre 0000E0000002F --json | jq .maxCalculation',
    )
    .action(run(async () => (await import('./commands/pre.js')).preCommand));

  identityOptions(
    program.command('auth').description('issue a single-use login token and print the login URL'),
  )
    .option('--dpe-id <id>', 'DPE to open after login')
    .option('--show-init', 'show the initialization screen at login')
    .option('--expire <minutes>', 'validity in minutes (integer ≥ 1, default 10)')
    .addHelpText('after', '\nExample:\n  dpe-sim auth --dpe-id 0000E0000001H --expire 30')
    .action(run(async () => (await import('./commands/auth.js')).authCommand));

  simulationOptions(
    program
      .command('initial')
      .argument('<dpe>', 'DPE number, path to a DPE XML file, or - for stdin')
      .description(
        'initial simulation: the elements with their works options (cost, gain), the initial calculation',
      ),
  )
    .addHelpText('after', '\nExample:\n  dpe-sim initial fixtures/0000E0000001H.xml')
    .action(run(async () => (await import('./commands/initial.js')).initialCommand));

  simulationOptions(
    program
      .command('calc')
      .argument('<dpe>', 'DPE number, path to a DPE XML file, or - for stdin')
      .description('recalculate the DPE with works'),
  )
    .option(
      '-w, --work <change>',
      'a works item <referenceId>=<editableKey>:<editableValue> (repeatable)',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option(
      '--works <file>',
      'JSON array of {referenceId, editableKey, editableValue} (- for stdin)',
    )
    .option('-i, --interactive', 'pick works interactively')
    .option('--scenario <name>', 'name of the calculation scenario', 'default')
    .option(
      '--scenario-from <n>',
      'apply the n-th recommended scenario of `dpe-sim initial` (1 = the first row)',
    )
    .option('--include-dpe', 'add the DPE structure to the response')
    .option('--include-user', 'add the user to the response')
    .addHelpText(
      'after',
      '\nExamples:\n  dpe-sim calc fixtures/0000E0000001H.xml --work mur:0=ISOLATION:IMurITE37 --work baie_vitree:0=FENETRE:PVC\n  dpe-sim calc 0000E0000001H --works works.json --json\n  dpe-sim calc 0000E0000001H -i',
    )
    .action(run(async () => (await import('./commands/calc.js')).calcCommand));

  registerApiCommands(program);
  registerTrackingCommands(program);
  return program;
}

/** Runs the command line; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  const verbose = argv.includes('--verbose') || argv.includes('-v');
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
      return EXIT_CODES.invalidInput;
    }
    if (err instanceof DpeSimError) {
      process.stderr.write(`dpe-sim: ${err.message}\n`);
      if (verbose && err.stack) process.stderr.write(`${err.stack}\n`);
      return err.exitCode;
    }
    process.stderr.write(`dpe-sim: ${errorMessage(err)}\n`);
    if (verbose && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    return EXIT_CODES.runtime;
  }
}

/**
 * The flags several commands share, declared once with their options type: the global ones
 * (output, backend and remote service, data and DPE directories), the partner identity, and the
 * simulation options. A command composes the groups it needs and adds its own.
 */
import { Option, type Command } from 'commander';

/** Flags every command has (declared on the program; read with `optsWithGlobals`). */
export interface GlobalFlags {
  json?: boolean;
  color?: boolean;
  wide?: boolean;
  verbose?: boolean;
  debug?: boolean;
  input?: boolean;
  backend?: string;
  baseUrl?: string;
  partnerKeyFile?: string;
  profile?: string;
  configDir?: string;
  dataDir?: string;
  store?: string;
  dpeDir?: string;
  appUrl?: string;
  costs?: string;
  timeout?: string;
  retries?: string;
  registryUrl?: string;
  offline?: boolean;
}

export function globalFlags(program: Command): Command {
  return program
    .option('--json', 'print the response body as JSON on stdout, nothing else')
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .option('--wide', 'tables show every column, whatever the terminal width')
    .option('--no-input', 'never prompt (also CI=true)')
    .option('-v, --verbose', 'show stack traces and engine messages')
    .option('--debug', 'on an error, show its cause chain with stack traces')
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
    .option(
      '--timeout <seconds>',
      'seconds to wait for a remote answer (default 300); a computation timed out is not sent again',
    )
    .option('--retries <n>', 'remote retries on network errors, 429, 502, 503, 504 (default 2)')
    .option(
      '--registry-url <url>',
      'DPE registry address, {numero} for the number (default: ADEME)',
    )
    .option(
      '--offline',
      'never ask the DPE registry: --dpe-dir and the cache only (DPE_SIM_OFFLINE=1)',
    );
}

/** The partner-side identity of the user a request is made for. */
export interface IdentityFlags {
  customerId?: string;
  userId?: string;
  userName?: string;
  customerName?: string;
}

export function identityFlags(cmd: Command): Command {
  return cmd
    .option('--customer-id <id>', 'customer identifier at the partner (no ":")')
    .option('--user-id <id>', 'user identifier at the partner (no ":")')
    .option('--user-name <name>', 'name of the user')
    .option('--customer-name <name>', 'name of the customer organisation');
}

/** The options of pre, initial and calc (and batch). */
export interface SimulationFlags extends IdentityFlags {
  coef?: string;
  forceNormalization?: boolean;
}

export function simulationFlags(cmd: Command): Command {
  return identityFlags(cmd)
    .addOption(
      new Option('--coef <mode>', 'electricity coefficient: 2026 (1.9) or 2025 (2.3)')
        .choices(['2026', '2025'])
        .default('2026'),
    )
    .option(
      '--force-normalization',
      'accept normalization to the registry for gaps between 5\u00a0% and 15\u00a0%',
    );
}

/** The positional DPE argument's help. */
export const DPE_ARGUMENT_HELP =
  'DPE number (e.g. 2345E0123456A), path to a DPE XML file, or - for stdin';

/** An "Examples:" block for `addHelpText('after', …)`. */
export function examples(...lines: string[]): string {
  return `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

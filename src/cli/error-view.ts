/**
 * One voice for errors on stderr:
 *
 *   error: what happened
 *   hint: what to do
 *
 * and the documented exit code (2 invalid input, 3 blocked DPE, 4 authentication, 1 anything
 * else). No stack trace, no errno names; `--debug` (or -v/--verbose) adds the cause chain with
 * the stacks. A hint given by the code that threw (`details.hint`, a string) wins over the
 * generic one of its kind.
 */
import { DpeSimError, EXIT_CODES, type ErrorKind } from '../contract/errors.js';
import { osCode, osReason } from '../contract/os-errors.js';

const HINTS: Record<ErrorKind, string> = {
  'invalid-input': 'check the command line; dpe-sim <command> --help shows the usage',
  'not-found': 'check the DPE number or path; dpe-sim <command> --help shows the usage',
  'too-large': 'a DPE XML is at most 10 MiB: check that this is the DPE file you meant',
  blocked: 'this DPE cannot be simulated; dpe-sim pre <dpe> lists its alerts',
  auth: 'check the partner key: --partner-key-file FILE, DPE_SIM_PARTNER_KEY, or dpe-sim config set partnerKey KEY',
  token: 'issue a new login link with dpe-sim auth',
  runtime: 'run the command again with --debug to see the cause',
  busy: 'the service is busy: try again in a moment',
};

export interface ErrorView {
  text: string;
  code: number;
}

function hintOf(err: DpeSimError): string {
  const hint = err.details?.hint;
  return typeof hint === 'string' ? hint : HINTS[err.kind];
}

/** A hint's `dpe-sim <command>` made real: the command run, else the top-level help. */
function withCommand(hint: string, command: string | undefined): string {
  return hint.replace(
    'dpe-sim <command> --help',
    command ? `dpe-sim ${command} --help` : 'dpe-sim --help',
  );
}

/**
 * Commander's own errors (unknown option or command, missing argument, bad choice), in the same
 * voice: its message without its "error: " prefix, its suggestion ("Did you mean --json?") as
 * the hint, with the command's help.
 */
export function commanderErrorView(
  err: { message: string },
  command: string | undefined,
  /** a hint of the caller's that says more than commander's suggestion (a misplaced option) */
  better?: string,
): ErrorView {
  const [first = '', ...rest] = err.message.replace(/^error: /, '').split('\n');
  const suggestion = rest
    .join(' ')
    .match(/Did you mean (.+?)\?\)?$/)?.[1]
    ?.trim();
  const help = command ? `dpe-sim ${command} --help` : 'dpe-sim --help';
  const hint = better
    ? better
    : suggestion
      ? `did you mean ${suggestion}? ${help} shows the usage`
      : `${help} shows the usage`;
  return { text: `error: ${first}\nhint: ${hint}\n`, code: EXIT_CODES.invalidInput };
}

/** The cause chain, for --debug: each error's name, code and message, then its stack. */
export function causeChain(err: unknown): string {
  const out: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e !== undefined && e !== null && depth < 10; depth++) {
    const code = osCode(e);
    if (e instanceof Error) {
      out.push(
        `${depth === 0 ? 'error' : 'caused by'}: ${e.name}${code ? ` [${code}]` : ''}: ${e.message}`,
      );
      if (e.stack) out.push(e.stack.split('\n').slice(1).join('\n'));
      e = e.cause;
    } else {
      out.push(`${depth === 0 ? 'error' : 'caused by'}: ${String(e)}`);
      break;
    }
  }
  return out.join('\n');
}

/** What to print and the exit code, for any error a command throws. */
export function errorView(err: unknown, debug: boolean, command?: string): ErrorView {
  let line: string;
  let hint: string;
  let code: number;
  if (err instanceof DpeSimError) {
    line = err.message;
    hint = hintOf(err);
    code = err.exitCode;
  } else if (osCode(err)?.startsWith('SQLITE_READONLY')) {
    line = 'the local store is read-only, and this command records its run';
    hint =
      'history and the other reading commands still work; to record, use a writable --data-dir DIR (or DPE_SIM_DATA_DIR)';
    code = EXIT_CODES.runtime;
  } else if (osCode(err)) {
    line = `${osReason(err)}${(err as { path?: unknown }).path ? `: ${String((err as { path?: unknown }).path)}` : ''}`;
    hint = HINTS.runtime;
    code = EXIT_CODES.runtime;
  } else {
    line = err instanceof Error ? err.message : String(err);
    hint = HINTS.runtime;
    code = EXIT_CODES.runtime;
  }
  const text = [`error: ${line}`, `hint: ${withCommand(hint, command)}`];
  if (debug) text.push(causeChain(err));
  return { text: `${text.join('\n')}\n`, code };
}

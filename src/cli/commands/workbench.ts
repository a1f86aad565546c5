import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Command } from 'commander';
import { DPE_ID_REGEX } from '../../contract/constants.js';
import { DpeSimError } from '../../contract/errors.js';
import { run } from '../command-kit.js';
import type { Context } from '../context.js';
import { DPE_ARGUMENT_HELP, examples, identityFlags, type IdentityFlags } from '../flags.js';
import { checkIdentity, portOption } from '../options.js';
import { exitCodeFor, holdStopSignals, STOP_GRACE_MS } from '../../process/stop-signals.js';

export interface WorkbenchFlags extends IdentityFlags {
  host: string;
  port: string;
}

/**
 * `dpe-sim workbench <dpe>`: the workbench of `serve`'s login URL, for local use. Starts the
 * server on 127.0.0.1 (any free port by default) on the local store, makes the DPE known
 * (a file, or a number of --dpe-dir or the registry), issues a login link on it for the local
 * identity and prints it on stdout. Runs until Ctrl-C (exit 130) or SIGTERM (143).
 */
export async function workbenchCommand(
  ctx: Context,
  dpeArg: string,
  flags: WorkbenchFlags,
): Promise<number> {
  const port = portOption(flags.port);
  const identity = checkIdentity(ctx.identity);
  if (ctx.settings.backend === 'remote') {
    throw new DpeSimError(
      'invalid-input',
      'the workbench runs on the local backend: open the login URL of the partner service instead (dpe-sim --backend remote auth --dpe-id ...)',
    );
  }
  const hold = holdStopSignals(() => {});
  try {
    const services = await ctx.localServices({
      engineThreads: Math.min(2, os.availableParallelism()),
    });
    let dpeId: string;
    if (DPE_ID_REGEX.test(dpeArg)) {
      await services.checkExists(dpeArg);
      dpeId = dpeArg;
    } else {
      if (dpeArg === '-') {
        throw new DpeSimError(
          'invalid-input',
          'the workbench needs a DPE file or number, not stdin',
        );
      }
      dpeId = await services.openDpe({ path: dpeArg });
    }
    const [{ startServer }, { LocalBackend }] = await Promise.all([
      import('../../server/start.js'),
      import('../../backend/local.js'),
    ]);
    const server = await startServer({
      services,
      historyPath: ctx.settings.historyPath,
      host: flags.host,
      port,
      errorLog: (line) => process.stderr.write(`${line}\n`),
    });
    try {
      const backend = new LocalBackend(services, await services.localPartner());
      const { url } = await backend.auth({ ...identity, dpeId, expireInMinutes: 10 });
      ctx.out.result({ url, server: server.url, dpeId }, () => url);
      ctx.out.note(
        `dpe-sim workbench: ${dpeId} on ${server.url}; open the link above (single use, valid 10 min; the session then lasts 12 h). Ctrl-C stops.`,
      );
      const signal = await hold.received;
      ctx.out.note(`dpe-sim workbench: ${signal}, stopping`);
      return exitCodeFor(signal);
    } finally {
      await Promise.race([server.close(), delay(STOP_GRACE_MS / 2)]);
    }
  } finally {
    hold.release();
  }
}

export function register(program: Command): void {
  identityFlags(
    program
      .command('workbench')
      .argument('<dpe>', DPE_ARGUMENT_HELP)
      .description(
        'open the web workbench on a DPE: a local server on 127.0.0.1 and a login link to it (pick works, see the class move, scenarios, audit, history)',
      ),
  )
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '0')
    .addHelpText(
      'after',
      examples(
        'dpe-sim workbench fixtures/0000E0000001H.xml',
        'dpe-sim workbench 0000E0000001H --port 8788',
      ),
    )
    .action(run(workbenchCommand));
}

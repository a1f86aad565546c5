import { stat } from 'node:fs/promises';
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { DpeSimError } from '../../contract/errors.js';
import type { Command } from 'commander';
import { DEFAULT_HISTORY_PATH, ENV_VARS } from '../../config/keys.js';
import { run } from '../command-kit.js';
import type { Context } from '../context.js';
import { portOption } from '../options.js';
import {
  exitCodeFor,
  holdStopSignals,
  STOP_GRACE_MS,
  type SignalHold,
} from '../../process/stop-signals.js';
import { SERVER_ENGINE_NICE } from '../../pool/thread-priority.js';

/** The longest a request waits for the registry, ms (then 504 with Retry-After). */
const REGISTRY_ANSWER_WITHIN_MS = 4000;

export interface ServeFlags {
  host: string;
  port: string;
  historyPath?: string;
  accessLog?: boolean;
  engineQueue?: string;
  maxClientConnections?: string;
  rateLimit?: string;
}

/** `--max-client-connections` and `--rate-limit`: integers from 0 (off) to `max`. */
function countOption(flag: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) > max) {
    throw new DpeSimError(
      'invalid-input',
      `--${flag} must be an integer from 0 (no limit) to ${max} (got '${value}')`,
    );
  }
  return Number(value);
}

/** The per-client limits chosen on the command line (docs/server-limits.md). */
function fairnessLimits(flags: ServeFlags): {
  maxConnectionsPerAddress?: number;
  rateLimitMax?: number;
} {
  const perClient = countOption('max-client-connections', flags.maxClientConnections, 100_000);
  const rate = countOption('rate-limit', flags.rateLimit, 10_000_000);
  return {
    ...(perClient !== undefined ? { maxConnectionsPerAddress: perClient } : {}),
    ...(rate !== undefined ? { rateLimitMax: rate } : {}),
  };
}

function queueOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) > 10_000) {
    throw new DpeSimError(
      'invalid-input',
      `--engine-queue must be an integer from 0 to 10000 (got '${value}')`,
    );
  }
  return Number(value);
}

async function checkDirectory(dir: string): Promise<void> {
  const st = await stat(dir).catch(() => undefined);
  if (!st?.isDirectory()) {
    throw new DpeSimError('invalid-input', `the DPE directory ${dir} does not exist (--dpe-dir)`);
  }
}

/** The app URL the user chose (flag, environment, profile), or undefined: the server's own. */
function chosenAppUrl(ctx: Context): string | undefined {
  const chosen =
    ctx.opts.appUrl ??
    process.env[ENV_VARS.appUrl] ??
    ctx.config.profile(ctx.settings.profile).appUrl;
  return chosen ? ctx.settings.appUrl : undefined;
}

export async function serveCommand(ctx: Context, flags: ServeFlags): Promise<number> {
  const port = portOption(flags.port);
  const queue = queueOption(flags.engineQueue);
  fairnessLimits(flags); // checked before anything starts
  const historyPath = flags.historyPath ?? ctx.settings.historyPath;
  const { validateSetting } = await import('../../config/config.js');
  validateSetting('historyPath', historyPath);
  const s = ctx.settings;
  await checkDirectory(s.dpeDir);
  // the engine on a pool of threads (one per core): the request thread never computes. The
  // signals are held from now on: the first stops the server, a second exits at once.
  const hold = holdStopSignals(() => {});
  try {
    return await serveUntilStopped(ctx, flags, port, historyPath, hold, queue);
  } finally {
    hold.release();
  }
}

async function serveUntilStopped(
  ctx: Context,
  flags: ServeFlags,
  port: number,
  historyPath: string,
  hold: SignalHold,
  queue: number | undefined,
): Promise<number> {
  const { startServer } = await import('../../server/start.js');
  // the server's paths stay on the server: responses name no DPE file
  const services = await ctx.localServices({
    dpeLocations: false,
    // a DPE the registry does not give within 4 s is a 504 with Retry-After (the fetch goes on
    // and caches it); at most 4 registry requests at once, the file threads stay free
    registryWait: { answerWithinMs: REGISTRY_ANSWER_WITHIN_MS, maxFetches: 4 },
    engineThreads: os.availableParallelism(),
    // the engine threads step back behind the request thread (Linux): /health answers at once
    engineNice: SERVER_ENGINE_NICE,
    ...(queue !== undefined ? { engineQueue: queue } : {}),
  });
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const server = await startServer({
    services,
    historyPath,
    appUrl: chosenAppUrl(ctx),
    host: flags.host,
    port,
    errorLog: log,
    ...(flags.accessLog ? { accessLog: log } : {}),
    limits: fairnessLimits(flags),
  });
  try {
    await services.warmUp(); // load the engine now, not on the first request
    const keys = (await services.listPartnerKeys()).filter((k) => k.revokedAt === null).length;
    const where = services.describe();
    // one write, so that a reader waiting for "listening on" gets the whole banner
    ctx.out.note(
      [
        `dpe-sim serve: listening on ${server.url}`,
        `  DPEs from ${where.dpes}; store ${where.store}; ${keys} active partner key${keys === 1 ? '' : 's'}${keys === 0 ? ' (create one: dpe-sim keys create NAME)' : ''}`,
        `  login URLs: ${services.appUrl}/public/partnerLogin.html; history: ${historyPath}; OpenAPI: ${server.url}/openapi.json`,
      ].join('\n'),
    );
    const signal = await hold.received;
    ctx.out.note(`dpe-sim serve: ${signal}, stopping`);
    return exitCodeFor(signal);
  } finally {
    // requests still computing are cut short (the engine threads stop when the services close):
    // their work is not recorded
    await Promise.race([server.close(), delay(STOP_GRACE_MS / 2)]);
  }
}

export function register(program: Command): void {
  program
    .command('serve')
    .description(
      'serve the partner API over HTTP on the bundled engine (DPEs from --dpe-dir, state in --data-dir)',
    )
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8787')
    .option(
      '--history-path <path>',
      'path of the consumption-history operation (default /partners/tracking/history)',
    )
    .option('--access-log', 'one line per request on stderr (never keys or tokens)')
    .option(
      '--max-client-connections <n>',
      'open connections from one client address; beyond, 429 and closed (default 128; 0: no cap)',
    )
    .option(
      '--rate-limit <n>',
      'requests a minute from one client address; beyond, 429 with Retry-After (default 6000; 0: off)',
    )
    .option(
      '--engine-queue <n>',
      'engine jobs that may wait for a thread; beyond, 503 with Retry-After (default 16 per core)',
    )
    .addHelpText(
      'after',
      `
Uses the global --dpe-dir, --data-dir and --app-url (login URLs; default: this server's URL).
Prints "listening on <url>" on stderr. Create a partner key first with \`dpe-sim keys create NAME\`.

Example:
  dpe-sim keys create acme > acme.key
  dpe-sim serve --port 8787 --dpe-dir ./dpes
  curl -H "Authorization: Bearer $(cat acme.key)" http://127.0.0.1:8787${DEFAULT_HISTORY_PATH}`,
    )
    .action(run(serveCommand));
}

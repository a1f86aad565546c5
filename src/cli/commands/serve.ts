import { stat } from 'node:fs/promises';
import { DpeSimError, EXIT_CODES } from '../../contract/errors.js';
import { ENV_VARS, validateSetting } from '../../config/config.js';
import type { Context } from '../context.js';

export interface ServeFlags {
  host: string;
  port: string;
  historyPath?: string;
  accessLog?: boolean;
}

function portOption(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) > 65535) {
    throw new DpeSimError(
      'invalid-input',
      `--port must be an integer from 0 to 65535 (got '${value}')`,
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

function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function serveCommand(ctx: Context, flags: ServeFlags): Promise<number> {
  const port = portOption(flags.port);
  const historyPath = flags.historyPath ?? ctx.settings.historyPath;
  validateSetting('historyPath', historyPath);
  const s = ctx.settings;
  await checkDirectory(s.dpeDir);
  const [{ openStore }, { DirectoryDpeSource }, { loadCosts }, { startServer }] = await Promise.all(
    [
      import('../../store/open.js'),
      import('../../dpe/source.js'),
      import('../../works/costs.js'),
      import('../../server/start.js'),
    ],
  );
  const costs = loadCosts(s.costs);
  const store = await openStore(s);
  try {
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const server = await startServer({
      store,
      source: new DirectoryDpeSource(s.dpeDir),
      costs,
      historyPath,
      appUrl: chosenAppUrl(ctx),
      host: flags.host,
      port,
      errorLog: log,
      ...(flags.accessLog ? { accessLog: log } : {}),
    });
    await server.services.engine(); // load the engine now, not on the first request
    const keys = (await store.listPartnerKeys()).filter((k) => k.revokedAt === null).length;
    // one write, so that a reader waiting for "listening on" gets the whole banner
    ctx.out.note(
      [
        `dpe-sim serve: listening on ${server.url}`,
        `  DPEs from ${s.dpeDir}; store ${store.location}; ${keys} active partner key${keys === 1 ? '' : 's'}${keys === 0 ? ' (create one: dpe-sim keys create NAME)' : ''}`,
        `  login URLs: ${server.services.appUrl}/public/partnerLogin.html; history: ${historyPath}; OpenAPI: ${server.url}/openapi.json`,
      ].join('\n'),
    );
    const signal = await waitForSignal();
    ctx.out.note(`dpe-sim serve: ${signal}, stopping`);
    await server.close();
  } finally {
    await store.close();
  }
  return EXIT_CODES.ok;
}

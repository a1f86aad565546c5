/**
 * Starting the server: one LocalServices (store, DPE source, costs, engine, prepared-DPE cache)
 * shared by every partner, listening on host:port. Login URLs point at `appUrl`, by default the
 * server's own address (known once listening, so `--port 0` works).
 */
import type { FastifyInstance } from 'fastify';
import { LocalServices } from '../backend/local.js';
import { DpeSimError } from '../contract/errors.js';
import type { DpeSource } from '../dpe/source.js';
import type { Store } from '../store/store.js';
import type { CostTable } from '../works/costs.js';
import { buildApp } from './app.js';

export interface ServerOptions {
  store: Store;
  source: DpeSource;
  costs: CostTable;
  historyPath: string;
  /** the user-facing application in login URLs (default: this server) */
  appUrl?: string | undefined;
  host: string;
  /** 0: any free port */
  port: number;
  accessLog?: (line: string) => void;
  errorLog?: (line: string) => void;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:8787 */
  url: string;
  app: FastifyInstance;
  services: LocalServices;
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const make = (appUrl: string) =>
    new LocalServices({
      store: opts.store,
      source: opts.source,
      costs: opts.costs,
      appUrl,
      dpeLocations: false, // the server's paths stay on the server
    });
  let services: LocalServices | undefined = opts.appUrl ? make(opts.appUrl) : undefined;
  const app = buildApp({
    services: () => {
      if (!services) throw new DpeSimError('runtime', 'the server is still starting');
      return services;
    },
    historyPath: opts.historyPath,
    ...(opts.accessLog ? { accessLog: opts.accessLog } : {}),
    ...(opts.errorLog ? { errorLog: opts.errorLog } : {}),
  });
  try {
    await app.listen({ host: opts.host, port: opts.port });
  } catch (err) {
    await app.close();
    const code = (err as NodeJS.ErrnoException).code;
    throw new DpeSimError(
      code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL'
        ? 'invalid-input'
        : 'runtime',
      `cannot listen on ${opts.host}:${opts.port}: ${code ?? String(err)}`,
    );
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${urlHost(opts.host)}:${port}`;
  services ??= make(url);
  const ready = services;
  return {
    url,
    app,
    services: ready,
    close: () => app.close(),
  };
}

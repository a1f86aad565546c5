/**
 * Starting the server on local services built by the composition root, listening on
 * host:port. Login URLs point at `appUrl`, by default the server's own address (known once
 * listening, so `--port 0` works).
 */
import type { FastifyInstance } from 'fastify';
import type { LocalServices } from '../backend/local-services.js';
import { DpeSimError } from '../contract/errors.js';
import { buildApp } from './app.js';
import type { ServerLimits } from './limits.js';

export interface ServerOptions {
  services: LocalServices;
  historyPath: string;
  /** the user-facing application in login URLs (default: this server) */
  appUrl?: string | undefined;
  host: string;
  /** 0: any free port */
  port: number;
  accessLog?: (line: string) => void;
  errorLog?: (line: string) => void;
  /** timeouts and caps (default: DEFAULT_LIMITS) */
  limits?: Partial<ServerLimits>;
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

/** What to do when the address cannot be had: the flag that changes it, named. */
const LISTEN_HINTS: Record<string, (host: string, port: number) => string> = {
  EADDRINUSE: (_host, port) =>
    `port ${port} is taken by another program: choose another with --port (e.g. dpe-sim serve --port ${port === 8787 ? 8788 : 8787}; --port 0 takes a free one)`,
  EACCES: (_host, port) =>
    `port ${port} needs privileges (below 1024): choose another with --port (e.g. dpe-sim serve --port 8787)`,
  EADDRNOTAVAIL: (host) =>
    `${host} is not an address of this machine: choose one with --host (e.g. dpe-sim serve --host 127.0.0.1)`,
};

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { services } = opts;
  if (opts.appUrl) services.useAppUrl(opts.appUrl);
  const app = buildApp({
    services,
    historyPath: opts.historyPath,
    ...(opts.accessLog ? { accessLog: opts.accessLog } : {}),
    ...(opts.errorLog ? { errorLog: opts.errorLog } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
  try {
    await app.listen({ host: opts.host, port: opts.port });
  } catch (err) {
    await app.close();
    const code = (err as NodeJS.ErrnoException).code;
    const hint = LISTEN_HINTS[code ?? '']?.(opts.host, opts.port);
    throw new DpeSimError(
      hint ? 'invalid-input' : 'runtime',
      `cannot listen on ${opts.host}:${opts.port}: ${code ?? String(err)}`,
      { host: opts.host, port: opts.port, ...(code ? { code } : {}), ...(hint ? { hint } : {}) },
    );
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${urlHost(opts.host)}:${port}`;
  if (!opts.appUrl) services.useAppUrl(url);
  return { url, app, services, close: () => app.close() };
}

/**
 * Test helpers for the server: a DPE directory (the fixtures plus a malformed DPE that is
 * blocked), an in-process `dpe-sim serve` on 127.0.0.1 with two partner keys, and a child
 * process running the real `bin/dpe-sim.js serve`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_HISTORY_PATH } from '../src/config/keys.js';
import { composeLocal } from '../src/compose.js';
import type { RegistryWait } from '../src/registry/chained-source.js';
import type { ServerLimits } from '../src/server/limits.js';
import { startServer, type RunningServer } from '../src/server/start.js';
import type { Store } from '../src/store/store.js';
import { HANG_MS } from './hang.js';
import { BIN, FLAT, HOUSE, STUDIO, tempDir } from './helpers.js';

export const BLOCKED_ID = '0000E0000009X';

/** The three fixtures and a malformed DPE `0000E0000009X` (blocked). */
export function dpeDirWithBlocked(): string {
  const dir = tempDir('dpe-sim-dpes-');
  for (const f of [HOUSE, FLAT, STUDIO]) copyFileSync(f, path.join(dir, path.basename(f)));
  writeFileSync(
    path.join(dir, `${BLOCKED_ID}.xml`),
    `<dpe><numero_dpe>${BLOCKED_ID}</numero_dpe><logement></dpe>`,
  );
  return dir;
}

export interface TestServer {
  url: string;
  server: RunningServer;
  store: Store;
  dataDir: string;
  dpeDir: string;
  /** keys of partners `alpha` and `beta` */
  keyA: string;
  keyB: string;
  /** the lines of the operator's error log so far */
  log: string[];
  close(): Promise<void>;
}

export async function startTestServer(
  opts: {
    appUrl?: string;
    historyPath?: string;
    dpeDir?: string;
    limits?: Partial<ServerLimits>;
    /** a registry stand-in to go online against (default: offline), and how `serve` waits on it */
    registry?: { url: string; wait?: RegistryWait };
    /** where the store lives (default: a new temporary directory) */
    dataDir?: string;
  } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir('dpe-sim-server-');
  const dpeDir = opts.dpeDir ?? dpeDirWithBlocked();
  const services = await composeLocal({
    dataDir,
    dpeDir,
    appUrl: opts.appUrl ?? 'http://127.0.0.1',
    // no test reaches the real registry: offline, or a stand-in on 127.0.0.1
    ...(opts.registry
      ? {
          offline: false,
          // vitest's DPE_SIM_OFFLINE=1 is for everything else
          registryEnv: {},
          registryUrl: opts.registry.url,
          ...(opts.registry.wait ? { registryWait: opts.registry.wait } : {}),
        }
      : { offline: true }),
    dpeLocations: false,
  });
  const store = services.store;
  const keyA = await store.createPartnerKey('alpha');
  const keyB = await store.createPartnerKey('beta');
  const log: string[] = [];
  const server = await startServer({
    services,
    historyPath: opts.historyPath ?? DEFAULT_HISTORY_PATH,
    appUrl: opts.appUrl,
    host: '127.0.0.1',
    port: 0,
    errorLog: (line) => {
      log.push(line);
      process.stderr.write(`[test server] ${line}\n`);
    },
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
  return {
    url: server.url,
    server,
    store,
    dataDir,
    dpeDir,
    keyA,
    keyB,
    log,
    close: async () => {
      await server.close();
      await services.close();
    },
  };
}

export const IDENTITY = {
  customerId: 'acme-42',
  userId: 'u-1',
  userName: 'Alice Martin',
  customerName: 'ACME Habitat',
};

export interface HttpAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** One HTTP request with a JSON body (or a raw string), answered as status + parsed JSON. */
export async function http<T = unknown>(
  url: string,
  opts: {
    method?: string;
    key?: string | null;
    body?: unknown;
    raw?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<HttpAnswer<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = opts.key;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(url, {
    method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Runs `dpe-sim serve --port 0` as a child process; resolves once it prints its URL. */
export function spawnServe(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, 'serve', '--port', '0'], {
      env: {
        ...process.env,
        NO_COLOR: '1',
        DPE_SIM_APP_URL: undefined,
        // never the real registry: a test that wants one names a stand-in and goes online
        DPE_SIM_OFFLINE: '1',
        DPE_SIM_REGISTRY_URL: undefined,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`dpe-sim serve did not start:\n${err}`));
    }, HANG_MS);
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)\n[\s\S]*OpenAPI: \S+\n/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1] as string,
          child,
          stderr: () => err,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done(child.exitCode);
              child.once('exit', (code) => done(code));
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`dpe-sim serve exited with ${code}:\n${err}${out}`));
    });
  });
}

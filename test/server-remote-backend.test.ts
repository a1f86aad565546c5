/**
 * The remote backend against a scripted HTTP server on 127.0.0.1: retries on 429/502/503/504
 * and network errors honouring Retry-After, timeouts, the error mapping (400 → exit 2 with the
 * server's message, 401 → exit 4), and a response that breaks the contract (exit 1 naming the
 * field), in-process and through the CLI.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteBackend } from '../src/backend/remote.js';
import { DEFAULT_HISTORY_PATH } from '../src/config/keys.js';
import { DpeSimError } from '../src/contract/errors.js';
import { runCli } from './helpers.js';
import { deadBase } from './registry-standin.js';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
  at: number;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** never answer */
  hang?: boolean;
  /** close the connection without an answer */
  drop?: boolean;
  /** send the head and half of the body, then wait ('hang') or close the connection ('drop') */
  half?: 'hang' | 'drop';
}

interface Fake {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server answering the scripted replies in order (the last one repeats). */
async function fake(replies: Reply[]): Promise<Fake> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        body,
        at: Date.now(),
      });
      const reply = replies[Math.min(seen.length - 1, replies.length - 1)] as Reply;
      if (reply.hang) return;
      if (reply.drop) return req.socket.destroy();
      if (reply.half) {
        const text = JSON.stringify(reply.body);
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.write(text.slice(0, text.length / 2));
        if (reply.half === 'drop') setTimeout(() => req.socket.destroy(), 50);
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function client(baseUrl: string, opts: { retries?: number; timeoutMs?: number } = {}) {
  return new RemoteBackend({
    baseUrl,
    partnerKey: 'dpsk_test_key_1234',
    timeoutMs: opts.timeoutMs ?? 5_000,
    retries: opts.retries ?? 2,
    historyPath: DEFAULT_HISTORY_PATH,
    backoffMs: 10,
  });
}

const IDENTITY = { customerId: 'c', userId: 'u', userName: 'U', customerName: 'C' };
const AUTH_OK: Reply = {
  status: 200,
  body: { url: 'http://app.test/public/partnerLogin.html?partnerToken=abc' },
};
const PRE_OK = {
  url: 'http://app.test/public/partnerLogin.html?partnerToken=abc',
  maxCalculation: {
    consommationInitiale: 381,
    consommationXML: 390,
    gesInitiale: 84,
    gesXML: 86,
    deltaConso: -2.31,
    deltaGES: -2.33,
  },
  warnings: [],
};

async function failure(p: Promise<unknown>): Promise<DpeSimError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DpeSimError) return err;
    throw err;
  }
  throw new Error('expected a DpeSimError');
}

describe('RemoteBackend retries', () => {
  it('retries a 503 after the Retry-After delay, then succeeds', async () => {
    const f = await fake([
      { status: 503, headers: { 'retry-after': '1' }, body: { error: 'busy' } },
      AUTH_OK,
    ]);
    const c = client(f.url, { retries: 2 });
    const body = await c.auth(IDENTITY);
    expect(body.url).toContain('partnerToken=abc');
    expect(f.seen).toHaveLength(2);
    expect(c.lastAttempts).toBe(2);
    const gap = (f.seen[1]?.at ?? 0) - (f.seen[0]?.at ?? 0);
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(gap).toBeLessThan(3_000);
    // the same request each time, with the key as a Bearer token
    expect(f.seen[1]).toMatchObject({
      method: 'POST',
      url: '/partners/user/auth',
      authorization: 'Bearer dpsk_test_key_1234',
    });
    expect(JSON.parse(f.seen[1]?.body ?? '')).toEqual(IDENTITY);
  });

  it('honours a Retry-After given as an HTTP date', async () => {
    const when = new Date(Date.now() + 1_500).toUTCString();
    const f = await fake([{ status: 429, headers: { 'retry-after': when } }, AUTH_OK]);
    await client(f.url).auth(IDENTITY);
    expect(f.seen).toHaveLength(2);
    expect((f.seen[1]?.at ?? 0) - (f.seen[0]?.at ?? 0)).toBeGreaterThanOrEqual(400);
  });

  it('retries 429, 502, 504 with backoff, at most --retries extra attempts', async () => {
    const f = await fake([{ status: 429 }, { status: 502 }, { status: 504 }, AUTH_OK]);
    const err = await failure(client(f.url, { retries: 2 }).auth(IDENTITY));
    expect(f.seen).toHaveLength(3);
    expect(err.kind).toBe('runtime');
    expect(err.message).toMatch(/HTTP 504/);
    const g = await fake([{ status: 429 }, { status: 502 }, { status: 504 }, AUTH_OK]);
    await client(g.url, { retries: 3 }).auth(IDENTITY);
    expect(g.seen).toHaveLength(4);
  });

  it('does not retry other errors', async () => {
    for (const status of [400, 401, 404, 410, 422, 500]) {
      const f = await fake([{ status, body: { error: `status ${status}` } }, AUTH_OK]);
      const err = await failure(client(f.url, { retries: 3 }).auth(IDENTITY));
      expect(f.seen).toHaveLength(1);
      expect(err.message).toContain(`status ${status}`);
    }
  });

  it('retries network errors, then names the failure', async () => {
    // (nothing listens there: a port given back on 127.0.0.2, where no test listens, so that no
    // other test's server takes it meanwhile)
    const url = new URL(await deadBase()).origin;
    const c = client(url, { retries: 2 });
    const err = await failure(c.auth(IDENTITY));
    expect(err.kind).toBe('runtime');
    expect(err.message).toMatch(
      /cannot reach http:\/\/127\.0\.0\.2:\d+: ECONNREFUSED \(after 3 attempts\)/,
    );
    expect(c.lastAttempts).toBe(3);
  });

  it('says so when the server closes the connection before its answer', async () => {
    const f = await fake([{ status: 200, drop: true }]);
    const err = await failure(client(f.url, { retries: 1 }).auth(IDENTITY));
    expect(err.kind).toBe('runtime');
    expect(err.message).toBe(
      `cannot reach ${f.url}: the connection was closed before an answer (after 2 attempts)`,
    );
    expect(f.seen).toHaveLength(2);
  });

  it('times out a silent server, and asks again only for a lookup', async () => {
    const f = await fake([{ status: 200, hang: true }]);
    const started = Date.now();
    const err = await failure(client(f.url, { retries: 1, timeoutMs: 200 }).history({}));
    expect(err.message).toContain('no answer within 0.2 s (after 2 attempts)');
    expect(f.seen).toHaveLength(2);
    // 2 × 0.2 s and a backoff: far below a wait for the silent server, whatever the load
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('an answer that begins and stops: said so, not sent again', async () => {
    for (const half of ['hang', 'drop'] as const) {
      const f = await fake([{ status: 200, body: PRE_OK, half }]);
      const err = await failure(
        client(f.url, { retries: 2, timeoutMs: 500 }).pre({ ...IDENTITY, dpeId: '0000E0000001H' }),
      );
      expect([err.kind, err.details?.reason]).toEqual([
        'runtime',
        half === 'hang' ? 'no-answer' : undefined,
      ]);
      expect(err.message).toBe(
        `${f.url} began its answer to POST /partners/dpe/pre (HTTP 200) and did not finish it: ${half === 'hang' ? 'not all of it within 0.5 s' : 'the connection was closed'}`,
      );
      expect(f.seen).toHaveLength(1);
    }
  });

  it('never sends a computation again after a timeout: the server may still be computing it', async () => {
    const f = await fake([{ status: 200, hang: true }]);
    const c = client(f.url, { retries: 2, timeoutMs: 200 });
    const req = { ...IDENTITY, dpeId: '0000E0000001H' };
    for (const [name, run, path] of [
      ['initial', () => c.initial(req), '/partners/dpe/initial'],
      ['calc', () => c.calc({ ...req, params: { editablesChanges: [] } }), '/partners/dpe/calc'],
      ['auth', () => c.auth(IDENTITY), '/partners/user/auth'],
    ] as const) {
      f.seen.length = 0;
      const err = await failure(run());
      expect([name, err.kind, err.details?.reason, err.details?.timeoutSeconds]).toEqual([
        name,
        'runtime',
        'no-answer',
        0.2,
      ]);
      expect(err.message).toBe(
        `${f.url} gave no answer within 0.2 s to POST ${path}; not sent again, since the service may still be computing it`,
      );
      expect(f.seen.map((s) => s.url)).toEqual([path]);
    }
    // a 503 before it is still asked again (the server refused it: nothing computed)
    const g = await fake([{ status: 503 }, { status: 200, hang: true }]);
    const err = await failure(client(g.url, { retries: 2, timeoutMs: 200 }).auth(IDENTITY));
    expect(err.details?.reason).toBe('no-answer');
    expect(g.seen).toHaveLength(2);
  });
});

describe('RemoteBackend errors and the contract', () => {
  it('maps statuses to error kinds with the server message', async () => {
    const cases: [number, string][] = [
      [400, 'invalid-input'],
      [401, 'auth'],
      [404, 'not-found'],
      [410, 'token'],
      [413, 'too-large'],
      [422, 'blocked'],
    ];
    for (const [status, kind] of cases) {
      const f = await fake([
        { status, body: { error: `reason ${status}`, errorObject: { x: 1 } } },
      ]);
      const err = await failure(client(f.url).pre({ ...IDENTITY, dpeId: '0000E0000001H' }));
      expect(err.kind).toBe(kind);
      expect(err.message).toBe(
        status === 401 ? 'authentication failed: reason 401' : `reason ${status}`,
      );
      expect(err.details).toMatchObject({ status, x: 1 });
    }
  });

  it('a response that breaks the contract names the field', async () => {
    const f = await fake([
      {
        status: 200,
        body: { ...PRE_OK, maxCalculation: { ...PRE_OK.maxCalculation, deltaGES: 'n/a' } },
      },
      { status: 200, body: { url: PRE_OK.url, warnings: [] } },
      {
        status: 200,
        body: { ...PRE_OK, warnings: [{ id: 'x', type: 'panic', title: 't', content: 'c' }] },
      },
    ]);
    const c = client(f.url);
    const req = { ...IDENTITY, dpeId: '0000E0000001H' };
    const a = await failure(c.pre(req));
    expect(a.kind).toBe('runtime');
    expect(a.message).toContain("the service's response does not match the spec");
    expect(a.message).toContain('maxCalculation.deltaGES');
    expect((await failure(c.pre(req))).message).toContain(
      "missing required field 'maxCalculation'",
    );
    expect((await failure(c.pre(req))).message).toContain('warnings[0].type');
  });

  it('sends the history filters as a query string on the history path', async () => {
    const f = await fake([{ status: 200, body: { records: [] } }]);
    await client(f.url).history({ customerId: 'c', dpeId: '0000E0000001H', limit: 5 });
    expect(f.seen[0]?.method).toBe('GET');
    expect(f.seen[0]?.url).toBe(
      '/partners/tracking/history?customerId=c&dpeId=0000E0000001H&limit=5',
    );
  });
});

describe('dpe-sim --backend remote: what a user sees', () => {
  const remote = (url: string, ...args: string[]) =>
    runCli(['--backend', 'remote', '--base-url', url, '--partner-key-file', '-', ...args], {
      input: 'dpsk_test_key_1234\n',
      env: { DPE_SIM_CUSTOMER_ID: 'acme', DPE_SIM_USER_ID: 'alice' },
    });

  it('exit 1 naming the field when the response breaks the contract', async () => {
    const f = await fake([
      {
        status: 200,
        body: {
          ...PRE_OK,
          maxCalculation: { ...PRE_OK.maxCalculation, gesXML: null, deltaConso: '?' },
        },
      },
    ]);
    const r = await remote(f.url, 'pre', '0000E0000001H', '--json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("the service's response does not match the spec");
    expect(r.stderr).toContain('maxCalculation.deltaConso');
  });

  it('exit 2 with the server message on 400, exit 4 on 401', async () => {
    const f = await fake([
      {
        status: 400,
        body: { error: "'query.coef2026' must be one of 'activated', 'deactivated'" },
      },
      { status: 401, body: { error: 'invalid or missing partner key' } },
    ]);
    const bad = await remote(f.url, 'pre', '0000E0000001H');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "error: 'query.coef2026' must be one of 'activated', 'deactivated'",
    );
    const denied = await remote(f.url, 'auth');
    expect(denied.code).toBe(4);
    expect(denied.stderr).toContain('authentication failed: invalid or missing partner key');
    expect(denied.stderr).not.toContain('dpsk_test_key_1234');
  });

  it('--retries and Retry-After from the command line', async () => {
    const f = await fake([
      { status: 503, headers: { 'retry-after': '1' } },
      { status: 200, body: PRE_OK },
    ]);
    const r = await remote(f.url, '--retries', '1', 'pre', '0000E0000001H', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(PRE_OK);
    expect(f.seen).toHaveLength(2);
    const g = await fake([{ status: 503 }, { status: 200, body: PRE_OK }]);
    const none = await remote(g.url, '--retries', '0', 'pre', '0000E0000001H');
    expect(none.code).toBe(1);
    expect(g.seen).toHaveLength(1);
  });

  it('--timeout from the command line', async () => {
    const f = await fake([{ status: 200, hang: true }]);
    const r = await remote(f.url, '--timeout', '0.3', 'auth');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${f.url} gave no answer within 0.3 s to POST /partners/user/auth`);
    expect(r.stderr).toContain('hint: wait longer with --timeout SECONDS');
    // the default --retries (2) does not send a computation again after a timeout
    expect(f.seen).toHaveLength(1);
  });
});

/**
 * One client cannot starve the others: a client that reconnects in a loop holds at most
 * `maxConnectionsPerAddress` sockets (the others are answered 429 and closed at once), so
 * `/health` from another address keeps answering; a client over the request rate gets 429 with
 * Retry-After. The hostile client uses 127.0.0.2 (Linux routes all of 127/8 to the loopback).
 */
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_PATH } from '../src/config/keys.js';
import { http, startTestServer, type HttpAnswer, type TestServer } from './server-harness.js';

const HOSTILE_ADDRESS = '127.0.0.2';
const CAN_BIND = process.platform === 'linux';

/** GET /health on a new connection: status and milliseconds to the whole answer. */
function probe(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = get(`${url}/health`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }),
      );
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')));
  });
}

describe.skipIf(!CAN_BIND)('a client reconnecting in a loop', () => {
  let srv: TestServer;
  beforeAll(async () => {
    // a small server: 16 sockets in all, 4 per client address
    srv = await startTestServer({ limits: { maxConnections: 16, maxConnectionsPerAddress: 4 } });
  });
  afterAll(async () => srv?.close());

  it('holds 4 sockets at most, is told 429 for the others, and /health answers meanwhile', async () => {
    const { port } = new URL(srv.url);
    let stop = false;
    let opened = 0;
    let refused = '';
    const held = new Set<Socket>();
    // 40 loops: each opens a socket, sends nothing, and opens another as soon as it is closed
    const loop = async (): Promise<void> => {
      while (!stop) {
        await new Promise<void>((done) => {
          const s = connect({
            host: '127.0.0.1',
            port: Number(port),
            localAddress: HOSTILE_ADDRESS,
          });
          opened++;
          held.add(s);
          s.on('data', (d: Buffer) => {
            if (!refused) refused = d.toString();
          });
          s.on('error', () => {});
          s.on('close', () => {
            held.delete(s);
            done();
          });
          // the loop's own end: hang up
          const check = setInterval(() => {
            if (stop) {
              clearInterval(check);
              s.destroy();
            }
          }, 20);
          s.on('close', () => clearInterval(check));
        });
      }
    };
    const loops = Array.from({ length: 40 }, () => loop());
    try {
      // let the loops fill what they can
      while (opened < 200) await new Promise((r) => setTimeout(r, 10));
      const probes = [];
      for (let i = 0; i < 20; i++) {
        probes.push(await probe(srv.url));
        await new Promise((r) => setTimeout(r, 25));
      }
      // every probe answered (within its 5 s timeout): a starved /health is refused or times
      // out. No bound on the time itself: a machine at load 12 may pause this process.
      expect(probes.map((p) => p.status)).toEqual(Array(20).fill(200));
      expect(opened).toBeGreaterThan(200);
      expect(refused).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
      expect(refused).toContain('\r\nRetry-After: 1\r\n');
      expect(refused).toContain(
        '{"error":"too many connections from this address: at most 4 at once; retry in 1 s"',
      );
    } finally {
      stop = true;
      await Promise.all(loops);
    }
    expect(held.size).toBe(0);
  });
});

/**
 * Opens a socket from `localAddress` that sends a request one byte a second: its headers never
 * end (`headers`), or its headers whole and then its body never ends (`body`: the socket is in a
 * request).
 */
function slowClient(
  port: number,
  localAddress: string,
  mode: 'headers' | 'body',
  onClose: () => void,
): Socket {
  const s = connect({ host: '127.0.0.1', port, localAddress });
  if (mode === 'body')
    s.write(
      'POST /public/api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
  const timer = setInterval(() => {
    if (!s.destroyed) s.write(mode === 'headers' ? 'a' : ' ');
  }, 1000);
  if (mode === 'headers') s.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
  s.on('error', () => {});
  s.on('close', () => {
    clearInterval(timer);
    onClose();
  });
  return s;
}

const SLOW_ADDRESSES = [
  '127.0.0.2',
  '127.0.0.3',
  '127.0.0.4',
  '127.0.0.5',
  '127.0.0.6',
  '127.0.0.7',
];

/** GET `path` on a new connection: its status, 0 when refused or unanswered within 5 s. */
function statusOf(url: string, path: string): Promise<number> {
  return new Promise<number>((resolve) => {
    const req = get(`${url}${path}`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.setTimeout(5000, () => req.destroy());
  });
}

/**
 * Six addresses each keep 4 slow sockets open, reconnecting as soon as one is closed (24
 * wanted); `during` runs once they have had a second and a half to take their places.
 */
async function underSlowClients(
  srv: TestServer,
  mode: 'headers' | 'body',
  during: () => Promise<void>,
): Promise<{ opened: number }> {
  const { port } = new URL(srv.url);
  let stop = false;
  let opened = 0;
  const open = new Set<Socket>();
  const keep = (address: string) => {
    if (stop) return;
    opened++;
    const s = slowClient(Number(port), address, mode, () => {
      open.delete(s);
      setTimeout(() => keep(address), 5);
    });
    open.add(s);
  };
  for (const address of SLOW_ADDRESSES) for (let i = 0; i < 4; i++) keep(address);
  try {
    await new Promise((r) => setTimeout(r, 1500));
    await during();
  } finally {
    stop = true;
    for (const s of open) s.destroy();
  }
  return { opened };
}

/** 16 sockets in all, 4 per address, a reserve of 8 for the probes (2 per address). */
const SMALL = {
  maxConnections: 16,
  maxConnectionsPerAddress: 4,
  probeReserve: 8,
  probeReservePerAddress: 2,
};

describe.skipIf(!CAN_BIND)('slow clients from six addresses', () => {
  it('slow headers: /health and /ready answer 200 from another address (the busiest address gives way)', async () => {
    const srv = await startTestServer({ limits: SMALL });
    try {
      const probes: number[] = [];
      const { opened } = await underSlowClients(srv, 'headers', async () => {
        for (let i = 0; i < 20; i++) {
          probes.push(await statusOf(srv.url, '/health'));
          probes.push(await statusOf(srv.url, '/ready'));
          await new Promise((r) => setTimeout(r, 25));
        }
      });
      expect(opened).toBeGreaterThanOrEqual(24);
      expect(probes).toEqual(Array(40).fill(200));
    } finally {
      await srv.close();
    }
  });

  it('slow bodies (every socket in a request): the probes through the reserve; any other request there is a 503 with Retry-After', async () => {
    const srv = await startTestServer({ limits: SMALL });
    try {
      const probes: number[] = [];
      let other: HttpAnswer<{ error: string; errorObject: unknown }> | undefined;
      await underSlowClients(srv, 'body', async () => {
        for (let i = 0; i < 20; i++) {
          probes.push(await statusOf(srv.url, '/health'));
          probes.push(await statusOf(srv.url, '/ready'));
          await new Promise((r) => setTimeout(r, 25));
        }
        other = await http(`${srv.url}${DEFAULT_HISTORY_PATH}`, { key: srv.keyA });
      });
      expect(probes).toEqual(Array(40).fill(200));
      expect(other?.status).toBe(503);
      expect(other?.headers.get('retry-after')).toBe('1');
      expect(other?.body).toEqual({
        error:
          'the server is at its connection limit: this connection serves only /health and /ready; retry in 1 s',
        errorObject: { reason: 'connection-limit', retryAfterSeconds: 1 },
      });
    } finally {
      await srv.close();
    }
  });

  it('without the reserve, the same slow bodies starve the probes', async () => {
    const srv = await startTestServer({ limits: { ...SMALL, probeReserve: 0 } });
    try {
      const probes: number[] = [];
      await underSlowClients(srv, 'body', async () => {
        for (let i = 0; i < 10; i++) {
          probes.push(await statusOf(srv.url, '/health'));
          await new Promise((r) => setTimeout(r, 25));
        }
      });
      expect(probes.filter((s) => s !== 200).length).toBeGreaterThan(0);
    } finally {
      await srv.close();
    }
  });
});

describe('the request rate per client address', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ limits: { rateLimitMax: 5, rateLimitWindowMs: 60_000 } });
  });
  afterAll(async () => srv?.close());

  it('the 6th request in a minute: 429 with Retry-After and the contract error body; /health and /ready are not counted', async () => {
    const url = `${srv.url}${DEFAULT_HISTORY_PATH}`;
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await http(url, { key: srv.keyA })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const over = await http<{ error: string }>(url, { key: srv.keyA });
    expect(over.status).toBe(429);
    const after = Number(over.headers.get('retry-after'));
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(60);
    expect(over.body.error).toBe(
      `too many requests from this address: at most 5 every 60 s; retry in ${after} s`,
    );
    for (let i = 0; i < 10; i++) {
      expect((await http(`${srv.url}/health`)).status).toBe(200);
      expect((await http(`${srv.url}/ready`)).status).toBe(200);
    }
  });
});

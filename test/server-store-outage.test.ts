/**
 * The store down, on the real throw-away PostgreSQL of the queue tests: `dpe-sim serve` answers
 * 503 with Retry-After and a JSON error naming the store (never a 500), `/ready` says 503 while
 * `/health` (liveness) stays 200, and everything answers again once the database is back.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_PATH } from '../src/config/keys.js';
import { runCli, tempDir } from './helpers.js';
import { pgAvailable, startPg, type PgCluster } from './pg-harness.js';
import { http, IDENTITY, spawnServe, type ServeProcess } from './server-harness.js';

const RUN = pgAvailable('the store outage tests');

interface ErrorAnswer {
  error: string;
  errorObject?: Record<string, unknown>;
}

describe.skipIf(!RUN)('PostgreSQL stopped under a running server', () => {
  let cluster: PgCluster;
  let serve: ServeProcess;
  let key: string;
  beforeAll(async () => {
    cluster = await startPg();
    const url = await cluster.createDatabase();
    const created = await runCli(['--store', url, 'keys', 'create', 'acme']);
    expect(created.code, created.stderr).toBe(0);
    key = created.stdout.trim();
    serve = await spawnServe(['--store', url, '--data-dir', tempDir()]);
  });

  afterAll(async () => {
    await serve?.stop();
    await cluster?.stop();
  });

  it('503 with Retry-After naming the store while it is down; /health 200, /ready 503; then recovery', async () => {
    const history = `${serve.url}${DEFAULT_HISTORY_PATH}`;
    expect((await http(history, { key })).status).toBe(200);
    expect((await http(`${serve.url}/ready`)).body).toEqual({
      status: 'ready',
      checks: { store: 'ok' },
    });

    cluster.halt();
    const expected = {
      error:
        'the store (PostgreSQL) is unavailable: the connection to the database is lost or refused; retry in 5 s',
      errorObject: { reason: 'store-unavailable', store: 'postgresql', retryAfterSeconds: 5 },
    };
    // the partner key is checked in the store too: every partner route says the same
    for (const req of [
      () => http<ErrorAnswer>(history, { key }),
      () => http<ErrorAnswer>(`${serve.url}/partners/user/auth`, { key, body: IDENTITY }),
      () => http<ErrorAnswer>(`${serve.url}/ready`),
    ]) {
      const r = await req();
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('5');
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.body).toEqual(expected);
    }
    expect(await http(`${serve.url}/health`)).toMatchObject({
      status: 200,
      body: { status: 'ok' },
    });
    // the operator's log names the cause; no 500 was logged
    expect(serve.stderr()).toMatch(/503: the store is unavailable \(store postgres:\/\/.*\)/);
    expect(serve.stderr()).not.toContain('failed:');

    cluster.restart();
    // the pool reconnects by itself: wait for /ready (at most 30 s)
    let ready = 0;
    for (let i = 0; i < 300 && ready !== 200; i++) {
      ready = (await http(`${serve.url}/ready`)).status;
      if (ready !== 200) await delay(100);
    }
    expect(ready).toBe(200);
    expect((await http(history, { key })).status).toBe(200);
    expect((await http(`${serve.url}/partners/user/auth`, { key, body: IDENTITY })).status).toBe(
      200,
    );
  });
});

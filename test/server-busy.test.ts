/**
 * The server computes on its engine threads, never on the request thread: /health answers
 * while they work, and when every thread is busy and the queue is full a request gets 503 with
 * Retry-After at once, never a timeout. Runs the real `bin/dpe-sim.js serve` (the engine pool
 * needs the built worker files).
 */
import { copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE, runCli, startCli, tempDir } from './helpers.js';
import { http, IDENTITY } from './server-harness.js';

describe('dpe-sim serve --engine-queue 0 with every engine thread busy', () => {
  const threads = os.availableParallelism();
  const ids = Array.from(
    { length: threads + 4 },
    (_, i) => `0000E${String(1000000 + i).padStart(7, '0')}H`,
  );
  let url = '';
  let key = '';
  let stop: () => Promise<number | null>;
  beforeAll(async () => {
    const dataDir = tempDir();
    const dpeDir = tempDir('dpe-sim-busy-');
    // distinct files (each its own number): no cache answers, every request computes
    for (const id of ids) copyFileSync(HOUSE, path.join(dpeDir, `${id}.xml`));
    key = (await runCli(['keys', 'create', 'busy'], { dataDir })).stdout.trim();
    const { child, done } = startCli(
      ['--dpe-dir', dpeDir, 'serve', '--port', '0', '--engine-queue', '0'],
      {
        dataDir,
      },
    );
    url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /listening on (http:\/\/\S+)\n[\s\S]*OpenAPI/.exec(err);
        if (m) resolve(m[1] as string);
      });
      void done.then((r) => reject(new Error(`serve exited ${r.code}: ${r.stderr}`)));
    });
    stop = async () => {
      child.kill('SIGTERM');
      return (await done).code;
    };
  });
  afterAll(async () => {
    expect(await stop()).toBe(143);
  });

  it('answers 503 with Retry-After beyond the running jobs, 200 to the others, /health meanwhile', async () => {
    const calls = ids.map((dpeId) =>
      http<{ error: string; errorObject?: { retryAfterSeconds?: number } }>(
        `${url}/partners/dpe/initial`,
        { key, body: { ...IDENTITY, dpeId } },
      ),
    );
    // the request thread is free while the engine threads compute
    const health = await http(`${url}/health`);
    expect(health.status).toBe(200);
    const answers = await Promise.all(calls);
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    const busy = answers.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(ids.length - threads);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    for (const a of busy) {
      expect(a.headers.get('retry-after')).toBe('1');
      expect(a.body.errorObject).toEqual({ retryAfterSeconds: 1 });
      expect(a.body.error).toMatch(/^busy: every engine thread is in use/);
    }
  });

  it('takes the refused requests once the threads are free again', async () => {
    const again = await http(`${url}/partners/dpe/pre`, {
      key,
      body: { ...IDENTITY, dpeId: ids[0] },
    });
    expect(again.status).toBe(200);
  });
});

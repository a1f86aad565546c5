/**
 * The distributed batch on graphile-worker, with the real bin: `batch --queue` enqueues,
 * `worker` processes drain the run, `batch status` and `batch results` report it. Each item is
 * in the results exactly once even when a worker is SIGKILLed mid-run, and a worker started
 * after the run began takes part in it. A throw-away PostgreSQL cluster (pg-harness.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAT, runCli, startCli, tempDir } from './helpers.js';
import { pgAvailable, startPg, type PgCluster } from './pg-harness.js';
import { HANG_MS } from './hang.js';

const RUN_PG = pgAvailable('distributed batch (queue) tests');
const IDS = ['0000E0000001H', '0000E0000002F', '0000E0000003T'];
/**
 * The items of the run a worker is killed in: enough that the run is still under way when the
 * third worker has joined (300 were done in about a second once the engine got faster, stop 32,
 * and the victim then held no chunk left to kill it in).
 */
const ITEMS = 1500;

interface Line {
  dpeId: string;
  file: string | null;
  ok: boolean;
  status: string;
  exitCode: number;
  attempts: number;
  error?: { kind: string };
  result?: unknown;
}

const parse = (text: string): Line[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

interface WorkerProc {
  id: string;
  kill(signal: NodeJS.Signals): void;
  stderr(): string;
  done: Promise<{ code: number | null; stderr: string }>;
}

async function startWorker(url: string): Promise<WorkerProc> {
  const { child, done } = startCli(
    ['worker', '--queue', url, '--store', url, '--concurrency', '1'],
    {},
  );
  let err = '';
  const id = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${err}`)), HANG_MS);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /dpe-sim worker (pool-[0-9a-f]+):/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${err}`)));
  });
  return { id, kill: (s) => child.kill(s), stderr: () => err, done };
}

describe.skipIf(!RUN_PG)('batch on a PostgreSQL queue with dpe-sim worker processes', () => {
  let cluster: PgCluster;
  let url: string;
  let sql: pg.Client;
  const workers: WorkerProc[] = [];

  beforeAll(async () => {
    cluster = await startPg();
    url = await cluster.createDatabase();
    sql = new pg.Client({ connectionString: url });
    await sql.connect();
  });

  afterAll(async () => {
    for (const w of workers) w.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.done));
    await sql?.end();
    await cluster?.stop();
  });

  const count = async (query: string, args: unknown[]): Promise<number> =>
    Number((await sql.query<{ n: string }>(query, args)).rows[0]?.n ?? 0);

  it('--wait writes the same lines as a local batch, in input order, typed errors included', async () => {
    const dir = tempDir('dpe-sim-queue-');
    const list = path.join(dir, 'ids.txt');
    writeFileSync(list, [IDS[0], FLAT, 'not-a-dpe', '9999E9999999Z', IDS[2]].join('\n'));
    const worker = await startWorker(url);
    workers.push(worker);
    const queued = await runCli(
      [
        'batch',
        'pre',
        list,
        '--queue',
        url,
        '--run',
        'small',
        '--wait',
        '--out',
        path.join(dir, 'q.jsonl'),
      ],
      {},
    );
    expect(queued.code, queued.stderr).toBe(1); // two items failed
    expect(queued.stderr).toContain('Queued run small: 5 items');
    const local = await runCli(['batch', 'pre', list, '--out', path.join(dir, 'l.jsonl')]);
    expect(local.code, local.stderr).toBe(1);
    const shape = (l: Line) => [l.dpeId, l.file, l.ok, l.status, l.exitCode, l.error?.kind ?? null];
    const q = parse(readFileSync(path.join(dir, 'q.jsonl'), 'utf8'));
    const l = parse(readFileSync(path.join(dir, 'l.jsonl'), 'utf8'));
    // the local batch writes lines as items finish; the queue's results come in input order
    const sorted = (lines: Line[]) => lines.map((x) => JSON.stringify(shape(x))).sort();
    expect(sorted(q)).toEqual(sorted(l));
    expect(q.map(shape)).toEqual([
      [IDS[0], null, true, 'ok', 0, null],
      [IDS[1], FLAT, true, 'ok', 0, null],
      ['not-a-dpe', null, false, 'failed', 2, 'invalid-input'],
      ['9999E9999999Z', null, false, 'failed', 2, 'not-found'],
      [IDS[2], null, true, 'ok', 0, null],
    ]);
    const house = (lines: Line[]) =>
      (lines.find((x) => x.dpeId === IDS[0])?.result as { maxCalculation: unknown }).maxCalculation;
    expect(house(q)).toEqual(house(l));
    expect(house(q)).toBeDefined();

    const status = await runCli(['batch', 'status', 'small', '--queue', url, '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      run: 'small',
      operation: 'pre',
      total: 5,
      done: 5,
      ok: 3,
      failed: 2,
      running: 0,
      finished: true,
    });
    const results = await runCli(['batch', 'results', 'small', '--queue', url]);
    expect(results.code).toBe(1); // failed items, like a local batch
    expect(parse(results.stdout).map(shape)).toEqual(q.map(shape));
    // the workers recorded their runs in the shared store
    expect(await count("SELECT count(*) AS n FROM runs WHERE operation = 'pre'", [])).toBe(3);
  });

  it(`${ITEMS} items, three workers, one SIGKILLed mid-run, one joining late: each item once`, async () => {
    const dir = tempDir('dpe-sim-queue-');
    const list = path.join(dir, 'ids.txt');
    const ids = Array.from({ length: ITEMS }, (_, i) => IDS[i % 3] as string);
    writeFileSync(list, `${ids.join('\n')}\n`);
    const queued = await runCli(['batch', 'pre', list, '--queue', url, '--chunk', '5']);
    expect(queued.code, queued.stderr).toBe(0);
    const run = queued.stdout.trim();
    expect(run).toMatch(/^pre-\d{8}T\d{6}Z-[0-9a-f]{6}$/);

    // the worker of the first test is still there; a second one starts now
    const victim = workers[0] as WorkerProc;
    workers.push(await startWorker(url));
    const done = () =>
      count('SELECT count(*) AS n FROM dpe_sim_batch_results WHERE run = $1', [run]);
    const deadline = Date.now() + 240_000;
    while ((await done()) < 20 && Date.now() < deadline) await sleep(200);

    // a third worker joins the run already under way
    const late = await startWorker(url);
    workers.push(late);

    // the victim is killed while it holds a chunk
    const lockedBy = (w: WorkerProc) =>
      count('SELECT count(*) AS n FROM graphile_worker.jobs WHERE locked_by = $1', [w.id]);
    // (the run must still be under way: a finished one fails here at once, not at the deadline)
    while ((await lockedBy(victim)) === 0 && (await done()) < ITEMS && Date.now() < deadline)
      await sleep(20);
    expect(await lockedBy(victim)).toBeGreaterThan(0);
    const before = await done();
    expect(before).toBeLessThan(ITEMS);
    victim.kill('SIGKILL');
    expect((await victim.done).code).toBe(null);

    for (;;) {
      const status = await runCli(['batch', 'status', run, '--queue', url, '--json']);
      const s = JSON.parse(status.stdout) as { finished: boolean; done: number };
      if (s.finished) break;
      if (Date.now() > deadline) throw new Error(`run not finished: ${status.stdout}`);
      await sleep(1000);
    }

    const out = path.join(dir, 'results.jsonl');
    const results = await runCli(['batch', 'results', run, '--queue', url, '--out', out]);
    expect(results.code, results.stderr).toBe(0);
    const lines = parse(readFileSync(out, 'utf8'));
    expect(lines).toHaveLength(ITEMS);
    expect(lines.map((l) => l.dpeId)).toEqual(ids);
    expect(lines.every((l) => l.status === 'ok')).toBe(true);
    // one row per item, whoever did it
    expect(
      await count('SELECT count(DISTINCT idx) AS n FROM dpe_sim_batch_results WHERE run = $1', [
        run,
      ]),
    ).toBe(ITEMS);
    const by = async (w: WorkerProc) =>
      count('SELECT count(*) AS n FROM dpe_sim_batch_results WHERE run = $1 AND worker = $2', [
        run,
        w.id,
      ]);
    expect(await by(late)).toBeGreaterThan(0);
    expect(await by(victim)).toBeGreaterThan(0);
    expect(await by(victim)).toBeLessThan(ITEMS);
    // no job left. `batch status` counts results, and a job's row goes after them: graphile
    // deletes it once its task has returned, and the victim may have written every result of
    // the chunk it held before it died, its job then freed by a live worker only after the
    // lock's grace (10 s) and a reaper's turn (5 s), and run again (nothing left to do). So
    // the rows may outlive `finished` by some 15 s; a chunk left locked by the dead worker
    // would stay for graphile's 4 h.
    const jobs = () => count('SELECT count(*) AS n FROM graphile_worker.jobs', []);
    let left = await jobs();
    for (const until = Date.now() + HANG_MS; left > 0 && Date.now() < until;) {
      await sleep(100);
      left = await jobs();
    }
    expect(left).toBe(0);
    // the chunk the victim held was freed by a live worker, not left locked for graphile's 4 h
    const survivors = workers.filter((w) => w !== victim);
    expect(survivors.some((w) => w.stderr().includes('freed the chunks of 1 dead worker'))).toBe(
      true,
    );
  });
});

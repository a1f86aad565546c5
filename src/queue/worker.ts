/**
 * `dpe-sim worker`: takes chunks of runs from graphile-worker and runs their items with the
 * local batch's own code (batch-executors' thread pool running batch-worker's `runItem`), so an
 * item done here gives the very line a local batch would write.
 *
 * Exactly once in the results: each item's line is inserted keyed by (run, index) with ON
 * CONFLICT DO NOTHING, and a chunk picked up again runs only its items without a line.
 * Transient failures (kind `runtime`: the engine thread died, the store was unreachable) make
 * the chunk fail and graphile-worker retries it with exponential backoff; on the last attempt
 * they are written as failed lines. Permanent ones (invalid or unknown DPE, blocked) are lines
 * at once.
 *
 * A worker that dies (SIGKILL, lost machine) leaves its chunks locked; graphile-worker would
 * free them only after 4 hours. Liveness is the worker's database session instead: each worker
 * process keeps one session named `dpe-sim-worker:<pool id>` (graphile-worker locks jobs in
 * the name of its pool), and every worker periodically frees (forceUnlockWorkers) the chunks
 * locked for more than a few seconds by a pool whose session PostgreSQL no longer has.
 */
import { EventEmitter } from 'node:events';
import {
  run as runGraphile,
  type JobHelpers,
  type Runner,
  type WorkerEvents,
} from 'graphile-worker';
import pg from 'pg';
import { DpeSimError, errorMessage } from '../contract/errors.js';
import { localExecutor, type Executor } from '../batch/executors.js';
import { failure, outcomeLine, type BatchSettings, type ItemOutcome } from '../batch/item.js';
import type { WorkerData } from '../batch/worker.js';
import { TASK, openQueue } from './db.js';
import { quietLogger } from './log.js';

const PRESENCE_PREFIX = 'dpe-sim-worker:';
/** how often a worker looks for chunks held by dead workers */
const REAP_MS = Number(process.env.DPE_SIM_QUEUE_REAP_MS ?? 5000);
/** a lock younger than this is never taken for a dead worker's (a worker names its session
 * after its pool just after the pool starts) */
const LOCK_GRACE_S = 10;
/** idle executors (one per run's settings) kept besides the ones in use */
const KEEP_EXECUTORS = 1;

export interface QueueWorkerOptions {
  queueUrl: string | undefined;
  /** where each item is run and recorded: as for a local batch (the composition root's input) */
  local: WorkerData['local'];
  /** engine threads */
  threads: number;
  verbose: boolean;
  log: (line: string) => void;
}

interface ChunkPayload {
  run: string;
  from: number;
  to: number;
}

function isChunk(p: unknown): p is ChunkPayload {
  const c = p as ChunkPayload;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.run === 'string' &&
    Number.isInteger(c.from) &&
    Number.isInteger(c.to)
  );
}

/** A thread pool per distinct run settings (identity, operation, works), reused across chunks. */
class Executors {
  private readonly pools = new Map<string, { executor: Executor; users: number; used: number }>();
  constructor(
    private readonly base: Omit<WorkerData, 'settings'>,
    private readonly threads: number,
  ) {}

  async with<T>(settings: BatchSettings, fn: (e: Executor) => Promise<T>): Promise<T> {
    const key = JSON.stringify(settings);
    let entry = this.pools.get(key);
    if (!entry) {
      entry = {
        executor: localExecutor({ ...this.base, settings }, this.threads),
        users: 0,
        used: 0,
      };
      this.pools.set(key, entry);
    }
    entry.users++;
    try {
      return await fn(entry.executor);
    } finally {
      entry.users--;
      entry.used = Date.now();
      await this.trim();
    }
  }

  private async trim(): Promise<void> {
    const idle = [...this.pools]
      .filter(([, e]) => e.users === 0)
      .sort((a, b) => a[1].used - b[1].used);
    for (const [key, e] of idle.slice(0, Math.max(0, idle.length - KEEP_EXECUTORS))) {
      this.pools.delete(key);
      await e.executor.close();
    }
  }

  async close(): Promise<void> {
    for (const e of this.pools.values()) await e.executor.close();
    this.pools.clear();
  }
}

export interface RunningWorker {
  id: string;
  /** resolves when the worker has stopped (after stop(), or on a fatal error) */
  done: Promise<void>;
  stop(): Promise<void>;
}

export async function startQueueWorker(opts: QueueWorkerOptions): Promise<RunningWorker> {
  const jobs = Math.max(2, opts.threads);
  const db = await openQueue(opts.queueUrl, jobs + 3);
  const settingsCache = new Map<string, BatchSettings>();
  const executors = new Executors({ local: opts.local }, opts.threads);

  // this process's liveness, as PostgreSQL sees it: one session that lives as long as we do
  const presence = new pg.Client({
    connectionString: opts.queueUrl,
    application_name: `${PRESENCE_PREFIX}starting`,
  });
  let fatal: (err: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fatal = reject));
  failed.catch(() => {});
  presence.on('error', (err) => fatal(err));
  await presence.connect();

  const runSettings = async (run: string): Promise<BatchSettings> => {
    let s = settingsCache.get(run);
    if (!s) {
      const res = await db.pool.query<{ settings: BatchSettings }>(
        'SELECT settings FROM dpe_sim_batch_runs WHERE name = $1',
        [run],
      );
      s = res.rows[0]?.settings;
      if (!s) throw new DpeSimError('not-found', `no run named '${run}' in the queue`, { run });
      settingsCache.set(run, s);
    }
    return s;
  };

  const task = async (payload: unknown, helpers: JobHelpers): Promise<void> => {
    if (!isChunk(payload)) throw new Error(`malformed job payload: ${JSON.stringify(payload)}`);
    const { run, from, to } = payload;
    const settings = await runSettings(run);
    const items = await db.pool.query<{
      idx: number;
      kind: 'id' | 'path';
      ref: string;
      file: string | null;
    }>(
      `SELECT i.idx, i.kind, i.ref, i.file FROM dpe_sim_batch_items i
       WHERE i.run = $1 AND i.idx >= $2 AND i.idx < $3 AND i.kind <> 'invalid'
         AND NOT EXISTS (SELECT 1 FROM dpe_sim_batch_results r WHERE r.run = i.run AND r.idx = i.idx)
       ORDER BY i.idx`,
      [run, from, to],
    );
    const attempt = helpers.job.attempts;
    const last = attempt >= helpers.job.max_attempts;
    let transient = 0;
    await executors.with(settings, (executor) =>
      Promise.all(
        items.rows.map(async (item) => {
          let outcome: ItemOutcome;
          try {
            outcome = await executor.run({ kind: item.kind, ref: item.ref });
          } catch (err) {
            outcome = failure(item.ref, err, 1, 0);
          }
          if (outcome.status === 'failed' && outcome.error?.kind === 'runtime' && !last) {
            transient++;
            return;
          }
          const line = outcomeLine(item.file, { ...outcome, attempts: attempt });
          await db.pool.query(
            `INSERT INTO dpe_sim_batch_results (run, idx, status, line, worker)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (run, idx) DO NOTHING`,
            [run, item.idx, outcome.status, line, id],
          );
        }),
      ),
    );
    if (transient > 0) {
      // graphile-worker retries the chunk later (exponential backoff); done items are kept
      throw new Error(`${transient} item(s) of ${run} [${from}, ${to}) failed transiently`);
    }
  };

  const logger = quietLogger(opts.verbose);
  let runner: Runner | undefined;
  let id = '';
  const reap = async () => {
    const res = await db.pool.query<{ locked_by: string }>(
      `SELECT DISTINCT j.locked_by FROM graphile_worker.jobs j
       WHERE j.task_identifier = $2 AND j.locked_by IS NOT NULL
         AND j.locked_at < now() - make_interval(secs => $3)
         AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = $1 || j.locked_by)`,
      [PRESENCE_PREFIX, TASK, LOCK_GRACE_S],
    );
    const dead = res.rows.map((r) => r.locked_by);
    if (dead.length) {
      await db.utils.forceUnlockWorkers(dead);
      opts.log(`dpe-sim worker ${id}: freed the chunks of ${dead.length} dead worker(s)`);
    }
  };
  let reaper: NodeJS.Timeout | undefined;
  try {
    // graphile-worker locks jobs in the name of its pool ("pool-…"), known once it exists
    const events = new EventEmitter() as WorkerEvents;
    let poolId: string | undefined;
    events.on('pool:create', ({ workerPool }) => (poolId = workerPool.id));
    runner = await runGraphile({
      pgPool: db.pool,
      concurrency: jobs,
      noHandleSignals: true,
      pollInterval: 1000,
      logger,
      events,
      crontab: '',
      taskList: { [TASK]: task },
    });
    if (!poolId) throw new Error('graphile-worker did not say its pool id');
    id = poolId;
    await presence.query("SELECT set_config('application_name', $1, false)", [
      `${PRESENCE_PREFIX}${id}`,
    ]);
    await reap();
    reaper = setInterval(() => {
      reap().catch((err: unknown) => opts.log(`dpe-sim worker ${id}: ${errorMessage(err)}`));
    }, REAP_MS);
  } catch (err) {
    await runner?.stop().catch(() => {});
    await executors.close();
    await presence.end().catch(() => {});
    await db.close().catch(() => {});
    throw err;
  }

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(reaper);
      await runner?.stop().catch(() => {});
      await executors.close();
      await presence.end().catch(() => {});
      await db.close().catch(() => {});
    })());
  const done = Promise.race([(runner as Runner).promise.then(() => undefined), failed]).finally(
    () => stop(),
  );
  return { id, done, stop };
}

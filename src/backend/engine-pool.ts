/**
 * The engine pool: the local backend's engine work (prepare, pre, initial, calc) on worker
 * threads, never on the thread that serves requests or listens for Ctrl-C. Each thread keeps its
 * own cache of prepared DPEs; a job goes to the thread that last prepared its DPE when that
 * thread is free, else to any free thread. At most `threads + queue` jobs are accepted at once;
 * beyond that a job is refused at once with a `busy` error (HTTP 503 with Retry-After).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DpeSimError } from '../contract/errors.js';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { OnProgress, Progress } from '../contract/progress.js';
import type { DpeText } from '../dpe/source.js';
import type { CostTable } from '../works/costs.js';
import { Piscina } from 'piscina';
import {
  createThreadPool,
  inRoomyThread,
  isOutOfMemory,
  roomyHeapMb,
  ROOMY_OLD_SPACE_MB,
  type LiveThreads,
  workerHeapMb,
  WORKER_HEAP_ENV,
  type PoolTask,
  type PoolThread,
} from '../pool/thread-pool.js';
import { fromWire, type EngineJob, type JobResult, type WireOutcome } from './engine-jobs.js';
import {
  DEFAULT_PREPARED_CACHE_BYTES,
  type EngineRunner,
  type JobOptions,
} from './engine-runner.js';
import type { EngineTask, EngineWorkerData } from './engine-worker.js';

/** Jobs waiting for a thread, per thread, before new ones are refused (the server's queue). */
export const QUEUE_PER_THREAD = 16;
/** What a refused caller is told to wait before trying again, seconds. */
export const RETRY_AFTER_SECONDS = 1;

export interface EnginePoolOptions {
  threads: number;
  /** jobs waiting beyond the running ones (default threads × QUEUE_PER_THREAD) */
  queue?: number;
  costs: CostTable;
  /** memory for prepared DPEs, all threads together, bytes */
  cacheBytes?: number;
  /** nice value each thread adds to its own (Linux), so the calling thread is served first */
  nice?: number;
  /** start the threads now (they load the engine meanwhile), not on first use */
  eager?: boolean;
  /** DPE files each thread runs once at warm-up (compiles the engine's code) */
  warmUpSamples?: string[];
}

/** The DPE files shipped with dpe-sim (`fixtures/`): what a thread warms up on by default. */
function bundledSamples(): string[] {
  const dir = fileURLToPath(new URL('../../fixtures/', import.meta.url));
  return ['0000E0000001H.xml', '0000E0000002F.xml', '0000E0000003T.xml'].map((f) =>
    path.join(dir, f),
  );
}

/** How many DPE keys the pool remembers the thread of. */
const HOMES_REMEMBERED = 4096;

interface Affinity {
  key: string;
}

/**
 * How long an answer waits for its last progress messages at most, ms: a backstop, not a delay
 * that load may reach (the thread's last message, `null`, ends the wait). It was a 1 s wait for
 * the port's close: at load 12 the last "options" tick came later now and then (53 of 54), and
 * the close itself never came (the wait always ran out).
 */
const PROGRESS_DRAIN_MS = 120_000;

/** the engine threads' entry (a CommonJS file piscina can require) */
const ENTRY = new URL('./engine-worker-entry.cjs', import.meta.url);

export class PooledEngine implements EngineRunner {
  private poolValue: Piscina<EngineTask, WireOutcome<unknown>> | undefined;
  private readonly data: EngineWorkerData;
  /** DPE key → id of the thread that prepared it last */
  private readonly homes = new Map<string, number>();
  private inFlight = 0;
  readonly threads: number;
  readonly queue: number;
  private readonly samples: string[];
  /** old-generation heap per thread, MB */
  private readonly heapMb: number;
  /** the fresh threads jobs run in again after theirs ran out of memory, each for one job */
  private readonly fresh: LiveThreads = new Set();

  constructor(opts: EnginePoolOptions) {
    this.heapMb = workerHeapMb();
    this.threads = opts.threads;
    this.queue = opts.queue ?? opts.threads * QUEUE_PER_THREAD;
    this.samples = opts.warmUpSamples ?? bundledSamples();
    this.data = {
      costs: opts.costs,
      cacheBytes: Math.floor((opts.cacheBytes ?? DEFAULT_PREPARED_CACHE_BYTES) / opts.threads),
      ...(opts.nice !== undefined ? { nice: opts.nice } : {}),
    };
    if (opts.eager) void this.pool;
  }

  /** The threads, started on first use (a command that computes nothing starts none). */
  private get pool(): Piscina<EngineTask, WireOutcome<unknown>> {
    this.poolValue ??= createThreadPool({
      entry: ENTRY,
      threads: this.threads,
      maxQueue: Infinity, // admission is counted here (see run)
      workerData: this.data,
      loadBalancer: (task, threads) => this.pick(task, threads),
      oldSpaceMb: this.heapMb,
    });
    return this.poolValue;
  }

  /** The thread that has the task's DPE when it is free, else the first free one. */
  private pick(task: PoolTask, threads: PoolThread[]): PoolThread | null {
    const key = (task as unknown as Record<symbol, Affinity | null>)[Piscina.queueOptionsSymbol]
      ?.key;
    const home = key === undefined ? undefined : this.homes.get(key);
    let chosen: PoolThread | null = null;
    for (const t of threads) {
      if (t.currentUsage !== 0 || t.terminating || t.destroyed) continue;
      chosen ??= t;
      if (t.id === home) {
        chosen = t;
        break;
      }
    }
    if (chosen && key !== undefined) {
      this.homes.delete(key);
      this.homes.set(key, chosen.id);
      if (this.homes.size > HOMES_REMEMBERED) {
        const oldest = this.homes.keys().next().value;
        if (oldest !== undefined) this.homes.delete(oldest);
      }
    }
    return chosen;
  }

  /** Jobs accepted and not yet answered (running or waiting). */
  get pending(): number {
    return this.inFlight;
  }

  /**
   * A job whose caller is gone (`opts.signal` aborted) leaves the queue, or stops its thread
   * (piscina replaces it), and rejects with the signal's reason: a busy server does not compute
   * answers nobody waits for.
   */
  async run<J extends EngineJob>(
    doc: DpeText,
    job: J,
    opts: JobOptions = {},
  ): Promise<JobResult<J>> {
    opts.signal?.throwIfAborted();
    if (
      (job.kind === 'initial' || job.kind === 'audit') &&
      !job.seed &&
      this.threads > 1 &&
      this.inFlight === 0
    )
      return (await this.splitInitial(doc, job, opts)) as JobResult<J>;
    return this.runOne(doc, job, opts);
  }

  /**
   * An `initial` on an idle pool: its works options, one engine run each and most of its time on
   * a large DPE, are split among the threads (`options` jobs, interleaved so that each thread
   * gets every element kind); then one thread runs the `initial` itself with every run seeded
   * (its option runs are then memo hits and the scenario search starts from them). The same
   * runs as on one thread, so the same figures. An `audit` starts the same way.
   */
  private async splitInitial(
    doc: DpeText,
    job: Extract<EngineJob, { kind: 'initial' | 'audit' }>,
    { onProgress, signal }: JobOptions,
  ): Promise<JobResult<typeof job>> {
    const parts = this.threads;
    const done = new Array<number>(parts).fill(0);
    const totals = new Array<number>(parts).fill(0);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const partProgress =
      (i: number): OnProgress =>
      (p) => {
        done[i] = p.done;
        totals[i] = p.total;
        onProgress?.({ step: 'options', done: sum(done), total: sum(totals) });
      };
    const runs = await Promise.all(
      Array.from({ length: parts }, (_, part) =>
        this.runOne(
          doc,
          { kind: 'options', part, parts },
          {
            ...(onProgress ? { onProgress: partProgress(part) } : {}),
            ...(signal ? { signal } : {}),
          },
        ),
      ),
    );
    // the options are done: the seeded run's own pass over them is not progress
    return this.runOne(
      doc,
      { ...job, seed: runs.flat() },
      {
        ...(onProgress ? { onProgress: (p) => p.step !== 'options' && onProgress(p) } : {}),
        ...(signal ? { signal } : {}),
      },
    );
  }

  private async runOne<J extends EngineJob>(
    doc: DpeText,
    job: J,
    opts: JobOptions,
  ): Promise<JobResult<J>> {
    if (this.inFlight >= this.threads + this.queue) {
      throw new DpeSimError(
        'busy',
        `busy: every engine thread is in use and ${this.queue} requests wait; retry in ${RETRY_AFTER_SECONDS} s`,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
    this.inFlight++;
    try {
      const pool = this.pool;
      try {
        return await attempt(pool, doc, job, opts);
      } catch (err) {
        // the thread died of its heap limit (a building larger than any of the corpus): the job
        // runs once more, alone in a fresh thread with four times the heap (the same figures:
        // only memory differs); a pool closed meanwhile answers nothing more
        if (!isOutOfMemory(err) || this.poolValue !== pool || opts.signal?.aborted) throw err;
        return await this.again(doc, job, opts);
      }
    } finally {
      this.inFlight--;
    }
  }

  private async again<J extends EngineJob>(
    doc: DpeText,
    job: J,
    opts: JobOptions,
  ): Promise<JobResult<J>> {
    try {
      return await inRoomyThread<EngineTask, WireOutcome<unknown>, JobResult<J>>(
        { entry: ENTRY, workerData: this.data, usualMb: this.heapMb, live: this.fresh },
        (fresh) => attempt(fresh, doc, job, opts),
      );
    } catch (err) {
      if (!isOutOfMemory(err)) throw err;
      throw new DpeSimError(
        'runtime',
        `the engine ran out of memory on this DPE, in a thread of ${this.heapMb} MB and again in one of ${roomyHeapMb(this.heapMb)} MB (${WORKER_HEAP_ENV} sets the first; the second is four times it, at least ${ROOMY_OLD_SPACE_MB})`,
        undefined,
        { cause: err },
      );
    }
  }

  /**
   * Waits until every thread has loaded the engine and run it on the sample DPEs (the bundled
   * fixtures for a server): its first requests then run on compiled code.
   */
  async warmUp(): Promise<void> {
    const tasks = Array.from({ length: this.threads }, () =>
      this.pool.run({ warmUp: true, samples: this.samples }).then(fromWire),
    );
    try {
      await Promise.all(tasks);
    } catch (err) {
      if (!isOutOfMemory(err)) throw err;
      throw new DpeSimError(
        'runtime',
        `an engine thread ran out of memory while it loaded the engine and ran the sample DPEs, in ${this.heapMb} MB: ${WORKER_HEAP_ENV} is too small`,
        undefined,
        { cause: err },
      );
    }
  }

  async close(): Promise<void> {
    const pool = this.poolValue;
    this.poolValue = undefined;
    await Promise.all([pool?.destroy(), ...[...this.fresh].map((f) => f.destroy())]);
  }
}

/**
 * Runs one job on `pool`. Progress crosses from the engine thread over a port of its own; the
 * thread closes its end after its last message, and the answer (over the pool's own port) may
 * arrive first: wait for that close so that no progress is dropped (the last "options" tick was,
 * now and then).
 */
async function attempt<J extends EngineJob>(
  pool: Piscina<EngineTask, WireOutcome<unknown>>,
  doc: DpeText,
  job: J,
  { onProgress, signal }: JobOptions,
): Promise<JobResult<J>> {
  const channel = onProgress ? new MessageChannel() : undefined;
  const drained = channel ? progressEnd(channel.port1, onProgress) : Promise.resolve();
  try {
    const outcome = await pool.run(
      {
        doc,
        job,
        ...(channel ? { progress: channel.port2 } : {}),
        [Piscina.queueOptionsSymbol]: { key: doc.key },
      },
      {
        ...(channel ? { transferList: [channel.port2] } : {}),
        ...(signal ? { signal } : {}),
      },
    );
    await drained;
    return fromWire(outcome) as JobResult<J>;
  } finally {
    channel?.port1.close();
  }
}

/**
 * Hands the progress messages of `port` on, and resolves at their end: the thread's last
 * message (`null`), or after `ms` (never hangs an answer). The port's own 'close' is not
 * waited for: under piscina it did not come, and the answer waited out the whole delay.
 */
function progressEnd(
  port: MessagePort,
  onProgress: OnProgress | undefined,
  ms = PROGRESS_DRAIN_MS,
): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    port.on('message', (p: Progress | null) => {
      if (p !== null) return onProgress?.(p);
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The one way dpe-sim starts worker threads: a piscina pool with the heap limits the engine
 * needs, one task per thread at a time, threads started at once (so they load the engine while
 * the caller still reads its input). Batch runs whole items on it; the local backend runs its
 * engine work on it (server, CLI). A full queue is refused at once, never waited on.
 */
import { Piscina } from 'piscina';
import { DpeSimError } from '../contract/errors.js';

/** piscina's load balancer: picks a thread for a task, or null to leave it queued */
export type PiscinaLoadBalancer = NonNullable<
  NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']
>;
/** a thread as the load balancer sees it */
export type PoolThread = Parameters<PiscinaLoadBalancer>[1][number];
/** a task as the load balancer sees it */
export type PoolTask = Parameters<PiscinaLoadBalancer>[0];

/**
 * old-generation heap per worker thread, MB: the largest corpus DPE's audit peaks at 183 MB for
 * the whole process; with 192 / 48 the server's RSS levels at about 540 MB under the soak (2
 * threads; 700–770 MB with 256 / 96): docs/server-limits.md "Soak"
 */
export const WORKER_OLD_SPACE_MB = 192;
/** young-generation heap per worker thread, MB */
export const WORKER_YOUNG_SPACE_MB = 48;

/** the environment variable that sets the old-generation heap per thread, MB */
export const WORKER_HEAP_ENV = 'DPE_SIM_WORKER_HEAP_MB';
/** the heap of the fresh thread a job runs in again after its thread ran out of memory, MB */
export const ROOMY_OLD_SPACE_MB = 1024;

/**
 * The old-generation heap per thread: `DPE_SIM_WORKER_HEAP_MB` when set (a server on a small
 * machine lowers it, one serving large buildings raises it), else WORKER_OLD_SPACE_MB.
 */
export function workerHeapMb(env: NodeJS.ProcessEnv = process.env): number {
  const text = env[WORKER_HEAP_ENV];
  if (text === undefined || text === '') return WORKER_OLD_SPACE_MB;
  const mb = Number(text);
  if (!Number.isInteger(mb) || mb < 8 || mb > 65_536)
    throw new DpeSimError(
      'invalid-input',
      `${WORKER_HEAP_ENV} must be a whole number of MB from 8 to 65536, not ${JSON.stringify(text)}`,
      { field: WORKER_HEAP_ENV, value: text },
    );
  return mb;
}

/**
 * The heap of the thread a job runs in again when its own ran out of memory: four times the
 * usual, and at least ROOMY_OLD_SPACE_MB (a building larger than any of the corpus, or a thread
 * that kept what the DPEs before had left).
 */
export function roomyHeapMb(usual: number): number {
  return Math.max(ROOMY_OLD_SPACE_MB, 4 * usual);
}

/** A worker thread that died because it reached its heap limit (piscina passes Node's error). */
export function isOutOfMemory(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}

export interface ThreadPoolOptions {
  /** the worker's entry file (a CommonJS file piscina can require) */
  entry: URL;
  threads: number;
  /** tasks waiting for a thread beyond which `run` rejects (Infinity: never) */
  maxQueue: number;
  workerData: unknown;
  /** picks the thread of a task (e.g. the one that has its DPE in memory) */
  loadBalancer?: PiscinaLoadBalancer;
  /** old-generation heap per thread, MB (default workerHeapMb()) */
  oldSpaceMb?: number;
}

export function createThreadPool<T, R>(opts: ThreadPoolOptions): Piscina<T, R> {
  const pool = new Piscina<T, R>({
    filename: opts.entry.href,
    minThreads: opts.threads,
    maxThreads: opts.threads,
    idleTimeout: 60_000,
    concurrentTasksPerWorker: 1,
    maxQueue: opts.maxQueue,
    workerData: opts.workerData,
    ...(opts.loadBalancer ? { loadBalancer: opts.loadBalancer } : {}),
    // Left alone, V8 lets each worker's heap grow far beyond what it uses (two workers passed
    // 600 MB over 2,000 corpus DPEs, for about 60 MB live). A cap on the old generation keeps it
    // near that; a young generation larger than V8's default lets the engine's short-lived
    // objects (one DPE's computation) die young instead of filling the capped old generation,
    // which would otherwise cost many more full collections.
    resourceLimits: {
      maxOldGenerationSizeMb: opts.oldSpaceMb ?? workerHeapMb(),
      maxYoungGenerationSizeMb: WORKER_YOUNG_SPACE_MB,
    },
  });
  // A thread that dies between tasks (its heap limit reached while it loads the engine, before
  // its first task) is an 'error' of the pool, which would end the whole process unheard (a
  // server with DPE_SIM_WORKER_HEAP_MB too small did): piscina starts another in its place, and
  // a task whose thread dies is answered by its own rejection, which the callers handle.
  pool.on('error', () => {});
  return pool;
}

/** Threads that are closed with their owner (the fresh threads of `inRoomyThread`). */
export type LiveThreads = Set<{ destroy(): Promise<void> }>;

/**
 * Runs `job` on a fresh thread of its own with the roomy heap (`roomyHeapMb(usualMb)`), after a
 * thread of the usual heap ran out of memory on it, then destroys that thread; `live` holds it
 * meanwhile, so that its owner's close destroys it too. The one way a job runs again (the engine
 * pool's jobs, batch's items).
 */
export async function inRoomyThread<T, R, A>(
  opts: { entry: URL; workerData: unknown; usualMb: number; live: LiveThreads },
  job: (pool: Piscina<T, R>) => Promise<A>,
): Promise<A> {
  const pool = createThreadPool<T, R>({
    entry: opts.entry,
    threads: 1,
    maxQueue: Infinity,
    workerData: opts.workerData,
    oldSpaceMb: roomyHeapMb(opts.usualMb),
  });
  opts.live.add(pool);
  try {
    return await job(pool);
  } finally {
    opts.live.delete(pool);
    await pool.destroy();
  }
}

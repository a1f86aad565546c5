/**
 * Where batch items run. Local: a pool of worker threads (piscina), each with the engine loaded
 * once. Remote: N lanes of requests, each lane its own RemoteBackend (so each item's attempt
 * count is its own), with the backend's retries and backoff.
 */
import { Piscina } from 'piscina';
import { DpeSimError } from '../contract/errors.js';
import type { RemoteBackend } from '../backend/remote.js';
import {
  executeItem,
  failure,
  type BatchSettings,
  type ItemOutcome,
  type SourceItem,
} from './item.js';
import type { WorkerData } from './worker.js';

export interface Executor {
  /** how many items may be handed over at once */
  readonly capacity: number;
  run(item: SourceItem): Promise<ItemOutcome>;
  /** drops the items still running (a second Ctrl-C) */
  abort(): Promise<void>;
  close(): Promise<void>;
}

/** old-generation heap per worker thread, MB */
export const WORKER_OLD_SPACE_MB = 256;
/** young-generation heap per worker thread, MB */
export const WORKER_YOUNG_SPACE_MB = 96;

export function localExecutor(data: WorkerData, threads: number): Executor {
  const pool = new Piscina<SourceItem, ItemOutcome>({
    filename: new URL('./worker-entry.cjs', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    concurrentTasksPerWorker: 1,
    workerData: data,
    // Left alone, V8 lets each worker's heap grow far beyond what it uses (two workers passed
    // 600 MB over 2,000 corpus DPEs, for about 60 MB live). A cap on the old generation keeps it
    // near that; a young generation larger than V8's default lets the engine's short-lived
    // objects (one DPE's computation) die young instead of filling the capped old generation,
    // which would otherwise cost many more full collections.
    resourceLimits: {
      maxOldGenerationSizeMb: WORKER_OLD_SPACE_MB,
      maxYoungGenerationSizeMb: WORKER_YOUNG_SPACE_MB,
    },
  });
  let closed = false;
  const stop = async () => {
    if (closed) return;
    closed = true;
    await pool.destroy();
  };
  return {
    // a second item queued per thread, so a thread never waits for the main one
    capacity: threads * 2,
    async run(item) {
      try {
        return await pool.run(item);
      } catch (err) {
        // the worker died (out of memory, killed): that item failed
        return failure(
          item.ref,
          new DpeSimError('runtime', `worker failure: ${String(err)}`),
          1,
          0,
        );
      }
    },
    abort: stop,
    close: stop,
  };
}

export function remoteExecutor(lanes: RemoteBackend[], settings: BatchSettings): Executor {
  const free = [...lanes];
  return {
    capacity: lanes.length,
    async run(item) {
      if (item.kind === 'path') {
        return failure(
          item.ref,
          new DpeSimError(
            'invalid-input',
            'a DPE file works only with the local backend; the remote service knows DPEs by registry number',
          ),
          0,
          0,
        );
      }
      const backend = free.pop();
      if (!backend) throw new Error('batch: more items in flight than remote lanes');
      try {
        return await executeItem(
          { backend, attempts: () => backend.lastAttempts },
          settings,
          item.ref,
        );
      } finally {
        free.push(backend);
      }
    },
    async abort() {},
    async close() {},
  };
}

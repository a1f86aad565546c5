/**
 * Where batch items run. Local: a pool of worker threads (piscina), each with the engine loaded
 * once. Remote: N lanes of requests, each lane its own RemoteBackend (so each item's attempt
 * count is its own), with the backend's retries and backoff.
 */
import {
  createThreadPool,
  WORKER_OLD_SPACE_MB,
  WORKER_YOUNG_SPACE_MB,
} from '../pool/thread-pool.js';
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

export { WORKER_OLD_SPACE_MB, WORKER_YOUNG_SPACE_MB };

export function localExecutor(data: WorkerData, threads: number): Executor {
  // the pool module every worker thread of dpe-sim starts from (the engine pool's too)
  const pool = createThreadPool<SourceItem, ItemOutcome>({
    entry: new URL('./worker-entry.cjs', import.meta.url),
    threads,
    maxQueue: Infinity, // the batch loop bounds what it hands over (capacity)
    workerData: data,
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

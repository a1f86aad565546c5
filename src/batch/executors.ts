/**
 * Where batch items run. Local: a pool of worker threads (piscina), each with the engine loaded
 * once. Remote: N lanes of requests, each lane its own RemoteBackend (so each item's attempt
 * count is its own), with the backend's retries and backoff.
 */
import {
  createThreadPool,
  inRoomyThread,
  isOutOfMemory,
  type LiveThreads,
  roomyHeapMb,
  ROOMY_OLD_SPACE_MB,
  WORKER_HEAP_ENV,
  workerHeapMb,
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
  const entry = new URL('./worker-entry.cjs', import.meta.url);
  const heapMb = workerHeapMb();
  // the pool module every worker thread of dpe-sim starts from (the engine pool's too)
  const pool = createThreadPool<SourceItem, ItemOutcome>({
    entry,
    threads,
    maxQueue: Infinity, // the batch loop bounds what it hands over (capacity)
    workerData: data,
    oldSpaceMb: heapMb,
  });
  /** the fresh threads items run in again, each for one item */
  const retries: LiveThreads = new Set();
  let closed = false;
  const stop = async () => {
    if (closed) return;
    closed = true;
    await Promise.all([pool.destroy(), ...[...retries].map((r) => r.destroy())]);
  };
  const died = (ref: string, err: string, attempts: number) =>
    failure(ref, new DpeSimError('runtime', `worker failure: ${err}`), attempts, 0);
  return {
    // a second item queued per thread, so a thread never waits for the main one
    capacity: threads * 2,
    async run(item) {
      try {
        return await pool.run(item);
      } catch (first) {
        // the worker died (out of memory, killed) with its item; stopped by a second Ctrl-C: the
        // item failed
        if (closed) return died(item.ref, String(first), 1);
        // else the item runs once more, alone in a fresh thread with four times the heap: a
        // thread that kept what the DPEs before it had left, or a building larger than any of
        // the corpus, does not fail the item (the figures are the same: only memory differs)
        try {
          const again = await inRoomyThread<SourceItem, ItemOutcome, ItemOutcome>(
            { entry, workerData: data, usualMb: heapMb, live: retries },
            (fresh) => fresh.run(item),
          );
          return { ...again, attempts: again.attempts + 1 };
        } catch (second) {
          const more = isOutOfMemory(second)
            ? ` (${WORKER_HEAP_ENV}, now ${heapMb}, sets the heap; the second try has four times it, at least ${ROOMY_OLD_SPACE_MB})`
            : '';
          return died(
            item.ref,
            `${String(first)}; again in a fresh thread with ${roomyHeapMb(heapMb)} MB of heap: ${String(second)}${more}`,
            2,
          );
        }
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

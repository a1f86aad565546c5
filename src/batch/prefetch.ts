/**
 * Batch items by DPE number are fetched before they reach the engine workers: at most N
 * lookups (directory → cache → registry) at once on the main thread, separate from the worker
 * pool, so a worker never sits waiting on the network; it then reads the DPE from the cache. A
 * number that cannot be had is that item's failure, with the lookup's typed error (and is
 * retried by `--resume`, which skips only ok and blocked items).
 */
import type { Executor } from './executors.js';
import { failure } from './item.js';

export const DEFAULT_FETCH_CONCURRENCY = 4;

export function prefetchingExecutor(
  inner: Executor,
  /** makes a DPE number available locally; bounded in concurrency by its maker */
  fetch: (dpeId: string) => Promise<void>,
  fetchConcurrency: number,
): Executor {
  return {
    // room for the fetches on top of what the workers take, so fetching runs ahead of them
    capacity: inner.capacity + fetchConcurrency,
    async run(item) {
      if (item.kind === 'id') {
        const started = performance.now();
        try {
          await fetch(item.ref);
        } catch (err) {
          return failure(item.ref, err, 1, Math.round(performance.now() - started));
        }
      }
      return inner.run(item);
    },
    abort: () => inner.abort(),
    close: () => inner.close(),
  };
}

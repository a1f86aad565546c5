/**
 * The local cache of registry DPEs as the front doors see it (`dpe-sim cache`, batch's
 * prefetch): list, clear, fetch ahead of time. Built by the composition root; the registry
 * client, the cache files and the lookup chain stay behind it.
 */
import { DpeCache, type CacheSummary } from '../registry/cache.js';
import { openDpeSource, type ChainedDpeSource } from '../registry/chained-source.js';
import { limiter, prefetch, type PrefetchResult } from '../registry/prefetch.js';
import type { RegistrySettings } from '../registry/settings.js';

export type { CacheSummary, PrefetchResult };

export class DpeCacheAdmin {
  private readonly cache: DpeCache;

  constructor(
    private readonly registry: RegistrySettings,
    private readonly dpeDir: string | undefined,
    /** looked up after dpeDir (the bundled fixtures) */
    private readonly alsoDirs: readonly string[] = [],
  ) {
    this.cache = new DpeCache(registry.cacheDir);
  }

  get dir(): string {
    return this.cache.dir;
  }

  list(): Promise<CacheSummary> {
    return this.cache.list();
  }

  clear(): Promise<{ removed: number; bytes: number }> {
    return this.cache.clear();
  }

  /** Fills the cache from the registry (not --dpe-dir), at most `concurrency` at once. */
  fetch(ids: Iterable<string>, concurrency: number): AsyncGenerator<PrefetchResult> {
    return prefetch(ids, openDpeSource(undefined, this.registry), concurrency);
  }

  /**
   * A function that makes a DPE number available locally (--dpe-dir, fixtures, cache, else fetched and
   * cached), at most `concurrency` lookups at once: batch runs it ahead of the engine workers.
   */
  fetcher(concurrency: number): (dpeId: string) => Promise<void> {
    const source: ChainedDpeSource = openDpeSource(this.dpeDir, this.registry, this.alsoDirs);
    const gate = limiter(concurrency);
    return async (dpeId) => {
      await gate(() => source.read(dpeId));
    };
  }
}

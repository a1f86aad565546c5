/**
 * Where a local request's engine work runs. `InProcessEngine` runs jobs in the calling thread,
 * on DPEs prepared once and kept in a cache bounded by memory; it is what a batch worker and a
 * thread of the engine pool use. `PooledEngine` (engine-pool.ts) sends the same jobs to a pool
 * of threads, so the thread that serves requests (or listens for Ctrl-C) never computes.
 */
import type { OnProgress } from '../contract/progress.js';
import type { DpeText } from '../dpe/source.js';
import { loadEngine, type Engine } from '../engine/engine.js';
import { prepare, type Preparation } from '../simulation/prepared.js';
import { runCount } from '../simulation/runs.js';
import type { CostTable } from '../works/costs.js';
import { runJob, type EngineJob, type JobResult } from './engine-jobs.js';

/** Loads the engine in this thread (a worker loads it while its caller is still starting). */
export async function warmUpEngine(): Promise<void> {
  await loadEngine();
}

/** How a job's caller follows it. */
export interface JobOptions {
  /** progress as it goes */
  onProgress?: OnProgress;
  /**
   * The caller is gone (the server's client closed its connection): the job is dropped from the
   * queue, or its thread stopped, and the run rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

export interface EngineRunner {
  /** Runs a job on a DPE (prepared once per version, then from the cache). */
  run<J extends EngineJob>(doc: DpeText, job: J, opts?: JobOptions): Promise<JobResult<J>>;
  /** Loads the engine now rather than on the first job. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Memory a prepared DPE holds per character of its XML (the parsed document, the engine's
 * output and the baseline's figures; not the XML text), measured on the corpus's 194 DPEs with
 * the heap after a full collection: 1.5 bytes per character on average, up to about 5 for one
 * DPE. Works runs add a frozen copy of the parsed document (works/works-copy.ts): measured on
 * 49 corpus DPEs (every fourth), 3.0 bytes per character prepared (with the engine's memo
 * tables they filled) and 0.45 more for the frozen copies. 5 keeps the estimate on the safe
 * side for most.
 */
export const PREPARED_BYTES_PER_XML_CHAR = 5;
/**
 * Memory a prepared DPE keeps per works run made on it (the runs' memo, simulation/runs.ts, and
 * the kept copies of its frozen parts): after `initial`, 4.6 KB per run at the median, 6.3 KB at
 * the 90th percentile, on 48 corpus DPEs (29,244 runs; the heap after a full collection, the
 * engine's memo tables filled beforehand). An entry after an `initial` (700 runs at the median)
 * then holds about 26 bytes per XML character, up to 62: five times what
 * PREPARED_BYTES_PER_XML_CHAR says. Counted after each job, so that the cache stays within its
 * bytes (a server's engine thread past its heap cap fails its requests).
 */
export const PREPARED_BYTES_PER_WORKS_RUN = 7_000;
/** Default memory for prepared DPEs in one thread (the server splits its budget per thread). */
export const DEFAULT_PREPARED_CACHE_BYTES = 128 * 1024 * 1024;

/**
 * Prepared DPEs by key, least recently used first out, bounded by estimated bytes. The latest
 * entry is always kept, whatever its size (a request uses it right after).
 */
export class PreparedCache {
  private readonly entries = new Map<
    string,
    { version: number; prep: Preparation; bytes: number }
  >();
  private total = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  get(doc: DpeText): Preparation | undefined {
    const hit = this.entries.get(doc.key);
    // version 0: read from stdin, never the same document twice
    if (!hit || hit.version !== doc.version || doc.version === 0) return undefined;
    this.entries.delete(doc.key);
    this.entries.set(doc.key, hit); // most recent last
    return hit.prep;
  }

  /**
   * Counts `bytes` for the entry of `doc` (it grew: works runs were made on it), dropping the
   * least recently used others as needed.
   */
  resize(doc: DpeText, bytes: number): void {
    const entry = this.entries.get(doc.key);
    if (!entry || entry.version !== doc.version) return;
    this.total += bytes - entry.bytes;
    entry.bytes = bytes;
    this.evict();
  }

  set(doc: DpeText, prep: Preparation): void {
    const old = this.entries.get(doc.key);
    if (old) {
      this.total -= old.bytes;
      this.entries.delete(doc.key);
    }
    const bytes = doc.xml.length * PREPARED_BYTES_PER_XML_CHAR;
    this.entries.set(doc.key, { version: doc.version, prep, bytes });
    this.total += bytes;
    this.evict();
  }

  /** Drops the least recently used entries until the bytes fit (the latest is always kept). */
  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.maxBytes || this.entries.size <= 1) break;
      this.entries.delete(key);
      this.total -= entry.bytes;
    }
  }
}

export class InProcessEngine implements EngineRunner {
  private readonly cache: PreparedCache;

  constructor(
    private readonly costs: CostTable,
    cacheBytes: number = DEFAULT_PREPARED_CACHE_BYTES,
  ) {
    this.cache = new PreparedCache(cacheBytes);
  }

  engine(): Promise<Engine> {
    return loadEngine();
  }

  async warmUp(): Promise<void> {
    await loadEngine();
  }

  /** Runs a job synchronously once the engine is loaded (for the pool's threads). */
  runLoaded<J extends EngineJob>(
    engine: Engine,
    doc: DpeText,
    job: J,
    onProgress?: OnProgress,
  ): JobResult<J> {
    let prep = this.cache.get(doc);
    if (!prep) {
      prep = prepare(engine, doc);
      this.cache.set(doc, prep);
    }
    try {
      return runJob(engine, prep, job, this.costs, onProgress) as JobResult<J>;
    } finally {
      // the works runs made on it stay with it (their memo): counted, the cache may evict
      if (prep.ok)
        this.cache.resize(
          doc,
          doc.xml.length * PREPARED_BYTES_PER_XML_CHAR +
            runCount(prep.dpe) * PREPARED_BYTES_PER_WORKS_RUN,
        );
    }
  }

  /** Bytes the prepared DPEs of this runner are counted for (tests, benchmarks). */
  get cachedBytes(): number {
    return this.cache.bytes;
  }

  /** In this thread a job cannot be stopped once started; one whose caller is gone is not started. */
  async run<J extends EngineJob>(
    doc: DpeText,
    job: J,
    opts: JobOptions = {},
  ): Promise<JobResult<J>> {
    const engine = await loadEngine();
    opts.signal?.throwIfAborted();
    return this.runLoaded(engine, doc, job, opts.onProgress);
  }

  async close(): Promise<void> {}
}

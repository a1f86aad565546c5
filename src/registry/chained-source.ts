/**
 * The lookup order for a DPE number: the DPE directory (--dpe-dir), then the local cache, then
 * the national registry (whose answer is checked and cached before it is used). Offline, the
 * registry is never asked. Every DPE read says where it came from (`origin`).
 */
import { DpeSimError } from '../contract/errors.js';
import { DPE_ID_REGEX } from '../contract/constants.js';
import {
  DirectoriesDpeSource,
  DirectoryDpeSource,
  type DpeSource,
  type DpeText,
} from '../dpe/source.js';
import { DpeCache } from './cache.js';
import { REGISTRY_UNREACHABLE_HINT, RegistryClient } from './client.js';
import { limiter } from './prefetch.js';
import type { RegistrySettings } from './settings.js';

/** How a server waits on the registry (a command waits for as long as the lookup takes). */
export interface RegistryWait {
  /**
   * A lookup not answered within this time fails with `timedOut` (a server's 504 with
   * Retry-After); the fetch itself goes on, and its DPE is cached for the next request.
   */
  answerWithinMs?: number;
  /** registry requests at once (the others wait their turn, within `answerWithinMs`) */
  maxFetches?: number;
}

/** How long a number the registry said it does not have is answered 404 without asking again. */
export const UNKNOWN_REMEMBERED_MS = 10 * 60_000;
const UNKNOWN_REMEMBERED_MAX = 10_000;
/** lookups that may wait for the registry per request allowed at once; beyond, refused at once */
const FETCHES_WAITING_PER_SLOT = 16;

export class ChainedDpeSource implements DpeSource {
  private readonly inFlight = new Map<string, Promise<DpeText>>();
  /** numbers the registry answered 404 for: until when, and its error */
  private readonly unknown = new Map<string, { until: number; err: DpeSimError }>();
  private readonly gate: (<T>(task: () => Promise<T>) => Promise<T>) | undefined;

  constructor(
    /** the DPE directory; undefined: none (e.g. `cache fetch`) */
    private readonly directory: DpeSource | undefined,
    readonly cache: DpeCache,
    /** undefined: offline */
    readonly registry: RegistryClient | undefined,
    private readonly wait: RegistryWait = {},
  ) {
    this.gate = wait.maxFetches ? limiter(wait.maxFetches) : undefined;
  }

  get description(): string {
    const parts = [
      ...(this.directory ? [this.directory.description] : []),
      `the cache ${this.cache.dir}`,
      this.registry ? `the registry ${this.registry.description}` : 'no registry (offline)',
    ];
    return parts.join(', then ');
  }

  async read(key: string): Promise<DpeText> {
    let missing: DpeSimError | undefined;
    if (this.directory) {
      try {
        return await this.directory.read(key);
      } catch (err) {
        if (!(err instanceof DpeSimError && err.kind === 'not-found')) throw err;
        missing = err;
      }
    }
    // only registry numbers can be cached or fetched
    if (!DPE_ID_REGEX.test(key)) {
      throw missing ?? new DpeSimError('not-found', `DPE ${key} not found`, { dpeId: key });
    }
    const cached = await this.cache.read(key);
    if (cached) return cached;
    if (!this.registry) throw this.notCached(key, missing);
    const known = this.unknown.get(key);
    if (known && known.until > Date.now()) throw known.err;
    if (known) this.unknown.delete(key);
    return this.withinDeadline(key, this.fetchOnce(key, this.registry));
  }

  /** Asks the registry (through the cache); concurrent reads of one number share one request. */
  private fetchOnce(dpeId: string, registry: RegistryClient): Promise<DpeText> {
    const running = this.inFlight.get(dpeId);
    if (running) return running;
    const most = (this.wait.maxFetches ?? 0) * FETCHES_WAITING_PER_SLOT;
    if (most > 0 && this.inFlight.size >= most) throw this.tooManyWaiting(dpeId, registry);
    const fetchIt = async (): Promise<DpeText> => {
      const doc = await registry.fetchDpe(dpeId);
      const { version } = await this.cache.write(dpeId, doc.xml);
      return { key: dpeId, file: doc.url, xml: doc.xml, version, origin: 'registry' };
    };
    const task = (this.gate ? this.gate(fetchIt) : fetchIt())
      .catch((err: unknown) => {
        if (err instanceof DpeSimError && err.kind === 'not-found')
          this.rememberUnknown(dpeId, err);
        throw err;
      })
      .finally(() => this.inFlight.delete(dpeId));
    // a lookup whose caller stopped waiting (see withinDeadline) must not be an unhandled rejection
    task.catch(() => {});
    this.inFlight.set(dpeId, task);
    return task;
  }

  private tooManyWaiting(dpeId: string, registry: RegistryClient): DpeSimError {
    const url = registry.description.replace('<numero>', dpeId);
    return new DpeSimError(
      'runtime',
      `cannot fetch DPE ${dpeId} from the registry ${url} now: ${this.inFlight.size} lookups already wait for it; retry in 5 s`,
      {
        reason: 'registry-unreachable',
        dpeId,
        registryUrl: url,
        cause: 'too many lookups waiting',
        timedOut: false,
        retryAfterSeconds: 5,
        hint: REGISTRY_UNREACHABLE_HINT,
      },
    );
  }

  private rememberUnknown(dpeId: string, err: DpeSimError): void {
    if (this.unknown.size >= UNKNOWN_REMEMBERED_MAX) {
      const oldest = this.unknown.keys().next().value;
      if (oldest !== undefined) this.unknown.delete(oldest);
    }
    this.unknown.set(dpeId, { until: Date.now() + UNKNOWN_REMEMBERED_MS, err });
  }

  /** The lookup, or a `timedOut` registry failure once `answerWithinMs` has passed. */
  private withinDeadline(dpeId: string, task: Promise<DpeText>): Promise<DpeText> {
    const ms = this.wait.answerWithinMs;
    if (!ms || !this.registry) return task;
    const url = this.registry.description.replace('<numero>', dpeId);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(
          new DpeSimError(
            'runtime',
            `cannot fetch DPE ${dpeId} from the registry ${url}: no answer within ${ms / 1000} s; the lookup goes on, retry in 5 s`,
            {
              reason: 'registry-unreachable',
              dpeId,
              registryUrl: url,
              cause: `no answer within ${ms / 1000} s`,
              timedOut: true,
              retryAfterSeconds: 5,
              hint: REGISTRY_UNREACHABLE_HINT,
            },
          ),
        );
      }, ms);
    });
    return Promise.race([task, late]).finally(() => clearTimeout(timer));
  }

  private notCached(dpeId: string, missing: DpeSimError | undefined): DpeSimError {
    const directory =
      this.directory instanceof DirectoryDpeSource || this.directory instanceof DirectoriesDpeSource
        ? this.directory.dir
        : undefined;
    const where = directory ? `not found in ${directory}, and it is not cached` : 'not cached';
    return new DpeSimError(
      'not-found',
      `DPE ${dpeId} ${where} (${this.cache.dir}); offline mode (--offline or DPE_SIM_OFFLINE=1) asks no registry: fetch it first with \`dpe-sim cache fetch ${dpeId}\` or run without --offline`,
      {
        dpeId,
        ...(directory ? { directory } : {}),
        ...(missing?.details ?? {}),
        cacheDir: this.cache.dir,
        offline: true,
      },
    );
  }
}

/**
 * The lookup chain from resolved settings: directory (when given) and the further directories
 * (the bundled fixtures), cache, registry.
 */
export function openDpeSource(
  dpeDir: string | undefined,
  registry: RegistrySettings,
  alsoDirs: readonly string[] = [],
  wait: RegistryWait = {},
): ChainedDpeSource {
  const dirs = dpeDir === undefined ? [] : [...new Set([dpeDir, ...alsoDirs])];
  return new ChainedDpeSource(
    dirs.length === 0
      ? undefined
      : dirs.length === 1
        ? new DirectoryDpeSource(dirs[0] as string)
        : new DirectoriesDpeSource(dirs),
    new DpeCache(registry.cacheDir),
    registry.offline
      ? undefined
      : new RegistryClient({
          url: registry.url,
          timeoutMs: registry.timeoutMs,
          retries: registry.retries,
          backoffMs: registry.backoffMs,
        }),
    wait,
  );
}

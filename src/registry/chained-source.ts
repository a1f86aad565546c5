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
import { RegistryClient } from './client.js';
import type { RegistrySettings } from './settings.js';

export class ChainedDpeSource implements DpeSource {
  private readonly inFlight = new Map<string, Promise<DpeText>>();

  constructor(
    /** the DPE directory; undefined: none (e.g. `cache fetch`) */
    private readonly directory: DpeSource | undefined,
    readonly cache: DpeCache,
    /** undefined: offline */
    readonly registry: RegistryClient | undefined,
  ) {}

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
    return this.fetchOnce(key, this.registry);
  }

  /** Asks the registry (through the cache); concurrent reads of one number share one request. */
  private fetchOnce(dpeId: string, registry: RegistryClient): Promise<DpeText> {
    const running = this.inFlight.get(dpeId);
    if (running) return running;
    const task = (async (): Promise<DpeText> => {
      const doc = await registry.fetchDpe(dpeId);
      const { version } = await this.cache.write(dpeId, doc.xml);
      return { key: dpeId, file: doc.url, xml: doc.xml, version, origin: 'registry' };
    })().finally(() => this.inFlight.delete(dpeId));
    this.inFlight.set(dpeId, task);
    return task;
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
  );
}

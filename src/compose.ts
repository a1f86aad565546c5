/**
 * The composition root: the one place that builds the object graph (store, DPE source, cost
 * table, engine, backend) from the resolved configuration. The CLI, the server and the batch
 * workers all call it; nothing else wires these pieces together. Heavy modules load on demand,
 * so `dpe-sim --help` pays for none of them.
 */
import type { Backend } from './backend/backend.js';
import { BUNDLED_FIXTURES } from './config/paths.js';
import type { DpeCacheAdmin } from './backend/dpe-cache.js';
import type { EngineRunner } from './backend/engine-runner.js';
import type { LocalServices } from './backend/local-services.js';
import type { RemoteBackend } from './backend/remote.js';
import type { RegistryWait } from './registry/chained-source.js';
import type { RegistrySettings } from './registry/settings.js';
import type { CostTable } from './works/costs.js';

/** What the local side needs, resolved from flags, environment and profile. */
export interface LocalConfig {
  /** where the embedded store lives */
  dataDir: string;
  /** a PostgreSQL URL for a shared store (undefined: the embedded SQLite file in dataDir) */
  storeUrl?: string | undefined;
  /** PostgreSQL: connections in this process's pool */
  poolSize?: number;
  /** directory of DPE XML files looked up by number */
  dpeDir: string;
  /** the user-facing application in login URLs */
  appUrl: string;
  /** JSON file overriding works cost figures */
  costs?: string | undefined;
  /** memory for prepared DPEs, bytes (default 128 MiB) */
  cacheBytes?: number;
  /**
   * Threads of the engine pool that runs pre, initial and calc off the calling thread (the
   * server: one per core; a command: one, so that Ctrl-C is heard); 0 or unset: in this thread.
   */
  engineThreads?: number;
  /** the engine pool's queue beyond its running jobs (default 16 per thread) */
  engineQueue?: number;
  /** start the engine threads now rather than on first use (a command that will compute) */
  engineEager?: boolean;
  /** nice value the engine threads add to theirs (Linux): the server's step back (default 0) */
  engineNice?: number;
  /** the national registry's address (undefined: the default) */
  registryUrl?: string | undefined;
  /** never ask the registry (also DPE_SIM_OFFLINE=1) */
  offline?: boolean;
  /** responses may name the DPE file's path (false on a server: its paths stay there) */
  dpeLocations?: boolean;
  /** how a server waits on the registry (a command: as long as the lookup takes) */
  registryWait?: RegistryWait;
  /** the environment the registry settings are read from (default: process.env) */
  registryEnv?: NodeJS.ProcessEnv;
}

export interface RemoteConfig {
  baseUrl: string;
  partnerKey: string;
  timeoutMs: number;
  retries: number;
  historyPath: string;
}

/** Store, DPE source, costs and engine of the local side (the caller closes it). */
export async function composeLocal(cfg: LocalConfig): Promise<LocalServices> {
  // the engine threads first: they load the engine while this thread loads the rest and opens
  // the store (a command that computes waits on them, not on this thread)
  const { loadCosts } = await import('./works/costs.js');
  const costs = loadCosts(cfg.costs);
  const engine = cfg.engineThreads ? await enginePool(cfg, cfg.engineThreads, costs) : undefined;
  let store;
  let parts;
  try {
    parts = await Promise.all([
      import('./registry/chained-source.js'),
      import('./backend/local-services.js'),
      registrySettings(cfg),
    ]);
    const { openStore } = await import('./store/open.js');
    store = await openStore({
      dataDir: cfg.dataDir,
      storeUrl: cfg.storeUrl,
      ...(cfg.poolSize !== undefined ? { poolSize: cfg.poolSize } : {}),
    });
  } catch (err) {
    await engine?.close();
    throw err;
  }
  const [{ openDpeSource }, { LocalServices }, registry] = parts;
  return new LocalServices({
    store,
    // a DPE number: --dpe-dir, the bundled fixtures, then the cache, then the registry (never,
    // offline)
    source: openDpeSource(cfg.dpeDir, registry, [BUNDLED_FIXTURES], cfg.registryWait),
    appUrl: cfg.appUrl,
    costs,
    ...(cfg.cacheBytes !== undefined ? { cacheBytes: cfg.cacheBytes } : {}),
    ...(engine ? { engine } : {}),
    ...(cfg.dpeLocations !== undefined ? { dpeLocations: cfg.dpeLocations } : {}),
  });
}

async function enginePool(
  cfg: LocalConfig,
  threads: number,
  costs: CostTable,
): Promise<EngineRunner> {
  const { PooledEngine } = await import('./backend/engine-pool.js');
  return new PooledEngine({
    threads,
    costs,
    ...(cfg.engineQueue !== undefined ? { queue: cfg.engineQueue } : {}),
    ...(cfg.engineNice !== undefined ? { nice: cfg.engineNice } : {}),
    ...(cfg.engineEager ? { eager: true } : {}),
    ...(cfg.cacheBytes !== undefined ? { cacheBytes: cfg.cacheBytes } : {}),
  });
}

async function registrySettings(cfg: LocalConfig): Promise<RegistrySettings> {
  const { resolveRegistrySettings } = await import('./registry/settings.js');
  return resolveRegistrySettings(
    {
      registryUrl: cfg.registryUrl,
      offline: cfg.offline,
      dataDir: cfg.dataDir,
    },
    cfg.registryEnv,
  );
}

/**
 * Loads the engine in this thread, apart from any services: a batch worker starts it before
 * its store may be opened (the main thread opens and migrates the store first).
 */
export async function loadLocalEngine(): Promise<void> {
  const { warmUpEngine } = await import('./backend/engine-runner.js');
  await warmUpEngine();
}

/** The local cache of registry DPEs (`dpe-sim cache`, batch's prefetch). */
export async function composeDpeCache(cfg: LocalConfig): Promise<DpeCacheAdmin> {
  const [{ DpeCacheAdmin }, registry] = await Promise.all([
    import('./backend/dpe-cache.js'),
    registrySettings(cfg),
  ]);
  return new DpeCacheAdmin(registry, cfg.dpeDir, [BUNDLED_FIXTURES]);
}

/** A backend and what closing it takes (the local store, for the local backend). */
export interface ComposedBackend {
  backend: Backend;
  close(): Promise<void>;
}

/** The local partner's backend on freshly composed local services. */
export async function composeLocalBackend(cfg: LocalConfig): Promise<ComposedBackend> {
  const services = await composeLocal(cfg);
  try {
    const { LocalBackend } = await import('./backend/local.js');
    const backend = new LocalBackend(services, await services.localPartner());
    return { backend, close: () => services.close() };
  } catch (err) {
    await services.close();
    throw err;
  }
}

export async function composeRemoteBackend(
  cfg: RemoteConfig,
): Promise<ComposedBackend & { backend: RemoteBackend }> {
  const { RemoteBackend } = await import('./backend/remote.js');
  const backend = new RemoteBackend(cfg);
  return { backend, close: () => backend.close() };
}

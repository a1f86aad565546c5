/**
 * A batch worker thread (piscina): its own engine (loaded once), its own store connection (the
 * same SQLite file, WAL) and LocalServices, so every item is run, and recorded in the history,
 * exactly as the single command would do it.
 */
import { workerData } from 'node:worker_threads';
import { LocalServices, type LocalBackend } from '../backend/local.js';
import { DirectoryDpeSource, readDpeFile, type DpeSource, type DpeText } from '../dpe/source.js';
import { elementsOf, parseReferenceId } from '../dpe/elements.js';
import { openStore } from '../store/open.js';
import { loadCosts } from '../works/costs.js';
import {
  executeItem,
  failure,
  type BatchSettings,
  type ItemOutcome,
  type ReferenceCheck,
  type SourceItem,
} from './batch-item.js';

export interface WorkerData {
  dataDir: string;
  /** a PostgreSQL store URL, or undefined for the SQLite file in dataDir */
  storeUrl?: string | undefined;
  dpeDir: string;
  appUrl: string;
  costs: string | undefined;
  settings: BatchSettings;
}

/** The DPE directory, plus the file of the item being run (dropped when it is done). */
class ItemDpeSource implements DpeSource {
  private readonly docs = new Map<string, DpeText>();
  private serial = 0;
  constructor(private readonly fallback: DpeSource) {}

  get description(): string {
    return this.fallback.description;
  }

  /**
   * Makes `doc` the DPE known by its key until released. Its version is made unique, so the
   * services' cache serves it only within this item (two files may carry the same number).
   */
  hold(doc: DpeText): { key: string; release: () => void } {
    const held: DpeText = { ...doc, version: -++this.serial };
    this.docs.set(held.key, held);
    return {
      key: held.key,
      release: () => {
        if (this.docs.get(held.key) === held) this.docs.delete(held.key);
      },
    };
  }

  read(key: string): Promise<DpeText> {
    const doc = this.docs.get(key);
    return doc ? Promise.resolve(doc) : this.fallback.read(key);
  }
}

interface WorkerState {
  services: LocalServices;
  source: ItemDpeSource;
  backend: LocalBackend;
  settings: BatchSettings;
}

// the engine starts loading as soon as the thread starts, while the first items are read
const state: Promise<WorkerState> = init();
state.catch(() => {}); // reported by each item (see runItem)

async function init(): Promise<WorkerState> {
  const data = workerData as WorkerData;
  const store = await openStore({ ...data, poolSize: 2 });
  const source = new ItemDpeSource(new DirectoryDpeSource(data.dpeDir));
  // one prepared DPE kept: calc looks at the DPE's elements, then runs on the same preparation
  const services = new LocalServices({
    store,
    source,
    appUrl: data.appUrl,
    costs: loadCosts(data.costs),
    cacheSize: 1,
  });
  await services.engine();
  return {
    services,
    source,
    backend: services.for(await store.localPartner()),
    settings: data.settings,
  };
}

export default async function runItem(item: SourceItem): Promise<ItemOutcome> {
  const { services, source, backend, settings } = await state;
  const started = performance.now();
  let release = () => {};
  let dpeId = item.ref;
  try {
    if (item.kind === 'path') {
      const held = source.hold(await readDpeFile(item.ref));
      release = held.release;
      dpeId = held.key;
    }
    let hasReference: ReferenceCheck | undefined;
    if (settings.operation === 'calc' && settings.works.length > 0) {
      const { prep } = await services.prepared(dpeId);
      if (prep.ok) {
        const raw = prep.dpe.raw;
        hasReference = (ref) => {
          const parsed = parseReferenceId(ref);
          return parsed ? elementsOf(raw, parsed.category)[parsed.index] !== undefined : undefined;
        };
      }
    }
    const outcome = await executeItem(
      { backend, attempts: () => 1 },
      settings,
      dpeId,
      hasReference,
    );
    return { ...outcome, ms: Math.round(performance.now() - started) };
  } catch (err) {
    return failure(dpeId, err, 1, Math.round(performance.now() - started));
  } finally {
    release();
  }
}

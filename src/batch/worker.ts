/**
 * A batch worker thread (piscina): its own local services from the composition root (engine
 * loaded once, its own connection to the same store), so every item is run, and recorded in the
 * history, exactly as the single command would do it.
 */
import { workerData } from 'node:worker_threads';
import type { LocalBackend } from '../backend/local.js';
import type { LocalServices } from '../backend/local-services.js';
import { composeLocal, loadLocalEngine, type LocalConfig } from '../compose.js';
import {
  executeItem,
  failure,
  type BatchSettings,
  type ItemOutcome,
  type SourceItem,
} from './item.js';

export interface WorkerData {
  local: LocalConfig;
  settings: BatchSettings;
}

interface WorkerState {
  services: LocalServices;
  backend: LocalBackend;
  settings: BatchSettings;
}

// The engine starts loading as soon as the thread starts, while the main thread still opens
// (and migrates) the store and reads the items; this thread opens the store on its first item,
// which the main thread hands over only once the store is ready.
const engine: Promise<void> = loadLocalEngine();
engine.catch(() => {}); // reported by each item (see runItem)
let state: Promise<WorkerState> | undefined;

async function init(): Promise<WorkerState> {
  const data = workerData as WorkerData;
  await engine;
  // only the latest prepared DPE kept: an item is prepared once and never needed again; the
  // engine runs in this thread (already a worker)
  const services = await composeLocal({
    ...data.local,
    cacheBytes: 0,
    engineThreads: 0,
    poolSize: 2,
  });
  const { LocalBackend } = await import('../backend/local.js');
  const backend = new LocalBackend(services, await services.localPartner());
  return { services, backend, settings: data.settings };
}

export default async function runItem(item: SourceItem): Promise<ItemOutcome> {
  state ??= init();
  const { services, backend, settings } = await state;
  const started = performance.now();
  let release = () => {};
  let dpeId = item.ref;
  try {
    if (item.kind === 'path') {
      const held = await services.holdDpe({ path: item.ref });
      release = held.release;
      dpeId = held.dpeId;
    }
    const outcome = await executeItem({ backend, attempts: () => 1 }, settings, dpeId);
    return { ...outcome, ms: Math.round(performance.now() - started) };
  } catch (err) {
    return failure(dpeId, err, 1, Math.round(performance.now() - started));
  } finally {
    release();
  }
}

/**
 * A thread of the engine pool: the engine loaded once, its own cache of prepared DPEs, and one
 * job at a time. Errors travel back as data (`WireOutcome`), so their kind and details survive.
 */
import { workerData } from 'node:worker_threads';
import type { DpeText } from '../dpe/source.js';
import { loadEngine } from '../engine/engine.js';
import type { CostTable } from '../works/costs.js';
import { toWire, type EngineJob, type WireOutcome } from './engine-jobs.js';
import { InProcessEngine } from './engine-runner.js';

export interface EngineWorkerData {
  costs: CostTable;
  /** memory for prepared DPEs in this thread, bytes */
  cacheBytes: number;
}

/** A job on a DPE, or (`warmUp`) nothing but waiting for the engine to be loaded. */
export type EngineTask = { doc: DpeText; job: EngineJob } | { warmUp: true };

const data = workerData as EngineWorkerData;
const runner = new InProcessEngine(data.costs, data.cacheBytes);
// the engine starts loading as soon as the thread starts, while the caller reads its input
const engine = loadEngine();
engine.catch(() => {}); // reported by each task

export default async function runTask(task: EngineTask): Promise<WireOutcome<unknown>> {
  let loaded;
  try {
    loaded = await engine;
  } catch (err) {
    return toWire(() => {
      throw err;
    });
  }
  if ('warmUp' in task) return { ok: true, value: null };
  const { doc, job } = task;
  return toWire(() => runner.runLoaded(loaded, doc, job));
}

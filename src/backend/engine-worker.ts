/**
 * A thread of the engine pool: the engine loaded once, its own cache of prepared DPEs, and one
 * job at a time. Errors travel back as data (`WireOutcome`), so their kind and details survive.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import type { Progress } from '../contract/progress.js';
import type { DpeText } from '../dpe/source.js';
import { readDpeFile } from '../dpe/source.js';
import { loadEngine, type Engine } from '../engine/engine.js';
import { prepare } from '../simulation/prepared.js';
import type { CostTable } from '../works/costs.js';
import { toWire, type EngineJob, type WireOutcome } from './engine-jobs.js';
import { InProcessEngine } from './engine-runner.js';
import { stepBack } from '../pool/thread-priority.js';

export interface EngineWorkerData {
  costs: CostTable;
  /** memory for prepared DPEs in this thread, bytes */
  cacheBytes: number;
  /** nice value this thread adds to its own (Linux; the server's threads step back) */
  nice?: number;
}

/**
 * A job on a DPE, or (`warmUp`) loading the engine and running it on a few sample DPEs, so that
 * the engine's code is compiled and its table lookups are memoised before the first request.
 */
export type EngineTask =
  { doc: DpeText; job: EngineJob; progress?: MessagePort } | { warmUp: true; samples: string[] };

async function warmOn(engine: Engine, samples: string[]): Promise<void> {
  for (const file of samples) {
    try {
      prepare(engine, await readDpeFile(file));
    } catch {
      // a sample that cannot be read or run warms nothing: requests will say what is wrong
    }
  }
}

const data = workerData as EngineWorkerData;
stepBack(data.nice ?? 0);
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
  if ('warmUp' in task) {
    await warmOn(loaded, task.samples);
    return { ok: true, value: null };
  }
  const { doc, job, progress } = task;
  try {
    return toWire(() =>
      runner.runLoaded(
        loaded,
        doc,
        job,
        progress ? (p: Progress) => progress.postMessage(p) : undefined,
      ),
    );
  } finally {
    // the end of the progress messages (the answer goes over another port and may come first)
    progress?.postMessage(null);
    progress?.close();
  }
}

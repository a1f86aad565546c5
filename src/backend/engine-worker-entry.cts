/**
 * The file piscina loads in each engine-pool thread (see batch/worker-entry.cts for why a
 * CommonJS entry): it loads the ES module worker with `import()`.
 */
import type { EngineTask } from './engine-worker.js';
import type { WireOutcome } from './engine-jobs.js';

type WorkerModule = typeof import('./engine-worker.js');
const loading: Promise<WorkerModule> = import('./engine-worker.js');
loading.catch(() => {}); // reported by each task

export = async function runTask(task: EngineTask): Promise<WireOutcome<unknown>> {
  return (await loading).default(task);
};

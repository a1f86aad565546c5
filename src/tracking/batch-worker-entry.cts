/**
 * The file piscina loads in each worker thread. piscina tries `require()` first; this CommonJS
 * entry gives it a plain function and loads the (ES module) worker with `import()`, so no ES
 * module of the worker is ever both required and imported (Node 20 fails on that).
 */
import type { ItemOutcome, SourceItem } from './batch-item.js';

type WorkerModule = typeof import('./batch-worker.js');
let loading: Promise<WorkerModule> | undefined;

export = async function runItem(item: SourceItem): Promise<ItemOutcome> {
  loading ??= import('./batch-worker.js');
  return (await loading).default(item);
};

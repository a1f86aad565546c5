/**
 * The file piscina loads in each worker thread. piscina tries `require()` first; this CommonJS
 * entry gives it a plain function and loads the (ES module) worker with `import()`, so no ES
 * module of the worker is ever both required and imported (Node 20 fails on that). The worker
 * comes from the CLI bundle when it was built (dist/bundle/batch-worker.js).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file's imports */
import fs = require('node:fs');
import path = require('node:path');
import url = require('node:url');
/* eslint-enable @typescript-eslint/no-require-imports */
import type { ItemOutcome, SourceItem } from './item.js';

type WorkerModule = typeof import('./worker.js');
const bundled = path.join(__dirname, '..', 'bundle', 'batch-worker.js');
// loaded when the thread starts (piscina loads this file then): the engine loads meanwhile
const loading: Promise<WorkerModule> = fs.existsSync(bundled)
  ? (import(url.pathToFileURL(bundled).href) as Promise<WorkerModule>)
  : import('./worker.js');
loading.catch(() => {}); // reported by each item

export = async function runItem(item: SourceItem): Promise<ItemOutcome> {
  return (await loading).default(item);
};

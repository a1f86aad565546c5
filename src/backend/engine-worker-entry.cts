/**
 * The file piscina loads in each engine-pool thread (see batch/worker-entry.cts for why a
 * CommonJS entry): it loads the ES module worker with `import()`, from the CLI bundle when it
 * was built (dist/bundle/engine-worker.js: one file for the ~100 modules, scripts/bundle-cli.mjs).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file's imports */
import fs = require('node:fs');
import path = require('node:path');
import url = require('node:url');
/* eslint-enable @typescript-eslint/no-require-imports */
import type { EngineTask } from './engine-worker.js';
import type { WireOutcome } from './engine-jobs.js';

type WorkerModule = typeof import('./engine-worker.js');
const bundled = path.join(__dirname, '..', 'bundle', 'engine-worker.js');
const loading: Promise<WorkerModule> = fs.existsSync(bundled)
  ? (import(url.pathToFileURL(bundled).href) as Promise<WorkerModule>)
  : import('./engine-worker.js');
loading.catch(() => {}); // reported by each task

export = async function runTask(task: EngineTask): Promise<WireOutcome<unknown>> {
  return (await loading).default(task);
};

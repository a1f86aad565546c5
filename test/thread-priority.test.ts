/**
 * The server's engine threads step back behind the request thread (Linux: the nice value is
 * per thread): a worker that steps back is niced, the thread that started it is not.
 */
import { getPriority } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SERVER_ENGINE_NICE, stepBack } from '../src/pool/thread-priority.js';
import { ROOT } from './helpers.js';

describe.skipIf(process.platform !== 'linux')('thread priority (Linux)', () => {
  it('a worker thread that steps back is niced; its process’s main thread is not', async () => {
    const before = getPriority(0);
    // the built module (tests run the built code, as the server does)
    const url = pathToFileURL(path.join(ROOT, 'dist', 'pool', 'thread-priority.js')).href;
    // the worker imports the module as the engine worker does, steps back, reports its nice value
    const worker = new Worker(
      `import(${JSON.stringify(url)}).then((m) => {
         const done = m.stepBack(${SERVER_ENGINE_NICE});
         require('node:worker_threads').parentPort.postMessage({ done, nice: require('node:os').getPriority(0) });
       });`,
      { eval: true },
    );
    const reply = await new Promise<{ done: boolean; nice: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(reply).toEqual({ done: true, nice: Math.min(19, before + SERVER_ENGINE_NICE) });
    expect(getPriority(0)).toBe(before);
  });

  it('stepping back by 0 changes nothing', () => {
    expect(stepBack(0)).toBe(false);
  });
});

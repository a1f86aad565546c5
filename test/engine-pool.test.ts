/**
 * The engine pool splits an `initial` among its threads when it is idle (works options on every
 * thread, then the rest on one, seeded with every run): the same response as one thread gives,
 * and progress that counts every option once, then the target classes. Runs the built pool
 * (dist/: its threads start from the built worker entry), as `dpe-sim initial` and `serve` do.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Progress } from '../src/contract/progress.js';
import type { InitialResponse } from '../src/contract/schemas.js';
import type { EngineRunner } from '../src/backend/engine-runner.js';
import type { DpeText } from '../src/dpe/source.js';
import { CORPUS, FLAT, HAS_CORPUS, HOUSE, ROOT, runCli } from './helpers.js';

const dist = async <T>(p: string): Promise<T> =>
  (await import(pathToFileURL(path.join(ROOT, 'dist', p)).href)) as T;

type Runner = EngineRunner;
let pooled: Runner;
let single: Runner;
let readDpeFile: (file: string) => Promise<DpeText>;
let makePool: (o: object) => Runner;

beforeAll(async () => {
  const { PooledEngine } = await dist<{ PooledEngine: new (o: object) => Runner }>(
    'backend/engine-pool.js',
  );
  const { InProcessEngine } = await dist<{ InProcessEngine: new (c: unknown) => Runner }>(
    'backend/engine-runner.js',
  );
  const { defaultCosts } = await dist<{ defaultCosts: () => unknown }>('works/costs.js');
  ({ readDpeFile } = await dist<{ readDpeFile: typeof readDpeFile }>('dpe/source.js'));
  makePool = (o) => new PooledEngine({ costs: defaultCosts(), ...o });
  pooled = makePool({ threads: 2 });
  single = new InProcessEngine(defaultCosts());
});
afterAll(async () => {
  await pooled?.close();
});

const job = { kind: 'initial', coef: 'activated', forceNormalization: false } as const;

describe('engine pool: initial split among its threads', () => {
  const files = [HOUSE, FLAT, ...(HAS_CORPUS ? [path.join(CORPUS, '2206E1133029I.xml')] : [])];
  it.each(files)('%s: the same response as one thread, progress counted once', async (file) => {
    const doc = await readDpeFile(file);
    const seen: Progress[] = [];
    const split = (await pooled.run(doc, job, {
      onProgress: (p) => seen.push({ ...p }),
    })) as InitialResponse;
    const one = (await single.run(doc, job)) as InitialResponse;
    expect(split).toEqual(one);
    let offered = Object.values(one.dpe.items)
      .flat()
      .reduce(
        (n, el) =>
          n + Object.values(el.editables).reduce((m, e) => m + Object.keys(e.values).length, 0),
        0,
      );
    // the options run count those left out for doing harm (run, then not offered)
    offered += one.dpe.optionsLeftOut?.length ?? 0;
    const options = seen.filter((p) => p.step === 'options');
    // split: the first count is one thread's share, the last all of them
    expect(options[0]?.total).toBeLessThan(offered);
    expect(options.at(-1)).toEqual({ step: 'options', done: offered, total: offered });
    for (let i = 1; i < options.length; i++)
      expect(options[i]?.done).toBeGreaterThanOrEqual(options[i - 1]?.done ?? 0);
    // options first, then the target classes, never options again
    const firstScenario = seen.findIndex((p) => p.step === 'scenarios');
    expect(firstScenario).toBe(options.length);
    expect(seen.at(-1)?.step).toBe('scenarios');
  });
});

describe('engine pool: a job whose caller is gone', () => {
  it('leaves the queue when it waits, stops its thread when it runs; the next jobs answer as before', async () => {
    const one = makePool({ threads: 1 });
    try {
      const [house, flat] = await Promise.all([readDpeFile(HOUSE), readDpeFile(FLAT)]);
      const pre = { kind: 'pre', coef: 'activated', forceNormalization: false } as const;
      // waiting behind the house's pre-analysis on the one thread
      const first = one.run(house, pre);
      const gone = new AbortController();
      const waiting = one.run(flat, pre, { signal: gone.signal });
      gone.abort();
      await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
      expect(await first).toEqual(await single.run(house, pre));
      // running (its first progress came from the thread): the thread is stopped
      const running = new AbortController();
      const stopped = one.run(flat, job, {
        signal: running.signal,
        onProgress: () => running.abort(),
      });
      await expect(stopped).rejects.toMatchObject({ name: 'AbortError' });
      // a caller already gone: nothing is started
      await expect(one.run(flat, job, { signal: AbortSignal.abort() })).rejects.toMatchObject({
        name: 'AbortError',
      });
      // a new thread takes the next job
      expect(await one.run(flat, pre)).toEqual(await single.run(flat, pre));
    } finally {
      await one.close();
    }
  });
});

describe('engine pool: a thread that runs out of memory', () => {
  it('runs the job again in a fresh thread with four times the heap: the same response, progress to the end', async () => {
    // 16 MB is too small for the engine itself: the first thread always dies of its heap limit
    const before = process.env.DPE_SIM_WORKER_HEAP_MB;
    process.env.DPE_SIM_WORKER_HEAP_MB = '16';
    let tight: Runner;
    try {
      tight = makePool({ threads: 1 });
    } finally {
      if (before === undefined) delete process.env.DPE_SIM_WORKER_HEAP_MB;
      else process.env.DPE_SIM_WORKER_HEAP_MB = before;
    }
    try {
      const doc = await readDpeFile(HOUSE);
      const seen: Progress[] = [];
      const again = (await tight.run(doc, job, {
        onProgress: (p) => seen.push({ ...p }),
      })) as InitialResponse;
      const one = (await single.run(doc, job)) as InitialResponse;
      expect(again).toEqual(one);
      expect(seen.at(-1)?.step).toBe('scenarios');
      expect(seen.filter((p) => p.step === 'options').at(-1)?.done).toBeGreaterThan(0);
    } finally {
      await tight.close();
    }
  });

  it('a server whose threads cannot load the engine in their heap says so and exits 1 (no crash of the process on a thread dead between tasks)', async () => {
    const r = await runCli(['serve', '--port', '0'], { env: { DPE_SIM_WORKER_HEAP_MB: '16' } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      'an engine thread ran out of memory while it loaded the engine and ran the sample DPEs, in 16 MB: DPE_SIM_WORKER_HEAP_MB is too small',
    );
    expect(r.stderr).not.toContain('Unhandled');
  });

  it('a heap size that is not a whole number of MB is refused when the pool is made', () => {
    const before = process.env.DPE_SIM_WORKER_HEAP_MB;
    process.env.DPE_SIM_WORKER_HEAP_MB = '0.5';
    try {
      expect(() => makePool({ threads: 1 })).toThrow(
        'DPE_SIM_WORKER_HEAP_MB must be a whole number of MB from 8 to 65536, not "0.5"',
      );
    } finally {
      if (before === undefined) delete process.env.DPE_SIM_WORKER_HEAP_MB;
      else process.env.DPE_SIM_WORKER_HEAP_MB = before;
    }
  });
});

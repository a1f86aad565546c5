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
import { CORPUS, FLAT, HAS_CORPUS, HOUSE, ROOT } from './helpers.js';

const dist = async <T>(p: string): Promise<T> =>
  (await import(pathToFileURL(path.join(ROOT, 'dist', p)).href)) as T;

type Runner = EngineRunner;
let pooled: Runner;
let single: Runner;
let readDpeFile: (file: string) => Promise<DpeText>;

beforeAll(async () => {
  const { PooledEngine } = await dist<{ PooledEngine: new (o: object) => Runner }>(
    'backend/engine-pool.js',
  );
  const { InProcessEngine } = await dist<{ InProcessEngine: new (c: unknown) => Runner }>(
    'backend/engine-runner.js',
  );
  const { defaultCosts } = await dist<{ defaultCosts: () => unknown }>('works/costs.js');
  ({ readDpeFile } = await dist<{ readDpeFile: typeof readDpeFile }>('dpe/source.js'));
  pooled = new PooledEngine({ threads: 2, costs: defaultCosts() });
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
    const split = (await pooled.run(doc, job, (p) => seen.push({ ...p }))) as InitialResponse;
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

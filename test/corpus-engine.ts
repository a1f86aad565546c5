/**
 * What the tests that run the engine on a DPE share: the DPE prepared as `initial` prepares it (a
 * file or a registry corpus DPE), and the figures and class a set of works gives it.
 */
import path from 'node:path';
import { classIndex, type ClassLetter } from '../src/contract/classes.js';
import type { EditableChange } from '../src/contract/schemas.js';
import { readDpeFile } from '../src/dpe/source.js';
import type { Engine } from '../src/engine/engine.js';
import { outcome } from '../src/simulation/calc.js';
import { prepare, type PreparedDpe } from '../src/simulation/prepared.js';
import { figuresOf, runWorks } from '../src/simulation/runs.js';
import { candidatesOf } from '../src/simulation/scenarios.js';
import { Evaluator } from '../src/simulation/search.js';
import { defaultCosts } from '../src/works/costs.js';
import { CORPUS } from './helpers.js';

export const costs = defaultCosts();
export const frame = { coef: 'activated' as const, forceNormalization: false };

/** the DPE XML `file`, prepared (throws, naming the input gate's alert, when it blocks it) */
export async function preparedFile(engine: Engine, file: string): Promise<PreparedDpe> {
  const p = prepare(engine, await readDpeFile(file));
  if (!p.ok) throw new Error(`${file} blocked: ${p.alert.id}: ${p.alert.content}`);
  return p.dpe;
}

/** the corpus DPE `id`, prepared (throws when the input gate blocks it) */
export function corpusDpe(engine: Engine, id: string): Promise<PreparedDpe> {
  return preparedFile(engine, path.join(CORPUS, `${id}.xml`));
}

/** the works' cost and the outcome (figures and classes after) of one engine run */
export function worksFigures(engine: Engine, prep: PreparedDpe, changes: EditableChange[]) {
  const run = runWorks(engine, prep, changes, costs);
  return { cout: run.cout, o: outcome(prep, figuresOf(run, frame.coef), frame.coef, false) };
}

/** the groups of options `initial` offers on `prep`, and an evaluator without a budget */
export function searchOn(engine: Engine, prep: PreparedDpe) {
  return {
    groups: [...candidatesOf(engine, prep, { ...frame, costs }).values()],
    evaluator: new Evaluator(
      engine,
      prep,
      { ...frame, costs, thresholds: prep.thresholds },
      Infinity,
    ),
  };
}

export const reaches = (c: ClassLetter, target: ClassLetter) => classIndex(c) <= classIndex(target);

/**
 * The scenario search against brute force on cases small enough to enumerate: for each target
 * class, the cheapest combination that reaches it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { EditableChange } from '../src/contract/schemas.js';
import { classIndex, CLASS_LETTERS, type ClassLetter } from '../src/contract/classes.js';
import { readDpeFile } from '../src/dpe/source.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { calculate } from '../src/simulation/recalculation.js';
import { resolveChanges } from '../src/works/apply.js';
import { prepare, type PreparedDpe } from '../src/simulation/prepared.js';
import {
  candidatesOf,
  searchScenarios,
  type ScenarioOptions,
} from '../src/simulation/scenarios.js';
import { defaultCosts } from '../src/works/costs.js';
import { FLAT, HOUSE } from './helpers.js';

let engine: Engine;
const prepared = new Map<string, PreparedDpe>();

beforeAll(async () => {
  engine = await loadEngine();
  for (const file of [HOUSE, FLAT]) {
    const prep = prepare(engine, await readDpeFile(file));
    if (!prep.ok) throw new Error(`fixture ${file} blocked`);
    prepared.set(file, prep.dpe);
  }
});

/** Cheapest combination reaching each class, by running every combination through calc. */
function bruteForce(prep: PreparedDpe, opts: ScenarioOptions): Map<ClassLetter, number> {
  const lists = [...candidatesOf(engine, prep, opts).values()];
  const best = new Map<ClassLetter, number>();
  const walk = (i: number, chosen: EditableChange[]): void => {
    if (i === lists.length) {
      const body = calculate(engine, prep, resolveChanges(prep, chosen), {
        coef: opts.coef,
        forceNormalization: opts.forceNormalization,
        simulationId: 'brute',
        scenario: 'brute',
        includeDpe: false,
        costs: opts.costs,
      });
      const reached = body.calculation.result.classe_bilan_dpe.value;
      for (const letter of CLASS_LETTERS) {
        if (classIndex(letter) < reached) continue;
        const cost = body.calculation.hints.coutTravaux;
        if (!best.has(letter) || cost < (best.get(letter) as number)) best.set(letter, cost);
      }
      return;
    }
    walk(i + 1, chosen);
    for (const c of lists[i] ?? []) walk(i + 1, [...chosen, c.change]);
  };
  walk(0, []);
  return best;
}

const CASES: { name: string; file: string; only: string[] }[] = [
  {
    name: 'house: walls, attic, heating, ventilation',
    file: HOUSE,
    only: ['mur:0', 'mur:1', 'plancher_haut:0', 'installation_chauffage:0', 'ventilation:0'],
  },
  {
    name: 'house: walls and windows',
    file: HOUSE,
    only: ['mur:0', 'mur:2', 'baie_vitree:2', 'ventilation:0', 'porte:0'],
  },
  {
    name: 'flat: everything it offers',
    file: FLAT,
    only: ['mur:0', 'mur:1', 'installation_chauffage:0', 'installation_ecs:0', 'ventilation:0'],
  },
];

describe('scenario search equals brute force on small cases', () => {
  for (const c of CASES) {
    for (const strategy of ['exhaustive', 'best-first', 'heuristic'] as const) {
      it(`${c.name} (${strategy})`, () => {
        const prep = prepared.get(c.file) as PreparedDpe;
        const opts: ScenarioOptions = {
          coef: 'activated',
          forceNormalization: false,
          costs: defaultCosts(),
          onlyReferences: c.only,
          strategy,
        };
        const brute = bruteForce(prep, opts);
        const found = searchScenarios(engine, prep, opts);
        expect(found.strategy).toBe(strategy);
        const initial = prep.base;
        expect(initial).toBeDefined();
        const initialClass = calculate(engine, prep, [], {
          coef: 'activated',
          forceNormalization: false,
          simulationId: 'x',
          scenario: 'x',
          includeDpe: false,
          costs: defaultCosts(),
        }).simulation.initialGrade as ClassLetter;
        const targets = CLASS_LETTERS.filter((l) => classIndex(l) < classIndex(initialClass));
        for (const target of targets) {
          const sol = found.solutions.find((s) => s.classe === target);
          const optimum = brute.get(target);
          if (optimum === undefined) {
            expect(sol, `${target} is unreachable`).toBeUndefined();
            continue;
          }
          expect(sol, `a scenario for ${target}`).toBeDefined();
          // the heuristic alone (never the default: auto is exhaustive or best-first) proves
          // nothing: never below the optimum; the bundled flat's A costs it 8 584 € against 6 629 €
          // since its water heater takes the old tank's 100 L (5c56656)
          if (strategy === 'heuristic')
            expect(sol?.cout, `cost of ${target}`).toBeGreaterThanOrEqual(optimum);
          else expect(sol?.cout, `cost of ${target}`).toBe(optimum);
          expect(sol?.result.classe_bilan_dpe.value).toBeLessThanOrEqual(classIndex(target));
        }
      });
    }
  }
});

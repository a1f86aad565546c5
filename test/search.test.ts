/**
 * The cheapest scenario really is the cheapest: the best-first search against every combination
 * of the offered options (not only the search's candidates) on the fixtures, restricted to a few
 * elements so that all combinations can be run; the monotonicity its pruning assumes, checked on
 * each of those combinations; the search core on synthetic problems, exact answers and lower
 * bounds against brute force.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../src/contract/constants.js';
import { classIndex, CLASS_LETTERS, type ClassLetter } from '../src/contract/classes.js';
import type { EditableChange } from '../src/contract/schemas.js';
import { elementsOf, referenceId } from '../src/dpe/elements.js';
import { readDpeFile } from '../src/dpe/source.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { outcome, type Outcome } from '../src/simulation/calc.js';
import { round2 } from '../src/simulation/comparison.js';
import { prepare, type PreparedDpe } from '../src/simulation/prepared.js';
import { figuresOf, runWorks } from '../src/simulation/runs.js';
import {
  candidatesOf,
  groupKey,
  searchScenarios,
  type ScenarioSearch,
} from '../src/simulation/scenarios.js';
import { bestFirst, BOUND_MARGIN } from '../src/simulation/search.js';
import { harmOf } from '../src/simulation/structure.js';
import { offeredOptions } from '../src/works/apply.js';
import { defaultCosts } from '../src/works/costs.js';
import { ecsGensOf, gensOf } from '../src/works/context.js';
import type { RawGeneratorHolder } from '../src/dpe/raw.js';
import { CORPUS, FLAT, HAS_CORPUS, HOUSE, STUDIO } from './helpers.js';
import path from 'node:path';

let engine: Engine;
const prepared = new Map<string, PreparedDpe>();
const costs = defaultCosts();
const frame = { coef: 'activated' as const, forceNormalization: false };
// a scenario's works as `element=option`, sorted, and its options alone
const works = (x: { editables: EditableChange[] } | undefined) =>
  (x?.editables ?? []).map((e) => `${e.referenceId}=${e.editableValue}`).sort();
const optionsOf = (x: { editables: EditableChange[] } | undefined) =>
  (x?.editables ?? []).map((e) => e.editableValue);

beforeAll(async () => {
  engine = await loadEngine();
  for (const file of [HOUSE, FLAT, STUDIO]) {
    const prep = prepare(engine, await readDpeFile(file));
    if (!prep.ok) throw new Error(`fixture ${file} blocked`);
    prepared.set(file, prep.dpe);
  }
});

interface Option {
  change: EditableChange;
  cout: number;
  single: Outcome;
}

/** Every option offered on these elements (those left out as harmful aside), by group. */
function offeredGroups(prep: PreparedDpe, only: readonly string[]): Option[][] {
  const groups = new Map<string, Option[]>();
  for (const category of CATEGORIES)
    elementsOf(prep.raw, category).forEach((el, index) => {
      const ref = referenceId(category, index);
      if (!only.includes(ref)) return;
      for (const row of offeredOptions(prep, category, el)) {
        const change = { referenceId: ref, editableKey: row.key, editableValue: row.code };
        const run = runWorks(engine, prep, [change], costs);
        const single = outcome(prep, figuresOf(run, frame.coef), frame.coef, false);
        const harm = harmOf(
          round2(single.before.ep - single.after.ep),
          round2(single.before.ges - single.after.ges),
        );
        if (harm) continue;
        const key = `${ref}|${row.key}`;
        groups.set(key, [...(groups.get(key) ?? []), { change, cout: run.cout, single }]);
      }
    });
  return [...groups.values()];
}

interface Run {
  choices: (Option | null)[];
  cout: number;
  o: Outcome;
}

/** Every combination (one choice per group, none included), run through the engine. */
function everyCombination(prep: PreparedDpe, groups: Option[][]): Run[] {
  const out: Run[] = [];
  const walk = (i: number, choices: (Option | null)[]): void => {
    if (i === groups.length) {
      const changes = choices.filter((c): c is Option => c !== null).map((c) => c.change);
      const run = runWorks(engine, prep, changes, costs);
      out.push({
        choices,
        cout: run.cout,
        o: outcome(prep, figuresOf(run, frame.coef), frame.coef, false),
      });
      return;
    }
    for (const c of [null, ...(groups[i] as Option[])]) walk(i + 1, [...choices, c]);
  };
  walk(0, []);
  return out;
}

const CASES: { name: string; file: string; only: string[] }[] = [
  {
    name: 'house: walls, attic, heating, ventilation',
    file: HOUSE,
    only: ['mur:0', 'mur:1', 'plancher_haut:0', 'installation_chauffage:0', 'ventilation:0'],
  },
  {
    name: 'house: walls, floor, windows, hot water, door',
    file: HOUSE,
    only: ['mur:0', 'mur:2', 'plancher_bas:0', 'baie_vitree:2', 'installation_ecs:0', 'porte:0'],
  },
  {
    name: 'flat: everything it offers',
    file: FLAT,
    only: ['mur:0', 'mur:1', 'installation_chauffage:0', 'installation_ecs:0', 'ventilation:0'],
  },
  {
    name: 'studio: walls, windows, heating, hot water, ventilation',
    file: STUDIO,
    only: [
      'mur:0',
      'mur:1',
      'baie_vitree:0',
      'installation_chauffage:0',
      'installation_ecs:0',
      'ventilation:0',
    ],
  },
];

describe('the best-first search finds the cheapest combination (fixtures, every combination run)', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const prep = prepared.get(c.file) as PreparedDpe;
      const groups = offeredGroups(prep, c.only);
      const runs = everyCombination(prep, groups);
      expect(runs.length).toBeGreaterThan(20);
      const initial = (runs[0] as Run).o.classesBefore.dpe;
      const found = searchScenarios(engine, prep, {
        ...frame,
        costs,
        onlyReferences: c.only,
        strategy: 'best-first',
        proofBudget: 5000,
      });
      const targets = CLASS_LETTERS.filter((l) => classIndex(l) < classIndex(initial));
      let checked = 0;
      for (const target of targets) {
        const reaching = runs.filter((r) => classIndex(r.o.classesAfter.dpe) <= classIndex(target));
        const optimum = Math.min(...reaching.map((r) => r.cout));
        const sol = found.solutions.find((s) => s.classe === target);
        if (!reaching.length) {
          expect(sol, `${target} is unreachable`).toBeUndefined();
          expect(found.unreachable).toContain(target);
          continue;
        }
        expect(sol, `a scenario for ${target}`).toBeDefined();
        expect(sol?.exact, `${target} proved`).toBe(true);
        // none of the combinations is cheaper than the search's answer
        expect(sol?.cout, `cost of ${target}`).toBe(optimum);
        expect(sol?.lowerBound).toBe(optimum);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
      console.log(
        `${c.name}: ${runs.length} combinations of ${groups.length} groups, ${checked} classes, ` +
          `search ${found.evaluations} change sets`,
      );
    });
  }
});

describe('the monotonicity the pruning assumes holds on every combination of the fixtures', () => {
  // M: in any combination, a choice of a group (no works included) that does better alone on
  // primary energy (or GES) does no worse there, give or take BOUND_MARGIN; generator groups
  // with several options are not assumed so (the search tries each of their options)
  for (const c of CASES) {
    it(c.name, () => {
      const prep = prepared.get(c.file) as PreparedDpe;
      const groups = offeredGroups(prep, c.only);
      const runs = everyCombination(prep, groups);
      const index = new Map<string, Run>();
      const keyOf = (choices: readonly (Option | null)[]) =>
        choices.map((x) => (x ? x.change.editableValue : '-')).join(',');
      for (const r of runs) index.set(keyOf(r.choices), r);
      const base = (runs[0] as Run).o.before;
      const alone = (x: Option | null, f: 'ep' | 'ges') => (x ? x.single.after[f] : base[f]);
      let pairs = 0;
      let worst = 0;
      const violations: string[] = [];
      for (const r of runs)
        groups.forEach((list, g) => {
          if (r.choices[g] !== null) return;
          const generator = list[0]?.change.referenceId.startsWith('installation_');
          if (generator && list.length > 1) return;
          const choices = [null, ...list];
          for (const x of choices)
            for (const y of choices) {
              if (x === y) continue;
              const rx = index.get(keyOf(r.choices.map((c, i) => (i === g ? x : c)))) as Run;
              const ry = index.get(keyOf(r.choices.map((c, i) => (i === g ? y : c)))) as Run;
              for (const f of ['ep', 'ges'] as const) {
                if (alone(x, f) > alone(y, f)) continue;
                pairs++;
                // internal against external insulation of a wall: the search also completes
                // with external insulation preferred (inertia, see search.ts)
                const internalVsExternal =
                  x?.change.editableValue.startsWith('IMurITI') &&
                  y?.change.editableValue.startsWith('IMurITE');
                if (internalVsExternal) continue;
                if (rx.o.after[f] > ry.o.after[f])
                  worst = Math.max(worst, (rx.o.after[f] - ry.o.after[f]) / ry.o.after[f]);
                if (rx.o.after[f] > ry.o.after[f] * (1 + BOUND_MARGIN))
                  violations.push(
                    `${keyOf(r.choices)} group ${g}: ${x?.change.editableValue ?? 'none'} vs ${y?.change.editableValue ?? 'none'} on ${f}: ${rx.o.after[f].toFixed(1)} > ${ry.o.after[f].toFixed(1)}`,
                  );
              }
            }
        });
      expect(pairs).toBeGreaterThan(100);
      expect(violations).toEqual([]);
      console.log(`${c.name}: ${pairs} pairs, largest shift ${(worst * 100).toFixed(2)}%`);
    });
  }
});

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the search core against brute force (synthetic monotone problems)', () => {
  interface Item {
    cost: number;
    a: number;
    b: number;
  }
  it('exact answers are the cheapest; lower bounds hold when the budget cuts the search', () => {
    let cut = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = random(seed);
      const groups: Item[][] = Array.from({ length: 2 + Math.floor(rnd() * 5) }, () =>
        Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => ({
          cost: 1 + Math.floor(rnd() * 20),
          a: rnd() * 10,
          b: rnd() * 10,
        })),
      );
      // savings with a mild interaction, monotone in each choice
      const value = (combo: readonly Item[]) => {
        const sa = combo.reduce((s, x) => s + x.a, 0);
        const sb = combo.reduce((s, x) => s + x.b, 0);
        return { a: sa * (1 + 0.02 * combo.length), b: sb };
      };
      const need = { a: rnd() * 20, b: rnd() * 20 };
      const reaches = (v: { a: number; b: number }) => v.a >= need.a && v.b >= need.b;
      // brute force
      let optimum = Infinity;
      const walk = (i: number, combo: Item[]): void => {
        if (i === groups.length) {
          const cost = combo.reduce((s, x) => s + x.cost, 0);
          if (reaches(value(combo))) optimum = Math.min(optimum, cost);
          return;
        }
        walk(i + 1, combo);
        for (const x of groups[i] as Item[]) walk(i + 1, [...combo, x]);
      };
      walk(0, []);
      const budget = seed % 3 === 0 ? 4 : Infinity;
      let runs = 0;
      const best = (g: number, below: number, f: 'a' | 'b') =>
        (groups[g] as Item[])
          .filter((x) => x.cost < below)
          .reduce<Item | null>((m, x) => (m === null || x[f] > m[f] ? x : m), null);
      const answer = bestFirst<Item, { a: number; b: number }>({
        groups,
        cost: (x) => x.cost,
        run: (combo) => {
          runs++;
          return value(combo);
        },
        reaches,
        bounds: [(g, below) => best(g, below, 'a'), (g, below) => best(g, below, 'b')],
        mayReach: ([x, y]) => reaches({ a: (x as { a: number }).a, b: (y as { b: number }).b }),
        budgetLeft: () => runs < budget,
      });
      if (answer.exact) {
        expect(answer.cost ?? Infinity, `seed ${seed}`).toBe(optimum);
      } else {
        cut++;
        expect(answer.lowerBound, `seed ${seed}`).toBeLessThanOrEqual(optimum);
        if (answer.cost !== null) expect(answer.cost).toBeGreaterThanOrEqual(optimum);
      }
    }
    expect(cut).toBeGreaterThan(10);
  });
});

describe('the predicted search (PREDICT_BUDGET) makes unproved scenarios cheaper, never dearer', () => {
  it('flat: B cheaper than without it, and the cheaper combination reaches B when run', () => {
    const prep = prepared.get(FLAT) as PreparedDpe;
    // (the predicted search across the thresholds, the swap and exchange passes, the second
    // cut search and the final pass off in both: they would find the same)
    const opts = {
      ...frame,
      costs,
      crossingBudget: 0,
      swapBudget: 0,
      exchangeBudget: 0,
      secondCutBudget: 0,
      finalPass: false,
    };
    const without = searchScenarios(engine, prep, { ...opts, predictBudget: 0 });
    const withIt = searchScenarios(engine, prep, opts);
    expect(withIt.solutions.map((s) => s.classe)).toEqual(without.solutions.map((s) => s.classe));
    let cheaper = 0;
    for (const s of withIt.solutions) {
      const w = without.solutions.find((x) => x.classe === s.classe);
      expect(w).toBeDefined();
      const before = w as (typeof without.solutions)[number];
      // never dearer; a proved scenario is left as it was; the bound is the other searches'
      expect(s.cout).toBeLessThanOrEqual(before.cout);
      if (before.exact) expect(s).toEqual(before);
      expect(s.lowerBound).toBeLessThanOrEqual(s.cout);
      if (s.cout < before.cout) {
        cheaper++;
        expect(s.lowerBound).toBe(Math.min(before.lowerBound ?? 0, s.cout));
        // run on its own, the combination reaches the class at the cost the scenario states
        const run = runWorks(engine, prep, s.editables, costs);
        const o = outcome(prep, figuresOf(run, frame.coef), frame.coef, false);
        expect(classIndex(o.classesAfter.dpe)).toBeLessThanOrEqual(
          classIndex(s.classe as ClassLetter),
        );
        expect(run.cout).toBe(s.cout);
      }
    }
    // on this flat, B: three walls lined inside, one of them at R 3.0 rather than 3.7
    expect(cheaper).toBeGreaterThan(0);
  });
});

describe('the last pass (DROP_BUDGET): no unproved scenario holds an option its class does not need', () => {
  it('house, flat, studio: dropping any one option loses the class or saves nothing; never dearer than without the pass', () => {
    let checked = 0;
    for (const file of [HOUSE, FLAT, STUDIO]) {
      const prep = prepared.get(file) as PreparedDpe;
      const opts = { ...frame, costs };
      const without = searchScenarios(engine, prep, { ...opts, dropBudget: 0 });
      // (a budget every scenario's options fit in: the property then holds for each)
      const withIt = searchScenarios(engine, prep, { ...opts, dropBudget: 1_000 });
      for (const s of withIt.solutions) {
        const before = without.solutions.find((x) => x.classe === s.classe);
        expect(before, `${file} ${s.classe}`).toBeDefined();
        expect(s.cout).toBeLessThanOrEqual((before as { cout: number }).cout);
        expect(s.lowerBound).toBeLessThanOrEqual(s.cout);
        if (s.exact) continue;
        for (const e of s.editables) {
          const rest = s.editables.filter((x) => x !== e);
          const run = runWorks(engine, prep, rest, costs);
          const o = outcome(prep, figuresOf(run, frame.coef), frame.coef, false);
          const still = classIndex(o.classesAfter.dpe) <= classIndex(s.classe as ClassLetter);
          expect(still && run.cout < s.cout, `${file} ${s.classe} without ${e.editableValue}`).toBe(
            false,
          );
          checked++;
        }
      }
    }
    // (not vacuous: unproved scenarios with options to drop were tried)
    expect(checked).toBeGreaterThan(5);
  });
});

describe('the swap pass (SWAP_BUDGET): no unproved scenario keeps an option a cheaper one of its group replaces', () => {
  it('house E: R 3.0 instead of R 3.7 behind one wall, cheaper, and reaching E at its stated cost', () => {
    const prep = prepared.get(HOUSE) as PreparedDpe;
    // (the exchange pass, the second cut search and the final pass off in both: they would find
    // the same)
    const opts = { ...frame, costs, exchangeBudget: 0, secondCutBudget: 0, finalPass: false };
    const e = (x: ReturnType<typeof searchScenarios>) => x.solutions.find((s) => s.classe === 'E');
    const before = e(searchScenarios(engine, prep, { ...opts, swapBudget: 0 }));
    const after = e(searchScenarios(engine, prep, opts));
    expect(before?.exact).toBe(false);
    expect(after?.cout).toBeLessThan(before?.cout ?? 0);
    // the same walls, one option for a cheaper one of its group
    expect(after?.editables.map((x) => x.referenceId).sort()).toEqual(
      before?.editables.map((x) => x.referenceId).sort(),
    );
    const run = runWorks(engine, prep, after?.editables ?? [], costs);
    const o = outcome(prep, figuresOf(run, frame.coef), frame.coef, false);
    expect(run.cout).toBe(after?.cout);
    expect(classIndex(o.classesAfter.dpe)).toBeLessThanOrEqual(classIndex('E'));
    // the bound is the other searches': the pass proves nothing
    expect(after?.lowerBound).toBe(before?.lowerBound);
  });

  it('house, flat, studio: swapping any option for a cheaper one of its group loses the class', () => {
    let checked = 0;
    for (const file of [HOUSE, FLAT, STUDIO]) {
      const prep = prepared.get(file) as PreparedDpe;
      const opts = { ...frame, costs };
      const groups = candidatesOf(engine, prep, opts);
      // (a budget every scenario's swaps fit in: the property then holds for each)
      const withIt = searchScenarios(engine, prep, { ...opts, swapBudget: 10_000 });
      for (const s of withIt.solutions) {
        if (s.exact) continue;
        for (const e of s.editables) {
          const mine = s.items?.find((i) => i.referenceId === e.referenceId)?.cout ?? 0;
          for (const d of groups.get(groupKey(e.referenceId, e.editableKey)) ?? []) {
            if (d.cout >= mine) break;
            const list = s.editables.map((x) => (x === e ? d.change : x));
            const run = runWorks(engine, prep, list, costs);
            const o = outcome(prep, figuresOf(run, frame.coef), frame.coef, false);
            const still = classIndex(o.classesAfter.dpe) <= classIndex(s.classe as ClassLetter);
            expect(
              still && run.cout < s.cout,
              `${file} ${s.classe}: ${d.change.editableValue}`,
            ).toBe(false);
            checked++;
          }
        }
      }
    }
    // (not vacuous: cheaper options were tried in unproved scenarios)
    expect(checked).toBeGreaterThan(5);
  });
});

type SearchOptions = Partial<Parameters<typeof searchScenarios>[2]>;

/**
 * The scenario for `target` without a pass (`opts` and `off`) and with it (`opts`): cheaper with
 * it, reaching the class at the cost it states when run on its own, and with the same bound (the
 * passes prove nothing: the bound is the searches').
 */
function cheaperWith(
  prep: PreparedDpe,
  target: ClassLetter,
  opts: SearchOptions,
  off: SearchOptions,
) {
  // (the last cut search and the closing round off in both: they come after every pass, and
  // would prove or lower either)
  const all = { ...frame, costs, lastCutBudget: 0, closeBudget: 0, ...opts };
  const pick = (x: ReturnType<typeof searchScenarios>) =>
    x.solutions.find((s) => s.classe === target);
  const before = pick(searchScenarios(engine, prep, { ...all, ...off }));
  const after = pick(searchScenarios(engine, prep, all));
  expect(before?.exact).toBe(false);
  expect(after?.cout).toBeLessThan(before?.cout ?? 0);
  const run = runWorks(engine, prep, after?.editables ?? [], costs);
  const o = outcome(prep, figuresOf(run, frame.coef), frame.coef, false);
  expect(run.cout).toBe(after?.cout);
  expect(classIndex(o.classesAfter.dpe)).toBeLessThanOrEqual(classIndex(target));
  expect(after?.lowerBound).toBe(before?.lowerBound);
  return { before, after };
}

describe('the exchange pass (EXCHANGE_BUDGET): one strong option in, the options it makes redundant out', () => {
  // (the second cut search and the final pass off in both: they would find the same)
  const check = (prep: PreparedDpe, target: ClassLetter) =>
    cheaperWith(prep, target, { secondCutBudget: 0, finalPass: false }, { exchangeBudget: 0 });

  it('house B: a heat pump for heating and hot water in place of a heat pump and a water heater', () => {
    const { before, after } = check(prepared.get(HOUSE) as PreparedDpe, 'B');
    expect(optionsOf(before)).toEqual(expect.arrayContaining(['PACAirEau', 'CET']));
    expect(optionsOf(after)).toContain('PACAirEauECS');
    expect(optionsOf(after)).not.toContain('CET');
  });

  it.skipIf(!HAS_CORPUS)(
    '2593E3377930D B: below the 15,947 € a random probe found where the search said 19,186 €',
    async () => {
      const p = prepare(engine, await readDpeFile(path.join(CORPUS, '2593E3377930D.xml')));
      if (!p.ok) throw new Error('blocked');
      const { after } = check(p.dpe, 'B');
      expect(after?.cout).toBeLessThan(15_947);
    },
  );
});

if (!HAS_CORPUS) console.warn(`\n⚠ last-pass corpus test SKIPPED: no corpus at ${CORPUS}\n`);

describe.skipIf(!HAS_CORPUS)('the last pass on a corpus DPE where it binds', () => {
  it('2387E0507343Q D: the predicted answer held a wall the class does not need; the pass drops it', async () => {
    const p = prepare(engine, await readDpeFile(path.join(CORPUS, '2387E0507343Q.xml')));
    if (!p.ok) throw new Error('blocked');
    const prep = p.dpe;
    // (the swap and exchange passes, the second cut search and the final pass off in both: they
    // would find the same)
    const opts = {
      ...frame,
      costs,
      swapBudget: 0,
      exchangeBudget: 0,
      secondCutBudget: 0,
      finalPass: false,
    };
    const before = searchScenarios(engine, prep, { ...opts, dropBudget: 0 }).solutions.find(
      (s) => s.classe === 'D',
    );
    const after = searchScenarios(engine, prep, opts).solutions.find((s) => s.classe === 'D');
    expect(before?.exact).toBe(false);
    expect(after?.cout).toBeLessThan(before?.cout ?? 0);
    // the answer, run on its own, reaches D at its stated cost, and needs each of its options
    const items = after?.editables ?? [];
    const figures = (list: EditableChange[]) => {
      const run = runWorks(engine, prep, list, costs);
      return { cout: run.cout, o: outcome(prep, figuresOf(run, frame.coef), frame.coef, false) };
    };
    const all = figures(items);
    expect(all.cout).toBe(after?.cout);
    expect(classIndex(all.o.classesAfter.dpe)).toBeLessThanOrEqual(classIndex('D'));
    for (const e of items)
      expect(
        classIndex(figures(items.filter((x) => x !== e)).o.classesAfter.dpe),
        `without ${e.referenceId} ${e.editableValue}`,
      ).toBeGreaterThan(classIndex('D'));
  });
});

/**
 * A pass that only lowers costs, on the house, flat and studio: with it, every scenario as cheap
 * or cheaper than with `off`, its bound the same (down to its cost), a proved one unchanged.
 */
function neverDearerThanWithout(off: SearchOptions): void {
  for (const file of [HOUSE, FLAT, STUDIO]) {
    const prep = prepared.get(file) as PreparedDpe;
    // (the last cut search and the closing round off in both: they come after every pass, and
    // raise bounds)
    const none = { ...frame, costs, lastCutBudget: 0, closeBudget: 0 };
    const without = searchScenarios(engine, prep, { ...none, ...off });
    const withIt = searchScenarios(engine, prep, none);
    expect(withIt.solutions.map((s) => s.classe)).toEqual(without.solutions.map((s) => s.classe));
    for (const s of withIt.solutions) {
      const b = without.solutions.find((x) => x.classe === s.classe);
      const what = `${file} ${s.classe}`;
      expect(s.cout, what).toBeLessThanOrEqual(b?.cout ?? 0);
      expect(s.lowerBound, what).toBe(Math.min(b?.lowerBound ?? 0, s.cout));
      if (b?.exact) expect(s, what).toEqual(b);
    }
  }
}

describe('the final pass (FINAL_POLISH_BUDGET): after every search, drops and swaps until neither helps, then exchanges', () => {
  const check = (prep: PreparedDpe, target: ClassLetter) =>
    cheaperWith(prep, target, {}, { finalPass: false });

  it('house A: cheaper, with fewer works (four windows and a door out) and a wall at R 3.0 for R 3.7', () => {
    const { before, after } = check(prepared.get(HOUSE) as PreparedDpe, 'A');
    // (44,796 € before it, 42,116 € after, on the bundled costs)
    expect(works(after).length).toBeLessThan(works(before).length);
    expect(works(before)).toContain('mur:0=IMurITI37');
    expect(works(after)).toContain('mur:0=IMurITI30');
  });

  it('house, flat, studio: never dearer, a proved scenario unchanged, the bound unchanged', () =>
    neverDearerThanWithout({ finalPass: false }));

  it.skipIf(!HAS_CORPUS)(
    '2387E0112514X B: an insulated door the class does not need (a random probe found it), out',
    async () => {
      const p = prepare(engine, await readDpeFile(path.join(CORPUS, '2387E0112514X.xml')));
      if (!p.ok) throw new Error('blocked');
      const { before, after } = check(p.dpe, 'B');
      expect(works(before)).toContain('porte:1=PorteIsolee');
      expect(works(after)).not.toContain('porte:1=PorteIsolee');
      // (47,178 € before it; the probe's 45,678 € is the scenario less the door)
      expect(after?.cout).toBeLessThanOrEqual(45_678);
    },
  );
});

describe('the last polish (REORDER_BUDGET): the final pass again, its exchanges trimmed in the other order too', () => {
  it('house, flat, studio: never dearer, a proved scenario unchanged, the bound unchanged', () =>
    neverDearerThanWithout({ reorderBudget: 0 }));

  it.skipIf(!HAS_CORPUS)(
    '2187E1039187C D: the option an exchange brings in, dropped at its turn, is tried last too (the second attic in, two walls out)',
    async () => {
      const p = prepare(engine, await readDpeFile(path.join(CORPUS, '2187E1039187C.xml')));
      if (!p.ok) throw new Error('blocked');
      const { before, after } = cheaperWith(p.dpe, 'D', {}, { reorderBudget: 0 });
      // (11,484 € without it: the attic, dearer than each wall it makes redundant, was dropped
      // first, which took the exchange back to where it started)
      expect(before?.cout).toBe(11_484);
      expect(after?.cout).toBeLessThanOrEqual(10_515);
      expect(works(after)).toContain('plancher_haut:1=IComblesR7');
      expect(works(after)).not.toContain('mur:4=IMurITI30');
    },
  );
});

describe("the descent (DESCENT_BUDGET): an unproved answer against what a stricter class's answer holds", () => {
  it('house, flat, studio: never dearer, a proved scenario unchanged, the bound unchanged', () =>
    neverDearerThanWithout({ descentBudget: 0 }));

  it.skipIf(!HAS_CORPUS)(
    "2387E1742056P E: B's walls, roof and ventilation without its heat pump, windows, door and water heater reach E for less than a heat pump alone",
    async () => {
      const p = prepare(engine, await readDpeFile(path.join(CORPUS, '2387E1742056P.xml')));
      if (!p.ok) throw new Error('blocked');
      const { before, after } = cheaperWith(p.dpe, 'E', {}, { descentBudget: 0 });
      // (12,000 €: the air-water heat pump alone; 10,694 €: four walls lined inside, the roof,
      // the ventilation, each of them in B's answer)
      expect(works(before)).toEqual(['installation_chauffage:0=PACAirEau']);
      expect(works(after)).toContain('plancher_haut:0=IComblesR7');
      expect(works(after)).not.toContain('installation_chauffage:0=PACAirEau');
      expect(after?.cout).toBeLessThanOrEqual(10_694);
    },
  );
});

/**
 * The house, the flat and the studio searched with `opts`, and again with `off` as well: the same
 * classes, every scenario as cheap, its bound as high where its cost is the same, the proved ones
 * untouched. Returns how many scenarios the pass made cheaper or better bounded, and both searches
 * by file.
 */
function liftedBy(opts: SearchOptions, off: SearchOptions) {
  let improved = 0;
  const runs = new Map<string, { without: ScenarioSearch; withIt: ScenarioSearch }>();
  for (const file of [HOUSE, FLAT, STUDIO]) {
    const prep = prepared.get(file) as PreparedDpe;
    const all = { ...frame, costs, ...opts };
    const without = searchScenarios(engine, prep, { ...all, ...off });
    const withIt = searchScenarios(engine, prep, all);
    runs.set(file, { without, withIt });
    expect(withIt.solutions.map((s) => s.classe)).toEqual(without.solutions.map((s) => s.classe));
    for (const s of withIt.solutions) {
      const b = without.solutions.find((x) => x.classe === s.classe);
      const what = `${file} ${s.classe}`;
      expect(b, what).toBeDefined();
      const before = b as (typeof without.solutions)[number];
      expect(s.cout, what).toBeLessThanOrEqual(before.cout);
      if (s.cout === before.cout)
        expect(s.lowerBound ?? 0, what).toBeGreaterThanOrEqual(before.lowerBound ?? 0);
      if (before.exact) expect(s, what).toEqual(before);
      if (s.cout < before.cout || (s.lowerBound ?? 0) > (before.lowerBound ?? 0)) improved++;
    }
  }
  return { improved, runs };
}

describe('the second cut search (SECOND_CUT_BUDGET): after every target, never dearer, bounds no lower', () => {
  it('house, flat, studio: every scenario as cheap and its bound as high, some lifted; the flat’s B proved', () => {
    // (the final pass off in both: it works on each one's answers)
    const { improved, runs } = liftedBy({ finalPass: false }, { secondCutBudget: 0 });
    // the flat's B: its answer (unchanged) proved cheapest (by the second search's cuts until
    // the runs' rows, which prove it after the first search: docs/scenario-search.md)
    const flat = runs.get(FLAT);
    const b = flat?.without.solutions.find((s) => s.classe === 'B');
    const a = flat?.withIt.solutions.find((s) => s.classe === 'B');
    expect(a?.exact).toBe(true);
    expect(a?.cout).toBe(b?.cout);
    expect(improved).toBeGreaterThan(0);
  });
});

describe('the last cut search (LAST_CUT_BUDGET): after the descent, never dearer, bounds no lower', () => {
  it('house, flat, studio: every scenario as cheap and its bound as high as without it, some lifted', () => {
    const { improved, runs } = liftedBy({ closeBudget: 0 }, { lastCutBudget: 0 });
    // (it runs only after every other pass: it spends change sets of its own)
    for (const { without, withIt } of runs.values())
      expect(withIt.evaluations).toBeGreaterThanOrEqual(without.evaluations);
    expect(improved).toBeGreaterThan(0);
  });
});

describe('the closing round (CLOSE_BUDGET): answers within CLOSE_GAP of their bound, run without lifts', () => {
  it('house, flat, studio: every scenario as cheap and its bound as high as without it', () => {
    liftedBy({}, { closeBudget: 0 });
  });

  it.skipIf(!HAS_CORPUS)(
    '2287E1429838E E: 4,447 € proved, where the lighter inertia class left a bound of 4,431 € (the last solve’s answer run, a cut)',
    async () => {
      const p = prepare(engine, await readDpeFile(path.join(CORPUS, '2287E1429838E.xml')));
      if (!p.ok) throw new Error('blocked');
      const pick = (x: ReturnType<typeof searchScenarios>) =>
        x.solutions.find((s) => s.classe === 'E');
      // (without the rows on the envelope's losses, which prove it before the closing round)
      const off = { ...frame, costs, envelopeRows: false };
      const without = pick(searchScenarios(engine, p.dpe, { ...off, closeBudget: 0 }));
      const withIt = pick(searchScenarios(engine, p.dpe, off));
      expect(without?.exact).toBe(false);
      expect(without?.cout).toBe(4447);
      expect(without?.lowerBound).toBeLessThan(4447);
      expect(withIt).toMatchObject({ exact: true, cout: 4447, lowerBound: 4447 });
      expect(withIt?.editables).toEqual(without?.editables);
      // with them, the same answer proved without the closing round
      const rows = pick(searchScenarios(engine, p.dpe, { ...frame, costs, closeBudget: 0 }));
      expect(rows).toMatchObject({ exact: true, cout: 4447, lowerBound: 4447 });
      expect(rows?.editables).toEqual(without?.editables);
    },
  );

  it.skipIf(!HAS_CORPUS)(
    '2262E0020943Y B: its second part (the last solves at once, their answers run) finds 21,170 €, proved, where 21,678 € was left unproved',
    async () => {
      const p = prepare(engine, await readDpeFile(path.join(CORPUS, '2262E0020943Y.xml')));
      if (!p.ok) throw new Error('blocked');
      // the problem these figures were measured on: its gas boiler as the DPE files it, under
      // the registry's default type, which the catalogue does not replace (prepare now gives it
      // the type the engine computes, 92, and the boiler's replacements take B to 12,000 €)
      expect(p.dpe.resolvedDefaults?.map((r) => `${r.referenceId}:${r.generator} ${r.to}`)).toEqual(
        ['installation_chauffage:0:0 92', 'installation_ecs:0:0 52'],
      );
      for (const [category, field, type] of [
        ['installation_chauffage', 'enum_type_generateur_ch_id', '119'],
        ['installation_ecs', 'enum_type_generateur_ecs_id', '84'],
      ] as const) {
        const inst = elementsOf(p.dpe.raw, category)[0] as RawGeneratorHolder;
        const g = category === 'installation_chauffage' ? gensOf(inst)[0] : ecsGensOf(inst)[0];
        g!.donnee_entree[field] = type;
      }
      const pick = (x: ReturnType<typeof searchScenarios>) =>
        x.solutions.find((s) => s.classe === 'B');
      const without = pick(searchScenarios(engine, p.dpe, { ...frame, costs, closeBudget: 0 }));
      const withIt = pick(searchScenarios(engine, p.dpe, { ...frame, costs }));
      // (its flat's water heater on outdoor air: 450 € dearer than on ambient air, which needs an
      // unheated room the DPE gives none of; 21,228 € and 20,720 € before)
      expect(without).toMatchObject({ exact: false, cout: 21678 });
      expect(withIt).toMatchObject({ exact: true, cout: 21170, lowerBound: 21170 });
      // the engine, run on its works alone, says B at that cost
      const run = runWorks(engine, p.dpe, withIt?.editables ?? [], costs);
      const o = outcome(p.dpe, figuresOf(run, frame.coef), frame.coef, false);
      expect(run.cout).toBe(21170);
      expect(classIndex(o.classesAfter.dpe)).toBeLessThanOrEqual(classIndex('B'));
    },
  );

  it.skipIf(!HAS_CORPUS)(
    '2287E1530029R B: its third part (within 10% of the bound it reports, not of its own) finds 23,424 €, proved, where 23,924 € was left unproved',
    async () => {
      const p = prepare(engine, await readDpeFile(path.join(CORPUS, '2287E1530029R.xml')));
      if (!p.ok) throw new Error('blocked');
      const opts = { ...frame, costs };
      const without = searchScenarios(engine, p.dpe, { ...opts, closeReportedBudget: 0 });
      const withIt = searchScenarios(engine, p.dpe, opts);
      const pick = (x: typeof without, c: string) => x.solutions.find((s) => s.classe === c);
      // (left out of the first two parts: more than 10% above the search's own bound, within
      // 2.1% of the one it reports; C was another such case, 15,730 € proved at 15,671 €, until
      // the water heater on ambient air stood in the unheated basement, its tank's losses no
      // longer heat for the house: C is now 16,203 €, 1.2% above its bound, either way)
      expect(pick(without, 'B')).toMatchObject({ exact: false, cout: 23924, lowerBound: 23424 });
      expect(pick(withIt, 'B')).toMatchObject({ exact: true, cout: 23424, lowerBound: 23424 });
      expect(pick(withIt, 'C')?.cout).toBeLessThanOrEqual(pick(without, 'C')?.cout ?? 0);
      // the engine, run on its works alone, says the class at that cost
      const run = runWorks(engine, p.dpe, pick(withIt, 'B')?.editables ?? [], costs);
      const o = outcome(p.dpe, figuresOf(run, frame.coef), frame.coef, false);
      expect(run.cout).toBe(23424);
      expect(classIndex(o.classesAfter.dpe)).toBeLessThanOrEqual(classIndex('B'));
    },
  );
});

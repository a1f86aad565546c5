/**
 * Recommended works scenarios (`autoSolutions`): for each class better than the initial one,
 * the cheapest combination of works options found that reaches it. The class of a combination
 * always comes from an engine run on the whole combination (gains interact), with today's
 * thresholds and normalization when it applies.
 *
 * The search (bounded engine runs, memoised per change set):
 * - candidates: per element, the options it offers; options dominated on the same element
 *   (costlier and saving no more, on both energy and GES) are dropped;
 * - small cases (at most EXACT_LIMIT combinations): every combination is run, so the result is
 *   the optimum;
 * - otherwise, per target class: a greedy pass adds, element by element, the option with the
 *   best "shortfall to the target removed per euro" (from single-option runs), running the
 *   combination after each addition until the class is reached; then a local search removes
 *   items that are not needed (costliest first) and swaps each remaining item for a cheaper
 *   option of the same element while the class still holds.
 */
import type {
  AutoSolution,
  CoefMode,
  EditableChange,
  ScenarioItem,
  Thresholds,
} from '../contract/schemas.js';
import { CATEGORIES } from '../contract/schemas.js';
import { CLASS_LETTERS, classIndex, type ClassLetter } from '../dpe/classes.js';
import { elementsOf, referenceId } from '../dpe/elements.js';
import type { Engine } from '../engine/engine.js';
import { costOf, offeredOptions } from '../works/apply.js';
import type { CostTable } from '../works/costs.js';
import { outcome, RESULT_TITLES, type Outcome } from './calc.js';
import { round2 } from './comparison.js';
import type { PreparedDpe } from './prepared.js';
import { figuresOf, runWorks } from './runs.js';

/** Combinations up to this many are searched exhaustively (exact). */
export const EXACT_LIMIT = 64;
/** Engine runs the heuristic may spend per DPE, all targets together (cache hits are free). */
export const RUN_BUDGET = 400;

/** Year from which a class may no longer be rented (Loi Climat et Résilience). */
export const RENTAL_BAN: Partial<Record<ClassLetter, number>> = { G: 2025, F: 2028, E: 2034 };

export interface Candidate {
  change: EditableChange;
  label: string;
  cout: number;
  /** engine outcome with this option alone */
  single: Outcome;
}

interface Evaluated {
  changes: EditableChange[];
  cout: number;
  o: Outcome;
}

export interface ScenarioOptions {
  coef: CoefMode;
  forceNormalization: boolean;
  costs: CostTable;
  /** only these elements (tests on small cases) */
  onlyReferences?: readonly string[];
  /** force a strategy (tests) */
  strategy?: 'auto' | 'exact' | 'heuristic';
}

export interface ScenarioSearch {
  solutions: AutoSolution[];
  strategy: 'exact' | 'heuristic';
  /** distinct change sets evaluated */
  evaluations: number;
}

function limitsOf(t: Thresholds, target: ClassLetter): { ep: number; ges: number } {
  if (target === 'G') return { ep: Infinity, ges: Infinity };
  return { ep: t.dpe[target], ges: t.ges[target] };
}

/** How far a result is from the target class, relative to its limits (0 when reached). */
export function shortfall(o: Outcome, t: Thresholds, target: ClassLetter): number {
  const l = limitsOf(t, target);
  const ep = Math.max(0, o.after.epM2 - l.ep + 0.5) / l.ep;
  const ges = Math.max(0, o.after.gesM2 - l.ges + 0.5) / l.ges;
  return ep + ges;
}

function reaches(o: Outcome, target: ClassLetter): boolean {
  return classIndex(o.classesAfter.dpe) <= classIndex(target);
}

export function candidatesOf(
  engine: Engine,
  prep: PreparedDpe,
  opts: ScenarioOptions,
): Map<string, Candidate[]> {
  const byElement = new Map<string, Candidate[]>();
  for (const category of CATEGORIES) {
    elementsOf(prep.raw, category).forEach((el, index) => {
      const ref = referenceId(category, index);
      if (opts.onlyReferences && !opts.onlyReferences.includes(ref)) return;
      const list: Candidate[] = [];
      for (const row of offeredOptions(prep, category, el)) {
        const change = { referenceId: ref, editableKey: row.key, editableValue: row.code };
        const run = runWorks(engine, prep, [change], opts.costs);
        const single = outcome(prep, figuresOf(run, opts.coef), opts.coef, opts.forceNormalization);
        list.push({ change, label: row.label, cout: costOf(row, el, opts.costs), single });
      }
      // drop options dominated on the same element: costlier and saving no more energy nor GES
      const kept = list.filter(
        (c) =>
          !list.some(
            (d) =>
              d !== c &&
              d.cout <= c.cout &&
              d.single.after.epM2 <= c.single.after.epM2 &&
              d.single.after.gesM2 <= c.single.after.gesM2 &&
              (d.cout < c.cout ||
                d.single.after.epM2 < c.single.after.epM2 ||
                d.single.after.gesM2 < c.single.after.gesM2),
          ),
      );
      // options that save nothing at all are never part of a cheapest scenario
      const useful = kept.filter(
        (c) =>
          c.single.after.epM2 < c.single.before.epM2 ||
          c.single.after.gesM2 < c.single.before.gesM2,
      );
      if (useful.length)
        byElement.set(
          ref,
          useful.sort((a, b) => a.cout - b.cout),
        );
    });
  }
  return byElement;
}

export function searchScenarios(
  engine: Engine,
  prep: PreparedDpe,
  opts: ScenarioOptions,
): ScenarioSearch {
  const base = outcome(
    prep,
    figuresOf(runWorks(engine, prep, [], opts.costs), opts.coef),
    opts.coef,
    opts.forceNormalization,
  );
  const initial = base.classesBefore.dpe;
  const targets = CLASS_LETTERS.filter((l) => classIndex(l) < classIndex(initial)).reverse(); // nearest first
  const elements = candidatesOf(engine, prep, opts);
  const seen = new Set<string>();
  const evaluate = (changes: EditableChange[]): Evaluated => {
    const run = runWorks(engine, prep, changes, opts.costs);
    seen.add(
      changes
        .map((c) => `${c.referenceId}|${c.editableValue}`)
        .sort()
        .join(';'),
    );
    return {
      changes,
      cout: run.cout,
      o: outcome(prep, figuresOf(run, opts.coef), opts.coef, opts.forceNormalization),
    };
  };
  const combinations = [...elements.values()].reduce((n, list) => n * (list.length + 1), 1);
  const strategy =
    opts.strategy === 'exact' || (opts.strategy !== 'heuristic' && combinations <= EXACT_LIMIT)
      ? 'exact'
      : 'heuristic';
  const best = new Map<ClassLetter, Evaluated>();
  if (targets.length && elements.size) {
    if (strategy === 'exact') exhaustive(elements, evaluate, targets, best);
    else
      for (const target of targets) {
        const found = heuristic(
          elements,
          evaluate,
          target,
          prep.thresholds,
          () => seen.size < RUN_BUDGET,
        );
        if (found) best.set(target, found);
      }
  }
  // a scenario for a better class that is cheaper serves the worse target too
  const solutions: AutoSolution[] = [];
  for (const target of targets) {
    let pick = best.get(target);
    for (const [cls, ev] of best) {
      if (classIndex(cls) < classIndex(target) && (!pick || ev.cout < pick.cout)) pick = ev;
    }
    if (!pick || !reaches(pick.o, target)) continue;
    solutions.push(toSolution(pick, target, elements, base));
  }
  return { solutions, strategy, evaluations: seen.size };
}

function exhaustive(
  elements: Map<string, Candidate[]>,
  evaluate: (c: EditableChange[]) => Evaluated,
  targets: ClassLetter[],
  best: Map<ClassLetter, Evaluated>,
): void {
  const lists = [...elements.values()];
  const walk = (i: number, chosen: EditableChange[]): void => {
    if (i === lists.length) {
      if (!chosen.length) return;
      const ev = evaluate(chosen);
      for (const t of targets) {
        if (!reaches(ev.o, t)) continue;
        const prev = best.get(t);
        if (
          !prev ||
          ev.cout < prev.cout ||
          (ev.cout === prev.cout && ev.o.after.epM2 < prev.o.after.epM2)
        )
          best.set(t, ev);
      }
      return;
    }
    walk(i + 1, chosen);
    for (const c of lists[i] as Candidate[]) walk(i + 1, [...chosen, c.change]);
  };
  walk(0, []);
}

function heuristic(
  elements: Map<string, Candidate[]>,
  evaluate: (c: EditableChange[]) => Evaluated,
  target: ClassLetter,
  t: Thresholds,
  budgetLeft: () => boolean,
): Evaluated | undefined {
  const baseShort = (c: Candidate) =>
    shortfall(
      { ...c.single, after: c.single.before, classesAfter: c.single.classesBefore },
      t,
      target,
    );
  const merit = (c: Candidate) =>
    (baseShort(c) - shortfall(c.single, t, target)) / Math.max(c.cout, 1);
  // greedy: the best option of each element by merit, best elements first
  const picks = [...elements.values()]
    .map((list) => list.reduce((a, b) => (merit(b) > merit(a) ? b : a)))
    .filter((c) => merit(c) > 0)
    .sort((a, b) => merit(b) - merit(a));
  let chosen: Candidate[] = [];
  let current: Evaluated | undefined;
  for (const c of picks) {
    if (!budgetLeft()) break;
    chosen = [...chosen, c];
    current = evaluate(chosen.map((x) => x.change));
    if (reaches(current.o, target)) break;
  }
  if (!current || !reaches(current.o, target)) {
    // last chance: the strongest option of every element
    const strongest = [...elements.values()].map((list) =>
      list.reduce((a, b) =>
        shortfall(b.single, t, target) < shortfall(a.single, t, target) ? b : a,
      ),
    );
    current = evaluate(strongest.map((c) => c.change));
    if (!reaches(current.o, target)) return undefined;
    chosen = strongest;
  }
  return improve(chosen, current, elements, evaluate, target, budgetLeft);
}

/**
 * Local search from a feasible combination: drop items that are not needed, swap one item for
 * a cheaper option (of the same element or of an element not yet chosen), replace two items by
 * one cheaper option; first improvement wins, until nothing improves or the budget is spent.
 */
function improve(
  start: Candidate[],
  startEval: Evaluated,
  elements: Map<string, Candidate[]>,
  evaluate: (c: EditableChange[]) => Evaluated,
  target: ClassLetter,
  budgetLeft: () => boolean,
): Evaluated {
  let chosen = start;
  let current = startEval;
  const all = [...elements.values()].flat().sort((a, b) => a.cout - b.cout);
  const tryCombo = (combo: Candidate[]): boolean => {
    if (!combo.length || !budgetLeft()) return false;
    const total = combo.reduce((sum, c) => sum + c.cout, 0);
    if (total >= current.cout) return false;
    const ev = evaluate(combo.map((c) => c.change));
    if (!reaches(ev.o, target)) return false;
    chosen = combo;
    current = ev;
    return true;
  };
  let improved = true;
  while (improved && budgetLeft()) {
    improved = false;
    // drop
    for (const c of [...chosen].sort((a, b) => b.cout - a.cout)) {
      if (tryCombo(chosen.filter((x) => x !== c))) {
        improved = true;
        break;
      }
    }
    if (improved) continue;
    // swap one for a cheaper option
    const used = () => new Set(chosen.map((x) => x.change.referenceId));
    outer: for (const c of [...chosen].sort((a, b) => b.cout - a.cout)) {
      for (const d of all) {
        if (d.cout >= c.cout) break;
        if (d.change.referenceId !== c.change.referenceId && used().has(d.change.referenceId))
          continue;
        if (tryCombo(chosen.map((x) => (x === c ? d : x)))) {
          improved = true;
          break outer;
        }
      }
    }
    if (improved) continue;
    // replace two by one
    outer2: for (let i = 0; i < chosen.length; i++) {
      for (let j = i + 1; j < chosen.length; j++) {
        const a = chosen[i] as Candidate;
        const b = chosen[j] as Candidate;
        for (const d of all) {
          if (d.cout >= a.cout + b.cout) break;
          const rest = chosen.filter((x) => x !== a && x !== b);
          if (rest.some((x) => x.change.referenceId === d.change.referenceId)) continue;
          if (tryCombo([...rest, d])) {
            improved = true;
            break outer2;
          }
        }
      }
    }
  }
  return current;
}

function toSolution(
  ev: Evaluated,
  target: ClassLetter,
  elements: Map<string, Candidate[]>,
  base: Outcome,
): AutoSolution {
  const reached = ev.o.classesAfter.dpe;
  const items: ScenarioItem[] = ev.changes.map((ch) => {
    const cand = (elements.get(ch.referenceId) ?? []).find(
      (c) => c.change.editableValue === ch.editableValue,
    );
    return {
      ...ch,
      label: cand?.label ?? ch.editableValue,
      cout: cand?.cout ?? 0,
      gainTotal: cand ? round2(cand.single.before.ep - cand.single.after.ep) : 0,
    };
  });
  const gain = ev.o.before.ep - ev.o.after.ep;
  const banBefore = RENTAL_BAN[base.classesBefore.dpe] ?? null;
  const banAfter = RENTAL_BAN[reached] ?? null;
  return {
    result: {
      classe_bilan_dpe: {
        value: classIndex(reached),
        VInit: classIndex(base.classesBefore.dpe),
        title: RESULT_TITLES.classe_bilan_dpe,
      },
    },
    classe: target,
    editables: ev.changes,
    cout: ev.cout,
    consoApres: round2(ev.o.after.epM2),
    gesApres: round2(ev.o.after.gesM2),
    euroParKwh: gain > 0 ? round2(ev.cout / gain) : null,
    items,
    interdictionLocation: banAfter,
    sortInterdiction: banBefore !== null && (banAfter === null || banAfter > banBefore),
  };
}

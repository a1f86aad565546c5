/**
 * The cheapest combination reaching a goal: a best-first search over combinations of options,
 * at most one option per group, by increasing cost. It knows nothing of DPEs: a combination is
 * judged by `run` (an engine run, memoised by the caller) and `reaches`.
 *
 * Guarantee. Combinations are taken in order of cost; each is either run, or skipped because a
 * bound proved it cannot reach the goal. So when the search returns a combination with
 * `exact: true`, no combination cheaper than it reaches the goal, provided the bound is sound;
 * when it stops at its budget, `lowerBound` is the cost below which every combination was run
 * or soundly skipped: none of them reaches the goal (the answer, found elsewhere or by the
 * search, is then at most `cost − lowerBound` away from the optimum).
 *
 * The bound: a node is a combination D plus the groups it may still add (those after the last
 * group it uses, in the given order, so that every combination is reached once). For each of
 * the `bounds` selectors, D is completed with that selector's choice in every free group and
 * run; `mayReach` judges those runs together. It is sound when no completion of D does better
 * than those runs on the figures the goal looks at: see `cheapestReaching` for the assumption
 * that makes it so on the engine, and docs/scenario-search.md.
 */

import type { CoefMode, EditableChange, Thresholds } from '../contract/schemas.js';
import type { Engine, EngineFigures } from '../engine/engine.js';
import type { CostTable } from '../works/costs.js';
import { outcome, type Outcome } from './calc.js';
import type { PreparedDpe } from './prepared.js';
import type { Q4paAreas, Q4paCriteria } from '../works/airtightness.js';
import {
  airtightnessAfter,
  figuresOf,
  inertiaAfter,
  runWithAirtightness,
  runWithInertia,
  runWorks,
} from './runs.js';

/** A min-heap of search nodes by bound, then by insertion (ties break the same way every run). */
class Heap<T> {
  private readonly items: { key: number; seq: number; value: T }[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  peekKey(): number {
    return this.items[0]?.key ?? Infinity;
  }

  push(key: number, value: T): void {
    const items = this.items;
    items.push({ key, seq: this.seq++, value });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): { key: number; value: T } | undefined {
    const items = this.items;
    const top = items[0];
    if (!top) return undefined;
    const last = items.pop() as (typeof items)[number];
    if (items.length) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.less(l, m)) m = l;
        if (r < items.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return { key: top.key, value: top.value };
  }

  private less(a: number, b: number): boolean {
    const x = this.items[a] as (typeof this.items)[number];
    const y = this.items[b] as (typeof this.items)[number];
    return x.key < y.key || (x.key === y.key && x.seq < y.seq);
  }

  private swap(a: number, b: number): void {
    const items = this.items;
    [items[a], items[b]] = [items[b] as (typeof items)[number], items[a] as (typeof items)[number]];
  }
}

export interface BestFirstQuery<C, R> {
  /** the options, by group: a combination takes at most one of each group */
  groups: readonly (readonly C[])[];
  cost: (option: C) => number;
  /** the combination's result (an engine run; the caller memoises and counts them) */
  run: (combo: readonly C[]) => R;
  /** whether a result reaches the goal */
  reaches: (result: R) => boolean;
  /**
   * Completions that bound what a node can reach: for each selector, the choice it makes in a
   * free group among its options cheaper than `below` (`null`: none); a function of the group
   * and `below` alone (asked once per node, whatever the variants). Empty: no bound, every
   * combination cheaper than the answer runs.
   */
  bounds?: readonly ((group: number, below: number) => C | null)[];
  /** whether the goal may be reached, judging the runs of the bounds' completions together */
  mayReach?: (results: readonly R[]) => boolean;
  /**
   * Groups whose options a completion tries one by one (and none) instead of trusting a
   * selector: those whose order alone may not hold in a combination. Put them first in
   * `groups`: a node leaves them free only near the root.
   */
  enumerate?: (group: number) => boolean;
  /** a structural condition on the answer (combinations failing it are still extended) */
  accept?: (combo: readonly C[]) => boolean;
  /** a combination already known to reach the goal and be accepted, with its result */
  incumbent?: { combo: readonly C[]; result: R };
  /** whether the search may run one more node (the caller counts its budget) */
  budgetLeft: () => boolean;
}

export interface BestFirstAnswer<C, R> {
  /** the cheapest combination found that reaches the goal (null: none found) */
  combo: C[] | null;
  result: R | null;
  cost: number | null;
  /**
   * true when no combination cheaper than `combo` reaches the goal (or, with no combo, when
   * none at all does), given a sound bound
   */
  exact: boolean;
  /**
   * every combination cheaper than this was run or skipped by the bound, and none of them
   * reaches the goal (Infinity when the search went through them all)
   */
  lowerBound: number;
  /** nodes taken from the queue */
  nodes: number;
}

interface Node<C> {
  combo: C[];
  /** index of the last group the combination uses (-1: none); only later groups may be added */
  last: number;
  cost: number;
  /** false: the combination itself is still to be judged; true: its children are to be made */
  expand: boolean;
}

export function bestFirst<C, R>(q: BestFirstQuery<C, R>): BestFirstAnswer<C, R> {
  const groups = q.groups;
  const comboCost = (combo: readonly C[]) => combo.reduce((s, c) => s + q.cost(c), 0);
  let best: { combo: C[]; result: R; cost: number } | null = q.incumbent
    ? {
        combo: [...q.incumbent.combo],
        result: q.incumbent.result,
        cost: comboCost(q.incumbent.combo),
      }
    : null;
  const consider = (combo: C[], result: R) => {
    if (!q.reaches(result) || (q.accept && !q.accept(combo))) return false;
    const cost = comboCost(combo);
    if (!best || cost < best.cost) best = { combo, result, cost };
    return true;
  };
  // the cheapest option of the groups after each index (the least a failing node must add)
  const cheapestAfter: number[] = new Array<number>(groups.length + 1).fill(Infinity);
  for (let g = groups.length - 1; g >= 0; g--) {
    const here = Math.min(...(groups[g] as readonly C[]).map(q.cost));
    cheapestAfter[g] = Math.min(here, cheapestAfter[g + 1] as number);
  }
  const heap = new Heap<Node<C>>();
  heap.push(0, { combo: [], last: -1, cost: 0, expand: false });
  let nodes = 0;
  const answer = (exact: boolean, lowerBound: number): BestFirstAnswer<C, R> => {
    const b = best as { combo: C[]; result: R; cost: number } | null;
    return {
      combo: b?.combo ?? null,
      result: b?.result ?? null,
      cost: b?.cost ?? null,
      exact,
      lowerBound,
      nodes,
    };
  };
  for (;;) {
    const key = heap.peekKey();
    const found = best as { cost: number } | null;
    // every combination cheaper than `key` has been judged: the best found is the cheapest
    if (found && found.cost <= key) return answer(true, key);
    if (heap.size === 0) return answer(true, Infinity);
    if (!q.budgetLeft()) return answer(false, key);
    const node = (heap.pop() as { value: Node<C> }).value;
    nodes++;
    if (node.expand) {
      for (let g = node.last + 1; g < groups.length; g++)
        for (const option of groups[g] as readonly C[]) {
          const cost = node.cost + q.cost(option);
          if (best && cost >= (best as { cost: number }).cost) continue;
          heap.push(cost, { combo: [...node.combo, option], last: g, cost, expand: false });
        }
      continue;
    }
    const hasFree = node.last < groups.length - 1;
    if (hasFree && q.bounds?.length && q.mayReach) {
      // only what could still make a cheaper answer than the best found
      const below = (best ? (best as { cost: number }).cost : Infinity) - node.cost;
      const free: number[] = [];
      for (let g = node.last + 1; g < groups.length; g++) free.push(g);
      const tried = free.filter((g) => q.enumerate?.(g));
      // every choice (none included) of the groups tried one by one
      let variants: (C | null)[][] = [[]];
      for (const g of tried) {
        const choices = [null, ...(groups[g] as readonly C[]).filter((c) => q.cost(c) < below)];
        variants = variants.flatMap((v) => choices.map((c) => [...v, c]));
      }
      const mayReach = q.mayReach;
      // each bound's choices in the groups it decides (the same for every variant: a selector
      // depends on its group and `below` only)
      const chosen = (q.bounds ?? []).map((select) => {
        const choices: C[] = [];
        for (const g of free) {
          if (tried.includes(g)) continue;
          const choice = select(g, below);
          if (choice !== null) choices.push(choice);
        }
        return choices;
      });
      const judge = (variant: (C | null)[]) => {
        const completions = chosen.map((choices) => {
          const combo = [...node.combo];
          for (const c of variant) if (c !== null) combo.push(c);
          for (const c of choices) combo.push(c);
          const result = q.run(combo);
          consider(combo, result);
          return result;
        });
        return mayReach(completions);
      };
      // at the root every variant is run (each may be an answer, for a far goal the only one
      // found); elsewhere the first that may reach is enough
      const possible = node.last < 0 ? variants.map(judge).some(Boolean) : variants.some(judge);
      // no completion of this combination can reach the goal
      if (!possible) continue;
    }
    if (consider(node.combo, q.run(node.combo))) continue; // the cheapest: returned at the top
    if (hasFree)
      heap.push(node.cost + (cheapestAfter[node.last + 1] as number), { ...node, expand: true });
  }
}

// ------------------------------------------------------------------ on the engine

/** A works option as the search sees it: its change, its price, its outcome alone. */
export interface Candidate {
  change: EditableChange;
  label: string;
  cout: number;
  /** how `cout` was obtained ("28 × 4 770 €") */
  coutDetail?: string | undefined;
  /** the whole building's amount when `cout` is the DPE's share of it */
  coutBatiment?: number | undefined;
  /** engine outcome with this option alone */
  single: Outcome;
}

/** The frame a search judges its runs in: coefficient, normalization, thresholds, costs. */
export interface SearchFrame {
  coef: CoefMode;
  forceNormalization: boolean;
  thresholds: Thresholds;
  costs: CostTable;
}

/** A combination run through the engine (memoised), with its outcome in the frame. */
export interface Evaluated {
  changes: EditableChange[];
  items: Candidate[];
  cout: number;
  o: Outcome;
  /** the engine's figures before normalization */
  figures: EngineFigures;
}

/** A combination of changes as one key, whatever their order (the memos' key). */
export const combinationKey = (changes: readonly EditableChange[]): string =>
  changes.map(changeId).sort().join(';');

/** A change's memo id, made once per change object (every evaluation asks it, hits included). */
const changeIds = new WeakMap<EditableChange, string>();
const changeId = (c: EditableChange): string => {
  let id = changeIds.get(c);
  if (id === undefined) {
    id = `${c.referenceId}|${c.editableKey}|${c.editableValue}`;
    changeIds.set(c, id);
  }
  return id;
};

/**
 * Runs combinations in a frame and counts the distinct change sets it was asked for (memo hits
 * included: the count depends on the input only, never on what an earlier request left in the
 * memo), which is the budget of every search made through it.
 */
export class Evaluator {
  private readonly seen = new Map<string, Evaluated>();

  constructor(
    private readonly engine: Engine,
    private readonly prep: PreparedDpe,
    readonly frame: SearchFrame,
    /** change sets this evaluator may run (memo hits of its own count once) */
    public budget: number,
  ) {}

  /** distinct change sets evaluated */
  get count(): number {
    return this.seen.size;
  }

  /** combinations other evaluators ran, answered from here without a run, a count or a listing */
  private readonly known = new Map<string, Evaluated>();

  remember(evs: Iterable<Evaluated>): void {
    for (const ev of evs)
      this.known.set(
        ev.changes
          .map((c) => changeId(c))
          .sort()
          .join(';'),
        ev,
      );
  }

  get left(): number {
    return Math.max(0, this.budget - this.seen.size);
  }

  /** every combination evaluated so far, in order */
  get evaluated(): IterableIterator<Evaluated> {
    return this.seen.values();
  }

  evaluate(items: readonly Candidate[], fixed: readonly Candidate[] = []): Evaluated {
    const ids = new Array<string>(fixed.length + items.length);
    for (let i = 0; i < fixed.length; i++) ids[i] = changeId((fixed[i] as Candidate).change);
    for (let i = 0; i < items.length; i++)
      ids[fixed.length + i] = changeId((items[i] as Candidate).change);
    const key = ids.sort().join(';');
    const hit = this.seen.get(key) ?? this.known.get(key);
    if (hit) return hit;
    const all = [...fixed, ...items];
    const changes = all.map((c) => c.change);
    const run = runWorks(this.engine, this.prep, changes, this.frame.costs);
    const figures = figuresOf(run, this.frame.coef);
    const ev: Evaluated = {
      changes,
      items: all,
      cout: run.cout,
      o: this.outcomeOf(figures),
      figures,
    };
    this.seen.set(key, ev);
    return ev;
  }

  /**
   * The outcome of these works, not counted in the budget nor listed in `evaluated`: a measure
   * the proof's bound rests on (a fixed set of runs per DPE, the same on any machine).
   */
  measure(items: readonly Candidate[]): Outcome {
    // (kept per evaluator: the proof asks the same measures for every target)
    const key = items.map((c) => changeId(c.change)).join(';');
    const hit = this.measured.get(key);
    if (hit) return hit;
    const out = this.measureRun(items);
    this.measured.set(key, out);
    return out;
  }

  private readonly measured = new Map<string, Outcome>();

  private measureRun(items: readonly Candidate[]): Outcome {
    const run = runWorks(
      this.engine,
      this.prep,
      items.map((c) => c.change),
      this.frame.costs,
    );
    return this.outcomeOf(figuresOf(run, this.frame.coef));
  }

  /**
   * The Q4Pa,conv criteria's areas after these works (no engine run; kept per evaluator: the
   * proof checks every run it sees, again for each target).
   */
  airtightness(items: readonly Candidate[]): Q4paAreas {
    const key = combinationKey(items.map((c) => c.change));
    const hit = this.areas.get(key);
    if (hit) return hit;
    const out = airtightnessAfter(
      this.engine,
      this.prep,
      items.map((c) => c.change),
      this.frame.costs,
    );
    this.areas.set(key, out);
    return out;
  }

  private readonly areas = new Map<string, Q4paAreas>();

  /**
   * The inertia class the DPE declares after these works (`inertiaAfter`; no engine run; kept per
   * evaluator: the proof asks it of every cut it learns where lining walls can move the class).
   */
  inertia(items: readonly Candidate[]): number {
    const key = combinationKey(items.map((c) => c.change));
    let out = this.inertias.get(key);
    if (out === undefined) {
      out = inertiaAfter(
        this.engine,
        this.prep,
        items.map((c) => c.change),
        this.frame.costs,
      );
      this.inertias.set(key, out);
    }
    return out;
  }

  private readonly inertias = new Map<string, number>();

  /**
   * The outcome of these works with the Q4Pa,conv row forced to `criteria`'s (a probe, not a
   * works run: not counted, not memoised with them); null when no ventilation follows the
   * envelope.
   */
  withAirtightness(items: readonly Candidate[], criteria: Q4paCriteria): Outcome | null {
    const run = runWithAirtightness(
      this.engine,
      this.prep,
      items.map((c) => c.change),
      this.frame.costs,
      criteria,
    );
    return run && this.outcomeOf(figuresOf(run, this.frame.coef));
  }

  /**
   * The outcome of these works with the inertia class the DPE declares forced to `cls` (a probe,
   * not a works run: not counted, not memoised with them).
   */
  withInertiaClass(items: readonly Candidate[], cls: number): Outcome {
    return this.outcomeOf(figuresOf(this.inertiaRun(items, cls), this.frame.coef));
  }

  /**
   * The heating's final energy per kWh of heating need of these works with the inertia class
   * forced to `cls` (the same probe as `withInertiaClass`, memoised with it); NaN where the engine
   * gives none.
   */
  heatingPerNeedWithInertiaClass(items: readonly Candidate[], cls: number): number {
    const run = this.inertiaRun(items, cls);
    return run.heatingNeed > 0 ? run.heatingFinal / run.heatingNeed : Number.NaN;
  }

  private inertiaRun(items: readonly Candidate[], cls: number) {
    return runWithInertia(
      this.engine,
      this.prep,
      items.map((c) => c.change),
      this.frame.costs,
      cls,
    );
  }

  outcomeOf(figures: EngineFigures): Outcome {
    const f = this.frame;
    return outcome(this.prep, figures, f.coef, f.forceNormalization, f.thresholds);
  }
}

export interface CheapestQuery {
  /** the options by group (an element and works key): at most one per group */
  groups: readonly (readonly Candidate[])[];
  /**
   * The goal, on the outcome of a whole combination. It must be monotone in the figures: an
   * outcome with no more primary energy and no more GES than one reaching the goal reaches it
   * (a class or better, classes gained, kWh/m² under a limit…).
   */
  reaches: (o: Outcome) => boolean;
  /** a condition on the items of the answer (e.g. at least two insulation items) */
  accept?: (items: readonly Candidate[]) => boolean;
  /** works always applied (a first step): their cost counts, their groups must not be in `groups` */
  fixed?: readonly Candidate[];
  /** a known answer, to start from (its items without `fixed`) */
  incumbent?: readonly Candidate[];
}

export interface CheapestFound {
  /** the answer (with `fixed`), or null: none found */
  best: Evaluated | null;
  /** no combination cheaper than `best` reaches the goal (with none: no combination does) */
  exact: boolean;
  /** every combination cheaper than this was judged and none reaches the goal */
  lowerBound: number;
  /** nodes taken from the search's queue */
  nodes: number;
}

/**
 * The option of the group with the least primary energy (or GES) alone, or null when no works
 * does better than all of them (yearly totals: the per-m² figures are floored and would tie).
 */
function strongest(
  list: readonly Candidate[],
  figure: 'ep' | 'ges',
  below = Infinity,
  preferExternal = false,
): Candidate | null {
  const order = strengthOrder(list, figure);
  if (preferExternal) {
    // (the strongest of the external ones cheaper than `below`, judged against the first of them)
    let first: Candidate | undefined;
    for (const c of list)
      if (c.cout < below && isExternalWall(c)) {
        first = c;
        break;
      }
    if (first) {
      const value = first.single.before[figure];
      for (const i of order.external) {
        const c = list[i] as Candidate;
        if (!(c.cout < below)) continue;
        return c.single.after[figure] < value ? c : null;
      }
      return null;
    }
  }
  const value = list[0]?.single.before[figure] ?? Infinity;
  for (const i of order.all) {
    const c = list[i] as Candidate;
    if (!(c.single.after[figure] < value)) return null;
    if (c.cout < below) return c;
  }
  return null;
}

/**
 * A group's options by their figure alone, least first (ties in the group's order), those whose
 * figure is not a number left out: the first one cheaper than a bound is the one a scan of the
 * group for the least figure (the first of equals) picks. Made once per group and figure (the
 * search asks for it at every node, for every free group).
 */
interface StrengthOrder {
  all: number[];
  /** the external wall insulation options only */
  external: number[];
}

const strengthOrders = new WeakMap<readonly Candidate[], Record<'ep' | 'ges', StrengthOrder>>();

function strengthOrder(list: readonly Candidate[], figure: 'ep' | 'ges'): StrengthOrder {
  let orders = strengthOrders.get(list);
  if (!orders) {
    const sorted = (f: 'ep' | 'ges', keep: (c: Candidate) => boolean): number[] =>
      list
        .map((c, i) => ({ c, i }))
        .filter(({ c }) => keep(c) && !Number.isNaN(c.single.after[f]))
        .sort((a, b) => {
          const x = a.c.single.after[f];
          const y = b.c.single.after[f];
          return x < y ? -1 : y < x ? 1 : a.i - b.i;
        })
        .map(({ i }) => i);
    const of = (f: 'ep' | 'ges'): StrengthOrder => ({
      all: sorted(f, () => true),
      external: sorted(f, isExternalWall),
    });
    orders = { ep: of('ep'), ges: of('ges') };
    strengthOrders.set(list, orders);
  }
  return orders[figure];
}

/**
 * How much better than the completions' figures a combination is assumed able to do (relative):
 * an option's order alone within its group may shift a little in a combination (a window with a
 * lower Uw but less solar gain), by 4.1% at most on the fixtures (test/search.test.ts).
 */
export const BOUND_MARGIN = 0.05;

/** External wall insulation (catalogue codes IMurITE…). */
function isExternalWall(c: Candidate): boolean {
  return c.change.referenceId.startsWith('mur:') && c.change.editableValue.startsWith('IMurITE');
}

/** Generators: several options of a group, tried one by one in completions. */
function triedOneByOne(list: readonly Candidate[]): boolean {
  const ref = list[0]?.change.referenceId ?? '';
  return list.length > 1 && ref.startsWith('installation_');
}

/**
 * The cheapest combination of `groups` (with `fixed`) whose engine outcome reaches the goal, by
 * best-first search in `evaluator`'s frame and within its budget.
 *
 * Pruning assumes that, in any combination, an option that does better alone (or no works,
 * when it does better than the option alone) does no worse there, on primary energy and on GES
 * taken apart (monotonicity, M in docs/scenario-search.md): then completing a combination with
 * the option strongest alone on energy in every free group (resp. on GES) gives the least energy
 * (resp. GES) any completion can have, and a combination whose two completions, taken together,
 * miss the goal is dropped with everything built on it.
 */
export function cheapestReaching(evaluator: Evaluator, query: CheapestQuery): CheapestFound {
  const fixed = query.fixed ?? [];
  const strength = (list: readonly Candidate[]) =>
    Math.max(
      ...list.map((c) => {
        const b = c.single.before;
        const a = c.single.after;
        return (b.ep > 0 ? (b.ep - a.ep) / b.ep : 0) + (b.ges > 0 ? (b.ges - a.ges) / b.ges : 0);
      }),
    );
  // the groups tried one by one first (generators: their order alone may not hold once the
  // envelope is insulated), then the strongest: leaving them out is what most often makes a
  // goal unreachable
  const groups = [...query.groups]
    .filter((g) => g.length > 0)
    .map((g, i) => ({ g, i, s: strength(g), t: triedOneByOne(g) ? 1 : 0 }))
    .sort((a, b) => b.t - a.t || b.s - a.s || a.i - b.i)
    .map((x) => x.g);
  const incumbent = query.incumbent ? evaluator.evaluate(query.incumbent, fixed) : undefined;
  const accept = query.accept;
  const result = bestFirst<Candidate, Evaluated>({
    groups,
    cost: (c) => c.cout,
    run: (combo) => evaluator.evaluate(combo, fixed),
    reaches: (ev) => query.reaches(ev.o),
    // on each figure: the option strongest alone, and the same preferring external wall
    // insulation (internal insulation on several walls lightens the inertia class: alone the
    // better, it can be the worse once other walls are lined inside)
    bounds: [
      (g, below) => strongest(groups[g] ?? [], 'ep', below),
      (g, below) => strongest(groups[g] ?? [], 'ges', below),
      (g, below) => strongest(groups[g] ?? [], 'ep', below, true),
      (g, below) => strongest(groups[g] ?? [], 'ges', below, true),
    ],
    mayReach: (runs) => {
      const [a, b, c, d] = runs.map((r) => (r as Evaluated).figures) as EngineFigures[];
      const e = (a as EngineFigures).ep <= (c as EngineFigures).ep ? a : c;
      const g = (b as EngineFigures).ges <= (d as EngineFigures).ges ? b : d;
      // the completions' best figures less the margin, energy and GES each from its own
      const m = 1 - BOUND_MARGIN;
      return query.reaches(
        evaluator.outcomeOf({
          ...(e as EngineFigures),
          ep: (e as EngineFigures).ep * m,
          epM2: (e as EngineFigures).epM2 * m,
          ges: (g as EngineFigures).ges * m,
          gesM2: (g as EngineFigures).gesM2 * m,
        }),
      );
    },
    enumerate: (g) => triedOneByOne(groups[g] ?? []),
    ...(accept ? { accept: (combo: readonly Candidate[]) => accept([...fixed, ...combo]) } : {}),
    ...(incumbent && query.reaches(incumbent.o) && (!accept || accept(incumbent.items))
      ? { incumbent: { combo: query.incumbent ?? [], result: incumbent } }
      : {}),
    budgetLeft: () => evaluator.left > 0,
  });
  return {
    best: result.result,
    exact: result.exact,
    lowerBound: result.lowerBound + fixed.reduce((s, c) => s + c.cout, 0),
    nodes: result.nodes,
  };
}

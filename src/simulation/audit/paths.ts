/**
 * The audit's two paths, behind one module so that another search can replace the machinery
 * (the proven scenario search, issue 29). The audit's rules are data here (`Goal`): the works
 * kept from an earlier step, the requirements every element of a treated item adds (a set of
 * options that meet it), the target class, and a budget of combinations. Guarantees this module
 * keeps whatever search runs beneath it:
 *
 * - the path in one step is the cheapest combination meeting its rules among every combination
 *   run during the whole audit (the path in steps' final works included): never dearer;
 * - every step gains at least one class (a completion that gains none is folded into step 1);
 * - deterministic: budgets count the combinations the audit runs, never time, and the memo of
 *   runs (seeded from other threads or not) changes no answer.
 *
 * The machinery for now: a requirement-driven greedy pass guided by single-option ratios, then
 * drops, downgrades and swaps, every combination run by the engine.
 */
import type { ClassLetter } from '../../contract/classes.js';
import { classFromIndex, classIndex } from '../../contract/classes.js';
import type { CoefMode, EditableChange, Thresholds } from '../../contract/schemas.js';
import type { Engine, EngineFigures } from '../../engine/engine.js';
import type { CostTable } from '../../works/costs.js';
import { outcome, type Outcome } from '../calc.js';
import type { PreparedDpe } from '../prepared.js';
import {
  cheapestProved,
  MASTER_NODES,
  type Covering,
  type ProofAnswer,
  type ProofQuery,
} from '../proof.js';
import { changeKey } from '../runs.js';
import { Evaluator, type Evaluated as Run } from '../search.js';
import { groupKey, shortfall, strongestFirst, type Candidate } from '../scenarios.js';
import { INSULATION_ITEMS, type Items, type Requirement } from './items.js';
import type { ItemKey } from '../../contract/audit.js';
import { classesOf } from '../../contract/classes.js';
import { engineFigures } from '../comparison.js';
import { parseReferenceId } from '../../dpe/elements.js';

/** Combinations one search may run. */
export const AUDIT_SEARCH_BUDGET = 40;
/** Combinations the whole audit may run besides the single-option runs. */
export const AUDIT_TOTAL_BUDGET = 240;
/**
 * Engine runs (change sets) each proof may add to the heuristic's (proof.ts's cut search): step 1,
 * step 2 and the path in one step, each proved on its own budget, so that what one proof spends
 * never changes another's answer beyond the runs it shares.
 */
export const AUDIT_PROOF_RUNS = 40;
/** Engine runs of the predicted search (proof.ts `predict`) per goal the cut search left unproved. */
export const AUDIT_PREDICT_RUNS = 10;
/**
 * Engine runs of the exchange pass (scenarios.ts `EXCHANGE_BUDGET`'s, with the audit's rules) per
 * unproved answer: the path in one step, and step 2 of the path in steps.
 */
export const AUDIT_EXCHANGE_RUNS = 40;
/**
 * Engine runs, at most, of the split of the path in one step into two steps (`splitOf`), and the
 * most kinds of element it splits (its 2^n parts are listed, without runs, before the cheapest
 * are run).
 */
export const AUDIT_SPLIT_RUNS = 40;
export const AUDIT_SPLIT_KINDS = 12;
/** Nodes of the proof's master problem per solve (proof.ts's own default). */
export const AUDIT_MASTER_NODES = MASTER_NODES;
/** A swap for another group's option is run when predicted this close to the class. */
const SWAP_SLACK = 0.1;

export type Combo = Map<string, Candidate>;

export interface Evaluated {
  combo: Combo;
  cout: number;
  o: Outcome;
}

export interface PathFrame {
  engine: Engine;
  prep: PreparedDpe;
  coef: CoefMode;
  forceNormalization: boolean;
  /** the engine's own figures, never scaled to the registry (the gate's banner) */
  engineOnly: boolean;
  costs: CostTable;
  thresholds: Thresholds;
  groups: Map<string, Candidate[]>;
  /** engine runs of the exchange pass per unproved answer (default AUDIT_EXCHANGE_RUNS) */
  exchangeRuns?: number;
  /** the final drops and swaps on the answers left unproved (`polished`; default true) */
  finalPass?: boolean;
  /**
   * the path in one step's works split in two (`splitOf`) as the path in steps where that costs
   * less in all than the path chosen step by step (default true)
   */
  splitPass?: boolean;
}

/**
 * The scenario search's evaluator judging runs as the audit does (the registry's scale, or the
 * engine's own figures when the gate failed and `--engine-figures` asked for them).
 */
class AuditEvaluator extends Evaluator {
  private readonly judgeFrame: PathFrame;
  constructor(frame: PathFrame) {
    super(
      frame.engine,
      frame.prep,
      {
        coef: frame.coef,
        forceNormalization: frame.forceNormalization,
        thresholds: frame.thresholds,
        costs: frame.costs,
      },
      Infinity,
    );
    this.judgeFrame = frame;
  }
  override outcomeOf(figures: EngineFigures): Outcome {
    return judge(this.judgeFrame, figures);
  }
}

/** What the proof says of a step: proved the cheapest meeting its rules, or a lower bound. */
export interface StepProof {
  exact: boolean;
  /** € (with the earlier steps' works for a later step): every combination meeting the step's rules and class costs at least this */
  lowerBound: number;
  /**
   * the same with the rows in the answers' worlds (proof.ts `finalBound`), at least `lowerBound`:
   * what the step reports; the paths' choices read `exact` and `lowerBound` only
   */
  finalBound?: number;
}

interface Ctx extends PathFrame {
  /** every combination run, by key (the audit's own count, whatever the run memo holds) */
  seen: Map<string, Evaluated>;
  /** the runs, shared with the proofs */
  runs: AuditEvaluator;
  /** the combinations the proofs ran (not counted in the heuristic's budgets) */
  proofRuns: number;
  /** the requirements and target of the path in one step: the cheapest seen meeting them */
  single: {
    requirements: Requirement[];
    target: ClassLetter;
    best?: Evaluated;
    /** when none reaches the target: the best class reached meeting the requirements, cheapest */
    fallback?: Evaluated;
  };
}

export interface Goal {
  fixed: Combo;
  requirements: Requirement[];
  target: ClassLetter;
}

export interface Found {
  best: Evaluated;
  reached: boolean;
}

export interface Paths {
  steps: Evaluated[];
  /** per step, what the proof says of it (given the earlier steps' works and its own rules) */
  stepProofs: (StepProof | null)[];
  /** the path in one step: proved the cheapest of all meeting every requirement and the class */
  singleProof: StepProof;
  /** the completion's search when step 2 was searched (its `reached` for the justification) */
  stepsReached: boolean;
  single: Evaluated;
  singleReached: boolean;
  /** the insulation items step 1 was built to treat */
  pair: ItemKey[];
  base: Evaluated;
  combinations: number;
  /**
   * the path in steps is the path in one step's works split in two, cheaper in all (`splitPass`):
   * what the path chosen step by step cost in all
   */
  splitFromSingle?: { stepwiseCost: number };
  /**
   * the final class out of reach: the figures of the strongest works the search tried (every
   * requirement met), which say whether the energy or the emissions hold the class back
   */
  strongest?: { epM2: number; gesM2: number };
}

const slot = (c: Candidate) => groupKey(c.change.referenceId, c.change.editableKey);
const comboKey = (c: Combo) =>
  [...c.values()]
    .map((x) => changeKey(x.change))
    .sort()
    .join(';');

export function changesOf(combo: Combo): EditableChange[] {
  return [...combo.values()].map((c) => c.change);
}

/** Before/after figures of a run: the registry's scale as `initial`, or the engine's own. */
export function judge(frame: PathFrame, after: EngineFigures): Outcome {
  if (!frame.engineOnly)
    return outcome(frame.prep, after, frame.coef, frame.forceNormalization, frame.thresholds);
  const before = engineFigures(frame.prep.base, frame.coef);
  return {
    before,
    after,
    normalization: {
      applied: false,
      consoFactor: 1,
      gesFactor: 1,
      reason: 'the engine’s own figures (the input gate failed: see the banner)',
    },
    classesBefore: classesOf(before.epM2, before.gesM2, frame.thresholds),
    classesAfter: classesOf(after.epM2, after.gesM2, frame.thresholds),
  };
}

export const reaches = (o: Outcome, target: ClassLetter) =>
  classIndex(o.classesAfter.dpe) <= classIndex(target);

export function satisfied(combo: Combo, r: Requirement): boolean {
  for (const g of r.groups) {
    const c = combo.get(g);
    if (c && r.options.has(changeKey(c.change))) return true;
  }
  return false;
}

const meetsAll = (combo: Combo, reqs: readonly Requirement[]) =>
  reqs.every((r) => satisfied(combo, r));

function evaluate(ctx: Ctx, combo: Combo): Evaluated {
  const key = comboKey(combo);
  const hit = ctx.seen.get(key);
  if (hit) return hit;
  const run = ctx.runs.evaluate([...combo.values()]);
  return register(ctx, key, new Map(combo), run);
}

/** A run joins the audit's combinations (and the path in one step's candidates). */
function register(ctx: Ctx, key: string, combo: Combo, run: Run): Evaluated {
  const ev: Evaluated = { combo, cout: run.cout, o: run.o };
  ctx.seen.set(key, ev);
  const s = ctx.single;
  if (meetsAll(combo, s.requirements)) {
    if (reaches(ev.o, s.target) && (!s.best || better(ev, s.best))) s.best = ev;
    const cls = (x: Evaluated) => classIndex(x.o.classesAfter.dpe);
    if (
      !s.fallback ||
      cls(ev) < cls(s.fallback) ||
      (cls(ev) === cls(s.fallback) && better(ev, s.fallback))
    )
      s.fallback = ev;
  }
  return ev;
}

/** Cheaper, then (same cost) the lower primary energy, then the key: a total order. */
function better(a: Evaluated, b: Evaluated): boolean {
  if (a.cout !== b.cout) return a.cout < b.cout;
  if (a.o.after.epM2 !== b.o.after.epM2) return a.o.after.epM2 < b.o.after.epM2;
  return comboKey(a.combo) < comboKey(b.combo);
}

function shortfallOfFigures(epM2: number, gesM2: number, t: Thresholds, target: ClassLetter) {
  if (target === 'G') return 0;
  const ep = Math.max(0, epM2 - t.dpe[target] + 0.5) / t.dpe[target];
  const ges = Math.max(0, gesM2 - t.ges[target] + 0.5) / t.ges[target];
  return ep + ges;
}

/**
 * The cheapest combination found that contains `fixed`, meets every requirement and reaches the
 * target class; when none is found, the strongest there is.
 */
function cheapestReaching(ctx: Ctx, goal: Goal): Found {
  const { groups, thresholds: t } = ctx;
  const start = ctx.seen.size;
  const budgetLeft = () =>
    ctx.seen.size - start < AUDIT_SEARCH_BUDGET &&
    ctx.seen.size - ctx.proofRuns < AUDIT_TOTAL_BUDGET;
  const short = (o: Outcome) => shortfall(o, t, goal.target);
  const ratio = (c: Candidate | undefined, k: 'ep' | 'ges') =>
    c && c.single.before[k] > 0 ? c.single.after[k] / c.single.before[k] : 1;
  const merit = (c: Candidate, from: Outcome) => {
    const after = shortfallOfFigures(
      from.after.epM2 * ratio(c, 'ep'),
      from.after.gesM2 * ratio(c, 'ges'),
      t,
      goal.target,
    );
    return (short(from) - after) / Math.max(c.cout, 1);
  };
  const combo: Combo = new Map(goal.fixed);
  const baseline = evaluate(ctx, new Map(goal.fixed));
  for (const r of goal.requirements) {
    if (satisfied(combo, r)) continue;
    const options = r.groups
      .filter((g) => !goal.fixed.has(g))
      .flatMap((g) => groups.get(g) ?? [])
      .filter((c) => r.options.has(changeKey(c.change)));
    const pick = options.reduce<Candidate | undefined>(
      (a, b) => (!a || merit(b, baseline.o) > merit(a, baseline.o) ? b : a),
      undefined,
    );
    if (pick) combo.set(slot(pick), pick);
  }
  let current = evaluate(ctx, combo);
  const holds = (c: Combo) => meetsAll(c, goal.requirements);
  // greedy: add or upgrade (keeping the requirements), predicted to reach first, else best merit
  while (!reaches(current.o, goal.target) && budgetLeft()) {
    let move: { c: Candidate; extra: number; reach: boolean; merit: number } | undefined;
    for (const [g, list] of groups) {
      if (goal.fixed.has(g)) continue;
      const had = current.combo.get(g);
      for (const c of list) {
        if (had === c || (had && c.cout <= had.cout)) continue;
        if (had) {
          const trial = new Map(current.combo);
          trial.set(g, c);
          if (!holds(trial)) continue;
        }
        const ep = (current.o.after.epM2 * ratio(c, 'ep')) / ratio(had, 'ep');
        const ges = (current.o.after.gesM2 * ratio(c, 'ges')) / ratio(had, 'ges');
        const after = shortfallOfFigures(ep, ges, t, goal.target);
        const gain = short(current.o) - after;
        if (gain <= 0) continue;
        const extra = c.cout - (had?.cout ?? 0);
        const m = { c, extra, reach: after <= 0, merit: gain / Math.max(extra, 1) };
        if (
          !move ||
          (m.reach && !move.reach) ||
          (m.reach && move.reach && m.extra < move.extra) ||
          (!m.reach && !move.reach && m.merit > move.merit)
        )
          move = m;
      }
    }
    if (!move) break;
    const next: Combo = new Map(current.combo);
    next.set(slot(move.c), move.c);
    current = evaluate(ctx, next);
  }
  if (!reaches(current.o, goal.target)) {
    // the strongest option of every group (keeping the requirements met)
    const strongest: Combo = new Map(current.combo);
    for (const [g, list] of groups) {
      if (goal.fixed.has(g)) continue;
      const best = list.reduce((a, b) =>
        shortfall(b.single, t, goal.target) < shortfall(a.single, t, goal.target) ? b : a,
      );
      const trial = new Map(strongest);
      trial.set(g, best);
      if (holds(trial)) strongest.set(g, best);
    }
    const ev = evaluate(ctx, strongest);
    if (!reaches(ev.o, goal.target))
      return { best: short(ev.o) < short(current.o) ? ev : current, reached: false };
    current = ev;
  }
  // local search: drops, downgrades, swaps, each kept when the class and the requirements hold
  let improved = true;
  while (improved && budgetLeft()) {
    improved = false;
    const chosen = [...current.combo.entries()]
      .filter(([g]) => !goal.fixed.has(g))
      .sort((a, b) => b[1].cout - a[1].cout || (a[0] < b[0] ? -1 : 1));
    for (const [g, c] of chosen) {
      const tries: Combo[] = [];
      const without = new Map(current.combo);
      without.delete(g);
      if (holds(without)) tries.push(without);
      for (const d of groups.get(g) ?? []) {
        if (d.cout >= c.cout) break;
        const swapped = new Map(current.combo);
        swapped.set(g, d);
        if (holds(swapped)) tries.push(swapped);
      }
      for (const [h, list] of groups) {
        if (current.combo.has(h) || goal.fixed.has(h)) continue;
        for (const d of list) {
          if (d.cout >= c.cout) break;
          const ep = (current.o.after.epM2 * ratio(d, 'ep')) / ratio(c, 'ep');
          const ges = (current.o.after.gesM2 * ratio(d, 'ges')) / ratio(c, 'ges');
          if (shortfallOfFigures(ep, ges, t, goal.target) > SWAP_SLACK) continue;
          const swapped = new Map(current.combo);
          swapped.delete(g);
          swapped.set(h, d);
          if (holds(swapped)) tries.push(swapped);
        }
      }
      for (const next of tries) {
        if (!budgetLeft()) break;
        const ev = evaluate(ctx, next);
        if (reaches(ev.o, goal.target) && ev.cout < current.cout) {
          current = ev;
          improved = true;
          break;
        }
      }
      if (improved) break;
    }
  }
  return { best: current, reached: true };
}

export function allRequirements(items: Items): Requirement[] {
  return [...items.requirements.values()].flat();
}

/** The insulation items whose elements the catalogue can treat (requirements and no `cannot` over half the area). */
export function treatableInsulation(items: Items): ItemKey[] {
  return INSULATION_ITEMS.filter((k) => {
    const els = items.elements.filter((e) => e.item === k);
    const need = els.filter((e) => e.status === 'needs-works' || e.status === 'cannot');
    const can = els.filter((e) => e.status === 'needs-works');
    const area = (xs: typeof els) => xs.reduce((s, e) => s + e.area, 0);
    return can.length > 0 && area(can) >= 0.5 * area(need);
  });
}

/** The rules of a goal as proof.ts's covering constraints: one option meeting each requirement. */
function coveringsOf(reqs: readonly Requirement[]): Covering[] {
  return reqs.map((r) => {
    const groups = new Set(r.groups);
    return {
      among: (c: Candidate) => groups.has(slot(c)) && r.options.has(changeKey(c.change)),
      atLeast: 1,
    };
  });
}

const comboOf = (items: readonly Candidate[]): Combo => new Map(items.map((c) => [slot(c), c]));

/** The runs the proofs made join the audit's combinations (and the one-step candidates). */
function absorb(ctx: Ctx): void {
  for (const run of ctx.runs.evaluated) {
    const combo = comboOf(run.items);
    const key = comboKey(combo);
    if (ctx.seen.has(key)) continue;
    register(ctx, key, combo, run);
    ctx.proofRuns++;
  }
}

interface Proved {
  answer: ProofAnswer;
  /** the proof's answer as the audit's combination */
  best?: Evaluated;
}

/**
 * proof.ts's cut search on a goal (`fixed` kept, every requirement met, the class reached), from
 * the heuristic's answer, on its own budget of engine runs and master nodes; unproved, the
 * predicted search on the same goal may find a cheaper answer (the cut search's bound stands).
 */
function prove(ctx: Ctx, goal: Goal, incumbent: Evaluated | undefined): Proved {
  ctx.runs.budget = ctx.runs.count + AUDIT_PROOF_RUNS;
  const query: ProofQuery = {
    groups: [...ctx.groups.entries()].filter(([g]) => !goal.fixed.has(g)).map(([, l]) => l),
    constraints: coveringsOf(goal.requirements),
    target: goal.target,
    fixed: [...goal.fixed.values()],
    masterNodes: AUDIT_MASTER_NODES,
    // (dearest group first: more of its solves end solved within the nodes, docs/audit.md)
    dearestFirst: true,
  };
  const start = incumbent
    ? [...incumbent.combo.entries()].filter(([g]) => !goal.fixed.has(g)).map(([, c]) => c)
    : undefined;
  let answer = cheapestProved(ctx.runs, { ...query, ...(start ? { incumbent: start } : {}) });
  if (!answer.exact && answer.best) {
    ctx.runs.budget = ctx.runs.count + AUDIT_PREDICT_RUNS;
    const p = cheapestProved(ctx.runs, { ...query, predict: true, thresholds: false });
    if (p.best && p.best.cout < answer.best.cout) answer = { ...answer, best: p.best };
  }
  ctx.runs.budget = Infinity;
  absorb(ctx);
  const best = answer.best ? ctx.seen.get(comboKey(comboOf(answer.best.items))) : undefined;
  return { answer, ...(best ? { best } : {}) };
}

/**
 * The exchange pass (scenarios.ts `withExchanges`) with the audit's rules: `ev` with one of the
 * strongest options it lacks (by the yearly primary energy it saves alone; in place of its own
 * option of that group; never one of `goal.fixed`'s groups), then without each of its own options
 * (costliest first) the goal no longer needs, every requirement kept; the cheapest such
 * combination reaching the class, or `ev`. At most `runs` engine runs.
 */
function exchanged(ctx: Ctx, ev: Evaluated, goal: Goal, runs: number): Evaluated {
  const start = ctx.seen.size;
  const left = () => ctx.seen.size - start < runs;
  const holds = (c: Combo) => meetsAll(c, goal.requirements);
  const added = strongestFirst(
    [...ctx.groups]
      .filter(([g]) => !goal.fixed.has(g))
      .flatMap(([g, list]) => list.filter((c) => ev.combo.get(g) !== c && c.cout < ev.cout)),
  );
  let out = ev;
  for (const g of added) {
    if (!left()) break;
    const combo = new Map(ev.combo);
    combo.set(slot(g), g);
    if (!holds(combo)) continue;
    let cur = evaluate(ctx, combo);
    if (!reaches(cur.o, goal.target)) continue;
    const own = [...cur.combo.entries()]
      .filter(([k]) => !goal.fixed.has(k))
      .sort((a, b) => b[1].cout - a[1].cout || (a[0] < b[0] ? -1 : 1));
    for (const [k] of own) {
      if (!left()) break;
      const without = new Map(cur.combo);
      without.delete(k);
      if (!holds(without)) continue;
      const e = evaluate(ctx, without);
      if (reaches(e.o, goal.target) && e.cout < cur.cout) cur = e;
    }
    if (better(cur, out)) out = cur;
  }
  // (counted as the proofs' runs: the heuristic's budgets are spent as without the pass)
  ctx.proofRuns += ctx.seen.size - start;
  return out;
}

/**
 * What the proof says of an answer `ev` to a goal (`before`: the earlier steps' cost): proved the
 * cheapest, or the proof's lower bound on the step's own cost.
 */
function proofOf(p: Proved, ev: Evaluated, before: number, reached: boolean): StepProof {
  const a = p.answer;
  // (the class out of reach: the path is the best there is, not proved; the justification says why)
  if (!reached) return { exact: false, lowerBound: 0 };
  // (whole euros, rounded down: the master's knapsack bound is fractional)
  const lb = Number.isFinite(a.lowerBound) ? Math.min(Math.floor(a.lowerBound), ev.cout) : 0;
  const exact = (a.exact && !!a.best && ev.cout <= a.best.cout) || lb >= ev.cout;
  const fb = Number.isFinite(a.finalBound) ? Math.min(Math.floor(a.finalBound), ev.cout) : 0;
  return {
    exact,
    lowerBound: Math.max(0, (exact ? ev.cout : lb) - before),
    finalBound: Math.max(0, (exact ? ev.cout : Math.max(lb, fb)) - before),
  };
}

/**
 * A path in steps made of the path in one step's own works (`whole`, reaching the final class):
 * step 1 the cheapest part of them that meets a first step's rules (one of `firsts`: a pair of
 * insulation items, the ventilation with them) and reaches `firstTarget` without reaching
 * `whole`'s class, so that step 2, the rest of the works, gains a class. The works are split by
 * kind of element (every wall in one step, as every window: `mur`, `baie_vitree`, …, the
 * heating and the hot-water installations), the parts listed by the sum of their lines' costs
 * (no run) and run cheapest first, `AUDIT_SPLIT_RUNS` at most; undefined when none qualifies.
 * For the path in steps whose step 1, chosen first, leaves the final class out of reach of any
 * completion while the path in one step reaches it.
 */
function splitOf(
  ctx: Ctx,
  whole: Evaluated,
  firsts: readonly (readonly Requirement[])[],
  firstTarget: ClassLetter,
): Evaluated | undefined {
  const kindOf = (c: Candidate) => parseReferenceId(c.change.referenceId)?.category ?? '';
  const units = [...new Set([...whole.combo.values()].map(kindOf))].sort();
  if (units.length < 2 || units.length > AUDIT_SPLIT_KINDS) return undefined;
  const parts: { combo: Combo; cost: number }[] = [];
  for (let m = 1; m < (1 << units.length) - 1; m++) {
    // (in the path in one step's order, as its works are listed)
    const kept = new Set(units.filter((_, i) => m & (1 << i)));
    const combo: Combo = new Map([...whole.combo].filter(([, c]) => kept.has(kindOf(c))));
    if (firsts.some((r) => meetsAll(combo, r)))
      parts.push({ combo, cost: [...combo.values()].reduce((t, c) => t + c.cout, 0) });
  }
  parts.sort((a, b) => a.cost - b.cost || (comboKey(a.combo) < comboKey(b.combo) ? -1 : 1));
  const wholeClass = classIndex(whole.o.classesAfter.dpe);
  for (const { combo } of parts.slice(0, AUDIT_SPLIT_RUNS)) {
    const ev = evaluate(ctx, combo);
    if (reaches(ev.o, firstTarget) && classIndex(ev.o.classesAfter.dpe) > wholeClass) return ev;
  }
  return undefined;
}

/**
 * An answer short of its class without the works that add nothing to it: each of its own items
 * (not in `kept`, an earlier step's works; costliest first) dropped when every requirement it
 * met still holds and neither primary energy nor emissions rise without it. New radiators with
 * thermostatic valves make the valves alone redundant on the same network: 2378E0897918K's
 * strongest step priced both (3,500 € for nothing). One run per item.
 */
function trimmed(ctx: Ctx, ev: Evaluated, kept: Combo, reqs: readonly Requirement[]): Evaluated {
  const held = reqs.filter((r) => satisfied(ev.combo, r));
  let out = ev;
  const own = [...ev.combo.entries()]
    .filter(([g, c]) => kept.get(g) !== c)
    .sort((a, b) => b[1].cout - a[1].cout || (a[0] < b[0] ? -1 : 1));
  for (const [g] of own) {
    const without = new Map(out.combo);
    without.delete(g);
    if (!meetsAll(without, held)) continue;
    const w = evaluate(ctx, without);
    if (w.o.after.ep <= out.o.after.ep && w.o.after.ges <= out.o.after.ges) out = w;
  }
  return out;
}

/**
 * The final pass (scenarios.ts `FINAL_POLISH_BUDGET`'s drops and swaps) with the audit's rules, on
 * an answer to a goal the proof left unproved: each of its own options (not `goal.fixed`'s;
 * costliest first, then by key) dropped, then each swapped for the cheapest option of its group
 * (cheapest first) with which the combination still meets every requirement and reaches the class,
 * kept when cheaper; sweeps again while one lowered the cost. No budget: a sweep runs at most one
 * combination per own option and per cheaper option of its group, and only a sweep that lowered
 * the cost is followed by another. Counted as the proofs' runs (the heuristic's budgets are spent
 * as without the pass).
 */
function polished(ctx: Ctx, ev: Evaluated, goal: Goal): Evaluated {
  const start = ctx.seen.size;
  const fits = (c: Combo) => meetsAll(c, goal.requirements);
  const own = (e: Evaluated) =>
    [...e.combo.entries()]
      .filter(([g]) => !goal.fixed.has(g))
      .sort((a, b) => b[1].cout - a[1].cout || (a[0] < b[0] ? -1 : 1));
  const cheaper = (e: Evaluated, out: Evaluated) => reaches(e.o, goal.target) && e.cout < out.cout;
  let out = ev;
  for (let improved = true; improved;) {
    improved = false;
    for (const [g] of own(out)) {
      const without = new Map(out.combo);
      without.delete(g);
      if (!fits(without)) continue;
      const e = evaluate(ctx, without);
      if (cheaper(e, out)) {
        out = e;
        improved = true;
      }
    }
    for (const [g, c] of own(out)) {
      const alternatives = (ctx.groups.get(g) ?? [])
        .filter((d) => d !== c && d.cout < c.cout)
        .sort((a, b) => a.cout - b.cout || (changeKey(a.change) < changeKey(b.change) ? -1 : 1));
      for (const d of alternatives) {
        if (out.combo.get(g) !== c) break;
        const swapped = new Map(out.combo);
        swapped.set(g, d);
        if (!fits(swapped)) continue;
        const e = evaluate(ctx, swapped);
        if (cheaper(e, out)) {
          out = e;
          improved = true;
          break;
        }
      }
    }
  }
  ctx.proofRuns += ctx.seen.size - start;
  return out;
}

/** Both paths. */
export function searchPaths(frame: PathFrame, items: Items, target: ClassLetter): Paths {
  const all = allRequirements(items);
  const exchangeRuns = frame.exchangeRuns ?? AUDIT_EXCHANGE_RUNS;
  const ctx: Ctx = {
    ...frame,
    seen: new Map(),
    runs: new AuditEvaluator(frame),
    proofRuns: 0,
    single: { requirements: all, target },
  };
  const base = evaluate(ctx, new Map());
  const initialIdx = classIndex(base.o.classesBefore.dpe);
  const firstTarget = classFromIndex(Math.max(1, initialIdx - 2));
  const vent = items.ventilationWeak ? (items.requirements.get('ventilation') ?? []) : [];
  const insulation = treatableInsulation(items);
  const pairs: ItemKey[][] = [];
  for (let i = 0; i < insulation.length; i++)
    for (let j = i + 1; j < insulation.length; j++)
      pairs.push([insulation[i] as ItemKey, insulation[j] as ItemKey]);
  if (pairs.length === 0) pairs.push(insulation);
  const firstRules = (pair: ItemKey[]) => [
    ...pair.flatMap((k) => items.requirements.get(k) ?? []),
    ...vent,
  ];
  const firsts: (Found & { pair: ItemKey[] })[] = [];
  for (const pair of pairs) {
    if (ctx.seen.size >= AUDIT_TOTAL_BUDGET && firsts.length) break;
    firsts.push({
      ...cheapestReaching(ctx, {
        fixed: new Map(),
        requirements: firstRules(pair),
        target: firstTarget,
      }),
      pair,
    });
  }
  firsts.sort(
    (a, b) =>
      Number(b.reached) - Number(a.reached) ||
      a.best.cout - b.best.cout ||
      (comboKey(a.best.combo) < comboKey(b.best.combo) ? -1 : 1),
  );
  const stepTargetAfter = (first: Evaluated) => {
    const s1 = classIndex(first.o.classesAfter.dpe);
    return classFromIndex(Math.max(1, Math.min(classIndex(target), s1 - 1)));
  };
  // each first step's completion: the final class, and at least one class more than step 1
  let chosen: { first: Found & { pair: ItemKey[] }; next?: Found } | undefined;
  for (const first of firsts) {
    const rest = all.filter((r) => !satisfied(first.best.combo, r));
    const done = !rest.length && reaches(first.best.o, target);
    if (done) {
      chosen = { first };
      break;
    }
    const next = cheapestReaching(ctx, {
      fixed: first.best.combo,
      requirements: rest,
      target: stepTargetAfter(first.best),
    });
    if (!chosen) chosen = { first, next };
    if (next.reached) {
      chosen = { first, next };
      break;
    }
    if (ctx.seen.size >= AUDIT_TOTAL_BUDGET) break;
  }
  const picked = chosen as { first: Found & { pair: ItemKey[] }; next?: Found };
  // step 1 proved (proof.ts) the cheapest meeting its pair's rules and reaching its class
  const pair = picked.first.pair;
  const goal1: Goal = { fixed: new Map(), requirements: firstRules(pair), target: firstTarget };
  const p1 = prove(ctx, goal1, picked.first.reached ? picked.first.best : undefined);
  let first: Found = picked.first;
  if (p1.best && (!first.reached || better(p1.best, first.best)))
    first = { best: p1.best, reached: true };
  /** step 1's completion (the heuristic's, then proved), and what the proof says of it */
  const complete = (one: Found, heuristic: Found | undefined) => {
    const rest = all.filter((r) => !satisfied(one.best.combo, r));
    if (rest.length === 0 && reaches(one.best.o, target))
      return { next: undefined, proof2: null, total: one.best.cout, p2: null, goal2: null };
    let next =
      heuristic ??
      cheapestReaching(ctx, {
        fixed: one.best.combo,
        requirements: rest,
        target: stepTargetAfter(one.best),
      });
    // step 2 proved the cheapest completing step 1's works (its rules, one class more at least)
    const goal2: Goal = {
      fixed: one.best.combo,
      requirements: rest,
      target: stepTargetAfter(one.best),
    };
    const p2 = prove(ctx, goal2, next.reached ? next.best : undefined);
    if (p2.best && (!next.reached || better(p2.best, next.best)))
      next = { best: p2.best, reached: true };
    // unproved: the exchange pass may find it cheaper (the proof's bound stands)
    if (next.reached && !proofOf(p2, next.best, one.best.cout, true).exact)
      next = { best: exchanged(ctx, next.best, goal2, exchangeRuns), reached: true };
    const proof2 = proofOf(p2, next.best, one.best.cout, next.reached);
    return {
      next: next as Found | undefined,
      proof2,
      total: next.reached ? next.best.cout : Infinity,
      p2: p2 as Proved | null,
      goal2: goal2 as Goal | null,
    };
  };
  let proof1: StepProof | null = proofOf(p1, first.best, 0, first.reached);
  let { next, proof2, p2, goal2 } = complete(
    first,
    first === picked.first ? picked.next : undefined,
  );
  if (first !== picked.first && picked.first.reached) {
    // a cheaper step 1 may make a dearer path: the heuristic's step 1 is kept when its path costs
    // less in all (step 1 then bounded by the proof, not proved)
    const kept = complete(picked.first, picked.next);
    const total = next?.reached ? next.best.cout : next ? Infinity : first.best.cout;
    if (kept.total < total) {
      first = picked.first;
      proof1 = proofOf(p1, first.best, 0, true);
      ({ next, proof2, p2, goal2 } = kept);
    }
  }
  let steps: Evaluated[] = [];
  let stepProofs: (StepProof | null)[] = [];
  let stepsReached = false;
  const arrange = () => {
    steps = [first.best];
    stepProofs = [proof1];
    stepsReached = first.reached && reaches(first.best.o, target);
    if (next) {
      const s2 = next.best;
      const gain = classIndex(first.best.o.classesAfter.dpe) - classIndex(s2.o.classesAfter.dpe);
      // a step that gains no class is no step: its works join step 1 (proved as neither)
      steps = gain >= 1 ? [first.best, s2] : [s2];
      stepProofs = gain >= 1 ? [proof1, proof2] : [null];
      stepsReached = reaches(s2.o, target);
    }
  };
  arrange();
  // the path in one step: the heuristic's, then proved; the cheapest meeting its rules of all the
  // audit ran (the path in steps' works and every proof's runs included)
  const own = cheapestReaching(ctx, { fixed: new Map(), requirements: all, target });
  const last = steps[steps.length - 1] as Evaluated;
  evaluate(ctx, last.combo); // (already seen: registers it as a one-step candidate)
  let pS = prove(ctx, { fixed: new Map(), requirements: all, target }, ctx.single.best);
  let provedClass = target;
  if (!ctx.single.best && ctx.single.fallback) {
    // the final class out of reach: proved the cheapest reaching the best class reached
    provedClass = ctx.single.fallback.o.classesAfter.dpe;
    pS = prove(
      ctx,
      { fixed: new Map(), requirements: all, target: provedClass },
      ctx.single.fallback,
    );
  }
  // unproved: the exchange pass may find the path in one step cheaper (every run it makes joins
  // the path in one step's candidates; the proof's bound stands)
  if (ctx.single.best && provedClass === target && !proofOf(pS, ctx.single.best, 0, true).exact)
    exchanged(ctx, ctx.single.best, { fixed: new Map(), requirements: all, target }, exchangeRuns);
  // the final pass on each answer still unproved, after every search (so that its runs change no
  // heuristic's budget): the path in one step (its runs join its candidates), then step 1 of the
  // path in steps, then step 2
  const finalPass = frame.finalPass ?? true;
  if (
    finalPass &&
    ctx.single.best &&
    provedClass === target &&
    !proofOf(pS, ctx.single.best, 0, true).exact
  )
    polished(ctx, ctx.single.best, { fixed: new Map(), requirements: all, target });
  if (finalPass && steps.length === 2 && first.reached && next?.reached && !stepProofs[0]?.exact) {
    // a cheaper step 1 (its rules, its class): step 2's own works on it as the completion's
    // incumbent, proved again (step 2's rules and bound depend on step 1's works); kept when the
    // path costs less in all, as the heuristic's step 1 above
    const s1 = polished(ctx, first.best, goal1);
    if (s1 !== first.best) {
      const combo = new Map(s1.combo);
      for (const [g, c] of next.best.combo) if (!first.best.combo.has(g)) combo.set(g, c);
      const rest = all.filter((r) => !satisfied(s1.combo, r));
      const size = ctx.seen.size;
      const e = evaluate(ctx, combo);
      ctx.proofRuns += ctx.seen.size - size;
      const alt = complete(
        { best: s1, reached: true },
        meetsAll(combo, rest) ? { best: e, reached: reaches(e.o, stepTargetAfter(s1)) } : undefined,
      );
      if (alt.total < next.best.cout) {
        first = { best: s1, reached: true };
        proof1 = proofOf(p1, s1, 0, true);
        ({ next, proof2, p2, goal2 } = alt);
        arrange();
      }
    }
  }
  if (finalPass && steps.length === 2 && next?.reached && p2 && goal2 && !stepProofs[1]?.exact) {
    const s2 = polished(ctx, next.best, goal2);
    if (s2 !== next.best) {
      next = { best: s2, reached: true };
      proof2 = proofOf(p2, s2, first.best.cout, true);
      arrange();
    }
  }
  // a path in steps dearer in all than the path in one step, which goes past the final class: the
  // path in one step's works split in two (`splitOf`, step 1 meeting a first step's rules and
  // reaching its class), step 2 proved as the completion of that step 1,
  // the rest of the works its incumbent; kept when the path costs less in all, as the heuristic's
  // step 1 above (2459E1831723H: step 1 a double-flow ventilation, 57,563 € in all, where the
  // path in one step's works, 49,212 €, reach A)
  const whole = ctx.single.best;
  let splitFromSingle: { stepwiseCost: number } | undefined;
  if (
    (frame.splitPass ?? true) &&
    steps.length === 2 &&
    next?.reached &&
    whole &&
    provedClass === target &&
    whole.cout < next.best.cout
  ) {
    // (every pair of insulation items, as for a path short of its class: the cheapest part
    // meeting any first step's rules; 2287E0722622O: the heat pump, the walls, the low floor and
    // the ventilation, 37,517 €, where the heuristic's pair alone gave 60,532 €)
    const split = splitOf(ctx, whole, pairs.map(firstRules), firstTarget);
    if (split) {
      const after = stepTargetAfter(split);
      const alt = complete(
        { best: split, reached: true },
        { best: whole, reached: reaches(whole.o, after) },
      );
      if (alt.next?.reached && alt.total < next.best.cout) {
        const stepwiseCost = next.best.cout;
        // (step 1's proof bounds the split only when the split meets that proof's rules: its
        // pair of insulation items; otherwise not proved, as a split of a path short of its class)
        first = { best: split, reached: true };
        proof1 = meetsAll(split.combo, goal1.requirements) ? proofOf(p1, split, 0, true) : null;
        ({ next, proof2 } = alt);
        arrange();
        if (steps.length === 2) splitFromSingle = { stepwiseCost };
      }
    }
  }
  const best = ctx.single.best;
  // none reaches the final class: the best class reached with every requirement met, the
  // cheapest of those (never dearer than the path in steps' works reaching the same class)
  const fallback = ctx.single.fallback;
  const single =
    best ??
    (fallback && classIndex(fallback.o.classesAfter.dpe) <= classIndex(own.best.o.classesAfter.dpe)
      ? fallback
      : own.best);
  const singleProof = proofOf(
    pS,
    single,
    0,
    reaches(single.o, provedClass) && single === (best ?? fallback),
  );
  // a path in steps of one step (folded, or step 1 meeting every requirement and the class): its
  // rules are the path in one step's (every requirement, the class) and step 1's (two classes, two
  // insulation items), so the path in one step's proof bounds it, and that path's answer serves
  // when it is cheaper, meets every requirement (and so treats any pair of insulation items) and
  // reaches at least the class the step reaches (and so gains at least its classes): never two
  // different answers to one question (2438E1338967I: 39,492 € folded against 33,949 € proved;
  // 2593E3377930D, step 1 with the heuristic's pair: 30,207 € against 19,240 € for the same B;
  // 2321E1081706Z, B out of reach: 18,105 € against 8,934 € for the same C)
  if (steps.length === 1) {
    const only = steps[0] as Evaluated;
    const answer = best ?? (reaches(single.o, provedClass) ? single : undefined);
    const atLeast = (e: Evaluated) =>
      classIndex(e.o.classesAfter.dpe) <= classIndex(only.o.classesAfter.dpe);
    if (answer && answer.cout < only.cout && meetsAll(answer.combo, all) && atLeast(answer)) {
      steps = [answer];
      stepProofs = [singleProof];
      stepsReached = reaches(answer.o, target);
    } else if (stepProofs[0] === null)
      stepProofs = [
        proofOf(pS, only, 0, reaches(only.o, provedClass) && meetsAll(only.combo, all)),
      ];
  }
  // a path in steps short of the class the path in one step reaches: its step 1, chosen first,
  // leaves the class out of reach of any completion (2387E0273032R: a heat pump for the heating
  // alone, where the path in one step's makes the hot water too). Its steps are then taken from
  // the path in one step's works: step 1 the cheapest part meeting a first step's rules, step 2
  // the rest; not proved (after every search: these runs change no other answer)
  if (!stepsReached && best) {
    const split = splitOf(ctx, best, pairs.map(firstRules), firstTarget);
    if (split) {
      steps = [split, best];
      stepProofs = [null, null];
      stepsReached = true;
    }
  }
  // a path short of its class: its last step without the works that add nothing to it (after
  // every search: these runs change no other answer)
  if (!stepsReached) {
    const i = steps.length - 1;
    const own = trimmed(ctx, steps[i] as Evaluated, steps[i - 1]?.combo ?? new Map(), all);
    if (own !== steps[i]) {
      steps = [...steps.slice(0, i), own];
      // (one step short of the class is the folded path, proved as the path in one step; a
      // second step short of its class has no proof to restate)
      if (i === 0)
        stepProofs = [proofOf(pS, own, 0, reaches(own.o, provedClass) && meetsAll(own.combo, all))];
    }
  }
  let singleOut = single;
  let singleProofOut = singleProof;
  if (!best) {
    singleOut = trimmed(ctx, single, new Map(), all);
    if (singleOut !== single)
      singleProofOut = proofOf(
        pS,
        singleOut,
        0,
        reaches(singleOut.o, provedClass) && single === (best ?? fallback),
      );
  }
  return {
    steps,
    stepProofs,
    stepsReached,
    single: singleOut,
    singleReached: best !== undefined,
    singleProof: singleProofOut,
    pair,
    base,
    combinations: ctx.seen.size,
    ...(!best && !own.reached
      ? { strongest: { epM2: own.best.o.after.epM2, gesM2: own.best.o.after.gesM2 } }
      : {}),
    ...(splitFromSingle && steps.length === 2 && steps[1] === next?.best
      ? { splitFromSingle }
      : {}),
  };
}

/**
 * Recommended works scenarios (`autoSolutions`): for each class better than the initial one,
 * the cheapest combination of works options that reaches it. The class of a combination always
 * comes from an engine run on the whole combination (gains interact), with today's thresholds
 * and normalization when it applies. docs/scenario-search.md states what is guaranteed.
 *
 * - candidates: per element and works key (a group), the options it offers, minus those
 *   dominated in the group (costlier and saving no more, on both energy and GES) and those that
 *   save nothing alone; options that make things worse are not offered at all (see
 *   `structure.ts`, `harmOf`).
 * - per target class, nearest first: a best-first search by cost (`cheapestReaching`,
 *   search.ts) that proves its answer the cheapest, or stops at its budget with a proven lower
 *   bound; the budget counts change sets (RUN_BUDGET per DPE, shared among the targets: each
 *   gets its share of what is left), never time, so the same DPE gives the same scenarios.
 * - when the best-first search is cut, the heuristic below looks for a good answer with
 *   HEURISTIC_FALLBACK_BUDGET more change sets: a greedy pass adds, element by element, the
 *   option with the best "shortfall to the target removed per euro" (from single-option runs)
 *   until the combination is predicted to reach the class, runs it, and goes on from the result;
 *   then a local search removes items that are not needed, swaps an item for a cheaper option
 *   and replaces two items by one while the class holds. Predictions only decide what is worth a
 *   run; every scenario returned was run.
 * - combinations up to EXACT_LIMIT are all run (exhaustive).
 */
import type {
  AutoSolution,
  CoefMode,
  EditableChange,
  ScenarioItem,
  Thresholds,
} from '../contract/schemas.js';
import { CATEGORIES } from '../contract/constants.js';
import { CLASS_LETTERS, classIndex, type ClassLetter } from '../contract/classes.js';
import type { OnProgress } from '../contract/progress.js';
import { elementsOf, referenceId } from '../dpe/elements.js';
import type { RawElement } from '../dpe/raw.js';
import type { Engine } from '../engine/engine.js';
import { labelOn, offeredOptions } from '../works/apply.js';
import type { WorksOptionRow } from '../works/catalogue.js';
import type { CostTable } from '../works/costs.js';
import { outcome, RESULT_TITLES, type Outcome } from './calc.js';
import { round2 } from './comparison.js';
import type { PreparedDpe } from './prepared.js';
import { changeKey, figuresOf, runWorks } from './runs.js';
import {
  cheapestReaching,
  combinationKey,
  Evaluator,
  type Candidate,
  type Evaluated,
} from './search.js';
import { cheapestProved, familyOf, MASTER_NODES, type ProofAnswer } from './proof.js';
import { Anchors, type Anchor } from './anchors.js';

export type { Candidate } from './search.js';

/** Combinations up to this many are searched exhaustively. */
export const EXACT_LIMIT = 64;
/** Change sets the heuristic may evaluate per DPE, all targets together (memo hits count once). */
export const RUN_BUDGET = 250;
/**
 * Change sets the best-first search may evaluate per DPE, all targets together, to prove the
 * heuristic's answers the cheapest or find cheaper ones (memo hits count once). 600 since prices
 * follow R: a wall keeps 2 to 4 candidates (ITE and ITI at each R) instead of 1 or 2, and at 300
 * the corpus's proved answers fell from 218 to 172 of 613 (the bundled house's E: 3 630 €
 * unproved, where 3 098 € reaches it); at 600, 216 of 611 and the house's E proved at 3 098 €.
 */
export const PROOF_BUDGET = 600;
/**
 * Change sets the cut search (proof.ts) may evaluate per DPE, all targets together, for the
 * answers the best-first search did not prove: to raise their lower bound or find cheaper ones.
 */
export const CUT_BUDGET = 200;
/**
 * Nodes of the cut search's master problems per DPE, all targets together, first come first
 * served: each solve of a target takes at most MASTER_NODES of what is left when the target starts.
 */
export const MASTER_BUDGET = 12_000;
/**
 * Nodes per solve a target's master problems get at least, when the nearer targets left less of
 * MASTER_BUDGET: they often spend it all (a solve of 4 000 nodes, several solves), which left the
 * farther targets a master of 0 nodes, the root's bound. On every 8th corpus DPE, 2 000 raised 16
 * of 77 bounds (the others' median cost ÷ bound 1.494 → 1.386), lowered none and made no
 * scenario costlier; sharing the budget itself (what is left ÷ the targets left, or half of it)
 * took nodes from the nearest targets and made two costlier (docs/scenario-search.md).
 */
export const MASTER_FLOOR = 2_000;
/**
 * Change sets the predicted search (proof.ts `predict`) may evaluate per DPE, all targets together
 * (half of what is left per target, all of it for the last), on its own evaluator: after the
 * other searches, for the answers still unproved, it looks for cheaper combinations where the
 * options' savings alone add up (GES, where the cut search has no knapsack). It can only lower a
 * scenario's cost; nothing else it runs is seen by the other searches.
 */
export const PREDICT_BUDGET = 40;
/**
 * Change sets the last pass may evaluate per DPE, all targets together (half of what is left per
 * target, all of it for the last), on its own evaluator: an answer still unproved after every
 * search loses each of its options (costliest first) that the class does not need. The cut and
 * predicted searches run their master's answers as they are; on the corpus 23 of 317 unproved
 * scenarios held such an option (40 runs caught 20 of them, 80 all 23). It can only lower a
 * scenario’s cost.
 */
export const DROP_BUDGET = 80;
/**
 * Change sets a second predicted search may evaluate per DPE (shared as PREDICT_BUDGET's), on its
 * own evaluator, where the works can cross a Q4Pa,conv threshold (proof.ts `airThresholds`): its
 * master knows what crossing saves, so it proposes the combinations that cross. It can only lower
 * a scenario's cost.
 */
export const CROSSING_BUDGET = 20;
/**
 * Change sets the swap pass may evaluate per DPE, all targets together (half of what is left per
 * target, all of it for the last), on its own evaluator: an answer still unproved after every
 * other pass gets, for each of its options (costliest first), the cheapest option of the same
 * element and works key that still reaches the class (an insulation at R 3.0 where the search
 * kept R 3.7). It can only lower a scenario's cost.
 */
export const SWAP_BUDGET = 60;
/**
 * Change sets the exchange pass may evaluate per DPE, all targets together (half of what is left
 * per target, all of it for the last), on its own evaluator: an answer still unproved gets one of
 * the strongest options it lacks (by the primary energy it saves alone; in place of its own
 * option of that group, if any), then loses each option the class no longer needs (costliest
 * first): one strong option can make several weaker ones redundant, which neither dropping nor
 * swapping one at a time finds. It can only lower a scenario's cost.
 */
export const EXCHANGE_BUDGET = 150;
/**
 * Change sets the second cut search may evaluate per DPE, once every target has been searched
 * (half of what is left per unproved target, nearest first, all of it for the last), on its own
 * evaluator, starting from every combination the other searches ran and each target's answer:
 * nothing before it changes, and it only takes a cheaper answer or a higher bound.
 */
export const SECOND_CUT_BUDGET = 1_500;
/**
 * Master nodes per solve in the second cut search (the first's MASTER_NODES is 4,000). A solve
 * that ends at its node budget ends that target's search, whatever runs are left: with 4,000,
 * most ended so after a few of the 1,500 runs (docs/scenario-search.md, "The second cut search").
 */
export const SECOND_MASTER_NODES = 10_000;
/**
 * Change sets per DPE (half of what is left per target, all of it for the last), on their own
 * evaluator, for the last pass and the swap pass on an answer the second cut search found, still
 * unproved: the passes before it ran on the first searches' answers only, and its answers held
 * options a cheaper one of their group replaces (the bundled house's A kept a wall's internal
 * insulation at R 3.0 where a cheaper option of its group reaches). It can only lower a
 * scenario's cost.
 */
export const SECOND_POLISH_BUDGET = 60;
/**
 * Change sets per DPE of the last cut search, after the final pass and the descent: the second
 * cut search again (its master nodes, its polish), on the answers those passes left, starting
 * from every combination any pass ran. Nothing before it changes, and it only takes a cheaper
 * answer or a higher bound: more runs for the proofs without a scenario made dearer (the second
 * search's own budget raised to 3,000 instead made one dearer, its later passes starting from
 * another answer: docs/scenario-search.md, "The last cut search").
 */
export const LAST_CUT_BUDGET = 1_500;

/**
 * The closing round, after the last cut search: the answers still unproved within `CLOSE_GAP` of
 * their bound (cost ≤ 1.1 × bound), nearest first, the cut search again without lifts (each of the
 * master's answers run as it is, one cut each) and, where a lighter inertia class holds the bound
 * down, the last solve's answers run until the bound meets the answer (`finalRuns` in proof.ts), on its
 * own evaluator with `CLOSE_BUDGET` change sets per DPE (half of what is left per target, all of it
 * for the last) and `CLOSE_MASTER_NODES` nodes per solve. Measured on the corpus:
 * docs/scenario-search.md, "The closing round".
 */
export const CLOSE_BUDGET = 300;
export const CLOSE_GAP = 0.1;
export const CLOSE_MASTER_NODES = 100_000;
/**
 * Then its second part (`straight` in proof.ts): the answers still unproved within `CLOSE_GAP`,
 * no cut loop, the last solves with the runs' rows and the rows in the answers' worlds at once,
 * their answers run, with this many change sets per DPE and `SECOND_MASTER_NODES` per solve (each
 * of its solves is many: 300 change sets and 100,000 nodes proved 2 more scenarios on the corpus
 * and took 2387E2058698D's `initial` from 17 s to 79 s).
 */
export const CLOSE_STRAIGHT_BUDGET = 40;
/**
 * Then its third part, the second's again for the answers still unproved that are within
 * `CLOSE_GAP` of the bound they report (with the rows in the answers' worlds, `finalBounds`) but
 * not of the search's own, which the first two parts leave out: this many change sets per DPE, on
 * evaluators of its own, so that nothing before it changes. Measured on the corpus:
 * docs/scenario-search.md, "The closing round".
 */
export const CLOSE_REPORTED_BUDGET = 40;
/**
 * Change sets per DPE the final pass's exchanges may evaluate (half of what is left per target,
 * all of it for the last), on its own evaluator, which answers every combination the searches ran
 * without a run: every answer still unproved after every search loses the options it does not
 * need and has each swapped for a cheaper one of its group until neither helps (those sweeps
 * without a budget: each runs at most one change set per option and per cheaper option of its
 * group, and only one that lowers the cost is followed by another), then gets the exchange pass,
 * and again. The passes before it are each budgeted once, in turn, so an answer could keep an
 * option a single drop removes (an independent probe found `2387E0112514X` B with an insulated
 * door it does not need). It can only lower a scenario's cost.
 */
export const FINAL_POLISH_BUDGET = 600;
/**
 * Change sets per DPE the descent may evaluate, after the final pass (on its evaluator: what any
 * search ran is answered without a run): each answer still unproved, against the answer of each
 * stricter class that costs more (nearest first; it reaches this class too), without the
 * options this class does not need, then each swapped for a cheaper one of its group. Each
 * target searches on its own: a stricter target's answer can hold a cheaper way to a nearer class
 * than the nearer target found (`2387E1742056P` E). It can only lower a scenario's cost.
 */
export const DESCENT_BUDGET = 200;
/**
 * Change sets per target the last polish may evaluate, after the closing round, on its own
 * evaluator (what any pass ran is answered without a run): each answer still unproved gets the
 * final pass again (`polished`), its exchanges trimmed in the other order too where the option
 * brought in goes at its turn (`withExchanges`). Per target, not shared: a target's answer hangs
 * on its own runs only, and nothing comes after it, so it can only lower a scenario's cost.
 */
export const REORDER_BUDGET = 100;
/** Bounds of the slack within which a predicted combination is worth an engine run. */
export const SLACK_MIN = 0.08;
export const SLACK_MAX = 0.25;
/** Combinations of at most this many items try every single drop with an engine run. */
export const DROP_ALWAYS_RUN = 6;

/** Year from which a class may no longer be rented (Loi Climat et Résilience). */
export const RENTAL_BAN: Partial<Record<ClassLetter, number>> = { G: 2025, F: 2028, E: 2034 };

export interface ScenarioOptions {
  coef: CoefMode;
  forceNormalization: boolean;
  costs: CostTable;
  /** only these elements (tests on small cases) */
  onlyReferences?: readonly string[];
  /**
   * only the options this accepts, before an option dominated by another (same key, dearer, no
   * more gain) is dropped: the audit's aids' levels (a roof window at the sheet's Sw is not lost
   * behind a façade window it may not propose)
   */
  allow?: (row: WorksOptionRow, el: RawElement) => boolean;
  /** force a strategy (tests; 'exact' is the former name of 'exhaustive') */
  strategy?: 'auto' | 'best-first' | 'exhaustive' | 'exact' | 'heuristic';
  /** called after each target class is searched (`scenarios`, done / total targets) */
  onProgress?: OnProgress;
  /** classes with these thresholds (default: today's, `prep.thresholds`) */
  thresholds?: Thresholds;
  /** search only these target classes (default: every class better than the initial one) */
  targets?: readonly ClassLetter[];
  /** change sets the heuristic may evaluate, all targets together (default RUN_BUDGET) */
  runBudget?: number;
  /** change sets the best-first search may evaluate, all targets together (default PROOF_BUDGET) */
  proofBudget?: number;
  /** change sets the cut search may evaluate, all targets together (default CUT_BUDGET) */
  cutBudget?: number;
  /**
   * nodes the cut search's master problems may take, all targets together (MASTER_BUDGET); a
   * target finding less left still gets MASTER_FLOOR (at most this) per solve
   */
  masterBudget?: number;
  /** change sets the predicted search may evaluate, all targets together (PREDICT_BUDGET) */
  predictBudget?: number;
  /** change sets the last pass's drops may evaluate, all targets together (DROP_BUDGET) */
  dropBudget?: number;
  /** change sets the predicted search across thresholds may evaluate (CROSSING_BUDGET) */
  crossingBudget?: number;
  /** change sets the swap pass may evaluate, all targets together (SWAP_BUDGET) */
  swapBudget?: number;
  /** change sets the exchange pass may evaluate, all targets together (EXCHANGE_BUDGET) */
  exchangeBudget?: number;
  /** change sets the second cut search may evaluate, all targets together (SECOND_CUT_BUDGET) */
  secondCutBudget?: number;
  /** change sets the last cut search may evaluate, all targets together (LAST_CUT_BUDGET) */
  lastCutBudget?: number;
  /** change sets the closing round may evaluate, all targets together (CLOSE_BUDGET) */
  closeBudget?: number;
  /** change sets the closing round's third part may evaluate (CLOSE_REPORTED_BUDGET; 0: off) */
  closeReportedBudget?: number;
  /** the rows on the envelope's losses in the cut searches (default true; proof.ts `envelopeRows`) */
  envelopeRows?: boolean;
  /** change sets the final pass's exchanges may evaluate, all targets together (FINAL_POLISH_BUDGET) */
  finalPolishBudget?: number;
  /** the final pass (default on; tests measuring another pass alone turn it off) */
  finalPass?: boolean;
  /** change sets the descent from stricter classes' answers may evaluate (DESCENT_BUDGET) */
  descentBudget?: number;
  /** change sets per target the last polish, in the other order, may evaluate (REORDER_BUDGET) */
  reorderBudget?: number;
}

export interface ScenarioSearch {
  solutions: AutoSolution[];
  strategy: 'exhaustive' | 'best-first' | 'heuristic';
  /** distinct change sets evaluated */
  evaluations: number;
  /** target classes that no combination of the candidates reaches (proven) */
  unreachable: ClassLetter[];
  /** per target class searched: change sets evaluated when it was done, nodes of its search */
  searched: { classe: ClassLetter; exact: boolean; evaluations: number; nodes: number }[];
}

function limitsOf(t: Thresholds, target: ClassLetter): { ep: number; ges: number } {
  if (target === 'G') return { ep: Infinity, ges: Infinity };
  return { ep: t.dpe[target], ges: t.ges[target] };
}

interface PerM2 {
  epM2: number;
  gesM2: number;
}

/** How far figures are from the target class, relative to its limits (0 when reached). */
function shortfallOf(f: PerM2, t: Thresholds, target: ClassLetter): number {
  const l = limitsOf(t, target);
  const ep = Math.max(0, f.epM2 - l.ep + 0.5) / l.ep;
  const ges = Math.max(0, f.gesM2 - l.ges + 0.5) / l.ges;
  return ep + ges;
}

/** How far a result is from the target class, relative to its limits (0 when reached). */
export function shortfall(o: Outcome, t: Thresholds, target: ClassLetter): number {
  return shortfallOf(o.after, t, target);
}

/** A change's id for the predictor, made once per change object (the search asks it often). */
const changeIds = new WeakMap<EditableChange, string>();
const changeId = (c: EditableChange): string => {
  let id = changeIds.get(c);
  if (id === undefined) {
    id = `${c.referenceId}|${c.editableValue}`;
    changeIds.set(c, id);
  }
  return id;
};

/**
 * Predicts a combination's figures from the nearest combination already run (the anchor: the
 * one that differs by the fewest options; the baseline and every single-option run are anchors
 * from the start): each option added multiplies its figures by the option's single-run ratio
 * after/before, each option removed divides. Gains interact both ways (two insulated walls save
 * more than their sum in a small flat, a heat pump less once the walls are insulated), so the
 * nearer the anchor, the better. Keeps the largest relative error seen between a prediction and
 * the engine's result on this DPE.
 */
class Predictor {
  private error = 0;
  /** the baseline first, then each single option, then each combination run (anchors.ts) */
  private readonly anchors = new Anchors<PerM2>();
  private readonly candidates = new Map<string, Candidate>();

  constructor(base: Outcome, elements: Map<string, Candidate[]>) {
    this.anchors.add(new Set(), base.after);
    for (const list of elements.values())
      for (const c of list) {
        this.candidates.set(changeId(c.change), c);
        this.anchors.add(new Set([changeId(c.change)]), c.single.after);
      }
  }

  predict(combo: readonly Candidate[]): PerM2 {
    const ids = new Set(combo.map((c) => changeId(c.change)));
    // the last anchor at the smallest distance (there is always one: the baseline)
    const best = this.anchors.nearest(ids) as Anchor<PerM2>;
    let ep = best.value.epM2;
    let ges = best.value.gesM2;
    for (const c of combo)
      if (!best.ids.has(changeId(c.change))) {
        ep *= ratio(c.single.after.ep, c.single.before.ep);
        ges *= ratio(c.single.after.ges, c.single.before.ges);
      }
    const byId = new Map(combo.map((c) => [changeId(c.change), c]));
    for (const id of best.ids)
      if (!byId.has(id)) {
        const c = this.candidates.get(id);
        if (!c) continue;
        ep /= Math.max(ratio(c.single.after.ep, c.single.before.ep), 1e-6);
        ges /= Math.max(ratio(c.single.after.ges, c.single.before.ges), 1e-6);
      }
    return { epM2: ep, gesM2: ges };
  }

  /** Records an engine result: a new anchor, and the error of what had been predicted. */
  observe(combo: readonly Candidate[], predicted: PerM2, actual: Outcome): void {
    const rel = (p: number, a: number) => (a > 0 ? Math.abs(p - a) / a : 0);
    this.error = Math.max(
      this.error,
      rel(predicted.epM2, actual.after.epM2),
      rel(predicted.gesM2, actual.after.gesM2),
    );
    this.anchors.add(new Set(combo.map((c) => changeId(c.change))), actual.after);
  }

  get slack(): number {
    return Math.min(SLACK_MAX, Math.max(SLACK_MIN, this.error));
  }
}

function ratio(after: number, before: number): number {
  return before > 0 ? after / before : 1;
}

function reaches(o: Outcome, target: ClassLetter): boolean {
  return classIndex(o.classesAfter.dpe) <= classIndex(target);
}

/** A candidate's group, made once per change object (the local search asks it often). */
const slots = new WeakMap<EditableChange, string>();
const slotOf = (c: Candidate): string => {
  let slot = slots.get(c.change);
  if (slot === undefined) {
    slot = groupKey(c.change.referenceId, c.change.editableKey);
    slots.set(c.change, slot);
  }
  return slot;
};

/** The key of a group of candidates: an element and a works key. */
export function groupKey(referenceId: string, editableKey: string): string {
  return `${referenceId}|${editableKey}`;
}

/**
 * Drops options dominated in the same group and family (costlier and saving no more energy nor
 * GES, on the yearly totals: the per-m² figures are rounded down and would make ties; of options
 * equal in all three, the first is kept; see `familyOf`) and options that save nothing; sorted
 * by cost.
 */
function usefulCandidates(list: Candidate[]): Candidate[] {
  const after = (c: Candidate) => c.single.after;
  const dominates = (d: Candidate, c: Candidate) =>
    familyOf(d) === familyOf(c) &&
    d.cout <= c.cout &&
    after(d).ep <= after(c).ep &&
    after(d).ges <= after(c).ges &&
    (d.cout < c.cout || after(d).ep < after(c).ep || after(d).ges < after(c).ges);
  const kept = list.filter(
    (c, i) =>
      !list.some(
        (d, j) =>
          dominates(d, c) ||
          (j < i &&
            familyOf(d) === familyOf(c) &&
            d.cout === c.cout &&
            after(d).ep === after(c).ep &&
            after(d).ges === after(c).ges),
      ),
  );
  // options that save nothing at all are never part of a cheapest scenario (nor, as the options
  // list, those that make things worse: the same rounded figures decide)
  return kept
    .filter(
      (c) =>
        round2(c.single.before.ep - c.single.after.ep) > 0 ||
        round2(c.single.before.ges - c.single.after.ges) > 0,
    )
    .sort((a, b) => a.cout - b.cout);
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
      // one group per (element, works key): a collective installation may get valves and
      // pipe insulation together; elsewhere an element offers one key, as before
      const groups = new Map<string, Candidate[]>();
      for (const row of offeredOptions(prep, category, el)) {
        if (opts.allow && !opts.allow(row, el)) continue;
        const change = { referenceId: ref, editableKey: row.key, editableValue: row.code };
        const run = runWorks(engine, prep, [change], opts.costs);
        const single = outcome(
          prep,
          figuresOf(run, opts.coef),
          opts.coef,
          opts.forceNormalization,
          opts.thresholds,
        );
        const list = groups.get(row.key) ?? [];
        list.push({
          change,
          label: labelOn(row, el, prep.raw),
          cout: run.cout,
          coutDetail: run.applied[0]?.coutDetail,
          coutBatiment: run.applied[0]?.coutBatiment,
          single,
        });
        groups.set(row.key, list);
      }
      for (const [key, list] of groups) {
        const useful = usefulCandidates(list);
        if (useful.length) byElement.set(groupKey(ref, key), useful);
      }
    });
  }
  return byElement;
}

export function searchScenarios(
  engine: Engine,
  prep: PreparedDpe,
  opts: ScenarioOptions,
): ScenarioSearch {
  const thresholds = opts.thresholds ?? prep.thresholds;
  const base = outcome(
    prep,
    figuresOf(runWorks(engine, prep, [], opts.costs), opts.coef),
    opts.coef,
    opts.forceNormalization,
    thresholds,
  );
  const initial = base.classesBefore.dpe;
  const targets = CLASS_LETTERS.filter(
    (l) => classIndex(l) < classIndex(initial) && (!opts.targets || opts.targets.includes(l)),
  ).reverse(); // nearest first
  const elements = candidatesOf(engine, prep, opts);
  const runBudget = opts.runBudget ?? RUN_BUDGET;
  const evaluator = new Evaluator(
    engine,
    prep,
    {
      coef: opts.coef,
      forceNormalization: opts.forceNormalization,
      thresholds,
      costs: opts.costs,
    },
    runBudget,
  );
  const combinations = [...elements.values()].reduce((n, list) => n * (list.length + 1), 1);
  const wanted = opts.strategy === 'exact' ? 'exhaustive' : (opts.strategy ?? 'auto');
  const strategy: ScenarioSearch['strategy'] =
    wanted === 'auto' ? (combinations <= EXACT_LIMIT ? 'exhaustive' : 'best-first') : wanted;
  const best = new Map<ClassLetter, Found>();
  // each target's bound with the rows in the answers' worlds (`ProofAnswer.finalBound`): reported
  // with its scenario, never read by the searches (their runs and answers are what they were
  // without those rows)
  const finalBounds = new Map<ClassLetter, number>();
  const reported = (target: ClassLetter, c: ProofAnswer) =>
    finalBounds.set(target, Math.max(finalBounds.get(target) ?? 0, Math.floor(c.finalBound)));
  const progress = (done: number) =>
    opts.onProgress?.({ step: 'scenarios', done, total: targets.length });
  const unreachable: ClassLetter[] = [];
  const searched: ScenarioSearch['searched'] = [];
  let evaluations = 0;
  if (targets.length && elements.size) {
    progress(0);
    if (strategy === 'exhaustive') {
      exhaustive(elements, evaluator, targets, best);
      evaluations = evaluator.count;
      progress(targets.length);
    } else {
      const predictor = new Predictor(base, elements);
      const groups = [...elements.values()];
      // the heuristic and the best-first search count their change sets apart (they share the
      // memo): the heuristic behaves as it always did, the best-first search can only improve
      // every pass's evaluator, in the order the passes run: each counts its own change sets,
      // and what the earlier ones ran is free to the later ones that remember it
      const passes: Evaluator[] = [evaluator];
      const pass = (budget = 0) => {
        const e = new Evaluator(engine, prep, evaluator.frame, budget);
        passes.push(e);
        return e;
      };
      const proving = pass();
      // (its own memo and count: what it runs changes nothing the other searches do)
      const predicting = pass();
      const dropping = pass();
      const crossing = pass();
      const swapping = pass();
      const swapBudget = opts.swapBudget ?? SWAP_BUDGET;
      const exchanging = pass();
      const exchangeBudget = opts.exchangeBudget ?? EXCHANGE_BUDGET;
      const crossingBudget = opts.crossingBudget ?? CROSSING_BUDGET;
      const dropBudget = opts.dropBudget ?? DROP_BUDGET;
      const predictBudget = opts.predictBudget ?? PREDICT_BUDGET;
      const proofBudget = opts.proofBudget ?? PROOF_BUDGET;
      const cutBudget = opts.cutBudget ?? CUT_BUDGET;
      const masterBudget = opts.masterBudget ?? MASTER_BUDGET;
      let cutRuns = 0;
      let masterUsed = 0;
      for (const [i, target] of targets.entries()) {
        // each target gets its share of what is left of the budgets (change sets already
        // evaluated for a nearer target are free)
        const left = targets.length - i;
        evaluator.budget =
          evaluator.count + Math.floor(Math.max(0, runBudget - evaluator.count) / left);
        // the proof's budget goes to the nearest classes first (half of what is left, all of it
        // for the last): they are the cheapest to prove, the farthest are seldom proved at all
        const proofLeft = Math.max(0, proofBudget - (proving.count - cutRuns));
        // (at least one node: the first completions, with every option of every group, often
        // reach a far class the heuristic misses)
        const share = left === 1 ? proofLeft : Math.floor(proofLeft / 2);
        proving.budget = proving.count + (proofBudget > 0 ? Math.max(1, share) : 0);
        let found: Found | undefined;
        const h = heuristic(searchOf(evaluator, elements, base, predictor), target);
        if (h && reaches(h.o, target)) found = { ev: h, exact: false, lowerBound: 0 };
        if (strategy === 'best-first') {
          // starts from the cheapest combination known to reach the class
          const known = cheapestKnown([evaluator, proving], target);
          const r = cheapestReaching(proving, {
            groups,
            reaches: (o) => reaches(o, target),
            ...(known ? { incumbent: known.items } : {}),
          });
          if (r.best && (!found || r.best.cout <= found.ev.cout))
            found = { ev: r.best, exact: r.exact, lowerBound: r.lowerBound };
          else if (found) found.lowerBound = Math.min(r.lowerBound, found.ev.cout);
          // not proved: the cut search (proof.ts) raises the lower bound, or finds cheaper
          if (found && !found.exact && proofBudget > 0) {
            const cutsLeft = Math.max(0, cutBudget - cutRuns);
            const before = proving.count;
            proving.budget = proving.count + (left === 1 ? cutsLeft : Math.floor(cutsLeft / 2));
            const c = cheapestProved(proving, {
              groups,
              target,
              known: evaluator.evaluated,
              incumbent: found.ev.items,
              masterNodes: masterNodesFor(masterBudget, masterUsed),
              // (its runs as they were tuned; its bound on the proof's cuts)
              tunedSteering: true,
              ...(opts.envelopeRows === false ? { envelopeRows: false } : {}),
            });
            cutRuns += proving.count - before;
            masterUsed += c.masterNodes;
            found = afterProof(found, c);
            reported(target, c);
          }
          // after the proofs, on their own runs (never dearer): the predicted search, the last
          // pass, then the predicted search across the Q4Pa,conv thresholds and the last pass on
          // its answer (with its own runs: the others' budgets are spent as before it existed)
          const improve = (ev: Evaluated) => {
            if (found) found = cheaperOf(found, ev);
          };
          const share = (e: Evaluator, budget: number) => shareBudget(e, budget, left === 1);
          const predicted = (e: Evaluator, thresholds: boolean, known: Evaluator[]) =>
            cheapestProved(e, {
              groups,
              target,
              // (the answer is among them: the best known, run again for nothing)
              known: [...evaluator.evaluated, ...known.flatMap((k) => [...k.evaluated])],
              masterNodes: MASTER_FLOOR,
              predict: true,
              thresholds,
              tunedSteering: true,
            });
          const reachesTarget = (o: Outcome) => reaches(o, target);
          if (found && !found.exact && predictBudget > 0) {
            share(predicting, predictBudget);
            const p = predicted(predicting, false, [proving]);
            if (p.best) improve(p.best);
          }
          if (found && !found.exact && dropBudget > 0) {
            share(dropping, dropBudget);
            improve(withoutUnneeded(dropping, found.ev, reachesTarget));
          }
          if (found && !found.exact && crossingBudget > 0) {
            share(crossing, crossingBudget);
            const p = predicted(crossing, true, [proving, predicting, dropping]);
            if (p.best && p.best.cout < found.ev.cout) {
              improve(p.best);
              improve(withoutUnneeded(crossing, p.best, reachesTarget));
            }
          }
          if (found && !found.exact && swapBudget > 0) {
            share(swapping, swapBudget);
            improve(withCheaperSwaps(swapping, found.ev, reachesTarget, elements));
          }
          // (last, with its own runs, and the swaps on its answer: the passes before it are
          // spent as they were without it)
          if (found && !found.exact && exchangeBudget > 0) {
            share(exchanging, exchangeBudget);
            const x = withExchanges(exchanging, found.ev, reachesTarget, elements);
            if (x.cout < found.ev.cout) {
              improve(x);
              improve(withCheaperSwaps(exchanging, x, reachesTarget, elements));
            }
          }
          if (!r.best && r.exact) unreachable.push(target);
          searched.push({
            classe: target,
            exact: r.exact,
            evaluations: evaluator.count + proving.count,
            nodes: r.nodes,
          });
        }
        if (found) best.set(target, found);
        progress(i + 1);
      }
      // the second cut search, once every target is searched (nothing above changes): each
      // unproved answer, nearest first, with every run made so far as free cuts
      const second = pass();
      const polishing = pass();
      const secondBudget = opts.secondCutBudget ?? SECOND_CUT_BUDGET;
      /**
       * A cut search over every answer still unproved, nearest first, on its own evaluator with
       * `budget` change sets (half of what is left per target, all of it for the last),
       * starting from every combination the passes before it evaluated (free cuts); a cheaper
       * answer it finds, unproved, gets the last pass and the swap pass on `polisher`. It keeps a
       * cheaper answer and a higher bound only.
       */
      const cutRound = (
        searcher: Evaluator,
        polisher: Evaluator,
        budget: number,
        closing?: { gap: number; straight: boolean; reported?: boolean },
      ) => {
        const open = targets.filter((t) => {
          const f = best.get(t);
          if (!f || f.exact) return false;
          if (!closing) return true;
          const within = f.ev.cout <= (1 + closing.gap) * f.lowerBound;
          if (!closing.reported) return within;
          // (the third part: only those within the gap of the bound they report, with the rows in
          // the answers' worlds, and not of their own)
          const reported = finalBounds.get(t) ?? 0;
          return !within && f.ev.cout <= (1 + closing.gap) * reported;
        });
        if (!open.length) return;
        // every combination any pass ran, once (the evaluators' memos overlap)
        const byKey = new Map<string, Evaluated>();
        for (const e of passes)
          for (const ev of e.evaluated) {
            const key = combinationKey(ev.changes);
            if (!byKey.has(key)) byKey.set(key, ev);
          }
        const known = [...byKey.values()];
        for (const [i, target] of open.entries()) {
          const found = best.get(target) as Found;
          shareBudget(searcher, budget, i === open.length - 1);
          const c = cheapestProved(searcher, {
            groups,
            target,
            known,
            incumbent: found.ev.items,
            masterNodes: closing && !closing.straight ? CLOSE_MASTER_NODES : SECOND_MASTER_NODES,
            dearestFirst: true,
            ...(closing ? { lifts: false, finalRuns: true, straight: closing.straight } : {}),
            ...(opts.envelopeRows === false ? { envelopeRows: false } : {}),
          });
          let next = afterProof(found, c);
          reported(target, c);
          // (its own answer, unproved: without the options it does not need, then each swapped
          // for a cheaper one of its group that still reaches)
          if (next.ev !== found.ev && !next.exact) {
            shareBudget(polisher, SECOND_POLISH_BUDGET, i === open.length - 1);
            const reachesTarget = (o: Outcome) => reaches(o, target);
            const dropped = withoutUnneeded(polisher, next.ev, reachesTarget);
            next = cheaperOf(next, withCheaperSwaps(polisher, dropped, reachesTarget, elements));
          }
          best.set(target, next);
        }
      };
      if (strategy === 'best-first' && secondBudget > 0) cutRound(second, polishing, secondBudget);
      // the final pass, after every search (nothing above changes): each answer still unproved
      // without the options it does not need, then each swapped for a cheaper one of its group,
      // again until neither lowers it (no budget: each sweep runs at most one change set per
      // option and per cheaper option of its group, and a sweep that lowers the cost is the only
      // one followed by another), then, while its budget lasts, the exchange pass, and again
      // (what any search ran is answered without a run)
      const finishing = pass(Infinity);
      // (what every other pass ran, answered by `into` without a run)
      const rememberAll = (into: typeof finishing) => {
        for (const e of passes) if (e !== into) into.remember(e.evaluated);
      };
      const finalBudget = opts.finalPolishBudget ?? FINAL_POLISH_BUDGET;
      const open =
        strategy === 'best-first' && opts.finalPass !== false
          ? targets.filter((t) => best.get(t)?.exact === false)
          : [];
      if (open.length > 0) {
        rememberAll(finishing);
        let exchangesLeft = finalBudget;
        for (const [i, target] of open.entries()) {
          const share = i === open.length - 1 ? exchangesLeft : Math.floor(exchangesLeft / 2);
          const reachesTarget = (o: Outcome) => reaches(o, target);
          const { found, spent } = polished(
            finishing,
            best.get(target) as Found,
            reachesTarget,
            elements,
            share,
          );
          exchangesLeft -= spent;
          best.set(target, found);
        }
      }
      // the descent, after the final pass (nothing above changes): each answer still unproved,
      // nearest first, against the dearer answer of each stricter class (nearest first), which
      // reaches it too: without what this class does not need, then swapped, while its runs last
      const descentBudget = opts.descentBudget ?? DESCENT_BUDGET;
      if (strategy === 'best-first' && opts.finalPass !== false && descentBudget > 0) {
        if (open.length === 0) rememberAll(finishing);
        const stop = finishing.count + descentBudget;
        for (const [i, target] of targets.entries()) {
          let f = best.get(target);
          if (f?.exact) continue;
          const reachesTarget = (o: Outcome) => reaches(o, target);
          for (const stricter of targets.slice(i + 1)) {
            const from = best.get(stricter);
            if (!from || (f && from.ev.cout <= f.ev.cout)) continue;
            finishing.budget = stop;
            if (finishing.left <= 0) break;
            const dropped = withoutUnneeded(finishing, from.ev, reachesTarget);
            if (!reachesTarget(dropped.o)) continue;
            const ev = withCheaperSwaps(finishing, dropped, reachesTarget, elements);
            // (a target the searches found nothing for: no bound either)
            f = f ? cheaperOf(f, ev) : { ev, exact: false, lowerBound: 0 };
          }
          // an answer the descent lowered has not had the final pass's exchanges: it gets them,
          // within what is left of the descent's runs (2187E1039187C B: two options out for one
          // stronger wall in, 109 € less, found by the independent probe)
          const was = best.get(target);
          finishing.budget = stop;
          if (f && f !== was && finishing.left > 0)
            f = polished(finishing, f, reachesTarget, elements, finishing.left, true).found;
          if (f) best.set(target, f);
        }
      }
      // the last cut search, after the descent (nothing above changes): the second cut search's
      // again, on the answers the passes after it left, with every run made so far as free cuts
      const lastBudget = opts.lastCutBudget ?? LAST_CUT_BUDGET;
      if (strategy === 'best-first' && opts.finalPass !== false && lastBudget > 0)
        cutRound(pass(), pass(), lastBudget);
      const closeBudget = opts.closeBudget ?? CLOSE_BUDGET;
      if (strategy === 'best-first' && opts.finalPass !== false && closeBudget > 0) {
        cutRound(pass(), pass(), closeBudget, { gap: CLOSE_GAP, straight: false });
        cutRound(pass(), pass(), Math.min(closeBudget, CLOSE_STRAIGHT_BUDGET), {
          gap: CLOSE_GAP,
          straight: true,
        });
        const reportedBudget = opts.closeReportedBudget ?? CLOSE_REPORTED_BUDGET;
        if (reportedBudget > 0)
          cutRound(pass(), pass(), reportedBudget, {
            gap: CLOSE_GAP,
            straight: true,
            reported: true,
          });
      }
      // the last polish, after the closing round (nothing above changes): each answer still
      // unproved, the final pass again with the exchanges' other order, `REORDER_BUDGET` change
      // sets per target
      const reorderBudget = opts.reorderBudget ?? REORDER_BUDGET;
      if (strategy === 'best-first' && opts.finalPass !== false && reorderBudget > 0) {
        const reordering = pass();
        rememberAll(reordering);
        for (const target of targets) {
          const f = best.get(target);
          if (!f || f.exact) continue;
          reordering.budget = reordering.count + reorderBudget;
          const reachesTarget = (o: Outcome) => reaches(o, target);
          const { found } = polished(
            reordering,
            f,
            reachesTarget,
            elements,
            reorderBudget,
            false,
            true,
          );
          best.set(target, found);
        }
      }
      evaluations = passes.reduce((n, e) => n + e.count, 0);
    }
  }
  // a scenario for a better class that is cheaper serves the worse target too (never when the
  // worse target's own is exact: it is the cheapest of all that reach it)
  const solutions: AutoSolution[] = [];
  for (const target of targets) {
    let pick = best.get(target);
    for (const [cls, f] of best) {
      if (classIndex(cls) < classIndex(target) && (!pick || f.ev.cout < pick.ev.cout))
        pick = { ...f, exact: false, lowerBound: pick?.lowerBound ?? 0 };
    }
    if (!pick || !reaches(pick.ev.o, target)) continue;
    // (the bound with the rows in the answers' worlds: a bound on every combination reaching the
    // target, so on the one picked)
    const fb = finalBounds.get(target) ?? 0;
    if (!pick.exact && fb > pick.lowerBound) {
      const lowerBound = Math.min(fb, pick.ev.cout);
      pick = { ...pick, lowerBound, exact: lowerBound >= pick.ev.cout };
    }
    solutions.push(toSolution(pick, target, elements, base));
  }
  return {
    solutions,
    strategy,
    evaluations,
    unreachable,
    searched,
  };
}

/**
 * The final pass on one answer: without the options it does not need, then each swapped for a
 * cheaper one of its group, again until neither lowers it (no budget: each sweep runs at most one
 * change set per option and per cheaper option of its group, and only a sweep that lowers the cost
 * is followed by another), then, while `share` change sets last, the exchange pass, and again.
 * Only a cheaper answer is kept; `spent` counts the exchanges' change sets.
 */
function polished(
  finishing: Evaluator,
  start: Found,
  reachesTarget: (o: Outcome) => boolean,
  elements: ReadonlyMap<string, readonly Candidate[]>,
  share: number,
  inLast = false,
  reordering = false,
): { found: Found; spent: number } {
  let f = start;
  let spent = 0;
  const stop = finishing.budget;
  for (;;) {
    const was = f.ev.cout;
    finishing.budget = Infinity;
    f = cheaperOf(f, withoutUnneeded(finishing, f.ev, reachesTarget));
    f = cheaperOf(f, withCheaperSwaps(finishing, f.ev, reachesTarget, elements));
    if (f.ev.cout < was) continue;
    // (one strong option in, those it makes redundant out: when no drop nor swap helps)
    if (spent >= share) break;
    const before = finishing.count;
    finishing.budget = before + share - spent;
    f = cheaperOf(f, withExchanges(finishing, f.ev, reachesTarget, elements, inLast, reordering));
    spent += finishing.count - before;
    if (f.ev.cout >= was) break;
  }
  finishing.budget = stop;
  return { found: f, spent };
}

/**
 * `ev` without the options the goal does not need: each (costliest first, then by change) dropped
 * when the combination without it still reaches, one engine run each while the evaluator's budget
 * lasts.
 */
function withoutUnneeded(
  evaluator: Evaluator,
  ev: Evaluated,
  reachesGoal: (o: Outcome) => boolean,
  last?: Candidate,
): Evaluated {
  let out = ev;
  const order = costliestFirst(ev.items);
  // (an option tried last: the one an exchange brought in, so that those it makes redundant go
  // before it can)
  if (last && order.includes(last)) order.push(...order.splice(order.indexOf(last), 1));
  for (const c of order) {
    if (evaluator.left <= 0) break;
    const rest = out.items.filter((x) => x !== c);
    const next = evaluator.evaluate(rest);
    if (reachesGoal(next.o) && next.cout < out.cout) out = next;
  }
  return out;
}

/**
 * `ev` with each option (costliest first, then by change) swapped for the cheapest option of its
 * group (same element and works key, the list sorted by cost) with which the combination still
 * reaches, one engine run per option tried while the evaluator's budget lasts.
 */
function withCheaperSwaps(
  evaluator: Evaluator,
  ev: Evaluated,
  reachesGoal: (o: Outcome) => boolean,
  elements: ReadonlyMap<string, readonly Candidate[]>,
): Evaluated {
  let out = ev;
  for (const c of costliestFirst(ev.items)) {
    const group = elements.get(slotOf(c)) ?? [];
    for (const d of group) {
      if (d.cout >= c.cout || evaluator.left <= 0) break;
      const next = evaluator.evaluate(out.items.map((x) => (x === c ? d : x)));
      if (reachesGoal(next.o) && next.cout < out.cout) {
        out = next;
        break;
      }
    }
    if (evaluator.left <= 0) break;
  }
  return out;
}

/**
 * `ev` with one of the strongest options it lacks (by the yearly primary energy it saves alone,
 * then by change; in place of `ev`'s own option of its group), then without each option the goal
 * no longer needs (`withoutUnneeded`): the cheapest such combination found while the evaluator's
 * budget lasts, or `ev`.
 */
function withExchanges(
  evaluator: Evaluator,
  ev: Evaluated,
  reachesGoal: (o: Outcome) => boolean,
  elements: ReadonlyMap<string, readonly Candidate[]>,
  inLast = false,
  reordering = false,
): Evaluated {
  const mine = new Set(ev.items);
  const bySlot = new Map(ev.items.map((c) => [slotOf(c), c]));
  const added = strongestFirst(
    [...elements.values()].flat().filter((c) => !mine.has(c) && c.cout < ev.cout),
  );
  let out = ev;
  for (const g of added) {
    if (evaluator.left <= 0) break;
    const own = bySlot.get(slotOf(g));
    const items = [...ev.items.filter((x) => x !== own), g];
    const next = evaluator.evaluate(items);
    if (!reachesGoal(next.o)) continue;
    let trimmed = withoutUnneeded(evaluator, next, reachesGoal, inLast ? g : undefined);
    // (`reordering`: the other order where it may find less. `g` dropped at its turn takes the
    // combination back to `ev` and leaves those it makes redundant (2187E1039187C D: a second
    // attic in, two walls out, 11,484 → 10,515 €), so it is then tried last; tried last and kept,
    // it may still go at its turn. Kept at its turn, it is kept when tried last too)
    if (reordering && trimmed.items.includes(g) === inLast && evaluator.left > 0) {
      const other = withoutUnneeded(evaluator, next, reachesGoal, inLast ? undefined : g);
      if (reachesGoal(other.o) && other.cout < trimmed.cout) trimmed = other;
    }
    if (reachesGoal(trimmed.o) && trimmed.cout < out.cout) out = trimmed;
  }
  return out;
}

/** Two options by their change's key (the passes' tie-break: a fixed order, deterministic). */
function byChange(a: Candidate, b: Candidate): number {
  const ka = changeKey(a.change);
  const kb = changeKey(b.change);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** Options costliest first, then by change. */
function costliestFirst(items: readonly Candidate[]): Candidate[] {
  return [...items].sort((a, b) => b.cout - a.cout || byChange(a, b));
}

/**
 * The options that save primary energy alone, strongest first (the yearly kWh saved alone), then
 * by change: the exchange pass's order (here and in the audit's paths).
 */
export function strongestFirst(items: readonly Candidate[]): Candidate[] {
  const saving = (c: Candidate) => c.single.before.ep - c.single.after.ep;
  return items.filter((c) => saving(c) > 0).sort((a, b) => saving(b) - saving(a) || byChange(a, b));
}

/**
 * A target's master nodes per solve: at most MASTER_NODES of what is left of the DPE's budget when
 * the target starts (first come first served), and never less than MASTER_FLOOR (at most the
 * budget), so that a target after those that spent the budget still gets a master to solve.
 */
export function masterNodesFor(budget: number, used: number): number {
  const left = Math.max(0, budget - used);
  return Math.min(MASTER_NODES, Math.max(left, Math.min(MASTER_FLOOR, budget)));
}

/** A target's answer: the combination, and what is proven about it. */
interface Found {
  ev: Evaluated;
  exact: boolean;
  lowerBound: number;
}

function cheapestKnown(
  evaluators: readonly Evaluator[],
  target: ClassLetter,
): Evaluated | undefined {
  let pick: Evaluated | undefined;
  for (const evaluator of evaluators)
    for (const ev of evaluator.evaluated)
      if (ev.items.length && reaches(ev.o, target) && (!pick || ev.cout < pick.cout)) pick = ev;
  return pick;
}

function searchOf(
  evaluator: Evaluator,
  elements: Map<string, Candidate[]>,
  base: Outcome,
  predictor: Predictor,
): HeuristicSearch {
  return {
    evaluate: (items) => evaluator.evaluate(items),
    base,
    thresholds: evaluator.frame.thresholds,
    predictor,
    elements,
    budgetLeft: () => evaluator.left > 0,
  };
}

function exhaustive(
  elements: Map<string, Candidate[]>,
  evaluator: Evaluator,
  targets: ClassLetter[],
  best: Map<ClassLetter, Found>,
): void {
  const lists = [...elements.values()];
  const walk = (i: number, chosen: Candidate[]): void => {
    if (i === lists.length) {
      if (!chosen.length) return;
      const ev = evaluator.evaluate(chosen);
      for (const t of targets) {
        if (!reaches(ev.o, t)) continue;
        const prev = best.get(t)?.ev;
        if (
          !prev ||
          ev.cout < prev.cout ||
          (ev.cout === prev.cout && ev.o.after.epM2 < prev.o.after.epM2)
        )
          best.set(t, { ev, exact: true, lowerBound: ev.cout });
      }
      return;
    }
    walk(i + 1, chosen);
    for (const c of lists[i] as Candidate[]) walk(i + 1, [...chosen, c]);
  };
  walk(0, []);
}

interface HeuristicSearch {
  elements: Map<string, Candidate[]>;
  evaluate: (items: readonly Candidate[]) => Evaluated;
  base: Outcome;
  thresholds: Thresholds;
  predictor: Predictor;
  budgetLeft: () => boolean;
}

/** Runs a combination through the engine, and tells the predictor how far off it was. */
function runCombo(search: HeuristicSearch, combo: Candidate[]): Evaluated {
  const predicted = search.predictor.predict(combo);
  const ev = search.evaluate(combo);
  search.predictor.observe(combo, predicted, ev.o);
  return ev;
}

function heuristic(search: HeuristicSearch, target: ClassLetter): Evaluated | undefined {
  const { elements, thresholds: t, predictor } = search;
  const baseShort = shortfall(search.base, t, target);
  const merit = (c: Candidate) =>
    (baseShort - shortfall(c.single, t, target)) / Math.max(c.cout, 1);
  // greedy: the best option of each element by merit, best elements first, added until the
  // combination is predicted to reach the class; run it, and go on from what the engine says.
  // The predicted gain is damped by how much of the last predicted gain the engine gave.
  const picks = [...elements.values()]
    .map((list) => list.reduce((a, b) => (merit(b) > merit(a) ? b : a)))
    .filter((c) => merit(c) > 0)
    .sort((a, b) => merit(b) - merit(a));
  let chosen: Candidate[] = [];
  let current: Evaluated | undefined;
  let from: PerM2 = search.base.after;
  let damping = 1;
  const damped = (p: PerM2): PerM2 => ({
    epM2: from.epM2 - damping * (from.epM2 - p.epM2),
    gesM2: from.gesM2 - damping * (from.gesM2 - p.gesM2),
  });
  for (const [i, c] of picks.entries()) {
    if (!search.budgetLeft()) break;
    chosen = [...chosen, c];
    const predicted = predictor.predict(chosen);
    const last = i === picks.length - 1;
    if (!last && shortfallOf(damped(predicted), t, target) > predictor.slack) continue;
    current = runCombo(search, chosen);
    const predictedGain = from.epM2 - predicted.epM2;
    if (predictedGain > 0)
      damping = Math.min(1.5, Math.max(0.2, (from.epM2 - current.o.after.epM2) / predictedGain));
    from = current.o.after;
    if (reaches(current.o, target)) break;
  }
  if (!current || !reaches(current.o, target)) {
    // last chance: the strongest option of every element
    const strongest = [...elements.values()].map((list) =>
      list.reduce((a, b) =>
        shortfall(b.single, t, target) < shortfall(a.single, t, target) ? b : a,
      ),
    );
    current = runCombo(search, strongest);
    chosen = strongest;
  }
  // a single option that reaches the class alone is a start too (its run is already made)
  const alone = [...elements.values()]
    .flat()
    .filter((c) => reaches(c.single, target))
    .sort((a, b) => a.cout - b.cout)[0];
  const fromAlone = (): Evaluated | undefined =>
    alone && improve(search, target, [alone], search.evaluate([alone]));
  if (!reaches(current.o, target)) return fromAlone();
  const found = improve(search, target, chosen, current);
  if (!alone || alone.cout >= found.cout) return found;
  const other = fromAlone();
  return other && other.cout < found.cout ? other : found;
}

/**
 * Local search from a feasible combination: drop items that are not needed, swap one item for
 * a cheaper option (of the same element or of an element not yet chosen), replace two items by
 * one cheaper option; first improvement wins, until nothing improves or the budget is spent.
 * Only combinations predicted to reach the class (within the slack) are run.
 */
function improve(
  search: HeuristicSearch,
  target: ClassLetter,
  start: Candidate[],
  startEval: Evaluated,
): Evaluated {
  const { elements, thresholds: t, predictor, budgetLeft } = search;
  let chosen = start;
  let current = startEval;
  const all = [...elements.values()].flat().sort((a, b) => a.cout - b.cout);
  const use = (c: Candidate) => (c.single.before.ep - c.single.after.ep) / Math.max(c.cout, 1);
  const tryCombo = (combo: Candidate[], slack = predictor.slack): boolean => {
    if (!combo.length || !budgetLeft()) return false;
    const total = combo.reduce((sum, c) => sum + c.cout, 0);
    if (total >= current.cout) return false;
    if (shortfallOf(predictor.predict(combo), t, target) > slack) return false;
    const ev = runCombo(search, combo);
    if (!reaches(ev.o, target)) return false;
    chosen = combo;
    current = ev;
    return true;
  };
  let improved = true;
  while (improved && budgetLeft()) {
    improved = false;
    // drop one, costliest first: run unless clearly hopeless (removing an item is where the
    // prediction errs most: a heat pump alone saves far more than on top of insulation); in a
    // small combination every drop is run, whatever the prediction says
    const dropSlack = chosen.length <= DROP_ALWAYS_RUN ? Infinity : SLACK_MAX;
    for (const c of [...chosen].sort((a, b) => b.cout - a.cout)) {
      if (
        tryCombo(
          chosen.filter((x) => x !== c),
          dropSlack,
        )
      ) {
        improved = true;
        break;
      }
    }
    if (improved) continue;
    // drop several: the least useful items (saving per euro alone) as long as the class is
    // predicted to hold without them, in one run
    const byUse = [...chosen].sort((a, b) => use(a) - use(b));
    let dropped = 0;
    while (
      dropped < byUse.length - 1 &&
      shortfallOf(predictor.predict(byUse.slice(dropped + 1)), t, target) <= 0
    )
      dropped++;
    if (dropped >= 2 && tryCombo(byUse.slice(dropped))) {
      improved = true;
      continue;
    }
    // swap one for a cheaper option (`chosen` changes only when a try succeeds, which ends the
    // loops: its groups are the same all through them)
    const used = new Set(chosen.map(slotOf));
    outer: for (const c of [...chosen].sort((a, b) => b.cout - a.cout)) {
      for (const d of all) {
        if (d.cout >= c.cout) break;
        if (slotOf(d) !== slotOf(c) && used.has(slotOf(d))) continue;
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
        // (the same for every d: `chosen` changes only when a try succeeds, which ends the loops)
        const rest = chosen.filter((x) => x !== a && x !== b);
        const restSlots = new Set(rest.map(slotOf));
        for (const d of all) {
          if (d.cout >= a.cout + b.cout) break;
          if (restSlots.has(slotOf(d))) continue;
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
  found: Found,
  target: ClassLetter,
  elements: Map<string, Candidate[]>,
  base: Outcome,
): AutoSolution {
  const ev = found.ev;
  const reached = ev.o.classesAfter.dpe;
  const items: ScenarioItem[] = ev.changes.map((ch) => {
    const cand = (elements.get(groupKey(ch.referenceId, ch.editableKey)) ?? []).find(
      (c) => c.change.editableValue === ch.editableValue,
    );
    return {
      ...ch,
      label: cand?.label ?? ch.editableValue,
      cout: cand?.cout ?? 0,
      ...(cand?.coutDetail ? { coutDetail: cand.coutDetail } : {}),
      ...(cand?.coutBatiment !== undefined ? { coutBatiment: cand.coutBatiment } : {}),
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
    exact: found.exact,
    lowerBound: found.exact ? ev.cout : found.lowerBound,
    maxAbovePercent: maxAbovePercent(ev.cout, found.exact ? ev.cout : found.lowerBound),
  };
}

/** `found` with `ev` in its place when `ev` is cheaper (its bound then at most `ev`'s cost). */
function cheaperOf(found: Found, ev: Evaluated): Found {
  if (ev.cout >= found.ev.cout) return found;
  const lowerBound = Math.min(found.lowerBound, ev.cout);
  return { ev, exact: lowerBound >= ev.cout, lowerBound };
}

/**
 * A pass's runs for one target, of its budget per DPE: what is left for the last target, half
 * of it for the others (the evaluator's budget counts from its runs so far).
 */
function shareBudget(e: Evaluator, budget: number, last: boolean): void {
  const left = Math.max(0, budget - e.count);
  e.budget = e.count + (last ? left : Math.floor(left / 2));
}

/**
 * A target's answer after a cut search: its cheaper answer if it found one, else the answer with
 * the higher bound (whole euros, rounded down: the master's knapsack bound is fractional); exact
 * once the bound reaches the cost.
 */
function afterProof(found: Found, c: ProofAnswer): Found {
  const lowerBound = Math.max(found.lowerBound, Math.floor(c.lowerBound));
  const next: Found =
    c.best && c.best.cout < found.ev.cout
      ? {
          ev: c.best,
          exact: c.exact,
          lowerBound: c.exact ? c.best.cout : Math.min(lowerBound, c.best.cout),
        }
      : c.exact
        ? { ...found, exact: true, lowerBound: found.ev.cout }
        : { ...found, lowerBound: Math.min(lowerBound, found.ev.cout) };
  if (next.lowerBound >= next.ev.cout) next.exact = true;
  return next;
}

/** How far above the cheapest possible a scenario may be, in percent (rounded up; null: no bound). */
export function maxAbovePercent(cout: number, lowerBound: number): number | null {
  if (lowerBound >= cout) return 0;
  if (!(lowerBound > 0)) return null;
  // (a hair under an integer is that integer: 1.1 ÷ 1 − 1 is 0.10000000000000009)
  return Math.ceil(Math.round(((cout - lowerBound) / lowerBound) * 1e6) / 1e4);
}

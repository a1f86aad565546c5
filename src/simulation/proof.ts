/**
 * The cheapest combination of works options reaching a class, with a proof: a cut-generation
 * search (a "logic-based Benders" loop, docs/scenario-search.md).
 *
 * - A master problem chooses at most one option per group at the least total cost that meets
 *   every constraint learned so far (`cuts`) and the caller's covering constraints. Its optimum is
 *   a lower bound on the cost of any combination that reaches the class (the cuts only remove
 *   combinations proven not to reach it). It is solved exactly by a best-first branch and bound
 *   counted in nodes (`MASTER_NODES` per solve).
 * - The master's answer is run through the engine. If it reaches the class, it is the cheapest
 *   (nothing cheaper meets the cuts). Otherwise it misses on primary energy or on GES, and a
 *   cut is learned from it: every combination whose choices are, group by group, no stronger
 *   than those of a combination Y that misses on that figure misses too (assumption M0, below).
 *   Y starts as the master's answer and is lifted (groups set to their strongest option) as long
 *   as an engine run says it still misses: the stronger Y, the more the cut removes.
 * - Every combination the caller already ran (the heuristic's) is a cut for free.
 *
 * The search stops when the master's optimum is at least the best combination known to reach the
 * class (`exact`), when the master has no solution (no combination reaches the class), or when
 * the engine-run budget (the evaluator's) or the master's node budget is spent: the master's
 * optimum (or the least key left in its queue) is then the proven lower bound. Nothing is counted
 * in seconds.
 *
 * M0 (the assumption the cuts rest on): in a group, choice a is *at least as strong* as choice b
 * on a figure (primary energy or GES) when a gives no more of that figure alone than b (no works
 * gives the DPE's own figure), except for the pairs `comparedIn` leaves out (two options of a
 * generator group, a ventilation and none, external and internal insulation of a wall, a hot-water
 * generator and none where a heating generator may be replaced, internal insulation and none where
 * it can move the inertia class): never compared. M0 states that replacing, in any combination, a choice by one at least as strong
 * never raises that figure. Chained group by group, a combination whose every choice is at least as
 * strong as another's has no more of the figure. Measured on the corpus: bench/search.mjs.
 */

import { classIndex, type ClassLetter } from '../contract/classes.js';
import { parseReferenceId } from '../dpe/elements.js';
import { findOption } from '../works/catalogue.js';
import { isInternalInsulation } from '../works/recipes.js';
import { criteriaOf, type Q4paAreas, type Q4paCriteria } from '../works/airtightness.js';
import type { Candidate, Evaluated, Evaluator } from './search.js';

/**
 * How much more a combination may save than the sum of what its options save alone (relative),
 * on either figure: measured on the corpus by bench/search.mjs. On GES, S counts no combination
 * holding a replaced heating generator (`gesExempt`): a generator burning a fuel that emits more
 * than the one it replaces makes each kWh of need the envelope saves worth more GES (on
 * 2368E3397674M a gas boiler for a wood-chip boiler: alone +1,860 kg/yr, with the envelope the
 * combination saves 10 times the sum of its options alone).
 */
export const SUBADDITIVITY_MARGIN: Record<'ep' | 'ges', number | null> = { ep: 0.1, ges: 0.1 };

/**
 * How much more crossing a Q4Pa,conv threshold may save in a combination than the most it saves
 * in the contexts measured (the DPE alone, each heating and ventilation option alone): see
 * `airThresholds` and docs/scenario-search.md, "The Q4Pa,conv thresholds".
 */
export const AIR_MARGIN = 0.5;

/**
 * The margin of S in the knapsack of the master that steers the cut search (which combination is
 * run next, when it stops): the proof's margin before generator pairs and thresholds were known.
 * Only the bound and `exact` rest on the proof's knapsack; steering as before keeps every
 * scenario at its cost or cheaper.
 */
export const STEER_MARGIN = 0.05;

/**
 * Where a run the search has seen saves more than S (or S and the thresholds' allowance) allow,
 * the margin used is what it shows plus this: a proof never rests on a margin its own runs
 * contradict.
 */
export const CHECK_SLACK = 0.05;

/** Nodes the master's branch and bound may take per solve (then its least open key is the bound). */
export const MASTER_NODES = 4_000;

/**
 * Which options of a group are compared at all: external and internal insulation of a wall
 * (or a roof's variants) change different things besides U (thermal bridges and window reveals
 * for ITE, the inertia class for ITI), so an ITI that saves as much as an ITE alone can save less
 * in a combination: on 0000E0000003T, mur:1 ITE R 3.7 (2,665 €) saves exactly what ITI R 3.7
 * (1,207 €) saves alone, yet only ITE reaches A with mur:0 ITI, PVC windows, a heat-pump water
 * heater and double-flow ventilation (11,798 €).
 */
export function familyOf(c: Candidate): string {
  const ref = parseReferenceId(c.change.referenceId);
  const row = ref && findOption(ref.category, c.change.editableKey, c.change.editableValue);
  if (!row) return '';
  const r = row.recipe;
  return r.kind === 'wall' ? `wall:${r.position}` : r.kind === 'roof' ? `roof:${r.variant}` : '';
}

/** Generators: several options of a group whose order alone does not hold in combination. */
export function isGeneratorGroup(list: readonly Candidate[]): boolean {
  const ref = list[0]?.change.referenceId ?? '';
  return list.length > 1 && ref.startsWith('installation_');
}

/** "At least `atLeast` of the chosen options satisfy `among`" (options of distinct groups). */
export interface Covering {
  among: (c: Candidate) => boolean;
  atLeast: number;
}

/**
 * What to search for. Every field but `groups` is optional; together they express the audit's
 * rules as well as the scenarios':
 * - `allowed`: the options a group may take (e.g. only works at the aids' performance levels);
 * - `constraints`: covering constraints ("every one of these groups gets an option from this
 *   set": one `{ among, atLeast: 1 }` per group; "at least two insulation items": one
 *   `{ among: isInsulation, atLeast: 2 }`);
 * - `target` and `gainAtLeast`: the class to reach, and/or at least that many classes better than
 *   the DPE's own (the stricter of the two);
 * - `fixed`: works always applied (an earlier step), their groups not in `groups`;
 * - the budget: the evaluator's (change sets, engine runs), and `masterNodes`.
 */
export interface ProofQuery {
  /** the options by group (an element and works key): at most one per group */
  groups: readonly (readonly Candidate[])[];
  allowed?: (c: Candidate) => boolean;
  constraints?: readonly Covering[];
  target?: ClassLetter;
  gainAtLeast?: number;
  fixed?: readonly Candidate[];
  /** a combination to start from (without `fixed`): the best known answer, if it is one */
  incumbent?: readonly Candidate[];
  /** combinations already run (e.g. by a heuristic on another evaluator): free cuts */
  known?: Iterable<Evaluated>;
  /** nodes per master solve (default MASTER_NODES) */
  masterNodes?: number;
  /**
   * nodes for all the master's solves together: when given, a solve that ends at its node budget
   * does not end the search (its bound is kept, and a choice meeting the master's constraints is
   * run instead of its optimum) until these are spent; without it, the first such solve ends it
   */
  masterTotal?: number;
  /**
   * a search for cheaper answers, not a proof: the master also asks what each figure's options
   * save alone (GES too) to add up, with no margin, to what reaching needs, and its answers are run
   * without lifting. It finds combinations the other searches miss where savings add up nearly
   * (GES on most DPEs); the answer's `exact` is false and its `lowerBound` 0.
   */
  predict?: boolean;
  /**
   * With `predict`: the master knows the Q4Pa,conv thresholds (true), or not (false: the
   * predicted search of earlier versions); when true and no threshold can be crossed, nothing
   * is run. A proof always knows them.
   */
  thresholds?: boolean;
  /**
   * The master branches on its groups dearest first (`branchOrder`), not in their order: it
   * solves far more problems within its nodes, so the search runs other combinations
   * (docs/scenario-search.md). The second cut search (which can only lower an answer) and the
   * audit's proofs; the first searches keep the order their runs were tuned on.
   */
  dearestFirst?: boolean;
  /**
   * The steering master, the predicted search's master and the lifts compare choices as the first
   * searches were tuned on, before two of M0's exceptions were known (`comparedIn`'s `sound`
   * false): their runs, and so the scenarios, stay what they were; the bound and `exact` rest on
   * the proof's cuts, which leave those pairs out. The first cut search and the predicted
   * searches; the second cut search and the audit's proofs steer on the proof's cuts
   * (docs/scenario-search.md, "M0's pairs the cut search does not compare").
   */
  tunedSteering?: boolean;
  /**
   * false: the master's answers that miss are not lifted (each run is one cut, the answer's own):
   * for a narrow gap between the bound and the answer, where a few combinations are left to run
   * and a lift's runs would cost more than running them (the closing round, scenarios.ts; with
   * lifts there, fewer proofs: docs/scenario-search.md)
   */
  lifts?: boolean;
  /**
   * true: where a lighter inertia class holds the bound down, the last solve's answers are run
   * (each a cut, or a cheaper answer) until the bound meets the answer or the runs are spent
   */
  finalRuns?: boolean;
  /**
   * with `finalRuns`: no cut loop, the last solves at once (the runs' rows and the rows in the
   * answers' worlds, or the lighter inertia class's two), their answers run: where the plain
   * master is far below the bound those rows give, its loop spends the runs on answers the rows
   * already rule out (the closing round's second part, scenarios.ts)
   */
  straight?: boolean;
  /** the runs' rows' rounds in the last solve (default `Y_ROUNDS`; 0: none) */
  runsRows?: number;
  /** the rows on the envelope's losses among them (default true: docs "The rows on the envelope's losses") */
  envelopeRows?: boolean;
  /** the rows in the answer's world per search (default `WORLD_ROWS`; 0: none) */
  worldRows?: number;
  /**
   * with the rows in the answers' worlds, the rows in each heating generator's own world first
   * (default true: docs "The rows in the answer's world", "In each heating generator's world")
   */
  generatorWorlds?: boolean;
}

export interface ProofAnswer {
  /** the cheapest combination found that reaches the goal and meets the constraints (with fixed) */
  best: Evaluated | null;
  /** no combination cheaper than `best` does (with no `best`: none at all does), under M0 */
  exact: boolean;
  /** every combination (fixed included) cheaper than this misses the goal or a constraint, under M0 */
  lowerBound: number;
  /**
   * the same with the rows in the answers' worlds (docs "The rows in the answer's world"), at least
   * `lowerBound`: what a scenario reports; the searches read `lowerBound` and `exact` only, so
   * that their runs and answers are what they were without those rows
   */
  finalBound: number;
  /** the class searched for */
  target: ClassLetter;
  /** master solves, and their nodes in all */
  iterations: number;
  masterNodes: number;
}

type Figure = 'ep' | 'ges';

/** A choice per group: an option, or null (no works). */
type Point = (Candidate | null)[];

interface Cut {
  /** per group, bit k+1 set: choice k (−1: none) satisfies the cut */
  masks: number[];
}

/**
 * The master's nodes, in typed arrays (one entry per node kept, numbered in the order kept): no
 * object per node, so that the hundreds of thousands a solve may keep cost no garbage collection.
 * A node's cuts met, coverings counted and knapsack gains sit in pools, by slot; a child whose
 * choice changes none of them shares its parent's slot.
 */
class NodeStore {
  size = 0;
  depth = new Int32Array(1024);
  /** the choice at depth − 1, and the node it extends (−1: the root) */
  k = new Int32Array(1024);
  parent = new Int32Array(1024);
  cost = new Float64Array(1024);
  /** its key in the queue */
  key = new Float64Array(1024);
  satAt = new Int32Array(1024);
  coverAt = new Int32Array(1024);
  gainedAt = new Int32Array(1024);
  /** cuts satisfied, one bit each, `words` per slot */
  satPool: Uint32Array;
  /** options chosen satisfying each covering, per slot */
  coverPool: Float64Array;
  /** gain of the options chosen per knapsack, per slot */
  gainedPool: Float64Array;
  private sats = 0;
  private covers = 0;
  private gains = 0;
  private words = 1;
  private coverings = 0;
  private knapsacks = 0;
  constructor() {
    this.satPool = new Uint32Array(1024);
    this.coverPool = new Float64Array(64);
    this.gainedPool = new Float64Array(1024);
  }
  /**
   * Empty, for a solve with these sizes: its arrays are kept (a solve writes every entry it
   * reads: a node's, a slot's when it is made, the root's below), so that the master's hundreds
   * of solves a search makes do not allocate them again.
   */
  reset(words: number, coverings: number, knapsacks: number): this {
    this.size = 0;
    this.sats = 0;
    this.covers = 0;
    this.gains = 0;
    this.words = words;
    this.coverings = coverings;
    this.knapsacks = knapsacks;
    return this;
  }
  add(
    depth: number,
    k: number,
    parent: number,
    cost: number,
    satAt: number,
    coverAt: number,
    gainedAt: number,
  ): number {
    const i = this.size++;
    if (i === this.depth.length) {
      this.depth = room(this.depth, i + 1);
      this.k = room(this.k, i + 1);
      this.parent = room(this.parent, i + 1);
      this.cost = room(this.cost, i + 1);
      this.key = room(this.key, i + 1);
      this.satAt = room(this.satAt, i + 1);
      this.coverAt = room(this.coverAt, i + 1);
      this.gainedAt = room(this.gainedAt, i + 1);
    }
    this.depth[i] = depth;
    this.k[i] = k;
    this.parent[i] = parent;
    this.cost[i] = cost;
    this.satAt[i] = satAt;
    this.coverAt[i] = coverAt;
    this.gainedAt[i] = gainedAt;
    return i;
  }
  /** a new slot of each pool (a copy of `from`, when given) */
  newSat(from?: Uint32Array): number {
    this.satPool = room(this.satPool, (this.sats + 1) * this.words);
    if (from) this.satPool.set(from, this.sats * this.words);
    return this.sats++;
  }
  newCover(from?: Float64Array): number {
    this.coverPool = room(this.coverPool, (this.covers + 1) * this.coverings);
    if (from) this.coverPool.set(from, this.covers * this.coverings);
    return this.covers++;
  }
  newGained(from?: Float64Array): number {
    this.gainedPool = room(this.gainedPool, (this.gains + 1) * this.knapsacks);
    if (from) this.gainedPool.set(from, this.gains * this.knapsacks);
    return this.gains++;
  }
}

/** `a`, or a copy of it twice as long or more when it is shorter than `length` */
function room<A extends Uint32Array | Int32Array | Float64Array>(a: A, length: number): A {
  if (length <= a.length) return a;
  let n = Math.max(1, a.length);
  while (n < length) n *= 2;
  const b = new (a.constructor as new (n: number) => A)(n);
  b.set(a);
  return b;
}

/**
 * A min-heap of the store's nodes by key, then by number (the order they were kept): (key,
 * number) is a strict total order, so what it pops does not depend on how it is laid out
 * (deterministic ties).
 */
class NodeHeap {
  private items = new Int32Array(1024);
  size = 0;
  constructor(private readonly store: NodeStore) {}
  /** empty (its array kept) */
  reset(): this {
    this.size = 0;
    return this;
  }
  peekKey(): number {
    return this.size ? (this.store.key[this.items[0] as number] as number) : Infinity;
  }
  push(node: number, key: number): void {
    const keys = this.store.key;
    keys[node] = key;
    this.items = room(this.items, this.size + 1);
    const a = this.items;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const q = a[p] as number;
      const qk = keys[q] as number;
      if (qk < key || (qk === key && q < node)) break;
      a[i] = q;
      i = p;
    }
    a[i] = node;
  }
  pop(): number {
    const a = this.items;
    const keys = this.store.key;
    const top = a[0] as number;
    const n = --this.size;
    const last = a[n] as number;
    const lk = keys[last] as number;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        let m = l;
        const x = a[l] as number;
        const r = l + 1;
        if (r < n) {
          const y = a[r] as number;
          const yk = keys[y] as number;
          const xk = keys[x] as number;
          if (yk < xk || (yk === xk && y < x)) m = r;
        }
        const c = a[m] as number;
        const ck = keys[c] as number;
        if (lk < ck || (lk === ck && last < c)) break;
        a[i] = c;
        i = m;
      }
      a[i] = last;
    }
    return top;
  }
}

/**
 * The one store and heap every solve uses in turn (a solve runs to its end before another
 * starts, and its answer keeps nothing of them).
 */
const sharedStore = new NodeStore();
const sharedHeap = new NodeHeap(sharedStore);

/**
 * A set of rows as a key: row i (in the list the key is for) is bit `keyBit(i)` of word
 * `keyWord(i)`, `KEY_BITS` bits a word (30: a word stays a small integer, a key `keyWords(n)`
 * words). The master's bound writes its depth keys and its groups' keys in this one layout.
 */
const KEY_BITS = 30;
const keyWord = (i: number): number => (i / KEY_BITS) | 0;
const keyBit = (i: number): number => 1 << (i % KEY_BITS);
const keyWords = (rows: number): number => Math.max(1, Math.ceil(rows / KEY_BITS));
/**
 * A group's terms of the master's Lagrangian bound by its open rows: in a table (2^rows figures)
 * up to this many rows, in a `BitsetMemo` beyond.
 */
const TERM_TABLE_ROWS = 12;

/**
 * Figures by a set of rows, the set given as `width` words of `KEY_BITS` bits: open addressing in typed
 * arrays, so that an entry allocates nothing (the master's bound reads and writes millions of
 * them on the slowest DPEs: a `Map` per 30 rows, or boxed sums, kept the collector busy).
 */
export class BitsetMemo {
  private keys: Int32Array;
  private vals: Float64Array;
  private used: Uint8Array;
  private mask: number;
  private count = 0;
  /** the key being looked up or stored (`width` words; the caller fills it) */
  readonly key: Int32Array;
  constructor(readonly width: number) {
    const cap = 64;
    this.keys = new Int32Array(cap * width);
    this.vals = new Float64Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
    this.key = new Int32Array(width);
  }
  private slot(key: Int32Array): number {
    const w = this.width;
    let h = 0x811c9dc5;
    for (let i = 0; i < w; i++) h = Math.imul(h ^ (key[i] as number), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    for (let s = h & this.mask; ; s = (s + 1) & this.mask) {
      if (!this.used[s]) return s;
      let same = true;
      for (let i = 0, at = s * w; i < w; i++)
        if (this.keys[at + i] !== key[i]) {
          same = false;
          break;
        }
      if (same) return s;
    }
  }
  /** the figure stored for `this.key`, or NaN (never stored: the figures are numbers) */
  get(): number {
    const s = this.slot(this.key);
    return this.used[s] ? (this.vals[s] as number) : NaN;
  }
  /** stores `value` for `this.key` (not already stored) */
  set(value: number): void {
    if (2 * (this.count + 1) > this.mask + 1) this.grow();
    const s = this.slot(this.key);
    this.used[s] = 1;
    this.keys.set(this.key, s * this.width);
    this.vals[s] = value;
    this.count++;
  }
  private grow(): void {
    const { keys, vals, used, width } = this;
    const cap = 2 * (this.mask + 1);
    this.keys = new Int32Array(cap * width);
    this.vals = new Float64Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
    const key = new Int32Array(width);
    for (let s = 0; s < used.length; s++) {
      if (!used[s]) continue;
      for (let i = 0; i < width; i++) key[i] = keys[s * width + i] as number;
      const t = this.slot(key);
      this.used[t] = 1;
      this.keys.set(key, t * width);
      this.vals[t] = vals[s] as number;
    }
  }
  /** entries stored */
  get size(): number {
    return this.count;
  }
}

/** What the master's bound reads of a node: its depth and where its arrays sit. */
interface NodeView {
  depth: number;
  sat: Uint32Array;
  so: number;
  cover: Float64Array;
  co: number;
  gained: Float64Array;
  go: number;
}

/**
 * Σ gain of the chosen options ≥ need (`gain[g][k]`: option k of group g; `none[g]`: the gain
 * of choosing none in group g, 0 when absent: a row that holds whatever is chosen elsewhere
 * when a group's choice is not one, as the factored rows below).
 */
interface Knapsack {
  gain: number[][];
  need: number;
  none?: number[];
}

/**
 * The master problem's rows in one form, for its Lagrangian bound: Σ over groups of
 * `a[g][k + 1]` (the choice k of group g, −1 for none) ≥ `rhs`.
 */
interface Row {
  a: Float64Array[];
  rhs: number;
}

/**
 * A Lagrangian relaxation of the master problem: for multipliers u ≥ 0 (one per row),
 * `L(u) = Σ_r u_r·rhs_r + Σ_g min_k (cost_gk − Σ_r u_r·a_rgk)` is at most the cost of every
 * choice that meets the rows (each row's term `u_r·(a_r·x − rhs_r)` is ≥ 0 then), so at most the
 * master's optimum, whatever u (weak duality). u is improved by a fixed number of projected
 * subgradient steps (Polyak's, toward `target`; deterministic): the bound approaches the linear
 * relaxation's. Returns the multipliers of the best bound found, and that bound.
 */
export function lagrangian(
  costs: readonly (readonly number[])[],
  rows: readonly Row[],
  target: number,
  steps: number,
): { u: Float64Array; bound: number } {
  const R = rows.length;
  const G = costs.length;
  const u = new Float64Array(R);
  let bestU: Float64Array;
  const choose = new Int32Array(G);
  // every row's entries laid flat, a row after the other (`colAt[g]` + k + 1 in a row): the
  // dense reads below take one load instead of three
  const { at: colAt, width } = choiceOffsets(costs);
  flatRows = room(flatRows, R * width);
  const flat = flatRows;
  // the rows' non-zero entries by choice (column), rows ascending: every sum below adds the same
  // terms in the same order as a dense loop over the rows would (a zero term adds nothing
  // exactly), so the bound is bit for bit the dense one's, at a fraction of the work. Column c's
  // entries sit at [colStart[c], colStart[c + 1]) of `colRow` (the row) and `colVal` (a).
  colStarts = room(colStarts, width + 1);
  const colStart = colStarts;
  colStart.fill(0, 0, width + 1);
  for (let r = 0; r < R; r++) {
    const row = rows[r] as Row;
    const base = r * width;
    for (let g = 0; g < G; g++) {
      const ag = row.a[g] as Float64Array;
      const o = colAt[g] as number;
      for (let j = 0; j < ag.length; j++) {
        const a = ag[j] as number;
        flat[base + o + j] = a;
        if (a !== 0) colStart[o + j + 1]!++;
      }
    }
  }
  for (let c = 0; c < width; c++) colStart[c + 1]! += colStart[c] as number;
  const entries = colStart[width] as number;
  colRows = room(colRows, entries);
  colVals = room(colVals, entries);
  const colRow = colRows;
  const colVal = colVals;
  colFills = room(colFills, width);
  const fill = colFills;
  fill.set(colStart.subarray(0, width));
  for (let r = 0; r < R; r++) {
    const base = r * width;
    for (let c = 0; c < width; c++) {
      const a = flat[base + c] as number;
      if (a !== 0) {
        const e = fill[c]!++;
        colRow[e] = r;
        colVal[e] = a;
      }
    }
  }
  // the rows whose multiplier is not 0, ascending: a choice's value subtracts u_r·a for these
  // rows only where a ≠ 0, in the order of the sparse loop (which skips u_r = 0 and a = 0), so
  // it may read the dense rows of the few multipliers in play instead of every entry of the choice
  const live = new Int32Array(R);
  let nLive = 0;
  const evalAt = (): number => {
    let l = 0;
    nLive = 0;
    for (let r = 0; r < R; r++) {
      const ur = u[r] as number;
      l += ur * (rows[r] as Row).rhs;
      if (ur !== 0) live[nLive++] = r;
    }
    // (whichever reads fewer entries, `width` choices of the live rows or every entry: the same
    // terms in the same order either way)
    const dense = nLive * width < entries;
    for (let g = 0; g < G; g++) {
      const list = costs[g] as readonly number[];
      let least = Infinity;
      let pick = -1;
      for (let k = -1; k < list.length; k++) {
        let v = k < 0 ? 0 : (list[k] as number);
        if (dense) {
          const col = (colAt[g] as number) + k + 1;
          for (let i = 0; i < nLive; i++) {
            const r = live[i] as number;
            const a = flat[r * width + col] as number;
            if (a !== 0) v -= (u[r] as number) * a;
          }
        } else {
          const col = (colAt[g] as number) + k + 1;
          for (let e = colStart[col] as number, end = colStart[col + 1] as number; e < end; e++) {
            const ur = u[colRow[e] as number] as number;
            if (ur !== 0) v -= ur * (colVal[e] as number);
          }
        }
        if (v < least) {
          least = v;
          pick = k;
        }
      }
      choose[g] = pick;
      l += least;
    }
    return l;
  };
  let best = evalAt();
  bestU = u.slice();
  if (R === 0) return { u: bestU, bound: best };
  let theta = 2;
  let stall = 0;
  let l = best;
  const sub = new Float64Array(R);
  const lhs = new Float64Array(R);
  for (let i = 0; i < steps; i++) {
    lhs.fill(0);
    for (let g = 0; g < G; g++) {
      const col = (colAt[g] as number) + (choose[g] as number) + 1;
      for (let e = colStart[col] as number, end = colStart[col + 1] as number; e < end; e++)
        lhs[colRow[e] as number]! += colVal[e] as number;
    }
    let norm = 0;
    for (let r = 0; r < R; r++) {
      let sr = (rows[r] as Row).rhs - (lhs[r] as number);
      if (sr < 0 && (u[r] as number) <= 0) sr = 0;
      sub[r] = sr;
      norm += sr * sr;
    }
    if (norm === 0) break; // the relaxation's choice meets every row: L(u) is the optimum
    const goal = Number.isFinite(target) && target > l ? target : Math.abs(l) * 1.1 + 1;
    const t = (theta * (goal - l)) / norm;
    for (let r = 0; r < R; r++) u[r] = Math.max(0, (u[r] as number) + t * (sub[r] as number));
    l = evalAt();
    if (l > best + 1e-9) {
      best = l;
      bestU = u.slice();
      stall = 0;
    } else if (++stall >= 8) {
      theta /= 2;
      stall = 0;
    }
  }
  return { u: bestU, bound: best };
}

/**
 * Where each group's choices sit when every group's choices (none first) are laid one after the
 * other: choice k of group g at `at[g]` + k + 1, `width` in all.
 */
function choiceOffsets(costs: readonly (readonly number[])[]): { at: Int32Array; width: number } {
  const at = new Int32Array(costs.length);
  let width = 0;
  costs.forEach((list, g) => {
    at[g] = width;
    width += list.length + 1;
  });
  return { at, width };
}

/**
 * The Lagrangian bound's rows laid flat, and their non-zero entries by column (start, row, value),
 * one set of arrays for every solve in turn (grown as needed).
 */
let flatRows = new Float64Array(1 << 14);
let colStarts = new Int32Array(1 << 8);
let colFills = new Int32Array(1 << 8);
let colRows = new Int32Array(1 << 14);
let colVals = new Float64Array(1 << 14);

/** A candidate's change as one string (element, works key, value), made once per candidate. */
const changeKeys = new WeakMap<Candidate, string>();
function changeKey(c: Candidate): string {
  let key = changeKeys.get(c);
  if (key === undefined) {
    key = `${c.change.referenceId}|${c.change.editableKey}|${c.change.editableValue}`;
    changeKeys.set(c, key);
  }
  return key;
}

/** A cut's row of the Lagrangian bound (1 for each choice that meets it), built once per cut. */
const cutRows = new WeakMap<Cut, Row>();
function cutRow(cut: Cut, costs: readonly (readonly number[])[]): Row {
  const known = cutRows.get(cut);
  if (
    known &&
    known.a.length === costs.length &&
    known.a.every((ag, g) => ag.length === costs[g]!.length + 1)
  )
    return known;
  const row: Row = {
    a: costs.map((list, g) => maskRow(list.length + 1, cut.masks[g] as number)),
    rhs: 1,
  };
  cutRows.set(cut, row);
  return row;
}

/**
 * A group's part of a cut's row: 1 for each choice the mask sets, one array per (choices, mask)
 * shared by every cut (rows are only read). A cut's own arrays, one per group, took most of a
 * search's memory on a building with thousands of cuts over dozens of groups.
 */
const maskRows = new Map<number, Float64Array>();
function maskRow(length: number, mask: number): Float64Array {
  const m = length >= 31 ? mask : mask & ((1 << length) - 1);
  const key = m * 64 + length;
  let ag = maskRows.get(key);
  if (!ag) {
    ag = new Float64Array(length);
    for (let j = 0; j < length; j++) if (m & (1 << j)) ag[j] = 1;
    maskRows.set(key, ag);
  }
  return ag;
}

/** Master solves per search at most (a guard: each learns a cut or ends the search). */
const MAX_ITERATIONS = 1_000;

/** Subgradient steps per master solve (the Lagrangian bound, above). */
export const LAGRANGIAN_STEPS = 60;

type MasterResult =
  | {
      kind: 'solution';
      choice: number[];
      cost: number;
      nodes: number;
      /** with the Q4Pa,conv thresholds: the state the answer reaches (its index in their choices) */
      airAt?: number;
    }
  | { kind: 'infeasible'; nodes: number }
  | { kind: 'capped'; lowerBound: number; nodes: number; point?: number[]; pointCost?: number };

/**
 * The order the master branches on its groups: the groups `first` (in their order), then those
 * whose every choice costs nothing (a thresholds group: its choice only decides rows), then the
 * others by their dearest choice, dearest first (ties: the caller's order). Deciding the dear
 * groups first lifts the bound near the root: the cheap ones left below a node can change its
 * cost by little. On 160 capped masters of the corpus, 4,000 nodes a solve: in the caller's
 * order 11 solved, in this one 160 (docs/scenario-search.md).
 */
export function branchOrder(
  costs: readonly (readonly number[])[],
  first: readonly number[] = [],
  dearestFirst = true,
): number[] {
  if (!dearestFirst) return [...first, ...costs.map((_, g) => g).filter((g) => !first.includes(g))];
  const dearest = costs.map((list) => list.reduce((m, c) => Math.max(m, c), 0));
  const rest = costs.map((_, g) => g).filter((g) => !first.includes(g));
  const free = rest.filter((g) => dearest[g] === 0);
  const priced = rest
    .filter((g) => (dearest[g] as number) > 0)
    .sort((a, b) => (dearest[b] as number) - (dearest[a] as number) || a - b);
  return [...first, ...free, ...priced];
}

/**
 * A cut with its groups in each branching order it was solved in (by the order's groups,
 * comma-joined): a search alternates masters of two or three orders (the steering, the proof's,
 * the second cut search's), and each keeps its own permuted cut, whose row is built once.
 */
const permuted = new WeakMap<Cut, Map<string, Cut>>();

/**
 * The master's answer with its groups branched on in `branchOrder(costs, first)`: the same problem
 * and the same optimum (any order is a valid branch and bound), its answer in the caller's order.
 */
export function solveMaster(
  costs: readonly (readonly number[])[],
  cuts: readonly Cut[],
  coverings: readonly { ok: boolean[][]; atLeast: number }[],
  knapsacks: readonly Knapsack[],
  cap: number,
  target = Infinity,
  first: readonly number[] = [],
  dearestFirst = true,
): MasterResult {
  const perm = branchOrder(costs, first, dearestFirst);
  if (perm.every((g, i) => g === i))
    return branchAndBound(costs, cuts, coverings, knapsacks, cap, target);
  const take = <T>(xs: readonly T[]): T[] => perm.map((g) => xs[g] as T);
  const back = (choice: number[]): number[] => {
    const out = new Array<number>(choice.length);
    perm.forEach((g, i) => (out[g] = choice[i] as number));
    return out;
  };
  const order = perm.join(',');
  const m = branchAndBound(
    take(costs),
    cuts.map((c) => {
      // (the same permuted cut every solve: its row of the Lagrangian bound is built once)
      let byOrder = permuted.get(c);
      if (!byOrder) permuted.set(c, (byOrder = new Map()));
      let cut = byOrder.get(order);
      if (!cut) byOrder.set(order, (cut = { masks: take(c.masks) }));
      return cut;
    }),
    coverings.map((cv) => ({ ok: take(cv.ok), atLeast: cv.atLeast })),
    knapsacks.map((ks) => ({
      gain: take(ks.gain),
      need: ks.need,
      ...(ks.none ? { none: take(ks.none) } : {}),
    })),
    cap,
    target,
  );
  if (m.kind === 'solution') return { ...m, choice: back(m.choice) };
  if (m.kind === 'capped' && m.point) return { ...m, point: back(m.point) };
  return m;
}

/** whether a choice (one per group, −1 for none) meets a cut: one of its groups' choices is lit */
function meetsCut(cut: Cut, choice: readonly number[]): boolean {
  for (let g = 0; g < choice.length; g++)
    if ((cut.masks[g] as number) & (1 << ((choice[g] as number) + 1))) return true;
  return false;
}

/** whether two lists of knapsacks are the same rows, number for number */
function sameKnapsacks(a: readonly Knapsack[], b: readonly Knapsack[]): boolean {
  const same = (x: readonly number[] | undefined, y: readonly number[] | undefined) =>
    x === y || (!!x && !!y && x.length === y.length && x.every((v, i) => v === y[i]));
  return (
    a.length === b.length &&
    a.every((ka, i) => {
      const kb = b[i] as Knapsack;
      return (
        ka.need === kb.need &&
        same(ka.none, kb.none) &&
        ka.gain.length === kb.gain.length &&
        ka.gain.every((row, g) => same(row, kb.gain[g]))
      );
    })
  );
}

/**
 * The least-cost choice (one per group, −1 for none) meeting every cut and covering, by best-first
 * branch and bound over the groups in order; the bound of a node is its cost plus, over the cuts
 * and coverings it does not meet yet, the largest least cost still needed to meet one.
 */
function branchAndBound(
  costs: readonly (readonly number[])[],
  cuts: readonly Cut[],
  coverings: readonly { ok: boolean[][]; atLeast: number }[],
  knapsacks: readonly Knapsack[],
  cap: number,
  target = Infinity,
): MasterResult {
  const G = costs.length;
  // per knapsack: groups by their least cost per unit of gain, and the most gain of each group;
  // suffix sums of the most gain (what the groups from d on can still add)
  const knap = knapsacks.map((ks) => {
    const none = ks.gain.map((_, g) => ks.none?.[g] ?? 0);
    const most = ks.gain.map((list, g) => Math.max(0, none[g] as number, ...list));
    const ratio = ks.gain.map((list, g) => {
      let r = (none[g] as number) > 0 ? 0 : Infinity;
      list.forEach((gain, k) => {
        if (gain > 0) r = Math.min(r, (costs[g]![k] as number) / gain);
      });
      return r;
    });
    const order = ks.gain
      .map((_, g) => g)
      .sort((a, b) => (ratio[a] as number) - (ratio[b] as number) || a - b);
    const suffix = new Float64Array(G + 1);
    for (let g = G - 1; g >= 0; g--) suffix[g] = (suffix[g + 1] as number) + (most[g] as number);
    return { need: ks.need, gain: ks.gain, none, most, ratio, order, suffix };
  });
  const C = cuts.length;
  const words = Math.max(1, Math.ceil(C / 32));
  // litMask[g][k+1]: the cuts choice k of group g satisfies
  const litMask: Uint32Array[][] = costs.map((list) =>
    Array.from({ length: list.length + 1 }, () => new Uint32Array(words)),
  );
  // minFree[c*(G+1)+d]: least cost of a choice satisfying cut c among groups d..G-1
  const minFree = new Float64Array(C * (G + 1)).fill(Infinity);
  cuts.forEach((cut, c) => {
    for (let g = G - 1; g >= 0; g--) {
      const list = costs[g] as readonly number[];
      let least = Infinity;
      const m = cut.masks[g] as number;
      for (let k = -1; k < list.length; k++)
        if (m & (1 << (k + 1))) {
          (litMask[g] as Uint32Array[])[k + 1]![c >> 5]! |= 1 << (c & 31);
          least = Math.min(least, k < 0 ? 0 : (list[k] as number));
        }
      minFree[c * (G + 1) + g] = Math.min(least, minFree[c * (G + 1) + g + 1] as number);
    }
  });
  // per cut word, the bits that are cuts
  const lastWord = Uint32Array.from({ length: words }, (_, w) =>
    C - 32 * w >= 32 ? 0xffffffff : (1 << Math.max(0, C - 32 * w)) - 1,
  );
  // per depth: the cuts no choice from that depth on meets (a node leaving one of them unmet has
  // no completion), and the largest least cost of the others (below it they cannot lift a bound)
  const deadAt = new Uint32Array((G + 1) * words);
  const mostFree = new Float64Array(G + 1);
  for (let c = 0; c < C; c++)
    for (let d = 0; d <= G; d++) {
      const v = minFree[c * (G + 1) + d] as number;
      if (v === Infinity) deadAt[d * words + (c >> 5)]! |= 1 << (c & 31);
      else if (v > (mostFree[d] as number)) mostFree[d] = v;
    }
  // per covering and group, the least cost of a choice counting for it
  const coverCost = coverings.map((cv) =>
    costs.map((list, g) => {
      let least = Infinity;
      for (let k = 0; k < list.length; k++)
        if (cv.ok[g]?.[k]) least = Math.min(least, list[k] as number);
      return least;
    }),
  );
  // per covering and depth, those least costs of the groups from that depth on, ascending
  const coverSorted = coverings.map(() => new Map<number, number[]>());
  const coverFrom = (i: number, d: number): number[] => {
    const memo = coverSorted[i] as Map<number, number[]>;
    let v = memo.get(d);
    if (!v) memo.set(d, (v = (coverCost[i] as number[]).slice(d).sort((a, b) => a - b)));
    return v;
  };
  // the Lagrangian bound's rows: the cuts, the coverings still to meet, the knapsacks (scaled to a
  // right-hand side of 1); its multipliers, and per choice the rows it counts for (u > 0 only)
  const rows: Row[] = [];
  const rowKind: { kind: 'cut' | 'cover' | 'knap'; i: number }[] = [];
  cuts.forEach((cut, c) => {
    rows.push(cutRow(cut, costs));
    rowKind.push({ kind: 'cut', i: c });
  });
  coverings.forEach((cv, i) => {
    if (cv.atLeast <= 0) return;
    rows.push({
      a: costs.map((list, g) =>
        Float64Array.from({ length: list.length + 1 }, (_, j) =>
          j > 0 && cv.ok[g]?.[j - 1] ? 1 : 0,
        ),
      ),
      rhs: cv.atLeast,
    });
    rowKind.push({ kind: 'cover', i });
  });
  knapsacks.forEach((ks, i) => {
    if (ks.need <= 0) return;
    rows.push({
      a: costs.map((list, g) =>
        Float64Array.from(
          { length: list.length + 1 },
          (_, j) => (j > 0 ? (ks.gain[g]![j - 1] as number) : (ks.none?.[g] ?? 0)) / ks.need,
        ),
      ),
      rhs: 1,
    });
    rowKind.push({ kind: 'knap', i });
  });
  const { u } = rows.length
    ? lagrangian(costs, rows, target, LAGRANGIAN_STEPS)
    : { u: new Float64Array(0) };
  const active = rows.map((_, r) => r).filter((r) => (u[r] as number) > 0);
  // per group and choice: the active rows it counts for, and u_r·a_rgk
  const lagRows: { r: Int32Array; w: Float64Array }[][] = costs.map((list, g) =>
    Array.from({ length: list.length + 1 }, (_, j) => {
      const rs = active.filter((r) => ((rows[r] as Row).a[g] as Float64Array)[j] !== 0);
      return {
        r: Int32Array.from(rs),
        w: Float64Array.from(
          rs,
          (r) => (u[r] as number) * ((rows[r] as Row).a[g] as Float64Array)[j]!,
        ),
      };
    }),
  );
  // a group's term of L(u) depends only on which of the active rows its choices count for are
  // open: per group, those rows (ascending) and the terms already computed, by that open set
  const touch: Int32Array[] = lagRows.map((per) => {
    const set = new Set<number>();
    for (const e of per) for (const r of e.r) set.add(r);
    return Int32Array.from([...set].sort((a, b) => a - b));
  });
  // (a table up to `TERM_TABLE_ROWS` rows, NaN where not computed yet; a `BitsetMemo` beyond)
  const termTable: (Float64Array | null)[] = touch.map((tr) =>
    tr.length <= TERM_TABLE_ROWS ? new Float64Array(1 << tr.length).fill(NaN) : null,
  );
  const termMemo: (BitsetMemo | null)[] = touch.map((tr) =>
    tr.length <= TERM_TABLE_ROWS ? null : new BitsetMemo(keyWords(tr.length)),
  );
  // the sum of those terms from a depth on depends only on which of the active rows the groups
  // from that depth count for are open (`touchFrom`): kept per depth by that open set (bit i:
  // touchFrom[depth][i] open)
  const touchFrom: Int32Array[] = [];
  {
    const set = new Set<number>();
    touchFrom[G] = new Int32Array(0);
    for (let g = G - 1; g >= 0; g--) {
      for (const r of touch[g] as Int32Array) set.add(r);
      touchFrom[g] = Int32Array.from([...set].sort((a, b) => a - b));
    }
  }
  const suffixMemo: BitsetMemo[] = touchFrom.map((from) => new BitsetMemo(keyWords(from.length)));
  /** L(u) on the groups from n's depth on, over the rows n does not meet yet (a valid bound) */
  // the active rows laid out for lagBound: kind (0 cut, 1 covering, 2 knapsack), its index, its
  // multiplier, and for a covering or knapsack its right-hand side
  const A = active.length;
  const aRow = Int32Array.from(active);
  const aKind = Uint8Array.from(active, (r) => {
    const kind = (rowKind[r] as (typeof rowKind)[number]).kind;
    return kind === 'cut' ? 0 : kind === 'cover' ? 1 : 2;
  });
  const aI = Int32Array.from(active, (r) => (rowKind[r] as (typeof rowKind)[number]).i);
  let cutsActive = 0;
  while (cutsActive < A && aKind[cutsActive] === 0) cutsActive++;
  const aU = Float64Array.from(active, (r) => u[r] as number);
  const aRhs = Float64Array.from(active, (r) => {
    const rk = rowKind[r] as (typeof rowKind)[number];
    return rk.kind === 'cover'
      ? (coverings[rk.i] as (typeof coverings)[number]).atLeast
      : rk.kind === 'knap'
        ? (knapsacks[rk.i] as Knapsack).need
        : 1;
  });
  // per depth with at most `KEY_BITS` such rows (most), each active row's bit in that depth's key
  // (0 when the groups from there do not count for it): the key is one word, or-ed as the rows are
  // read; the sums by key in a table of NaN (not computed yet) up to 10 rows, a `BitsetMemo` beyond
  const bitAt = new Int32Array((G + 1) * A);
  // beyond `KEY_BITS` rows, each active row's word and bit in its depth's key (touchFrom[depth]'s
  // i-th row at `keyWord(i)`, `keyBit(i)`; bit 0 where the groups from there do not count for it),
  // so that a node's key is written from its open rows alone (a few of 200 active rows)
  const longWord = new Int32Array((G + 1) * A);
  const longBit = new Int32Array((G + 1) * A);
  {
    const indexOf = new Int32Array(rows.length).fill(-1);
    active.forEach((r, a) => (indexOf[r] = a));
    for (let d = 0; d <= G; d++) {
      const from = touchFrom[d] as Int32Array;
      if (from.length > KEY_BITS)
        from.forEach((r, i) => {
          const at = d * A + (indexOf[r] as number);
          longWord[at] = keyWord(i);
          longBit[at] = keyBit(i);
        });
      else from.forEach((r, i) => (bitAt[d * A + (indexOf[r] as number)] = keyBit(i)));
    }
  }
  const sumTable: (Float64Array | null)[] = touchFrom.map((from) =>
    from.length <= 10 ? new Float64Array(1 << from.length).fill(NaN) : null,
  );
  // the active cuts by word of a node's cuts met, and each one's place among the active rows
  const activeCuts = new Uint32Array(words);
  const aOfCut = new Int32Array(Math.max(1, C));
  for (let a = 0; a < cutsActive; a++) {
    const c = aI[a] as number;
    activeCuts[c >> 5]! |= 1 << (c & 31);
    aOfCut[c] = a;
  }
  // a node's open active rows (the rows it does not meet yet, ascending), as `lagBound` reads
  // them, for `groupTerms`
  const openList = new Int32Array(Math.max(1, A));
  let openCount = 0;
  // per active row, the groups from which it is in `touch`: its word and bit in that group's key
  // (touch[g]'s i-th row at `keyWord(i)`, `keyBit(i)`: one word up to `TERM_TABLE_ROWS`), and the
  // choices of the group that count for it with u·a (`lagRows` read by row): a group's key and
  // terms are computed from the open rows alone (a few of 200), ascending groups per row
  // (laid out in typed arrays by counting: entry e of row r at [rowGroupsAt[r], rowGroupsAt[r+1]),
  // its choices at [rgChoicesAt[e], rgChoicesAt[e+1]), ascending choices)
  const rowGroupsAt = new Int32Array(rows.length + 1);
  for (const tr of touch) for (let i = 0; i < tr.length; i++) rowGroupsAt[(tr[i] as number) + 1]!++;
  for (let r = 0; r < rows.length; r++) rowGroupsAt[r + 1]! += rowGroupsAt[r] as number;
  const entryCount = rowGroupsAt[rows.length] as number;
  const rgGroup = new Int32Array(entryCount);
  const rgWord = new Int32Array(entryCount);
  const rgBit = new Int32Array(entryCount);
  const rgChoicesAt = new Int32Array(entryCount + 1);
  // each entry's place, filled group by group (groups ascending within a row)
  const nextAt = rowGroupsAt.slice(0, rows.length);
  const entryOf = new Int32Array(rows.length);
  const entriesOf: Int32Array[] = [];
  touch.forEach((tr, g) => {
    const list = new Int32Array(tr.length);
    for (let i = 0; i < tr.length; i++) {
      const r = tr[i] as number;
      const e = nextAt[r]!++;
      rgGroup[e] = g;
      rgWord[e] = keyWord(i);
      rgBit[e] = keyBit(i);
      list[i] = e;
    }
    entriesOf.push(list);
  });
  // the choices by entry: counted, then filled choice by choice (ascending within an entry)
  lagRows.forEach((choices, g) => {
    const tr = touch[g] as Int32Array;
    const list = entriesOf[g] as Int32Array;
    for (let i = 0; i < tr.length; i++) entryOf[tr[i] as number] = list[i] as number;
    for (const e of choices)
      for (let i = 0; i < e.r.length; i++)
        rgChoicesAt[(entryOf[e.r[i] as number] as number) + 1]!++;
  });
  for (let e = 0; e < entryCount; e++) rgChoicesAt[e + 1]! += rgChoicesAt[e] as number;
  const rgChoice = new Int32Array(rgChoicesAt[entryCount] as number);
  const rgWeight = new Float64Array(rgChoicesAt[entryCount] as number);
  {
    const fillAt = rgChoicesAt.slice(0, entryCount);
    lagRows.forEach((choices, g) => {
      const tr = touch[g] as Int32Array;
      const list = entriesOf[g] as Int32Array;
      for (let i = 0; i < tr.length; i++) entryOf[tr[i] as number] = list[i] as number;
      choices.forEach((e, j) => {
        for (let i = 0; i < e.r.length; i++) {
          const at = fillAt[entryOf[e.r[i] as number] as number]!++;
          rgChoice[at] = j;
          rgWeight[at] = e.w[i] as number;
        }
      });
    });
  }
  // the groups' keys up to 12 rows (beyond, the group's memo key); per group, its entries of the
  // open rows (ascending rows), and its choices' terms being computed
  const groupKey = new Int32Array(G);
  const groupEntries = new Int32Array(Math.max(1, G * A));
  const groupEntryCount = new Int32Array(G);
  const terms = new Float64Array(costs.reduce((m, list) => Math.max(m, list.length + 1), 1));
  const lagBound = (n: NodeView): number => {
    if (!A) return 0;
    let l = 0;
    let key = 0;
    const depth = n.depth;
    const dA = depth * A;
    const from = touchFrom[depth] as Int32Array;
    const long = from.length > KEY_BITS;
    // (beyond `KEY_BITS` rows the key is written word by word into the depth's memo, from its open
    // rows)
    const memo = suffixMemo[depth] as BitsetMemo;
    const lk = memo.key;
    if (long) lk.fill(0);
    // the cuts' rows first (the rows are the cuts, then the coverings, then the knapsacks): an
    // open cut adds u·1, its multiplier, as the general term below would
    // (the open ones only, word by word of the node's cuts met, in the cuts' order; listed in
    // `openList` for `groupTerms`)
    const sat = n.sat;
    const so = n.so;
    openCount = 0;
    for (let w = 0; w < words; w++) {
      let m = ~(sat[so + w] as number) & (activeCuts[w] as number);
      while (m !== 0) {
        const low = m & -m;
        m ^= low;
        const a = aOfCut[(w << 5) + 31 - Math.clz32(low)] as number;
        l += aU[a] as number;
        openList[openCount++] = aRow[a] as number;
        if (long) lk[longWord[dA + a] as number]! |= longBit[dA + a] as number;
        else key |= bitAt[dA + a] as number;
      }
    }
    for (let a = cutsActive; a < A; a++) {
      const kind = aKind[a] as number;
      const i = aI[a] as number;
      let res: number;
      if (kind === 0) res = (sat[so + (i >> 5)] as number) & (1 << (i & 31)) ? 0 : 1;
      else if (kind === 1) res = (aRhs[a] as number) - (n.cover[n.co + i] as number);
      else {
        const need = aRhs[a] as number;
        res = (need - (n.gained[n.go + i] as number)) / need;
      }
      if (res > 1e-12) {
        l += (aU[a] as number) * res;
        openList[openCount++] = aRow[a] as number;
        if (long) lk[longWord[dA + a] as number]! |= longBit[dA + a] as number;
        else key |= bitAt[dA + a] as number;
      }
    }
    const table = sumTable[depth];
    if (table) {
      let sum = table[key] as number;
      if (Number.isNaN(sum)) table[key] = sum = groupTerms(depth);
      l += sum;
    } else {
      // (the open set as its key's words: the one or-ed above)
      if (!long) lk[0] = key;
      let sum = memo.get();
      if (Number.isNaN(sum)) memo.set((sum = groupTerms(depth)));
      l += sum;
    }
    // (less a hair: rounding must never lift the bound over the optimum)
    return l - 1e-9 * (Math.abs(l) + 1);
  };
  /** the groups' terms of L(u) from `depth` on, for the open rows `openList` holds */
  const groupTerms = (depth: number): number => {
    // each group's key and entries, from the open rows (ascending, as `lagRows` lists them: each
    // choice's term is the same sum, in the same order, bit for bit)
    for (let g = depth; g < G; g++) {
      groupEntryCount[g] = 0;
      if (termTable[g]) groupKey[g] = 0;
      else (termMemo[g] as BitsetMemo).key.fill(0);
    }
    for (let j = 0; j < openCount; j++) {
      const r = openList[j] as number;
      for (let e = rowGroupsAt[r] as number, end = rowGroupsAt[r + 1] as number; e < end; e++) {
        const g = rgGroup[e] as number;
        if (g < depth) continue;
        groupEntries[g * A + groupEntryCount[g]!++] = e;
        if (termTable[g]) groupKey[g]! |= rgBit[e] as number;
        else (termMemo[g] as BitsetMemo).key[rgWord[e] as number]! |= rgBit[e] as number;
      }
    }
    let l = 0;
    for (let g = depth; g < G; g++) {
      const table = termTable[g];
      const memo = termMemo[g] as BitsetMemo | null;
      const key = groupKey[g] as number;
      if (table) {
        const known = table[key] as number;
        if (!Number.isNaN(known)) {
          l += known;
          continue;
        }
      } else if (memo) {
        const known = memo.get();
        if (!Number.isNaN(known)) {
          l += known;
          continue;
        }
      }
      const list = costs[g] as readonly number[];
      terms[0] = 0;
      for (let k = 0; k < list.length; k++) terms[k + 1] = list[k] as number;
      for (let i = 0, n = groupEntryCount[g] as number; i < n; i++) {
        const e = groupEntries[g * A + i] as number;
        for (let c = rgChoicesAt[e] as number, end = rgChoicesAt[e + 1] as number; c < end; c++)
          terms[rgChoice[c] as number]! -= rgWeight[c] as number;
      }
      let least = Infinity;
      for (let j = 0; j <= list.length; j++)
        if ((terms[j] as number) < least) least = terms[j] as number;
      if (table) table[key] = least;
      else if (memo) memo.set(least);
      l += least;
    }
    return l;
  };
  const bound = (n: NodeView): number => {
    const d = n.depth;
    // a node no completion can make meet every row ends here, before its Lagrangian bound is
    // computed (over half the children on the slowest corpus DPEs): a cut no choice left meets,
    // or a knapsack whose free groups cannot gain what it still needs
    for (let w = 0; w < words; w++)
      if ((~(n.sat[n.so + w] as number) & (deadAt[d * words + w] as number)) !== 0) return Infinity;
    for (let i = 0; i < knap.length; i++) {
      const ks = knap[i] as (typeof knap)[number];
      const need = ks.need - (n.gained[n.go + i] as number);
      if (need > 1e-9 && (ks.suffix[d] as number) < need - 1e-9) return Infinity;
    }
    let h = Math.max(0, lagBound(n));
    // the cuts not met yet, word by word (the largest of their least costs, in any order; none
    // can lift the bound over the largest there is)
    if (h < (mostFree[d] as number))
      for (let w = 0; w < words; w++) {
        let m = ~(n.sat[n.so + w] as number) & (lastWord[w] as number);
        while (m !== 0) {
          const low = m & -m;
          m ^= low;
          const v = minFree[((w << 5) + 31 - Math.clz32(low)) * (G + 1) + d] as number;
          if (v > h) h = v;
        }
      }
    // each knapsack: the gain still needed, bought at each free group's best price per unit of
    // gain, up to the group's most gain (a relaxation of choosing one option per group)
    for (let i = 0; i < knap.length; i++) {
      const ks = knap[i] as (typeof knap)[number];
      let need = ks.need - (n.gained[n.go + i] as number);
      if (need <= 1e-9) continue;
      let s = 0;
      for (const g of ks.order) {
        if (g < d) continue;
        const take = Math.min(need, ks.most[g] as number);
        if (take <= 0) continue;
        s += take * (ks.ratio[g] as number);
        need -= take;
        if (need <= 1e-9) break;
      }
      if (s > h) h = s;
    }
    for (let i = 0; i < coverings.length; i++) {
      const need =
        (coverings[i] as (typeof coverings)[number]).atLeast - (n.cover[n.co + i] as number);
      if (need <= 0) continue;
      const free = coverFrom(i, d);
      let s = 0;
      for (let j = 0; j < need; j++) s += free[j] ?? Infinity;
      if (s > h) h = s;
    }
    return h;
  };
  // the groups where choosing none gains in some knapsack
  const noneGains = costs.map((_, g) => knap.some((ks) => (ks.none[g] as number) !== 0));
  // each choice's gain in each knapsack, laid flat: (choice k of group g, knapsack i) at
  // (choiceAt[g] + k + 1) · K + i, none's gain at k = −1
  const { at: choiceAt, width: choices } = choiceOffsets(costs);
  const gainAt = new Float64Array(Math.max(1, choices * knap.length));
  knap.forEach((ks, i) => {
    for (let g = 0; g < G; g++)
      for (let k = -1; k < (costs[g] as readonly number[]).length; k++)
        gainAt[((choiceAt[g] as number) + k + 1) * knap.length + i] =
          k < 0 ? (ks.none[g] as number) : (ks.gain[g]![k] as number);
  });
  // the choice of group g that counts for some covering
  const countsFor = costs.map((list, g) =>
    list.map((_, k) => coverings.some((cv) => cv.ok[g]?.[k])),
  );
  const K = knap.length;
  const V = coverings.length;
  const nodes_ = sharedStore.reset(words, V, K);
  // the root: no choice, no cut met, nothing covered or gained
  nodes_.add(0, -1, -1, 0, nodes_.newSat(), nodes_.newCover(), nodes_.newGained());
  nodes_.satPool.fill(0, 0, words);
  nodes_.coverPool.fill(0, 0, V);
  nodes_.gainedPool.fill(0, 0, K);
  const view: NodeView = {
    depth: 0,
    sat: nodes_.satPool,
    so: 0,
    cover: nodes_.coverPool,
    co: 0,
    gained: nodes_.gainedPool,
    go: 0,
  };
  // a child's own arrays, before it is kept (a child sharing its parent's is given its parent's)
  const childSat = new Uint32Array(words);
  const childCover = new Float64Array(V);
  const childGained = new Float64Array(K);
  /**
   * A choice meeting every row (not the cheapest: the next one to run when the node budget ends
   * first), or null: from the Lagrangian relaxation's choice, greedily the change that brings the
   * rows nearest to met per euro, then each choice dropped to none when the rows stay met.
   */
  const feasible = (): { choice: number[]; cost: number } | null => {
    const x: number[] = costs.map((list, g) => {
      let least = Infinity;
      let pick = -1;
      const per = lagRows[g] as { r: Int32Array; w: Float64Array }[];
      for (let k = -1; k < list.length; k++) {
        let v = k < 0 ? 0 : (list[k] as number);
        const e = per[k + 1] as { r: Int32Array; w: Float64Array };
        for (let i = 0; i < e.r.length; i++) v -= e.w[i] as number;
        if (v < least) {
          least = v;
          pick = k;
        }
      }
      return pick;
    });
    const costOf = (g: number, k: number) => (k < 0 ? 0 : (costs[g]![k] as number));
    const lhs = rows.map((row) =>
      row.a.reduce((sum, ag, g) => sum + (ag[(x[g] as number) + 1] as number), 0),
    );
    const met = () => rows.every((row, r) => (lhs[r] as number) >= row.rhs - 1e-9);
    // per group and choice, the rows it counts for (ascending) and its entries there; a row
    // neither of two choices counts for adds exactly nothing to a move's score or to its
    // left-hand side
    const nz: Int32Array[][] = [];
    const nzA: Float64Array[][] = [];
    for (let g = 0; g < G; g++) {
      const K = (costs[g] as readonly number[]).length + 1;
      const rs: number[][] = Array.from({ length: K }, () => []);
      const as: number[][] = Array.from({ length: K }, () => []);
      for (let r = 0; r < rows.length; r++) {
        const ag = (rows[r] as Row).a[g] as Float64Array;
        for (let j = 0; j < K; j++)
          if (ag[j] !== 0) {
            (rs[j] as number[]).push(r);
            (as[j] as number[]).push(ag[j] as number);
          }
      }
      nz.push(rs.map((l) => Int32Array.from(l)));
      nzA.push(as.map((l) => Float64Array.from(l)));
    }
    const rhsOf = Float64Array.from(rows, (row) => row.rhs);
    const union = (a: Int32Array, b: Int32Array): Int32Array => {
      const out = new Int32Array(a.length + b.length);
      let i = 0;
      let j = 0;
      let n = 0;
      while (i < a.length || j < b.length) {
        const va = i < a.length ? (a[i] as number) : Infinity;
        const vb = j < b.length ? (b[j] as number) : Infinity;
        if (va <= vb) {
          out[n++] = va;
          i++;
          if (va === vb) j++;
        } else out[n++] = b[j++] as number;
      }
      return out.subarray(0, n);
    };
    const move = (g: number, k: number) => {
      const touched = union(
        nz[g]![k + 1] as Int32Array,
        nz[g]![(x[g] as number) + 1] as Int32Array,
      );
      for (let i = 0; i < touched.length; i++) {
        const r = touched[i] as number;
        const ag = (rows[r] as Row).a[g] as Float64Array;
        lhs[r] = (lhs[r] as number) + (ag[k + 1] as number) - (ag[(x[g] as number) + 1] as number);
      }
      x[g] = k;
    };
    for (let step = 0; step <= 2 * G && !met(); step++) {
      let pickG = -1;
      let pickK = 0;
      let pickQ = 0;
      for (let g = 0; g < G; g++) {
        const xg = x[g] as number;
        const rX = nz[g]![xg + 1] as Int32Array;
        const aX = nzA[g]![xg + 1] as Float64Array;
        const nX = rX.length;
        for (let k = -1; k < (costs[g] as readonly number[]).length; k++) {
          if (k === xg) continue;
          // the rows either choice counts for, ascending (the entry of a choice that does not
          // count is 0: now + a − 0 is now + a, and now + 0 − a is now − a, bit for bit)
          const rK = nz[g]![k + 1] as Int32Array;
          const aK = nzA[g]![k + 1] as Float64Array;
          const nK = rK.length;
          let score = 0;
          let i = 0;
          let j = 0;
          while (i < nK || j < nX) {
            const va = i < nK ? (rK[i] as number) : Infinity;
            const vb = j < nX ? (rX[j] as number) : Infinity;
            let r: number;
            let next: number;
            if (va === vb) {
              r = va;
              next = (lhs[r] as number) + (aK[i++] as number) - (aX[j++] as number);
            } else if (va < vb) {
              r = va;
              next = (lhs[r] as number) + (aK[i++] as number);
            } else {
              r = vb;
              next = (lhs[r] as number) - (aX[j++] as number);
            }
            const rhs = rhsOf[r] as number;
            score += (Math.min(rhs, next) - Math.min(rhs, lhs[r] as number)) / rhs;
          }
          if (score <= 1e-12) continue;
          const delta = costOf(g, k) - costOf(g, xg);
          const q = delta <= 0 ? 1e12 * score - delta : score / delta;
          if (pickG < 0 || q > pickQ) {
            pickG = g;
            pickK = k;
            pickQ = q;
          }
        }
      }
      if (pickG < 0) return null;
      move(pickG, pickK);
    }
    if (!met()) return null;
    const byCost = x.map((k, g) => ({ g, c: costOf(g, k) })).sort((a, b) => b.c - a.c || a.g - b.g);
    for (const { g } of byCost) {
      const k = x[g] as number;
      if (k < 0) continue;
      move(g, -1);
      if (!met()) move(g, k);
    }
    return { choice: x, cost: x.reduce((sum, k, g) => sum + costOf(g, k), 0) };
  };
  const rootView = (): NodeView => {
    view.depth = 0;
    view.sat = nodes_.satPool;
    view.so = 0;
    view.cover = nodes_.coverPool;
    view.co = 0;
    view.gained = nodes_.gainedPool;
    view.go = 0;
    return view;
  };
  const h0 = bound(rootView());
  if (h0 === Infinity) return { kind: 'infeasible', nodes: 0 };
  const heap = sharedHeap.reset();
  heap.push(0, h0);
  let nodes = 0;
  for (;;) {
    if (heap.size === 0) return { kind: 'infeasible', nodes };
    if (nodes >= cap) {
      const point = feasible();
      return {
        kind: 'capped',
        lowerBound: heap.peekKey(),
        nodes,
        ...(point ? { point: point.choice, pointCost: point.cost } : {}),
      };
    }
    const n = heap.pop();
    nodes++;
    const depth = nodes_.depth[n] as number;
    if (depth === G) {
      const choice: number[] = [];
      for (let x = n; (nodes_.parent[x] as number) >= 0; x = nodes_.parent[x] as number)
        choice.push(nodes_.k[x] as number);
      return { kind: 'solution', choice: choice.reverse(), cost: nodes_.cost[n] as number, nodes };
    }
    const list = costs[depth] as readonly number[];
    const cost = nodes_.cost[n] as number;
    const satAt = nodes_.satAt[n] as number;
    const coverAt = nodes_.coverAt[n] as number;
    const gainedAt = nodes_.gainedAt[n] as number;
    for (let k = -1; k < list.length; k++) {
      // (a child shares its parent's arrays where its choice changes nothing: none is written)
      const lm = (litMask[depth] as Uint32Array[])[k + 1] as Uint32Array;
      const satPool = nodes_.satPool;
      const so = satAt * words;
      let ownSat = false;
      for (let w = 0; w < words; w++) {
        const was = satPool[so + w] as number;
        childSat[w] = was | (lm[w] as number);
        if (((lm[w] as number) & ~was) !== 0) ownSat = true;
      }
      const ownCover = k >= 0 && (countsFor[depth]![k] as boolean);
      if (ownCover)
        for (let i = 0; i < V; i++)
          childCover[i] =
            (nodes_.coverPool[coverAt * V + i] as number) +
            ((coverings[i] as (typeof coverings)[number]).ok[depth]?.[k] ? 1 : 0);
      const ownGained = (k >= 0 || (noneGains[depth] as boolean)) && K > 0;
      if (ownGained) {
        const at = ((choiceAt[depth] as number) + k + 1) * K;
        const from = gainedAt * K;
        const pool = nodes_.gainedPool;
        for (let i = 0; i < K; i++)
          childGained[i] = (pool[from + i] as number) + (gainAt[at + i] as number);
      }
      view.depth = depth + 1;
      view.sat = ownSat ? childSat : satPool;
      view.so = ownSat ? 0 : so;
      view.cover = ownCover ? childCover : nodes_.coverPool;
      view.co = ownCover ? 0 : coverAt * V;
      view.gained = ownGained ? childGained : nodes_.gainedPool;
      view.go = ownGained ? 0 : gainedAt * K;
      const h = bound(view);
      if (h === Infinity) continue;
      const childCost = cost + (k < 0 ? 0 : (list[k] as number));
      const c = nodes_.add(
        depth + 1,
        k,
        n,
        childCost,
        ownSat ? nodes_.newSat(childSat) : satAt,
        ownCover ? nodes_.newCover(childCover) : coverAt,
        ownGained ? nodes_.newGained(childGained) : gainedAt,
      );
      heap.push(c, childCost + h);
    }
  }
}

/** A Q4Pa,conv state the works may reach: what it lets a combination save beyond S. */
export interface AirChoice {
  /** the state */
  criteria: Q4paCriteria;
  /** the most crossing into this state saves in the contexts measured, per figure */
  most: Record<Figure, number>;
  /** what crossing into it may save beyond S: `most` × (1 + AIR_MARGIN) */
  bonus: Record<Figure, number>;
  /** the state needs no crossing of the insulated-area majority (resp. the joints' half) */
  isoFree: boolean;
  jointFree: boolean;
}

/** The thresholds' rows: per option, the area it moves toward crossing; the area to move. */
export interface AirThresholds {
  choices: AirChoice[];
  rows: { gain: number[][]; need: number; kind: 'iso' | 'joint' }[];
}

const areasAlone = new WeakMap<Candidate, Q4paAreas>();
const isoBalance = (a: Q4paAreas) => a.insulated - a.bare;
const jointBalance = (a: Q4paAreas) => a.withJoint - a.without;
const sameCriteria = (a: Q4paCriteria, b: Q4paCriteria) =>
  a.isolation === b.isolation && a.joints === b.joints;

/**
 * The engine reads the air permeability (Q4Pa,conv, hence Hperm) from two majorities: walls and
 * ceilings insulated over more area than not, windows and doors with joints over half their area
 * (4_ventilation.js, `tv_q4pa_conv`). The option that tips one changes the whole dwelling's
 * leakage losses: what S (a sum of savings alone) cannot see. Per option, the area it moves is
 * read from the works applied (no engine run); what crossing into each reachable state saves is
 * measured by forcing that state's row (`Evaluator.withAirtightness`) on the DPE and on each
 * heating and ventilation option alone, the most of those × (1 + AIR_MARGIN). Null when no
 * threshold can be crossed (nothing changes for the master).
 */
export function airThresholds(
  evaluator: Evaluator,
  opts: readonly (readonly Candidate[])[],
  fixed: readonly Candidate[] = [],
): AirThresholds | null {
  if (typeof evaluator.airtightness !== 'function') return null;
  const base = evaluator.airtightness([]);
  const s0 = criteriaOf(base);
  const atFixed = fixed.length ? evaluator.airtightness(fixed) : base;
  const sF = criteriaOf(atFixed);
  const alone = (c: Candidate) => {
    let a = areasAlone.get(c);
    if (!a) areasAlone.set(c, (a = evaluator.airtightness([c])));
    return a;
  };
  // per option, what it moves toward each majority (never less than 0: a superset is sound)
  const iso = opts.map((list) =>
    list.map((c) => Math.max(0, isoBalance(alone(c)) - isoBalance(base))),
  );
  const joint = opts.map((list) =>
    list.map((c) => Math.max(0, jointBalance(alone(c)) - jointBalance(base))),
  );
  const most = (m: number[][]) => m.reduce((s, l) => s + Math.max(0, ...l), 0);
  const tIso = -isoBalance(atFixed);
  const tJoint = -jointBalance(atFixed);
  const windows = atFixed.withJoint + atFixed.without > 0;
  const isoReach = sF.isolation === '0' && most(iso) >= tIso;
  const jointReach = sF.joints === '0' && windows && most(joint) >= tJoint;
  const states: Q4paCriteria[] = [];
  for (const i of isoReach ? ['0', '1'] : [sF.isolation])
    for (const j of jointReach ? ['0', '1'] : [sF.joints])
      states.push({ isolation: i as '0' | '1', joints: j as '0' | '1' });
  if (states.length === 1 && sameCriteria(states[0] as Q4paCriteria, s0)) return null;
  // what each state saves beyond the DPE's own, in each context
  // the contexts: the DPE and its envelope with every element's strongest option (crossing saves
  // more on an insulated envelope: on 2387E0167911O 2,351 kWh/yr alone, 3,037 insulated), each
  // alone and with each generator, heating and ventilation option (the leakage losses weigh
  // differently with them)
  const envelope: Candidate[] = [];
  const installations: Candidate[] = [];
  for (const list of opts) {
    const ref = list[0]?.change.referenceId ?? '';
    if (/^(mur|plancher_haut|plancher_bas|baie_vitree|porte):/.test(ref)) {
      const strongest = [...list].sort((a, b) => a.single.after.ep - b.single.after.ep)[0];
      if (strongest) envelope.push(strongest);
    } else if (
      isGeneratorGroup(list) ||
      ref.startsWith('ventilation') ||
      ref.startsWith('installation_chauffage')
    )
      installations.push(...list);
  }
  const contexts: Candidate[][] = [[], envelope];
  for (const c of installations) contexts.push([c], [...envelope, c]);
  const saves = states.map(() => ({ ep: 0, ges: 0 }));
  for (const ctx of contexts) {
    const own = evaluator.withAirtightness(ctx, s0);
    if (!own) return null; // no ventilation follows the envelope: no threshold moves a figure
    states.forEach((st, i) => {
      if (sameCriteria(st, s0)) return;
      const o = evaluator.withAirtightness(ctx, st);
      if (!o) return;
      const b = saves[i] as Record<Figure, number>;
      for (const f of ['ep', 'ges'] as const) b[f] = Math.max(b[f], own.after[f] - o.after[f]);
    });
  }
  const choices = states.map((st, i) => ({
    criteria: st,
    most: saves[i] as Record<Figure, number>,
    bonus: {
      ep: (1 + AIR_MARGIN) * (saves[i] as Record<Figure, number>).ep,
      ges: (1 + AIR_MARGIN) * (saves[i] as Record<Figure, number>).ges,
    },
    isoFree: st.isolation === sF.isolation,
    jointFree: st.joints === sF.joints,
  }));
  const rows: AirThresholds['rows'] = [];
  // crossing needs the moved area above the threshold (≥: a superset, sound)
  if (isoReach) rows.push({ gain: iso, need: Math.max(tIso, 1e-3), kind: 'iso' });
  if (jointReach) rows.push({ gain: joint, need: Math.max(tJoint, 1e-3), kind: 'joint' });
  return { choices, rows };
}

const isGenerator = (c: Candidate, prefix: string) =>
  c.change.editableKey === 'ReplaceGEN' && c.change.referenceId.startsWith(prefix);
/** A heating installation's generator replaced (what F factors). */
export const isHeatingGenerator = (c: Candidate): boolean =>
  isGenerator(c, 'installation_chauffage');

/**
 * M0's pairs of choices compared, in a search over `groups` after `fixed` (`a`, `b`: an option of
 * group g, or null for no works); M0 holds nothing of the others:
 * - two options of a generator group with several options (a pellet boiler emits less than a
 *   heat pump alone, more once the envelope is insulated);
 * - a ventilation and none (a fan's electricity against the air-renewal losses it saves: with a
 *   heat pump those are worth a third as much primary energy);
 * - external and internal insulation of a wall, or a roof's variants (`familyOf`);
 * - a hot-water generator and none, where the search may replace a heating generator: a heat
 *   pump or boiler that takes over the hot water gives it back to the hot-water option chosen with
 *   it, which can do worse (on `2287E1473669Z` a dual-service heat pump and two walls reach D at
 *   15,976 kWh/yr; with an electric water heater as well, 18,108 kWh/yr, class E, though that
 *   heater alone saves 911 kWh/yr);
 * - internal insulation and none, where `inertiaMoves` (lining every wall inside changes the
 *   inertia class the DPE declares): one more wall lined inside can tip the class lighter and
 *   raise the heating need more than its own U saves (on `2378E0897918K` a small wall's internal
 *   insulation, 100 kWh/yr alone, takes a combination from C to D: GES 2,368 → 2,443 kg/yr).
 *   Unless the stronger side `a` belongs to a combination whose inertia class is still the DPE's
 *   own (`sameInertia`): every combination it covers lines a subset of its walls inside, and the
 *   class only gets lighter as walls are lined, so they all keep that class.
 */
export function comparedIn(
  groups: readonly (readonly Candidate[])[],
  fixed: readonly Candidate[] = [],
  inertiaMoves = false,
  /** false: the pairs compared before the last two exceptions were known (steering only) */
  sound = true,
): (g: number, a: Candidate | null, b: Candidate | null, sameInertia?: boolean) => boolean {
  const generator = groups.map((list) => isGeneratorGroup(list));
  const ventilation = groups.map(
    (list) => list[0]?.change.referenceId.startsWith('ventilation') ?? false,
  );
  const heatingReplaced =
    sound &&
    (groups.some((list) => list.some(isHeatingGenerator)) || fixed.some(isHeatingGenerator));
  const water = groups.map(
    (list) => heatingReplaced && list.some((c) => isGenerator(c, 'installation_ecs')),
  );
  const family = new Map<Candidate, string>();
  const familyOfCached = (c: Candidate) => {
    let v = family.get(c);
    if (v === undefined) family.set(c, (v = familyOf(c)));
    return v;
  };
  return (g, a, b, sameInertia = false) => {
    if (a === b) return true;
    if (generator[g] && a && b) return false;
    if ((ventilation[g] || water[g]) && (!a || !b)) return false;
    if (sound && inertiaMoves && ((!a && isInternal(b)) || (!b && !sameInertia && isInternal(a))))
      return false;
    return !(a && b && familyOfCached(a) !== familyOfCached(b));
  };
}

/** Internal insulation (a wall lined inside, a roof insulated under its rafters): lightens inertia. */
export function isInternal(c: Candidate | null): boolean {
  if (!c) return false;
  let v = internal.get(c);
  if (v === undefined) {
    const ref = parseReferenceId(c.change.referenceId);
    const row = ref && findOption(ref.category, c.change.editableKey, c.change.editableValue);
    internal.set(c, (v = !!row && isInternalInsulation(row.recipe)));
  }
  return v;
}
const internal = new WeakMap<Candidate, boolean>();

/**
 * Whether internal insulation can change the inertia class the DPE declares in this search: with
 * every group's internal option chosen (after `fixed`), against `fixed` alone (the class only gets
 * lighter as walls are lined: if all of them leave it, any of them does). False when the evaluator
 * cannot say (a test's).
 */
export function inertiaMovesIn(
  evaluator: Evaluator,
  groups: readonly (readonly Candidate[])[],
  fixed: readonly Candidate[] = [],
): boolean {
  if (typeof evaluator.inertia !== 'function') return false;
  const internal = groups.flatMap((list) => list.filter(isInternal).slice(0, 1));
  if (!internal.length) return false;
  const before = evaluator.inertia([...fixed]);
  const after = evaluator.inertia([...fixed, ...internal]);
  return before !== after && !(Number.isNaN(before) && Number.isNaN(after));
}

/**
 * What a lighter inertia class can save at most, per figure, on top of what the options save
 * alone: where lining walls inside moves the class the DPE declares (`inertiaMovesIn`), the
 * intermittence factor follows it (§8: I0 by inertia class), and on 26 corpus DPEs a lighter
 * class lowers the heating consumption (up to 2.9% of `2287E1730921H`'s primary energy): two
 * walls lined inside on `2336E3121993D` save 2.5 times the sum of what each saves alone
 * (`bench/search.mjs`'s probe on its variant), beyond S's margin. Measured on `fixed` (the
 * most heating consumption a combination keeps) with the class forced to each lighter one
 * (`Evaluator.withInertiaClass`, uncounted), the most saved, × (1 + AIR_MARGIN). 0 where the class
 * cannot move, where a lighter class saves nothing, or where the evaluator cannot say (a test's).
 */
export function inertiaAllowance(
  evaluator: Evaluator,
  fixed: readonly Candidate[],
  moves: boolean,
): Record<Figure, number> {
  const out = { ep: 0, ges: 0 };
  if (!moves || typeof evaluator.withInertiaClass !== 'function') return out;
  const cls = evaluator.inertia?.(fixed);
  if (!(typeof cls === 'number' && cls >= 1)) return out;
  const at = evaluator.measure(fixed).after;
  for (let c = cls + 1; c <= 4; c++) {
    const o = evaluator.withInertiaClass(fixed, c).after;
    for (const f of ['ep', 'ges'] as const) {
      const saved = at[f] - o[f];
      if (Number.isFinite(saved)) out[f] = Math.max(out[f], saved * (1 + AIR_MARGIN));
    }
  }
  return out;
}

/** The most inertia classes `inertiaStep` reads (no engine run each: the works copy's class). */
export const INERTIA_STEP_CHECKS = 2_000;

/**
 * The fewest internal options (`isInternal`, of distinct groups of `opts`) that, added to
 * `fixed`, move the inertia class `fixed` declares: a combination with fewer keeps `fixed`'s
 * class, and so gets no lighter class's saving (`inertiaAllowance`, counted in the final solve
 * only on the combinations with at least this many). Read by trying every set of one group's
 * internal option, then every set of two, … (each class read on a works copy, no engine run): the
 * first size where a set moves the class is the least, since every smaller set was tried. The
 * groups' internal options (ITI of several thicknesses) must each give the same class alone, else
 * 1. After `INERTIA_STEP_CHECKS` classes read: the size being tried (every smaller one was tried
 * whole). 2 on the bundled house; on the 26 corpus DPEs where a lighter class saves, 1 on 5, 2
 * on 9, 3 on 11, 4 on 1.
 */
export function inertiaStep(
  evaluator: Evaluator,
  opts: readonly (readonly Candidate[])[],
  fixed: readonly Candidate[],
): number {
  if (typeof evaluator.inertia !== 'function') return 1;
  const inertia = evaluator.inertia.bind(evaluator);
  const key = (cls: number) => (Number.isNaN(cls) ? 'NaN' : String(cls));
  const at = key(inertia([...fixed]));
  const reps: Candidate[] = [];
  for (const list of opts) {
    const internal = list.filter(isInternal);
    if (!internal.length) continue;
    const alone = new Set(internal.map((c) => key(inertia([...fixed, c]))));
    if (alone.size > 1) return 1;
    reps.push(internal[0] as Candidate);
  }
  const n = reps.length;
  let checks = 0;
  for (let k = 1; k <= n; k++) {
    // the k-sets of `reps` in lexicographic order of their indices
    const idx = Array.from({ length: k }, (_, i) => i);
    for (;;) {
      if (checks++ >= INERTIA_STEP_CHECKS) return k;
      if (key(inertia([...fixed, ...idx.map((i) => reps[i] as Candidate)])) !== at) return k;
      let j = k - 1;
      while (j >= 0 && idx[j] === n - k + j) j--;
      if (j < 0) break;
      idx[j] = (idx[j] as number) + 1;
      for (let q = j + 1; q < k; q++) idx[q] = (idx[q - 1] as number) + 1;
    }
  }
  // (no set moves it: the allowance is never reached)
  return n + 1;
}

/**
 * What share of a combination's heating a lighter inertia class can save at most. The heating
 * consumption is the need times the intermittence factor over the efficiencies (§9), the
 * intermittence factor I0 (by inertia class, emitter and regulation, §8) over a term of GV: a
 * lighter class scales the heating per kWh of need by the ratio of the I0s, whatever the works;
 * its need can only rise (its gains are used less, §6's α), so it saves at most that share of the
 * heating. Measured on `fixed` with each lighter class forced (the engine's heating final energy
 * per kWh of need; the same uncounted runs as `inertiaAllowance`), the most, × (1 + AIR_MARGIN)
 * for an efficiency that follows the load or an option that changes I0's row. A combination below
 * `limit` with a lighter class has its heating, and so everything, below `limit ÷ (1 − share)`
 * with its own: the lighter class saves at most `limit × share ÷ (1 − share)` (`lighterAtMost`).
 * Infinity where it cannot be measured.
 */
export function inertiaShare(
  evaluator: Evaluator,
  fixed: readonly Candidate[],
  moves: boolean,
): number {
  if (!moves || typeof evaluator.heatingPerNeedWithInertiaClass !== 'function') return Infinity;
  const cls = evaluator.inertia?.(fixed);
  if (!(typeof cls === 'number' && cls >= 1)) return Infinity;
  const at = evaluator.heatingPerNeedWithInertiaClass(fixed, cls);
  if (!(Number.isFinite(at) && at > 0)) return Infinity;
  let most = 0;
  for (let c = cls + 1; c <= 4; c++) {
    const lighter = evaluator.heatingPerNeedWithInertiaClass(fixed, c);
    if (!Number.isFinite(lighter)) return Infinity;
    most = Math.max(most, 1 - lighter / at);
  }
  return most * (1 + AIR_MARGIN);
}

/** The most a lighter class saves on a combination that gets below `limit`: see `inertiaShare`. */
export function lighterAtMost(limit: number, share: number): number {
  return share < 1 && Number.isFinite(limit) ? (limit * share) / (1 - share) : Infinity;
}

/**
 * S counted by generator pairs: a heating generator and a hot-water generator replaced together
 * can save far more than each alone (on `2395E2052253O`, an air-water heat pump and a heat-pump
 * water heater: 3,706 kWh/yr of primary energy against 2,327 alone, the boiler they replace did
 * both). Each heating generator's saving, for the knapsack, is raised to the most it adds to any
 * hot-water generator (its pair's saving less the hot-water generator's alone): then the sum over
 * a combination covers each pair's saving. One run per pair, not counted (`Evaluator.measure`).
 * Empty when the DPE has not both (or the evaluator cannot measure).
 */
export function generatorPairs(
  evaluator: Evaluator,
  groups: readonly (readonly Candidate[])[],
): Map<Candidate, Record<Figure, number>> {
  const out = new Map<Candidate, Record<Figure, number>>();
  if (typeof evaluator.measure !== 'function') return out;
  const all = [...new Set(groups.flat())];
  const heating = all.filter(isHeatingGenerator);
  const water = all.filter((c) => isGenerator(c, 'installation_ecs'));
  for (const h of heating) {
    const g: Record<Figure, number> = {
      ep: h.single.before.ep - h.single.after.ep,
      ges: h.single.before.ges - h.single.after.ges,
    };
    for (const w of water) {
      const both = evaluator.measure([h, w]).after;
      // (a pair the engine could not compute adds nothing: NaN would poison the knapsack)
      for (const f of ['ep', 'ges'] as const) {
        const added = w.single.after[f] - both[f];
        if (Number.isFinite(added)) g[f] = Math.max(g[f], added);
      }
    }
    out.set(h, g);
  }
  return out;
}

/** The works on the envelope: what they save is heating (and cooling) need. */
const ENVELOPE = ['mur:', 'plancher_bas:', 'plancher_haut:', 'baie_vitree:', 'porte:'];
export const isEnvelope = (c: Candidate): boolean =>
  ENVELOPE.some((p) => c.change.referenceId.startsWith(p));
/** Insulation of a wall, a floor or a roof: what it changes is its element's losses (and inertia). */
const OPAQUE = ['mur:', 'plancher_bas:', 'plancher_haut:'];
export const isOpaque = (c: Candidate): boolean =>
  OPAQUE.some((p) => c.change.referenceId.startsWith(p));

/**
 * The starting margin of A1 on the envelope's losses (docs "The rows on the envelope's losses"):
 * what a combination takes off them is at most (1 + GV_MARGIN) × what its choices take off
 * alone, raised on a DPE where a run the search has seen shows more (then plus CHECK_SLACK).
 */
export const GV_MARGIN = 0.02;

/**
 * The margin of F on the measured factor: ρ_h × (1 + FACTOR_MARGIN) (docs "The factored
 * knapsack"), raised on a DPE where a run the search has seen shows more.
 */
export const FACTOR_MARGIN = 0.1;

/**
 * The runs' rows' solves (docs "The runs' rows"): at most this many more solves of the proof's
 * master in a last solve, each with the `Y_PER_ROUND` rows its answer violates most added.
 */
export const Y_ROUNDS = 8;
export const Y_PER_ROUND = 10;
/**
 * The rows in the answer's world (docs "The rows in the answer's world"): at most this many more
 * rounds of the last solve per search, each measured by one uncounted run per choice its answer
 * does not cover.
 */
export const WORLD_ROWS = 24;

/**
 * F, the factored knapsack's factors: for each option h of each replaceable heating generator
 * (an installation's), ρ_h = what the strongest envelope package saves on primary energy once
 * h is in place (the other installations keeping theirs), ÷ what it saves with the DPE's own
 * generators (uncounted runs: the package, the package with each h; `Evaluator.measure`). A heat
 * pump turns each kWh of need saved into fewer kWh of primary energy than a boiler: on top of it,
 * the envelope saves less (ρ < 1), which S's sum of savings alone does not see. Empty when the
 * DPE has no heating generator to replace, a fixed heating generator, no envelope option, or the
 * evaluator cannot measure.
 */
export function heatingFactors(
  evaluator: Evaluator,
  groups: readonly (readonly Candidate[])[],
  fixed: readonly Candidate[] = [],
  f: Figure = 'ep',
): Map<Candidate, number> {
  const out = new Map<Candidate, number>();
  if (typeof evaluator.measure !== 'function') return out;
  if (fixed.some(isHeatingGenerator)) return out;
  const heat = groups.filter((g) => g.some(isHeatingGenerator));
  if (!heat.length) return out;
  const envelope = groups
    .filter((g) => g.length > 0 && g.every(isEnvelope))
    .map((g) => g.reduce((a, b) => (b.single.after.ep < a.single.after.ep ? b : a)));
  const first = envelope[0];
  if (!first) return out;
  const savedAlone = first.single.before[f] - evaluator.measure(envelope).after[f];
  if (!(savedAlone > 0)) return out;
  for (const h of heat.flat()) {
    if (!isHeatingGenerator(h)) continue;
    const withH = evaluator.measure([h, ...envelope]).after[f];
    const rho = (h.single.after[f] - withH) / savedAlone;
    // (a run the engine could not compute gives no factor: h keeps S alone)
    if (Number.isFinite(rho)) out.set(h, Math.max(0, rho));
  }
  return out;
}

/**
 * F's rows hold for a combination holding h where every other heating generator it holds
 * makes the envelope worth no more than the DPE's own (a factor of at most 1): what it saves is
 * then at most what h's row counts. The other generators of a combination F does not cover: those
 * with a factor above 1 or none (their row is met by them).
 */
export function factorCovers(factors: ReadonlyMap<Candidate, number>, c: Candidate): boolean {
  return (factors.get(c) ?? Infinity) <= 1;
}

/**
 * GES's S does not count a combination holding a replaced heating generator (its row is met by
 * it): see `SUBADDITIVITY_MARGIN`.
 */
export const gesExempt = (c: Candidate): boolean => isHeatingGenerator(c);

/**
 * Where `gesChecks` (before any run) show S on GES broken by more than this (saved more than
 * 1.5 times the sum of the savings alone, beyond the thresholds' allowance), the DPE gets no S on
 * GES: its need splits between generators by its level (`gesChecks`), and runs cannot say how far.
 * On the corpus only 2293E1394343F (0.914; the next 0.167).
 */
export const GES_DISTRUST = 0.5;

/**
 * Combinations S on GES is checked on before any run (uncounted, `Evaluator.measure`): the
 * strongest envelope package on GES, alone, with each other option that is not exempt (a
 * ventilation, a hot-water generator, …), and with the strongest of each such group. Where the
 * need of a heating installation splits between generators by its level (a collective base +
 * appoint installation: what the envelope saves moves the need between them), what the
 * envelope saves on GES grows faster than its parts (on 2293E1394343F 1.9 to 2.2 times the sum
 * of the savings alone): these runs show it, and the margin is raised to what they need.
 */
export function gesChecks(
  evaluator: Evaluator,
  groups: readonly (readonly Candidate[])[],
): Candidate[][] {
  if (typeof evaluator.measure !== 'function') return [];
  const strongest = (g: readonly Candidate[]) =>
    g.reduce((a, b) => (b.single.after.ges < a.single.after.ges ? b : a));
  const nonEmpty = groups.filter((g) => g.length > 0);
  const envelope = nonEmpty.filter((g) => g.every(isEnvelope)).map(strongest);
  const others = nonEmpty
    .filter((g) => !g.every(isEnvelope))
    .map((g) => g.filter((c) => !isEnvelope(c) && !gesExempt(c)))
    .filter((g) => g.length > 0);
  if (!envelope.length) return [];
  const out: Candidate[][] = [envelope];
  for (const g of others) for (const c of g) out.push([...envelope, c]);
  if (others.length > 1) out.push([...envelope, ...others.map(strongest)]);
  return out;
}

/**
 * The cheapest combination of `query.groups` (with `fixed`) that reaches the class and meets the
 * constraints, proved so under M0, or the best found and a proven lower bound when a budget ends.
 * Engine runs go through `evaluator` (memoised, counted against its budget).
 */
export function cheapestProved(evaluator: Evaluator, query: ProofQuery): ProofAnswer {
  const fixed = query.fixed ?? [];
  const fixedCost = fixed.reduce((s, c) => s + c.cout, 0);
  const full = query.groups.filter((g) => g.length > 0);
  const allowed = query.allowed;
  // the groups' options the search may choose, cheapest first; the full group stays the
  // reference for comparing choices (a point may hold an option the query does not allow)
  const opts = full.map((g) =>
    [...(allowed ? g.filter(allowed) : g)].sort((a, b) => a.cout - b.cout),
  );
  const G = full.length;
  const inertiaMoves = inertiaMovesIn(evaluator, full, fixed);
  const compared = comparedIn(full, fixed, inertiaMoves);
  // with `tunedSteering`, the relation the first searches' runs were tuned on, for the steering
  // master, the predicted search and the lifts only: their runs stay what they were, the bound
  // rests on the proof's cuts (`compared`)
  const steerCompared = comparedIn(full, fixed, inertiaMoves, false);
  const relationsDiffer =
    query.tunedSteering === true &&
    full.some((list, g) =>
      [null, ...list].some((a) =>
        [null, ...list].some((b) => compared(g, a, b) !== steerCompared(g, a, b)),
      ),
    );
  // (where lining walls inside can move the inertia class: whether a point keeps the DPE's own)
  const inertia0 = inertiaMoves ? evaluator.inertia?.(fixed) : undefined;
  const keepsInertia = (y: Point): boolean =>
    !inertiaMoves ||
    !y.some(isInternal) ||
    evaluator.inertia?.([...fixed, ...y.filter((c): c is Candidate => c !== null)]) === inertia0;
  const costs = opts.map((list) => list.map((c) => c.cout));
  const coverings = (query.constraints ?? []).map((cv) => ({
    ok: opts.map((list) => list.map((c) => cv.among(c))),
    atLeast: cv.atLeast,
    among: cv.among,
  }));
  const fixedCover = coverings.map((cv) => fixed.filter(cv.among).length);
  const masterCoverings = coverings.map((cv, i) => ({
    ok: cv.ok,
    atLeast: cv.atLeast - (fixedCover[i] as number),
  }));
  const meets = (items: readonly Candidate[]) =>
    coverings.every((cv) => items.filter(cv.among).length >= cv.atLeast);

  // the goal
  const sample = full[0]?.[0] ?? fixed[0];
  const initial = sample ? sample.single.classesBefore.dpe : 'G';
  let target: ClassLetter = query.target ?? initial;
  if (query.gainAtLeast !== undefined) {
    const i = Math.max(0, classIndex(initial) - query.gainAtLeast);
    if (i < classIndex(target))
      target = (['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const)[i] as ClassLetter;
  }
  const t = classIndex(target);
  const reaches = (ev: Evaluated) => classIndex(ev.o.classesAfter.dpe) <= t;
  const misses = (ev: Evaluated, f: Figure) =>
    classIndex(f === 'ep' ? ev.o.classesAfter.energy : ev.o.classesAfter.ges) > t;

  // where each option sits: group and index in `full` / `opts`
  const where = new Map<Candidate, { g: number; k: number }>();
  full.forEach((list, g) => list.forEach((c) => where.set(c, { g, k: opts[g]!.indexOf(c) })));
  const byChange = new Map<string, Candidate>();
  for (const list of full) for (const c of list) byChange.set(changeKey(c), c);

  const aloneOf = (g: number, c: Candidate | null, f: Figure): number =>
    c ? c.single.after[f] : (full[g]![0] as Candidate).single.before[f];
  /**
   * M0's relation: choice a at least as strong as b on figure f, in group g (`sameInertia`: a is
   * the choice of a point that keeps the DPE's inertia class)
   */
  const atLeastAsStrong = (
    g: number,
    a: Candidate | null,
    b: Candidate | null,
    f: Figure,
    sameInertia = false,
  ) => a === b || (compared(g, a, b, sameInertia) && aloneOf(g, a, f) <= aloneOf(g, b, f));
  /**
   * The relation the lifts use: the tuned one (`tunedSteering`), else `atLeastAsStrong` without
   * `sameInertia` (where lining walls inside can move the inertia class, no wall is lined inside
   * to lift a point: its cut would cover less, not more)
   */
  const steersAbove = (g: number, a: Candidate | null, b: Candidate | null, f: Figure) =>
    relationsDiffer
      ? a === b || (steerCompared(g, a, b) && aloneOf(g, a, f) <= aloneOf(g, b, f))
      : atLeastAsStrong(g, a, b, f);
  /**
   * The choices of group g a cut from a point choosing `yg` leaves (bit k + 1: choice k, −1 none),
   * per relation: made once per group, choice, figure and relation (a search learns thousands of
   * cuts over the same few choices).
   */
  const maskTables = new Map<string, Map<Candidate | null, number>[]>();
  const maskOf = (g: number, yg: Candidate | null, f: Figure | null, relation: string): number => {
    const name = `${f}|${relation}`;
    let table = maskTables.get(name);
    if (!table) maskTables.set(name, (table = opts.map(() => new Map())));
    const byChoice = table[g] as Map<Candidate | null, number>;
    let m = byChoice.get(yg);
    if (m === undefined) {
      m = 0;
      const list = opts[g] as Candidate[];
      for (let k = -1; k < list.length; k++) {
        const c = k < 0 ? null : (list[k] as Candidate);
        // f null: a no-good (the point itself only)
        const covered = !f
          ? yg === c
          : relation === 'steer'
            ? steersAbove(g, yg, c, f)
            : atLeastAsStrong(g, yg, c, f, relation === 'same');
        if (!covered) m |= 1 << (k + 1);
      }
      byChoice.set(yg, m);
    }
    return m;
  };
  const cutOf = (y: Point, f: Figure | null, steering = false): Cut => {
    const relation = steering ? 'steer' : f !== null && keepsInertia(y) ? 'same' : 'plain';
    return { masks: opts.map((_, g) => maskOf(g, y[g] ?? null, f, relation)) };
  };
  // the proof's cuts, and the steering's (the same list where the relations agree)
  const cuts: Cut[] = [];
  const steerCuts: Cut[] = relationsDiffer ? [] : cuts;
  /** adds a cut to a list unless one already implies it; drops those it implies */
  const addTo = (list: Cut[], cut: Cut) => {
    const subset = (a: Cut, b: Cut) => a.masks.every((m, g) => (m & ~(b.masks[g] as number)) === 0);
    if (list.some((c) => subset(c, cut))) return;
    for (let i = list.length - 1; i >= 0; i--) if (subset(cut, list[i] as Cut)) list.splice(i, 1);
    list.push(cut);
  };
  const addCut = (y: Point, f: Figure | null) => {
    addTo(cuts, cutOf(y, f));
    if (relationsDiffer) addTo(steerCuts, cutOf(y, f, true));
  };

  // the least figure seen in a run that misses the class on that figure (the class is a
  // nondecreasing function of each figure: reaching needs less than this)
  const missAt: Record<Figure, number> = { ep: Infinity, ges: Infinity };
  let best: Evaluated | null = null;
  const consider = (ev: Evaluated, items: readonly Candidate[]) => {
    if (reaches(ev) && meets([...fixed, ...items]) && (!best || ev.cout < best.cout)) best = ev;
  };
  /** learns from a run: a better answer, or the cuts of the figures it misses */
  // every run the search sees, for checking S on it (`margins`)
  const observed: { items: Candidate[]; ev: Evaluated }[] = [];
  const learn = (y: Point, ev: Evaluated) => {
    const items = y.filter((c): c is Candidate => c !== null);
    observed.push({ items, ev });
    if (reaches(ev)) return consider(ev, items);
    let any = false;
    for (const f of ['ep', 'ges'] as const)
      if (misses(ev, f)) {
        missAt[f] = Math.min(missAt[f], ev.o.after[f]);
        addCut(y, f);
        any = true;
      }
    if (!any) addCut(y, null);
  };
  const pointOf = (ev: Evaluated): Point | null => {
    const y: Point = new Array<Candidate | null>(G).fill(null);
    let fixedSeen = 0;
    for (const c of ev.items) {
      if (fixed.includes(c)) {
        fixedSeen++;
        continue;
      }
      const own = byChange.get(changeKey(c));
      const at = own && where.get(own);
      if (!at || y[at.g]) return null;
      y[at.g] = own;
    }
    return fixedSeen === fixed.length ? y : null;
  };
  const run = (y: Point): Evaluated => {
    const items = y.filter((c): c is Candidate => c !== null);
    const ev = evaluator.evaluate(items, fixed);
    learn(y, ev);
    return ev;
  };

  // free cuts: every combination already run in this frame with the same fixed works
  for (const source of [evaluator.evaluated, query.known ?? []])
    for (const ev of source) {
      const y = pointOf(ev);
      if (y) learn(y, ev);
    }
  if (query.incumbent) {
    const y: Point = new Array<Candidate | null>(G).fill(null);
    let ok = true;
    for (const c of query.incumbent) {
      const at = where.get(c);
      if (!at || y[at.g] || (allowed && !allowed(c))) ok = false;
      else y[at.g] = c;
    }
    if (ok && evaluator.left > 0) run(y);
  }

  /**
   * Lifts a point that misses on `f`: groups set to a stronger choice, cheapest cut options first,
   * by halves (one run per batch tried), as long as the run still misses on `f`.
   */
  const lift = (start: Point, f: Figure) => {
    if (query.lifts === false) return;
    let y = start;
    // the choice a group is best lifted to: the strongest (or tied), leaving the costliest choices
    // outside what it covers
    const target = (g: number, yg: Candidate | null) => {
      let pick = yg;
      let pickRest = rest(g, yg);
      for (const c of opts[g] as Candidate[]) {
        if (!steersAbove(g, c, yg, f)) continue;
        const r = rest(g, c);
        if (r > pickRest || (r === pickRest && aloneOf(g, c, f) < aloneOf(g, pick, f))) {
          pick = c;
          pickRest = r;
        }
      }
      return pick;
    };
    // the least cost of a choice the group's choice does not cover (Infinity: covers them all)
    function rest(g: number, yg: Candidate | null): number {
      let least = Infinity;
      for (const c of [null, ...(opts[g] as Candidate[])])
        if (!steersAbove(g, yg, c, f)) least = Math.min(least, c ? c.cout : 0);
      return least;
    }
    const liftable: { g: number; to: Candidate | null; rest: number }[] = [];
    for (let g = 0; g < G; g++) {
      const to = target(g, y[g] ?? null);
      if (to !== (y[g] ?? null)) liftable.push({ g, to, rest: rest(g, y[g] ?? null) });
    }
    liftable.sort((a, b) => a.rest - b.rest || a.g - b.g);
    const tryLift = (batch: typeof liftable): void => {
      if (!batch.length || evaluator.left <= 0) return;
      const next = [...y];
      for (const l of batch) next[l.g] = l.to;
      const ev = run(next);
      if (misses(ev, f)) {
        y = next;
        return;
      }
      if (batch.length === 1) return;
      const half = Math.ceil(batch.length / 2);
      tryLift(batch.slice(0, half));
      tryLift(batch.slice(half));
    };
    tryLift(liftable);
  };

  const perSolve = query.masterNodes ?? MASTER_NODES;
  let iterations = 0;
  let masterNodes = 0;
  // (the bound with the rows in the answers' worlds, `withYRows`: reported, never read by the search)
  let worldLb = -Infinity;
  const answer = (exact: boolean, lowerBound: number): ProofAnswer => {
    const cost = best ? (best as Evaluated).cout : Infinity;
    return {
      best,
      exact,
      lowerBound,
      finalBound: Math.max(lowerBound, Math.min(worldLb, cost)),
      target,
      iterations,
      masterNodes,
    };
  };
  // sub-additivity (S): what a combination saves on a figure is at most (1 + SUBADDITIVITY_MARGIN)
  // times the sum of what its options save alone; so reaching needs that sum above this
  const base0 = sample ? sample.single.before : undefined;
  // (what a lighter inertia class may save beyond S, for the proof's knapsacks)
  const inertiaMost = query.predict
    ? { ep: 0, ges: 0 }
    : inertiaAllowance(evaluator, fixed, inertiaMoves);
  // (what share of the heating it may save: measured once, for the final solve)
  let shareKept: number | undefined;
  const lighterShare = (): number =>
    (shareKept ??=
      inertiaMost.ep > 0 || inertiaMost.ges > 0
        ? inertiaShare(evaluator, fixed, inertiaMoves)
        : Infinity);
  const plainPredict = query.predict && query.thresholds === false;
  const pairs = plainPredict
    ? new Map<Candidate, Record<Figure, number>>()
    : generatorPairs(evaluator, [...opts, fixed]);
  const aloneGain = (c: Candidate, f: Figure) => c.single.before[f] - c.single.after[f];
  // the proof's gains count generator pairs; the steering master's (`plain`) are as before
  const gainOf = (c: Candidate, f: Figure, plain = false) =>
    (plain ? undefined : pairs.get(c)?.[f]) ?? aloneGain(c, f);
  // the Q4Pa,conv thresholds: a first group of the master chooses the state the combination
  // reaches; a state past a threshold adds what crossing it saves at most to the knapsacks and
  // asks the options to move the area that crosses it (docs "The Q4Pa,conv thresholds")
  const air = plainPredict ? null : airThresholds(evaluator, opts, fixed);
  // F: each heating generator's factor on what the envelope saves (docs "The factored knapsack")
  const factors = plainPredict
    ? new Map<Candidate, number>()
    : heatingFactors(evaluator, full, fixed);
  // F on GES: each heating generator's factor on what the envelope saves on GES (a heat pump
  // burns no gas: the envelope saves less GES on top of it), for S on GES's last solve
  const factorsGes =
    plainPredict || query.predict
      ? new Map<Candidate, number>()
      : heatingFactors(evaluator, full, fixed, 'ges');
  const steered = !!air || pairs.size > 0;
  // S and the thresholds' allowance checked on every run this search has seen: a proof never
  // rests on a margin one of them contradicts (docs "Checked on its own runs")
  let checked = 0;
  let worstS = 0;
  const crossingRuns: { saved: number; sum: number; most: number }[] = [];
  // the runs with a heating generator F has a factor for: what they save, and their sums
  interface FactorRun {
    h: Candidate;
    saved: number;
    gen: number;
    env: number;
    other: number;
    most: number;
  }
  const factorRuns: FactorRun[] = [];
  const factorRunsGes: FactorRun[] = [];
  // GES: S with no replaced heating generator, checked on the search's runs and on `gesChecks`
  // (measured once, uncounted)
  let worstSGes = 0;
  const crossingRunsGes: { saved: number; sum: number; most: number }[] = [];
  const gesFixedExempt = fixed.some(gesExempt);
  const checkGes = (all: readonly Candidate[], after: number) => {
    if (!base0 || gesFixedExempt || all.some(gesExempt)) return;
    const sum = all.reduce((t, c) => t + gainOf(c, 'ges'), 0);
    if (!(sum > 0)) return;
    const saved = base0.ges - after;
    const st = air ? criteriaOf(evaluator.airtightness(all)) : null;
    const choice = st && air?.choices.find((ch) => sameCriteria(ch.criteria, st));
    if (choice && choice.most.ges > 0) crossingRunsGes.push({ saved, sum, most: choice.most.ges });
    else worstSGes = Math.max(worstSGes, saved / sum - 1);
  };
  if (!plainPredict && !query.predict && base0 && !gesFixedExempt)
    for (const items of gesChecks(evaluator, opts)) {
      const after = evaluator.measure(items).after.ges;
      if (Number.isFinite(after)) checkGes([...fixed, ...items], after);
    }
  // (checks that show S on GES broken by more than GES_DISTRUST: no GES row on this DPE)
  const gesTrusted = worstSGes <= GES_DISTRUST;
  // (the runs' rows on GES only where those checks hold S on GES and the thresholds' allowance at
  // their own margins: beyond a run, a saving that grows faster than its parts grows further)
  const gesRowsTrusted =
    gesTrusted &&
    worstSGes <= (SUBADDITIVITY_MARGIN.ges ?? 0) &&
    crossingRunsGes.every(
      (r) => r.saved - (1 + (SUBADDITIVITY_MARGIN.ges ?? 0)) * r.sum <= r.most * (1 + AIR_MARGIN),
    );
  interface Margins {
    s: number;
    air: number;
    rho: Map<Candidate, number>;
    sGes: number;
    airGes: number;
    rhoGes: Map<Candidate, number>;
  }
  // (they change only with the runs seen: kept until one more is)
  let marginsAt = -1;
  let marginsKept: Margins | undefined;
  const margins = (): Margins => {
    if (marginsKept && marginsAt === observed.length) return marginsKept;
    marginsAt = observed.length;
    return (marginsKept = measureMargins());
  };
  const measureMargins = (): Margins => {
    const sGlobal = SUBADDITIVITY_MARGIN.ep ?? 0;
    for (; base0 && checked < observed.length; checked++) {
      const { items, ev } = observed[checked] as (typeof observed)[number];
      const all = [...fixed, ...items];
      checkGes(all, ev.o.after.ges);
      const sum = all.reduce((t, c) => t + gainOf(c, 'ep'), 0);
      if (!(sum > 0)) continue;
      const saved = base0.ep - ev.o.after.ep;
      const st = air ? criteriaOf(evaluator.airtightness(all)) : null;
      const choice = st && air?.choices.find((ch) => sameCriteria(ch.criteria, st));
      if (choice && choice.most.ep > 0) crossingRuns.push({ saved, sum, most: choice.most.ep });
      else worstS = Math.max(worstS, saved / sum - 1);
      const heatIn = all.filter(isHeatingGenerator);
      // (F, on energy and on GES: each heating generator's run, for its factor's check)
      for (const [f, fs, runs] of [
        ['ep', factors, factorRuns],
        ['ges', factorsGes, factorRunsGes],
      ] as const)
        for (const h of heatIn) {
          if (!fs.has(h) || heatIn.some((c) => c !== h && !factorCovers(fs, c))) continue;
          const env = all.filter(isEnvelope).reduce((t, c) => t + gainOf(c, f), 0);
          const gen = gainOf(h, f);
          const total = all.reduce((t, c) => t + gainOf(c, f), 0);
          if (env > 0)
            runs.push({
              h,
              saved: base0[f] - ev.o.after[f],
              gen,
              env,
              other: total - env - gen,
              most: choice && choice.most[f] > 0 ? choice.most[f] : 0,
            });
        }
    }
    const sMargin = worstS > sGlobal ? worstS + CHECK_SLACK : sGlobal;
    let airScale = 1 + AIR_MARGIN;
    for (const r of crossingRuns) {
      const needed = (r.saved - (1 + sMargin) * r.sum) / r.most;
      if (needed > airScale) airScale = needed + CHECK_SLACK;
    }
    const rho = checkedFactors(factors, factorRuns, sMargin, airScale);
    const sGes =
      worstSGes > (SUBADDITIVITY_MARGIN.ges ?? 0)
        ? worstSGes + CHECK_SLACK
        : (SUBADDITIVITY_MARGIN.ges ?? 0);
    let airGes = 1 + AIR_MARGIN;
    for (const r of crossingRunsGes) {
      const needed = (r.saved - (1 + sGes) * r.sum) / r.most;
      if (needed > airGes) airGes = needed + CHECK_SLACK;
    }
    const rhoGes = checkedFactors(factorsGes, factorRunsGes, sGes, airGes);
    return { s: sMargin, air: airScale, rho, sGes, airGes, rhoGes };
  };
  /** each factor with its margin, raised where a run shows more (then plus CHECK_SLACK) */
  function checkedFactors(
    fs: ReadonlyMap<Candidate, number>,
    runs: readonly FactorRun[],
    margin: number,
    airScale: number,
  ): Map<Candidate, number> {
    const out = new Map<Candidate, number>();
    for (const [h, r] of fs) out.set(h, r * (1 + FACTOR_MARGIN));
    for (const r of runs) {
      const needed = ((r.saved - airScale * r.most) / (1 + margin) - r.gen - r.other) / r.env;
      if (needed > (out.get(r.h) as number)) out.set(r.h, needed + CHECK_SLACK);
    }
    return out;
  }
  /**
   * The runs' rows (docs "The runs' rows"): a run Y that misses on energy, and per group the
   * gain alone of each choice Y's choice does not cover (M0's relation, as Y's cut; 0 for those
   * it covers). A combination X saves at most what Y saves plus (1 + margin) × the gains alone of
   * its choices Y's do not cover (plus the thresholds' allowance): so reaching asks of those
   * gains `(ep(Y) − missAt.ep − lighter) ÷ (1 + margin)`. `margin` is S's, raised where a run the
   * search has seen shows more against this Y (then plus CHECK_SLACK; Infinity: no row).
   */
  interface YRow {
    /** the figure Y misses on, and Y's value of it */
    f: Figure;
    atY: number;
    y: Point;
    /** per group, the cut's mask of Y's choice (bit k + 1: choice k not covered) */
    masks: number[];
    /**
     * per group and choice, what it counts in the row: for a runs' row made when first asked
     * (`rowGain`: only the rows a solve takes need them; every other read is `gainIn`), for a
     * row in Y's world its own
     */
    gain?: number[][];
    /**
     * per group, the gain of choosing none: 0, or where Y's choice is not compared with none (a
     * ventilation, a hot-water generator: M0 does not say removing it saves no more) what meets
     * the row, as does every choice there Y's does not cover
     */
    none: number[];
    /** that gain (more than the row can ask: f(Y) + 1) */
    meets: number;
    margin: number;
    checkedAt: number;
    /** the thresholds Y has crossed (`crossedBits`; 0 without thresholds) */
    crossed: number;
    /** on GES, Y's heating generators (each with F on GES's factor at most 1) */
    heat: Candidate[];
    /**
     * a row in Y's world (`worldRow`): `gain` holds what each choice saves in Y's place (or
     * `meets`), not its gain alone
     */
    world?: boolean;
    /**
     * a row on the envelope's losses (`gvRows`): Y's losses and what its choices outside the
     * opaque groups (and the fixed works) take off them alone; the opaque groups' choices count
     * what each takes off alone, the others 0 where Y's covers them, else `meets`
     */
    gv?: { q: number; others: number; items: Candidate[]; valid?: boolean };
  }
  const yRounds = query.runsRows ?? Y_ROUNDS;
  const yRowsKept: YRow[] = [];
  let yRowsAt = 0;
  let yChosen: readonly YRow[] = [];
  /**
   * what X's choice c of group g counts in Y's row: its gain alone where Y's does not cover it (the
   * row's mask; a choice outside the allowed options compared directly)
   */
  const yGain = (r: YRow, g: number, c: Candidate): number => {
    const k = where.get(c)?.k ?? -1;
    const covered =
      k >= 0
        ? ((r.masks[g] as number) & (1 << (k + 1))) === 0
        : atLeastAsStrong(g, r.y[g] ?? null, c, r.f, keepsInertia(r.y));
    if (covered) return 0;
    if (r.world) return k >= 0 ? (r.gain![g]![k] as number) : r.meets;
    return (r.none[g] as number) > 0 || yMeets(r.f, c) ? r.meets : Math.max(0, gainOf(c, r.f));
  };
  /**
   * on GES, a heating generator Y's choice does not cover meets the row: S on GES is not assumed
   * where the fuel changes (`gesExempt`); Y's own make what the envelope saves worth no more GES
   * than the DPE's (F on GES's factor at most 1)
   */
  const yMeets = (f: Figure, c: Candidate): boolean => f === 'ges' && gesExempt(c);
  // the rows on the envelope's losses (docs "The rows on the envelope's losses"): where the
  // inertia class cannot move, a combination whose choices outside the opaque groups Y's cover
  // (M0) and whose losses are no lower than Y's misses as Y does (A3, checked on every run seen);
  // its losses are at least the DPE's less (1 + gvMargin) × what its choices take off alone (A1,
  // checked likewise)
  const opaqueGroup = full.map((list) => list.every(isOpaque));
  const lossOf = (c: Candidate): number => {
    const d = (c.single.before.gv ?? Number.NaN) - (c.single.after.gv ?? Number.NaN);
    return Number.isFinite(d) ? Math.max(0, d) : Number.NaN;
  };
  const qAlone = opts.map((list) => Float64Array.from(list, lossOf));
  const q0 = base0?.gv ?? Number.NaN;
  const fixedLoss = fixed.reduce((t, c) => t + lossOf(c), 0);
  // (where lining walls inside can move the inertia class: the class of each run, 1 très lourde …
  // 4 légère, and the lightest the linings reach)
  const clsOf = (items: readonly Candidate[]): number =>
    inertiaMoves ? (evaluator.inertia?.([...fixed, ...items]) ?? Number.NaN) : 0;
  const lightest = clsOf(full.flatMap((list) => list.filter(isInternal).slice(0, 1)));
  let gvUsable =
    query.predict !== true &&
    query.envelopeRows !== false &&
    Number.isFinite(lightest) &&
    Number.isFinite(q0) &&
    Number.isFinite(fixedLoss) &&
    qAlone.every((a) => a.every(Number.isFinite));
  let gvMargin = GV_MARGIN;
  const gvBroken: Record<Figure, boolean> = { ep: false, ges: false };
  // (per choice outside the opaque groups, the runs seen with it)
  const gvBuckets = new Map<
    string,
    { q: number; cls: number; crossed: number; ep: number; ges: number }[]
  >();
  let gvChecked = 0;
  const gvCheck = (): void => {
    for (; gvUsable && gvChecked < observed.length; gvChecked++) {
      const { items, ev } = observed[gvChecked] as (typeof observed)[number];
      const q = ev.o.after.gv;
      if (q === undefined) {
        gvUsable = false;
        return;
      }
      let sum = fixedLoss;
      const others: string[] = new Array<string>(G).fill('');
      for (const c of items) {
        const w = where.get(c);
        const loss = lossOf(c);
        if (!w || !Number.isFinite(loss)) {
          gvUsable = false;
          return;
        }
        sum += loss;
        if (!opaqueGroup[w.g]) others[w.g] = changeKey(c);
      }
      // A1
      const took = q0 - q;
      if (took > (1 + gvMargin) * sum + 1e-9 * q0)
        gvMargin = sum > 0 ? took / sum - 1 + CHECK_SLACK : Number.POSITIVE_INFINITY;
      // A3: among the runs with the same other choices and inertia class, one with losses no
      // lower has each figure no lower
      const key = others.join('|');
      let bucket = gvBuckets.get(key);
      if (!bucket) gvBuckets.set(key, (bucket = []));
      const cls = clsOf(items);
      if (!Number.isFinite(cls)) {
        gvUsable = false;
        return;
      }
      const at = {
        q,
        cls,
        crossed: seenRun(gvChecked).crossed,
        ep: ev.o.after.ep,
        ges: ev.o.after.ges,
      };
      for (const f of ['ep', 'ges'] as const) {
        if (gvBroken[f]) continue;
        const tol = 1e-9 * Math.abs(at[f]);
        // (a above b: losses no lower, the same class, no threshold crossed that b has not: then
        // a's figure is no lower)
        const wrong = (a: typeof at, b: typeof at) =>
          a.q >= b.q && a.cls === b.cls && (a.crossed & ~b.crossed) === 0 && a[f] < b[f] - tol;
        if (bucket.some((b) => wrong(at, b) || wrong(b, at))) gvBroken[f] = true;
      }
      bucket.push(at);
    }
  };
  /**
   * whether a row on the losses holds for every inertia class a combination may have: where
   * lining walls inside can move it, Y with each class from the DPE's to the lightest the
   * linings reach forced (`Evaluator.withInertiaClass`, uncounted) misses as Y does (A3 holds
   * class by class); asked of the rows a solve takes only
   */
  const heaviest = clsOf([]);
  const gvValid = (r: YRow): boolean => {
    const gv = r.gv;
    if (!gv) return false;
    if (gv.valid === undefined) {
      gv.valid = true;
      if (inertiaMoves) {
        const own = clsOf(gv.items);
        for (let c = Math.min(heaviest, lightest); c <= Math.max(heaviest, lightest); c++) {
          if (c === own) continue;
          const o = evaluator.withInertiaClass?.([...fixed, ...gv.items], c);
          const cls = o && (r.f === 'ep' ? o.classesAfter.energy : o.classesAfter.ges);
          if (!cls || !(classIndex(cls) > t)) {
            gv.valid = false;
            break;
          }
        }
      }
    }
    return gv.valid;
  };
  /** a row on the losses' need: what the opaque choices must take off alone (−∞: no row) */
  const gvNeed = (r: YRow): number =>
    r.gv && r.gv.valid !== false && gvUsable && !gvBroken[r.f] && Number.isFinite(gvMargin)
      ? (q0 - r.gv.q) / (1 + gvMargin) - r.gv.others
      : Number.NEGATIVE_INFINITY;
  /**
   * what choice k of group g counts in a runs' row (not in Y's world): 0 where Y's choice covers
   * it, what meets the row where Y's is not compared with none or the choice meets it (`yMeets`),
   * else its gain alone. A search keeps a row per run that misses, so its rows hold no array of
   * their own: on a building with thousands of runs over dozens of groups they took most of its
   * memory.
   */
  const aloneTab: Record<Figure, Float64Array[]> = {
    ep: opts.map((list) => Float64Array.from(list, (c) => Math.max(0, gainOf(c, 'ep')))),
    ges: opts.map((list) =>
      Float64Array.from(list, (c) => (yMeets('ges', c) ? -1 : Math.max(0, gainOf(c, 'ges')))),
    ),
  };
  const gainIn = (r: YRow, g: number, k: number): number => {
    if (r.gain) return r.gain[g]![k] as number;
    if (r.gv)
      return opaqueGroup[g]
        ? (qAlone[g]![k] as number)
        : ((r.masks[g] as number) & (1 << (k + 1))) === 0
          ? 0
          : r.meets;
    if (((r.masks[g] as number) & (1 << (k + 1))) === 0) return 0;
    if ((r.none[g] as number) > 0) return r.meets;
    const a = aloneTab[r.f][g]![k] as number;
    return a < 0 ? r.meets : a;
  };
  /** a runs' row's gains as arrays (for the master's knapsack), made once */
  const rowGain = (r: YRow): number[][] =>
    (r.gain ??= opts.map((list, g) => list.map((_, k) => gainIn(r, g, k))));
  /**
   * per run seen: its primary energy less what crossing the threshold it reaches saves at most,
   * and its choices (group, option), read once for every row's check
   */
  const seenRuns: {
    after: Record<Figure, number>;
    at: { g: number; c: Candidate }[];
    crossed: number;
  }[] = [];
  const seenRun = (i: number) => {
    for (let j = seenRuns.length; j <= i; j++) {
      const { items, ev } = observed[j] as (typeof observed)[number];
      const at: { g: number; c: Candidate }[] = [];
      for (const c of items) {
        const w = where.get(c);
        if (w) at.push({ g: w.g, c });
      }
      seenRuns.push({
        after: { ep: ev.o.after.ep, ges: ev.o.after.ges },
        at,
        crossed: crossedBy(items),
      });
    }
    return seenRuns[i] as (typeof seenRuns)[number];
  };
  /** the thresholds a state has crossed: bit 1 the insulated-area majority, bit 2 the joints' */
  const crossedBits = (ch: AirChoice): number => (ch.isoFree ? 0 : 1) | (ch.jointFree ? 0 : 2);
  /** those a combination's works cross (0 where its state is not one the thresholds list) */
  const crossedBy = (items: readonly Candidate[]): number => {
    if (!air) return 0;
    const st = criteriaOf(evaluator.airtightness([...fixed, ...items]));
    const choice = air.choices.find((ch) => sameCriteria(ch.criteria, st));
    return choice ? crossedBits(choice) : 0;
  };
  /**
   * What crossing saves at most beyond Y, on figure f, for a combination X that crosses `bits`
   * (unscaled): X ∨ Y (M0's step) crosses at least what X and Y cross, and perhaps more (their
   * areas add up), so the most of every state beyond Y's that holds both; 0 where Y has crossed
   * every threshold there is.
   */
  const beyondY = (bits: number, r: YRow): number => {
    if (!air) return 0;
    const least = bits | r.crossed;
    let most = 0;
    for (const ch of air.choices) {
      const b = crossedBits(ch);
      if ((b & least) === least && b !== r.crossed) most = Math.max(most, ch.most[r.f]);
    }
    return most;
  };
  /** a row's margin checked on every run seen since it was last checked */
  const checkYRow = (r: YRow): void => {
    if (!base0) return;
    const airScale = r.f === 'ep' ? margins().air : margins().airGes;
    for (; r.checkedAt < observed.length && r.margin !== Infinity; r.checkedAt++) {
      const x = seenRun(r.checkedAt);
      const over = r.atY - x.after[r.f] - beyondY(x.crossed, r) * airScale;
      if (!(over > 0)) continue;
      let sum = 0;
      for (const { g, c } of x.at) sum += yGain(r, g, c);
      for (let g = 0; g < G; g++)
        if ((r.none[g] as number) > 0 && !x.at.some((a) => a.g === g)) sum += r.none[g] as number;
      const needed = sum > 0 ? over / sum - 1 : Infinity;
      if (needed > r.margin) r.margin = needed + CHECK_SLACK;
    }
  };
  // (the runs' rows on GES: where S on GES enters the last solve, from the runs that keep the
  // DPE's heating generators)
  const yGes = (): boolean => missAt.ges !== Infinity && !gesFixedExempt && gesRowsTrusted;
  /**
   * the runs' rows of every run seen that misses on energy (and, `yGes`, on GES), each checked on
   * every run seen
   */
  const yRows = (): YRow[] => {
    if (!base0) return [];
    gvCheck();
    const m = margins();
    const least: Record<Figure, number> = { ep: m.s, ges: m.sGes };
    for (; yRowsAt < observed.length; yRowsAt++) {
      const { items, ev } = observed[yRowsAt] as (typeof observed)[number];
      for (const f of ['ep', 'ges'] as const) {
        if (!misses(ev, f)) continue;
        if (gvUsable && ev.o.after.gv !== undefined) {
          const y: Point = new Array<Candidate | null>(G).fill(null);
          let others = fixedLoss;
          for (const c of items) {
            const at = where.get(c);
            if (!at) continue;
            y[at.g] = c;
            if (!opaqueGroup[at.g]) others += lossOf(c);
          }
          const masks = opts.map((_, g) =>
            maskOf(g, y[g] ?? null, f, keepsInertia(y) ? 'same' : 'plain'),
          );
          const meets = q0 - ev.o.after.gv + 1;
          yRowsKept.push({
            f,
            atY: ev.o.after[f],
            y,
            masks,
            none: masks.map((mk, g) => (!opaqueGroup[g] && (mk & 1) !== 0 ? meets : 0)),
            meets,
            margin: 0,
            checkedAt: Number.POSITIVE_INFINITY,
            crossed: seenRun(yRowsAt).crossed,
            heat: [],
            gv: { q: ev.o.after.gv, others, items },
          });
        }
        // (on GES, a run whose heating generators all make the envelope worth less GES than the
        // DPE's own: F on GES's factor at most 1, checked below at each use)
        const heat = items.filter(gesExempt);
        if (f === 'ges' && (!yGes() || !heat.every((h) => factorsGes.has(h)))) continue;
        const y: Point = new Array<Candidate | null>(G).fill(null);
        for (const c of items) {
          const at = where.get(c);
          if (at) y[at.g] = c;
        }
        const relation = keepsInertia(y) ? 'same' : 'plain';
        const masks = opts.map((_, g) => maskOf(g, y[g] ?? null, f, relation));
        const meetsRow = ev.o.after[f] + 1;
        // (Y's choice does not cover none: removing it may save more, M0 does not say)
        const kept = masks.map((mk) => (mk & 1) !== 0);
        const none = kept.map((k) => (k ? meetsRow : 0));
        yRowsKept.push({
          f,
          atY: ev.o.after[f],
          y,
          masks,
          none,
          meets: meetsRow,
          margin: least[f],
          checkedAt: 0,
          crossed: seenRun(yRowsAt).crossed,
          heat: f === 'ges' ? heat : [],
        });
      }
    }
    for (const r of yRowsKept) {
      if (r.margin < least[r.f]) r.margin = least[r.f];
      // (a factor the runs raised above 1: the row no longer holds)
      if (r.heat.some((h) => (m.rhoGes.get(h) ?? Infinity) > 1)) r.margin = Infinity;
    }
    return yRowsKept;
  };
  /**
   * The row in the answer's world (docs "The rows in the answer's world"), on figure f (GES where
   * the runs' rows on GES are, `yGes`), for a master's answer Y
   * (one uncounted run, `Evaluator.measure`, for its figure): every choice Y's does not cover
   * counts what Y saves more with it in place of Y's own (one uncounted run each); a heating
   * generator Y's does not cover meets it (another generator changes what every kWh of need saved
   * is worth, and may save on its auxiliaries what it loses on the need: on `2325E0263102J` a gas
   * boiler in place of Y's collective heat pump saves 94 kWh/yr, and a ventilation beside it 1.2
   * times what each saves in Y's world), as does none where Y's choice is not compared with none
   * (as in the runs' rows: removing a ventilation saves nothing in Y's world, and more beside a
   * wall on `2375E2453987C`). Its margin starts at S's checked one and is checked on every run
   * seen. Null where the evaluator cannot measure or a figure is not a number.
   */
  const worldRow = (y: Point, f: Figure): YRow | null => {
    const measure = evaluator.measure?.bind(evaluator);
    if (!measure) return null;
    // Y's figure with some groups' choices in place of Y's
    const at = (put: ReadonlyMap<number, Candidate | null>): number => {
      const items = [...fixed];
      for (let g = 0; g < G; g++) {
        const c = put.has(g) ? put.get(g) : y[g];
        if (c) items.push(c);
      }
      return measure(items).after[f];
    };
    const atY = at(new Map());
    if (!Number.isFinite(atY)) return null;
    const relation = keepsInertia(y) ? 'same' : 'plain';
    const masks = opts.map((_, g) => maskOf(g, y[g] ?? null, f, relation));
    const uncovered = (g: number, k: number) => ((masks[g] as number) & (1 << (k + 1))) !== 0;
    const meets = atY + 1;
    const none = masks.map((mk) => ((mk & 1) !== 0 ? meets : 0));
    // (where lining walls inside can move the inertia class: a choice that takes off one of Y's
    // linings meets the row, and a lining added is measured with Y's class forced, its lighter
    // class being what the lighter class's allowance counts)
    const lined = (c: Candidate | null) => inertiaMoves && isInternal(c);
    const yItems = () => [...fixed, ...y.filter((c): c is Candidate => c !== null)];
    const clsY = inertiaMoves ? evaluator.inertia?.(yItems()) : undefined;
    const forced = (g: number, c: Candidate): number => {
      if (clsY === undefined || !evaluator.withInertiaClass) return Number.NaN;
      const items = [...fixed];
      for (let h = 0; h < G; h++) {
        const x = h === g ? c : y[h];
        if (x) items.push(x);
      }
      return evaluator.withInertiaClass(items, clsY).after[f];
    };
    const gain = opts.map((list, g) =>
      list.map((c, k) =>
        !uncovered(g, k)
          ? 0
          : isHeatingGenerator(c) || (lined(y[g] ?? null) && !isInternal(c))
            ? meets
            : lined(c) && !isInternal(y[g] ?? null)
              ? Math.max(0, atY - forced(g, c))
              : Math.max(0, atY - at(new Map([[g, c]]))),
      ),
    );
    if (!gain.every((list) => list.every(Number.isFinite))) return null;
    const row: YRow = {
      f,
      atY,
      y,
      masks,
      gain,
      none,
      meets,
      margin: f === 'ep' ? margins().s : margins().sGes,
      checkedAt: 0,
      crossed: crossedBy(y.filter((c): c is Candidate => c !== null)),
      heat: [],
      world: true,
    };
    checkYRow(row);
    return row;
  };
  let worldLeft = query.worldRows ?? WORLD_ROWS;
  /** a row's need, with what a lighter inertia class may save */
  const NO_LIGHTER: Record<Figure, number> = { ep: 0, ges: 0 };
  /**
   * what a row counts for the thresholds' state ch the master chooses: what crossing saves at most
   * beyond Y (`beyondY`), at the allowance's checked scale, at the row's margin
   */
  const yAllowance = (ch: AirChoice, r: YRow): number => {
    if (r.gv) return (crossedBits(ch) & ~r.crossed) !== 0 ? r.meets : 0;
    const m = margins();
    return (beyondY(crossedBits(ch), r) * (r.f === 'ep' ? m.air : m.airGes)) / (1 + r.margin);
  };
  const yNeed = (r: YRow, lighter: Record<Figure, number>): number =>
    r.gv ? gvNeed(r) : (r.atY - missAt[r.f] - lighter[r.f]) / (1 + r.margin);
  // the knapsacks: the proof's (S with its checked margin, generator pairs, thresholds), the
  // steering master's (`plain`: S at STEER_MARGIN alone, as before pairs and thresholds were
  // known), the predicted search's (no margin)
  const knapsacks = (plain = false, ges = false, final = false): Knapsack[] => {
    const out: Knapsack[] = [];
    if (!base0) return out;
    const checkedMargins = query.predict || plain ? null : margins();
    for (const f of ['ep', 'ges'] as const) {
      const margin = query.predict
        ? 0
        : plain
          ? f === 'ep'
            ? STEER_MARGIN
            : null
          : checkedMargins
            ? f === 'ep'
              ? checkedMargins.s
              : checkedMargins.sGes
            : SUBADDITIVITY_MARGIN[f];
      if (missAt[f] === Infinity || margin === null) continue;
      // (the proof's S on GES, in the last solve only (`ges`): a replaced heating generator meets
      // the row; none fixed)
      const exempt = f === 'ges' && !!checkedMargins;
      if (exempt && (gesFixedExempt || !ges)) continue;
      const fixedGain = fixed.reduce((s, c) => s + gainOf(c, f, plain), 0);
      // (the final solve's: what a lighter inertia class may save on top, `inertiaAllowance`)
      // (and at most what it saves on the heating left below the figure the class needs,
      // `inertiaShare`)
      const lighter =
        final && checkedMargins
          ? Math.min(inertiaMost[f], lighterAtMost(missAt[f], lighterShare()))
          : 0;
      const need = (base0[f] - missAt[f] - lighter) / (1 + margin) - fixedGain;
      if (need <= 0) continue;
      const gain = opts.map((list) =>
        list.map((c) => (exempt && gesExempt(c) ? need : gainOf(c, f, plain))),
      );
      const allowance = (ch: AirChoice) =>
        checkedMargins
          ? ch.most[f] * (f === 'ep' ? checkedMargins.air : checkedMargins.airGes)
          : ch.most[f];
      // (with the thresholds, the state reached is the master's first group: its allowance)
      const withAir = (k: Knapsack): Knapsack =>
        air && !plain
          ? {
              gain: [air.choices.map((ch) => allowance(ch) / (1 + margin)), ...k.gain],
              need: k.need,
              ...(k.none ? { none: [0, ...k.none] } : {}),
            }
          : k;
      out.push(withAir({ gain, need }));
      // F: with heating generator h chosen, the envelope's gains count ρ_h of themselves; a row
      // per h, met by any other choice of its group (docs "The factored knapsack")
      // (on GES, in S on GES's last solve: F on GES, `factorsGes`)
      const rhos = !checkedMargins
        ? []
        : f === 'ep'
          ? checkedMargins.rho
          : exempt && gesTrusted
            ? checkedMargins.rhoGes
            : [];
      const covers = f === 'ep' ? factors : factorsGes;
      for (const [h, rho] of rhos) {
        const at = where.get(h);
        if (!at || at.k < 0 || rho >= 1) continue;
        const scaled = (c: Candidate) => (isEnvelope(c) ? rho : 1) * gainOf(c, f);
        const needF =
          (base0[f] - missAt[f] - lighter) / (1 + margin) -
          fixed.reduce((s, c) => s + scaled(c), 0);
        if (needF <= 0) continue;
        const gainF = opts.map((list, g) =>
          g === at.g
            ? list.map((c) => (c === h ? gainOf(h, f) : needF))
            : list.map((c) =>
                isHeatingGenerator(c) && !factorCovers(covers, c) ? needF : scaled(c),
              ),
        );
        const none = opts.map((_, g) => (g === at.g ? needF : 0));
        out.push(withAir({ gain: gainF, need: needF, none }));
      }
      // Y: from each run Y that misses on f, a combination X saves at most what Y saves plus
      // (1 + m) × the gains alone of its choices Y's do not cover (docs "The runs' rows")
      // (only within `withYRows`'s solves of the proof's master)
      for (const r of yChosen) {
        if (r.f !== f || r.gv) continue;
        const needY = yNeed(r, { ep: lighter, ges: lighter });
        // (its thresholds' allowance at its own margin, as `withAir` at S's)
        if (needY > 0)
          out.push(
            air && !plain
              ? {
                  gain: [air.choices.map((ch) => yAllowance(ch, r)), ...rowGain(r)],
                  need: needY,
                  none: [0, ...r.none],
                }
              : { gain: rowGain(r), need: needY, none: r.none },
          );
      }
    }
    // the rows on the envelope's losses (each met by what crossing a threshold takes off: inside
    // its A1 margin)
    for (const r of yChosen) {
      if (!r.gv) continue;
      const need = gvNeed(r);
      if (need > 0)
        out.push(
          air && !plain
            ? {
                gain: [
                  air.choices.map((ch) => ((crossedBits(ch) & ~r.crossed) !== 0 ? r.meets : 0)),
                  ...rowGain(r),
                ],
                need,
                none: [0, ...r.none],
              }
            : { gain: rowGain(r), need, none: r.none },
        );
    }
    if (air && !plain)
      for (const row of air.rows)
        out.push({
          gain: [
            air.choices.map((ch) =>
              (row.kind === 'iso' ? ch.isoFree : ch.jointFree) ? row.need : 0,
            ),
            ...row.gain,
          ],
          need: row.need,
        });
    return out;
  };
  // the master, with the thresholds' group first when there is one (its choice is dropped)
  const withAir = new WeakMap<Cut, Cut>();
  const airCoverings = air
    ? masterCoverings.map((cv) => ({
        ok: [air.choices.map(() => false), ...cv.ok],
        atLeast: cv.atLeast,
      }))
    : masterCoverings;
  const dearestFirst = query.dearestFirst === true;
  // (F's rows bind once the heating generator is chosen: its group is branched on first)
  const heatGroups = query.predict
    ? []
    : [
        ...new Set(
          [...factors.keys()]
            .map((h) => where.get(h)?.g)
            .filter((g): g is number => g !== undefined),
        ),
      ].sort((a, b) => a - b);
  // (the final solve's two halves, `final`: at least `inertiaStep` internal options, with the
  // lighter class's allowance; fewer, without it: a row "minus one per internal option" at least
  // minus one less than the step)
  const internalOk = opts.map((list) => list.map((c) => isInternal(c)));
  const fewerInternal = (atMost: number): Knapsack => ({
    gain: [
      ...(air ? [air.choices.map(() => 0)] : []),
      ...opts.map((list) => list.map((c) => (isInternal(c) ? -1 : 0))),
    ],
    need: -atMost,
  });
  const master = (
    cap: number,
    target: number,
    ges = false,
    list = cuts,
    final = false,
    internal?: { atLeast: number } | { atMost: number },
    made?: Knapsack[],
  ): MasterResult => {
    // (the knapsacks a caller made already: soundMaster's, the same as these)
    let knaps = made ?? knapsacks(false, ges, final);
    if (internal && 'atMost' in internal) knaps = [...knaps, fewerInternal(internal.atMost)];
    const some = internal && 'atLeast' in internal ? internal.atLeast : 0;
    if (!air)
      return solveMaster(
        costs,
        list,
        some > 0 ? [...masterCoverings, { ok: internalOk, atLeast: some }] : masterCoverings,
        knaps,
        cap,
        target,
        heatGroups,
        dearestFirst,
      );
    const m = solveMaster(
      [air.choices.map(() => 0), ...costs],
      list.map((c) => {
        let v = withAir.get(c);
        if (!v) withAir.set(c, (v = { masks: [0, ...c.masks] }));
        return v;
      }),
      some > 0
        ? [...airCoverings, { ok: [air.choices.map(() => false), ...internalOk], atLeast: some }]
        : airCoverings,
      knaps,
      cap,
      target,
      heatGroups.map((g) => g + 1),
      dearestFirst,
    );
    if (m.kind === 'solution') return { ...m, choice: m.choice.slice(1), airAt: m.choice[0] };
    if (m.kind === 'capped' && m.point) return { ...m, point: m.point.slice(1) };
    return m;
  };
  if (query.predict && query.thresholds === true && !steered) return answer(false, 0);
  if (query.predict) {
    // each master answer run as it is; the cuts it learns (M0) and the knapsacks (S, no margin)
    // steer the next; stops when the master finds nothing cheaper than the best answer
    for (;;) {
      const found = best as Evaluated | null;
      if (evaluator.left <= 0 || iterations >= MAX_ITERATIONS) break;
      const m = master(perSolve, found ? found.cout - fixedCost : Infinity, false, steerCuts);
      iterations++;
      masterNodes += m.nodes;
      const choice = m.kind === 'solution' ? m.choice : m.kind === 'capped' ? m.point : undefined;
      const cost =
        m.kind === 'solution' ? m.cost : m.kind === 'capped' ? (m.pointCost ?? Infinity) : Infinity;
      if (!choice || (found && cost + fixedCost >= found.cout)) break;
      const before = evaluator.count;
      run(choice.map((k, g) => (k < 0 ? null : (opts[g]![k] as Candidate))));
      // (a combination run before taught all it could)
      if (evaluator.count === before) break;
    }
    return answer(false, 0);
  }
  // the bound: the master with the thresholds (`master`). With thresholds, the master without
  // them (S alone, as before they were known: `steer`) steers the search, its runs and when it
  // stops, so that it runs what it ran before; only the bound and `exact` are the sound master's.
  let bestLb = -Infinity;
  let lastSound: MasterResult | null = null;
  // (the knapsacks `lastSound` was solved with, while it is a solution)
  let soundKnaps: Knapsack[] | null = null;
  let steerLb = -Infinity;
  /**
   * The proof's master of this round, where another master steers (its nodes are not counted):
   * the last round's optimum again when its knapsacks are the same and it meets every cut learned
   * since. The cuts only grow (a cut dropped is implied by one added), so the choices meeting them
   * are a subset of those the last solve ranged over: an optimum there that is still among them
   * is an optimum here, at the same cost (docs/scenario-search.md "The proof's master kept").
   */
  const soundMaster = (cap: number, goal: number): MasterResult => {
    const knaps = knapsacks(false, false, false);
    const last = lastSound;
    if (
      last?.kind === 'solution' &&
      soundKnaps &&
      sameKnapsacks(knaps, soundKnaps) &&
      cuts.every((c) => meetsCut(c, last.choice))
    )
      return { ...last, nodes: 0 };
    const m = master(cap, goal, false, cuts, false, undefined, knaps);
    soundKnaps = m.kind === 'solution' ? knaps : null;
    return m;
  };
  /** stops: exact when the best answer is at most the proven bound */
  const stop = () => {
    lastSolve();
    ySolve();
    return final(
      !!best && (best as Evaluated).cout <= bestLb,
      best ? Math.min(bestLb, (best as Evaluated).cout) : bestLb,
    );
  };
  // (a lighter inertia class may save beyond S on this DPE: the bound of the last solve counts it)
  const lighterMatters = inertiaMost.ep > 0 || inertiaMost.ges > 0;
  /**
   * What the search ends with, where a lighter inertia class may save beyond S (`inertiaAllowance`):
   * one last solve of the proof's master with every cut learned and the knapsacks less that
   * allowance (S on GES as in `lastSolve`), whose optimum (or least open key) bounds the answer.
   * The search ran with the knapsacks as before (every run as before: no scenario changes); only
   * the bound falls, and `exact` with it. Its nodes are not counted in `masterNodes`.
   */
  function final(exact: boolean, lb: number): ProofAnswer {
    if (!lighterMatters) return answer(exact, lb);
    const ges = missAt.ges !== Infinity && !gesFixedExempt && gesTrusted;
    const step = inertiaStep(evaluator, opts, fixed);
    for (;;) {
      const found = best as Evaluated | null;
      const goal = found ? found.cout - fixedCost : Infinity;
      // (only works that line a wall or a roof inside move the class, works/apply.ts
      // `withInertia`: the combinations with one of them are allowed the lighter class's saving,
      // those without keep `fixed`'s class and S as in every solve)
      const weakOf = (m: MasterResult): number =>
        m.kind === 'infeasible'
          ? found
            ? found.cout
            : Infinity
          : (m.kind === 'capped' ? m.lowerBound : m.cost) + fixedCost;
      const lighterY = {
        ep: Math.min(inertiaMost.ep, lighterAtMost(missAt.ep, lighterShare())),
        ges: Math.min(inertiaMost.ges, lighterAtMost(missAt.ges, lighterShare())),
      };
      // (the rows in the answers' worlds only while they can lift the bound, at most `lb`)
      const some = withYRows(
        lighterY,
        goal,
        () => master(perSolve, goal, ges, cuts, true, { atLeast: step }),
        lb - fixedCost,
      );
      const fewer = withYRows(
        NO_LIGHTER,
        goal,
        () => master(perSolve, goal, ges, cuts, false, { atMost: step - 1 }),
        lb - fixedCost,
      );
      const bound = Math.min(lb, weakOf(some.plain), weakOf(fewer.plain));
      // (with the rows in the answers' worlds: what the scenario reports)
      worldLb = Math.min(lb, weakOf(some.world), weakOf(fewer.world));
      // the closing round (no lifts): the solve that bounds is answered by a run, its answer a
      // cut (or a cheaper answer), and solved again, while the run budget lasts; a run already
      // made is no progress
      const m = weakOf(some.plain) <= weakOf(fewer.plain) ? some.plain : fewer.plain;
      if (
        query.finalRuns === true &&
        found &&
        bound < found.cout &&
        evaluator.left > 0 &&
        m.kind === 'solution'
      ) {
        const before = evaluator.count;
        run(m.choice.map((k, g) => (k < 0 ? null : (opts[g]![k] as Candidate))));
        if (evaluator.count > before) continue;
      }
      // (no answer: proved unreachable only while the last solve finds nothing either)
      return answer(
        found ? found.cout <= bound : exact && bound === Infinity,
        found ? Math.min(bound, found.cout) : bound,
      );
    }
  }
  /** whether a choice of the master meets S on GES (without the thresholds' allowance) */
  function meetsGes(choice: readonly number[]): boolean {
    if (!base0) return true;
    const fixedGain = fixed.reduce((t, c) => t + gainOf(c, 'ges'), 0);
    const need = (base0.ges - missAt.ges) / (1 + margins().sGes) - fixedGain;
    let sum = 0;
    for (let g = 0; g < G; g++) {
      const k = choice[g] as number;
      if (k < 0) continue;
      const c = opts[g]![k] as Candidate;
      if (gesExempt(c)) return true;
      sum += gainOf(c, 'ges');
    }
    return sum >= need;
  }
  /**
   * A solve of the proof's master with the runs' rows its answer does not meet, added round by
   * round (at most `Y_ROUNDS` more solves, `Y_PER_ROUND` rows each, the most violated first),
   * each row's margin checked on every run seen first (`plain`: what the search reads). Then
   * (`world`: what the scenario reports, never what the search reads) at most `WORLD_ROWS` more
   * rounds, each adding the row in its answer's world (`worldRow`) and the runs' rows it does not
   * meet; a round cut short by its nodes keeps the best bound before it.
   */
  function withYRows(
    lighter: Record<Figure, number>,
    goal: number,
    solve: () => MasterResult,
    worldGoal = goal,
  ): { plain: MasterResult; world: MasterResult } {
    let m = solve();
    if (yRounds <= 0 || (missAt.ep === Infinity && !yGes())) return { plain: m, world: m };
    const all = yRows();
    const chosen: YRow[] = [];
    // the rows the answer does not meet, the most violated first (`limit` per figure of the runs'
    // rows, each checked on the runs seen first: a wider margin asks less; every row in an
    // answer's world made so far)
    const violatedBy = (
      r: MasterResult & { kind: 'solution' },
      worlds: readonly YRow[],
      losses = false,
    ) => {
      const choice = r.choice;
      // (the thresholds' state the answer reaches: its allowance counts in each row, as in the
      // master's)
      const st = air && r.airAt !== undefined ? air.choices[r.airAt] : undefined;
      const sumOf = (row: YRow) => {
        let sum = st ? yAllowance(st, row) : 0;
        for (let g = 0; g < G; g++) {
          const k = choice[g] as number;
          sum += k >= 0 ? gainIn(row, g, k) : (row.none[g] as number);
        }
        return sum;
      };
      const violated: { r: YRow; sum: number; by: number }[] = [];
      for (const row of [...all, ...worlds]) {
        if (chosen.includes(row) || (row.gv && !losses)) continue;
        const sum = sumOf(row);
        const by = yNeed(row, lighter) - sum;
        if (by > 0) violated.push({ r: row, sum, by });
      }
      violated.sort((a, b) => b.by - a.by);
      const added: Record<Figure, number> = { ep: 0, ges: 0 };
      let more = 0;
      let addedGv = 0;
      for (const v of violated) {
        if (v.r.world) {
          chosen.push(v.r);
          more++;
          continue;
        }
        if (v.r.gv) {
          if (addedGv >= Y_PER_ROUND || !gvValid(v.r)) continue;
          chosen.push(v.r);
          addedGv++;
          continue;
        }
        if (added[v.r.f] >= Y_PER_ROUND) continue;
        checkYRow(v.r);
        if (yNeed(v.r, lighter) - v.sum <= 0) continue;
        chosen.push(v.r);
        added[v.r.f]++;
      }
      return { added: added.ep + added.ges + addedGv + more, sumOf };
    };
    const solveWith = (): MasterResult => {
      yChosen = chosen;
      try {
        return solve();
      } finally {
        yChosen = [];
      }
    };
    // (until its answer meets every row, or costs the best answer: proved)
    for (let round = 0; round < yRounds && m.kind === 'solution' && m.cost < goal - 1e-9; round++) {
      if (!violatedBy(m, []).added) break;
      m = solveWith();
    }
    const plain = m;
    // the rows in the answers' worlds, on energy and (as the runs' rows, `yGes`) on GES
    const worlds: YRow[] = [];
    const figures = (['ep', 'ges'] as const).filter((f) =>
      f === 'ep' ? missAt.ep !== Infinity : yGes(),
    );
    // (the rows in each heating generator's own world: Y is the generator alone, so that a
    // combination holding it is bound by what its other choices save beside it, where the rows in
    // the answers' worlds let any generator the answer does not hold meet them; uncounted runs,
    // kept per evaluator, and only the reported bound reads them)
    if (
      query.generatorWorlds !== false &&
      worldLeft > 0 &&
      m.kind === 'solution' &&
      m.cost < Math.min(goal, worldGoal) - 1e-9
    )
      for (let g = 0; g < G; g++)
        for (const c of opts[g] as Candidate[]) {
          if (!isHeatingGenerator(c)) continue;
          const y: Point = opts.map(() => null);
          y[g] = c;
          for (const f of figures) {
            const w = worldRow(y, f);
            if (w) worlds.push(w);
          }
        }
    while (
      worldLeft > 0 &&
      figures.length > 0 &&
      m.kind === 'solution' &&
      m.cost < Math.min(goal, worldGoal) - 1e-9
    ) {
      worldLeft--;
      const { added, sumOf } = violatedBy(m, worlds, true);
      let more = added;
      const y = m.choice.map((k, g) => (k < 0 ? null : (opts[g]![k] as Candidate)));
      for (const f of figures) {
        const w = worldRow(y, f);
        if (!w) continue;
        worlds.push(w);
        if (yNeed(w, lighter) - sumOf(w) > 0) {
          chosen.push(w);
          more++;
        }
      }
      if (!more) break;
      const next = solveWith();
      if (next.kind === 'capped' && !(next.lowerBound > boundOf(m))) break;
      m = next;
    }
    return { plain, world: m };
  }
  /** what a master's result bounds (infeasible: nothing reaches) */
  function boundOf(m: MasterResult): number {
    return m.kind === 'infeasible' ? Infinity : m.kind === 'capped' ? m.lowerBound : m.cost;
  }
  /**
   * The runs' rows in one more solve of the proof's master once the search is done (where a
   * lighter inertia class may save, in `final`'s two solves instead): the runs are those made
   * without them (every scenario as before), only the bound rises. Its nodes are not counted.
   */
  function ySolve(): void {
    for (;;) {
      const found = best as Evaluated | null;
      if (yRounds <= 0 || lighterMatters || !found || found.cout <= bestLb || !base0) return;
      const ges = missAt.ges !== Infinity && !gesFixedExempt && gesTrusted;
      const { plain: m, world } = withYRows(NO_LIGHTER, found.cout - fixedCost, () =>
        master(perSolve, found.cout - fixedCost, ges),
      );
      if (m.kind !== 'infeasible')
        bestLb = Math.max(bestLb, (m.kind === 'capped' ? m.lowerBound : m.cost) + fixedCost);
      if (world.kind !== 'infeasible')
        worldLb = Math.max(bestLb, worldLb, boundOf(world) + fixedCost);
      // (`finalRuns`: the answer of the solve with the rows, the rows in its world first, run as
      // it is, a cut or a cheaper answer, and solved again while the runs last)
      const next = world.kind === 'solution' ? world : m;
      if (
        !query.finalRuns ||
        next.kind !== 'solution' ||
        next.cost + fixedCost >= found.cout ||
        Math.max(bestLb, worldLb) >= found.cout ||
        evaluator.left <= 0
      )
        return;
      const before = evaluator.count;
      run(next.choice.map((k, g) => (k < 0 ? null : (opts[g]![k] as Candidate))));
      if (evaluator.count === before) return;
    }
  }
  /**
   * S on GES in one last solve of the proof's master, once the search is done: its runs are those
   * made without it (every scenario as before), only the bound rises. Its nodes (at most a solve's)
   * are not counted in `masterNodes`: the caller's node budget is spent as before it. (The best
   * answer meets the row: S on GES is checked on it, as on every run.)
   */
  function lastSolve(): void {
    const found = best as Evaluated | null;
    if (!found || found.cout <= bestLb || missAt.ges === Infinity || gesFixedExempt) return;
    if (!gesTrusted) return;
    // (the last solve's optimum already meets the row: the bound would not move)
    if (lastSound?.kind === 'solution' && meetsGes(lastSound.choice)) return;
    const m = master(perSolve, found.cout - fixedCost, true);
    if (m.kind !== 'infeasible')
      bestLb = Math.max(bestLb, (m.kind === 'capped' ? m.lowerBound : m.cost) + fixedCost);
  }
  // (`straight`: no cut loop, the last solves at once, their answers run: `finalRuns`)
  if (query.straight && query.finalRuns) return stop();
  for (;;) {
    const cap =
      query.masterTotal === undefined
        ? perSolve
        : Math.min(perSolve, Math.max(0, query.masterTotal - masterNodes));
    const goal = best ? (best as Evaluated).cout - fixedCost : Infinity;
    // (the master without thresholds steers whenever the proof's knapsacks differ from its own)
    const steer = steered || margins().s !== STEER_MARGIN;
    const sound = steer || relationsDiffer ? soundMaster(cap, goal) : master(cap, goal);
    lastSound = sound;
    const m = steer
      ? solveMaster(costs, steerCuts, masterCoverings, knapsacks(true), cap, goal, [], dearestFirst)
      : relationsDiffer
        ? master(cap, goal, false, steerCuts)
        : sound;
    iterations++;
    masterNodes += m.nodes;
    const found = best as Evaluated | null;
    if (sound.kind === 'infeasible') return final(true, found ? found.cout : Infinity);
    bestLb = Math.max(
      bestLb,
      (sound.kind === 'capped' ? sound.lowerBound : sound.cost) + fixedCost,
    );
    // (the proof's bound reaches the best answer: proved, whatever the steering master says)
    if (found && found.cout <= bestLb) return stop();
    if (m.kind === 'infeasible') return stop();
    if (m.kind === 'capped') {
      // (the steering master's bound decides when the steering stops; the proof's is `bestLb`)
      steerLb = Math.max(steerLb, m.lowerBound + fixedCost);
      const more =
        query.masterTotal !== undefined &&
        masterNodes < query.masterTotal &&
        iterations < MAX_ITERATIONS &&
        evaluator.left > 0 &&
        m.point &&
        !(found && found.cout <= steerLb) &&
        !(found && (m.pointCost as number) + fixedCost >= found.cout);
      if (!more) return stop();
      const y: Point = (m.point as number[]).map((k, g) =>
        k < 0 ? null : (opts[g]![k] as Candidate),
      );
      const ev = run(y);
      if (!reaches(ev)) for (const f of ['ep', 'ges'] as const) if (misses(ev, f)) lift(y, f);
      continue;
    }
    const lb = Math.max(m.cost + fixedCost, steerLb);
    if ((found && found.cout <= lb) || evaluator.left <= 0) {
      if (proveOn(sound)) continue;
      return stop();
    }
    const y: Point = m.choice.map((k, g) => (k < 0 ? null : (opts[g]![k] as Candidate)));
    const ev = run(y);
    if (reaches(ev)) {
      // meets the coverings (the master's), and nothing cheaper meets the cuts (with thresholds:
      // nothing cheaper meets the master without them; exact when the bound says so)
      if (!steer && !relationsDiffer)
        return final(true, (best as Evaluated | null)?.cout ?? ev.cout);
      if (proveOn(sound)) continue;
      return stop();
    }
    for (const f of ['ep', 'ges'] as const) if (misses(ev, f)) lift(y, f);
  }

  /**
   * The steering master is done (or its answer reached) and the proof's bound is still below the
   * best answer: run the proof's master's answer, within the budget. It reaches (a cheaper answer)
   * or misses and is lifted into cuts that raise the bound. False when there is nothing to run.
   */
  function proveOn(sound: MasterResult): boolean {
    const found = best as Evaluated | null;
    if (!found || evaluator.left <= 0 || sound.kind !== 'solution') return false;
    if (found.cout <= bestLb) return false;
    const before = evaluator.count;
    const y: Point = sound.choice.map((k, g) => (k < 0 ? null : (opts[g]![k] as Candidate)));
    const ev = run(y);
    if (evaluator.count === before) return false;
    if (!reaches(ev)) for (const f of ['ep', 'ges'] as const) if (misses(ev, f)) lift(y, f);
    return true;
  }
}

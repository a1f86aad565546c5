/**
 * The regulatory energy audit computed from a DPE (arrêté du 4 mai 2022 as amended by the arrêté
 * du 29 décembre 2023; docs/audit.md): where the heat goes (the engine's losses per item), and
 * two works proposals reaching a "rénovation performante", each checked rule by rule:
 *
 * - final level: class B, or C for a dwelling in F or G before works;
 * - the six items (walls, low floors, roof, windows and doors, ventilation, heating and hot
 *   water) each treated, or said not to need works with the criterion (no such element, no
 *   losses, already as good as the catalogue's works: the catalogue's own applicability rules);
 *   an item "treated" has works on every one of its elements that the catalogue improves
 *   (heating and hot water: on one of its installations);
 * - path in steps: the first step gains at least two classes and treats at least two insulation
 *   items (walls, low floors, roof, windows and doors);
 * - interfaces: a step with envelope works (insulation, windows) on a dwelling whose ventilation
 *   is natural or absent has the ventilation works too.
 *
 * The search (this module's own core, over the scenario search's candidates and the run memo):
 * a requirement-driven greedy pass (every required group gets its cheapest option, then the
 * option with the best predicted shortfall-removed-per-euro is added or upgraded, each step run
 * by the engine), then a local search (drops and downgrades, each run) — bounded in change sets.
 * Path in one step: the cheapest combination found reaching the final class with the six items.
 * Path in steps: for every pair of insulation items, the cheapest first step meeting its rules,
 * the cheapest of them kept; then the cheapest completion from it (step 1's works kept).
 * Every figure shown comes from an engine run of the whole combination.
 */
import { createHash } from 'node:crypto';
import type {
  AuditFigures,
  AuditProposal,
  AuditResponse,
  AuditRule,
  AuditStep,
  AuditWork,
  ItemKey,
  ItemOutcome,
  ItemState,
  LossBreakdown,
  LossKey,
  RuleId,
} from '../contract/audit.js';
import { classFromIndex, classIndex, type ClassLetter } from '../contract/classes.js';
import type { Category, CoefMode, EditableChange, Thresholds } from '../contract/schemas.js';
import { scopeOf } from '../dpe/building.js';
import { descriptionOf, elementsOf, parseReferenceId, referenceId } from '../dpe/elements.js';
import { str, type RawElement } from '../dpe/raw.js';
import type { Engine } from '../engine/engine.js';
import { areaOf, offeredOptions, refusalsOn } from '../works/apply.js';
import { CATALOGUE, findOption, type WorksOptionRow } from '../works/catalogue.js';
import type { CostKey, CostTable } from '../works/costs.js';
import { outcome, type Outcome } from './calc.js';
import { round2 } from './comparison.js';
import type { PreparedDpe } from './prepared.js';
import { figuresOf, runCount, runWorks } from './runs.js';
import { candidatesOf, groupKey, shortfall, type Candidate } from './scenarios.js';

/** dpe-sim's version (package.json), named in the audit. */
export const DPE_SIM_VERSION = '0.1.0';

/** Change sets one search may run (memo hits are free). */
export const AUDIT_SEARCH_BUDGET = 40;
/** A swap for another group's option is run when predicted this close to the class. */
const SWAP_SLACK = 0.1;
/** Change sets the whole audit may run besides the single-option runs. */
export const AUDIT_TOTAL_BUDGET = 220;

export const AUDIT_NOTE =
  'This report is computed from the DPE data with the 3CL-2021 method and a works catalogue. It supports, and does not replace, the auditor’s visit, measurements and judgement: the works, quantities, costs and the feasibility of each proposal must be checked on site.';

export const ITEM_LABELS: Record<ItemKey, string> = {
  walls: 'Walls',
  lowFloors: 'Low floors',
  roof: 'Roof',
  windowsDoors: 'Windows and doors',
  ventilation: 'Ventilation',
  heatingHotWater: 'Heating and hot water',
};

export const LOSS_LABELS: Record<LossKey, string> = {
  walls: 'Walls',
  roof: 'Roof',
  floor: 'Low floor',
  windows: 'Windows',
  doors: 'Doors',
  thermalBridges: 'Thermal bridges',
  airRenewal: 'Air renewal',
};

const LOSS_FIELDS: Record<LossKey, string> = {
  walls: 'deperdition_mur',
  roof: 'deperdition_plancher_haut',
  floor: 'deperdition_plancher_bas',
  windows: 'deperdition_baie_vitree',
  doors: 'deperdition_porte',
  thermalBridges: 'deperdition_pont_thermique',
  airRenewal: 'deperdition_renouvellement_air',
};

const ITEM_OF: Record<Category, ItemKey> = {
  mur: 'walls',
  plancher_bas: 'lowFloors',
  plancher_haut: 'roof',
  baie_vitree: 'windowsDoors',
  porte: 'windowsDoors',
  ventilation: 'ventilation',
  installation_chauffage: 'heatingHotWater',
  installation_ecs: 'heatingHotWater',
};

/** The catalogue's basic ventilation works: a ventilation it applies to needs works. */
const BASIC_VENTILATION = 'VMCHygroB';

const INSULATION_ITEMS: readonly ItemKey[] = ['walls', 'lowFloors', 'roof', 'windowsDoors'];
const ITEM_ORDER: readonly ItemKey[] = [
  'walls',
  'lowFloors',
  'roof',
  'windowsDoors',
  'ventilation',
  'heatingHotWater',
];

export interface AuditOptions {
  coef: CoefMode;
  forceNormalization: boolean;
  costs: CostTable;
  /** dpe-sim's version, for the report */
  version: string;
}

// ---------------------------------------------------------------- the loss breakdown

/** The engine's losses per item (W/K) and their shares; the items sum to the engine's total. */
export function lossBreakdown(prep: PreparedDpe): LossBreakdown {
  const dep = (prep.base.output.logement?.sortie as Record<string, unknown> | undefined)
    ?.deperdition as Record<string, unknown> | undefined;
  const value = (field: string) => {
    const v = Number(dep?.[field]);
    return Number.isFinite(v) ? v : 0;
  };
  const keys = Object.keys(LOSS_FIELDS) as LossKey[];
  const raw = keys.map((key) => ({ key, wk: value(LOSS_FIELDS[key]) }));
  const sum = raw.reduce((s, r) => s + r.wk, 0);
  const total = dep?.deperdition_enveloppe !== undefined ? value('deperdition_enveloppe') : sum;
  return {
    total: round2(total),
    items: raw.map((r) => ({
      key: r.key,
      label: LOSS_LABELS[r.key],
      wk: round2(r.wk),
      share: total > 0 ? Math.round((r.wk / total) * 1000) / 10 : 0,
    })),
  };
}

// ---------------------------------------------------------------- items and requirements

interface Requirement {
  item: ItemKey;
  /** groups of which at least one must be chosen */
  groups: string[];
}

interface Items {
  states: ItemState[];
  /** per needed item, the requirements that treat it (all of them) */
  requirements: Map<ItemKey, Requirement[]>;
  /** ventilation natural or absent: envelope works bring ventilation works with them */
  ventilationWeak: boolean;
  ventilationLabel: string;
}

function itemsOf(engine: Engine, prep: PreparedDpe, groups: Map<string, Candidate[]>): Items {
  const requirements = new Map<ItemKey, Requirement[]>();
  const reasons = new Map<ItemKey, Set<string>>();
  const present = new Set<ItemKey>();
  const hot: string[] = [];
  const hotItem: ItemKey = 'heatingHotWater';
  for (const category of Object.keys(ITEM_OF) as Category[]) {
    const item = ITEM_OF[category];
    elementsOf(prep.raw, category).forEach((el, index) => {
      present.add(item);
      const ref = referenceId(category, index);
      const mine = [...groups.keys()].filter((k) => k.startsWith(`${ref}|`));
      // a ventilation already humidity-controlled (type B) or better needs no works: the
      // double flow stays a candidate to reach the class, it is not required
      // (natural ventilation always needs works: any ventilation option is required then)
      const basicVentilation =
        item === 'ventilation' &&
        (isWeakVentilation(ventilationLabel(engine, el)) ||
          mine.some((g) =>
            (groups.get(g) ?? []).some((c) => c.change.editableValue === BASIC_VENTILATION),
          ));
      if (mine.length && (item !== 'ventilation' || basicVentilation)) {
        if (item === hotItem) hot.push(...mine);
        else addRequirement(requirements, { item, groups: mine });
        return;
      }
      const why = reasons.get(item) ?? new Set<string>();
      if (item === 'ventilation' && mine.length) {
        why.add(
          `a humidity-controlled (type B) or better ventilation is already installed (${ventilationLabel(engine, el)})`,
        );
        reasons.set(item, why);
        return;
      }
      const offered = offeredOptions(prep, category, el);
      if (offered.length) why.add('the catalogue’s works save no energy here');
      else for (const r of refusalsOn(prep, category, el)) why.add(r);
      reasons.set(item, why);
    });
  }
  if (hot.length) addRequirement(requirements, { item: hotItem, groups: hot });
  const states: ItemState[] = ITEM_ORDER.map((key) => {
    const needed = requirements.has(key);
    let reason: string | null = null;
    if (!needed) {
      if (!present.has(key)) reason = 'none in this DPE';
      else {
        const why = [...(reasons.get(key) ?? [])];
        reason = why.length ? why.slice(0, 3).join('; ') : 'no works in the catalogue apply';
      }
    }
    return { key, label: ITEM_LABELS[key], needed, reason };
  });
  const vents = elementsOf(prep.raw, 'ventilation');
  const labels = vents.map((v) => ventilationLabel(engine, v));
  const weak = vents.length === 0 || labels.some(isWeakVentilation);
  return {
    states,
    requirements,
    ventilationWeak: weak,
    ventilationLabel: vents.length ? labels.join(', ') : 'no ventilation',
  };
}

function ventilationLabel(engine: Engine, el: RawElement): string {
  return (
    engine.enumLabel('type_ventilation', str(el.donnee_entree?.enum_type_ventilation_id)) ??
    'unknown ventilation'
  );
}

/** Natural ventilation (by opening windows, air inlets, natural ducts): no mechanical system. */
function isWeakVentilation(label: string): boolean {
  return /naturelle|ouverture des fen|entr[ée]es d.air hautes et basses/i.test(label);
}

function addRequirement(map: Map<ItemKey, Requirement[]>, r: Requirement): void {
  map.set(r.item, [...(map.get(r.item) ?? []), r]);
}

// ---------------------------------------------------------------- the search core

type Combo = Map<string, Candidate>;

interface Evaluated {
  combo: Combo;
  cout: number;
  o: Outcome;
}

interface SearchContext {
  engine: Engine;
  prep: PreparedDpe;
  opts: AuditOptions;
  thresholds: Thresholds;
  groups: Map<string, Candidate[]>;
  /** change sets left for the whole audit */
  left: () => number;
}

const slot = (c: Candidate) => groupKey(c.change.referenceId, c.change.editableKey);

function changesOf(combo: Combo): EditableChange[] {
  return [...combo.values()].map((c) => c.change);
}

function evaluate(ctx: SearchContext, combo: Combo): Evaluated {
  const run = runWorks(ctx.engine, ctx.prep, changesOf(combo), ctx.opts.costs);
  const o = outcome(
    ctx.prep,
    figuresOf(run, ctx.opts.coef),
    ctx.opts.coef,
    ctx.opts.forceNormalization,
    ctx.thresholds,
  );
  return { combo, cout: run.cout, o };
}

const reaches = (o: Outcome, target: ClassLetter) =>
  classIndex(o.classesAfter.dpe) <= classIndex(target);

const satisfied = (combo: Combo, r: Requirement) => r.groups.some((g) => combo.has(g));

interface Goal {
  /** works kept from an earlier step */
  fixed: Combo;
  requirements: Requirement[];
  target: ClassLetter;
}

interface Found {
  best: Evaluated;
  reached: boolean;
}

/**
 * The cheapest combination found that contains `fixed`, meets every requirement and reaches the
 * target class (a greedy pass guided by single-option ratios, then drops and downgrades, every
 * combination run by the engine); when none is found, the strongest combination there is.
 */
export function cheapestReaching(ctx: SearchContext, goal: Goal): Found {
  const { groups, thresholds: t } = ctx;
  const startRuns = runCount(ctx.prep);
  const budgetLeft = () => runCount(ctx.prep) - startRuns < AUDIT_SEARCH_BUDGET && ctx.left() > 0;
  const short = (o: Outcome) => shortfall(o, t, goal.target);
  const ratio = (c: Candidate | undefined, k: 'ep' | 'ges') =>
    c && c.single.before[k] > 0 ? c.single.after[k] / c.single.before[k] : 1;
  const merit = (c: Candidate, from: Outcome) => {
    const before = short(from);
    const after = shortfallOfFigures(
      from.after.epM2 * ratio(c, 'ep'),
      from.after.gesM2 * ratio(c, 'ges'),
      t,
      goal.target,
    );
    return (before - after) / Math.max(c.cout, 1);
  };
  // start: the fixed works, and every requirement met with its best option
  const combo: Combo = new Map(goal.fixed);
  const baseline = evaluate(ctx, new Map(goal.fixed));
  for (const r of goal.requirements) {
    if (satisfied(combo, r)) continue;
    const options = r.groups.flatMap((g) => groups.get(g) ?? []);
    const pick =
      r.groups.length === 1
        ? options[0]
        : options.reduce<Candidate | undefined>(
            (a, b) => (!a || merit(b, baseline.o) > merit(a, baseline.o) ? b : a),
            undefined,
          );
    if (pick) combo.set(slot(pick), pick);
  }
  let current = evaluate(ctx, combo);
  // greedy: add or upgrade, predicted to reach first (cheapest), else best merit
  while (!reaches(current.o, goal.target) && budgetLeft()) {
    let move: { c: Candidate; extra: number; reach: boolean; merit: number } | undefined;
    for (const [g, list] of groups) {
      if (goal.fixed.has(g)) continue;
      const had = current.combo.get(g);
      for (const c of list) {
        if (had && c.cout <= had.cout) continue;
        if (had === c) continue;
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
    const ev = evaluate(ctx, next);
    if (short(ev.o) >= short(current.o) && !reaches(ev.o, goal.target)) {
      // the prediction was wrong: take it anyway only if nothing else is left
      current = ev;
      continue;
    }
    current = ev;
  }
  if (!reaches(current.o, goal.target)) {
    // the strongest option of every group
    const strongest: Combo = new Map(goal.fixed);
    for (const [g, list] of groups) {
      if (goal.fixed.has(g)) continue;
      const best = list.reduce((a, b) =>
        shortfall(b.single, t, goal.target) < shortfall(a.single, t, goal.target) ? b : a,
      );
      strongest.set(g, best);
    }
    const ev = evaluate(ctx, strongest);
    if (!reaches(ev.o, goal.target))
      return { best: short(ev.o) < short(current.o) ? ev : current, reached: false };
    current = ev;
  }
  // local search: drop what is not required, downgrade to cheaper options
  let improved = true;
  const required = (c: Combo, g: string) =>
    goal.requirements.some(
      (r) => r.groups.includes(g) && !r.groups.some((h) => h !== g && c.has(h)),
    );
  while (improved && budgetLeft()) {
    improved = false;
    const chosen = [...current.combo.entries()]
      .filter(([g]) => !goal.fixed.has(g))
      .sort((a, b) => b[1].cout - a[1].cout);
    for (const [g, c] of chosen) {
      const tries: Combo[] = [];
      if (!required(current.combo, g)) {
        const without = new Map(current.combo);
        without.delete(g);
        tries.push(without);
      }
      for (const d of groups.get(g) ?? []) {
        if (d.cout >= c.cout) break;
        const swapped = new Map(current.combo);
        swapped.set(g, d);
        tries.push(swapped);
      }
      // an option of another group, cheaper, predicted to keep the class (a water heater for
      // a heat pump); a required group only for a group of the same requirement
      for (const [h, list] of groups) {
        if (current.combo.has(h) || goal.fixed.has(h)) continue;
        if (
          required(current.combo, g) &&
          !goal.requirements.some((r) => r.groups.includes(g) && r.groups.includes(h))
        )
          continue;
        for (const d of list) {
          if (d.cout >= c.cout) break;
          const ep = (current.o.after.epM2 * ratio(d, 'ep')) / ratio(c, 'ep');
          const ges = (current.o.after.gesM2 * ratio(d, 'ges')) / ratio(c, 'ges');
          if (shortfallOfFigures(ep, ges, t, goal.target) > SWAP_SLACK) continue;
          const swapped = new Map(current.combo);
          swapped.delete(g);
          swapped.set(h, d);
          tries.push(swapped);
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

function shortfallOfFigures(epM2: number, gesM2: number, t: Thresholds, target: ClassLetter) {
  if (target === 'G') return 0;
  const ep = Math.max(0, epM2 - t.dpe[target] + 0.5) / t.dpe[target];
  const ges = Math.max(0, gesM2 - t.ges[target] + 0.5) / t.ges[target];
  return ep + ges;
}

// ---------------------------------------------------------------- the audit

export function auditDpe(engine: Engine, prep: PreparedDpe, opts: AuditOptions): AuditResponse {
  const startRuns = runCount(prep);
  const thresholds = prep.thresholds;
  const groups = candidatesOf(engine, prep, {
    coef: opts.coef,
    forceNormalization: opts.forceNormalization,
    costs: opts.costs,
  });
  const singles = runCount(prep);
  const ctx: SearchContext = {
    engine,
    prep,
    opts,
    thresholds,
    groups,
    left: () => AUDIT_TOTAL_BUDGET - (runCount(prep) - singles),
  };
  const base = evaluate(ctx, new Map());
  const initialClass = base.o.classesBefore.dpe;
  const initial = figures(base.o, prep, 'before');
  const fOrG = initialClass === 'F' || initialClass === 'G';
  const target: ClassLetter = fOrG ? 'C' : 'B';
  const auditApplies = classIndex(initialClass) >= classIndex('D');
  const items = itemsOf(engine, prep, groups);
  const proposals: AuditProposal[] = [];
  if (auditApplies) {
    proposals.push(pathInSteps(ctx, items, base, target));
    proposals.push(pathInOneStep(ctx, items, base, target));
  }
  const blocked = new Set<RuleId>();
  for (const p of proposals) for (const r of p.rules) if (!r.pass) blocked.add(r.id);
  const building = scopeOf(prep.raw);
  const what = building.coverage === 'immeuble' ? 'building' : 'dwelling';
  const usedKeys = new Set<CostKey>();
  for (const p of proposals)
    for (const s of p.steps)
      for (const w of s.works) {
        const ref = parseReferenceId(w.referenceId);
        const row = ref && findOption(ref.category, w.editableKey, w.editableValue);
        if (row) usedKeys.add(row.cost);
      }
  return {
    dpeId: prep.key,
    coverage: building.coverage,
    surface: round2(prep.base.surface),
    coefMode: opts.coef,
    normalized: base.o.normalization.applied,
    initial,
    targetClass: target,
    targetRule: fOrG
      ? `class C: the ${what} is in ${initialClass} before works (class C is enough from F or G)`
      : `class B: the ${what} is in ${initialClass} before works`,
    auditApplies,
    losses: lossBreakdown(prep),
    items: items.states,
    proposals,
    ok: auditApplies && proposals.every((p) => p.ok),
    blockedBy: [...blocked],
    costs: {
      source: opts.costs.source,
      margin: opts.costs.margin,
      delta: opts.costs.delta,
      figures: [...usedKeys].sort().map((key) => {
        const f = opts.costs.figures[key];
        return { key, eur: round2(f.eur), unit: f.unit, source: f.source };
      }),
    },
    versions: {
      dpeSim: opts.version,
      engine: engine.version,
      catalogue: catalogueFingerprint(opts.costs),
    },
    changeSets: runCount(prep) - startRuns,
    note: AUDIT_NOTE,
  };
}

/** A short fingerprint of the works catalogue and the cost figures (same inputs, same id). */
export function catalogueFingerprint(costs: CostTable): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(CATALOGUE));
  h.update(JSON.stringify(costs.figures));
  h.update(JSON.stringify([costs.delta, costs.margin]));
  return `${CATALOGUE.length} options, ${h.digest('hex').slice(0, 12)}`;
}

function figures(o: Outcome, prep: PreparedDpe, side: 'before' | 'after'): AuditFigures {
  const f = o[side];
  const surface = prep.base.surface > 0 ? prep.base.surface : 1;
  return {
    classe: side === 'before' ? o.classesBefore.dpe : o.classesAfter.dpe,
    epM2: round2(f.epM2),
    gesM2: round2(f.gesM2),
    ef: Math.round(f.ef),
    efM2: Math.round(f.ef / surface),
    bill: Math.round(f.cout),
  };
}

function allRequirements(items: Items): Requirement[] {
  return [...items.requirements.values()].flat();
}

function ventilationRequirement(items: Items): Requirement[] {
  return items.ventilationWeak ? (items.requirements.get('ventilation') ?? []) : [];
}

function pathInOneStep(
  ctx: SearchContext,
  items: Items,
  base: Evaluated,
  target: ClassLetter,
): AuditProposal {
  const found = cheapestReaching(ctx, {
    fixed: new Map(),
    requirements: allRequirements(items),
    target,
  });
  const steps = [stepOf(ctx, 1, base, found.best)];
  const rules: AuditRule[] = [
    ventilationRule(ctx, items, steps),
    finalRule(steps, target, found),
    ...sixItemsRule(items, steps),
  ];
  return proposal('single', 'Path in one step', steps, rules, items);
}

function pathInSteps(
  ctx: SearchContext,
  items: Items,
  base: Evaluated,
  target: ClassLetter,
): AuditProposal {
  const initialIdx = classIndex(base.o.classesBefore.dpe);
  const firstTarget = classFromIndex(Math.max(1, initialIdx - 2));
  const insulation = INSULATION_ITEMS.filter((k) => items.requirements.has(k));
  const vent = ventilationRequirement(items);
  const firsts: (Found & { pair: ItemKey[] })[] = [];
  const pairs: ItemKey[][] = [];
  for (let i = 0; i < insulation.length; i++)
    for (let j = i + 1; j < insulation.length; j++)
      pairs.push([insulation[i] as ItemKey, insulation[j] as ItemKey]);
  if (pairs.length === 0) pairs.push(insulation); // one item or none: the rule will say so
  for (const pair of pairs) {
    if (ctx.left() <= 0 && firsts.length) break;
    const requirements = [...pair.flatMap((k) => items.requirements.get(k) ?? []), ...vent];
    const found = cheapestReaching(ctx, { fixed: new Map(), requirements, target: firstTarget });
    firsts.push({ ...found, pair });
  }
  // the cheapest first step meeting its rules first; when its completion cannot reach the final
  // class (step 1's works are kept as they are), the next first step is tried
  firsts.sort((a, b) => Number(b.reached) - Number(a.reached) || a.best.cout - b.best.cout);
  let step1 = firsts[0] as Found & { pair: ItemKey[] };
  let completion: Found | undefined;
  for (const candidate of firsts) {
    const rest = allRequirements(items).filter((r) => !satisfied(candidate.best.combo, r));
    const done = !rest.length && reaches(candidate.best.o, target);
    const next = done
      ? undefined
      : cheapestReaching(ctx, { fixed: candidate.best.combo, requirements: rest, target });
    if (candidate === firsts[0] || (next?.reached ?? true)) {
      step1 = candidate;
      completion = next;
    }
    if (next?.reached ?? true) break;
    if (ctx.left() <= 0) break;
  }
  const steps: AuditStep[] = [stepOf(ctx, 1, base, step1.best)];
  if (completion)
    steps.push(stepOf(ctx, 2, step1.best, completion.best, steps[0]?.cumulativeCost ?? 0));
  const s1 = steps[0] as AuditStep;
  const gain = s1.gain;
  const treated1 = INSULATION_ITEMS.filter(
    (k) => s1.works.some((w) => w.item === k) && itemDone(items, k, [s1]),
  );
  const rules: AuditRule[] = [
    {
      id: 'first-step-gain',
      label: 'First step gains at least two classes',
      pass: gain >= 2,
      figure: `${s1.before.classe} → ${s1.after.classe}: ${gain} class${gain === 1 ? '' : 'es'}`,
      why:
        gain >= 2
          ? null
          : `no combination of the catalogue found reaches ${firstTarget} from ${s1.before.classe}: the strongest reaches ${s1.after.classe} (${Math.round(s1.after.epM2)} kWh/m², ${Math.round(s1.after.gesM2)} kg CO2e/m²)`,
    },
    {
      id: 'first-step-insulation',
      label: 'First step treats at least two insulation items',
      pass: treated1.length >= 2,
      figure: `${treated1.length} item${treated1.length === 1 ? '' : 's'}${treated1.length ? `: ${treated1.map((k) => ITEM_LABELS[k].toLowerCase()).join(', ')}` : ''}`,
      why:
        treated1.length >= 2
          ? null
          : `only ${insulation.length} insulation item${insulation.length === 1 ? '' : 's'} can take works from the catalogue${insulation.length ? ` (${insulation.map((k) => ITEM_LABELS[k].toLowerCase()).join(', ')})` : ''}; ${items.states
              .filter((s) => INSULATION_ITEMS.includes(s.key) && !s.needed)
              .map((s) => `${s.label.toLowerCase()}: ${s.reason ?? ''}`)
              .join('; ')}`,
    },
    ventilationRule(ctx, items, steps),
    finalRule(steps, target, completion ?? step1),
    ...sixItemsRule(items, steps),
  ];
  return proposal('steps', 'Path in steps', steps, rules, items);
}

function proposal(
  kind: 'steps' | 'single',
  title: string,
  steps: AuditStep[],
  rules: AuditRule[],
  items: Items,
): AuditProposal {
  return {
    kind,
    title,
    steps,
    cost: round2(steps.reduce((s, x) => s + x.cost, 0)),
    rules,
    items: itemOutcomes(items, steps),
    ok: rules.every((r) => r.pass),
  };
}

/** Whether the works of `steps` treat the item (every requirement of it met). */
function itemDone(items: Items, key: ItemKey, steps: readonly AuditStep[]): boolean {
  const reqs = items.requirements.get(key) ?? [];
  const refs = new Set(
    steps.flatMap((s) => s.works.map((w) => `${w.referenceId}|${w.editableKey}`)),
  );
  return reqs.length > 0 && reqs.every((r) => r.groups.some((g) => refs.has(g)));
}

function itemOutcomes(items: Items, steps: readonly AuditStep[]): ItemOutcome[] {
  return items.states.map((s) => {
    if (!s.needed)
      return { key: s.key, label: s.label, status: 'not-needed', step: null, reason: s.reason };
    for (let i = 0; i < steps.length; i++)
      if (itemDone(items, s.key, steps.slice(0, i + 1)))
        return { key: s.key, label: s.label, status: 'treated', step: i + 1, reason: null };
    return {
      key: s.key,
      label: s.label,
      status: 'missing',
      step: null,
      reason: 'the catalogue offers works on it, and the proposal does not treat it',
    };
  });
}

function sixItemsRule(items: Items, steps: readonly AuditStep[]): AuditRule[] {
  const outcomes = itemOutcomes(items, steps);
  const missing = outcomes.filter((o) => o.status === 'missing');
  const treated = outcomes.filter((o) => o.status === 'treated').length;
  return [
    {
      id: 'six-items',
      label: 'The six items are treated or need no works',
      pass: missing.length === 0,
      figure: `${treated} treated, ${outcomes.length - treated - missing.length} need no works, ${missing.length} missing`,
      why: missing.length
        ? `not treated: ${missing.map((m) => m.label.toLowerCase()).join(', ')}`
        : null,
    },
  ];
}

function finalRule(steps: readonly AuditStep[], target: ClassLetter, found: Found): AuditRule {
  const last = steps[steps.length - 1] as AuditStep;
  const pass = classIndex(last.after.classe) <= classIndex(target);
  return {
    id: 'final-class',
    label: `Final class ${target} or better`,
    pass,
    figure: `${last.after.classe} (${Math.round(last.after.epM2)} kWh/m², ${Math.round(last.after.gesM2)} kg CO2e/m²)`,
    why: pass
      ? null
      : found.reached
        ? `the search's budget ran out before reaching ${target}`
        : steps.length > 1
          ? `with the first step's works kept, the strongest works of the catalogue on every other element reach ${last.after.classe}, not ${target}`
          : `the strongest works of the catalogue on every element reach ${last.after.classe}, not ${target}`,
  };
}

function ventilationRule(ctx: SearchContext, items: Items, steps: readonly AuditStep[]): AuditRule {
  const hasVentOptions = items.requirements.has('ventilation');
  if (!items.ventilationWeak)
    return {
      id: 'ventilation',
      label: 'Ventilation with the envelope works',
      pass: true,
      figure: `mechanical ventilation in place (${items.ventilationLabel})`,
      why: null,
    };
  const first = steps.findIndex((s) =>
    s.works.some((w) => w.item !== 'ventilation' && w.item !== 'heatingHotWater'),
  );
  const ventStep = steps.findIndex((s) => s.works.some((w) => w.item === 'ventilation'));
  const pass = first < 0 || (ventStep >= 0 && ventStep <= first);
  void ctx;
  return {
    id: 'ventilation',
    label: 'Ventilation with the envelope works',
    pass,
    figure:
      first < 0
        ? `${items.ventilationLabel}; no envelope works`
        : ventStep >= 0
          ? `${items.ventilationLabel}: ventilation works in step ${ventStep + 1}, envelope works from step ${first + 1}`
          : `${items.ventilationLabel}: no ventilation works`,
    why: pass
      ? null
      : hasVentOptions
        ? 'the ventilation works are not in the first step with envelope works'
        : 'the catalogue offers no ventilation works on this DPE',
  };
}

function stepOf(
  ctx: SearchContext,
  n: number,
  before: Evaluated,
  after: Evaluated,
  cumulativeBefore = 0,
): AuditStep {
  const added = [...after.combo.entries()].filter(([g, c]) => before.combo.get(g) !== c);
  const run = runWorks(ctx.engine, ctx.prep, changesOf(after.combo), ctx.opts.costs);
  const works: AuditWork[] = added.map(([, c]) => {
    const applied = run.applied.find(
      (a) =>
        a.change.referenceId === c.change.referenceId &&
        a.change.editableKey === c.change.editableKey,
    );
    return workOf(ctx, c, applied?.cout ?? c.cout, applied?.coutDetail ?? c.coutDetail ?? '');
  });
  const cost = round2(works.reduce((s, w) => s + w.cost, 0));
  const beforeFigures =
    n === 1 ? figures(before.o, ctx.prep, 'before') : figures(before.o, ctx.prep, 'after');
  const afterFigures = figures(after.o, ctx.prep, 'after');
  return {
    n,
    works,
    before: beforeFigures,
    after: afterFigures,
    gain: classIndex(beforeFigures.classe) - classIndex(afterFigures.classe),
    cost,
    cumulativeCost: round2(cumulativeBefore + cost),
  };
}

function workOf(ctx: SearchContext, c: Candidate, cost: number, costDetail: string): AuditWork {
  const ref = parseReferenceId(c.change.referenceId);
  const category = (ref?.category ?? 'mur') as Category;
  const el = elementsOf(ctx.prep.raw, category)[ref?.index ?? 0] as RawElement | undefined;
  const row = findOption(category, c.change.editableKey, c.change.editableValue);
  const description = el ? descriptionOf(el) : '';
  const area = el ? areaOf(category, el) : 0;
  const envelope = area > 0;
  return {
    ...c.change,
    item: ITEM_OF[category],
    element: description ? `${c.change.referenceId} — ${description}` : c.change.referenceId,
    option: c.label,
    performance: row ? performanceOf(row) : c.label,
    quantity: envelope ? round2(area) : (unitsOf(costDetail) ?? 1),
    unit: envelope ? 'm²' : 'installation',
    cost: round2(cost),
    costDetail,
  };
}

/**
 * How many appliances a system's price stands for, read from its cost detail ("24 × 2 950 €": an
 * individual water heater in each of a building's 24 dwellings); undefined when the price is not
 * a count × a unit price (per kW, per building, a boiler room).
 */
function unitsOf(costDetail: string): number | undefined {
  const m = /^(\d[\d\u202f]*) × /.exec(costDetail);
  return m?.[1] ? Number(m[1].replace(/\u202f/g, '')) : undefined;
}

/** The option's recommended performance, from its recipe. */
export function performanceOf(row: WorksOptionRow): string {
  const r = row.recipe;
  switch (r.kind) {
    case 'wall':
    case 'roof':
    case 'floor':
      return `R = ${r.r} m²·K/W`;
    case 'window':
      return `Uw = ${r.uw} W/(m²·K)`;
    case 'door':
      return `U = ${r.uporte} W/(m²·K)`;
    case 'ventilation':
      return r.typeId === '20' ? 'double flow with heat recovery' : 'humidity-controlled (type B)';
    case 'heating':
    case 'hot-water':
      return `generator: efficiency of the 3CL tables for a new ${row.code}`;
    case 'distribution':
      return row.label;
  }
}

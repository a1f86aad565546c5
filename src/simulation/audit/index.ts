/**
 * The regulatory energy audit computed from a DPE (arrêté du 4 mai 2022 as amended by the arrêté
 * du 29 décembre 2023; docs/audit.md). The folder:
 *
 * - levels.ts: the aids' levels (rules as data) and which catalogue options meet them;
 * - items.ts: the six items and their elements (needs works, at the level, cannot, and why);
 * - gate.ts: the input gate, before any figure;
 * - paths.ts: the two paths (the search behind one module);
 * - rules.ts: the rules, each with the figure it is judged on;
 * - content.ts: bills at dated prices, aids, controls, summer comfort, scope;
 * - this file: the audit put together (steps, works lines, the synthesis).
 */
import { numberText } from '../../contract/number-text.js';
import { createHash } from 'node:crypto';
import type {
  AuditFigures,
  AuditAids,
  AuditProposal,
  AuditResponse,
  AuditStep,
  AuditWork,
  LossBreakdown,
  LossKey,
  RuleId,
} from '../../contract/audit.js';
import { ALERT_IDS } from '../../contract/alert-ids.js';
import { classIndex, type ClassLetter } from '../../contract/classes.js';
import { DpeSimError } from '../../contract/errors.js';
import type { Category, CoefMode, Thresholds } from '../../contract/schemas.js';
import { scopeOf } from '../../dpe/building.js';
import { descriptionOf, elementsOf, parseReferenceId } from '../../dpe/elements.js';
import { num, type RawDpe, type RawElement, type RawGeneratorHolder } from '../../dpe/raw.js';
import { ecsGensOf } from '../../works/context.js';
import { COEF_2026 } from '../../contract/constants.js';
import { BILL_USES } from '../../engine/bills.js';
import type { Engine } from '../../engine/engine.js';
import { applyWorks, areaOf, doorsOf, priceOn, resolveChanges } from '../../works/apply.js';
import { CATALOGUE, findOption, type WorksOptionRow } from '../../works/catalogue.js';
import type { CostKey, CostTable } from '../../works/costs.js';
import { heatingEnergy } from '../../works/generators.js';
import type { Outcome } from '../calc.js';
import { round2 } from '../comparison.js';
import type { PreparedDpe } from '../prepared.js';
import { changeKey, runWorks } from '../runs.js';
import { candidatesOf, maxAbovePercent, type Candidate } from '../scenarios.js';
import { costPerDwelling } from '../cost-ceiling.js';
import {
  aidsOf,
  builtOf,
  FOSSIL_ENERGIES,
  heatingEnergyOf,
  hotWaterKeptOf,
  appointKeptOf,
  type AidHeating,
  type AidScope,
  BILL_PRICES,
  ceeSheet,
  controlsOf,
  acceptedReplacedOf,
  liningReplacedOf,
  livingAreaOf,
  costCeilingNoteOf,
  dearerStepsNoteOf,
  scopeText,
  comfortLostOf,
  summerComfortOf,
} from './content.js';
import { oversizedDoors } from '../../dpe/doors.js';
import { windowShares, windowsOf } from '../../dpe/windows.js';
import { billRiseOf } from '../bill-rise.js';
import { billComparison } from '../consistency.js';
import { inputGate, type Gate } from './gate.js';
import { heatPumpsNoteOf } from '../../works/heat-pumps.js';
import { waterHeatersNoteOf } from '../../works/water-heaters.js';
import {
  INSULATION_ITEMS,
  ITEM_OF,
  judgeItems,
  unknownInsulationNote,
  type Items,
} from './items.js';
import { isRoofWindow, optionAllowed, optionTreats, windowMeets, levelText } from './levels.js';
import {
  changesOf,
  judge,
  searchPaths,
  type Evaluated,
  type PathFrame,
  type StepProof,
} from './paths.js';
import { itemOutcomes, rulesOf, treatedInsulation, treatedInsulationBy } from './rules.js';

export { ITEM_LABELS } from './items.js';
export { AUDIT_SEARCH_BUDGET, AUDIT_TOTAL_BUDGET } from './paths.js';

export const AUDIT_NOTE =
  'This report is computed from the DPE data with the 3CL-2021 method and a works catalogue. It supports, and does not replace, the auditor’s visit, measurements and judgement: the works, quantities, costs and the feasibility of each proposal must be checked on site.';

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

export interface AuditOptions {
  coef: CoefMode;
  forceNormalization: boolean;
  costs: CostTable;
  /** dpe-sim's version, for the report (config/version.ts) */
  version: string;
  /** when the input gate fails: the engine's own figures under a banner instead of a block */
  engineFigures?: boolean;
  /** engine runs of the exchange pass per unproved answer (AUDIT_EXCHANGE_RUNS; 0: none) */
  exchangeRuns?: number;
  /** the final drops and swaps on the answers left unproved (default true; tests compare) */
  finalPass?: boolean;
  /** the path in one step's works split in two as the path in steps when cheaper in all (default true) */
  splitPass?: boolean;
}

/**
 * The path in steps made of the path in one step's works split in two (paths.ts `splitFromSingle`):
 * what step 1 is, what the path costs against the path chosen step by step, and, where step 1 is
 * bounded by that path's step-1 proof, how far above the cheapest first step it may be.
 */
function splitPathText(
  split: { stepwiseCost: number },
  steps: readonly AuditStep[],
  proved: boolean,
): string {
  const cost = Math.round(steps.reduce((t, st) => t + st.cost, 0));
  const stepwise = Math.round(split.stepwiseCost);
  const first = steps[0];
  const above =
    first && !first.exact && typeof first.maxAbovePercent === 'number' && first.maxAbovePercent > 0
      ? ` Step 1 alone (${numberText(Math.round(first.cost))}\u00a0€) costs at most ${first.maxAbovePercent}\u00a0% more than the cheapest first step for the same pair of insulation items.`
      : '';
  return (
    `Two steps, with the same works as the path in one step: step 1 is the cheapest part of them, ` +
    `taken by kind of element (every wall together, every window, the heating, the hot water), ` +
    `that meets a first step’s rules (two classes gained, two insulation items, the ventilation ` +
    `with them); step 2 is the rest. The path costs what the path in one step costs` +
    `${proved ? ', proved the cheapest for the final class' : ''}, ` +
    `${numberText(stepwise - cost)}\u00a0€ less than the path chosen step by step (the cheapest ` +
    `step 1 first, ${numberText(stepwise)}\u00a0€ in all).${above}`
  );
}

// ---------------------------------------------------------------- the loss breakdown

/**
 * The engine's losses per item (W/K) and their shares; the items sum to the engine's total. A
 * generated flat's envelope is its building's: the losses are scaled to the flat's share.
 */
export function lossBreakdown(prep: PreparedDpe): LossBreakdown {
  const dep = (prep.base.output.logement?.sortie as Record<string, unknown> | undefined)
    ?.deperdition as Record<string, unknown> | undefined;
  const share = scopeOf(prep.raw).envelopeShare;
  const value = (field: string) => {
    const v = Number(dep?.[field]);
    return Number.isFinite(v) ? v * share : 0;
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

// ---------------------------------------------------------------- the audit

/** The audit's candidates: the scenario search's, less the envelope options below the aids' levels. */
function auditCandidates(
  engine: Engine,
  prep: PreparedDpe,
  opts: AuditOptions,
): Map<string, Candidate[]> {
  // envelope works at the aids' levels; a generator the aids do not accept (direct electric
  // radiators, an electric tank) is not proposed: the distribution works (valves, emitters,
  // lagging) still may be
  const allow = (row: WorksOptionRow, el: RawElement) =>
    optionAllowed(row, el) && (row.key !== 'ReplaceGEN' || optionTreats(row));
  return candidatesOf(engine, prep, {
    coef: opts.coef,
    forceNormalization: opts.forceNormalization,
    costs: opts.costs,
    allow,
  });
}

export function auditDpe(engine: Engine, prep: PreparedDpe, opts: AuditOptions): AuditResponse {
  const thresholds = prep.thresholds;
  const frame: PathFrame = {
    engine,
    prep,
    coef: opts.coef,
    forceNormalization: opts.forceNormalization,
    engineOnly: false,
    costs: opts.costs,
    thresholds,
    groups: new Map(),
    ...(opts.exchangeRuns !== undefined ? { exchangeRuns: opts.exchangeRuns } : {}),
    ...(opts.finalPass !== undefined ? { finalPass: opts.finalPass } : {}),
    ...(opts.splitPass !== undefined ? { splitPass: opts.splitPass } : {}),
  };
  // ---- the gate, before any figure
  const shownBase = judge(frame, baseFigures(prep, opts.coef));
  let checks = inputGate(prep, opts.coef, shownBase);
  let gate: Gate = {
    passed: checks.every((c) => c.pass),
    checks,
    engineFigures: false,
    banner: null,
  };
  if (!gate.passed) {
    const failed = checks.filter((c) => !c.pass);
    const text = failed
      .map((c) => `${c.label.charAt(0).toLowerCase()}${c.label.slice(1)}: no (${c.figure})`)
      .join('; ');
    if (!opts.engineFigures)
      throw new DpeSimError(
        'blocked',
        `DPE ${prep.key}: the audit's input gate failed: ${text}. No audit figure is made from it; --engine-figures shows the engine's own figures under a banner.`,
        {
          reason: 'blocked',
          dpeId: prep.key,
          warnings: [
            {
              id: ALERT_IDS.auditGate,
              type: 'block',
              title: 'The DPE’s figures cannot carry an audit',
              content: text,
            },
          ],
        },
      );
    frame.engineOnly = true;
    const own = judge(frame, baseFigures(prep, opts.coef));
    checks = inputGate(prep, opts.coef, own);
    const primary = checks.find((c) => c.id === 'primary-final');
    if (primary && !primary.pass)
      throw new DpeSimError(
        'blocked',
        `DPE ${prep.key}: even the engine's own figures are impossible: ${primary.figure}`,
        { reason: 'blocked', dpeId: prep.key },
      );
    gate = {
      passed: false,
      checks,
      engineFigures: true,
      banner: `The engine's own figures, not the registry's: ${text}. They are not the DPE's figures; check the DPE before relying on any.`,
    };
  }
  frame.groups = auditCandidates(engine, prep, opts);
  const items = judgeItems(engine, prep, frame.groups, frame);
  // no works on an envelope element already at its level (or without losses)
  for (const e of items.elements)
    if (INSULATION_ITEMS.includes(e.item) && (e.status === 'at-level' || e.status === 'no-losses'))
      for (const g of [...frame.groups.keys()])
        if (g.startsWith(`${e.referenceId}|`)) frame.groups.delete(g);
  const baseO = judge(frame, baseFigures(prep, opts.coef));
  const initialClass = baseO.classesBefore.dpe;
  const initial = figures(baseO, prep, 'before');
  const fOrG = initialClass === 'F' || initialClass === 'G';
  const target: ClassLetter = fOrG ? 'C' : 'B';
  const auditApplies = classIndex(initialClass) >= classIndex('D');
  const scope = scopeOf(prep.raw);
  // the aids' age rule, and a whole building's dwellings (its cost and aids divided by them)
  const aidScope: PathScope = {
    built: builtOf(prep.raw),
    dwellings: scope.coverage === 'immeuble' ? scope.dwellings : 1,
    glazing: glazingOf(prep.raw),
    thresholds: frame.thresholds,
  };
  const proposals: AuditProposal[] = [];
  let combinations = 0;
  if (auditApplies) {
    const paths = searchPaths(frame, items, target);
    combinations = paths.combinations;
    if (paths.strongest) aidScope.strongest = paths.strongest;
    const stepsList: AuditStep[] = [];
    let prev = paths.base;
    for (const [i, ev] of paths.steps.entries()) {
      stepsList.push(
        withProof(
          stepOf(frame, i + 1, prev, ev, stepsList[i - 1]?.cumulativeCost ?? 0),
          paths.stepProofs[i] ?? null,
        ),
      );
      prev = ev;
    }
    const single = [withProof(stepOf(frame, 1, paths.base, paths.single, 0), paths.singleProof)];
    const comfortBefore = summerComfortOf(prep.base.output);
    for (const steps of [stepsList, single])
      steps.forEach((step, i) => {
        // a summer-comfort criterion the step's works lose: said, with why
        const lost = comfortLostOf(
          i === 0 ? comfortBefore : steps[i - 1]?.summerComfort,
          step.summerComfort,
        );
        if (lost && step.summerComfort)
          step = { ...step, summerComfort: { ...step.summerComfort, lost } };
        const upTo = steps.slice(0, i + 1).map((s) => s.works);
        const note = heatPumpsNoteOf(prep.raw, frame.costs, upTo);
        // new water heaters on two or more hot-water installations of one dwelling: said with
        // the step's other hot-water note
        const heaters = waterHeatersNoteOf(prep.raw, upTo);
        // a generator the aids already accept that the step replaces: said, with why
        const hotWater = [
          step.hotWaterNote,
          heaters,
          acceptedReplacedOf(items, step.works, 'installation_ecs'),
        ]
          .filter(Boolean)
          .join(' ');
        const heating = [
          step.heatingNote,
          acceptedReplacedOf(items, step.works, 'installation_chauffage'),
        ]
          .filter(Boolean)
          .join(' ');
        // insulation works on elements whose U is the 3CL's default for an unknown insulation
        const unknown = unknownInsulationNote(
          items.elements.filter((e) => step.works.some((w) => w.referenceId === e.referenceId)),
          () => 'these works',
        );
        const insulation = [liningReplacedOf(prep.raw, step.works), unknown && `${unknown}.`]
          .filter(Boolean)
          .join(' ');
        steps[i] = {
          ...step,
          ...(insulation ? { insulationNote: insulation } : {}),
          ...(note ? { heatPumpsNote: note } : {}),
          ...(hotWater ? { hotWaterNote: hotWater } : {}),
          ...(heating ? { heatingNote: heating } : {}),
        };
      });
    proposals.push(
      proposal(
        'steps',
        'Path in steps',
        stepsList,
        items,
        target,
        initialClass,
        paths.stepsReached,
        aidScope,
      ),
    );
    proposals.push(
      proposal(
        'single',
        'Path in one step',
        single,
        items,
        target,
        initialClass,
        paths.singleReached,
        aidScope,
      ),
    );
    // (30 of the corpus's 141 audits: a reader comparing two identical proposals is told so)
    // (14 more on the corpus: the path in one step's works in two steps, paths.ts `splitOf`, said so, and why
    // step 1 alone may cost more than the cheapest first step)
    const allWorks = (sts: AuditStep[]) =>
      sts
        .flatMap((st) => st.works.map(changeKey))
        .sort()
        .join(';');
    (proposals[0] as AuditProposal).samePath =
      stepsList.length === 1 && allWorks(stepsList) === allWorks(single)
        ? 'One step, with the same works as the path in one step: the two proposals are one path.'
        : paths.splitFromSingle && allWorks(stepsList) === allWorks(single)
          ? splitPathText(
              paths.splitFromSingle,
              stepsList,
              paths.singleReached && !!single[0]?.exact,
            )
          : null;
    // (a path chosen step by step may cost more in all than works chosen together: said so)
    const dearer = dearerStepsNoteOf(
      proposals[0] as AuditProposal,
      proposals[1] as AuditProposal,
      target,
      aidScope.dwellings,
    );
    if (dearer) (proposals[0] as AuditProposal).dearerNote = dearer;
    // (a path above the cost per m² of a deep renovation: its figure and dearest lines, to check)
    for (const p of proposals) {
      const costNote = costCeilingNoteOf(p, scope);
      if (costNote) p.costNote = costNote;
    }
  }
  const blocked = new Set<RuleId>();
  for (const p of proposals) for (const r of p.rules) if (!r.pass) blocked.add(r.id);
  const what = scope.coverage === 'immeuble' ? 'building' : 'dwelling';
  const usedKeys = new Set<CostKey>();
  for (const p of proposals)
    for (const s of p.steps)
      for (const w of s.works) {
        const ref = parseReferenceId(w.referenceId);
        const row = ref && findOption(ref.category, w.editableKey, w.editableValue);
        if (row) usedKeys.add(row.cost);
      }
  const synthesis: NonNullable<AuditResponse['synthesis']> = [];
  for (const p of proposals)
    p.steps.forEach((s, i) => {
      // the step's own aids, as its detail states them (a path's later step in C claims none)
      const amounts = s.aids?.byCategory.map((c) => c.maPrimeRenov) ?? [0];
      // and on a path's last step, the path's as one application when eligible
      const path =
        p.steps.length > 1 && i === p.steps.length - 1 && p.aids?.eligible
          ? p.aids.byCategory.map((c) => c.maPrimeRenov)
          : undefined;
      synthesis.push({
        proposal: p.kind,
        step: s.n,
        classe: s.after.classe,
        epM2: s.after.epM2,
        gesM2: s.after.gesM2,
        bill: s.after.bill,
        billSaved: s.billSaved ?? 0,
        cost: s.cost,
        aidsMin: Math.min(...amounts),
        aidsMax: Math.max(...amounts),
        ...(path ? { pathAidsMin: Math.min(...path), pathAidsMax: Math.max(...path) } : {}),
      });
    });
  const summerComfort = summerComfortOf(prep.base.output, prep.raw);
  return {
    dpeId: prep.key,
    coverage: scope.coverage,
    surface: round2(prep.base.surface),
    coefMode: opts.coef,
    normalized: baseO.normalization.applied,
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
    changeSets: combinations,
    note: AUDIT_NOTE,
    gate,
    scope: scopeText(scope, scope.coverage, windowShares(prep.raw), oversizedDoors(prep.raw)),
    ...dpeLabelOf(prep, frame),
    prices: {
      date: BILL_PRICES.date,
      source: `${BILL_PRICES.source}${baseO.normalization.applied ? BILL_PRICES.scaled : ''}`,
      ...dpeBillOf(prep),
    },
    controls: controlsOf(engine, prep.raw),
    ...(summerComfort ? { summerComfort } : {}),
    synthesis,
  };
}

/**
 * The DPE's own label (`dpeLabel`): its class and figures as its XML states them, under its own
 * rules (its electricity coefficient, the class limits of its date), and the class the audit's
 * figures before works give under those rules: a class that differs from the audit's is then put
 * down to today's rules, or to the figures.
 */
function dpeLabelOf(prep: PreparedDpe, frame: PathFrame): Pick<AuditResponse, 'dpeLabel'> {
  const { registry: r, registryCoef, date } = prep.facts;
  const classe = r.classe as ClassLetter | undefined;
  if (!classe || classIndex(classe) < 1 || r.epM2 === undefined || r.gesM2 === undefined) return {};
  const coef: CoefMode = registryCoef === COEF_2026 ? 'activated' : 'deactivated';
  const itsRules = { ...frame, coef, thresholds: prep.registryThresholds };
  return {
    dpeLabel: {
      classe,
      epM2: Math.round(r.epM2),
      gesM2: Math.round(r.gesM2),
      coef: registryCoef,
      ...(date ? { date } : {}),
      atItsRules: judge(itsRules, baseFigures(prep, coef)).classesBefore.dpe,
      limitsChanged:
        JSON.stringify([prep.thresholds.dpe, prep.thresholds.ges]) !==
        JSON.stringify([prep.registryThresholds.dpe, prep.registryThresholds.ges]),
    },
  };
}

/**
 * The DPE's own bill and the engine's at the prices in force at the DPE's date (`prices.dpe`),
 * where the DPE states one: what the audit's bills, at the latest prices, are checked against.
 */
function dpeBillOf(prep: PreparedDpe): { dpe?: NonNullable<AuditResponse['prices']>['dpe'] } {
  const bill = billComparison(prep);
  if (bill.registry === undefined || !Number.isFinite(bill.engine.total)) return {};
  // (where the bills part by more than 5 %: the uses, to show where)
  const byUse =
    bill.gap !== undefined && Math.abs(bill.gap) > 5
      ? BILL_USES.flatMap((use) => {
          const registry = bill.registryByUse[use];
          const engine = bill.engine.byUse[use];
          return registry !== undefined && (registry > 0 || engine > 0)
            ? [{ use, registry: round2(registry), engine: round2(engine) }]
            : [];
        })
      : [];
  return {
    dpe: {
      date: bill.table,
      registry: round2(bill.registry),
      engine: round2(bill.engine.total),
      ...(byUse.length ? { byUse } : {}),
    },
  };
}

function baseFigures(prep: PreparedDpe, coef: CoefMode) {
  return coef === 'activated' ? prep.base.mode2026 : prep.base.mode2025;
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

function proposal(
  kind: 'steps' | 'single',
  title: string,
  steps: AuditStep[],
  items: Items,
  target: ClassLetter,
  initial: ClassLetter,
  reached: boolean,
  at: PathScope,
): AuditProposal {
  const rules = rulesOf(kind, steps, items, target, reached, at.thresholds, at.strongest);
  const cost = round2(steps.reduce((s, x) => s + x.cost, 0));
  const each = costPerDwelling(cost, at.dwellings);
  const out: AuditProposal = {
    kind,
    title,
    steps: steps.map((st, i) => ({
      ...st,
      aids: aidsOf(
        { cost: st.cost, steps: [st] },
        st.before.classe,
        treatedInsulationBy(items, steps, i).length,
        sheetsOf([st], at),
        at,
        heatingLeft([st]),
      ),
    })),
    cost,
    ...(each === undefined ? {} : { costPerDwelling: each }),
    rules,
    items: itemOutcomes(items, steps),
    ok: rules.every((r) => r.pass),
  };
  out.aids = aidsOf(
    out,
    initial,
    treatedInsulation(items, steps).length,
    sheetsOf(steps, at),
    at,
    heatingLeft(steps),
  );
  const final = rules.find((r) => r.id === 'final-class');
  out.justification = final && !final.pass ? final.why : null;
  return out;
}

/**
 * The aids' scope of a path, and each window's glazing before works (`baie_vitree:N` →
 * `enum_type_vitrage_id`): BAR-EN-104 pays only for replacing single glazing.
 */
type PathScope = AidScope & {
  glazing: ReadonlyMap<string, { id: string; windows: number }>;
  thresholds: Thresholds;
  /** the final class out of reach: the strongest works' figures (`Paths.strongest`) */
  strongest?: { epM2: number; gesM2: number };
};

/**
 * Each window element's glazing in the DPE (`baie_vitree:N` → `enum_type_vitrage_id`) and its
 * windows (`nb_baie`: 2187E0982013C's four elements are 10 windows).
 */
function glazingOf(raw: RawDpe): Map<string, { id: string; windows: number }> {
  const out = new Map<string, { id: string; windows: number }>();
  elementsOf(raw, 'baie_vitree').forEach((el, i) => {
    const id = el.donnee_entree?.enum_type_vitrage_id;
    if (id !== undefined && id !== null)
      out.set(`baie_vitree:${i}`, { id: String(id), windows: Math.max(1, windowsOf(el)) });
  });
  return out;
}

/** BAR-EN-104, the sheet of a window's replacement. */
const WINDOW_SHEET = 'BAR-EN-104';

/**
 * Why BAR-EN-104 does not pay, or pays for part of the windows, when the windows a works line
 * replaces are not all single-glazed: its version of 31 October 2024 pays only for replacing
 * single glazing. `glazing` holds the glazing (`enum_type_vitrage_id`) of each window replaced;
 * undefined when every one is single-glazed.
 */
function windowSheetNote(glazing: readonly string[]): string | undefined {
  const single = glazing.filter((g) => g === '1').length;
  if (single === glazing.length) return undefined;
  const others = [...new Set(glazing.filter((g) => g !== '1'))].map(
    (g) => GLAZING_LABELS[g] ?? `glazing ${g}`,
  );
  const rule = 'its version of 31 October 2024 pays only for replacing single glazing';
  return single === 0
    ? `does not pay here: ${rule}, and the windows replaced have ${others.join(', ')}`
    : `pays for ${single} of the ${glazing.length} windows replaced: ${rule}, and the others have ${others.join(', ')}`;
}

/** The 3CL's glazings (`enum_type_vitrage_id`) other than single glazing, as the aids' note names them. */
const GLAZING_LABELS: Readonly<Record<string, string>> = {
  '2': 'double glazing',
  '3': 'triple glazing',
  '4': 'secondary glazing (survitrage: to check with the obligated party)',
  '5': 'glass bricks',
  '6': 'polycarbonate',
};

/**
 * The CEE sheets of the steps' works, whether the works meet them, and (BAR-EN-104) why a sheet
 * does not pay for the windows replaced.
 */
function sheetsOf(steps: readonly AuditStep[], at: PathScope): AuditAids['sheets'] {
  const sheets = new Map<
    string,
    { sheet: string; works: string; met: boolean; glazing: string[] }
  >();
  for (const s of steps)
    for (const w of s.works) {
      const ref = parseReferenceId(w.referenceId);
      const row = ref && findOption(ref.category, w.editableKey, w.editableValue);
      if (!row) continue;
      const variant = row.recipe.kind === 'roof' ? row.recipe.variant : undefined;
      const sheet = ceeSheet(row.code, row.recipe.kind, variant);
      if (!sheet) continue;
      const key = `${sheet}|${row.code}`;
      const prev = sheets.get(key);
      const met = w.aidLevel?.met ?? true;
      const glazing = [...(prev?.glazing ?? [])];
      const g = at.glazing.get(w.referenceId);
      if (sheet === WINDOW_SHEET && g !== undefined)
        for (let k = 0; k < g.windows; k++) glazing.push(g.id);
      sheets.set(key, { sheet, works: w.option, met: prev ? prev.met && met : met, glazing });
    }
  return [...sheets.values()].map(({ glazing, ...x }) => {
    const note = x.sheet === WINDOW_SHEET ? windowSheetNote(glazing) : undefined;
    return note ? { ...x, note } : x;
  });
}

/** A step with what the proof says of it (the step's own cost against its proven bound). */
function withProof(step: AuditStep, proof: StepProof | null): AuditStep {
  if (!proof) return { ...step, exact: false, lowerBound: 0, maxAbovePercent: null };
  // (with the rows in the answers' worlds, `StepProof.finalBound`)
  const bound = Math.max(proof.lowerBound, proof.finalBound ?? 0);
  const lowerBound = proof.exact ? step.cost : Math.min(round2(bound), step.cost);
  return {
    ...step,
    exact: proof.exact || lowerBound >= step.cost,
    lowerBound,
    maxAbovePercent: maxAbovePercent(step.cost, lowerBound),
  };
}

function stepOf(
  frame: PathFrame,
  n: number,
  before: Evaluated,
  after: Evaluated,
  cumulativeBefore: number,
): AuditStep {
  const added = [...after.combo.entries()].filter(([g, c]) => before.combo.get(g) !== c);
  const resolved = resolveChanges(frame.prep, changesOf(after.combo));
  const run = runWorks(frame.engine, frame.prep, changesOf(after.combo), frame.costs);
  // the works' own output: the windows' solar factor and summer comfort after the step
  const applied = applyWorks(frame.engine, frame.prep, resolved, frame.costs);
  const output = applied.applied.length
    ? frame.engine.run(applied.raw, { owned: true }).output
    : frame.prep.base.output;
  const works: AuditWork[] = added.map(([, c]) => {
    const a = run.applied.find(
      (x) =>
        x.change.referenceId === c.change.referenceId &&
        x.change.editableKey === c.change.editableKey,
    );
    return workOf(
      frame,
      c,
      a?.cout ?? c.cout,
      a?.coutDetail ?? c.coutDetail ?? '',
      a?.coutBatiment,
      output,
    );
  });
  const cost = round2(works.reduce((s, w) => s + w.cost, 0));
  const beforeFigures = figures(before.o, frame.prep, n === 1 ? 'before' : 'after');
  const afterFigures = figures(after.o, frame.prep, 'after');
  const comfort = summerComfortOf(output);
  const heating = heatingEnergyOf(frame.engine, output);
  // the works' input the step starts from (the earlier steps' works applied: the DPE's own
  // input when there are none)
  const from = applyWorks(
    frame.engine,
    frame.prep,
    resolveChanges(frame.prep, changesOf(before.combo)),
    frame.costs,
  );
  const hotWaterNote = hotWaterKeptOf(frame.engine, from.raw, applied.raw);
  // (what a replaced main heating generator leaves beside it, with its share in the works' own
  // output)
  const heatingNote = appointKeptOf(frame.engine, from.raw, applied.raw, output);
  // the living area interior insulation takes, the step's and the earlier steps' (the runs'
  // perteSurface, calc's perte_surface_m2), and the step's figures on the area left
  const livingArea = livingAreaOf(frame.engine, frame.prep.site, {
    n,
    lost: run.perteSurface,
    byStep: Math.round((run.perteSurface - from.perteSurface) * 100) / 100,
    epM2: after.o.after.epM2,
    gesM2: after.o.after.gesM2,
    classe: afterFigures.classe,
  });
  const billSaved = Math.round(beforeFigures.bill - afterFigures.bill);
  // a bill that rises says why (the works trade a cheap energy for a dearer one): the output the
  // step starts from, run again only then (after the input was read above: the run may write
  // into the private copy it is given)
  let billNote: string | undefined;
  if (billSaved < 0) {
    const fromOutput = from.applied.length
      ? frame.engine.run(from.raw, { owned: true }).output
      : frame.prep.base.output;
    billNote = billRiseOf(frame.engine, fromOutput, output, {
      before: beforeFigures.ef,
      after: afterFigures.ef,
    });
  }
  return {
    n,
    works,
    before: beforeFigures,
    after: afterFigures,
    gain: classIndex(beforeFigures.classe) - classIndex(afterFigures.classe),
    cost,
    cumulativeCost: round2(cumulativeBefore + cost),
    billSaved,
    ...(billNote ? { billNote } : {}),
    ...(hotWaterNote ? { hotWaterNote } : {}),
    ...(heatingNote ? { heatingNote } : {}),
    ...(comfort ? { summerComfort: comfort } : {}),
    ...(heating ? { heatingEnergy: heating } : {}),
    ...(livingArea ? { livingArea } : {}),
  };
}

/** The heating works leave (the aids' fossil-fuel rule): fossil generators installed, what heats most. */
function heatingLeft(steps: readonly AuditStep[]): AidHeating {
  const installsFossil = steps.flatMap((st) =>
    st.works
      .filter((w) => {
        const row = findOption('installation_chauffage', w.editableKey, w.editableValue);
        return (
          w.referenceId.startsWith('installation_chauffage:') &&
          row?.recipe.kind === 'heating' &&
          FOSSIL_ENERGIES.has(heatingEnergy(row.recipe.generator))
        );
      })
      .map((w) => w.option),
  );
  const after = steps[steps.length - 1]?.heatingEnergy;
  return { installsFossil: [...new Set(installsFossil)], ...(after ? { after } : {}) };
}

function workOf(
  frame: PathFrame,
  c: Candidate,
  cost: number,
  costDetail: string,
  buildingCost: number | undefined,
  output: RawDpe,
): AuditWork {
  const { prep } = frame;
  const ref = parseReferenceId(c.change.referenceId);
  const category = (ref?.category ?? 'mur') as Category;
  const el = elementsOf(prep.raw, category)[ref?.index ?? 0] as RawElement | undefined;
  const row = findOption(category, c.change.editableKey, c.change.editableValue);
  const description = el ? descriptionOf(el) : '';
  const scope = scopeOf(prep.raw);
  const area = el ? areaOf(category, el) : 0;
  const envelope = area > 0;
  const share = envelope ? scope.envelopeShare : 1;
  const after = elementsOf(output, category)[ref?.index ?? 0];
  const priced = row && el ? priceOn(row, el, frame.costs, prep.raw) : undefined;
  // what a system's price counts, from the pricing: an individual system's appliances (one a
  // dwelling served), a figure per dwelling's dwellings (pipe insulation, valves), or one plant
  const count = envelope ? undefined : (priced?.count ?? { n: 1, unit: 'installation' as const });
  const work: AuditWork = {
    ...c.change,
    item: ITEM_OF[category],
    element: description ? `${c.change.referenceId} — ${description}` : c.change.referenceId,
    option: c.label,
    performance: row ? performanceOf(row, frame.costs, waterHeaterVolume(row, after)) : c.label,
    quantity: count ? count.n : round2(area * share),
    unit: count ? count.unit : 'm²',
    cost: round2(cost),
    costDetail,
    treats: row ? optionTreats(row) : false,
  };
  if (category === 'porte' && el) work.doors = doorsOf(el);
  if (category === 'baie_vitree' && el) {
    work.windows = windowsOf(el);
    if (priced?.least) work.leastPerWindow = round2(priced.least.eur);
  }
  const served = envelope ? undefined : priced?.served;
  if (served) {
    work.heatedArea = round2(served.area);
    if (served.leastPerDwelling !== undefined)
      work.leastPerDwelling = round2(served.leastPerDwelling);
  }
  if (envelope && share < 1) work.buildingQuantity = round2(area);
  if (buildingCost !== undefined) work.buildingCost = round2(buildingCost);
  if (row && el) {
    const level = aidLevelOf(category, row, el, after);
    if (level) work.aidLevel = level;
  }
  return work;
}

/**
 * The volume a new thermodynamic water heater is simulated with (works/generators.ts
 * `cetVolume`: the tank it replaces), from the works' output; undefined for any other works.
 */
function waterHeaterVolume(row: WorksOptionRow, after: RawElement | undefined): number | undefined {
  const r = row.recipe;
  if (r.kind !== 'hot-water' || (r.generator !== 'cet' && r.generator !== 'cet-exterieur'))
    return undefined;
  const v = num(ecsGensOf((after ?? {}) as RawGeneratorHolder)[0]?.donnee_entree.volume_stockage);
  return v !== undefined && v > 0 ? v : undefined;
}

/** The aids' level of works on an element and whether what they install meets it. */
function aidLevelOf(
  category: Category,
  row: WorksOptionRow,
  el: RawElement,
  after: RawElement | undefined,
): AuditWork['aidLevel'] | undefined {
  const requirement = levelText(category, el);
  const r = row.recipe;
  switch (r.kind) {
    case 'wall':
    case 'roof':
    case 'floor':
      return { requirement: requirement ?? '', met: optionAllowed(row, el), installed: `R ${r.r}` };
    case 'window': {
      const sw = num(after?.donnee_intermediaire?.sw);
      const uw = num(after?.donnee_intermediaire?.uw) ?? r.uw;
      return {
        requirement: requirement ?? '',
        met: windowMeets(r.uw, sw, isRoofWindow(el)),
        installed: `Uw ${r.uw}${sw !== undefined ? `, Sw ${Math.round(sw * 100) / 100}` : ''}${Math.abs(uw - r.uw) > 0.05 ? ` (Uw ${Math.round(uw * 100) / 100} with its closures)` : ''}`,
      };
    }
    case 'door':
      return {
        requirement: requirement ?? '',
        met: optionAllowed(row, el),
        installed: `U ${r.uporte}`,
      };
    case 'heating':
    case 'hot-water':
      return {
        requirement: requirement ?? '',
        met: optionTreats(row),
        installed: row.label,
      };
    default:
      return undefined;
  }
}

/**
 * The option's recommended performance, from its recipe; a generator's, the 3CL generator type its
 * price is for (the costs table's `classe`), at the efficiency the 3CL tables give it.
 */
export function performanceOf(row: WorksOptionRow, costs?: CostTable, volume?: number): string {
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
      return `generator: ${(costs?.figures[row.cost]?.classe ?? row.label).replace(/, any volume$/, volume ? `, ${volume} L` : ', any volume')}, at the 3CL tables' efficiency`;
    case 'distribution':
      return row.label;
  }
}

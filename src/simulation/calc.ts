/**
 * The recalculation with works: the nine result figures before (`VInit`) and after (`value`)
 * works, the hints, normalization to the registry where it applies.
 */
import type {
  Calculation,
  CalculationResult,
  CoefMode,
  Hints,
  Normalization,
  ResultKey,
  Thresholds,
} from '../contract/schemas.js';
import { classesOf, classIndex, type DpeClasses } from '../contract/classes.js';
import type { EngineFigures } from '../engine/engine.js';
import { nextClassHint } from './hints.js';
import { percentText } from '../contract/number-text.js';
import type { CostTable } from '../works/costs.js';
import {
  compare,
  engineFigures,
  normalizationApplies,
  round2,
  type Comparison,
} from './comparison.js';
import type { PreparedDpe } from './prepared.js';
import { billComparison } from './consistency.js';

export const RESULT_TITLES: Record<ResultKey, string> = {
  classe_bilan_dpe: 'Classe DPE (1 = A … 7 = G)',
  classe_conso_c: 'Classe énergie (1 = A … 7 = G)',
  classe_emission_ges: 'Classe climat GES (1 = A … 7 = G)',
  ep_conso_5_usages: 'Consommation d’énergie primaire, 5 usages (kWh/an)',
  ep_conso_5_usages_m2: 'Consommation d’énergie primaire, 5 usages (kWh/m²/an)',
  emission_ges_5_usages: 'Émissions de gaz à effet de serre, 5 usages (kg CO2e/an)',
  emission_ges_5_usages_m2: 'Émissions de gaz à effet de serre, 5 usages (kg CO2e/m²/an)',
  perte_surface_m2: 'Surface habitable perdue par les travaux (m²)',
  cout_5_usages: 'Coût annuel estimé de l’énergie, 5 usages (€/an)',
};

export const DEFAULT_SCENARIO = 'default';

export interface CalcOptions {
  coef: CoefMode;
  forceNormalization: boolean;
  simulationId: string;
  scenario: string;
  includeDpe: boolean;
  costs: CostTable;
}

/** Before/after figures on the label's scale, normalized to the registry when it applies. */
export interface Outcome {
  before: EngineFigures;
  after: EngineFigures;
  normalization: Normalization;
  classesBefore: ReturnType<typeof classesOf>;
  classesAfter: ReturnType<typeof classesOf>;
}

const FIGURE_KEYS = ['ep', 'epM2', 'ges', 'gesM2', 'cout', 'ef'] as const;

function registryValue(cmp: Comparison, k: (typeof FIGURE_KEYS)[number]): number | undefined {
  const r = cmp.registry;
  if (!r) return undefined;
  switch (k) {
    case 'ep':
      return r.ep;
    case 'epM2':
      return r.epM2;
    case 'ges':
      return r.ges;
    case 'gesM2':
      return r.gesM2;
    case 'cout':
      return r.cout;
    case 'ef':
      return undefined;
  }
}

/**
 * Before/after figures. With normalization, each figure's `before` is the registry's own value
 * and `after` keeps the engine's ratio: after = registry × engineAfter / engineBefore, so with
 * no works after equals before exactly; but the bills, at today's prices, are the engine's ×
 * the registry's bill over the engine's at the DPE's date prices (`billFactor`): the registry's
 * own bill is priced at its date. Classes with `thresholds`: today's unless said (the
 * registry packs are compared with the thresholds at the DPE's date).
 */
export function outcome(
  prep: PreparedDpe,
  afterRaw: EngineFigures,
  coef: CoefMode,
  force: boolean,
  thresholds: Thresholds = prep.thresholds,
): Outcome {
  const { beforeRaw, applies, cmp, reason, billFactor } = beforeSide(prep, coef, force);
  let before = beforeRaw;
  let after = afterRaw;
  let normalization: Normalization = {
    applied: false,
    consoFactor: 1,
    gesFactor: 1,
    reason,
  };
  if (applies) {
    before = { ...beforeRaw };
    after = { ...afterRaw };
    for (const k of FIGURE_KEYS) {
      const reg = registryValue(cmp, k);
      const b = beforeRaw[k];
      if (k === 'cout' || reg === undefined || b === 0) continue;
      before[k] = reg;
      after[k] = afterRaw[k] === b ? reg : (reg * afterRaw[k]) / b;
    }
    // the bills stay at today's prices: × the registry's bill over the engine's, both at the
    // prices in force at the DPE's date (the registry's consumption, priced today)
    if (billFactor !== undefined) {
      before.cout = beforeRaw.cout * billFactor;
      after.cout = afterRaw.cout * billFactor;
    }
    normalization = {
      applied: true,
      consoFactor: round4(before.ep / beforeRaw.ep),
      gesFactor: round4(before.ges / beforeRaw.ges),
      ...(billFactor !== undefined ? { billFactor: round4(billFactor) } : {}),
      reason,
    };
  }
  return {
    before,
    after,
    normalization,
    classesBefore: classesOf(before.epM2, before.gesM2, thresholds),
    classesAfter: classesOf(after.epM2, after.gesM2, thresholds),
  };
}

/** What `outcome` reads of the DPE alone: the same for every run in a mode (the search asks it at each run). */
interface BeforeSide {
  beforeRaw: EngineFigures;
  cmp: Comparison;
  applies: boolean;
  /** the normalization's reason, as `outcome` words it */
  reason: string;
  /**
   * normalized: the registry's bill over the engine's, both at the prices in force at the DPE's
   * date (`billComparison`); undefined when the DPE gives no bill
   */
  billFactor: number | undefined;
}

const beforeSides = new WeakMap<PreparedDpe, Map<string, BeforeSide>>();

function beforeSide(prep: PreparedDpe, coef: CoefMode, force: boolean): BeforeSide {
  let byMode = beforeSides.get(prep);
  if (!byMode) {
    byMode = new Map();
    beforeSides.set(prep, byMode);
  }
  const key = `${coef}|${force}`;
  let side = byMode.get(key);
  if (!side) {
    const cmp = compare(prep.facts, prep.base, coef);
    const applies = normalizationApplies(cmp, force);
    const reason = applies
      ? cmp.band === 'normalize'
        ? `gap of ${percentText(cmp.gap ?? 0, 1)} over ${percentText(15)}: results scaled to the registry figures`
        : `gap of ${percentText(cmp.gap ?? 0, 1)} accepted for normalization (forceNormalization)`
      : cmp.band === 'confirm'
        ? `gap between ${percentText(5)} and ${percentText(15)}: not normalized (use forceNormalization to accept)`
        : cmp.band === 'unknown'
          ? 'no registry figures to normalize to'
          : `engine and registry agree within ${percentText(5)}`;
    const bill = applies ? billComparison(prep) : undefined;
    const billFactor =
      bill?.registry !== undefined && bill.engine.total > 0
        ? bill.registry / bill.engine.total
        : undefined;
    side = { beforeRaw: engineFigures(prep.base, coef), cmp, applies, reason, billFactor };
    byMode.set(key, side);
  }
  return side;
}

function round4(x: number): number {
  return Number.isFinite(x) ? Math.round(x * 10_000) / 10_000 : 1;
}

function rv(key: ResultKey, vInit: number, value: number) {
  return { value, VInit: vInit, title: RESULT_TITLES[key] };
}

export function resultOf(o: Outcome, perteSurface: number): CalculationResult {
  const { before: b, after: a } = o;
  return {
    classe_bilan_dpe: rv(
      'classe_bilan_dpe',
      classIndex(o.classesBefore.dpe),
      classIndex(o.classesAfter.dpe),
    ),
    classe_conso_c: rv(
      'classe_conso_c',
      classIndex(o.classesBefore.energy),
      classIndex(o.classesAfter.energy),
    ),
    classe_emission_ges: rv(
      'classe_emission_ges',
      classIndex(o.classesBefore.ges),
      classIndex(o.classesAfter.ges),
    ),
    ep_conso_5_usages: rv('ep_conso_5_usages', round2(b.ep), round2(a.ep)),
    ep_conso_5_usages_m2: rv('ep_conso_5_usages_m2', round2(b.epM2), round2(a.epM2)),
    emission_ges_5_usages: rv('emission_ges_5_usages', round2(b.ges), round2(a.ges)),
    emission_ges_5_usages_m2: rv('emission_ges_5_usages_m2', round2(b.gesM2), round2(a.gesM2)),
    perte_surface_m2: rv('perte_surface_m2', 0, round2(perteSurface)),
    cout_5_usages: rv('cout_5_usages', round2(b.cout), round2(a.cout)),
  };
}

/**
 * The hints (all numbers, as the spec says) and the next class with what holds it back (beside
 * the hints in `calculation`), from the result: consistent with it by construction.
 */
export function hintsOf(
  result: CalculationResult,
  coutTravaux: number,
  classesAfter: DpeClasses,
  thresholds: Thresholds,
): Pick<Calculation, 'hints' | 'classeSuivante' | 'freinClasseSuivante'> {
  const economie = round2(result.cout_5_usages.VInit - result.cout_5_usages.value);
  const epM2 = result.ep_conso_5_usages_m2.value;
  const next = nextClassHint(classesAfter, epM2, result.emission_ges_5_usages_m2.value, thresholds);
  const hints: Hints = {
    economieAnnuelle: economie,
    gainTotal: round2(result.ep_conso_5_usages.VInit - result.ep_conso_5_usages.value),
    gainM2: round2(result.ep_conso_5_usages_m2.VInit - epM2),
    gainGESM2: round2(
      result.emission_ges_5_usages_m2.VInit - result.emission_ges_5_usages_m2.value,
    ),
    perteSurfaceTotal: result.perte_surface_m2.value,
    coutTravaux: round2(coutTravaux),
    retourSurInvestissementAnnees: economie > 0 ? round2(coutTravaux / economie) : null,
    resteClasseSuivanteM2: next.resteEp,
    margeClasseSuivantePourcent: next.margeEpPourcent,
    resteGESClasseSuivanteM2: next.resteGes,
  };
  return { hints, classeSuivante: next.next ?? null, freinClasseSuivante: next.frein };
}

export function calculation(
  o: Outcome,
  coef: CoefMode,
  coutTravaux: number,
  perteSurface: number,
  thresholds: Thresholds,
): Calculation {
  const result = resultOf(o, perteSurface);
  return {
    result,
    ...hintsOf(result, coutTravaux, o.classesAfter, thresholds),
    errorMessage: null,
    normalization: o.normalization,
    coefMode: coef,
    thresholds,
  };
}

export function scenarioTitle(name: string): string {
  return name === DEFAULT_SCENARIO ? 'Calcul par défaut' : name;
}

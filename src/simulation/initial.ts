/**
 * The initial simulation: the DPE structure with its works options, the calculation with no
 * works, the recommended scenarios and the registry's own works packs.
 */
import type { OnProgress } from '../contract/progress.js';
import type { CoefMode, InitialResponse, RegistryPack } from '../contract/schemas.js';
import type { RawDpe } from '../dpe/raw.js';
import { isRecord, num, str } from '../dpe/raw.js';
import type { Engine } from '../engine/engine.js';
import type { CostTable } from '../works/costs.js';
import { calculation, DEFAULT_SCENARIO, outcome, scenarioTitle } from './calc.js';
import { engineFigures } from './comparison.js';
import type { PreparedDpe } from './prepared.js';
import { dpeStructure } from './structure.js';
import { searchScenarios } from './scenarios.js';

export interface InitialOptions {
  coef: CoefMode;
  forceNormalization: boolean;
  simulationId: string;
  costs: CostTable;
  /** called as the works options are evaluated and as each target class is searched */
  onProgress?: OnProgress;
  /** CPU-time budget of the scenario search, ms (default SEARCH_TIME_BUDGET_MS) */
  searchBudgetMs?: number;
}

/** Sharing is free in dpe-sim: the sharing cost is always 0. */
export const SHARING_COST = 0;

export function initialSimulation(
  engine: Engine,
  prep: PreparedDpe,
  opts: InitialOptions,
): InitialResponse {
  const o = outcome(prep, engineFigures(prep.base, opts.coef), opts.coef, opts.forceNormalization);
  return {
    dpe: dpeStructure(
      engine,
      prep,
      opts.coef,
      opts.forceNormalization,
      opts.costs,
      opts.onProgress,
    ),
    simulation: {
      dpeId: prep.key,
      simulationId: opts.simulationId,
      initialGrade: o.classesBefore.dpe,
      currentGrade: o.classesAfter.dpe,
    },
    calculation: calculation(o, opts.coef, 0, 0, prep.thresholds),
    editableChanges: { editablesValues: [] },
    namedCalculation: DEFAULT_SCENARIO,
    namedCalculationTitle: scenarioTitle(DEFAULT_SCENARIO),
    deltaCosts: { margin: opts.costs.margin, delta: opts.costs.delta, source: opts.costs.source },
    autoSolutions: searchScenarios(engine, prep, opts).solutions,
    registryPacks: registryPacks(prep.raw),
    sharingCost: SHARING_COST,
  };
}

function asArray(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  return v === undefined || v === null ? [] : [v];
}

/** The diagnostician's works packs written in the XML (`descriptif_travaux`), to compare. */
export function registryPacks(raw: RawDpe): RegistryPack[] {
  const dt = raw.descriptif_travaux;
  if (!isRecord(dt)) return [];
  const coll = dt.pack_travaux_collection;
  const packs = isRecord(coll) ? asArray(coll.pack_travaux) : [];
  return packs.filter(isRecord).map((p) => {
    const travaux = isRecord(p.travaux_collection) ? asArray(p.travaux_collection.travaux) : [];
    const descriptions = travaux
      .filter(isRecord)
      .map((t) => (str(t.description_travaux) ?? str(t.description))?.split('\n')[0]?.trim())
      .filter((d): d is string => Boolean(d));
    return {
      description:
        descriptions.join(' + ') ||
        (str(p.description) ?? `pack ${str(p.enum_num_pack_travaux_id) ?? ''}`.trim()),
      coutMin: num(p.cout_pack_travaux_min) ?? null,
      coutMax: num(p.cout_pack_travaux_max) ?? null,
      consoApres: num(p.conso_5_usages_apres_travaux) ?? null,
      classeApres: null,
    };
  });
}

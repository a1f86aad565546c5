/**
 * The initial simulation: the DPE structure with its works options, the calculation with no
 * works, the recommended scenarios and the registry's own works packs.
 */
import type { OnProgress } from '../contract/progress.js';
import type { CoefMode, InitialResponse } from '../contract/schemas.js';
import type { Engine } from '../engine/engine.js';
import type { CostTable } from '../works/costs.js';
import { calculation, DEFAULT_SCENARIO, outcome, scenarioTitle } from './calc.js';
import { engineFigures } from './comparison.js';
import type { PreparedDpe } from './prepared.js';
import { dpeStructure } from './structure.js';
import { searchScenarios } from './scenarios.js';
import { registryPacks } from './packs.js';
import { registryOfficialClass } from './classes-table.js';

export { registryPacks } from './packs.js';

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
  // the works options first (progress: options, then scenarios), whose runs the search reuses
  const dpe = dpeStructure(
    engine,
    prep,
    opts.coef,
    opts.forceNormalization,
    opts.costs,
    opts.onProgress,
  );
  const solutions = searchScenarios(engine, prep, opts).solutions;
  return {
    dpe,
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
    autoSolutions: solutions,
    registryPacks: registryPacks(
      prep.raw,
      prep.registryThresholds,
      solutions,
      registryOfficialClass(prep.facts.registry, prep.registryThresholds),
    ),
    sharingCost: SHARING_COST,
    warnings: dpe.warnings,
  };
}

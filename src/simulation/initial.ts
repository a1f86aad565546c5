/**
 * The initial simulation: the DPE structure with its works options, the calculation with no
 * works, the recommended scenarios and the registry's own works packs.
 */
import type { OnProgress } from '../contract/progress.js';
import type {
  AutoSolution,
  CoefMode,
  InitialResponse,
  RegistryPack,
  Thresholds,
} from '../contract/schemas.js';
import { classFromIndex, classIndex, isClassLetter } from '../contract/classes.js';
import type { Engine } from '../engine/engine.js';
import type { CostTable } from '../works/costs.js';
import { heatPumpsNoteOf } from '../works/heat-pumps.js';
import { waterHeatersNoteOf } from '../works/water-heaters.js';
import { calculation, DEFAULT_SCENARIO, outcome, scenarioTitle } from './calc.js';
import { engineFigures, registryMode } from './comparison.js';
import type { PreparedDpe } from './prepared.js';
import { dpeStructure } from './structure.js';
import { searchScenarios } from './scenarios.js';
import {
  packTargets,
  registryPacks,
  withScenarioCosts,
  type ScenarioInPackFrame,
} from './packs.js';
import { figuresOf, runWorks } from './runs.js';
import { registryOfficialClass } from './classes-table.js';
import { scopeOf } from '../dpe/building.js';
import { ceilingWarnings, COST_CEILING, costPerDwelling, costPerM2 } from './cost-ceiling.js';

export { registryPacks } from './packs.js';

export interface InitialOptions {
  coef: CoefMode;
  forceNormalization: boolean;
  simulationId: string;
  costs: CostTable;
  /** called as the works options are evaluated and as each target class is searched */
  onProgress?: OnProgress;
}

/**
 * Budget of the search in the registry packs' frame, in change sets (never time: the same DPE
 * gives the same answer on any machine): it only serves the comparison with the packs, and many
 * of its runs are memo hits of the user's search.
 */
export const PACK_SEARCH_RUN_BUDGET = 40;

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
  const scope = scopeOf(prep.raw);
  const solutions = searchScenarios(engine, prep, opts).solutions.map((sol) => {
    const m2 = costPerM2(sol.cout, scope);
    const each = costPerDwelling(sol.cout, scope.dwellings);
    const works = [sol.items.map((it) => ({ ...it, cost: it.cout }))];
    const heatPumps = heatPumpsNoteOf(prep.raw, opts.costs, works);
    const waterHeaters = waterHeatersNoteOf(prep.raw, works);
    return {
      ...sol,
      ...(m2 === undefined ? {} : { coutParM2: m2 }),
      ...(each === undefined ? {} : { coutParLogement: each }),
      ...(heatPumps === undefined ? {} : { heatPumpsNote: heatPumps }),
      ...(waterHeaters === undefined ? {} : { waterHeatersNote: waterHeaters }),
    };
  });
  const packs = registryPacks(
    prep.raw,
    prep.registryThresholds,
    registryOfficialClass(prep.facts.registry, prep.registryThresholds),
    prep.facts.registryCoef,
  );
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
    registryPacks: withScenarioCosts(
      packs,
      scenariosForPacks(engine, prep, solutions, packs, opts),
      scope.kind === 'appartement-genere'
        ? {
            share: scope.envelopeShare,
            surface: scope.surface,
            ceilingPerM2: COST_CEILING.eurPerM2,
          }
        : undefined,
    ),
    sharingCost: SHARING_COST,
    warnings: [...dpe.warnings, ...ceilingWarnings(solutions, scope)],
  };
}

/**
 * dpe-sim's scenarios in the registry packs' frame: the registry's coefficient and the thresholds
 * at the DPE's date, normalized to the registry as in that mode (the diagnostician's software
 * computed the packs so). The user's scenarios are classed in it (their runs are in the memo: no
 * engine run); when the frames differ, a search in the packs' frame for the classes they reach
 * adds its own (the cheapest way there may not be one of the user's: 2474E3798234X, electric, is
 * E at 1.9 and F at 2.3, so its scenario for D at 1.9 is E at 2.3). Its runs share the memo.
 */
function scenariosForPacks(
  engine: Engine,
  prep: PreparedDpe,
  solutions: readonly AutoSolution[],
  packs: readonly RegistryPack[],
  opts: InitialOptions,
): ScenarioInPackFrame[] {
  const targets = packTargets(packs);
  if (targets.length === 0) return [];
  const coef = registryMode(prep.facts);
  const thresholds = prep.registryThresholds;
  // the user's scenarios whose target class they still reach in the packs' frame
  const holding = new Set<string>();
  const classed = solutions.map((s) => {
    const run = runWorks(engine, prep, s.editables, opts.costs);
    const o = outcome(prep, figuresOf(run, coef), coef, opts.forceNormalization, thresholds);
    const classe = o.classesAfter.dpe;
    if (isClassLetter(s.classe) && classIndex(classe) <= classIndex(s.classe))
      holding.add(s.classe);
    return { cout: s.cout, classe, editables: s.editables };
  });
  const sameRules = sameThresholds(thresholds, prep.thresholds);
  if (coef === opts.coef && sameRules) return classed;
  // At 2.3 electricity weighs more than at 1.9, with the same thresholds: works reaching a class
  // at 2.3 reach it at 1.9. So when the user's scenario for a class (the cheapest found at 1.9)
  // still reaches it at 2.3, it is the cheapest there too: only the other classes are searched.
  const harder = sameRules && coef === 'deactivated' && opts.coef === 'activated';
  const searched = harder ? targets.filter((t) => !holding.has(t)) : targets;
  if (searched.length === 0) return classed;
  const own = searchScenarios(engine, prep, {
    coef,
    thresholds,
    targets: searched,
    forceNormalization: opts.forceNormalization,
    costs: opts.costs,
    runBudget: PACK_SEARCH_RUN_BUDGET,
    // a good scenario serves the comparison: no proof sought, no predicted search, no last drops,
    // no final pass
    proofBudget: 0,
    predictBudget: 0,
    crossingBudget: 0,
    dropBudget: 0,
    swapBudget: 0,
    exchangeBudget: 0,
    secondCutBudget: 0,
    finalPass: false,
  }).solutions.map((s) => ({
    cout: s.cout,
    classe: classFromIndex(s.result.classe_bilan_dpe.value),
    editables: s.editables,
  }));
  return [...classed, ...own];
}

function sameThresholds(a: Thresholds, b: Thresholds): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

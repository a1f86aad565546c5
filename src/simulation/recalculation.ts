/**
 * One recalculation request: works already resolved (checked once, by the caller's session) run
 * through the engine (or the run cache), the figures before and after, the hints, and the DPE
 * structure when asked for.
 */
import { ALERT_IDS } from '../contract/alert-ids.js';
import type { CalcResponse, Warning } from '../contract/schemas.js';
import type { Engine } from '../engine/engine.js';
import { applyWorks, type Resolved } from '../works/apply.js';
import { billRiseOf } from './bill-rise.js';
import { calculation, outcome, scenarioTitle, type CalcOptions } from './calc.js';
import type { PreparedDpe } from './prepared.js';
import { preAnalysis } from './pre.js';
import { figuresOf, runResolved } from './runs.js';
import { dpeStructure } from './structure.js';

export function calculate(
  engine: Engine,
  prep: PreparedDpe,
  resolved: readonly Resolved[],
  opts: CalcOptions,
): CalcResponse {
  const works = runResolved(engine, prep, resolved, opts.costs);
  const o = outcome(prep, figuresOf(works, opts.coef), opts.coef, opts.forceNormalization);
  const body: CalcResponse = {
    simulation: {
      dpeId: prep.key,
      simulationId: opts.simulationId,
      initialGrade: o.classesBefore.dpe,
      currentGrade: o.classesAfter.dpe,
    },
    calculation: calculation(o, opts.coef, works.cout, works.perteSurface, prep.thresholds),
    editableChanges: { editablesValues: works.applied.map((a) => a.change) },
    namedCalculation: opts.scenario,
    namedCalculationTitle: scenarioTitle(opts.scenario),
    // the DPE's alerts, where the decision is made (the same ids as pre)
    warnings: preAnalysis(
      { ok: true, dpe: prep },
      { coef: opts.coef, forceNormalization: opts.forceNormalization },
    ).body.warnings,
  };
  const rise = billRiseWarning(engine, prep, resolved, opts, body, o.before.ef, o.after.ef);
  if (rise) body.warnings = [...(body.warnings ?? []), rise];
  if (opts.includeDpe)
    body.dpe = dpeStructure(engine, prep, opts.coef, opts.forceNormalization, opts.costs);
  return body;
}

/**
 * `warning.bill-rises`: works that raise the energy bill (a heat pump's electricity in place of
 * coal or wood) say why, as the audit's steps do (`billNote`); one more engine run, only then.
 */
function billRiseWarning(
  engine: Engine,
  prep: PreparedDpe,
  resolved: readonly Resolved[],
  opts: CalcOptions,
  body: CalcResponse,
  efBefore: number,
  efAfter: number,
): Warning | undefined {
  if (!(body.calculation.hints.economieAnnuelle < 0)) return undefined;
  const applied = applyWorks(engine, prep, resolved, opts.costs);
  if (!applied.applied.length) return undefined;
  const after = engine.run(applied.raw, { owned: true }).output;
  const content = billRiseOf(engine, prep.base.output, after, {
    before: efBefore,
    after: efAfter,
  });
  return content
    ? { id: ALERT_IDS.billRises, type: 'warning', title: 'The energy bill rises', content }
    : undefined;
}

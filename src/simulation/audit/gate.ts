/**
 * The input gate: checks made before any audit figure (one function, so that it can be unified
 * with the DPE consistency check of `pre`). A DPE fails it when its engine and registry figures
 * are more than 30 % apart (energy or emissions), when the figures it would show are impossible
 * (primary energy below final energy without electricity production), or when a heating or
 * hot-water installation covers another area than the dwelling's and the engine does not apportion
 * it (the same reading as `pre`'s `warning.dpe-inconsistent`, consistency.ts: an installation that
 * declares the building's area is apportioned when the engine's consumption for it stays within
 * 30 % of the XML's own, or when the flat was generated from the building's data), or when a
 * generator's type and energy disagree (consistency.ts `generatorMismatches`).
 */
import type { AuditResponse } from '../../contract/audit.js';
import type { CoefMode } from '../../contract/schemas.js';
import { scopeOf } from '../../dpe/building.js';
import { elementsOf } from '../../dpe/elements.js';
import { num } from '../../dpe/raw.js';
import type { Outcome } from '../calc.js';
import { compare } from '../comparison.js';
import {
  GENERATED_FLAT_METHODS,
  generatorMismatches,
  installationMismatches,
  missingInputsFound,
  unknownInputs,
  type Inconsistency,
} from '../consistency.js';
import type { PreparedDpe } from '../prepared.js';
import { producesElectricity } from './content.js';
import { numberText } from '../../contract/number-text.js';

export const GATE_GAP = 30;
/** an installation may cover up to this much more than the dwelling (rounding in the XML) */
const AREA_TOLERANCE = 0.1;

export type Gate = NonNullable<AuditResponse['gate']>;
type Check = Gate['checks'][number];

const pct = (x: number) => `${x > 0 ? '+' : ''}${Math.round(x)} %`;

/** The gate's checks on the figures the audit would show (`shown`, before works). */
export function inputGate(prep: PreparedDpe, coef: CoefMode, shown: Outcome): Check[] {
  const checks: Check[] = [];
  const cmp = compare(prep.facts, prep.base, coef);
  if (cmp.registry) {
    // the registry's per-m² figures are floored (its true value lies in [r, r + 1)): the
    // engine's exact figure is compared with the middle of that interval, half a unit allowed
    const r = cmp.registry;
    const surface = prep.base.surface > 0 ? prep.base.surface : 1;
    const gap = (exact: number, floored: number) => {
      const mid = floored + 0.5;
      const d = exact - mid;
      return Math.abs(d) <= 0.5 ? 0 : ((d - Math.sign(d) * 0.5) / mid) * 100;
    };
    const dc = gap(cmp.engine.ep / surface, r.epM2);
    const dg = gap(cmp.engine.ges / surface, r.gesM2);
    checks.push({
      id: 'engine-registry',
      label: `Engine and registry within ${GATE_GAP} %`,
      pass: Math.abs(dc) <= GATE_GAP && Math.abs(dg) <= GATE_GAP,
      figure: `primary energy ${numberText(cmp.engine.epM2)} vs ${numberText(cmp.registry.epM2)} kWh/m²/yr (${pct(dc)}), emissions ${numberText(cmp.engine.gesM2)} vs ${numberText(cmp.registry.gesM2)} kg CO2e/m²/yr (${pct(dg)})`,
    });
  } else
    checks.push({
      id: 'engine-registry',
      label: `Engine and registry within ${GATE_GAP} %`,
      pass: true,
      figure: 'no registry figures: the engine’s own are shown',
    });
  const production = producesElectricity(prep.base.output);
  const b = shown.before;
  checks.push({
    id: 'primary-final',
    label: 'Primary energy not below final energy',
    pass: production || b.ep >= b.ef,
    figure: `primary ${numberText(b.ep)} kWh/yr, final ${numberText(b.ef)} kWh/yr${production ? ' (electricity produced on site)' : ''}`,
  });
  const scope = scopeOf(prep.raw);
  const surface = prep.base.surface > 0 ? prep.base.surface : scope.surface;
  const where = `${numberText(surface, 1)} m² ${scope.coverage === 'immeuble' ? 'building' : 'dwelling'}`;
  const wider: string[] = [];
  for (const [category, field, what] of [
    ['installation_chauffage', 'surface_chauffee', 'heating'],
    ['installation_ecs', 'surface_habitable', 'hot water'],
  ] as const)
    elementsOf(prep.raw, category).forEach((inst, i) => {
      const a = num(inst.donnee_entree[field]);
      if (a !== undefined && a > surface * (1 + AREA_TOLERANCE))
        wider.push(`${what} ${i + 1} declares ${numberText(a, 1)} m²`);
    });
  // an installation wider than the dwelling is apportioned by the engine (a collective one): the
  // gate stops only those the engine simulates for other dwellings than it serves
  const cg = (prep.raw.logement?.caracteristique_generale ?? {}) as Record<string, unknown>;
  const generated = GENERATED_FLAT_METHODS.includes(Number(cg.enum_methode_application_dpe_log_id));
  const mismatched = installationMismatches(prep.raw, prep.base.output, prep);
  checks.push({
    id: 'installation-area',
    label: 'Installations cover the dwelling’s area',
    pass: mismatched.length === 0,
    figure: mismatched.length
      ? mismatched.map((m) => `${m.figure}: ${m.text}`).join('; ')
      : wider.length
        ? `${wider.join(', ')} for a ${where}: ${generated ? 'a flat generated from the building’s data, its share apportioned by the engine' : 'apportioned by the engine (its consumption within 30 % of the XML’s own)'}`
        : `every installation within the ${where} the engine simulates`,
  });
  checks.push(
    fromInconsistencies(
      'given-inputs',
      'Inputs the method reads are given',
      missingInputsFound(prep.raw),
      'the method, construction period, ceiling height, living areas, climate zone, altitude class and every envelope element’s area',
    ),
    fromInconsistencies(
      'known-inputs',
      'Inputs are values of the 3CL tables',
      unknownInputs(prep),
      'every enum_…_id input is a value of its 3CL table',
    ),
    fromInconsistencies(
      'generator-energy',
      'Generators’ types agree with their energies',
      generatorMismatches(prep.raw),
      'every heat pump, water heater and network declares its own energy',
    ),
  );
  return checks;
}

/** A check that passes when consistency.ts finds nothing, its figure the findings or `none`. */
function fromInconsistencies(
  id: string,
  label: string,
  found: readonly Inconsistency[],
  none: string,
): Check {
  return {
    id,
    label,
    pass: found.length === 0,
    figure: found.length ? found.map((m) => `${m.figure}: ${m.text}`).join('; ') : none,
  };
}

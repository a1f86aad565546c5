/**
 * Classes side by side for `pre`: energy class, GES class and official class (worse of the two)
 * for the registry as published, the engine with the registry's rules (its coefficient and the
 * thresholds at the DPE's date), and the engine with today's rules (the chosen coefficient and
 * today's thresholds, as simulations use them), with the thresholds used.
 */
import type { ClassesTable, ClassesRow, CoefMode, Thresholds } from '../contract/schemas.js';
import { classesOf, classOf, isClassLetter } from '../contract/classes.js';
import type { RegistryFigures } from '../dpe/facts.js';
import { engineFigures, registryMode } from './comparison.js';
import type { PreparedDpe } from './prepared.js';

/**
 * The DPE's official class as the registry gives it: its own letter when it is a class letter,
 * otherwise worse-of from its per-m² figures with `t` (the registry's thresholds); null when the
 * registry gives neither.
 */
export function registryOfficialClass(r: RegistryFigures, t: Thresholds): string | null {
  if (r.classe && isClassLetter(r.classe)) return r.classe;
  return r.epM2 !== undefined && r.gesM2 !== undefined ? classesOf(r.epM2, r.gesM2, t).dpe : null;
}

export function classesTable(dpe: PreparedDpe, coef: CoefMode): ClassesTable {
  const f = dpe.facts;
  const rows: ClassesRow[] = [];
  const r = f.registry;
  if (r.epM2 !== undefined && r.gesM2 !== undefined) {
    const computed = classesOf(r.epM2, r.gesM2, dpe.registryThresholds);
    rows.push({
      source: 'registry',
      epM2: r.epM2,
      gesM2: r.gesM2,
      energie: classOf(r.epM2, dpe.registryThresholds.dpe),
      ges: r.classeGes && isClassLetter(r.classeGes) ? r.classeGes : computed.ges,
      officielle: registryOfficialClass(r, dpe.registryThresholds) ?? computed.dpe,
      seuils: 'registry',
    });
  }
  const inRegistryMode = engineFigures(dpe.base, registryMode(f));
  const er = classesOf(inRegistryMode.epM2, inRegistryMode.gesM2, dpe.registryThresholds);
  rows.push({
    source: 'engine-registry-rules',
    epM2: inRegistryMode.epM2,
    gesM2: inRegistryMode.gesM2,
    energie: er.energy,
    ges: er.ges,
    officielle: er.dpe,
    seuils: 'registry',
  });
  const today = engineFigures(dpe.base, coef);
  const et = classesOf(today.epM2, today.gesM2, dpe.thresholds);
  rows.push({
    source: 'engine-today',
    epM2: today.epM2,
    gesM2: today.gesM2,
    energie: et.energy,
    ges: et.ges,
    officielle: et.dpe,
    seuils: 'today',
  });
  return {
    rows,
    registryCoef: f.registryCoef,
    registryDate: f.date ?? null,
    thresholdsRegistry: dpe.registryThresholds,
    thresholdsToday: dpe.thresholds,
  };
}

/**
 * New water heaters on two or more hot-water installations of one dwelling (a house whose DPE
 * describes an electric tank for one part and an instantaneous gas heater for the other, each
 * serving its share of the area): the search prices an appliance each, as it simulates them, and
 * the audit's step that adds the second says so, with the areas the DPE gives each installation,
 * leaving to the auditor whether one appliance serves them all (2287E2761872G: two 200 L
 * thermodynamic water heaters, 2 × 2,950 €, in a 62 m² house whose two installations serve 31 m²
 * each). A whole building's installations serve different dwellings: nothing to say.
 */
import { listText, numberText } from '../contract/number-text.js';
import type { RawDpe } from '../dpe/raw.js';
import { countWord, euros, fittedOnIndividual, type PricedWork } from './fitted-systems.js';

/** The hot-water recipes that put a new appliance in an installation's place (not a solar kit
 * whose existing appoint stays). */
const APPLIANCE = new Set(['cet', 'cet-exterieur', 'ballon-electrique']);

interface Fitted {
  work: PricedWork;
  label: string;
  /** the step it is in (1-based) */
  step: number;
  /** the living area the DPE gives its installation, m² */
  area?: number;
}

/**
 * The note of step `n` (1-based) of a path whose steps' works are `works` (one list a step, up to
 * this one): undefined unless this step fits a new water heater and, with the earlier steps',
 * two or more individual hot-water installations of one dwelling (a house or a flat) get one.
 */
export function waterHeatersNoteOf(
  dpe: RawDpe,
  works: readonly (readonly PricedWork[])[],
): string | undefined {
  const n = works.length;
  const fitted: Fitted[] = [];
  for (const { work, row, el, step } of fittedOnIndividual(dpe, 'installation_ecs', works)) {
    if (row.recipe.kind !== 'hot-water' || !APPLIANCE.has(row.recipe.generator)) continue;
    const area = Number(el.donnee_entree.surface_habitable);
    fitted.push({
      work,
      label: row.label,
      step,
      ...(Number.isFinite(area) && area > 0 ? { area } : {}),
    });
  }
  if (fitted.length < 2 || !fitted.some((f) => f.step === n)) return undefined;
  const count = countWord(fitted.length);
  const oneLabel = new Set(fitted.map((f) => f.label)).size === 1;
  const one = (f: Fitted) =>
    `${f.work.referenceId} (${[
      ...(f.step < n ? [`step ${f.step}`] : []),
      ...(oneLabel ? [] : [f.label]),
      ...(f.area !== undefined ? [`${numberText(f.area, 1)}\u00a0m² served`] : []),
      euros(f.work.cost),
    ].join(', ')})`;
  const listed = listText(fitted.map(one));
  const total = fitted.reduce((s, f) => s + f.work.cost, 0);
  const what = oneLabel ? `${fitted[0]?.label ?? ''}: ` : '';
  const them = fitted.length === 2 ? 'both' : 'them all';
  return `${count} new water heaters in one dwelling, one for each of its hot-water installations in the DPE, priced and simulated as ${count.toLowerCase()} appliances: ${what}${listed}, ${euros(total)}; whether one appliance serves ${them} is the auditor’s call on site.`;
}

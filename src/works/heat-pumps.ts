/**
 * Heat pumps of one kind on two or more heating installations of one dwelling (a house's two
 * zones, each with its own generator in the DPE): the search prices an appliance each (prices
 * stay a sum over the works: the proofs rest on it), and the audit's step that adds the second,
 * like `initial`'s scenario that holds them, says so, with what one appliance for all of them
 * would cost where the catalogue prices it (docs/works.md, "An air/air heat pump by the area it
 * heats").
 */
import { listText } from '../contract/number-text.js';
import { elementsOf, parseReferenceId } from '../dpe/elements.js';
import type { RawDpe } from '../dpe/raw.js';
import { priceOn } from './apply.js';
import type { WorksOptionRow } from './catalogue.js';
import type { CostTable } from './costs.js';
import { countWord, euros, fittedOnIndividual, type PricedWork } from './fitted-systems.js';
import { oneApplianceFor } from './pricing.js';

/** The kinds of heat pump one appliance could serve several zones with, by generator recipe. */
const KIND_OF: Record<string, 'air/air' | 'air/water'> = {
  'pac-air-air': 'air/air',
  'pac-air-air-appareils': 'air/air',
  'pac-air-eau': 'air/water',
  'pac-air-eau-ecs': 'air/water',
};

/** a price's detail with each figure kept beside its unit (a no-break space before m² and €) */
const unitsKept = (detail: string) => detail.replace(/(\d) (?=m²|€)/g, '$1\u00a0');

interface Fitted {
  work: PricedWork;
  row: WorksOptionRow;
  /** the step it is in (1-based) */
  step: number;
}

/**
 * The note of step `n` (1-based) of a path whose steps' works are `works` (one list a step, up to
 * this one): undefined unless this step fits a heat pump of a kind whose pumps, with the earlier
 * steps', now sit on two or more individual heating installations of one dwelling (a house or a
 * flat; a whole building's installations serve different dwellings).
 */
export function heatPumpsNoteOf(
  dpe: RawDpe,
  costs: CostTable,
  works: readonly (readonly PricedWork[])[],
): string | undefined {
  const n = works.length;
  const byKind = new Map<'air/air' | 'air/water', Fitted[]>();
  for (const { work, row, step } of fittedOnIndividual(dpe, 'installation_chauffage', works)) {
    const kind = row.recipe.kind === 'heating' ? KIND_OF[row.recipe.generator] : undefined;
    if (!kind) continue;
    byKind.set(kind, [...(byKind.get(kind) ?? []), { work, row, step }]);
  }
  const notes: string[] = [];
  for (const [kind, fitted] of byKind) {
    if (fitted.length < 2 || !fitted.some((f) => f.step === n)) continue;
    const total = fitted.reduce((s, f) => s + f.work.cost, 0);
    const one = (f: Fitted) =>
      `${f.work.referenceId} (${[
        ...(f.step < n ? [`step ${f.step}`] : []),
        ...(kind === 'air/water' ? [f.row.label.replace(/\s*\([^()]*\)$/, '')] : []),
        euros(f.work.cost),
      ].join(', ')})`;
    const listed = listText(fitted.map(one));
    const head = `${countWord(fitted.length)} ${kind} heat pumps in one dwelling, priced as ${countWord(fitted.length).toLowerCase()} appliances: ${listed}, ${euros(total)}.`;
    const them = fitted.length === 2 ? 'both' : 'them all';
    const call = `whether one appliance serves ${them} is the auditor’s call on site.`;
    if (kind === 'air/air') {
      const area = fitted.reduce((s, f) => s + heatedAreaOf(dpe, costs, f), 0);
      const price = area > 0 ? oneApplianceFor(fitted[0]!.row, area, costs) : undefined;
      if (!price) {
        notes.push(`${head} One multi-split may serve ${them}: ${call}`);
        continue;
      }
      const less = total - price.eur;
      notes.push(
        `${head} One multi-split for ${them} would be ${euros(price.eur)} (${unitsKept(price.detail)})${less > 0 ? `, ${euros(less)} less` : ''}: ${call}`,
      );
    } else {
      const dearest = Math.max(...fitted.map((f) => f.work.cost));
      notes.push(
        `${head} One heat pump with a heating circuit for each may serve ${them}, from ${euros(dearest)} (the ${fitted.length === 2 ? 'dearer' : 'dearest'} line) plus the ${fitted.length === 2 ? 'second circuit’s' : 'other circuits’'} fittings, which the catalogue does not price: ${call}`,
      );
    }
  }
  return notes.length ? notes.join(' ') : undefined;
}

/** The area a fitted heat pump heats: the line's, else its price's (m², to the cent as the audit's). */
function heatedAreaOf(dpe: RawDpe, costs: CostTable, f: Fitted): number {
  if (f.work.heatedArea !== undefined) return f.work.heatedArea;
  const ref = parseReferenceId(f.work.referenceId);
  const el = ref ? elementsOf(dpe, 'installation_chauffage')[ref.index] : undefined;
  const area = el ? priceOn(f.row, el, costs, dpe).served?.area : undefined;
  return area === undefined ? 0 : Math.round(area * 100) / 100;
}

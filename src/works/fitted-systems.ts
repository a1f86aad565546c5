/**
 * The works a path fits on the individual systems of one dwelling, step by step: what the notes
 * on several appliances in one dwelling (heat pumps on two heating installations, water heaters
 * on two hot-water installations) read, one way.
 */
import type { EditableChange } from '../contract/schemas.js';
import { numberText } from '../contract/number-text.js';
import { isCollective, scopeOf } from '../dpe/building.js';
import { elementsOf, parseReferenceId } from '../dpe/elements.js';
import type { RawDpe, RawElement } from '../dpe/raw.js';
import { findOption, type WorksOptionRow } from './catalogue.js';

/** A works line as priced: the audit's works and `initial`'s scenario items (`cout`) both give one. */
export interface PricedWork extends EditableChange {
  cost: number;
  /** the area the appliance heats (the pricing's), m²; read from the price when not given */
  heatedArea?: number;
}

export interface FittedWork {
  work: PricedWork;
  row: WorksOptionRow;
  /** the installation it is fitted on */
  el: RawElement;
  /** the step it is in (1-based) */
  step: number;
}

/**
 * The works of `works` (one list a step) on the individual installations of `category` of one
 * dwelling (a house or a flat: none in a whole building, whose installations serve different
 * dwellings), with their catalogue rows.
 */
export function fittedOnIndividual(
  dpe: RawDpe,
  category: 'installation_chauffage' | 'installation_ecs',
  works: readonly (readonly PricedWork[])[],
): FittedWork[] {
  if (scopeOf(dpe).coverage === 'immeuble') return [];
  const installations = elementsOf(dpe, category);
  const out: FittedWork[] = [];
  works.forEach((list, i) => {
    for (const work of list) {
      const ref = parseReferenceId(work.referenceId);
      if (ref?.category !== category) continue;
      const el = installations[ref.index];
      if (!el || isCollective(el)) continue;
      const row = findOption(category, work.editableKey, work.editableValue);
      if (row) out.push({ work, row, el, step: i + 1 });
    }
  });
  return out;
}

/** "Two", "Three"… as a sentence starts a count of appliances. */
export const countWord = (n: number) =>
  ['', 'One', 'Two', 'Three', 'Four', 'Five'][n] ?? numberText(n);

export const euros = (x: number) => `${numberText(Math.round(x))}\u00a0€`;

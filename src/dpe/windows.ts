/**
 * What a DPE's windows say of themselves: their numbers (`nb_baie`) and areas
 * (`surface_totale_baie`), and whether those can describe the same windows.
 */
import { elementsOf } from './elements.js';
import { num, type RawDpe, type RawElement } from './raw.js';

/** Below this average area, m², a DPE's windows (at least WINDOWS_COUNTED) are not windows. */
export const SMALLEST_WINDOW_M2 = 0.2;
const WINDOWS_COUNTED = 10;

/** the windows a window element counts (`nb_baie`, 1 when absent) */
export function windowsOf(el: RawElement): number {
  return num(el.donnee_entree.nb_baie) ?? 1;
}

const shares = new WeakMap<RawDpe, { count: number; area: number } | null>();

/**
 * A DPE's windows when their numbers and areas cannot describe the same windows: at least ten,
 * less than 0.2 m² each on average (2251E1368858K: 366 windows in 4.5 m², 0.012 m² each; its flat
 * carries the building's window counts with the flat's share of their area). Every other corpus
 * DPE averages 0.46 m² a window or more. Undefined when they can.
 */
export function windowShares(raw: RawDpe): { count: number; area: number } | undefined {
  const known = shares.get(raw);
  if (known !== undefined) return known ?? undefined;
  let count = 0;
  let area = 0;
  for (const w of elementsOf(raw, 'baie_vitree')) {
    const a = num(w.donnee_entree.surface_totale_baie);
    if (a === undefined) continue;
    area += a;
    count += windowsOf(w);
  }
  const out =
    count >= WINDOWS_COUNTED && area / count < SMALLEST_WINDOW_M2 ? { count, area } : null;
  shares.set(raw, out);
  return out ?? undefined;
}

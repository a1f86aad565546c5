/**
 * What a DPE's doors say of themselves: their numbers (`nb_porte`) and areas (`surface_porte`),
 * and whether one door element's area can be the doors it counts.
 */
import { elementsOf } from './elements.js';
import { num, type RawDpe, type RawElement } from './raw.js';

/** A standard door leaf, 0.90 × 2.15 m (NF P 23-305 sizes), m². */
export const STANDARD_DOOR_M2 = 0.9 * 2.15;
/** Above this many standard doors' area per door counted, a door element is not its doors. */
const DOORS_AREA_FACTOR = 5;

/** the doors a door element counts (`nb_porte`, 1 when absent): doors are priced by the door */
export function doorsOf(el: RawElement): number {
  return num(el.donnee_entree.nb_porte) ?? 1;
}

/**
 * The door elements whose area is more than five standard doors' for each door they count
 * (2506E0349110S: one door of 35.02 m² onto a circulation, very likely its 20 flats' entrance
 * doors entered as one). Over the corpus's 237 door elements the median is 1.89 m² a door; the
 * three above 9.7 m² are these. Their works are priced by the doors counted, which the audit says
 * is to be taken on site.
 */
export function oversizedDoors(raw: RawDpe): { index: number; area: number; doors: number }[] {
  const out: { index: number; area: number; doors: number }[] = [];
  elementsOf(raw, 'porte').forEach((el, index) => {
    const area = num(el.donnee_entree.surface_porte);
    const doors = doorsOf(el);
    if (area !== undefined && doors > 0 && area / doors > DOORS_AREA_FACTOR * STANDARD_DOOR_M2)
      out.push({ index, area, doors });
  });
  return out;
}

/**
 * DPE classes, computed by dpe-sim itself: the official class is the worse of the energy class
 * and the greenhouse-gas class (the engine's own `classe_bilan_dpe` is energy-only).
 *
 * Thresholds are upper bounds with a strict comparison (value < limit), as the engine and
 * the registry apply them to the floored per-m² figures. Small dwellings (< 40 m²) have their own
 * limits from 2024-07-01 on; high altitude (> 800 m in zones H1b, H1c, H2d) raises E and F.
 */
import type { ClassLimits, Thresholds } from './schemas.js';

export const CLASS_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export type ClassLetter = (typeof CLASS_LETTERS)[number];
type Bounded = Exclude<ClassLetter, 'G'>;

/** A = 1 … G = 7, the indicator used in `calculation.result.classe_*`. */
export function classIndex(letter: ClassLetter): number {
  return CLASS_LETTERS.indexOf(letter) + 1;
}

export function classFromIndex(index: number): ClassLetter {
  const letter = CLASS_LETTERS[Math.round(index) - 1];
  if (!letter) throw new RangeError(`no DPE class with index ${index}`);
  return letter;
}

export function isClassLetter(s: string): s is ClassLetter {
  return (CLASS_LETTERS as readonly string[]).includes(s);
}

export const STANDARD_LIMITS: { dpe: ClassLimits; ges: ClassLimits } = {
  dpe: { A: 70, B: 110, C: 180, D: 250, E: 330, F: 420 },
  ges: { A: 6, B: 11, C: 30, D: 50, E: 70, F: 100 },
};

const HIGH_ALTITUDE_ZONES = new Set(['h1b', 'h1c', 'h2d']);
const HIGH_ALTITUDE_ID = '3'; // "supérieur à 800m"
const HIGH_ALTITUDE = { dpe: { E: 390, F: 500 }, ges: { E: 80, F: 110 } };

/** Small-surface thresholds (from 2024-07-01): published per rounded surface, 3 to 40 m². */
export const SMALL_SURFACE_SINCE = '2024-07-01';

export interface ClassSite {
  /** living surface, m² */
  surface: number;
  /** climate zone label, lower case (`h1a` … `h3`) */
  zone: string;
  /** altitude class id of the registry (`1` < 400 m, `2` 400–800 m, `3` > 800 m) */
  altitudeId: string;
}

export type LimitsLookup = (
  surface: number,
  altitudeId: string,
) => { dpe: Partial<ClassLimits>; ges: Partial<ClassLimits> } | undefined;

/**
 * The limits in force for a dwelling at a date (`YYYY-MM-DD`). `smallSurface` looks up the
 * published small-surface table (the engine carries it).
 */
export function thresholdsFor(
  site: ClassSite,
  date: string,
  smallSurface: LimitsLookup,
): Thresholds {
  const highAltitude = site.altitudeId === HIGH_ALTITUDE_ID && HIGH_ALTITUDE_ZONES.has(site.zone);
  const dpe: ClassLimits = { ...STANDARD_LIMITS.dpe, ...(highAltitude ? HIGH_ALTITUDE.dpe : {}) };
  const ges: ClassLimits = { ...STANDARD_LIMITS.ges, ...(highAltitude ? HIGH_ALTITUDE.ges : {}) };
  const small = Math.round(site.surface) < 40 && date >= SMALL_SURFACE_SINCE;
  if (small) {
    const table = smallSurface(site.surface, highAltitude ? HIGH_ALTITUDE_ID : '1');
    if (table) {
      Object.assign(dpe, table.dpe);
      Object.assign(ges, table.ges);
    }
  }
  return { dpe, ges, smallSurface: small, highAltitude };
}

export function classOf(value: number, limits: ClassLimits): ClassLetter {
  for (const letter of CLASS_LETTERS.slice(0, 6) as Bounded[]) {
    if (value < limits[letter]) return letter;
  }
  return 'G';
}

export function worse(a: ClassLetter, b: ClassLetter): ClassLetter {
  return classIndex(a) >= classIndex(b) ? a : b;
}

export interface DpeClasses {
  energy: ClassLetter;
  ges: ClassLetter;
  /** the official class: the worse of the two */
  dpe: ClassLetter;
}

export function classesOf(epM2: number, gesM2: number, t: Thresholds): DpeClasses {
  const energy = classOf(epM2, t.dpe);
  const gesClass = classOf(gesM2, t.ges);
  return { energy, ges: gesClass, dpe: worse(energy, gesClass) };
}

/** The upper limit of the class just better than `letter` (undefined for A). */
export function betterClassLimit(letter: ClassLetter, limits: ClassLimits): number | undefined {
  const i = CLASS_LETTERS.indexOf(letter);
  if (i <= 0) return undefined;
  return limits[CLASS_LETTERS[i - 1] as Bounded];
}

/** Today's date as `YYYY-MM-DD` (the thresholds in force for a simulation). */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * The next-class hints follow the official class (the worse of energy and GES): the class
 * just better than the official one after works, what each of the two figures still has to
 * gain to fall below its limit, and which one holds the class back.
 */
import type { Thresholds } from '../contract/schemas.js';
import { CLASS_LETTERS, type ClassLetter, type DpeClasses } from '../contract/classes.js';

export interface NextClassHint {
  /** the class just better than the official one; undefined in A */
  next: ClassLetter | undefined;
  /** kWh/m²/yr of primary energy still to save (0 when energy already allows `next`) */
  resteEp: number;
  /** kg CO2e/m²/yr still to avoid (0 when GES already allows `next`) */
  resteGes: number;
  /** `resteEp` as a percentage of the energy limit of `next` */
  margeEpPourcent: number;
  /** what holds the official class back */
  frein: 'energie' | 'ges' | 'energie+ges' | null;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

export function nextClassHint(
  classes: DpeClasses,
  epM2: number,
  gesM2: number,
  t: Thresholds,
): NextClassHint {
  const i = CLASS_LETTERS.indexOf(classes.dpe);
  if (i <= 0) return { next: undefined, resteEp: 0, resteGes: 0, margeEpPourcent: 0, frein: null };
  const next = CLASS_LETTERS[i - 1] as Exclude<ClassLetter, 'G'>;
  const epLimit = t.dpe[next];
  const gesLimit = t.ges[next];
  // limits are strict upper bounds (value < limit): a value at the limit still has to move
  const resteEp = epM2 < epLimit ? 0 : Math.max(0.01, round2(epM2 - epLimit));
  const resteGes = gesM2 < gesLimit ? 0 : Math.max(0.01, round2(gesM2 - gesLimit));
  const frein =
    resteEp > 0 && resteGes > 0
      ? 'energie+ges'
      : resteGes > 0
        ? 'ges'
        : resteEp > 0
          ? 'energie'
          : null;
  return {
    next,
    resteEp,
    resteGes,
    margeEpPourcent: round2((resteEp / epLimit) * 100),
    frein,
  };
}

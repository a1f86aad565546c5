/**
 * "Did you mean": the known name closest to a mistyped one. A module of its own, without the
 * schemas, so that a command's argument check (`config set dpedir`) loads no validator.
 */
import { closest, distance } from 'fastest-levenshtein';

/**
 * The field the caller probably meant: the closest known name, when close enough (at most a
 * third of its letters differ, or it differs only in case or a plural `s`).
 */
export function didYouMean(name: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = name.toLowerCase();
  const sameLetters = known.find((k) => k.toLowerCase() === lower);
  if (sameLetters) return sameLetters;
  const best = closest(name, [...known]);
  return distance(name, best) <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

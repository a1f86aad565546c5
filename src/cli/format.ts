/**
 * Numbers become text for people through `numberText` (contract/number-text.ts: digits grouped
 * with a narrow no-break space, a decimal point — "36 353 kWh/yr", "1.28 €", "−2.3 %"), with a
 * no-break space (U+00A0) before a unit or the euro sign, so that a table never splits a figure
 * from its unit. Labels stay in English (one language per output); `--json` never goes through
 * here: it prints the raw numbers.
 */
import { numberText } from '../contract/number-text.js';

/** no-break space, between a figure and its unit */
export const NBSP = '\u00a0';

/** the dash shown for a missing figure */
export const NONE = '–';

/** 36353 → "36 353"; 182.46 with 1 digit → "182.5"; null → "–". */
export function num(x: number | null | undefined, digits = 0): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return NONE;
  return numberText(x, digits);
}

/** A figure with its unit, kept together: "36 353 kWh/yr". */
export function withUnit(x: number | null | undefined, unit: string, digits = 0): string {
  const n = num(x, digits);
  return n === NONE ? NONE : `${n}${NBSP}${unit.replace(/ /g, NBSP)}`;
}

/** Whole euros: "12 000 €". */
export function euros(x: number | null | undefined): string {
  return withUnit(x === null || x === undefined ? x : Math.round(x), '€');
}

/** Euros per year: "1 250 €/yr". */
export function eurosPerYear(x: number | null | undefined): string {
  return withUnit(x === null || x === undefined ? x : Math.round(x), '€/yr');
}

/** kWh of primary energy: "36 353 kWh/yr" (unit given: kWh/yr, kWh/m²/yr). */
export function kwh(x: number | null | undefined, unit = 'kWh/yr', digits = 0): string {
  return withUnit(x, unit, digits);
}

/** A signed percentage, one decimal: "+4.5 %", "−2.3 %", "0 %". */
export function signedPercent(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return NONE;
  return `${numberText(x, digits, true)}${NBSP}%`;
}

/** A percentage: "12.5 %". */
export function percent(x: number | null | undefined, digits = 1): string {
  return withUnit(x, '%', digits);
}

/** A saving as the user reads it: "−1 234 kWh/yr" saved, "+56 kWh/yr" when it costs energy. */
export function saving(gain: number, unit: string, digits = 0): string {
  return `${gain >= 0 ? '−' : '+'}${withUnit(Math.abs(gain), unit, digits)}`;
}

/**
 * Local date and time on one line, day first as in France, to the minute: "23/11 15:20", with the
 * year when it is not this year's: "23/11/2025 15:20".
 */
export function dateTime(iso: string, now = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  const year = d.getFullYear() === now.getFullYear() ? '' : `/${d.getFullYear()}`;
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}${year}${NBSP}${p(d.getHours())}:${p(d.getMinutes())}`;
}

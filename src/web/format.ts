import { numberText } from '../contract/number-text.js';

/**
 * Figures as the CLI prints them (the contract's `numberText`: '.' decimals, U+202F between
 * groups of thousands, a true minus sign), a no-break space (U+00A0) before the unit, so that no
 * line ends between a figure and its unit; '–' for no figure.
 */
const NBSP = '\u00a0';

export function num(x: number | null | undefined, digits = 0): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '–' : numberText(x, digits);
}

export const euros = (x: number | null | undefined): string =>
  x == null ? '–' : `${num(x)}${NBSP}€`;
export const eurosPerKwh = (x: number | null | undefined): string =>
  x == null ? '–' : `${num(x, 2)}${NBSP}€/kWh`;
export const kwhYear = (x: number | null | undefined): string =>
  x == null ? '–' : `${num(x)}${NBSP}kWh/yr`;

export const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;

/** A class index (1 = A … 7 = G) as its letter. */
export function letter(index: number | null | undefined): string {
  return index == null ? '–' : (LETTERS[Math.round(index) - 1] ?? '–');
}

export function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

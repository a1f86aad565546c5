/**
 * Numbers become text for people through `numberText` (contract/number-text.ts: digits grouped
 * with a narrow no-break space, a decimal point — "36 353 kWh/yr", "1.28 €", "−2.3 %"), with a
 * no-break space (U+00A0) before a unit or the euro sign, so that a table never splits a figure
 * from its unit. Labels stay in English (one language per output); `--json` never goes through
 * here: it prints the raw numbers.
 */
import { stripVTControlCharacters } from 'node:util';
import { numberText, percentText } from '../contract/number-text.js';

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
  return percentText(x, digits, true);
}

/** A percentage: "12.5 %". */
export function percent(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return NONE;
  return percentText(x, digits);
}

/** A saving as the user reads it: "−1 234 kWh/yr" saved, "+56 kWh/yr" when it costs energy. */
export function saving(gain: number, unit: string, digits = 0): string {
  return `${gain >= 0 ? '−' : '+'}${withUnit(Math.abs(gain), unit, digits)}`;
}

/**
 * Dates for people, one format across the CLI (issue 38): ISO 8601's order in local time, to the
 * minute, "2026-11-27 22:21" (a narrow table may put the time under the date); a date alone
 * "2026-11-27";
 * a chart's axis, where 5 characters is all there is, "11-27" (month-day, the same order). Text
 * that is not a date is shown as it is.
 */
export function dateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${dateOnly(d)} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** "2026-11-27", local. */
export function dateOnly(d: Date): string {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** "11-27", local: a chart's axis label. */
export function monthDay(d: Date): string {
  return `${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * Messages for a terminal (stderr's notes, errors, the `serve` banner) wrapped at `width`: at
 * spaces only, so a URL or a path stays whole; a continued line is indented two spaces more than
 * the line it continues. Visible width counted without colour codes. No dependency: this runs
 * on start-up paths (an error, a note) that load no table code.
 */
export function wrapText(text: string, width: number | undefined): string {
  if (width === undefined || width < 20) return text;
  const visible = (s: string) => stripVTControlCharacters(s).length;
  return text
    .split('\n')
    .map((line) => {
      if (visible(line) <= width) return line;
      const lead = /^ */.exec(line)?.[0] ?? '';
      const out: string[] = [];
      let current = lead;
      for (const word of line.slice(lead.length).split(' ')) {
        const candidate = current.trim() === '' ? `${current}${word}` : `${current} ${word}`;
        if (current.trim() !== '' && visible(candidate) > width) {
          out.push(current);
          current = `${lead}  ${word}`;
        } else current = candidate;
      }
      out.push(current);
      return out.join('\n');
    })
    .join('\n');
}

/** stderr's width when it is a terminal (80 when it reports none); undefined otherwise. */
export function stderrWidth(): number | undefined {
  if (!process.stderr.isTTY) return undefined;
  return process.stderr.columns > 0 ? process.stderr.columns : 80;
}

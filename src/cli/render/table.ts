/**
 * Tables for humans (cli-table3), one style for every command, laid out for the terminal:
 *
 * - stdout a TTY: the table fits `process.stdout.columns` (80 when the TTY reports none).
 *   Text cells wrap at spaces (cli-table3's own `wordWrap` with `colWidths`); a column marked
 *   `keep` (ids, classes, euros, figures) is never wrapped; a word is never cut, so an alert id
 *   such as `warning.coefficient-converted` always appears whole. When the columns still do
 *   not fit, the columns listed in `drop` are left out, first listed first. `--wide` shows
 *   every column at its natural width, whatever the terminal.
 * - stdout not a TTY (a pipe, a file): one line per row, cells separated by tabs, no header and
 *   no colour, as `gh` does; multi-line cells are joined with " / ".
 *
 * Widths are measured with string-width (ANSI colours and wide characters counted right).
 * The no-break spaces of the format module (between a figure and its unit, between thousands)
 * are hidden from cli-table3's wrapping, which would otherwise break at them.
 */
import Table from 'cli-table3';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import { stripVTControlCharacters } from 'node:util';

export { euros, num, percent, saving, signedPercent } from '../format.js';
import { terminalLayout, type TableLayout } from './layout.js';
export { terminalLayout, terminalWidth, type TableLayout } from './layout.js';

export interface TableOptions {
  /** indexes of columns never wrapped (ids, classes, euros, figures) */
  keep?: readonly number[];
  /** indexes of secondary columns, left out in this order when the table does not fit */
  drop?: readonly number[];
  /** the layout; by default the process's (see `terminalLayout`) */
  layout?: TableLayout;
  /** no rule between rows (for rows of one line each) */
  compact?: boolean;
  /**
   * no rule between rows even when a row wraps: for tables whose first column numbers the rows
   * (`initial`'s scenarios at a glance), so a row's start stays plain
   */
  numberedRows?: boolean;
  /**
   * indexes of columns cut to their width with "…" rather than wrapped (names that only help
   * to recognise a row: a line a row)
   */
  truncate?: readonly number[];
  /**
   * how a truncated cell is cut to `width` columns, where a plain cut would lose what tells the
   * row apart (an element's "(p1)" part: `elementCell`); undefined for the plain cut
   */
  cutCell?: (row: number, col: number, width: number) => string | undefined;
}

/** the first word of a cell: an id a cut cell keeps whole */
function firstWord(cell: string): string {
  return cell.split(/[ \n]+/)[0] ?? '';
}

/**
 * `text` cut to `width` columns, "…" last when cut, its first word (an id) always whole (no
 * colour codes expected).
 */
function cut(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  const head = firstWord(text);
  if (stringWidth(head) + 2 > width) return head;
  let out = '';
  for (const ch of text) {
    if (stringWidth(`${out}${ch}…`) > width) break;
    out += ch;
  }
  return `${out.trimEnd()}…`;
}

// private-use stand-ins for the no-break spaces while cli-table3 wraps (it splits on \s)
const HIDE: [RegExp, string, RegExp, string][] = [
  [/\u00a0/g, '\ue000', /\ue000/g, '\u00a0'],
  [/\u202f/g, '\ue001', /\ue001/g, '\u202f'],
];
function hideNbsp(s: string): string {
  return HIDE.reduce((t, [re, stand]) => t.replace(re, stand), s);
}
function showNbsp(s: string): string {
  return HIDE.reduce((t, [, , back, nbsp]) => t.replace(back, nbsp), s);
}

const PADDING = 2; // cli-table3's default: one space each side

function naturalWidth(cell: string): number {
  return Math.max(0, ...cell.split('\n').map((l) => stringWidth(l)));
}

/** the widest word: the narrowest a wrapped cell can be without cutting a word */
function longestWord(cell: string): number {
  return Math.max(0, ...cell.split(/[ \n]+/).map((w) => stringWidth(w)));
}

/** tab-separated lines, no header, no colour (stdout is not a terminal) */
export function plainRows(rows: readonly (readonly (string | number)[])[]): string {
  return rows
    .map((r) =>
      r
        .map((c) =>
          stripVTControlCharacters(String(c))
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => l !== '')
            .join(' / ')
            .replace(/\t/g, ' '),
        )
        .join('\t'),
    )
    .join('\n');
}

/**
 * Column widths (padding included) that fit `width`: the columns to show and their widths.
 * Exported for the tests.
 */
export function fitColumns(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  width: number,
  keep: readonly number[] = [],
  drop: readonly number[] = [],
  truncate: readonly number[] = [],
): { shown: number[]; widths: number[] } {
  const all = head.map((_, i) => i);
  const natural = all.map(
    (i) =>
      Math.max(naturalWidth(head[i] ?? ''), ...rows.map((r) => naturalWidth(r[i] ?? ''))) + PADDING,
  );
  const least = all.map((i) =>
    keep.includes(i)
      ? (natural[i] ?? 0)
      : truncate.includes(i)
        ? Math.max(
            longestWord(head[i] ?? ''),
            ...rows.map((r) => stringWidth(firstWord(r[i] ?? ''))),
          ) + PADDING
        : Math.max(longestWord(head[i] ?? ''), ...rows.map((r) => longestWord(r[i] ?? ''))) +
          PADDING,
  );
  let shown = all;
  const need = (cols: number[], w: number[]) =>
    cols.reduce((sum, i) => sum + (w[i] ?? 0), 0) + cols.length + 1;
  if (need(shown, natural) <= width) return { shown, widths: shown.map((i) => natural[i] ?? 0) };
  for (const d of drop) {
    if (need(shown, least) <= width) break;
    if (shown.length > 1) shown = shown.filter((i) => i !== d);
  }
  // share what is left beyond each column's least width, in proportion to what it would use
  const spare = width - need(shown, least);
  const wants = shown.map((i) => (natural[i] ?? 0) - (least[i] ?? 0));
  const totalWant = wants.reduce((a, b) => a + b, 0);
  const widths = shown.map((i, k) => {
    const base = least[i] ?? 0;
    if (spare <= 0 || totalWant === 0) return base;
    return base + Math.floor(((wants[k] ?? 0) * Math.min(spare, totalWant)) / totalWant);
  });
  return { shown, widths };
}

/** A table for people (see the module comment for the layout rules). */
export function table(
  head: string[],
  rows: (string | number)[][],
  opts: TableOptions = {},
): string {
  const layout = opts.layout ?? terminalLayout();
  if (layout.width === undefined) return plainRows(rows);
  const h = head.map(hideNbsp);
  const body = rows.map((r) => r.map((c) => hideNbsp(String(c))));
  const emptyHead = h.every((x) => x === '');
  const fit = layout.wide
    ? { shown: h.map((_, i) => i), widths: undefined }
    : fitColumns(h, body, layout.width, opts.keep, opts.drop, opts.truncate);
  if (fit.widths && opts.truncate?.length) {
    const widths = fit.widths;
    fit.shown.forEach((col, k) => {
      if (!opts.truncate?.includes(col)) return;
      const width = (widths[k] ?? 0) - PADDING;
      body.forEach((r, i) => {
        const cell = r[col] ?? '';
        if (stringWidth(cell) <= width) return;
        r[col] = cut(hideNbsp(opts.cutCell?.(i, col, width) ?? cell), width);
      });
    });
  }
  const pick = <T>(r: readonly T[]) => fit.shown.map((i) => r[i] as T);
  const t = new Table({
    ...(emptyHead ? {} : { head: pick(h) }),
    style: { head: [], border: [] },
    wordWrap: true,
    ...(fit.widths ? { colWidths: fit.widths } : {}),
    // compact only while every cell holds on one line: a wrapped row needs its rules
    ...(opts.numberedRows ||
    (opts.compact &&
      body.every((r) =>
        fit.shown.every(
          (i, k) =>
            !String(r[i]).includes('\n') &&
            (fit.widths === undefined ||
              naturalWidth(r[i] ?? '') + PADDING <= (fit.widths[k] ?? 0)),
        ),
      ))
      ? { chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' } }
      : {}),
  });
  for (const r of body) t.push(pick(r));
  const left = h.filter((_, i) => !fit.shown.includes(i));
  const out = showNbsp(t.toString());
  if (left.length === 0) return out;
  // one line saying what was left out to fit, within the width (wrapped at spaces)
  const note = `(${left.length === 1 ? 'column' : 'columns'} left out to fit ${layout.width} columns: ${left.map((x) => showNbsp(x).replace(/\s+/g, ' ')).join(', ')}; --wide shows every column)`;
  return `${out}\n${wrapAnsi(note, layout.width, { hard: false, trim: true })}`;
}

/**
 * A small terminal chart of a dwelling's own consumption over time (kWh/m²/yr of primary energy,
 * oldest on the left, each point at its date), each run drawn as its DPE class letter, against
 * the class thresholds drawn as dotted lines. Only runs that measure the dwelling as it is
 * (`pre`, `initial`) are a time series; a `calc` is a hypothesis about works, shown in the table
 * (before → after) and never plotted as if it had happened. No dependency: rows of characters.
 */
import type { ClassLimits, HistoryRecord } from '../../contract/schemas.js';
import { STANDARD_LIMITS } from '../../contract/classes.js';
import { dateOnly, monthDay } from '../format.js';

export interface ChartPoint {
  /** the dwelling's consumption measured by that run, kWh/m²/yr; null when unknown */
  value: number | null;
  /** the DPE class of that run; null when unknown */
  klass: string | null;
  /** the run's date as shown under its point ("11-23", month-day); its number when absent */
  label?: string;
}

export interface ChartOptions {
  limits?: ClassLimits;
  /** the rows of the plot area (default: one row per 20, 25, 50… kWh/m²/yr, at most 24) */
  height?: number;
  /** at most this many runs are drawn (the latest) */
  maxPoints?: number;
  /** colours a class letter (3 characters wide when coloured) */
  classLetter?: (letter: string) => string;
}

const COLUMN = 6;
const GUTTER = 7;

/**
 * The points of a dwelling's history as a time series, oldest first (records come newest
 * first): its `pre` and `initial` runs, each at its date, the latest run of a day standing for
 * that day. Fewer than two days: not a time series, `[]` (the chart is left out).
 */
export function consumptionPoints(records: readonly HistoryRecord[]): ChartPoint[] {
  const byDay = new Map<string, ChartPoint>();
  for (const r of [...records].reverse()) {
    if (r.operation !== 'pre' && r.operation !== 'initial') continue;
    if (r.blocked) continue;
    const d = new Date(r.at);
    if (Number.isNaN(d.getTime())) continue;
    const day = dateOnly(d);
    byDay.delete(day); // the latest run of the day, in date order
    byDay.set(day, {
      value: r.consoBefore,
      klass: r.classBefore,
      label: monthDay(d),
    });
  }
  return byDay.size >= 2 ? [...byDay.values()] : [];
}

function center(text: string, width: number, visible = text.length): string {
  const left = Math.max(0, Math.floor((width - visible) / 2));
  const right = Math.max(0, width - visible - left);
  return `${' '.repeat(left)}${text}${' '.repeat(right)}`;
}

const MAX_ROWS = 24;

/** kWh/m²/yr per row and the top of the scale: a round step giving at most 24 rows. */
function scale(max: number, rows?: number): { step: number; top: number } {
  const wanted = max * 1.08;
  if (rows !== undefined) return { step: wanted / rows, top: wanted };
  for (const step of [20, 25, 50, 100, 200, 250, 500, 1000]) {
    const n = Math.ceil(wanted / step);
    if (n <= MAX_ROWS) return { step, top: n * step };
  }
  const step = Math.ceil(wanted / MAX_ROWS);
  return { step, top: step * MAX_ROWS };
}

export function renderChart(all: readonly ChartPoint[], opts: ChartOptions = {}): string {
  const limits = opts.limits ?? STANDARD_LIMITS.dpe;
  const points = opts.maxPoints !== undefined ? all.slice(-opts.maxPoints) : [...all];
  const values = points.map((p) => p.value).filter((v): v is number => v !== null);
  const { step, top } = scale(Math.max(limits.F, ...values), opts.height);
  const height = Math.round(top / step);
  // level 0 is the axis (0 kWh), level `height` the top row
  const levelOf = (v: number) => Math.min(height, Math.max(1, Math.round(v / step)));

  const thresholds = new Map<number, { letters: string[]; limit: number }>();
  for (const [letter, limit] of Object.entries(limits) as [string, number][]) {
    const level = levelOf(limit);
    const t = thresholds.get(level);
    thresholds.set(level, { letters: [...(t?.letters ?? []), letter], limit });
  }
  // `C 180`; thresholds sharing a row (a coarse scale) show their letters only: `AB`
  const label = (t: { letters: string[]; limit: number }) =>
    t.letters.length === 1 ? `${t.letters[0]} ${String(t.limit).padStart(3)}` : t.letters.join('');
  // a point never sits on a threshold line when the row beside it, on its side, is free
  const pointLevel = (v: number): number => {
    const level = levelOf(v);
    const t = thresholds.get(level);
    if (!t) return level;
    const side = v >= t.limit ? level + 1 : level - 1;
    return side >= 1 && side <= height && !thresholds.has(side) ? side : level;
  };
  const levels = points.map((p) => (p.value === null ? undefined : pointLevel(p.value)));

  const colour = opts.classLetter ?? ((l: string) => l);
  const width = points.length * COLUMN;
  const lines: string[] = [];
  for (let level = height; level >= 1; level--) {
    const t = thresholds.get(level);
    const gutter = t
      ? `${label(t).padStart(GUTTER - 2)} ┼`
      : level === height
        ? `${String(Math.round(top)).padStart(GUTTER - 2)} ┤`
        : `${' '.repeat(GUTTER - 2)} │`;
    const fill = t ? '┈' : ' ';
    let plot = '';
    points.forEach((p, i) => {
      if (levels[i] !== level) {
        plot += fill.repeat(COLUMN);
        return;
      }
      const letter = p.klass ?? '●';
      const shown = colour(letter);
      const visible = shown === letter ? letter.length : Math.max(letter.length, 3);
      const pad = COLUMN - visible;
      const left = Math.floor(pad / 2);
      plot += `${fill.repeat(left)}${shown}${fill.repeat(pad - left)}`;
    });
    lines.push(`${gutter}${plot}`.trimEnd());
  }
  const first = all.length - points.length + 1;
  lines.push(`${'0'.padStart(GUTTER - 2)} └${'─'.repeat(width)}`);
  const dated = points.every((p) => p.label !== undefined);
  lines.push(
    `${(dated ? 'date' : 'run').padStart(GUTTER - 2)}  ${points.map((p, i) => center(p.label ?? String(first + i), COLUMN)).join('')}`.trimEnd(),
  );
  lines.push(
    `${'kWh'.padStart(GUTTER - 2)}  ${points
      .map((p) => center(p.value === null ? '–' : String(Math.round(p.value)), COLUMN))
      .join('')}`.trimEnd(),
  );
  return lines.join('\n');
}

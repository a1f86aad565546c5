/**
 * The DPE energy label drawn in the terminal: the seven bars A–G, longer for each worse class,
 * in the label's official colours, each with its thresholds (kWh/m²/yr of primary energy and
 * kg CO2e/m²/yr: the class is the worse of the two), and markers (◀) on the row of the class of
 * each figure shown (engine, registry, before and after works). Colour is never the only
 * signal: the letters, the thresholds and the figures are always printed, and without colour
 * (NO_COLOR, --no-color, not a TTY) the bars are drawn with █ and stay readable.
 */
import stringWidth from 'string-width';
import type { ClassLimits } from '../../contract/schemas.js';
import {
  CLASS_LETTERS,
  STANDARD_LIMITS,
  classesOf,
  thresholdsFor,
  type ClassLetter,
} from '../../contract/classes.js';
import { NBSP, num } from '../format.js';
import type { Style } from './style.js';

export interface LabelMark {
  /** what the figure is: "engine", "registry", "before", "after works" */
  name: string;
  cls: ClassLetter;
  /** kWh/m²/yr of primary energy */
  ep: number | null;
  /** kg CO2e/m²/yr */
  ges: number | null;
}

export interface LabelInput {
  thresholds: { dpe: ClassLimits; ges: ClassLimits };
  marks: LabelMark[];
  /** a line under the title: which thresholds these are */
  note?: string;
  /** terminal width (markers go on their own lines when a row would be wider) */
  width: number;
}

export { STANDARD_LIMITS };

/** The standard limits raised for high altitude (> 800 m in H1b, H1c, H2d), from the domain. */
export const HIGH_ALTITUDE_LIMITS = thresholdsFor(
  { surface: 100, zone: 'h1b', altitudeId: '3' },
  '2026-01-01',
  () => undefined,
);

/** The class of a figure pair on given thresholds (the worse of energy and GES). */
export function classFor(
  ep: number,
  ges: number,
  thresholds: { dpe: ClassLimits; ges: ClassLimits },
): ClassLetter {
  return classesOf(ep, ges, { ...thresholds, smallSurface: false, highAltitude: false }).dpe;
}

function range(letter: ClassLetter, limits: ClassLimits): string {
  const i = CLASS_LETTERS.indexOf(letter);
  if (letter === 'A') return `<${NBSP}${limits.A}`;
  if (letter === 'G') return `≥${NBSP}${limits.F}`;
  const lower = limits[CLASS_LETTERS[i - 1] as keyof ClassLimits];
  const upper = limits[letter as keyof ClassLimits];
  return `${lower}–${upper}`;
}

function pad(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - stringWidth(s)));
}

function markText(m: LabelMark): string {
  return `◀ ${m.name} ${m.cls}: ${num(m.ep === null ? null : Math.floor(m.ep))}${NBSP}|${NBSP}${num(m.ges === null ? null : Math.floor(m.ges))}`;
}

export function renderLabel(input: LabelInput, s: Style): string {
  const { dpe, ges } = input.thresholds;
  const ranges = CLASS_LETTERS.map((l) => `${range(l, dpe)} | ${range(l, ges)}`);
  const rangeWidth = Math.max(...ranges.map((r) => stringWidth(r)));
  const lines = [
    `${s.c.bold('DPE label')} ${s.c.dim('(kWh/m²/yr | kg CO2e/m²/yr: the worse of the two gives the class)')}`,
  ];
  if (input.note) lines.push(s.c.dim(input.note));
  CLASS_LETTERS.forEach((letter, i) => {
    // longer for each worse class, as on the official label
    const fill = (s.enabled ? ' ' : '█').repeat(i + 1);
    const bar = pad(s.classBar(letter, ` ${letter} ${fill}`), 11);
    const head = `  ${bar} ${pad(ranges[i] ?? '', rangeWidth)}`;
    const marks = input.marks.filter((m) => m.cls === letter).map(markText);
    const row = marks.length ? `${head}  ${marks.join('  ')}` : head;
    if (stringWidth(row) <= input.width || marks.length === 0) {
      lines.push(marks.length ? `${head}  ${s.c.bold(marks.join('  '))}` : head.trimEnd());
      return;
    }
    const indent = ' '.repeat(
      Math.max(2, input.width - Math.max(...marks.map((m) => stringWidth(m)))),
    );
    lines.push(`${head}  ${s.c.bold(marks[0] ?? '')}`.trimEnd());
    for (const m of marks.slice(1)) lines.push(`${indent}${s.c.bold(m)}`);
  });
  return lines.join('\n');
}

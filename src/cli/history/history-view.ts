/**
 * History records for people (a table, with the chart for one dwelling) and for other tools
 * (CSV, JSON Lines).
 */
import type { HistoryRecord } from '../../contract/schemas.js';
import { terminalText } from '../../contract/text.js';
import { dateTime, euros, num } from '../format.js';

export interface ViewStyle {
  classLetter(letter: string): string;
}

export function coefLabel(mode: HistoryRecord['coefMode']): string {
  return mode === 'activated' ? '2026' : '2025';
}

function n0(x: number | null): string {
  return num(x === null ? null : Math.round(x));
}

function change<T>(
  before: T | null,
  after: T | null,
  show: (x: T) => string,
  single: boolean,
): string {
  if (single || after === null) return before === null ? '–' : show(before);
  return `${before === null ? '–' : show(before)} → ${show(after)}`;
}

export const HISTORY_HEAD = [
  'When',
  'User',
  'DPE',
  'Op',
  'Scenario',
  'Works',
  'Class',
  'kWh/m²/yr',
  'Cost',
  'Coef',
  'Norm.',
];

export function historyRow(r: HistoryRecord, style: ViewStyle): string[] {
  const pre = r.operation === 'pre';
  return [
    dateTime(r.at),
    // stored text is shown without its control characters (an ESC could rewrite the screen)
    terminalText(`${r.customerId}/${r.userId}`),
    terminalText(r.dpeId),
    r.blocked ? `${r.operation} (blocked)` : r.operation,
    r.scenario === null ? '–' : terminalText(r.scenario),
    pre ? '–' : String(r.works.length),
    change(r.classBefore, r.classAfter, (c) => style.classLetter(c), pre),
    change(r.consoBefore, r.consoAfter, n0, pre),
    r.coutTravaux === null || pre ? '–' : euros(r.coutTravaux),
    coefLabel(r.coefMode),
    r.normalized ? 'yes' : 'no',
  ];
}

export const CSV_COLUMNS = [
  'id',
  'at',
  'customerId',
  'userId',
  'dpeId',
  'operation',
  'scenario',
  'works',
  'classBefore',
  'classAfter',
  'consoBefore',
  'consoAfter',
  'coutTravaux',
  'coefMode',
  'normalized',
  'blocked',
] as const;

/**
 * RFC 4180 field: quoted when it holds a comma, a quote or a line break; other control
 * characters (ESC, NUL, tab, DEL, C1) dropped. With `text`, a value that a spreadsheet would
 * take for a formula (it starts with =, +, -, @, or a tab or CR) gets a leading apostrophe and
 * is quoted, as OWASP advises ("CSV injection"); numbers are written as they are.
 */
export function csvField(value: string, text = false): string {
  // eslint-disable-next-line no-control-regex
  let v = value.replace(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '');
  const formula = text && /^[=+\-@\t\r]/.test(value);
  if (formula) v = `'${v}`;
  return formula || /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** The works as `--work` values, `ref=KEY:VALUE`, separated by spaces. */
export function worksText(r: HistoryRecord): string {
  return r.works.map((w) => `${w.referenceId}=${w.editableKey}:${w.editableValue}`).join(' ');
}

export function csvHeader(): string {
  return CSV_COLUMNS.join(',');
}

export function csvRow(r: HistoryRecord): string {
  return CSV_COLUMNS.map((c) => {
    if (c === 'works') return csvField(worksText(r), true);
    const v = r[c];
    return v === null ? '' : csvField(String(v), typeof v === 'string');
  }).join(',');
}

export function jsonLine(r: HistoryRecord): string {
  return JSON.stringify(r);
}

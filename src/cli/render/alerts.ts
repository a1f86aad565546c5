/** The alerts (`warnings`) of a DPE as a table. */
import type { Warning } from '../../contract/schemas.js';
import type { Style } from './style.js';
import { table } from './table.js';

/** Alerts: the id is never wrapped (scripts and the README name them); details wrap. */
export function renderWarnings(warnings: readonly Warning[], s: Style): string {
  if (warnings.length === 0) return s.c.green('No alerts.');
  return table(
    ['Type', 'Alert', 'Details'],
    warnings.map((w) => [s.alertType(w.type), `${w.title}\n${s.c.dim(w.id)}`, w.content]),
    { keep: [0] },
  );
}

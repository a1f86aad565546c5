/** The pre-analysis for humans. */
import type { CoefMode, PreResponse } from '../../contract/schemas.js';
import { ALERT_IDS } from '../../contract/alert-ids.js';
import {
  HIGH_ALTITUDE_LIMITS,
  STANDARD_LIMITS,
  classFor,
  renderLabel,
  type LabelMark,
} from './label.js';
import type { Style } from './style.js';
import { dpeSourceLine } from './dpe-source.js';
import { num, signedPercent, table, terminalWidth } from './table.js';
import { wrap } from './text.js';
import { renderWarnings } from './alerts.js';
import { renderClasses } from './classes.js';
import { coefOf } from '../../contract/constants.js';

/**
 * The label of a pre-analysis, drawn with today's thresholds for this dwelling (the classes
 * table's `thresholdsToday`: small surface, high altitude), the ones of its "Engine, today" class;
 * without the classes table (a blocked DPE), the standard ones, raised for high altitude when the
 * alert says so, and the note says when the dwelling has its own.
 */
export function preLabel(body: PreResponse, s: Style): string {
  const m = body.maxCalculation;
  const ids = new Set(body.warnings.map((w) => w.id));
  const own = body.classes?.thresholdsToday;
  const thresholds =
    own ?? (ids.has(ALERT_IDS.highAltitude) ? HIGH_ALTITUDE_LIMITS : STANDARD_LIMITS);
  const marks: LabelMark[] = [];
  const mark = (name: string, ep: number | null, ges: number | null) => {
    if (ep === null || ges === null) return;
    marks.push({ name, ep, ges, cls: classFor(Math.floor(ep), Math.floor(ges), thresholds) });
  };
  mark('engine', m.consommationInitiale, m.gesInitiale);
  mark('registry', m.consommationXML, m.gesXML);
  const note = own
    ? own.smallSurface || own.highAltitude
      ? `Today's thresholds for this dwelling${own.smallSurface ? ' (under 40 m²: small-surface thresholds)' : ''}${own.highAltitude ? ' (high altitude: E and F raised)' : ''}.`
      : undefined
    : ids.has(ALERT_IDS.smallSurface)
      ? 'Standard thresholds shown: this dwelling is under 40 m² (see the alert); `dpe-sim initial` uses its own.'
      : ids.has(ALERT_IDS.highAltitude)
        ? 'High-altitude thresholds (E and F raised).'
        : undefined;
  return renderLabel(
    { thresholds, marks, width: terminalWidth() ?? Infinity, ...(note ? { note } : {}) },
    s,
  );
}

export function renderPre(dpe: string, coef: CoefMode, body: PreResponse, s: Style): string {
  const m = body.maxCalculation;
  const lines = [
    wrap(
      s.c.bold(`Pre-analysis of DPE ${dpe}`) +
        s.c.dim(
          `  (electricity coefficient ${coefOf(coef)}, mode ${coef === 'activated' ? 2026 : 2025})`,
        ),
    ),
    preLabel(body, s),
    table(
      ['Figure', 'Engine', 'Registry', 'Gap'],
      [
        [
          'Primary energy (kWh/m²/yr)',
          num(m.consommationInitiale, 1),
          num(m.consommationXML, 1),
          signedPercent(m.deltaConso),
        ],
        [
          'Emissions (kg CO2e/m²/yr)',
          num(m.gesInitiale, 1),
          num(m.gesXML, 1),
          signedPercent(m.deltaGES),
        ],
      ],
      { keep: [1, 2, 3] },
    ),
    ...(body.classes ? [renderClasses(body.classes, s)] : []),
    renderWarnings(body.warnings, s),
    // a blocked DPE gets a login token too (the spec: a valid request creates one)
    `Login URL: ${body.url}`,
    ...optional(dpeSourceLine(body.dpeSource)),
  ];
  return lines.join('\n');
}

function optional(line: string | undefined): string[] {
  return line === undefined ? [] : [line];
}

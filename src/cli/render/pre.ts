/** The pre-analysis for humans. */
import type { PreResponse, Warning } from '../../contract/schemas.js';
import type { Style } from './style.js';
import { num, signedPercent, table } from './table.js';
import { renderClasses } from './classes.js';

export function renderWarnings(warnings: readonly Warning[], s: Style): string {
  if (warnings.length === 0) return s.c.green('No alerts.');
  return table(
    ['Type', 'Alert', 'Details'],
    warnings.map((w) => [s.alertType(w.type), `${w.title}\n${s.c.dim(w.id)}`, w.content]),
    [10, 30, 60],
  );
}

export function renderPre(dpe: string, coef: string, body: PreResponse, s: Style): string {
  const m = body.maxCalculation;
  const lines = [
    s.c.bold(`Pre-analysis of DPE ${dpe}`) +
      s.c.dim(
        `  (electricity coefficient ${coef === 'activated' ? '1.9, mode 2026' : '2.3, mode 2025'})`,
      ),
    table(
      ['', 'Engine', 'Registry', 'Gap'],
      [
        [
          'Primary energy (kWh/m²/yr)',
          num(m.consommationInitiale),
          num(m.consommationXML),
          signedPercent(m.deltaConso),
        ],
        ['Emissions (kg CO2e/m²/yr)', num(m.gesInitiale), num(m.gesXML), signedPercent(m.deltaGES)],
      ],
    ),
    ...(body.classes ? [renderClasses(body.classes, s)] : []),
    renderWarnings(body.warnings, s),
    `Login URL: ${body.url}`,
  ];
  return lines.join('\n');
}

/**
 * `dpe-sim audit` for people: the loss breakdown as a horizontal bar chart, the six items, then
 * each proposal (its rules beside it, each step's works as a table, the figures after the step).
 * Laid out for the terminal's width (80 and 100 columns tested); tab-separated rows in a pipe.
 */
import type { AuditProposal, AuditResponse, AuditStep, AuditWork } from '../../contract/audit.js';
import { euros, eurosPerYear, kwh, NBSP, num, percent, withUnit } from '../format.js';
import {
  dpeBillText,
  dpeLabelText,
  normalizedText,
  generatorPerformanceText,
  perDwellingText,
  summerComfortText,
  synthesisAids,
  unitsText,
  itemWhyHeading,
  itemWhyText,
  stepNotes,
} from '../../contract/audit-text.js';
import { billChangeText, indexRanges } from '../../contract/number-text.js';
import { elementCell, splitElement } from '../../contract/element-label.js';
import { proofText, windowsOf, withDoors, type ShownWork } from './audit-groups.js';
import type { Style } from './style.js';
import { table, terminalLayout, terminalWidth } from './table.js';
import { wrap } from './text.js';
import { COEF_2025, COEF_2026 } from '../../contract/constants.js';

const COVERAGE: Record<AuditResponse['coverage'], string> = {
  maison: 'house',
  appartement: 'flat',
  immeuble: 'whole building',
};

const BAR = '█';

/** The losses as bars: label, bar, share and W/K; the bar fits what the width leaves. */
export function lossBars(a: AuditResponse, width: number | undefined): string {
  const labelWidth = Math.max(...a.losses.items.map((i) => i.label.length));
  // the share and the W/K in columns of their own, each right-aligned
  const shares = a.losses.items.map((i) => percent(i.share));
  const wks = a.losses.items.map((i) => withUnit(i.wk, 'W/K', 1));
  const shareWidth = Math.max(...shares.map((f) => f.length));
  const wkWidth = Math.max(...wks.map((f) => f.length));
  const room = Math.max(10, (width ?? 80) - labelWidth - shareWidth - wkWidth - 8);
  const max = Math.max(...a.losses.items.map((i) => i.share), 1);
  return a.losses.items
    .map((i, k) => {
      const n = Math.round((i.share / max) * room);
      const bar = (BAR.repeat(n) || (i.wk > 0 ? '▏' : '')).padEnd(room, ' ');
      const figures = `${(shares[k] ?? '').padStart(shareWidth)}  ${(wks[k] ?? '').padStart(wkWidth)}`;
      return `  ${i.label.padEnd(labelWidth)} ${bar} ${figures}`;
    })
    .join('\n');
}

function figuresLine(f: AuditStep['after']): string {
  return [
    `class ${f.classe}`,
    kwh(f.epM2, 'kWh/m²/yr'),
    withUnit(f.gesM2, 'kg CO2e/m²/yr'),
    `final ${kwh(f.ef)} (${kwh(f.efM2, 'kWh/m²/yr')})`,
    `bill ${eurosPerYear(f.bill)}`,
  ].join(' · ');
}

/** "mur:0 — Mur 1 Nord - Mur en blocs de béton..." → "mur:0 Mur 1 Nord" (the JSON keeps it all). */
function shortElement(element: string): string {
  const { referenceId, description } = splitElement(element);
  return elementCell(referenceId, description, referenceId.length + 17);
}

/** The option without the performance the next column gives. */
function shortOption(label: string): string {
  return label
    .replace(/,? ?R = [\d,.]+ m²·K\/W/, '')
    .replace(/ \((Uw|U) [\d,.]+\)/, '')
    .replace(/ \(.*\)$/, '');
}

/**
 * "R = 3.7 m²·K/W" → "R 3.7 m²·K/W" (one number format); a generator's efficiency → "3CL tables"
 * (with its volume: "3CL tables, 200 L").
 */
function shortPerformance(p: string): string {
  if (p.startsWith('generator')) return generatorPerformanceText(p);
  if (p.startsWith('humidity')) return 'hygro B';
  if (p.startsWith('double flow')) return 'double flow';
  return p.replace(' = ', NBSP);
}

/**
 * Works of one option on many elements of a category (62 windows) as one line, summed; an option
 * named otherwise on some of them (a French window's "Porte-fenêtre …") is a line of its own.
 */
export const GROUP_FROM = 4;
function groupedWorks(works: readonly AuditWork[]): ShownWork[] {
  const groups = new Map<string, AuditWork[]>();
  for (const w of works) {
    const category = w.referenceId.split(':')[0] ?? '';
    const key = `${category}|${w.editableValue}|${w.option}`;
    groups.set(key, [...(groups.get(key) ?? []), w]);
  }
  const out: ShownWork[] = [];
  for (const list of groups.values()) {
    const first = list[0] as AuditWork;
    if (list.length < GROUP_FROM) {
      out.push(...list.map((w) => ({ ...w, element: shortElement(w.element) })));
      continue;
    }
    const category = first.referenceId.split(':')[0] ?? '';
    const indexes = list.map((w) => Number(w.referenceId.split(':')[1]));
    out.push({
      ...first,
      element: `${list.length} × ${category}:${indexRanges(indexes)}`,
      quantity: list.reduce((a, w) => a + w.quantity, 0),
      cost: list.reduce((a, w) => a + w.cost, 0),
      ...(first.doors !== undefined ? { doors: list.reduce((a, w) => a + (w.doors ?? 0), 0) } : {}),
      ...windowsOf(list),
      elements: list.length,
      ...(first.buildingQuantity !== undefined
        ? { buildingQuantity: list.reduce((a, w) => a + (w.buildingQuantity ?? 0), 0) }
        : {}),
      ...(first.buildingCost !== undefined
        ? { buildingCost: list.reduce((a, w) => a + (w.buildingCost ?? 0), 0) }
        : {}),
    });
  }
  return out;
}

/** A table indented under its heading (the width it may use is the terminal's less the indent). */
export function indented(head: string[], rows: string[][], keep: number[], drop: number[], by = 4) {
  const layout = terminalLayout();
  if (layout.width === undefined) return table(head, rows, { keep, drop, layout });
  const t = table(head, rows, { keep, drop, layout: { ...layout, width: layout.width - by } });
  return t
    .split('\n')
    .map((l) => ' '.repeat(by) + l)
    .join('\n');
}

function quantityText(w: ShownWork): string {
  return withDoors(
    w.unit === 'm²' ? withUnit(w.quantity, 'm²', 1) : unitsText(w.quantity, num, w.unit),
    w,
  );
}

function costText(w: AuditWork): string {
  return w.buildingCost !== undefined
    ? `${euros(w.cost)}\n(share of ${euros(w.buildingCost)})`
    : euros(w.cost);
}

function renderStep(step: AuditStep, s: Style): string {
  const saved = step.billSaved !== undefined ? `, bill ${billChangeText(step.billSaved)}` : '';
  const proof = proofText(step);
  const cols = terminalWidth();
  const head = `  ${wrap(
    `Step ${step.n}: ${s.classLetter(step.before.classe)} → ${s.classLetter(step.after.classe)}  ${euros(step.cost)} (cumulative ${euros(step.cumulativeCost)}${saved})${proof ? `, ${proof}` : ''}`,
    '    ',
    cols === undefined ? undefined : cols - 2,
  )}`;
  const rows = groupedWorks(step.works).map((w) => [
    w.element,
    shortOption(w.option),
    shortPerformance(w.performance),
    quantityText(w),
    costText(w),
  ]);
  const works = rows.length
    ? indented(['Element', 'Works', 'Performance', 'Quantity', 'Cost'], rows, [2], [2])
    : '    (no works)';
  const comfort = step.summerComfort
    ? ` · summer comfort ${step.summerComfort.indicator}${step.summerComfort.lost ? ` (${step.summerComfort.lost})` : ''}`
    : '';
  return [
    head,
    works,
    wrap(`    After: ${figuresLine(step.after)}${comfort}`, '      '),
    ...stepNotes(step).map((x) => wrap(`    ${x}`, '      ')),
  ].join('\n');
}

function renderProposal(p: AuditProposal, s: Style): string {
  const failed = p.rules.filter((r) => !r.pass).length;
  const verdict = failed
    ? s.c.red(`${failed} rule${failed > 1 ? 's' : ''} not met`)
    : s.c.green('every rule met');
  const lines = [s.c.bold(`${p.title}: ${euros(p.cost)}${perDwellingText(p, euros)}, ${verdict}`)];
  if (p.samePath) lines.push(wrap(`  ${p.samePath}`, '  '));
  if (p.dearerNote) lines.push(wrap(`  ${p.dearerNote}`, '  '));
  if (p.costNote) lines.push(wrap(`  ${s.c.yellow(p.costNote)}`, '  '));
  for (const step of p.steps) {
    lines.push(renderStep(step, s));
    // a path in several steps: what each step's works may claim on their own
    if (p.steps.length > 1 && step.aids)
      lines.push(
        wrap(
          `    Aids for this step alone: ${step.aids.eligible ? step.aids.byCategory.map((c) => `${c.label} ${euros(c.maPrimeRenov)}`).join(' · ') : step.aids.rule}`,
          '      ',
        ),
      );
  }
  if (p.aids) {
    lines.push(wrap(`  Aids (informative, rules of ${p.aids.asOf}): ${p.aids.rule}`, '    '));
    if (p.aids.eligible)
      lines.push(
        wrap(
          `    ${p.aids.byCategory.map((c) => `${c.label} ${euros(c.maPrimeRenov)}, net ${euros(c.netCost)}${c.totalAidCap !== undefined ? `, all aids ≤ ${euros(c.totalAidCap)}` : ''}`).join(' · ')}`,
          '    ',
        ),
      );
  }
  if (p.justification) lines.push(wrap(`  Final class out of reach: ${p.justification}`, '    '));
  lines.push(
    table(
      ['Rule', '', 'Figure'],
      p.rules.map((r) => [
        r.label,
        r.pass ? s.c.green('pass') : s.c.red('FAIL'),
        r.why ? `${r.figure}; ${r.why}` : r.figure,
      ]),
      { keep: [1] },
    ),
  );
  // the six items after this path: what the rule's figure counts, each with its why (as the
  // report and the PDF show it)
  lines.push(
    table(
      ['Item', 'After this path', 'Why not / note'],
      p.items.map((i) => [
        i.label,
        i.status === 'treated'
          ? `treated in step ${i.step ?? ''}`
          : i.status === 'not-needed'
            ? 'needs no works'
            : i.status === 'cannot'
              ? 'cannot be treated'
              : s.c.red('MISSING'),
        i.reason ?? '',
      ]),
      { keep: [1] },
    ),
  );
  return lines.join('\n');
}

export function renderAudit(a: AuditResponse, dpeArg: string, s: Style): string {
  const width = terminalWidth();
  const out: string[] = [];
  out.push(
    s.c.bold(
      wrap(
        `Energy audit of ${a.dpeId === dpeArg ? a.dpeId : `${dpeArg} (${a.dpeId})`}: ${COVERAGE[a.coverage]}, ${withUnit(a.surface, 'm²', 1)}`,
      ),
    ),
  );
  if (a.gate?.banner) out.push(s.c.red(wrap(`⚠ ${a.gate.banner}`)));
  if (a.scope) out.push(wrap(a.scope.text));
  out.push(wrap(`Before works: ${figuresLine(a.initial)}`));
  const dpeLabel = dpeLabelText(a, num);
  if (dpeLabel) out.push(wrap(dpeLabel));
  const scaled = normalizedText(a);
  if (scaled) out.push(s.c.yellow(wrap(scaled)));
  if (a.prices)
    out.push(
      wrap(
        s.c.dim(
          `Bills at ${a.prices.source} (${a.prices.date}).${dpeBillText(a.prices, eurosPerYear)}`,
        ),
      ),
    );
  if (!a.auditApplies) {
    out.push(
      wrap(
        `The regulatory audit applies to classes D to G: this DPE is in ${a.initial.classe}, no proposal is made.`,
      ),
    );
  } else out.push(wrap(`Target: ${a.targetRule}.`));
  if (a.synthesis?.length) {
    out.push('', s.c.bold('Synthesis'));
    out.push(
      table(
        ['Path', 'Step', 'Class', 'kWh/m²', 'CO2', 'Bill', 'Change', 'Cost', 'MaPrimeRénov’'],
        a.synthesis.map((r) => [
          r.proposal === 'steps' ? 'steps' : 'one step',
          String(r.step),
          r.classe,
          num(r.epM2),
          num(r.gesM2),
          eurosPerYear(r.bill),
          billChangeText(r.billSaved),
          euros(r.cost),
          synthesisAids(r, euros).join('\n'),
        ]),
        { keep: [1, 2, 3, 4, 5, 6, 7], drop: [4, 6, 8] },
      ),
    );
  }
  out.push('', s.c.bold(`Heat losses: ${withUnit(a.losses.total, 'W/K', 1)}`));
  out.push(lossBars(a, width));
  out.push('', s.c.bold('The six items'));
  out.push(
    table(
      ['Item', 'Works needed', itemWhyHeading(a.items)],
      a.items.map((i) => [i.label, i.needed ? 'yes' : 'no', itemWhyText(i)]),
    ),
  );
  if (a.controls?.length) {
    out.push('', s.c.bold('Existing control devices'));
    for (const c of a.controls) out.push(wrap(`  ${c}`, '    '));
  }
  if (a.summerComfort)
    out.push(
      '',
      wrap(`${s.c.bold('Summer comfort before works')}: ${summerComfortText(a.summerComfort)}`),
    );
  for (const p of a.proposals) out.push('', renderProposal(p, s));
  out.push(
    '',
    wrap(
      `Engine ${a.versions.engine} · catalogue ${a.versions.catalogue} · costs incl. VAT ±${Math.round(a.costs.margin * 100)} % (${a.costs.source}) · electricity coefficient ${a.coefMode === 'activated' ? `${COEF_2026} (mode 2026; --coef 2025 for ${COEF_2025})` : `${COEF_2025} (mode 2025)`} · ${a.changeSets} change sets run`,
    ),
    wrap(s.c.dim(a.note)),
  );
  return out.join('\n');
}

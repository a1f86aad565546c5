/**
 * `dpe-sim audit --pdf audit.pdf`: the report as an A4 PDF made in-process with PDFKit (pure
 * JavaScript, a dependency that ships with dpe-sim: no browser to install). The same content as
 * the HTML report, laid out compactly (a dwelling's audit in at most 4 pages): the synthesis at
 * the top, the scope, controls, summer comfort, the losses and items, each proposal's steps with
 * their works grouped by identical elements, the bill saved, the rules, the aids with their
 * source and date, the sources and versions, and the note. PDFKit's standard fonts are
 * WinAnsi: the few characters outside it (→, ≥, ≤, −) are written as ASCII equivalents, the
 * narrow no-break space as WinAnsi's no-break space.
 */
import PDFDocument from 'pdfkit';
import type { AuditProposal, AuditResponse, AuditStep } from '../../contract/audit.js';
import { euros, eurosPerYear, num, withUnit } from '../format.js';
import {
  dpeBillText,
  dpeLabelText,
  normalizedText,
  perDwellingText,
  summerComfortText,
  synthesisAids,
  unitsText,
  itemWhyHeading,
  itemWhyText,
  stepNotes,
} from '../../contract/audit-text.js';
import { billChangeText } from '../../contract/number-text.js';
import { elementNameOf } from '../../contract/element-label.js';
import { groupIdentical, proofText, withDoors } from './audit-groups.js';
import { CLASS_COLOURS } from './style.js';
import { coefOf } from '../../contract/constants.js';

/** Text in PDFKit's WinAnsi standard fonts. */
export function winAnsi(s: string): string {
  return (
    s
      .replace(/→/g, '->')
      .replace(/≥/g, '>=')
      .replace(/≤/g, '<=')
      .replace(/−/g, '-')
      // a figure and its unit stay on one line: WinAnsi's no-break space (PDFKit breaks no line there)
      .replace(/[\u202f\u2009]/g, '\u00a0')
      .replace(/[^\t\n\r\u0020-\u00ff€’‘“”–—…·•‰]/g, '?')
  );
}

type Doc = InstanceType<typeof PDFDocument>;
const M = 28; // margin, pt
const W = 595.28 - 2 * M;

function ensure(doc: Doc, h: number) {
  if (doc.y + h > doc.page.height - M) doc.addPage();
}

function heading(doc: Doc, text: string, size = 10) {
  ensure(doc, size * 3);
  doc
    .moveDown(0.3)
    .font('Helvetica-Bold')
    .fontSize(size)
    .fillColor('#000')
    .text(winAnsi(text), M, doc.y, { width: W });
  doc.font('Helvetica').fontSize(7.5).moveDown(0.15);
}

function para(
  doc: Doc,
  text: string,
  opts: { size?: number; color?: string; bold?: boolean } = {},
) {
  doc
    .font(opts.bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(opts.size ?? 7.5)
    .fillColor(opts.color ?? '#000');
  ensure(doc, doc.heightOfString(winAnsi(text), { width: W }));
  doc.text(winAnsi(text), M, doc.y, { width: W });
  doc.fillColor('#000').font('Helvetica').fontSize(7.5);
}

/** A table: `widths` as fractions of the page's width; rows wrap within their cells. */
function table(
  doc: Doc,
  head: string[],
  rows: string[][],
  widths: number[],
  align: ('l' | 'r')[] = [],
) {
  const cols = widths.map((f) => f * W);
  const pad = 2;
  const draw = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(7);
    const texts = cells.map(winAnsi);
    const h =
      Math.max(
        ...texts.map((t, i) => doc.heightOfString(t, { width: (cols[i] ?? 20) - 2 * pad })),
      ) +
      2 * pad;
    ensure(doc, h);
    const y = doc.y;
    let x = M;
    texts.forEach((t, i) => {
      const w = cols[i] ?? 20;
      doc.rect(x, y, w, h).lineWidth(0.3).strokeColor('#bbb').stroke();
      doc.fillColor('#000').text(t, x + pad, y + pad, {
        width: w - 2 * pad,
        align: align[i] === 'r' ? 'right' : 'left',
      });
      x += w;
    });
    doc.x = M;
    doc.y = y + h;
  };
  draw(head, true);
  for (const r of rows) draw(r, false);
  doc.font('Helvetica').fontSize(7.5).moveDown(0.3);
}

function classBox(doc: Doc, letter: string, x: number, y: number) {
  doc.rect(x, y, 12, 10).fill(CLASS_COLOURS[letter]?.[0] ?? '#999');
  doc
    .fillColor(letter === 'D' || letter === 'E' || letter === 'C' ? '#000' : '#fff')
    .font('Helvetica-Bold')
    .fontSize(8)
    .text(letter, x + 3, y + 1.5);
  doc.fillColor('#000').font('Helvetica');
}

function stepPdf(doc: Doc, step: AuditStep) {
  ensure(doc, 40);
  const y = doc.y;
  classBox(doc, step.before.classe, M, y);
  doc
    .font('Helvetica')
    .fontSize(8)
    .text('->', M + 15, y + 1.5);
  classBox(doc, step.after.classe, M + 28, y);
  doc
    .font('Helvetica-Bold')
    .fontSize(8)
    .text(
      winAnsi(
        `Step ${step.n}: ${euros(step.cost)} (cumulative ${euros(step.cumulativeCost)})${step.billSaved !== undefined ? ` · bill ${billChangeText(step.billSaved)}` : ''}${proofText(step) ? ` · ${proofText(step)}` : ''}`,
      ),
      M + 46,
      y + 1.5,
      { width: W - 46 },
    );
  doc.x = M;
  doc.y = Math.max(doc.y, y + 12) + 2;
  const rows = groupIdentical(step.works).map(({ work: w, count, refs, description }) => {
    const name =
      `${count > 1 ? `${count} × ` : ''}${refs} ${elementNameOf(description, 80)}`.trim();
    const qty = withDoors(
      w.unit === 'm²' ? withUnit(w.quantity, 'm²', 1) : unitsText(w.quantity, num, w.unit),
      w,
    );
    const cost =
      euros(w.cost) + (w.buildingCost !== undefined ? ` (share of ${euros(w.buildingCost)})` : '');
    const level = w.aidLevel
      ? `${w.aidLevel.installed}: ${w.aidLevel.met ? 'meets' : 'BELOW'} ${w.aidLevel.requirement}`
      : w.performance;
    return [name.slice(0, 90), w.option, level, qty, cost];
  });
  if (rows.length)
    table(
      doc,
      ['Element', 'Works', 'Performance and aids’ level', 'Quantity', 'Cost incl. VAT'],
      rows,
      [0.22, 0.22, 0.3, 0.12, 0.14],
      ['l', 'l', 'l', 'r', 'r'],
    );
  const f = step.after;
  para(
    doc,
    `After: class ${f.classe} · ${num(f.epM2)} kWh/m²/yr primary · ${num(f.gesM2)} kg CO2e/m²/yr · final ${num(f.ef)} kWh/yr (${num(f.efM2)} kWh/m²/yr) · bill ${eurosPerYear(f.bill)}${step.summerComfort ? ` · summer comfort ${step.summerComfort.indicator}${step.summerComfort.lost ? ` (${step.summerComfort.lost})` : ''}` : ''}`,
  );
  for (const x of stepNotes(step)) para(doc, x);
}

function proposalPdf(doc: Doc, p: AuditProposal) {
  heading(
    doc,
    `${p.title}: ${euros(p.cost)}${perDwellingText(p, euros)} · ${p.ok ? 'every rule met' : 'some rules not met'}`,
    9.5,
  );
  if (p.samePath) para(doc, p.samePath);
  if (p.dearerNote) para(doc, p.dearerNote);
  if (p.costNote) para(doc, p.costNote);
  for (const s of p.steps) stepPdf(doc, s);
  table(
    doc,
    ['Rule', '', 'Figure'],
    p.rules.map((r) => [
      r.label,
      r.pass ? 'pass' : 'FAIL',
      r.why ? `${r.figure}; ${r.why}` : r.figure,
    ]),
    [0.3, 0.06, 0.64],
  );
  table(
    doc,
    ['Item', 'Status', 'Why not / note'],
    p.items.map((i) => [
      i.label,
      i.status === 'treated'
        ? `treated (step ${i.step ?? ''})`
        : i.status === 'not-needed'
          ? 'needs no works'
          : i.status === 'cannot'
            ? 'cannot be treated'
            : 'MISSING',
      i.reason ?? '',
    ]),
    [0.2, 0.15, 0.65],
  );
  if (p.justification)
    para(doc, `Why the final class is out of reach: ${p.justification}`, { bold: true });
  if (p.aids) {
    para(doc, `Aids (informative, rules in force on ${p.aids.asOf}): ${p.aids.rule}`, {
      bold: true,
    });
    if (p.aids.eligible)
      table(
        doc,
        ['Income category', 'MaPrimeRénov’', 'Net cost incl. VAT', 'All aids at most'],
        p.aids.byCategory.map((c) => [
          c.label,
          euros(c.maPrimeRenov),
          euros(c.netCost),
          c.totalAidCap !== undefined ? `${euros(c.totalAidCap)} (${c.totalAidCapPercent} %)` : '',
        ]),
        [0.3, 0.2, 0.2, 0.2],
        ['l', 'r', 'r', 'r'],
      );
    if (p.steps.length > 1)
      para(
        doc,
        p.steps
          .map(
            (st) =>
              `Step ${st.n} alone: ${st.aids?.eligible ? st.aids.byCategory.map((c) => `${c.label} ${euros(c.maPrimeRenov)}`).join(', ') : 'not eligible'}`,
          )
          .join('; '),
        { size: 6.5, color: '#444' },
      );
    const sheets = p.aids.sheets
      .map(
        (x) =>
          `${x.sheet} (${x.works}${x.met ? '' : ', level not met'}${x.note ? `; ${x.note}` : ''})`,
      )
      .join('; ');
    para(doc, `${p.aids.cee}${sheets ? ` CEE sheets of these works: ${sheets}.` : ''}`, {
      size: 6.5,
      color: '#444',
    });
  }
}

/** The report as a PDF document (bytes). */
export function auditReportPdf(a: AuditResponse, generatedAt = new Date()): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: M,
    info: { Title: `Energy audit ${a.dpeId}`, Creator: `dpe-sim ${a.versions.dpeSim}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .text(winAnsi(`Energy audit: DPE ${a.dpeId}`), M, M, { width: W });
  doc.font('Helvetica').fontSize(7.5).moveDown(0.2);
  if (a.gate?.banner) para(doc, a.gate.banner, { bold: true, color: '#a00000' });
  if (a.scope) para(doc, a.scope.text);
  const i = a.initial;
  para(
    doc,
    `Before works: class ${i.classe} · ${num(i.epM2)} kWh/m²/yr primary · ${num(i.gesM2)} kg CO2e/m²/yr · final ${num(i.ef)} kWh/yr (${num(i.efM2)} kWh/m²/yr) · bill ${eurosPerYear(i.bill)}${a.prices ? ` (prices of ${a.prices.date})` : ''} · ${withUnit(a.surface, 'm²', 1)} · ${a.auditApplies ? `target: ${a.targetRule}` : 'the regulatory audit applies to classes D to G'}`,
    { bold: true },
  );
  const dpeLabel = dpeLabelText(a, num);
  if (dpeLabel) para(doc, dpeLabel);
  const scaled = normalizedText(a);
  if (scaled) para(doc, scaled, { bold: true });
  para(doc, a.note, { size: 6.5, color: '#444' });
  if (a.synthesis?.length) {
    heading(doc, 'Synthesis');
    table(
      doc,
      [
        'Path',
        'Step',
        'Class',
        'kWh/m²/yr',
        'kg CO2e/m²',
        'Bill /yr',
        'Bill change',
        'Cost incl. VAT',
        'MaPrimeRénov’',
      ],
      a.synthesis.map((r) => [
        r.proposal === 'steps' ? 'in steps' : 'in one step',
        String(r.step),
        r.classe,
        num(r.epM2),
        num(r.gesM2),
        euros(r.bill),
        billChangeText(r.billSaved),
        euros(r.cost),
        synthesisAids(r, euros, ' – ').join('; '),
      ]),
      [0.12, 0.06, 0.06, 0.1, 0.1, 0.1, 0.1, 0.14, 0.22],
      ['l', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
    );
    if (a.prices)
      para(
        doc,
        `Bills at ${a.prices.source} (${a.prices.date}).${dpeBillText(a.prices, eurosPerYear)}`,
        { size: 6.5, color: '#444' },
      );
  }
  heading(doc, `Heat losses: ${num(a.losses.total, 1)} W/K`);
  const max = Math.max(...a.losses.items.map((x) => x.share), 1);
  for (const it of a.losses.items) {
    ensure(doc, 10);
    const y = doc.y;
    doc.fontSize(7).text(winAnsi(it.label), M, y, { width: 80 });
    doc.rect(M + 82, y + 1, Math.max(1, (it.share / max) * 260), 6).fill('#c0504d');
    doc
      .fillColor('#000')
      .text(winAnsi(`${num(it.share, 1)} %  ${num(it.wk, 1)} W/K`), M + 350, y, { width: 150 });
    doc.x = M;
    doc.y = y + 9;
  }
  if (a.controls?.length) {
    heading(doc, 'Existing control devices');
    for (const c of a.controls) para(doc, `• ${c}`);
  }
  if (a.summerComfort)
    para(doc, `Summer comfort before works: ${summerComfortText(a.summerComfort)}`, { bold: true });
  heading(doc, 'The six items');
  table(
    doc,
    ['Item', 'Works needed', itemWhyHeading(a.items)],
    a.items.map((x) => [x.label, x.needed ? 'yes' : 'no', itemWhyText(x)]),
    [0.2, 0.1, 0.7],
  );
  for (const p of a.proposals) proposalPdf(doc, p);
  heading(doc, 'Sources and versions', 8);
  para(
    doc,
    `Costs incl. VAT, ±${num(a.costs.margin * 100)} %: ${a.costs.source}. ${a.costs.figures.map((f) => `${f.key} ${euros(f.eur)}/${f.unit}`).join('; ')}.`,
    { size: 6.5, color: '#444' },
  );
  const aids = a.proposals.find((p) => p.aids)?.aids;
  if (aids) para(doc, `Aids: ${aids.source}. ${aids.note}`, { size: 6.5, color: '#444' });
  para(
    doc,
    `dpe-sim ${a.versions.dpeSim} · @open3cl/engine ${a.versions.engine} (3CL-2021) · catalogue ${a.versions.catalogue} · electricity coefficient ${coefOf(a.coefMode)}${a.normalized ? ' · normalized to the registry' : ''}${a.gate?.engineFigures ? ' · the engine’s own figures' : ''} · ${a.changeSets} combinations run · generated ${generatedAt.toISOString().slice(0, 10)}`,
    { size: 6.5, color: '#444' },
  );
  doc.end();
  return done;
}

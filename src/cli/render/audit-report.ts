/**
 * `dpe-sim audit --report audit.html`: the audit as one self-contained, printable HTML file (inline
 * CSS and SVG, no script, nothing fetched): the DPE label before and after each step, the loss
 * breakdown, both proposals as tables with their rules, the cost sources, the engine and
 * catalogue versions, and the note that it supports the auditor's visit and judgement.
 * Figures are printed as the terminal prints them (French number format).
 */
import type {
  AuditFigures,
  AuditProposal,
  AuditResponse,
  AuditStep,
} from '../../contract/audit.js';
import { euros, eurosPerYear, num, withUnit } from '../format.js';
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
import { billChangeText } from '../../contract/number-text.js';
import { elementNameOf, splitElement } from '../../contract/element-label.js';
import { groupIdentical, lineNotes, proofText, withDoors } from './audit-groups.js';
import { CLASS_COLOURS } from './style.js';
import { coefOf } from '../../contract/constants.js';

const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
const COVERAGE: Record<AuditResponse['coverage'], string> = {
  maison: 'house',
  appartement: 'flat',
  immeuble: 'whole building',
};

function esc(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A DPE label (A to G bars) with a mark on each class given, as inline SVG. */
export function labelSvg(marks: { classe: string; text: string }[]): string {
  const h = 12;
  const width = 92 + marks.length * 50;
  const bars = LETTERS.map((l, i) => {
    const w = 30 + i * 8;
    const y = i * (h + 2);
    const dark = l === 'A' || l === 'B' || l === 'G';
    return `<rect x="0" y="${y}" width="${w}" height="${h}" fill="${CLASS_COLOURS[l]?.[0]}"/><text x="4" y="${y + h - 3}" font-size="10" font-weight="bold" fill="${dark ? '#fff' : '#000'}">${l}</text>`;
  }).join('');
  const arrows = marks
    .map((m, k) => {
      const i = LETTERS.indexOf(m.classe as (typeof LETTERS)[number]);
      if (i < 0) return '';
      const y = i * (h + 2);
      const x = 30 + 6 * 8 + 6 + k * 50;
      return `<polygon points="${x},${y + h / 2} ${x + 6},${y} ${x + 46},${y} ${x + 46},${y + h} ${x + 6},${y + h}" fill="#333"/><text x="${x + 8}" y="${y + h - 3}" font-size="8" fill="#fff">${esc(m.text)}</text>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${LETTERS.length * (h + 2)}" role="img" aria-label="DPE label">${bars}${arrows}</svg>`;
}

function lossSvg(a: AuditResponse): string {
  const rowH = 16;
  const labelW = 110;
  const barW = 300;
  const max = Math.max(...a.losses.items.map((i) => i.share), 1);
  const rows = a.losses.items
    .map((it, k) => {
      const y = k * rowH;
      const w = Math.max(1, (it.share / max) * barW);
      return `<text x="0" y="${y + 11}" font-size="10">${esc(it.label)}</text><rect x="${labelW}" y="${y + 2}" width="${w.toFixed(1)}" height="${rowH - 5}" fill="#c0504d"/>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + barW + 4}" height="${a.losses.items.length * rowH}" role="img" aria-label="Heat losses">${rows}</svg>`;
}

function figuresCells(f: AuditFigures): string {
  return `<td class="c">${f.classe}</td><td>${num(f.epM2)}</td><td>${num(f.gesM2)}</td><td>${num(f.ef)}</td><td>${num(f.efM2)}</td><td>${num(f.bill)}</td>`;
}

/**
 * "mur:0 — Mur 1 Nord - Mur en blocs..." → "mur:0 — Mur 1 Nord", 48 characters at most (the full
 * text as a tooltip); a name of 16 at least beside a long list of ids.
 */
function elementName(refs: string, description: string): string {
  const name = elementNameOf(description, Math.max(16, 48 - refs.length - 3), false);
  return name ? `${refs} — ${name}` : refs;
}

/** The option without the performance its own column gives. */
function shortOption(label: string): string {
  return label.replace(/,? ?R = [\d,]+ m²·K\/W/, '').replace(/ \((Uw|U) [\d,]+\)/, '');
}

function stepHtml(step: AuditStep): string {
  const works = groupIdentical(step.works)
    .map(({ work: w, count, refs, description }) => {
      const name =
        count > 1
          ? `${count} × ${elementName(refs, description)}`
          : elementName(w.referenceId, splitElement(w.element).description);
      const q =
        w.unit === 'm²' ? withUnit(w.quantity, 'm²', 1) : unitsText(w.quantity, num, w.unit);
      // a share of a building's element: the building's quantity and counts on a line below
      const qty =
        w.buildingQuantity !== undefined
          ? `${esc(q)}<br><span class="small">${esc(lineNotes(w).join('; '))}</span>`
          : esc(withDoors(q, w));
      const sheet = /\(([^)]+)\)$/.exec(w.aidLevel?.requirement ?? '')?.[1];
      const level = w.aidLevel
        ? `<br><span class="small" title="${esc(w.aidLevel.requirement)}">${esc(w.aidLevel.installed.slice(0, 40))} · ${esc(sheet ?? 'aids’ level')} ${w.aidLevel.met ? 'met' : 'NOT MET'}</span>`
        : '';
      return `<tr><td title="${esc(w.element)}">${esc(name)}</td><td>${esc(shortOption(w.option))}</td><td>${esc(generatorPerformanceText(w.performance))}${level}</td><td class="n">${qty}</td><td class="n">${euros(w.cost)}${w.buildingCost !== undefined ? `<br><span class="small">share of ${euros(w.buildingCost)}</span>` : ''}</td></tr>`;
    })
    .join('');
  const comfort = step.summerComfort
    ? `<p class="small">Summer comfort after the step: <b>${esc(step.summerComfort.indicator)}</b> (${step.summerComfort.criteria.map((c) => `${esc(c.label)} ${c.met ? 'yes' : 'no'}`).join(', ')})${step.summerComfort.lost ? `; ${esc(step.summerComfort.lost)}` : ''}</p>`
    : '';
  return `<div class="step"><div class="stepbody"><h4>Step ${step.n}: ${step.before.classe} → ${step.after.classe} · ${euros(step.cost)} (cumulative ${euros(step.cumulativeCost)})${step.billSaved !== undefined ? ` · bill ${billChangeText(step.billSaved)}` : ''}${proofText(step) ? ` · ${proofText(step)}` : ''}</h4>
<table><thead><tr><th>Element</th><th>Works</th><th>Performance</th><th>Quantity</th><th>Cost incl. VAT</th></tr></thead><tbody>${works || '<tr><td colspan="5">no works</td></tr>'}</tbody></table>
<table class="fig"><thead><tr><th></th><th>Class</th><th>kWh/m²/yr (primary)</th><th>kg CO2e/m²/yr</th><th>Final energy kWh/yr</th><th>kWh/m²/yr (final)</th><th>Bill €/yr</th></tr></thead><tbody><tr><th>Before</th>${figuresCells(step.before)}</tr><tr><th>After</th>${figuresCells(step.after)}</tr></tbody></table>${comfort}${stepNotes(
    step,
  )
    .map((x) => `<p class="small">${esc(x)}</p>`)
    .join('')}</div></div>`;
}

function proposalHtml(p: AuditProposal): string {
  const rules = p.rules
    .map(
      (r) =>
        `<tr class="${r.pass ? 'pass' : 'fail'}"><td>${esc(r.label)}</td><td>${r.pass ? 'pass' : 'FAIL'}</td><td>${esc(r.figure)}${r.why ? `<br><em>${esc(r.why)}</em>` : ''}</td></tr>`,
    )
    .join('');
  const items = p.items
    .map(
      (i) =>
        `<tr><td>${esc(i.label)}</td><td>${i.status === 'treated' ? `treated in step ${i.step ?? ''}` : i.status === 'not-needed' ? 'needs no works' : i.status === 'cannot' ? 'cannot be treated' : 'MISSING'}</td><td>${esc(i.reason ?? '')}</td></tr>`,
    )
    .join('');
  return `<section class="proposal"><h3>${esc(p.title)}: ${euros(p.cost)}${perDwellingText(p, euros)} · ${p.ok ? 'every rule met' : 'some rules not met'}</h3>
${p.samePath ? `<p>${esc(p.samePath)}</p>` : ''}${p.dearerNote ? `<p>${esc(p.dearerNote)}</p>` : ''}${p.costNote ? `<p>${esc(p.costNote)}</p>` : ''}${p.steps.map(stepHtml).join('')}
<div class="cols"><table><thead><tr><th>Rule</th><th></th><th>Figure</th></tr></thead><tbody>${rules}</tbody></table>
<table><thead><tr><th>Item</th><th>Status</th><th>Why not / note</th></tr></thead><tbody>${items}</tbody></table></div>${p.justification ? `<p><b>Why the final class is out of reach:</b> ${esc(p.justification)}</p>` : ''}${aidsHtml(p)}</section>`;
}

function aidsHtml(p: AuditProposal): string {
  const a = p.aids;
  if (!a) return '';
  const rows = a.byCategory
    .map(
      (c) =>
        `<tr><td>${esc(c.label)}</td><td class="n">${euros(c.maPrimeRenov)}</td><td class="n">${euros(c.netCost)}</td><td class="n">${c.totalAidCap !== undefined ? `${euros(c.totalAidCap)} (${c.totalAidCapPercent ?? ''} %)` : ''}</td></tr>`,
    )
    .join('');
  // per step (a path in several): the aids each step's works may claim on their own
  const perStep =
    p.steps.length > 1
      ? `<p class="small">${p.steps.map((st) => `Step ${st.n} alone: ${esc(st.aids?.rule ?? '')}${st.aids?.eligible ? ` (${st.aids.byCategory.map((c) => `${esc(c.label)} ${euros(c.maPrimeRenov)}`).join(', ')})` : ''}`).join('<br>')}</p>`
      : '';
  const sheets = a.sheets
    .map(
      (x) =>
        `${esc(x.sheet)} (${esc(x.works)}${x.met ? '' : ', level not met'}${x.note ? `; ${esc(x.note)}` : ''})`,
    )
    .join('; ');
  return `<h4>Aids the owner may claim (informative, rules in force on ${esc(a.asOf)})</h4><p>${esc(a.rule)}</p>
${a.eligible ? `<table class="aids"><thead><tr><th>Income category</th><th>MaPrimeRénov’</th><th>Net cost incl. VAT</th><th>All aids at most (écrêtement)</th></tr></thead><tbody>${rows}</tbody></table>` : ''}${perStep}
<p class="small">${esc(a.cee)}${sheets ? ` CEE sheets of these works: ${sheets}.` : ''} Sources: ${esc(a.source)}. ${esc(a.note)}</p>`;
}

function synthesisHtml(a: AuditResponse): string {
  if (!a.synthesis?.length) return '';
  const rows = a.synthesis
    .map(
      (r) =>
        `<tr><td>${r.proposal === 'steps' ? 'In steps' : 'In one step'}</td><td>${r.step}</td><td class="c">${r.classe}</td><td>${num(r.epM2)}</td><td>${num(r.gesM2)}</td><td>${eurosPerYear(r.bill)}</td><td>${billChangeText(r.billSaved)}</td><td>${euros(r.cost)}</td><td>${synthesisAids(r, euros, ' – ').join('<br>')}</td></tr>`,
    )
    .join('');
  return `<h2>Synthesis</h2><table class="fig"><thead><tr><th>Path</th><th>Step</th><th>Class</th><th>kWh/m²/yr</th><th>kg CO2e/m²/yr</th><th>Bill</th><th>Bill change</th><th>Cost incl. VAT</th><th>MaPrimeRénov’ (by income)</th></tr></thead><tbody>${rows}</tbody></table>
<p class="small">Bills at ${esc(a.prices?.source ?? 'the engine’s prices')} (${esc(a.prices?.date ?? '')}).${esc(dpeBillText(a.prices, eurosPerYear))}</p>`;
}

function contextHtml(a: AuditResponse): string {
  const controls = a.controls?.length
    ? `<h2>Existing control devices</h2><ul>${a.controls.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>`
    : '';
  const comfort = a.summerComfort
    ? `<h2>Summer comfort before works</h2><p>${esc(summerComfortText(a.summerComfort))}</p>`
    : '';
  return controls + comfort;
}

const CSS = `
@page { size: A4; margin: 10mm; }
body { font: 7.5pt/1.2 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: #222; margin: 0 auto; max-width: 190mm; }
h1 { font-size: 14pt; margin: 0 0 4px; } h2 { font-size: 11pt; margin: 10px 0 4px; border-bottom: 1px solid #999; }
h3 { font-size: 10pt; margin: 8px 0 4px; } h4 { font-size: 9pt; margin: 2px 0; }
table { border-collapse: collapse; margin: 3px 0; width: 100%; }
th, td { border: 1px solid #ccc; padding: 1px 4px; text-align: left; vertical-align: top; }
td.n { white-space: nowrap; text-align: right; }
table.fig td { text-align: right; } table.fig td.c { text-align: center; font-weight: bold; }
.note { background: #f4f4f4; border-left: 3px solid #666; padding: 4px 8px; }
.step { display: flex; gap: 8px; margin: 4px 0; } tr { break-inside: avoid; } h2, h3, h4 { break-after: avoid; }
.steplabel { flex: 0 0 auto; } .stepbody { flex: 1 1 auto; }
.cols { display: grid; grid-template-columns: 1fr 1fr; gap: 6px; } .cols table { margin-top: 4px; }
ul { margin: 2px 0; padding-left: 14px; } p { margin: 3px 0; }
tr.fail td { color: #a00; } .small { font-size: 8pt; color: #555; }
.banner { background: #fde; border: 2px solid #a00; padding: 4px 8px; font-weight: bold; }
table.aids { width: auto; }
.losses { display: flex; gap: 12px; align-items: flex-start; } .losses table { width: auto; }
`;

/** The report as one HTML document. */
export function auditReportHtml(a: AuditResponse, generatedAt = new Date()): string {
  const lossRows = a.losses.items
    .map(
      (i) =>
        `<tr><td>${esc(i.label)}</td><td class="n">${num(i.wk, 1)} W/K</td><td class="n">${num(i.share, 1)} %</td></tr>`,
    )
    .join('');
  const items = a.items
    .map(
      (i) =>
        `<tr><td>${esc(i.label)}</td><td>${i.needed ? 'yes' : 'no'}</td><td>${esc(itemWhyText(i))}</td></tr>`,
    )
    .join('');
  const sources = a.costs.figures
    .map(
      (f) =>
        `<tr><td>${esc(f.key)}</td><td>${euros(f.eur)} / ${esc(f.unit)}</td><td>${esc(f.source)}</td></tr>`,
    )
    .join('');
  const dpeLabel = dpeLabelText(a, num);
  const body = `<h1>Energy audit: DPE ${esc(a.dpeId)}</h1>
<p>${COVERAGE[a.coverage]}, ${withUnit(a.surface, 'm²', 1)} · before works: class <b>${a.initial.classe}</b>, ${num(a.initial.epM2)} kWh/m²/yr primary, ${num(a.initial.gesM2)} kg CO2e/m²/yr, final ${num(a.initial.ef)} kWh/yr (${num(a.initial.efM2)} kWh/m²/yr), bill ${eurosPerYear(a.initial.bill)}${a.prices ? ` (prices of ${esc(a.prices.date)})` : ''} · ${a.auditApplies ? `target: ${esc(a.targetRule)}` : 'the regulatory audit applies to classes D to G'}</p>
${dpeLabel ? `<p class="small">${esc(dpeLabel)}</p>` : ''}
${normalizedText(a) ? `<p class="banner" id="audit-normalized">${esc(normalizedText(a) ?? '')}</p>` : ''}
${a.gate?.banner ? `<p class="banner">${esc(a.gate.banner)}</p>` : ''}
${a.scope ? `<p>${esc(a.scope.text)}</p>` : ''}
<p class="note">${esc(a.note)}</p>
${synthesisHtml(a)}
<h2>Heat losses: ${num(a.losses.total, 1)} W/K</h2>
<div class="losses">${lossSvg(a)}<table><thead><tr><th>Item</th><th>Losses</th><th>Share</th></tr></thead><tbody>${lossRows}</tbody></table>${labelSvg([{ classe: a.initial.classe, text: 'now' }])}</div>
${contextHtml(a)}
<h2>The six items</h2>
<table><thead><tr><th>Item</th><th>Works needed</th><th>${itemWhyHeading(a.items)}</th></tr></thead><tbody>${items}</tbody></table>
<h2>Proposals</h2>
${a.proposals.map(proposalHtml).join('') || '<p>No proposal: the regulatory audit applies to classes D to G.</p>'}
<h2>Sources and versions</h2>
<p class="small">Costs incl. VAT, ±${num(a.costs.margin * 100)} %, adjustment ${num(a.costs.delta)} %: ${esc(a.costs.source)}.</p>
<table class="small"><thead><tr><th>Cost figure</th><th>Price</th><th>Source</th></tr></thead><tbody>${sources}</tbody></table>
<p class="small">dpe-sim ${esc(a.versions.dpeSim)} · engine @open3cl/engine ${esc(a.versions.engine)} (3CL-2021) · works catalogue ${esc(a.versions.catalogue)} · electricity coefficient ${coefOf(a.coefMode)}${a.normalized ? ' · figures normalized to the registry' : ''} · ${a.changeSets} change sets run · generated ${generatedAt.toISOString().slice(0, 10)}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Energy audit ${esc(a.dpeId)}</title><style>${CSS}</style></head>
<body>${body}</body></html>
`;
}

/**
 * The audit in the workbench, with what its signer reads in the terminal and the report: the input
 * gate's banner when the figures are the engine's own, what the audit covers, the starting point
 * (bill included, with its prices' date) and target, the synthesis of both paths, the heat-loss
 * chart, and each path (in steps, in one step) with its works, figures, bills, whether each step
 * is proved cheapest, its aids, rules and six items, and the report to download.
 * Written to tolerate fields added to the audit (the audit is being reworked): it reads what
 * it knows, optionally, and ignores the rest.
 */
import type { AuditResponse } from '../contract/audit.js';
import {
  dpeBillText,
  dpeLabelText,
  normalizedText,
  perDwellingText,
  quantityNote,
  synthesisAids,
  unitsText,
} from '../contract/audit-text.js';
import { billChangeText } from '../contract/number-text.js';
import { euros, num } from './format.js';

type Proposal = AuditResponse['proposals'][number];
type Step = Proposal['steps'][number];

const perYear = (x: number | null | undefined) => (x == null ? '–' : `${num(x)}\u00a0€/yr`);

/** What the search proved of a step's cost, as the terminal says it. */
function proof(s: Step): string {
  if (s.exact) return 'proved cheapest';
  if (s.maxAbovePercent != null)
    return `at most ${s.maxAbovePercent} % above the cheapest possible`;
  return 'not proved cheapest';
}

const STATUS: Record<Proposal['items'][number]['status'], string> = {
  treated: 'treated',
  'not-needed': 'needs no works',
  cannot: 'cannot be treated',
  missing: 'MISSING',
};

/** Both paths side by side, step by step (the report's synthesis). */
function Synthesis({ rows }: { rows: NonNullable<AuditResponse['synthesis']> }) {
  return (
    <div class="scroll" tabIndex={0} role="region" aria-label="Synthesis of both paths">
      <table id="audit-synthesis">
        <caption>Synthesis: both paths, step by step</caption>
        <thead>
          <tr>
            <th scope="col">Path</th>
            <th scope="col">Step</th>
            <th scope="col">Class</th>
            <th scope="col">kWh/m²/yr</th>
            <th scope="col">kg CO2e/m²/yr</th>
            <th scope="col">Bill</th>
            <th scope="col">Bill change</th>
            <th scope="col">Cost</th>
            <th scope="col">MaPrimeRénov’</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.proposal}-${r.step}`}>
              <td>{r.proposal === 'steps' ? 'in steps' : 'in one step'}</td>
              <td>{r.step}</td>
              <td>
                <Cls c={r.classe} />
              </td>
              <td>{num(r.epM2)}</td>
              <td>{num(r.gesM2)}</td>
              <td>{perYear(r.bill)}</td>
              <td>{billChangeText(r.billSaved)}</td>
              <td>{euros(r.cost)}</td>
              <td>{synthesisAids(r, euros).join('; ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Cls({ c }: { c: string | null | undefined }) {
  const l = c && /^[A-G]$/.test(c) ? c : '–';
  return <span class={`badge cls-${l}`}>{l}</span>;
}

/** The losses as horizontal bars, each with its label and share in words. */
function LossChart({ losses }: { losses: AuditResponse['losses'] }) {
  const items = [...(losses?.items ?? [])].sort((a, b) => (b.share ?? 0) - (a.share ?? 0));
  const max = Math.max(1, ...items.map((i) => i.share ?? 0));
  return (
    <figure class="losses" aria-labelledby="losses-title">
      <figcaption id="losses-title">
        Heat losses: {num(losses?.total, 1)} W/K in all, by part of the dwelling
      </figcaption>
      <ul class="loss-rows">
        {items.map((i) => (
          <li key={i.key}>
            <span class="loss-label">{i.label}</span>
            <svg
              class="loss-bar"
              viewBox="0 0 100 10"
              preserveAspectRatio="none"
              aria-hidden="true"
            >
              <rect x="0" y="0" height="10" width={String((100 * (i.share ?? 0)) / max)} />
            </svg>
            <span class="loss-figure">
              {num(i.share, 1)} % · {num(i.wk, 1)} W/K
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

function ProposalView({ p, index }: { p: Proposal; index: number }) {
  return (
    <section class="proposal" aria-labelledby={`proposal-${index}`}>
      <h4 id={`proposal-${index}`}>
        {p.title}: {p.ok ? 'meets the rules' : 'does not meet every rule'} · {euros(p.cost)}
        {perDwellingText(p, euros)}
      </h4>
      {p.samePath && <p class="small">{p.samePath}</p>}
      {p.dearerNote && <p class="small dearer-note">{p.dearerNote}</p>}
      {p.costNote && <p class="small cost-note">{p.costNote}</p>}
      <div class="scroll" tabIndex={0} role="region" aria-label={`${p.title}: steps`}>
        <table>
          <caption class="sr-only">{p.title}: its steps</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Works</th>
              <th scope="col">Class</th>
              <th scope="col">kWh/m²/yr</th>
              <th scope="col">Bill after</th>
              <th scope="col">Cost</th>
            </tr>
          </thead>
          <tbody>
            {(p.steps ?? []).map((s) => (
              <tr key={s.n}>
                <td>{s.n}</td>
                <td>
                  <ul class="plain">
                    {(s.works ?? []).map((w) => (
                      <li key={`${w.referenceId}|${w.editableKey}`}>
                        <code>{w.referenceId}</code> {w.option} ·{' '}
                        {w.unit === 'm²'
                          ? `${num(w.quantity, 1)}\u00a0m²`
                          : unitsText(w.quantity, (x) => num(x), w.unit)}
                        {quantityNote(w, {
                          num: (x) => num(x, 0),
                          euros,
                          area: (x) => `${num(x, 1)}\u00a0m²`,
                        })}{' '}
                        · {euros(w.cost)}
                        {w.buildingCost != null ? ` (share of ${euros(w.buildingCost)})` : ''}
                      </li>
                    ))}
                  </ul>
                  {s.insulationNote && <p class="small insulation-note">{s.insulationNote}</p>}
                  {s.heatingNote && <p class="small heating-note">{s.heatingNote}</p>}
                  {s.heatPumpsNote && <p class="small heat-pumps-note">{s.heatPumpsNote}</p>}
                  {s.hotWaterNote && <p class="small hot-water-note">{s.hotWaterNote}</p>}
                </td>
                <td>
                  <Cls c={s.before?.classe} /> → <Cls c={s.after?.classe} />
                </td>
                <td>
                  {num(s.before?.epM2)} → {num(s.after?.epM2)}
                </td>
                <td>
                  {perYear(s.after?.bill)}
                  {s.billSaved != null && (
                    <span class="small muted"> ({billChangeText(s.billSaved)})</span>
                  )}
                  {s.billNote && (
                    <>
                      <br />
                      <span class="small bill-note">{s.billNote}</span>
                    </>
                  )}
                </td>
                <td>
                  {euros(s.cost)}
                  <br />
                  <span class="small proof">{proof(s)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {p.aids && (
        <p class="small">
          <strong>Aids</strong> (informative, rules of {p.aids.asOf}): {p.aids.rule}
          {p.aids.eligible &&
            ` — ${p.aids.byCategory.map((c) => `${c.label} ${euros(c.maPrimeRenov)}, net ${euros(c.netCost)}`).join(' · ')}`}
        </p>
      )}
      {p.justification && (
        <p class="small">
          <strong>Final class out of reach:</strong> {p.justification}
        </p>
      )}
      <h5>Rules</h5>
      <ul class="rules">
        {(p.rules ?? []).map((r) => (
          <li key={r.id} class={r.pass ? 'pass' : 'fail'}>
            <strong>{r.pass ? '✓ met' : '✗ not met'}</strong> {r.label}
            {r.figure ? ` (${r.figure})` : ''}
            {r.why ? ` — ${r.why}` : ''}
          </li>
        ))}
      </ul>
      <h5>The six items after this path</h5>
      <div class="scroll" tabIndex={0} role="region" aria-label={`${p.title}: the six items`}>
        <table class="items">
          <caption class="sr-only">{p.title}: the six items</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">After this path</th>
              <th scope="col">Why not / note</th>
            </tr>
          </thead>
          <tbody>
            {(p.items ?? []).map((i) => (
              <tr key={i.key}>
                <td>{i.label}</td>
                <td>
                  {STATUS[i.status] ?? i.status}
                  {i.status === 'treated' && i.step != null ? ` in step ${i.step}` : ''}
                </td>
                <td>{i.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function AuditView({
  audit,
  reportUrl,
  reportPdfUrl,
}: {
  audit: AuditResponse;
  reportUrl: string;
  reportPdfUrl: string;
}) {
  const dpeLabel = dpeLabelText(audit, num);
  const scaled = normalizedText(audit);
  return (
    <div id="audit-view">
      {audit.gate?.banner && (
        <p class="error" role="alert" id="audit-banner">
          {audit.gate.banner}
        </p>
      )}
      {audit.scope && <p id="audit-scope">{audit.scope.text}</p>}
      <p id="audit-before">
        Now <Cls c={audit.initial?.classe} /> ({num(audit.initial?.epM2)} kWh/m²/yr,{' '}
        {num(audit.initial?.gesM2)} kg CO2e/m²/yr, final {num(audit.initial?.ef)} kWh/yr), bill{' '}
        {perYear(audit.initial?.bill)}; target class <Cls c={audit.targetClass} />.{' '}
        <span class="muted small">{audit.targetRule}</span>
      </p>
      {dpeLabel && (
        <p class="small" id="audit-dpe-label">
          {dpeLabel}
        </p>
      )}
      {scaled && (
        <p class="notice small" id="audit-normalized">
          {scaled}
        </p>
      )}
      {audit.prices && (
        <p class="muted small" id="audit-prices">
          {audit.prices.source}
          {audit.prices.dpe ? `.${dpeBillText(audit.prices, perYear)}` : ''}
        </p>
      )}
      {audit.synthesis && audit.synthesis.length > 0 && <Synthesis rows={audit.synthesis} />}
      {audit.auditApplies === false && (
        <p class="notice">The regulatory audit does not apply to this dwelling.</p>
      )}
      {audit.losses && <LossChart losses={audit.losses} />}
      <h3>The two paths</h3>
      {(audit.proposals ?? []).map((p, i) => (
        <ProposalView key={p.kind ?? i} p={p} index={i} />
      ))}
      {audit.note && <p class="muted small">{audit.note}</p>}
      <p class="actions">
        <a class="button" href={reportUrl} download id="report-html">
          Download the report (HTML)
        </a>{' '}
        <a class="button" href={reportPdfUrl} download id="report-pdf">
          Download the report (PDF)
        </a>
      </p>
    </div>
  );
}

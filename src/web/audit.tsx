/**
 * The audit in the workbench: the starting point and target, the heat-loss chart, both paths
 * (in steps, in one step) with their works, figures and rules, and the report to download.
 * Written to tolerate fields added to the audit (the audit is being reworked): it reads what
 * it knows, optionally, and ignores the rest.
 */
import type { AuditResponse } from '../contract/audit.js';
import { euros, num } from './format.js';

type Proposal = AuditResponse['proposals'][number];

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
      </h4>
      <div class="scroll" tabIndex={0} role="region" aria-label={`${p.title}: steps`}>
        <table>
          <caption class="sr-only">{p.title}: its steps</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Works</th>
              <th scope="col">Class</th>
              <th scope="col">kWh/m²/yr</th>
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
                        <code>{w.referenceId}</code> {w.option}
                      </li>
                    ))}
                  </ul>
                </td>
                <td>
                  <Cls c={s.before?.classe} /> → <Cls c={s.after?.classe} />
                </td>
                <td>
                  {num(s.before?.epM2)} → {num(s.after?.epM2)}
                </td>
                <td>{euros(s.cost)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
  return (
    <div id="audit-view">
      <p>
        Now <Cls c={audit.initial?.classe} /> ({num(audit.initial?.epM2)} kWh/m²/yr,{' '}
        {num(audit.initial?.gesM2)} kg CO2e/m²/yr); target class <Cls c={audit.targetClass} />.{' '}
        <span class="muted small">{audit.targetRule}</span>
      </p>
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

/**
 * The workbench (issue 37): the page behind the login URL. It uses the login token once (the
 * server sets an HttpOnly session cookie), then shows the DPE (label, alerts, facts, engine
 * against registry), its elements with their works options, the recommended scenarios, the
 * audit and the user's history. Picking works recomputes through the server's `preview` route
 * (the partner `calc` on the user's backend, nothing recorded); "Record" runs `calc` itself.
 * Preact, bundled by scripts/bundle-web.mjs; no inline script or style (the CSP forbids them).
 */
import { render } from 'preact';
import { memo } from 'preact/compat';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { AuditResponse } from '../contract/audit.js';
import { billSavedShown } from '../contract/number-text.js';
import type {
  CalcResponse,
  EditableChange,
  HistoryRecord,
  InitialResponse,
  PreResponse,
} from '../contract/schemas.js';
import { api, ApiError, isAuditGate, type SessionInfo, type Who } from './api.js';
import { AuditView } from './audit.js';
import { euros, eurosPerKwh, kwhYear, letter, LETTERS, num, when } from './format.js';

type Thresholds = InitialResponse['dpe']['thresholds'];
type Element = InitialResponse['dpe']['items']['mur'][number];
type Editable = Element['editables'][string];
type Scenario = InitialResponse['autoSolutions'][number];

interface Failure {
  title: string;
  detail: string;
  /** a session is open in this browser: offer to go back to it */
  back?: boolean;
}

/** English names of the element categories (the CLI's), the French key kept beside. */
const CATEGORY_NAMES: Record<string, string> = {
  mur: 'Walls',
  baie_vitree: 'Windows',
  porte: 'Doors',
  plancher_bas: 'Floors',
  plancher_haut: 'Roofs',
  installation_chauffage: 'Heating',
  installation_ecs: 'Hot water',
  ventilation: 'Ventilation',
};

const LEFT_OUT_REASONS: Record<string, string> = {
  'more-energy': 'more primary energy',
  'more-ges': 'more CO2',
  'more-energy-and-ges': 'more primary energy and more CO2',
};

const SOURCES: Record<string, string> = {
  registry: 'Registry (as published)',
  'engine-registry-rules': 'Engine, with the registry’s rules',
  'engine-today': 'Engine, with today’s rules',
};

// ------------------------------------------------------------------------- small pieces

function Badge({ cls, label }: { cls: string | null | undefined; label?: string }) {
  const l = cls && /^[A-G]$/.test(cls) ? cls : '–';
  return (
    <span class={`badge cls-${l}`} title={label ? `${label}: ${l}` : `class ${l}`}>
      {l}
    </span>
  );
}

/** A DPE label: the seven classes with their thresholds, the current one marked in words. */
function Label(props: {
  id: string;
  title: string;
  unit: string;
  bounds: Record<string, number>;
  value: number;
  cls: string;
  before?: { value: number; cls: string } | undefined;
}) {
  const { bounds } = props;
  const range = (l: string, i: number): string => {
    const lo = i === 0 ? undefined : bounds[LETTERS[i - 1] as string];
    const hi = bounds[l];
    if (lo === undefined) return `< ${num(hi)}`;
    if (hi === undefined) return `≥ ${num(lo)}`;
    return `${num(lo)}–${num(hi)}`;
  };
  return (
    <figure class="label" aria-labelledby={`${props.id}-title`}>
      <figcaption id={`${props.id}-title`}>
        {props.title} <span class="muted">({props.unit})</span>
      </figcaption>
      <ol class="label-rows">
        {LETTERS.map((l, i) => {
          const here = l === props.cls;
          const was = props.before && props.before.cls === l && props.before.cls !== props.cls;
          return (
            <li key={l} class={here ? 'here' : undefined} aria-current={here ? 'true' : undefined}>
              <span class={`bar bar-${l}`}>
                <span class="bar-letter">{l}</span>
              </span>
              <span class="bar-range">{range(l, i)}</span>
              {here && (
                <strong class="bar-mark">
                  ◀ now {num(props.value)}
                  <span class="sr-only">
                    {' '}
                    {props.unit}, class {l}
                  </span>
                </strong>
              )}
              {was && props.before && (
                <span class="bar-was">
                  before {num(props.before.value)}
                  <span class="sr-only"> {props.unit}</span>
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </figure>
  );
}

function ThresholdNote({ t }: { t: Thresholds }) {
  const notes = [
    t.smallSurface ? 'small-surface thresholds (under 40 m²)' : undefined,
    t.highAltitude ? 'high-altitude thresholds (over 800 m)' : undefined,
  ].filter(Boolean);
  return (
    <p class="muted small">
      Thresholds used: upper bounds of each class, today’s rules
      {notes.length ? `, ${notes.join(', ')}` : ''}. The worse of energy and emissions gives the DPE
      class.
    </p>
  );
}

// ------------------------------------------------------------------------- the DPE

interface LabelFigures {
  epM2: number;
  gesM2: number;
  energy: string;
  ges: string;
  thresholds: Thresholds;
}

/**
 * What the labels show: the recalculation's figures, else the initial simulation's, else (while
 * the initial simulation computes) the pre-analysis's engine row with today's thresholds.
 */
function labelFigures(
  pre: PreResponse | null,
  initial: InitialResponse | null,
  current: CalcResponse | null,
): LabelFigures | undefined {
  const calc = (current ?? initial)?.calculation;
  const thresholds = calc?.thresholds ?? initial?.dpe.thresholds;
  if (calc && thresholds) {
    const r = calc.result;
    return {
      epM2: r.ep_conso_5_usages_m2.value ?? 0,
      gesM2: r.emission_ges_5_usages_m2.value ?? 0,
      energy: letter(r.classe_conso_c.value),
      ges: letter(r.classe_emission_ges.value),
      thresholds,
    };
  }
  const today = pre?.classes?.rows.find((row) => row.source === 'engine-today');
  const bounds = pre?.classes?.thresholdsToday;
  if (!today || !bounds || today.epM2 == null || today.gesM2 == null) return undefined;
  return {
    epM2: today.epM2,
    gesM2: today.gesM2,
    energy: today.energie ?? '–',
    ges: today.ges ?? '–',
    thresholds: bounds,
  };
}

function DpeSection({
  pre,
  initial,
  current,
}: {
  pre: PreResponse | null;
  initial: InitialResponse | null;
  current: CalcResponse | null;
}) {
  const alerts = new Map<string, { type: string; title: string; content: string }>();
  for (const w of [...(pre?.warnings ?? []), ...(initial?.warnings ?? [])]) alerts.set(w.id, w);
  const label = labelFigures(pre, initial, current);
  const was = current && initial ? labelFigures(null, initial, null) : undefined;
  return (
    <section id="dpe" aria-labelledby="dpe-title">
      <h2 id="dpe-title">The DPE</h2>
      {label && (
        <>
          <div class="labels">
            <Label
              id="label-energy"
              title="Energy (énergie primaire)"
              unit="kWh/m²/yr"
              bounds={label.thresholds.dpe}
              value={label.epM2}
              cls={label.energy}
              before={was ? { value: was.epM2, cls: was.energy } : undefined}
            />
            <Label
              id="label-ges"
              title="Emissions (GES)"
              unit="kg CO2e/m²/yr"
              bounds={label.thresholds.ges}
              value={label.gesM2}
              cls={label.ges}
              before={was ? { value: was.gesM2, cls: was.ges } : undefined}
            />
          </div>
          <ThresholdNote t={label.thresholds} />
        </>
      )}
      <h3>Alerts</h3>
      {alerts.size === 0 ? (
        <p class="muted">No alert.</p>
      ) : (
        <ul class="alerts">
          {[...alerts.values()].map((a) => (
            <li key={a.title} class={`alert alert-${a.type}`}>
              <strong>
                {a.type}: {a.title}
              </strong>{' '}
              {a.content}
            </li>
          ))}
        </ul>
      )}
      {initial && (
        <>
          <h3>Facts</h3>
          <dl class="facts">
            {Object.entries(initial.dpe.infos).map(([k, info]) => (
              <div key={k}>
                <dt>{info.label}</dt>
                <dd>
                  {typeof info.value === 'number' && !Number.isInteger(info.value)
                    ? num(info.value, 1)
                    : String(info.value ?? '–')}
                  {info.unit ? ` ${info.unit}` : ''}
                </dd>
              </div>
            ))}
          </dl>
        </>
      )}
      {pre?.classes && (
        <>
          <h3>Engine against registry</h3>
          <div class="scroll" tabIndex={0} role="region" aria-label="Engine against registry">
            <table id="engine-registry">
              <caption class="sr-only">The DPE’s figures and classes by source</caption>
              <thead>
                <tr>
                  <th scope="col">Source</th>
                  <th scope="col">kWh/m²/yr</th>
                  <th scope="col">kg CO2e/m²/yr</th>
                  <th scope="col">Energy</th>
                  <th scope="col">GES</th>
                  <th scope="col">DPE class</th>
                </tr>
              </thead>
              <tbody>
                {pre.classes.rows.map((row) => (
                  <tr key={row.source}>
                    <th scope="row">{SOURCES[row.source] ?? row.source}</th>
                    <td>{num(row.epM2)}</td>
                    <td>{num(row.gesM2)}</td>
                    <td>
                      <Badge cls={row.energie} label="energy class" />
                    </td>
                    <td>
                      <Badge cls={row.ges} label="GES class" />
                    </td>
                    <td>
                      <Badge cls={row.officielle} label="DPE class" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {initial && <p class="muted small">{initial.calculation.normalization.reason}</p>}
        </>
      )}
    </section>
  );
}

// ------------------------------------------------------------------------- works

/** `ref|KEY` → value: the works picked, one option per element and key. */
type Picks = Record<string, string>;

function picksToWorks(picks: Picks): EditableChange[] {
  return Object.entries(picks).map(([k, editableValue]) => {
    const [referenceId = '', editableKey = ''] = k.split('|');
    return { referenceId, editableKey, editableValue };
  });
}

/**
 * One element and its options. Memoized: a pick re-renders only the element it changed
 * (`picked` is this element's picks as text; `onPick` is stable).
 */
const ElementWorks = memo(function ElementWorks({
  el,
  picked: pickedText,
  leftOut,
  onPick,
}: {
  el: Element;
  picked: string;
  leftOut: NonNullable<InitialResponse['dpe']['optionsLeftOut']>;
  onPick: (ref: string, key: string, value: string | null) => void;
}) {
  const picks = Object.fromEntries(
    pickedText
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t') as [string, string]),
  ) as Picks;
  const id = el.referenceId.replace(/[^A-Za-z0-9_-]/g, '-');
  const editables = Object.entries(el.editables ?? {}) as [string, Editable][];
  const mine = leftOut.filter((o) => o.referenceId === el.referenceId);
  return (
    <div class="element" id={`el-${id}`}>
      <h4 class="element-title">
        <code>{el.referenceId}</code> {el.description}
      </h4>
      {el.etat && <p class="muted small">Now: {el.etat}</p>}
      {editables.length === 0 && <p class="muted small">No works option for this element.</p>}
      {editables.map(([key, ed]) => {
        const name = `${el.referenceId}|${key}`;
        const picked = picks[name] ?? '';
        return (
          <fieldset key={key}>
            <legend>
              {key} <span class="sr-only">on {el.referenceId}</span>
            </legend>
            <label class="option">
              <input
                type="radio"
                name={name}
                value=""
                checked={picked === ''}
                onChange={() => onPick(el.referenceId, key, null)}
              />
              <span class="option-label">No works</span>
            </label>
            {Object.entries(ed.values).map(([value, text]) => {
              const o = ed.options?.[value];
              return (
                <label class="option" key={value}>
                  <input
                    type="radio"
                    name={name}
                    value={value}
                    checked={picked === value}
                    onChange={() => onPick(el.referenceId, key, value)}
                  />
                  <span class="option-label">
                    {text} <code class="muted">{value}</code>
                  </span>
                  {o && (
                    <span class="option-figures">
                      <span>gain {kwhYear(o.gainTotal)}</span>
                      <span>{euros(o.cout)}</span>
                      <span>
                        {o.euroParKwh === null ? 'saves nothing' : eurosPerKwh(o.euroParKwh)}
                      </span>
                    </span>
                  )}
                </label>
              );
            })}
          </fieldset>
        );
      })}
      {mine.length > 0 && (
        <ul class="left-out small">
          {mine.map((o) => (
            <li key={o.editableValue}>
              Left out: {o.label} (<code>{o.editableValue}</code>), it would use{' '}
              {LEFT_OUT_REASONS[o.reason] ?? o.reason} ({kwhYear(o.gainTotal)} gained,{' '}
              {euros(o.cout)})
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});

/** One element's picks as text (`ref|KEY\tvalue` lines), for ElementWorks' memo. */
function pickedOf(picks: Picks, ref: string): string {
  return Object.entries(picks)
    .filter(([k]) => k.startsWith(`${ref}|`))
    .map(([k, v]) => `${k}\t${v}`)
    .join('\n');
}

const RESULT_ORDER = [
  'classe_bilan_dpe',
  'classe_conso_c',
  'classe_emission_ges',
  'ep_conso_5_usages_m2',
  'ep_conso_5_usages',
  'emission_ges_5_usages_m2',
  'emission_ges_5_usages',
  'cout_5_usages',
  'perte_surface_m2',
];

function ResultPanel({
  initial,
  current,
  works,
  busy,
  error,
  dpeId,
  onRecord,
  onReset,
  recordNote,
}: {
  initial: InitialResponse;
  current: CalcResponse | null;
  works: EditableChange[];
  busy: boolean;
  error: string | null;
  dpeId: string;
  onRecord: () => void;
  onReset: () => void;
  recordNote: string | null;
}) {
  const calc = (current ?? initial).calculation;
  const result = calc.result as Record<
    string,
    { value: number | null; VInit: number | null; title: string }
  >;
  const keys = [
    ...RESULT_ORDER.filter((k) => k in result),
    ...Object.keys(result).filter((k) => !RESULT_ORDER.includes(k)),
  ];
  const h = calc.hints;
  const next = calc.classeSuivante;
  const before = initial.simulation.initialGrade;
  const after = current?.simulation.currentGrade ?? before;
  const command = `dpe-sim calc ${dpeId}${works.map((w) => ` --work ${w.referenceId}=${w.editableKey}:${w.editableValue}`).join('')}`;
  return (
    <div class="result" id="result" aria-busy={busy ? 'true' : 'false'}>
      <h3>Result</h3>
      <p class="classes" id="result-classes">
        Class <Badge cls={before} label="before works" /> →{' '}
        <span id="class-after">
          <Badge cls={after} label="after works" />
        </span>
        <span class="sr-only" aria-live="polite">
          {busy ? 'Computing…' : `Class after works: ${after}`}
        </span>
        {busy && <span class="muted small"> computing…</span>}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="scroll" tabIndex={0} role="region" aria-label="The nine results">
        <table id="results">
          <caption>The nine results</caption>
          <thead>
            <tr>
              <th scope="col">Result</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => {
              const v = result[k];
              if (!v) return null;
              const isClass = k.startsWith('classe_');
              return (
                <tr key={k} data-key={k}>
                  <th scope="row">{v.title.replace(/ \(1 = A … 7 = G\)/, '')}</th>
                  <td>{isClass ? letter(v.VInit) : num(v.VInit)}</td>
                  <td>{isClass ? letter(v.value) : num(v.value)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <h4>Hints</h4>
      <dl class="facts" id="hints">
        <div>
          <dt>Works cost</dt>
          <dd id="hint-cost">{euros(h.coutTravaux)}</dd>
        </div>
        <div>
          <dt>Energy bill saved</dt>
          <dd id="hint-saved">
            {euros(billSavedShown(result.cout_5_usages, h.economieAnnuelle))}/yr
          </dd>
        </div>
        <div>
          <dt>Primary energy saved</dt>
          <dd>
            {kwhYear(h.gainTotal)} ({num(h.gainM2)} kWh/m²/yr)
          </dd>
        </div>
        <div>
          <dt>Emissions avoided</dt>
          <dd>{num(h.gainGESM2)} kg CO2e/m²/yr</dd>
        </div>
        <div>
          <dt>Payback</dt>
          <dd>
            {h.retourSurInvestissementAnnees == null
              ? '–'
              : `${num(h.retourSurInvestissementAnnees, 1)} years`}
          </dd>
        </div>
        <div>
          <dt>To the next class{next ? ` (${next})` : ''}</dt>
          <dd>
            {next
              ? `${num(h.resteClasseSuivanteM2)} kWh/m²/yr and ${num(h.resteGESClasseSuivanteM2)} kg CO2e/m²/yr`
              : 'already in A'}
          </dd>
        </div>
      </dl>
      {current?.warnings
        ?.filter((w) => w.id === 'warning.bill-rises')
        .map((w) => (
          <p class="small" id="bill-rises" key={w.id}>
            {w.content}
          </p>
        ))}
      <p class="small">
        To reproduce: <code id="reproduce">{command}</code>
      </p>
      <div class="actions">
        <button type="button" onClick={onRecord} disabled={busy || works.length === 0}>
          Record this calculation
        </button>
        <button type="button" class="secondary" onClick={onReset} disabled={works.length === 0}>
          Clear the works
        </button>
      </div>
      <p class="small" role="status" id="record-note">
        {recordNote ?? ''}
      </p>
    </div>
  );
}

function Scenarios({
  list,
  applied,
  onApply,
}: {
  list: Scenario[];
  applied: number | null;
  onApply: (n: number) => void;
}) {
  if (list.length === 0) return <p class="muted">No recommended scenario for this DPE.</p>;
  return (
    <ol class="scenarios">
      {list.map((s, i) => (
        <li key={i} class={applied === i + 1 ? 'scenario applied' : 'scenario'}>
          <h3>
            Scenario {i + 1}: class <Badge cls={s.classe} label="class after works" />
            {applied === i + 1 && <span class="tag">applied</span>}
          </h3>
          <p>
            {euros(s.cout)}
            {s.exact === false && s.lowerBound != null
              ? ` (≥ ${euros(s.lowerBound)} proven)`
              : ''}{' '}
            · {num(s.consoApres)} kWh/m²/yr · {num(s.gesApres)} kg CO2e/m²/yr ·{' '}
            {eurosPerKwh(s.euroParKwh)}
          </p>
          <ul class="small">
            {(s.items ?? []).map((it) => (
              <li key={`${it.referenceId}|${it.editableKey}`}>
                <code>{it.referenceId}</code> {it.label} — {euros(it.cout)}
              </li>
            ))}
          </ul>
          {s.heatPumpsNote && <p class="small heat-pumps-note">{s.heatPumpsNote}</p>}
          {s.waterHeatersNote && <p class="small water-heaters-note">{s.waterHeatersNote}</p>}
          <button type="button" onClick={() => onApply(i + 1)}>
            Apply scenario {i + 1}
          </button>
        </li>
      ))}
    </ol>
  );
}

function History({ records }: { records: HistoryRecord[] | null }) {
  if (!records) return <p class="muted">Loading…</p>;
  if (records.length === 0) return <p class="muted">No calculation yet.</p>;
  return (
    <div class="scroll" tabIndex={0} role="region" aria-label="Your calculations">
      <table id="history-table">
        <caption class="sr-only">Your calculations, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Operation</th>
            <th scope="col">DPE</th>
            <th scope="col">Class</th>
            <th scope="col">kWh/m²/yr</th>
            <th scope="col">Works</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r, i) => (
            <tr key={i}>
              <td>{when(r.at)}</td>
              <td>
                {r.operation}
                {r.scenario && r.scenario !== 'default' ? ` (${r.scenario})` : ''}
              </td>
              <td>{r.dpeId}</td>
              <td>
                <Badge cls={r.classBefore} label="before" />
                {r.classAfter && (
                  <>
                    {' → '}
                    <Badge cls={r.classAfter} label="after" />
                  </>
                )}
              </td>
              <td>
                {num(r.consoBefore)}
                {r.consoAfter != null ? ` → ${num(r.consoAfter)}` : ''}
              </td>
              <td>{r.works.length === 0 ? '–' : `${r.works.length} (${euros(r.coutTravaux)})`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// ------------------------------------------------------------------------- the page

function Workbench({ session }: { session: SessionInfo }) {
  const dpeId = session.dpeId;
  const who: Who | null = dpeId ? { ...session.user, dpeId } : null;
  const [pre, setPre] = useState<PreResponse | null>(null);
  const [initial, setInitial] = useState<InitialResponse | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [picks, setPicks] = useState<Picks>({});
  const [current, setCurrent] = useState<CalcResponse | null>(null);
  const [busy, setBusy] = useState(false);
  const [calcError, setCalcError] = useState<string | null>(null);
  const [applied, setApplied] = useState<number | null>(null);
  const [history, setHistory] = useState<HistoryRecord[] | null>(null);
  const [recordNote, setRecordNote] = useState<string | null>(null);
  const [audit, setAudit] = useState<AuditResponse | null>(null);
  const [auditBusy, setAuditBusy] = useState(false);
  const [auditError, setAuditError] = useState<string | null>(null);
  const [auditGated, setAuditGated] = useState(false);
  const [seq, setSeq] = useState(0);
  const latest = useRef(0);
  const worksHeading = useRef<HTMLHeadingElement>(null);

  const blocked = pre?.warnings.some((w) => w.type === 'block') ?? false;

  useEffect(() => {
    void api.history().then(
      (h) => setHistory(h.records),
      () => setHistory([]),
    );
    if (!who) return;
    void api
      .pre(who)
      .then((p) => {
        setPre(p);
        if (p.warnings.some((w) => w.type === 'block')) return;
        return api.initial(who).then(setInitial);
      })
      .catch((e: unknown) => setLoadError(e instanceof Error ? e.message : String(e)));
  }, []);

  useEffect(() => {
    document.title = initial
      ? `DPE ${dpeId}: class ${current?.simulation.currentGrade ?? initial.simulation.initialGrade} — workbench`
      : 'DPE workbench';
  }, [initial, current]);

  function recompute(next: Picks) {
    setPicks(next);
    setRecordNote(null);
    const works = picksToWorks(next);
    const n = ++latest.current;
    if (!who) return;
    if (works.length === 0) {
      setCurrent(null);
      setBusy(false);
      setCalcError(null);
      setSeq(n);
      return;
    }
    setBusy(true);
    api.preview(who, works).then(
      (res) => {
        if (n !== latest.current) return;
        setCurrent(res);
        setCalcError(null);
        setBusy(false);
        setSeq(n);
      },
      (e: unknown) => {
        if (n !== latest.current) return;
        setCalcError(e instanceof Error ? e.message : String(e));
        setBusy(false);
        setSeq(n);
      },
    );
  }

  const picksRef = useRef<Picks>({});
  picksRef.current = picks;
  const recomputeRef = useRef(recompute);
  recomputeRef.current = recompute;
  const onPick = useCallback((ref: string, key: string, value: string | null) => {
    const next = { ...picksRef.current };
    if (value === null) delete next[`${ref}|${key}`];
    else next[`${ref}|${key}`] = value;
    setApplied(null);
    recomputeRef.current(next);
  }, []);

  function onApply(n: number) {
    const s = initial?.autoSolutions[n - 1];
    if (!s) return;
    const next: Picks = {};
    for (const e of s.editables) next[`${e.referenceId}|${e.editableKey}`] = e.editableValue;
    setApplied(n);
    recompute(next);
    worksHeading.current?.focus();
  }

  function onRecord() {
    if (!who) return;
    const works = picksToWorks(picks);
    setRecordNote('Recording…');
    api.calc(who, works, applied ? `scenario ${applied}` : undefined).then(
      (res) => {
        setRecordNote(
          `Recorded: class ${res.simulation.initialGrade} → ${res.simulation.currentGrade} (simulation ${res.simulation.simulationId}).`,
        );
        void api.history().then((h) => setHistory(h.records));
      },
      (e: unknown) => setRecordNote(`Not recorded: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  function runAudit(engineFigures = false) {
    if (!who) return;
    setAuditBusy(true);
    setAuditError(null);
    setAuditGated(false);
    api.audit(who, engineFigures).then(
      (a) => {
        setAudit(a);
        setAuditBusy(false);
      },
      (e: unknown) => {
        setAuditError(e instanceof Error ? e.message : String(e));
        // the input gate refused the DPE's figures: the engine's own may still be shown, under
        // a banner (the CLI's --engine-figures)
        setAuditGated(isAuditGate(e));
        setAuditBusy(false);
      },
    );
  }

  const works = picksToWorks(picks);
  const leftOut = initial?.dpe.optionsLeftOut ?? [];
  return (
    <>
      <header class="top">
        <a class="skip" href="#works">
          Skip to the works
        </a>
        <div class="top-row">
          <h1>DPE workbench{dpeId ? <span class="muted"> · {dpeId}</span> : null}</h1>
          <p class="who" id="who">
            {session.user.userName} <span class="muted">({session.user.customerName})</span>
          </p>
        </div>
        <nav aria-label="Sections">
          <ul>
            <li>
              <a href="#dpe">DPE</a>
            </li>
            <li>
              <a href="#works">Works</a>
            </li>
            <li>
              <a href="#scenarios">Scenarios</a>
            </li>
            <li>
              <a href="#audit">Audit</a>
            </li>
            <li>
              <a href="#history">History</a>
            </li>
          </ul>
        </nav>
      </header>
      <main class="page" data-seq={seq} data-ready={initial ? 'true' : 'false'}>
        {!dpeId && (
          <p class="notice">
            This login link names no DPE and you have no calculation yet: ask for a link on a DPE.
            Your history is below.
          </p>
        )}
        {loadError && (
          <p class="error" role="alert">
            {loadError}
          </p>
        )}
        {dpeId && !pre && !loadError && <p class="muted">Computing the DPE…</p>}
        {dpeId && pre && <DpeSection pre={pre} initial={initial} current={current} />}
        {blocked && (
          <p class="error" role="alert">
            This DPE cannot be simulated (see the alerts above).
          </p>
        )}
        {initial && who && (
          <>
            <section id="works" aria-labelledby="works-title">
              <h2 id="works-title" tabIndex={-1} ref={worksHeading}>
                Works
              </h2>
              <p class="muted small">
                Pick works on the elements: the class, the label and the results are computed again
                at once (nothing recorded until you record it). Gains are of each option alone;
                costs ±{num((initial.deltaCosts?.margin ?? 0) * 100)} %.
              </p>
              <p class="works-summary" id="works-summary">
                Class <Badge cls={initial.simulation.initialGrade} label="before works" /> →{' '}
                <Badge
                  cls={current?.simulation.currentGrade ?? initial.simulation.initialGrade}
                  label="after works"
                />{' '}
                {num((current ?? initial).calculation.result.ep_conso_5_usages_m2.value)} kWh/m²/yr
                · {euros((current ?? initial).calculation.hints.coutTravaux)}
                {busy ? ' · computing…' : ''} <a href="#result">Result</a>
              </p>
              <div class="works-grid">
                <div class="elements">
                  {(Object.entries(initial.dpe.items) as [string, Element[]][]).map(
                    ([cat, els]) => (
                      <section key={cat} class="category" aria-labelledby={`cat-${cat}`}>
                        <h3 id={`cat-${cat}`}>
                          {CATEGORY_NAMES[cat] ?? cat} <span class="muted">({cat})</span>
                        </h3>
                        {els.map((el) => (
                          <ElementWorks
                            key={el.referenceId}
                            el={el}
                            picked={pickedOf(picks, el.referenceId)}
                            leftOut={leftOut}
                            onPick={onPick}
                          />
                        ))}
                      </section>
                    ),
                  )}
                </div>
                <ResultPanel
                  initial={initial}
                  current={current}
                  works={works}
                  busy={busy}
                  error={calcError}
                  dpeId={who.dpeId}
                  onRecord={onRecord}
                  onReset={() => {
                    setApplied(null);
                    recompute({});
                  }}
                  recordNote={recordNote}
                />
              </div>
            </section>
            <section id="scenarios" aria-labelledby="scenarios-title">
              <h2 id="scenarios-title">Recommended scenarios</h2>
              <p class="muted small">
                The cheapest works found for each class. Apply one: its works are picked above,
                where you can change them.
              </p>
              <Scenarios list={initial.autoSolutions} applied={applied} onApply={onApply} />
            </section>
            <section id="audit" aria-labelledby="audit-title">
              <h2 id="audit-title">Audit</h2>
              <p class="muted small">
                The energy audit: the heat losses, a path in steps and a path in one step to a
                “rénovation performante”, every rule checked.
              </p>
              {!audit && !auditGated && (
                <button
                  type="button"
                  onClick={() => runAudit()}
                  disabled={auditBusy}
                  id="run-audit"
                >
                  {auditBusy ? 'Computing the audit…' : 'Open the audit'}
                </button>
              )}
              {auditError && (
                <p class="error" role="alert" id="audit-error">
                  {auditError}
                </p>
              )}
              {!audit && auditGated && (
                <p>
                  <button
                    type="button"
                    onClick={() => runAudit(true)}
                    disabled={auditBusy}
                    id="run-audit-engine"
                  >
                    {auditBusy
                      ? 'Computing the audit…'
                      : 'Audit on the engine’s own figures, under a warning'}
                  </button>{' '}
                  <span class="muted small">
                    They are not the DPE’s figures: check the DPE before relying on any.
                  </span>
                </p>
              )}
              {audit && (
                <AuditView
                  audit={audit}
                  reportUrl={api.reportUrl(audit.gate?.engineFigures === true)}
                  reportPdfUrl={api.reportPdfUrl(audit.gate?.engineFigures === true)}
                />
              )}
            </section>
          </>
        )}
        <section id="history" aria-labelledby="history-title">
          <h2 id="history-title">Your calculations</h2>
          <History records={history} />
        </section>
      </main>
    </>
  );
}

function FailurePage({ failure }: { failure: Failure }) {
  useEffect(() => {
    document.title = failure.title;
  }, []);
  return (
    <main class="page narrow">
      <h1>DPE workbench</h1>
      <div class="error" role="alert" id="failure">
        <h2 id="failure-title">{failure.title}</h2>
        <p id="failure-detail">{failure.detail}</p>
      </div>
      {failure.back && (
        <p>
          <a href="partnerLogin.html" id="back">
            Back to your open session
          </a>
        </p>
      )}
    </main>
  );
}

function App() {
  const [state, setState] = useState<
    | { kind: 'loading' }
    | { kind: 'ready'; session: SessionInfo }
    | { kind: 'failed'; failure: Failure }
  >({ kind: 'loading' });

  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('partnerToken');
    const fail = (failure: Failure) => setState({ kind: 'failed', failure });
    const unreachable = (e: unknown) =>
      fail({
        title: 'Cannot reach the service.',
        detail: e instanceof ApiError ? e.message : String(e),
      });
    if (token === null) {
      api.session().then((s) => {
        if (s.signedIn) setState({ kind: 'ready', session: s });
        else
          fail({
            title: 'This page needs a login link.',
            detail: 'Open the link you were given (it signs you in once, for 12 hours).',
          });
      }, unreachable);
      return;
    }
    // the token is single use: keep it out of the address bar and the browser history
    window.history.replaceState(null, '', window.location.pathname);
    api.login(token).then(async (s) => {
      if (s.signedIn) return setState({ kind: 'ready', session: s });
      const open = await api.session().catch(() => null);
      const reason = s.error.charAt(0).toUpperCase() + s.error.slice(1);
      if (s.reason === 'unknown') {
        fail({
          title: 'This login link is not valid.',
          detail: `${reason}. Check that you copied the whole link.`,
          back: Boolean(open?.signedIn),
        });
      } else {
        fail({
          title: 'This login link can no longer be used.',
          detail: `${reason}. Ask for a new link${open?.signedIn ? ', or go back to the session already open in this browser' : ''}.`,
          back: Boolean(open?.signedIn),
        });
      }
    }, unreachable);
  }, []);

  if (state.kind === 'loading')
    return (
      <main class="page">
        <p class="muted">Signing you in…</p>
      </main>
    );
  if (state.kind === 'failed') return <FailurePage failure={state.failure} />;
  return <Workbench session={state.session} />;
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}

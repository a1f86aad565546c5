/** Simulation results for humans: classes, figures before/after, hints, elements and options. */
import { terminalText } from '../../contract/text.js';
import type { DpeSourceInfo, RegistryPack } from '../../contract/schemas.js';
import type {
  SpecAutoSolution,
  SpecCalcResponse,
  SpecCalculation,
  SpecDpeStructure,
  SpecInitialResponse,
} from '../../contract/spec-responses.js';
import { dpeSourceLine } from './dpe-source.js';
import { CATEGORIES } from '../../contract/constants.js';
import { INFO_KEYS, type InfoKey, type Thresholds } from '../../contract/schemas.js';
import { isClassLetter } from '../../contract/classes.js';
import { eurosPerYear, kwh, withUnit } from '../format.js';
import { STANDARD_LIMITS, classFor, renderLabel, type LabelMark } from './label.js';
import type { Style } from './style.js';
import { euros, num, saving, table, terminalWidth } from './table.js';
import { wrap } from './text.js';
import { nextClassText, renderAlerts, renderPacksClean } from './classes.js';

const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
export function letter(index: number): string {
  return LETTERS[Math.round(index) - 1] ?? '?';
}

/** What a table shows where the service did not give a field (the spec leaves it open). */
export const NOT_GIVEN = '–';
export const NOT_GIVEN_NOTE = 'not given by the service';

/** A grade the service may leave out: the letter, or "–". */
function grade(g: string | undefined, s: Style): string {
  return g === undefined ? NOT_GIVEN : s.classLetter(g);
}

/**
 * A scenario's target class: dpe-sim's `classe`, else `result.classe_bilan_dpe` read as the
 * spec gives it (a class letter, or a result value whose `value` is the class index).
 */
export function targetClass(sol: SpecAutoSolution): string | undefined {
  if (sol.classe !== undefined) return sol.classe;
  const c = sol.result.classe_bilan_dpe;
  if (typeof c === 'string' && c !== '') return c;
  if (typeof c === 'number') return letter(c);
  return reachedClass(sol);
}

function reachedClass(sol: SpecAutoSolution): string | undefined {
  const c = sol.result.classe_bilan_dpe;
  if (c !== null && typeof c === 'object' && typeof (c as { value?: unknown }).value === 'number')
    return letter((c as { value: number }).value);
  return undefined;
}

/** The class before works from `classe_bilan_dpe.VInit` when the grades are not given. */
function initialLetter(calc: SpecCalculation): string {
  return letter(calc.result.classe_bilan_dpe.VInit);
}

function currentLetter(calc: SpecCalculation): string {
  return letter(calc.result.classe_bilan_dpe.value);
}

/**
 * The label of a calculation: markers at the figures before (and after works, the target class).
 * The classes come from the response; the thresholds are this dwelling's when the response
 * carries them (`initial`, `calc --include-dpe`), else the standard ones, said so when this
 * dwelling's differ (the classes do not fall where the standard thresholds put them).
 */
export function calculationLabel(
  calc: SpecCalculation,
  thresholds: Thresholds | undefined,
  s: Style,
  afterWorks: boolean,
): string {
  const r = calc.result;
  const limits = thresholds ?? STANDARD_LIMITS;
  const marks: LabelMark[] = [];
  const mark = (name: string, index: number, ep: number, ges: number) => {
    const cls = letter(index);
    if (isClassLetter(cls)) marks.push({ name, cls, ep, ges });
  };
  const before = calc.normalization?.applied ? 'registry (normalized)' : 'engine';
  mark(
    afterWorks ? 'before' : before,
    r.classe_bilan_dpe.VInit,
    r.ep_conso_5_usages_m2.VInit,
    r.emission_ges_5_usages_m2.VInit,
  );
  if (afterWorks) {
    mark(
      'after works',
      r.classe_bilan_dpe.value,
      r.ep_conso_5_usages_m2.value,
      r.emission_ges_5_usages_m2.value,
    );
  }
  const own = thresholds !== undefined;
  const agrees = marks.every(
    (m) => classFor(Math.floor(m.ep ?? 0), Math.floor(m.ges ?? 0), limits) === m.cls,
  );
  const note = own
    ? `Thresholds for this dwelling${thresholds.smallSurface ? ' (under 40 m²: small-surface thresholds)' : ''}${thresholds.highAltitude ? ' (high altitude: E and F raised)' : ''}.`
    : agrees
      ? undefined
      : 'Standard thresholds shown; this dwelling has its own (see dpe-sim initial).';
  return renderLabel(
    { thresholds: limits, marks, width: terminalWidth() ?? Infinity, ...(note ? { note } : {}) },
    s,
  );
}

export function renderCalculation(calc: SpecCalculation, s: Style): string {
  const r = calc.result;
  const cls = (k: 'classe_bilan_dpe' | 'classe_conso_c' | 'classe_emission_ges') =>
    `${s.classLetter(letter(r[k].VInit))} → ${s.classLetter(letter(r[k].value))}`;
  const row = (label: string, k: keyof typeof r, digits = 0) => [
    label,
    num(r[k].VInit, digits),
    num(r[k].value, digits),
  ];
  const h = calc.hints;
  const out = [
    table(
      ['Class', 'Before → after'],
      [
        ['DPE (official: worse of energy and GES)', cls('classe_bilan_dpe')],
        ['Energy', cls('classe_conso_c')],
        ['Climate (GES)', cls('classe_emission_ges')],
      ],
      { keep: [1] },
    ),
    table(
      ['Figure', 'Before', 'After'],
      [
        row('Primary energy (kWh/m²/yr)', 'ep_conso_5_usages_m2', 1),
        row('Primary energy (kWh/yr)', 'ep_conso_5_usages'),
        row('Emissions (kg CO2e/m²/yr)', 'emission_ges_5_usages_m2', 1),
        row('Emissions (kg CO2e/yr)', 'emission_ges_5_usages'),
        row('Energy cost (€/yr)', 'cout_5_usages'),
        row('Floor area lost (m²)', 'perte_surface_m2', 2),
      ],
      { keep: [1, 2] },
    ),
    table(
      ['Hint', 'Value'],
      [
        ['Works cost', euros(h.coutTravaux)],
        ['Annual saving (energy bill)', eurosPerYear(h.economieAnnuelle)],
        ['Energy saved', `${kwh(h.gainTotal)} (${kwh(h.gainM2, 'kWh/m²/yr', 1)})`],
        ['Emissions avoided', withUnit(h.gainGESM2, 'kg CO2e/m²/yr', 1)],
        [
          'Payback',
          h.retourSurInvestissementAnnees === null
            ? '–'
            : withUnit(h.retourSurInvestissementAnnees, 'years', 1),
        ],
        [
          'To the next class',
          h.resteClasseSuivanteM2 === undefined
            ? `${NOT_GIVEN} (${NOT_GIVEN_NOTE})`
            : nextClassText(h),
        ],
      ],
      { keep: [0] },
    ),
  ];
  if (calc.normalization?.applied)
    out.push(wrap(s.c.yellow(`Normalized to the registry: ${calc.normalization.reason}.`)));
  if (typeof calc.errorMessage === 'string' && calc.errorMessage !== '')
    out.push(wrap(s.c.red(`The service reports an error: ${calc.errorMessage}`)));
  return out.join('\n');
}

/** The works options of one `editables` entry as lines; the option values when no costs. */
function optionLines(
  key: string,
  ed: SpecDpeStructure['items']['mur'][number]['editables'][string],
): string[] {
  if (ed.options) {
    return Object.entries(ed.options).map(
      ([code, o]) =>
        `${key}:${code} ${euros(o.cout)}, ${saving(o.gainTotal, 'kWh/yr')}${o.euroParKwh !== null && o.euroParKwh !== undefined ? `, ${withUnit(o.euroParKwh, '€/kWh', 2)}` : ''}`,
    );
  }
  if (ed.values) {
    return Object.entries(ed.values).map(
      ([code, label]) => `${key}:${code} ${label} (cost and gain ${NOT_GIVEN_NOTE})`,
    );
  }
  return [`${key}: option values ${NOT_GIVEN_NOTE}`];
}

export function renderElements(dpe: SpecDpeStructure, s: Style): string {
  const rows: string[][] = [];
  for (const cat of CATEGORIES) {
    for (const el of dpe.items[cat]) {
      const options = Object.entries(el.editables).flatMap(([key, ed]) => optionLines(key, ed));
      rows.push([
        `${el.referenceId}\n${el.description}${el.etat === undefined ? '' : `\n${s.c.dim(el.etat)}`}`,
        options.length ? options.join('\n') : s.c.dim('no works offered'),
      ]);
    }
  }
  return table(['Element (state)', 'Works options: cost, primary energy saved'], rows);
}

/** The facts of the DPE, labelled in English like the rest (the API's labels are French). */
export const INFO_LABELS: Record<InfoKey, string> = {
  ref: 'DPE number',
  surface: 'Living area',
  type_bien: 'Dwelling type',
  zone_climatique: 'Climate zone',
  annee_construction: 'Year built',
  classe_altitude: 'Altitude',
  energie_chauffage: 'Main heating energy',
  nombre_niveaux: 'Storeys',
};

/** An `infos` value of a type the spec does not state, as text. */
function infoText(value: unknown): string {
  if (value === null || value === undefined) return NOT_GIVEN;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value);
}

export function renderInfos(dpe: SpecDpeStructure): string {
  // every entry the service sent: the four the spec names and any others
  const rows = Object.entries(dpe.infos as Record<string, unknown>).map(([key, entry]) => {
    const e = (entry !== null && typeof entry === 'object' ? entry : { value: entry }) as {
      value?: unknown;
      label?: unknown;
      unit?: unknown;
    };
    const label = (INFO_KEYS as readonly string[]).includes(key)
      ? INFO_LABELS[key as InfoKey]
      : typeof e.label === 'string'
        ? e.label
        : key;
    const unit = typeof e.unit === 'string' && e.unit ? e.unit : undefined;
    return [
      label,
      typeof e.value === 'number' && unit
        ? withUnit(e.value, unit, 2)
        : `${infoText(e.value)}${unit ? ` ${unit}` : ''}`,
    ];
  });
  return table(['DPE', 'Value'], rows, { keep: [0] });
}

export function renderSolutions(solutions: readonly SpecAutoSolution[], s: Style): string {
  if (solutions.length === 0) {
    return s.c.dim('No recommended scenario (the catalogue cannot improve the class).');
  }
  return table(
    [
      '#',
      'Target',
      'Works (cost)',
      'Cost',
      'kWh/m²/yr after',
      'kg CO2e/m²/yr after',
      '€ per kWh saved',
      'Rental ban after',
    ],
    solutions.map((sol, i) => {
      const target = targetClass(sol);
      const reached = reachedClass(sol);
      return [
        String(i + 1),
        `${grade(target, s)}${reached !== undefined && reached !== target ? ` (reaches ${reached})` : ''}`,
        (sol.items
          ? sol.items.map(
              (it) => `${it.referenceId} ${it.editableKey}:${it.editableValue} ${euros(it.cout)}`,
            )
          : sol.editables.map((it) => `${it.referenceId} ${it.editableKey}:${it.editableValue}`)
        ).join('\n'),
        euros(sol.cout),
        sol.consoApres === undefined ? NOT_GIVEN : num(sol.consoApres, 1),
        sol.gesApres === undefined ? NOT_GIVEN : num(sol.gesApres, 1),
        sol.euroParKwh === null || sol.euroParKwh === undefined
          ? '–'
          : withUnit(sol.euroParKwh, '€', 2),
        sol.interdictionLocation === undefined
          ? NOT_GIVEN
          : `${sol.interdictionLocation === null ? 'none' : `from ${sol.interdictionLocation}`}${sol.sortInterdiction ? s.c.green(sol.interdictionLocation === null ? ' (lifted)' : ' (postponed)') : ''}`,
      ];
    }),
    // narrow terminals: GES after, € per kWh, consumption after, rental ban go first
    { keep: [0, 1, 3], drop: [5, 6, 4, 7] },
  );
}

export function renderPacks(packs: readonly RegistryPack[], s: Style): string {
  if (packs.length === 0) return s.c.dim('The XML carries no works packs of its own.');
  return table(
    ['#', "Diagnostician's pack (from the registry XML)", 'Cost range', 'Consumption after'],
    packs.map((p, i) => [
      String(i + 1),
      p.description,
      p.coutMin === null && p.coutMax === null ? '–' : `${euros(p.coutMin)} – ${euros(p.coutMax)}`,
      p.consoApres === null ? '–' : kwh(p.consoApres, 'kWh/m²/yr', 1),
    ]),
    { keep: [0] },
  );
}

export function renderInitial(body: SpecInitialResponse, dpeArg: string, s: Style): string {
  const tips = [
    `Cost figures ±${Math.round(body.deltaCosts.margin * 100)}%: ${body.deltaCosts.source}`,
    `Try: dpe-sim calc ${dpeArg} --work <referenceId>=<KEY>:<VALUE>  (or -i to pick interactively)`,
    ...(body.autoSolutions.length
      ? [`Apply a scenario: dpe-sim calc ${dpeArg} --scenario-from 1`]
      : []),
  ];
  return [
    wrap(
      s.c.bold(
        `DPE ${body.dpe.id}: class ${body.simulation.initialGrade ?? initialLetter(body.calculation)}`,
      ) + s.c.dim(`  (simulation ${body.simulation.simulationId ?? NOT_GIVEN_NOTE})`),
    ),
    ...sourceLine(body.dpeSource),
    calculationLabel(body.calculation, body.dpe.thresholds, s, false),
    renderInfos(body.dpe),
    renderCalculation(body.calculation, s),
    renderElements(body.dpe, s),
    s.c.bold('Recommended scenarios (the cheapest combination found for each class)'),
    renderSolutions(body.autoSolutions, s),
    s.c.bold('Registry works packs, to compare'),
    body.registryPacks === undefined
      ? s.c.dim(`Registry works packs: ${NOT_GIVEN_NOTE}.`)
      : renderPacksClean(body.registryPacks, s),
    `Sharing cost: ${body.sharingCost === undefined ? `${NOT_GIVEN} (${NOT_GIVEN_NOTE})` : body.sharingCost === 0 ? '0 (free sharing)' : '1 (paid sharing)'}`,
    renderAlerts(body.warnings, s),
    ...tips.map((t) => wrap(s.c.dim(t), '  ')),
  ].join('\n');
}

export function renderCalc(body: SpecCalcResponse, s: Style): string {
  const works = body.editableChanges.editablesValues;
  return [
    wrap(
      s.c.bold(
        `DPE ${body.simulation.dpeId}: ${body.simulation.initialGrade ?? initialLetter(body.calculation)} → ${body.simulation.currentGrade ?? currentLetter(body.calculation)}`,
      ) +
        s.c.dim(
          `  (scenario ${terminalText(body.namedCalculation)}, ${works.length} works item${works.length === 1 ? '' : 's'})`,
        ),
    ),
    ...sourceLine(body.dpeSource),
    calculationLabel(body.calculation, body.dpe?.thresholds, s, true),
    renderCalculation(body.calculation, s),
    renderAlerts(body.warnings, s),
  ]
    .filter(Boolean)
    .join('\n');
}

function sourceLine(info: DpeSourceInfo | undefined): string[] {
  const line = dpeSourceLine(info);
  return line === undefined ? [] : [line];
}

/** Simulation results for humans: classes, figures before/after, hints, elements and options. */
import { terminalText } from '../../contract/text.js';
import type { DpeSourceInfo, RegistryPack, ScopeInfo } from '../../contract/schemas.js';
import { COST_CEILING } from '../../contract/cost-ceiling.js';
import { elementCell } from '../../contract/element-label.js';
import { billSavedShown, numberText, percentText } from '../../contract/number-text.js';
import type {
  SpecAutoSolution,
  SpecCalcResponse,
  SpecCalculation,
  SpecDpeStructure,
  SpecInitialResponse,
} from '../../contract/spec-responses.js';
import { dpeSourceLine } from './dpe-source.js';
import { CATEGORIES, ENERGY_PRICES_SINCE } from '../../contract/constants.js';
import { INFO_KEYS, type InfoKey, type Thresholds } from '../../contract/schemas.js';
import { isClassLetter } from '../../contract/classes.js';
import { eurosPerYear, kwh, percent, withUnit } from '../format.js';
import { workFlags } from '../works-input.js';
import { STANDARD_LIMITS, classFor, renderLabel, type LabelMark } from './label.js';
import type { Style } from './style.js';
import { euros, num, saving, table, terminalWidth } from './table.js';
import { wrap } from './text.js';
import {
  DEFAULT_INITIAL_SECTIONS,
  INITIAL_SECTIONS,
  type InitialSection,
} from '../initial-sections.js';
import { nextClassText, renderAlerts, renderAlertsBrief, renderPacksClean } from './classes.js';

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
 * carries them (dpe-sim's `calculation.thresholds`, the ones its classes and its distance to the
 * next class use; `dpe.thresholds`), else the standard ones, said so when this dwelling's differ
 * (the classes do not fall where the standard thresholds put them).
 */
export function calculationLabel(
  calc: SpecCalculation,
  given: Thresholds | undefined,
  s: Style,
  afterWorks: boolean,
): string {
  const thresholds = (calc as { thresholds?: Thresholds }).thresholds ?? given;
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
    ? thresholds.smallSurface || thresholds.highAltitude
      ? `Thresholds for this dwelling${thresholds.smallSurface ? ' (under 40 m²: small-surface thresholds)' : ''}${thresholds.highAltitude ? ' (high altitude: E and F raised)' : ''}.`
      : undefined
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
  // nothing computed with works (initial): one column of figures, no "F → F" as if it were news
  const unchanged = Object.values(r).every((v) => v.value === v.VInit);
  const cls = (k: 'classe_bilan_dpe' | 'classe_conso_c' | 'classe_emission_ges') =>
    r[k].VInit === r[k].value
      ? `${s.classLetter(letter(r[k].VInit))} (unchanged)`
      : `${s.classLetter(letter(r[k].VInit))} → ${s.classLetter(letter(r[k].value))}`;
  const figures: [string, keyof typeof r, number][] = [
    ['Primary energy (kWh/m²/yr)', 'ep_conso_5_usages_m2', 1],
    ['Primary energy (kWh/yr)', 'ep_conso_5_usages', 0],
    ['Emissions (kg CO2e/m²/yr)', 'emission_ges_5_usages_m2', 1],
    ['Emissions (kg CO2e/yr)', 'emission_ges_5_usages', 0],
    [`Energy cost (€/yr, prices of ${ENERGY_PRICES_SINCE})`, 'cout_5_usages', 0],
    ['Floor area lost (m²)', 'perte_surface_m2', 2],
  ];
  // a row of zeros (no floor area lost) says nothing
  const shown = figures.filter(([, k]) => r[k].VInit !== 0 || r[k].value !== 0);
  const h = calc.hints;
  const next: string[] = [
    'To the next class',
    h.resteClasseSuivanteM2 === undefined || calc.classeSuivante === undefined
      ? `${NOT_GIVEN} (${NOT_GIVEN_NOTE})`
      : nextClassText(calc),
  ];
  const out = unchanged
    ? [
        table(
          ['Figure', 'Value'],
          [
            [
              'Class (official: worse of energy and GES)',
              s.classLetter(letter(r.classe_bilan_dpe.VInit)),
            ],
            ...shown.map(([label, k, digits]) => [label, num(r[k].VInit, digits)]),
            next,
          ],
          { keep: [1] },
        ),
      ]
    : [
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
          shown.map(([label, k, digits]) => [
            label,
            num(r[k].VInit, digits),
            num(r[k].value, digits),
          ]),
          { keep: [1, 2] },
        ),
        table(
          ['Hint', 'Value'],
          [
            ['Works cost', euros(h.coutTravaux)],
            [
              'Annual saving (energy bill)',
              eurosPerYear(billSavedShown(r.cout_5_usages, h.economieAnnuelle)),
            ],
            ['Primary energy saved', `${kwh(h.gainTotal)} (${kwh(h.gainM2, 'kWh/m²/yr', 1)})`],
            ['Emissions avoided', withUnit(h.gainGESM2, 'kg CO2e/m²/yr', 1)],
            [
              'Payback',
              h.retourSurInvestissementAnnees === null
                ? '–'
                : withUnit(h.retourSurInvestissementAnnees, 'years', 1),
            ],
            next,
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

/** An option that trades energy for emissions (or back): both figures are shown. */
function trades(o: { gainTotal: number; gainGESM2?: number }): boolean {
  const g = o.gainGESM2;
  return g !== undefined && ((o.gainTotal < 0 && g > 0) || (o.gainTotal > 0 && g < 0));
}

/**
 * ", for 3 dwellings as the engine simulates them (the DPE says 1)": a whole building's option
 * whose installation says other dwellings than the engine simulates (dpe-sim's
 * `logementsChiffres`, `logementsDpe`); the price follows the engine, as the gain does.
 */
function dwellingsNote(o: { logementsChiffres?: number; logementsDpe?: number }): string {
  if (o.logementsChiffres === undefined || o.logementsDpe === undefined) return '';
  const n = o.logementsChiffres;
  return `, for ${numberText(n)} dwelling${n === 1 ? '' : 's'} as the engine simulates ${n === 1 ? 'it' : 'them'} (the DPE says ${numberText(o.logementsDpe)})`;
}

/** The works options of one `editables` entry as lines; the option values when no costs. */
function optionLines(
  key: string,
  ed: SpecDpeStructure['items']['mur'][number]['editables'][string],
): string[] {
  if (ed.options) {
    return Object.entries(ed.options).map(
      ([code, o]) =>
        `${key}:${code} ${euros(o.cout)}, ${saving(o.gainTotal, 'kWh/yr')}${trades(o) ? `, ${saving(o.gainGESM2 as number, 'kg CO2e/m²/yr', 1)}` : ''}${o.euroParKwh !== null && o.euroParKwh !== undefined ? `, ${withUnit(o.euroParKwh, '€ per kWh/yr saved', 2)}` : ''}${dwellingsNote(o)}`,
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

/**
 * Under a scenario's cost, what the search proved: "proved cheapest", or "at most 12% above the
 * cheapest possible" from the proven bound (dpe-sim's `exact`, `lowerBound`, `maxAbovePercent`).
 */
function provenBound(sol: SpecAutoSolution, s: Style): string {
  const x = sol as { exact?: boolean; lowerBound?: number; maxAbovePercent?: number | null };
  if (x.exact === undefined) return '';
  if (x.exact) return `\n${s.c.dim('proved')}`;
  if (x.lowerBound === undefined) return '';
  const pct = x.maxAbovePercent;
  // one short line: the cost column stays narrow (the table's legend says what it means)
  const above =
    pct === undefined || pct === null ? `≥ ${euros(x.lowerBound)}` : `≤ ${percentText(pct)} above`;
  return `\n${s.c.dim(above)}`;
}

/** "1 535 €/dwelling": a whole building's scenario cost divided by its dwellings (`coutParLogement`). */
function perDwelling(sol: SpecAutoSolution, s: Style): string {
  const d = (sol as { coutParLogement?: number }).coutParLogement;
  return d === undefined ? '' : `\n${s.c.dim(`${euros(d)}/dwelling`)}`;
}

/** "612 €/m² > 500": a scenario above the deep-renovation ceiling (dpe-sim's `coutParM2`). */
function overCeiling(sol: SpecAutoSolution, s: Style): string {
  const m2 = (sol as { coutParM2?: number }).coutParM2;
  if (m2 === undefined || m2 <= COST_CEILING.eurPerM2) return '';
  return `\n${s.c.yellow(`${numberText(m2)} €/m² > ${COST_CEILING.eurPerM2}`)}`;
}

/**
 * "Generated flat: envelope and collective works at its share of the building's: 54 / 9 231 m²"
 * (dpe-sim's `dpe.scope`): what the costs of a flat stand for; nothing for a house.
 */
export function scopeLine(dpe: SpecDpeStructure): string | undefined {
  const sc = (dpe as { scope?: ScopeInfo }).scope;
  if (!sc) return undefined;
  if (sc.buildingSurface === null || sc.share === null) {
    if (sc.kind === 'appartement-genere')
      return "Flat generated from its building's DPE, without the building's living area: envelope works and collective works sized by the building (a boiler room, a substation) are not offered (the flat's share of them is unknown)";
    if (sc.heating !== 'individuel' || sc.hotWater !== 'individuel')
      return "The building's living area is unknown: collective works are priced at the flat's own size (per m² served, per kW of its own heat loss, per dwelling); none sized by the building (a boiler room, a substation) is offered";
    return undefined;
  }
  const share = `${numberText(sc.surface, 1)} / ${numberText(sc.buildingSurface, 1)} m²`;
  if (sc.kind === 'appartement-genere')
    return `Flat generated from its building's DPE: envelope and collective works are priced at the flat's share of the building's works: ${share} (the building's amounts: coutDetail, --json coutBatiment)`;
  if (
    sc.kind === 'appartement' &&
    sc.share < 1 &&
    (sc.heating !== 'individuel' || sc.hotWater !== 'individuel')
  )
    return `Collective works are priced at the flat's share of the building's works: ${share}`;
  if (sc.kind === 'immeuble')
    return `Whole building, ${sc.dwellings} dwellings: individual systems are priced for every dwelling they serve, collective ones as one plant; €/dwelling: an average, the building's cost divided by its ${sc.dwellings} dwellings (how a co-ownership shares works is not in the DPE)`;
  return undefined;
}

/** English names of the element categories, for a scenario's works at a glance. */
const CATEGORY_NAMES: Record<string, [string, string]> = {
  mur: ['wall', 'walls'],
  baie_vitree: ['window', 'windows'],
  porte: ['door', 'doors'],
  plancher_bas: ['floor', 'floors'],
  plancher_haut: ['roof', 'roofs'],
  installation_chauffage: ['heating', 'heating'],
  installation_ecs: ['hot water', 'hot water'],
  ventilation: ['ventilation', 'ventilation'],
};

/** "3 walls, ventilation, heating": what a scenario treats, element categories counted. */
export function worksAtAGlance(refs: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of refs) {
    const cat = r.split(':')[0] ?? r;
    counts.set(cat, (counts.get(cat) ?? 0) + 1);
  }
  return [...counts]
    .map(([cat, n]) => {
      const [one, many] = CATEGORY_NAMES[cat] ?? [cat, cat];
      return n === 1 || one === many ? (n === 1 ? one : `${one} (${n})`) : `${n} ${many}`;
    })
    .join(', ');
}

export function renderSolutions(
  solutions: readonly SpecAutoSolution[],
  s: Style,
  detail = true,
  initialGrade?: string,
): string {
  if (solutions.length === 0) {
    return s.c.dim(
      initialGrade === 'A'
        ? 'No recommended scenario: the DPE is in class A.'
        : 'No recommended scenario: no combination of the works options offered on this DPE reaches a better class (--show elements lists them).',
    );
  }
  return table(
    [
      '#',
      'Target',
      detail ? 'Works (cost)' : 'Works',
      'Cost',
      'kWh/m²/yr after',
      'kg CO2e/m²/yr after',
      '€ per kWh/yr saved',
      'Rental ban after',
    ],
    solutions.map((sol, i) => {
      const target = targetClass(sol);
      const reached = reachedClass(sol);
      return [
        String(i + 1),
        `${grade(target, s)}${reached !== undefined && reached !== target ? ` (reaches ${reached})` : ''}`,
        detail
          ? (sol.items
              ? sol.items.map(
                  (it) =>
                    `${it.referenceId} ${it.editableKey}:${it.editableValue} ${euros(it.cout)}`,
                )
              : sol.editables.map((it) => `${it.referenceId} ${it.editableKey}:${it.editableValue}`)
            ).join('\n')
          : worksAtAGlance(sol.editables.map((it) => it.referenceId)),
        // what the search proved: cheapest, or at most N% above the cheapest possible
        `${euros(sol.cout)}${provenBound(sol, s)}${perDwelling(sol, s)}${overCeiling(sol, s)}`,
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
    // narrow terminals: GES after, € per kWh, consumption after, rental ban go first; at a
    // glance, no rule between the numbered rows (a screen for the whole of `initial`)
    { keep: [0, 1, 3], drop: [5, 6, 4, 7], numberedRows: !detail },
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

/** An option left out because it makes things worse (dpe-sim's `dpe.optionsLeftOut`). */
interface LeftOut {
  referenceId: string;
  editableKey: string;
  editableValue: string;
  cout: number;
  gainTotal: number;
  gainGES: number;
  reason: string;
}

const LEFT_OUT_REASONS: Record<string, string> = {
  'more-energy': 'more primary energy, no less CO2',
  'more-ges': 'more CO2, no less primary energy',
  'more-energy-and-ges': 'more primary energy and more CO2',
};

/** The options left out: counted in one line, listed one per line with --verbose. */
export function renderLeftOut(dpe: SpecDpeStructure, s: Style, verbose: boolean): string[] {
  const list = (dpe as { optionsLeftOut?: LeftOut[] }).optionsLeftOut ?? [];
  if (!list.length) return [];
  const head = `${list.length} works option${list.length > 1 ? 's' : ''} left out: worse energy or CO2, neither better${verbose ? '' : ` (--verbose lists ${list.length > 1 ? 'them' : 'it'})`}`;
  return [
    wrap(s.c.yellow(head)),
    ...(verbose
      ? list.map((o) =>
          wrap(
            `  ${o.referenceId} ${o.editableKey}:${o.editableValue} ${euros(o.cout)}: ${saving(o.gainTotal, 'kWh/yr')}, ${saving(o.gainGES, 'kg CO2e/yr')} (${LEFT_OUT_REASONS[o.reason] ?? o.reason})`,
            '    ',
          ),
        )
      : []),
  ];
}

/** How many options the `options` section lists (the best by € per kWh/yr saved). */
export const BEST_OPTIONS = 5;

/** The dwelling in one line: "95.4 m² maison, built 1965, climate zone H1B, heating gaz naturel". */
function factsLine(dpe: SpecDpeStructure): string {
  const infos = dpe.infos as Record<string, { value?: unknown; unit?: unknown } | undefined>;
  const v = (k: string) => {
    const x = infos[k]?.value;
    return x === null || x === undefined || x === '' ? undefined : x;
  };
  const surface = v('surface');
  const parts = [
    [
      typeof surface === 'number' ? withUnit(surface, 'm²', 1) : undefined,
      v('type_bien') === undefined ? undefined : infoText(v('type_bien')),
    ]
      .filter(Boolean)
      .join(' '),
    v('annee_construction') === undefined ? '' : `built ${infoText(v('annee_construction'))}`,
    v('zone_climatique') === undefined ? '' : `climate zone ${infoText(v('zone_climatique'))}`,
    v('energie_chauffage') === undefined ? '' : `heating ${infoText(v('energie_chauffage'))}`,
  ].filter((p) => p !== '');
  return parts.join(', ');
}

/** Where the dwelling stands, and what the next class asks. */
function nowLines(calc: SpecCalculation, s: Style): string[] {
  const r = calc.result;
  const lines = [
    `Now: class ${s.classLetter(letter(r.classe_bilan_dpe.VInit))} — ${kwh(r.ep_conso_5_usages_m2.VInit, 'kWh/m²/yr')}, ${withUnit(r.emission_ges_5_usages_m2.VInit, 'kg CO2e/m²/yr')}, energy bill ${eurosPerYear(r.cout_5_usages.VInit)} (prices of ${ENERGY_PRICES_SINCE}${calc.normalization?.applied ? ', normalized to the registry' : ''})`,
  ];
  if (calc.hints.resteClasseSuivanteM2 !== undefined && calc.classeSuivante)
    lines.push(`To reach the next ${nextClassText(calc)}`);
  return lines.map((l) => wrap(l, '  '));
}

/** The options that save the most per euro: every element's, best € per kWh/yr saved first. */
function renderBestOptions(dpe: SpecDpeStructure, count: number, s: Style): string {
  const all: {
    ref: string;
    description: string;
    code: string;
    o: NonNullable<
      SpecDpeStructure['items']['mur'][number]['editables'][string]['options']
    >[string];
  }[] = [];
  for (const cat of CATEGORIES) {
    for (const el of dpe.items[cat]) {
      for (const [key, ed] of Object.entries(el.editables)) {
        for (const [code, o] of Object.entries(ed.options ?? {})) {
          if (o.gainTotal > 0 && typeof o.euroParKwh === 'number')
            all.push({
              ref: el.referenceId,
              description: el.description,
              code: `${key}:${code}`,
              o,
            });
        }
      }
    }
  }
  if (all.length === 0) {
    const priced = CATEGORIES.some((cat) =>
      dpe.items[cat].some((el) => Object.values(el.editables).some((ed) => ed.options)),
    );
    return s.c.dim(
      priced
        ? 'No works option saves energy on this DPE.'
        : `Works options: costs and gains ${NOT_GIVEN_NOTE} (--show elements lists the elements and their options).`,
    );
  }
  all.sort(
    (a, b) => (a.o.euroParKwh as number) - (b.o.euroParKwh as number) || a.o.cout - b.o.cout,
  );
  // the best option of each element: five elements to weigh, not one element five times
  const seen = new Set<string>();
  const shown = all.filter((x) => !seen.has(x.ref) && seen.add(x.ref)).slice(0, count);
  return [
    wrap(
      s.c.bold(
        `Best options by € per primary kWh/yr saved (each element's best; --show elements lists all ${all.length})`,
      ),
    ),
    table(
      ['Element', 'Works option', 'Cost', 'Saves', '€ per kWh/yr saved'],
      shown.map((x) => [
        elementCell(x.ref, x.description, 28), // "mur:3 Mur 4 Ouest" (the table cuts it further)
        x.code,
        euros(x.o.cout),
        kwh(x.o.gainTotal),
        withUnit(x.o.euroParKwh, '€', 2),
      ]),
      // a row on a line: the element's name is cut to what the terminal leaves it
      // (an id stays whole); on a narrow terminal the kWh saved go first
      {
        keep: [1, 2, 3],
        truncate: [0],
        drop: [3],
        compact: true,
        // cut by the element's own rule, which keeps a split element's part ("… (p1)")
        cutCell: (row, _col, width) =>
          shown[row] && elementCell(shown[row].ref, shown[row].description, width),
      },
    ),
  ].join('\n');
}

export function renderInitial(
  body: SpecInitialResponse,
  dpeArg: string,
  s: Style,
  sections: readonly InitialSection[] = DEFAULT_INITIAL_SECTIONS,
  verbose = false,
): string {
  const on = (x: InitialSection) => sections.includes(x);
  // what to run next, in as few lines as a screen allows (issue 38: ≤ 60 lines at 100 columns)
  const tips = [
    `Cost figures ±${percent(Math.round(body.deltaCosts.margin * 100), 0)}: ${body.deltaCosts.source}`,
    body.autoSolutions.length
      ? `Next: dpe-sim calc ${dpeArg} --scenario-from 1 (a scenario's works), --work <referenceId>=<KEY>:<VALUE>, or -i to pick`
      : `Try: dpe-sim calc ${dpeArg} --work <referenceId>=<KEY>:<VALUE>  (or -i to pick interactively)`,
    ...(sections.length < INITIAL_SECTIONS.length
      ? [
          `More: dpe-sim initial ${dpeArg} --all  (or --show ${INITIAL_SECTIONS.filter((x) => !on(x)).join(',')})`,
        ]
      : []),
  ];
  const parts: string[] = [
    wrap(
      s.c.bold(
        `DPE ${body.dpe.id}: class ${body.simulation.initialGrade ?? initialLetter(body.calculation)}`,
      ) + s.c.dim(`  (simulation ${body.simulation.simulationId ?? NOT_GIVEN_NOTE})`),
    ),
    ...sourceLine(body.dpeSource),
  ];
  if (on('label')) parts.push(calculationLabel(body.calculation, body.dpe.thresholds, s, false));
  if (on('summary')) {
    const facts = factsLine(body.dpe);
    if (facts) parts.push(wrap(facts, '  '));
    parts.push(...nowLines(body.calculation, s));
  }
  if (on('facts')) parts.push(renderInfos(body.dpe));
  if (on('calculation')) parts.push(renderCalculation(body.calculation, s));
  if (on('options')) parts.push(renderBestOptions(body.dpe, BEST_OPTIONS, s));
  if (on('options') || on('elements')) parts.push(...renderLeftOut(body.dpe, s, verbose));
  if (on('elements')) parts.push(renderElements(body.dpe, s));
  if (on('scenarios')) {
    parts.push(
      wrap(
        s.c.bold(
          'Recommended scenarios, the cheapest per class (proved: the cheapest; ≤ N %: at most N % above it; ≥ X €: a proven bound)',
        ),
      ),
      renderSolutions(
        body.autoSolutions,
        s,
        on('elements'),
        body.simulation.initialGrade ?? undefined,
      ),
    );
    // (two heat pumps of one kind, or two water heaters, in one dwelling, priced as two
    // appliances: the scenario says so; at a glance one line for all, with --all each
    // scenario's note: issue 38's screen)
    const notes = [
      {
        of: (sol: SpecAutoSolution) => (sol as { heatPumpsNote?: string }).heatPumpsNote,
        glance:
          'heat pumps of one kind on several heating installations of one dwelling, priced as an appliance each; whether one serves them all is the auditor’s call (--all says what one would cost)',
      },
      {
        of: (sol: SpecAutoSolution) => (sol as { waterHeatersNote?: string }).waterHeatersNote,
        glance:
          'new water heaters on several hot-water installations of one dwelling, priced and simulated as an appliance each; whether one serves them all is the auditor’s call (--all names them)',
      },
    ];
    for (const { of, glance } of notes) {
      const noted = body.autoSolutions.flatMap((sol, i) => {
        const note = of(sol);
        return note ? [{ head: `${i + 1} (${sol.classe})`, note }] : [];
      });
      if (noted.length && on('elements'))
        for (const n of noted)
          parts.push(wrap(`Scenario ${n.head}: ${terminalText(n.note)}`, '  '));
      else if (noted.length) {
        const heads = noted.map((n) => n.head);
        const list =
          heads.length === 1
            ? `Scenario ${heads[0]}`
            : `Scenarios ${heads.slice(0, -1).join(', ')} and ${heads[heads.length - 1]}`;
        parts.push(wrap(`${list}: ${glance}`, '  '));
      }
    }
    const scope = scopeLine(body.dpe);
    if (scope) parts.push(wrap(s.c.dim(scope), '  '));
  }
  if (on('packs')) {
    if (body.registryPacks === undefined)
      parts.push(s.c.dim(`Registry works packs: ${NOT_GIVEN_NOTE}.`));
    else if (body.registryPacks.length === 0)
      parts.push(s.c.dim("The XML carries no works packs of the diagnostician's to compare."));
    else
      parts.push(
        s.c.bold("The diagnostician's works packs (from the XML), to compare"),
        renderPacksClean(body.registryPacks, s),
      );
  } else if (body.registryPacks !== undefined && body.registryPacks.length > 0) {
    // the packs' table is long (their texts): a line says they are there
    const n = body.registryPacks.length;
    parts.push(
      wrap(
        s.c.dim(
          `The XML carries ${n} works pack${n === 1 ? '' : 's'} of the diagnostician's: --show packs compares ${n === 1 ? 'it' : 'them'} with dpe-sim's`,
        ),
        '  ',
      ),
    );
  }
  if (on('facts'))
    parts.push(
      `Sharing cost: ${body.sharingCost === undefined ? `${NOT_GIVEN} (${NOT_GIVEN_NOTE})` : body.sharingCost === 0 ? '0 (free sharing)' : '1 (paid sharing)'}`,
    );
  // alerts as a table with --all, as short paragraphs on the screen at a glance
  if (on('alerts'))
    parts.push(
      on('elements') ? renderAlerts(body.warnings, s) : renderAlertsBrief(body.warnings, s),
    );
  parts.push(...tips.map((t) => wrap(s.c.dim(t), '  ')));
  return parts.filter(Boolean).join('\n');
}

/** "F → D", or "F (unchanged)". */
function classChange(before: string, after: string): string {
  return before === after ? `${before} (unchanged)` : `${before} → ${after}`;
}

export function renderCalc(body: SpecCalcResponse, s: Style, dpeArg?: string): string {
  const works = body.editableChanges.editablesValues;
  return [
    wrap(
      s.c.bold(
        `DPE ${body.simulation.dpeId}: ${classChange(body.simulation.initialGrade ?? initialLetter(body.calculation), body.simulation.currentGrade ?? currentLetter(body.calculation))}`,
      ) +
        s.c.dim(
          `  (scenario ${terminalText(body.namedCalculation)}, ${works.length} works item${works.length === 1 ? '' : 's'})`,
        ),
    ),
    ...(dpeArg === undefined
      ? []
      : [
          wrap(
            `Works: ${works.map((w) => `${w.referenceId}=${w.editableKey}:${w.editableValue}`).join(', ')}`,
            '  ',
          ),
        ]),
    ...sourceLine(body.dpeSource),
    calculationLabel(body.calculation, body.dpe?.thresholds, s, true),
    renderCalculation(body.calculation, s),
    renderAlerts(body.warnings, s),
    ...(dpeArg === undefined
      ? []
      : [wrap(s.c.dim(`To reproduce: dpe-sim calc ${dpeArg} ${workFlags(works)}`), '  ')]),
  ]
    .filter(Boolean)
    .join('\n');
}

function sourceLine(info: DpeSourceInfo | undefined): string[] {
  const line = dpeSourceLine(info);
  return line === undefined ? [] : [line];
}

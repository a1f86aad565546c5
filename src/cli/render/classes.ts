/**
 * Classes, next-class hints, alerts and clean registry packs for humans (issue 14). A module of
 * its own, called from pre.ts and simulation.ts, so those renderers stay as they are.
 */
import type {
  Calculation,
  ClassesTable,
  Hints,
  RegistryPack,
  Thresholds,
  Warning,
} from '../../contract/schemas.js';
import { renderWarnings } from './alerts.js';
import type { Style } from './style.js';
import { euros, num, percent, table, terminalLayout, type TableLayout } from './table.js';
import { wrap } from './text.js';

const SOURCE_LABEL: Record<ClassesTable['rows'][number]['source'], string> = {
  registry: 'Registry (as published)',
  'engine-registry-rules': 'Engine, registry rules',
  'engine-today': 'Engine, today',
};

function limits(t: Thresholds, which: 'dpe' | 'ges'): string {
  const l = t[which];
  return `A<${l.A} B<${l.B} C<${l.C} D<${l.D} E<${l.E} F<${l.F}`;
}

function thresholdsNote(t: Thresholds): string {
  const notes = [t.smallSurface ? 'small surface' : '', t.highAltitude ? 'high altitude' : '']
    .filter(Boolean)
    .join(', ');
  return notes ? ` (${notes})` : '';
}

/** Energy, GES and official classes side by side, with the thresholds used. */
export function renderClasses(c: ClassesTable | undefined, s: Style): string {
  if (!c) return '';
  const rows = c.rows.map((r) => [
    SOURCE_LABEL[r.source],
    `${s.classLetter(r.energie)} (${num(r.epM2, 0)})`,
    `${s.classLetter(r.ges)} (${num(r.gesM2, 1)})`,
    s.classLetter(r.officielle),
  ]);
  const reg = c.thresholdsRegistry;
  const today = c.thresholdsToday;
  return [
    table(['Classes', 'Energy (kWh/m²)', 'GES (kg/m²)', 'Official (worse of)'], rows),
    wrap(
      s.c.dim(
        `Registry rules: coefficient ${c.registryCoef}, thresholds at ${c.registryDate ?? 'its date'}${thresholdsNote(reg)}: energy ${limits(reg, 'dpe')}; GES ${limits(reg, 'ges')}`,
      ),
      '  ',
    ),
    wrap(
      s.c.dim(
        `Today's rules${thresholdsNote(today)}: energy ${limits(today, 'dpe')}; GES ${limits(today, 'ges')}`,
      ),
      '  ',
    ),
  ].join('\n');
}

/**
 * The next-class hint, following the official class; says when GES holds it back. The class and
 * what holds it back sit in `calculation` (dpe-sim's), the figures in its `hints`.
 */
export function nextClassText(
  c: Partial<Pick<Calculation, 'classeSuivante' | 'freinClasseSuivante'>> & {
    hints: Pick<
      Partial<Hints>,
      'resteClasseSuivanteM2' | 'resteGESClasseSuivanteM2' | 'margeClasseSuivantePourcent'
    >;
  },
): string {
  const next = c.classeSuivante;
  if (!next) return '–';
  const h = c.hints;
  const ep = `${num(h.resteClasseSuivanteM2 ?? 0, 1)} kWh/m²/yr`;
  const ges = `${num(h.resteGESClasseSuivanteM2 ?? 0, 1)} kg CO2e/m²/yr`;
  switch (c.freinClasseSuivante) {
    case 'ges':
      return `class ${next}: held back by GES, ${ges} to avoid (energy already allows it)`;
    case 'energie+ges':
      return `class ${next}: ${ep} and ${ges} (both hold it back)`;
    case 'energie':
      return `class ${next}: ${ep} (${percent(h.margeClasseSuivantePourcent ?? 0, 1)} of its threshold)`;
    default:
      return `class ${next}`;
  }
}

/** Alerts of `initial` / `calc`: the same table as `pre`, nothing when there are none. */
export function renderAlerts(warnings: readonly Warning[] | undefined, s: Style): string {
  if (!warnings || warnings.length === 0) return '';
  return [s.c.bold('Alerts'), renderWarnings(warnings, s)].join('\n');
}

/**
 * Alerts as running text, one paragraph each ("warning.coefficient-converted — Registry figures
 * converted: …"), for a screen that must stay short; the id is never cut (wrapped at spaces).
 */
export function renderAlertsBrief(warnings: readonly Warning[] | undefined, s: Style): string {
  if (!warnings || warnings.length === 0) return '';
  // a screen at a glance: beyond two alerts, a block or a confirmation keeps its text and the
  // others their title and id (the whole text: --all, or `pre`)
  const short = warnings.length > 2;
  const lines = warnings.map((w) => {
    const colour = w.type === 'block' ? s.c.red : w.type === 'confirm' ? s.c.yellow : s.c.dim;
    const head = `${colour(`${w.type}: ${w.title}`)} (${w.id})`;
    return wrap(
      short && w.type !== 'block' && w.type !== 'confirm' ? head : `${head}. ${w.content}`,
      '  ',
    );
  });
  if (short) lines.push(s.c.dim('  (each alert in full: --all, or dpe-sim pre)'));
  return lines.join('\n');
}

/** The flag of a pack gaining no class; no-break spaces keep it on one line in a narrow cell. */
const NO_CLASS_GAIN = 'no\u00a0class\u00a0gain';

/**
 * Registry packs with their class after works, dpe-sim's scenario for it, placeholder flags and
 * packs gaining no class over the DPE's own. `layout`: the terminal's by default.
 */
export function renderPacksClean(
  packs: readonly RegistryPack[],
  s: Style,
  layout?: TableLayout,
): string {
  if (packs.length === 0) return s.c.dim('The XML carries no works packs of its own.');
  const placeholders = packs.filter((p) => p.coutPlaceholder).length;
  const noGain = packs.filter((p) => p.sansGainDeClasse);
  const avant = noGain.find((p) => p.classeAvant)?.classeAvant;
  const width = (layout ?? terminalLayout()).width;
  const note = (text: string) => wrap(s.c.dim(text), '', width);
  return [
    table(
      ['#', "Diagnostician's pack (from the registry XML)", 'Cost range', 'After', 'dpe-sim'],
      packs.map((p, i) => [
        String(i + 1),
        p.description,
        (p.coutMin === null && p.coutMax === null
          ? '–'
          : `${euros(p.coutMin)} – ${euros(p.coutMax)}`) +
          (p.coutPlaceholder ? `\n${s.c.yellow('placeholder')}` : ''),
        // the class on its own line: "D (199" would not fit a narrow column and be cut
        `${p.classeApres ? s.classLetter(p.classeApres) : '?'}\n${num(p.consoApres, 0)} kWh/m², ${num(p.gesApres ?? null, 0)} kg` +
          (p.sansGainDeClasse ? `\n${s.c.yellow(NO_CLASS_GAIN)}` : ''),
        p.coutScenario === null || p.coutScenario === undefined ? '–' : euros(p.coutScenario),
      ]),
      // the pack's number and the euros stay whole; the description and the class after wrap
      { keep: [0, 2, 4], ...(layout ? { layout } : {}) },
    ),
    ...(placeholders
      ? [
          note(
            `${placeholders} pack${placeholders === 1 ? '' : 's'} with a maximum under 1 000 €: placeholder costs, not estimates.`,
          ),
        ]
      : []),
    ...(packs[0]?.registryCoef !== undefined
      ? [
          note(
            `Pack classes and dpe-sim's costs use the registry's rules for this DPE, as the diagnostician's software did: electricity coefficient ${packs[0].registryCoef}, thresholds at its date.`,
          ),
        ]
      : []),
    ...(packs.some(
      (p) => (p as { coutScenarioLogement?: number }).coutScenarioLogement !== undefined,
    )
      ? [
          note(
            "The packs of a flat generated from its building's DPE carry the building's amounts: dpe-sim's cost beside them is the building's (the flat's share ÷ its share of the building's area).",
          ),
        ]
      : []),
    ...(noGain.length
      ? [
          note(
            `${noGain.length} pack${noGain.length === 1 ? ' reaches' : 's reach'} no better class than the DPE's own${avant ? ` (${avant})` : ''}: nothing to compare.`,
          ),
        ]
      : []),
  ].join('\n');
}

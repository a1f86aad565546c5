/**
 * The pre-analysis: engine vs registry figures on the DPE label's units, and the alerts a
 * user must see before simulating (blocked, normalization to confirm, facts worth knowing).
 */
import type { CoefMode, MaxCalculation, PreResponse, Warning } from '../contract/schemas.js';
import { classesOf } from '../contract/classes.js';
import { classesTable } from './classes-table.js';
import { ALERT_IDS, confirm, info } from './alerts.js';
import {
  compare,
  CONFIRM_ABOVE,
  engineFigures,
  NORMALIZE_ABOVE,
  registryMode,
  type Comparison,
} from './comparison.js';
import type { PreparedDpe, Preparation } from './prepared.js';
import { disagreeingPart, firstParting, stepGaps, type StepGap } from './fidelity.js';
import { numberText, percentText } from '../contract/number-text.js';
import { consistencyAlert } from './consistency.js';

export interface PreOptions {
  coef: CoefMode;
  forceNormalization: boolean;
}

/**
 * What the pre-analysis computes of the response: every field but the login URL and the DPE's
 * source (the backend adds them). A field added to `PreResponse` and set here reaches the JSON,
 * the server and the renderer with no other change (the backend spreads it).
 */
export type PreBody = Omit<PreResponse, 'url' | 'dpeSource'>;

export interface PreAnalysis {
  body: PreBody;
  blocked: boolean;
  comparison: Comparison | undefined;
}

const EMPTY: MaxCalculation = {
  consommationInitiale: null,
  consommationXML: null,
  gesInitiale: null,
  gesXML: null,
  deltaConso: null,
  deltaGES: null,
};

export function preAnalysis(prep: Preparation, opts: PreOptions): PreAnalysis {
  if (!prep.ok) {
    const r = prep.facts?.registry;
    return {
      body: {
        maxCalculation: { ...EMPTY, consommationXML: r?.epM2 ?? null, gesXML: r?.gesM2 ?? null },
        warnings: [prep.alert],
      },
      blocked: true,
      comparison: undefined,
    };
  }
  const dpe = prep.dpe;
  const cmp = compare(dpe.facts, dpe.base, opts.coef);
  return {
    body: {
      maxCalculation: {
        consommationInitiale: cmp.engine.epM2,
        consommationXML: cmp.registry?.epM2 ?? null,
        gesInitiale: cmp.engine.gesM2,
        gesXML: cmp.registry?.gesM2 ?? null,
        deltaConso: cmp.deltaConso ?? null,
        deltaGES: cmp.deltaGES ?? null,
      },
      warnings: gapAlerts(cmp, opts).concat(
        partAlerts(dpe, cmp),
        factAlerts(dpe, cmp),
        consistencyAlert(dpe, cmp) ?? [],
      ),
      classes: classesTable(dpe, opts.coef),
    },
    blocked: false,
    comparison: cmp,
  };
}

function fmt(x: number | undefined): string {
  return x === undefined ? 'n/a' : percentText(x, 1, true);
}

export function gapAlerts(cmp: Comparison, opts: PreOptions): Warning[] {
  const gaps = `consumption ${fmt(cmp.deltaConso)}, emissions ${fmt(cmp.deltaGES)}`;
  switch (cmp.band) {
    case 'agree':
    case 'unknown':
      return [];
    case 'confirm':
      return opts.forceNormalization
        ? [
            info(
              ALERT_IDS.gapForced,
              'Normalization applied',
              `The engine and the registry differ by ${gaps}; as requested (forceNormalization), results are scaled to the registry figures.`,
            ),
          ]
        : [
            confirm(
              ALERT_IDS.gapConfirm,
              'Normalization recommended',
              `The engine and the registry differ by ${gaps} (over ${percentText(CONFIRM_ABOVE)} and at most ${percentText(NORMALIZE_ABOVE)}). Confirm normalization (forceNormalization / --force-normalization) to scale results to the registry figures.`,
            ),
          ];
    case 'normalize':
      return [
        info(
          ALERT_IDS.gapNormalized,
          'Results normalized to the registry',
          `The engine and the registry differ by ${gaps} (over ${percentText(NORMALIZE_ABOVE)}). Simulation results are scaled to the registry figures and are indicative only.`,
        ),
      ];
  }
}

/** "heating consumption 38 % below the registry's (engine 2 058, registry 4 573 kWh/yr)" */
function stepText(g: StepGap): string {
  const how = g.gap < 0 ? 'below' : 'above';
  return `${g.label} ${percentText(Math.abs(g.gap))} ${how} the registry's (engine ${numberText(g.engine)}, registry ${numberText(g.registry)} ${g.unit})`;
}

/**
 * Over 15%, the part that disagrees: the use whose consumption is furthest from the XML's, and
 * the first step upstream of it (losses, needs, installation, generator) that parts, from the
 * intermediate figures the XML carries (fidelity.ts).
 */
export function partAlerts(dpe: PreparedDpe, cmp: Comparison): Warning[] {
  if (cmp.gap === undefined || cmp.gap <= NORMALIZE_ABOVE) return [];
  const gaps = stepGaps(dpe.raw, dpe.base.output);
  const found = disagreeingPart(gaps);
  let content: string;
  if (found) {
    content = `Where the engine parts from the registry: ${stepText(found.part)}`;
    content += found.cause ? `; it parts first at ${stepText(found.cause)}.` : '.';
  } else {
    const first = firstParting(gaps);
    content = !first
      ? `No figure the XML carries differs from the engine's by more than ${percentText(5)}: the gap (${fmt(cmp.deltaConso)} energy, ${fmt(cmp.deltaGES)} emissions) is in the conversion to primary energy.`
      : first.kind === 'emissions'
        ? `Where the engine parts from the registry: ${stepText(first)}, with the same consumption: the emission factor of that use's energy differs.`
        : `Where the engine parts from the registry: ${stepText(first)}.`;
  }
  return [info(ALERT_IDS.partDiffers, 'The part of the computation that disagrees', content)];
}

function factAlerts(dpe: PreparedDpe, cmp: Comparison): Warning[] {
  const out: Warning[] = [];
  const f = dpe.facts;
  if (f.statut !== undefined && f.statut.toUpperCase() !== 'ACTIF') {
    out.push(
      info(
        ALERT_IDS.status,
        `Registry status ${f.statut}`,
        `The registry marks this DPE as ${f.statut}, not ACTIF: it may have been replaced or cancelled.`,
      ),
    );
  }
  if (!cmp.registry) {
    out.push(
      info(
        ALERT_IDS.registryMissing,
        'No registry figures to compare',
        'The XML has no usable registry results (logement/sortie): the engine figures cannot be checked and no normalization is possible.',
      ),
    );
  } else if (cmp.registry.converted) {
    out.push(
      info(
        ALERT_IDS.coefConverted,
        'Registry figures converted',
        `The registry computed this DPE with the electricity coefficient ${f.registryCoef}; its figures were converted to ${cmp.coef} so the comparison is like with like.`,
      ),
    );
  }
  if (dpe.site.surface < 40) {
    out.push(
      info(
        ALERT_IDS.smallSurface,
        'Small-surface thresholds',
        dpe.registryThresholds.smallSurface
          ? `The dwelling is under 40 m² (${dpe.site.surface} m²): the small-surface class thresholds apply.`
          : `The dwelling is under 40 m² (${dpe.site.surface} m²): the registry used the standard thresholds (the DPE predates 2024-07-01), simulations use today's small-surface thresholds.`,
      ),
    );
  }
  if (dpe.thresholds.highAltitude) {
    out.push(
      info(
        ALERT_IDS.highAltitude,
        'High-altitude thresholds',
        'The dwelling is above 800 m in zone H1b, H1c or H2d: classes E and F have raised thresholds.',
      ),
    );
  }
  const registryClass = f.registry.classe;
  if (registryClass) {
    const inRegistryMode = engineFigures(dpe.base, registryMode(f));
    const computed = classesOf(
      inRegistryMode.epM2,
      inRegistryMode.gesM2,
      dpe.registryThresholds,
    ).dpe;
    if (computed !== registryClass) {
      out.push(
        info(
          ALERT_IDS.classChanges,
          'Class differs from the registry',
          `With the registry's own coefficient and thresholds, the engine gives class ${computed}; the registry shows ${registryClass}.`,
        ),
      );
    }
  }
  return out;
}

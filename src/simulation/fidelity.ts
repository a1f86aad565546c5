/**
 * Engine vs registry, step by step: the intermediate figures the XML carries (losses per kind of
 * element, heating need, consumption per heating installation and generator, hot water) compared
 * with the engine's, in the order the 3CL method computes them, and the first step where the two
 * part. Used by `pre` (the per-part alert) and by `npm run fidelity` (scripts/fidelity.mjs).
 */
import type { Fields, RawDpe, RawElement, RawGeneratorHolder } from '../dpe/raw.js';
import { num } from '../dpe/raw.js';

/** A gap larger than this (%) means engine and registry part at that step. */
export const PART_ABOVE = 5;
/** Gaps on figures smaller than this (W/K or kWh) are not counted (rounding of tiny values). */
const NEGLIGIBLE = 1;

export type StepKind =
  'envelope' | 'need' | 'heating' | 'hot water' | 'other' | 'total' | 'emissions';

export interface StepGap {
  /** stable key, e.g. `deperdition_mur`, `installation_chauffage[0].generateur[1].conso_ch` */
  key: string;
  /** what a person reads: "wall losses", "heating consumption (generator 2 of installation 1)" */
  label: string;
  kind: StepKind;
  registry: number;
  engine: number;
  /** (engine − registry) / registry × 100 */
  gap: number;
  /** W/K for losses, kWh/yr for needs and consumption, kg CO2e/yr for emissions */
  unit: 'W/K' | 'kWh/yr' | 'kg CO2e/yr';
}

const ENVELOPE: [string, string][] = [
  ['deperdition_mur', 'wall losses'],
  ['deperdition_baie_vitree', 'window losses'],
  ['deperdition_porte', 'door losses'],
  ['deperdition_plancher_bas', 'floor losses'],
  ['deperdition_plancher_haut', 'roof losses'],
  ['deperdition_pont_thermique', 'thermal-bridge losses'],
  ['deperdition_renouvellement_air', 'air-renewal losses'],
];

function list<T>(v: T[] | T | undefined): T[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

function field(o: unknown, key: string): number | undefined {
  if (!o || typeof o !== 'object') return undefined;
  return num((o as Fields)[key]);
}

function step(
  out: StepGap[],
  key: string,
  label: string,
  kind: StepKind,
  registry: number | undefined,
  engine: number | undefined,
): void {
  if (registry === undefined || engine === undefined) return;
  if (Math.abs(registry) < NEGLIGIBLE && Math.abs(engine) < NEGLIGIBLE) return;
  const gap =
    registry === 0 ? (engine === 0 ? 0 : 100) : ((engine - registry) / Math.abs(registry)) * 100;
  const unit = kind === 'envelope' ? 'W/K' : kind === 'emissions' ? 'kg CO2e/yr' : 'kWh/yr';
  out.push({ key, label, kind, registry, engine, gap: Math.round(gap * 10) / 10, unit });
}

function generators(inst: RawGeneratorHolder, name: 'chauffage' | 'ecs'): RawElement[] {
  return name === 'chauffage'
    ? list(inst.generateur_chauffage_collection?.generateur_chauffage)
    : list(inst.generateur_ecs_collection?.generateur_ecs);
}

/**
 * Every intermediate figure present on both sides, in the method's order: envelope losses,
 * needs, heating consumption (per installation, then per generator), hot-water consumption,
 * then the totals.
 */
export function stepGaps(registry: RawDpe, engine: RawDpe): StepGap[] {
  const out: StepGap[] = [];
  const rs = registry.logement?.sortie ?? {};
  const es = engine.logement?.sortie ?? {};
  const rd = rs.deperdition as Fields | undefined;
  const ed = es.deperdition as Fields | undefined;
  for (const [key, label] of ENVELOPE)
    step(out, key, label, 'envelope', field(rd, key), field(ed, key));
  const rb = rs.apport_et_besoin as Fields | undefined;
  const eb = es.apport_et_besoin as Fields | undefined;
  step(out, 'besoin_ch', 'heating need', 'need', field(rb, 'besoin_ch'), field(eb, 'besoin_ch'));
  step(
    out,
    'besoin_ecs',
    'hot-water need',
    'need',
    field(rb, 'besoin_ecs'),
    field(eb, 'besoin_ecs'),
  );

  const rCh = list(registry.logement?.installation_chauffage_collection?.installation_chauffage);
  const eCh = list(engine.logement?.installation_chauffage_collection?.installation_chauffage);
  const several = rCh.length > 1;
  // flats generated from building data: the XML's installations carry the building's figures
  // (their sum is several times the flat's consumption); those are not compared
  const buildingScale = (insts: RawGeneratorHolder[], key: string): boolean => {
    const total = field(rs.ef_conso, key);
    const sum = insts.reduce((a, x) => a + (field(x.donnee_intermediaire, key) ?? 0), 0);
    return total !== undefined && total > 0 && sum > 1.5 * total;
  };
  if (!buildingScale(rCh, 'conso_ch'))
    rCh.forEach((ri, i) => {
      const ei = eCh[i];
      if (!ei) return;
      const where = several ? ` (installation ${i + 1} of ${rCh.length})` : '';
      step(
        out,
        `installation_chauffage[${i}].besoin_ch`,
        `heating need${where}`,
        'need',
        field(ri.donnee_intermediaire, 'besoin_ch'),
        field(ei.donnee_intermediaire, 'besoin_ch'),
      );
      step(
        out,
        `installation_chauffage[${i}].conso_ch`,
        `heating consumption${where}`,
        'heating',
        field(ri.donnee_intermediaire, 'conso_ch'),
        field(ei.donnee_intermediaire, 'conso_ch'),
      );
      const rg = generators(ri, 'chauffage');
      const eg = generators(ei, 'chauffage');
      if (rg.length > 1)
        rg.forEach((g, j) =>
          step(
            out,
            `installation_chauffage[${i}].generateur[${j}].conso_ch`,
            `heating consumption of generator ${j + 1}${where ? ` of installation ${i + 1}` : ''}`,
            'heating',
            field(g.donnee_intermediaire, 'conso_ch'),
            field(eg[j]?.donnee_intermediaire, 'conso_ch'),
          ),
        );
    });
  step(
    out,
    'conso_ch',
    'heating consumption',
    'heating',
    field(rs.ef_conso, 'conso_ch'),
    field(es.ef_conso, 'conso_ch'),
  );

  const rE = list(registry.logement?.installation_ecs_collection?.installation_ecs);
  const eE = list(engine.logement?.installation_ecs_collection?.installation_ecs);
  if (rE.length > 1 && !buildingScale(rE, 'conso_ecs'))
    rE.forEach((ri, i) =>
      step(
        out,
        `installation_ecs[${i}].conso_ecs`,
        `hot-water consumption (installation ${i + 1} of ${rE.length})`,
        'hot water',
        field(ri.donnee_intermediaire, 'conso_ecs'),
        field(eE[i]?.donnee_intermediaire, 'conso_ecs'),
      ),
    );
  step(
    out,
    'conso_ecs',
    'hot-water consumption',
    'hot water',
    field(rs.ef_conso, 'conso_ecs'),
    field(es.ef_conso, 'conso_ecs'),
  );
  for (const [key, label] of [
    ['conso_eclairage', 'lighting consumption'],
    ['conso_totale_auxiliaire', 'auxiliaries consumption'],
    ['conso_fr', 'cooling consumption'],
  ] as const)
    step(out, key, label, 'other', field(rs.ef_conso, key), field(es.ef_conso, key));
  step(
    out,
    'conso_5_usages',
    'final energy',
    'total',
    field(rs.ef_conso, 'conso_5_usages'),
    field(es.ef_conso, 'conso_5_usages'),
  );
  const rg = rs.emission_ges as Fields | undefined;
  const eg = es.emission_ges as Fields | undefined;
  for (const [key, label] of [
    ['emission_ges_ch', 'heating emissions'],
    ['emission_ges_ecs', 'hot-water emissions'],
    ['emission_ges_eclairage', 'lighting emissions'],
    ['emission_ges_totale_auxiliaire', 'auxiliaries emissions'],
    ['emission_ges_fr', 'cooling emissions'],
  ] as const)
    step(out, key, label, 'emissions', field(rg, key), field(eg, key));
  return out;
}

/** The first step (method order) where engine and registry differ by more than PART_ABOVE %. */
export function firstParting(gaps: readonly StepGap[]): StepGap | undefined {
  return gaps.find((g) => Math.abs(g.gap) > PART_ABOVE);
}

/** The consumption totals by use, in the order they are named. */
const USES = ['conso_ch', 'conso_ecs', 'conso_eclairage', 'conso_totale_auxiliaire', 'conso_fr'];

/**
 * The part that explains a total gap: the use (heating, hot water, lighting, auxiliaries,
 * cooling) whose consumption differs most in kWh, among those off by more than PART_ABOVE %, and
 * the first step upstream of it (losses, needs, installations, generators) that parts.
 */
export function disagreeingPart(
  gaps: readonly StepGap[],
): { part: StepGap; cause: StepGap | undefined } | undefined {
  const uses = gaps.filter((g) => USES.includes(g.key) && Math.abs(g.gap) > PART_ABOVE);
  if (!uses.length) return undefined;
  const part = uses.reduce((a, b) =>
    Math.abs(b.engine - b.registry) > Math.abs(a.engine - a.registry) ? b : a,
  );
  const upstream = (g: StepGap): boolean =>
    part.key === 'conso_ch'
      ? g.kind === 'envelope' ||
        (g.kind === 'need' && g.key.endsWith('besoin_ch')) ||
        (g.kind === 'heating' && g.label !== part.label)
      : part.key === 'conso_ecs'
        ? (g.kind === 'need' && g.key.endsWith('besoin_ecs')) ||
          (g.kind === 'hot water' && g.label !== part.label)
        : false;
  return { part, cause: gaps.find((g) => upstream(g) && Math.abs(g.gap) > PART_ABOVE) };
}

/**
 * The DPE structure of the partner API (`dpe`): general information, the elements of the
 * dwelling by category with the works each one offers (cost and gain of each option, the gain
 * from an engine run with that option alone), the alerts and the class thresholds.
 */
import { numberText } from '../contract/number-text.js';
import { CATEGORIES, type Category } from '../contract/constants.js';
import type { OnProgress } from '../contract/progress.js';
import type {
  CoefMode,
  DpeElement,
  DpeStructure,
  Editable,
  EditableChange,
  InfoEntry,
  OptionLeftOut,
  ScopeInfo,
} from '../contract/schemas.js';
import { scopeOf, type Scope } from '../dpe/building.js';
import { descriptionOf, elementsOf, referenceId } from '../dpe/elements.js';
import type { RawElement, RawGeneratorHolder } from '../dpe/raw.js';
import { num, str } from '../dpe/raw.js';
import type { Engine } from '../engine/engine.js';
import { areaOf, labelOn, offeredOptions, priceOn } from '../works/apply.js';
import type { CostTable } from '../works/costs.js';
import { outcome } from './calc.js';
import { round2 } from './comparison.js';
import { preAnalysis } from './pre.js';
import type { PreparedDpe } from './prepared.js';
import { figuresOf, runWorks } from './runs.js';

/** The DPE's Scope as the contract gives it (`dpe.scope`). */
export function scopeInfo(s: Scope): ScopeInfo {
  // a flat whose building's area is unknown has no share: null, not the flat's own area
  const known = s.coverage !== 'appartement' || s.buildingSurfaceKnown;
  return {
    kind: s.kind,
    dwellings: s.dwellings,
    buildingDwellings: s.buildingDwellings,
    surface: round2(s.surface),
    buildingSurface: known ? round2(s.buildingSurface) : null,
    share: known ? Math.round(s.share * 10000) / 10000 : null,
    envelopeShare:
      known || s.kind !== 'appartement-genere' ? Math.round(s.envelopeShare * 10000) / 10000 : null,
    heating: s.heating,
    hotWater: s.hotWater,
  };
}

function info(value: string | number | null | undefined, label: string, unit?: string): InfoEntry {
  return { value: value ?? null, label, ...(unit ? { unit } : {}) };
}

function typeBien(engine: Engine, prep: PreparedDpe): string | null {
  const label =
    engine.enumLabel('methode_application_dpe_log', prep.facts.methodeApplicationId) ?? '';
  if (label.includes('maison')) return 'maison';
  if (label.includes('appartement')) return 'appartement';
  if (label.includes('immeuble')) return 'immeuble';
  return null;
}

function firstHeatingGenerator(prep: PreparedDpe): RawElement | undefined {
  const inst = prep.raw.logement?.installation_chauffage_collection?.installation_chauffage?.[0];
  return inst?.generateur_chauffage_collection?.generateur_chauffage?.[0];
}

export function infosOf(engine: Engine, prep: PreparedDpe): DpeStructure['infos'] {
  const cg = prep.raw.logement?.caracteristique_generale ?? {};
  const gen = firstHeatingGenerator(prep);
  return {
    ref: info(prep.facts.numero ?? prep.key, 'Numéro DPE'),
    surface: info(prep.site.surface, 'Surface habitable', 'm²'),
    type_bien: info(typeBien(engine, prep), 'Type de bien'),
    zone_climatique: info(prep.site.zone.toUpperCase() || null, 'Zone climatique'),
    annee_construction: info(
      num(cg.annee_construction) ??
        engine.enumLabel('periode_construction', str(cg.enum_periode_construction_id)),
      'Année ou période de construction',
    ),
    classe_altitude: info(engine.enumLabel('classe_altitude', prep.facts.altitudeId), 'Altitude'),
    energie_chauffage: info(
      engine.enumLabel('type_energie', str(gen?.donnee_entree.enum_type_energie_id)),
      'Énergie de chauffage principale',
    ),
    nombre_niveaux: info(
      num(cg.nombre_niveau_logement) ?? num(cg.nombre_niveau_immeuble),
      'Nombre de niveaux',
    ),
  };
}

/** A short type for the element, from the DPE's own enums. */
function typeOf(engine: Engine, category: Category, el: RawElement): string {
  const d = el.donnee_entree;
  const label = (() => {
    switch (category) {
      case 'mur':
        return engine.enumLabel('materiaux_structure_mur', str(d.enum_materiaux_structure_mur_id));
      case 'baie_vitree':
        return engine.enumLabel('type_baie', str(d.enum_type_baie_id));
      case 'plancher_bas':
        return engine.enumLabel('type_plancher_bas', str(d.enum_type_plancher_bas_id));
      case 'plancher_haut':
        return engine.enumLabel('type_plancher_haut', str(d.enum_type_plancher_haut_id));
      case 'porte':
        return engine.enumLabel('type_porte', str(d.enum_type_porte_id));
      case 'installation_chauffage': {
        const g = (el as RawGeneratorHolder).generateur_chauffage_collection
          ?.generateur_chauffage?.[0];
        return engine.enumLabel(
          'type_generateur_ch',
          str(g?.donnee_entree.enum_type_generateur_ch_id),
        );
      }
      case 'installation_ecs': {
        const g = (el as RawGeneratorHolder).generateur_ecs_collection?.generateur_ecs?.[0];
        return engine.enumLabel(
          'type_generateur_ecs',
          str(g?.donnee_entree.enum_type_generateur_ecs_id),
        );
      }
      case 'ventilation':
        return engine.enumLabel('type_ventilation', str(d.enum_type_ventilation_id));
    }
  })();
  return label ?? category;
}

/** The element's current state in a few words: its U value and area, or its system. */
export function stateOf(engine: Engine, category: Category, el: RawElement): string {
  const di = el.donnee_intermediaire ?? {};
  const area = areaOf(category, el);
  const u = num(di.umur) ?? num(di.uw) ?? num(di.uph) ?? num(di.upb) ?? num(di.uporte);
  const parts: string[] = [];
  if (u !== undefined) parts.push(`U ${u.toFixed(2)} W/m²·K`);
  if (area > 0) parts.push(`${numberText(area, 1)} m²`);
  const adj = engine.enumLabel('type_adjacence', str(el.donnee_entree.enum_type_adjacence_id));
  if (adj) parts.push(`on ${adj}`);
  return parts.join(', ') || typeOf(engine, category, el);
}

/**
 * Why an option is left out, from its run alone (the rounded figures the options show): it makes
 * primary energy or emissions worse and neither better. An option that trades one for the other
 * (a pellet boiler: more kWh, far less CO2) is kept. Undefined: it is offered.
 */
export function harmOf(gainEp: number, gainGes: number): OptionLeftOut['reason'] | undefined {
  if (gainEp > 0 || gainGes > 0) return undefined;
  if (gainEp < 0 && gainGes < 0) return 'more-energy-and-ges';
  if (gainEp < 0) return 'more-energy';
  if (gainGes < 0) return 'more-ges';
  return undefined;
}

function editablesOf(
  engine: Engine,
  prep: PreparedDpe,
  category: Category,
  index: number,
  el: RawElement,
  coef: CoefMode,
  force: boolean,
  costs: CostTable,
  tick: () => void,
  leftOut: OptionLeftOut[],
): Record<string, Editable> {
  const out: Record<string, Editable> = {};
  const ref = referenceId(category, index);
  for (const row of offeredOptions(prep, category, el)) {
    const run = runWorks(
      engine,
      prep,
      [{ referenceId: ref, editableKey: row.key, editableValue: row.code }],
      costs,
    );
    const o = outcome(prep, figuresOf(run, coef), coef, force);
    const gain = round2(o.before.ep - o.after.ep);
    const gainGes = round2(o.before.ges - o.after.ges);
    const harm = harmOf(gain, gainGes);
    if (harm) {
      leftOut.push({
        referenceId: ref,
        editableKey: row.key,
        editableValue: row.code,
        label: labelOn(row, el, prep.raw),
        cout: run.cout,
        gainTotal: gain,
        gainGES: gainGes,
        reason: harm,
      });
      tick();
      continue;
    }
    const editable = (out[row.key] ??= { type: 'enum', values: {}, options: {} });
    editable.values[row.code] = labelOn(row, el, prep.raw);
    // a whole building's per-dwelling price where the DPE's installation says other dwellings
    // than the engine simulates: both (the price follows the engine, as the gain does)
    const price = priceOn(row, el, costs, prep.raw);
    editable.options[row.code] = {
      gainTotal: gain,
      gainGESM2: round2(o.before.gesM2 - o.after.gesM2),
      cout: run.cout,
      ...(run.applied[0]?.coutDetail ? { coutDetail: run.applied[0].coutDetail } : {}),
      ...(run.applied[0]?.coutBatiment !== undefined
        ? { coutBatiment: run.applied[0].coutBatiment }
        : {}),
      ...(price.declaredDwellings !== undefined && price.count
        ? { logementsChiffres: price.count.n, logementsDpe: price.declaredDwellings }
        : {}),
      euroParKwh: gain > 0 ? round2(run.cout / gain) : null,
    };
    tick();
  }
  return out;
}

export function dpeStructure(
  engine: Engine,
  prep: PreparedDpe,
  coef: CoefMode,
  force: boolean,
  costs: CostTable,
  onProgress?: OnProgress,
): DpeStructure {
  const tick = progressOfOptions(prep, onProgress);
  const leftOut: OptionLeftOut[] = [];
  const items = Object.fromEntries(
    CATEGORIES.map((category) => [
      category,
      elementsOf(prep.raw, category).map((el, index): DpeElement => ({
        type: typeOf(engine, category, el),
        referenceId: referenceId(category, index),
        description: descriptionOf(el) || typeOf(engine, category, el),
        etat: stateOf(engine, category, el),
        editables: editablesOf(
          engine,
          prep,
          category,
          index,
          el,
          coef,
          force,
          costs,
          tick,
          leftOut,
        ),
      })),
    ]),
  ) as DpeStructure['items'];
  return {
    id: prep.key,
    infos: infosOf(engine, prep),
    items,
    warnings: preAnalysis({ ok: true, dpe: prep }, { coef, forceNormalization: force }).body
      .warnings,
    thresholds: prep.thresholds,
    scope: scopeInfo(scopeOf(prep.raw)),
    ...(leftOut.length ? { optionsLeftOut: leftOut } : {}),
  };
}

/**
 * Every works option the DPE offers, one change each, in the order `dpeStructure` runs them
 * (the engine pool splits them among its threads; see engine-pool.ts).
 */
export function optionChanges(prep: PreparedDpe): EditableChange[] {
  const out: EditableChange[] = [];
  for (const category of CATEGORIES)
    elementsOf(prep.raw, category).forEach((el, index) => {
      for (const row of offeredOptions(prep, category, el))
        out.push({
          referenceId: referenceId(category, index),
          editableKey: row.key,
          editableValue: row.code,
        });
    });
  return out;
}

/** A tick per works option evaluated, reported as `options` progress (nothing without a listener). */
function progressOfOptions(prep: PreparedDpe, onProgress: OnProgress | undefined): () => void {
  if (!onProgress) return () => undefined;
  let total = 0;
  for (const category of CATEGORIES)
    for (const el of elementsOf(prep.raw, category))
      total += offeredOptions(prep, category, el).length;
  let done = 0;
  onProgress({ step: 'options', done, total });
  return () => onProgress({ step: 'options', done: ++done, total });
}

/**
 * The inputs of `caracteristique_generale` and `meteo` that the 3CL method reads for every DPE,
 * and the area of every envelope element, when the XML does not give them (absent, empty, or a
 * living area not above 0). Without them the engine fails (the method, the climate zone, the
 * altitude class), gives NaN (the ceiling height, the living areas), or computes silently with
 * another value (the construction period: the bundled house without it gives 383 kWh/m²/yr
 * instead of 381). `prepare` names them as the likely cause of
 * an engine failure; `pre`'s `warning.dpe-inconsistent` and the audit's input gate name them when
 * the engine computed anyway.
 */
import type { Category } from '../contract/constants.js';
import { GENERATED_FLAT, IMMEUBLE_METHODS } from './building.js';
import { elementsOf } from './elements.js';
import { num, str, type RawDpe, type RawElement, type RawGeneratorHolder } from './raw.js';

export interface MissingInput {
  /** the field as the XML names it (`hsp`; an element's: `mur[2].surface_paroi_opaque`) */
  figure: string;
  /** what it is, in a few words ("the ceiling height") */
  what: string;
}

/** a value the XML gives: neither absent nor empty */
function given(v: unknown): boolean {
  return (str(v) ?? '') !== '';
}

/** the envelope's elements and the field of their area the engine reads */
const AREAS = [
  ['mur', 'surface_paroi_opaque', 'wall'],
  ['plancher_bas', 'surface_paroi_opaque', 'low floor'],
  ['plancher_haut', 'surface_paroi_opaque', 'roof'],
  ['baie_vitree', 'surface_totale_baie', 'window'],
  ['porte', 'surface_porte', 'door'],
] as const;

export function missingInputs(dpe: RawDpe): MissingInput[] {
  const cg = dpe.logement?.caracteristique_generale ?? {};
  const meteo = dpe.logement?.meteo ?? {};
  const method = str(cg.enum_methode_application_dpe_log_id) ?? '';
  const building = IMMEUBLE_METHODS.has(method);
  const area = (v: unknown) => {
    const n = num(v);
    return n !== undefined && n > 0;
  };
  const out: MissingInput[] = [];
  const need = (ok: boolean, figure: string, what: string) => {
    if (!ok) out.push({ figure, what });
  };
  need(
    given(cg.enum_methode_application_dpe_log_id),
    'enum_methode_application_dpe_log_id',
    "the DPE's method: house, flat or building",
  );
  need(
    given(cg.enum_periode_construction_id),
    'enum_periode_construction_id',
    'the construction period',
  );
  need(area(cg.hsp), 'hsp', 'the ceiling height');
  if (!building)
    need(
      area(cg.surface_habitable_logement),
      'surface_habitable_logement',
      "the dwelling's living area",
    );
  if (building || GENERATED_FLAT.has(method))
    need(
      area(cg.surface_habitable_immeuble),
      'surface_habitable_immeuble',
      building
        ? "the building's living area"
        : "the building's living area, which a flat generated from its building's data is apportioned by",
    );
  // every envelope element's area: the engine reads it directly, and without it computes the
  // element as 0 m², silently (the bundled house without one wall's area: 358 kWh/m² for 381)
  for (const [category, field, what] of AREAS)
    elementsOf(dpe, category).forEach((el, i) => {
      if (!given(el.donnee_entree?.[field]))
        out.push({ figure: `${category}[${i}].${field}`, what: `${what} ${i}'s area` });
    });
  need(given(meteo.enum_zone_climatique_id), 'enum_zone_climatique_id', 'the climate zone');
  need(given(meteo.enum_classe_altitude_id), 'enum_classe_altitude_id', 'the altitude class');
  return out;
}

/** the field's own name (`surface_paroi_opaque` for `mur[2].surface_paroi_opaque`) */
export function fieldOf(m: MissingInput): string {
  return m.figure.slice(m.figure.lastIndexOf('.') + 1);
}

/** "hsp (the ceiling height)" */
export function missingInputText(m: MissingInput): string {
  return `${fieldOf(m)} (${m.what})`;
}

/** inputs every element of a kind gives */
const ELEMENT_INPUTS: readonly [Category, readonly string[]][] = [
  ['mur', ['enum_type_adjacence_id', 'enum_type_isolation_id']],
  ['plancher_bas', ['enum_type_adjacence_id']],
  ['plancher_haut', ['enum_type_adjacence_id']],
  ['baie_vitree', ['enum_type_adjacence_id', 'enum_orientation_id']],
  ['porte', ['enum_type_adjacence_id']],
  ['ventilation', ['enum_type_ventilation_id']],
  ['installation_chauffage', ['surface_chauffee', 'enum_cfg_installation_ch_id']],
];

/**
 * When the engine failed: the inputs of the DPE's elements that every element of its kind gives
 * and this XML does not (a wall without its adjacency, a generator without its type or energy),
 * as "mur[2] enum_type_adjacence_id" (a space where a narrow terminal may wrap). Only named as a
 * likely cause of the failure: some of them the engine computes without, silently, and a DPE
 * that computes is not judged by this list.
 */
export function missingElementInputs(dpe: RawDpe): string[] {
  const out: string[] = [];
  const check = (where: string, el: RawElement, fields: readonly string[]) => {
    for (const f of fields) if (!given(el.donnee_entree?.[f])) out.push(`${where} ${f}`);
  };
  for (const [category, fields] of ELEMENT_INPUTS)
    elementsOf(dpe, category).forEach((el, i) => check(`${category}[${i}]`, el, fields));
  (elementsOf(dpe, 'installation_chauffage') as RawGeneratorHolder[]).forEach((inst, i) => {
    (inst.generateur_chauffage_collection?.generateur_chauffage ?? []).forEach((g, j) =>
      check(`installation_chauffage[${i}] generateur_chauffage[${j}]`, g, [
        'enum_type_generateur_ch_id',
        'enum_usage_generateur_id',
        'enum_type_energie_id',
      ]),
    );
    (inst.emetteur_chauffage_collection?.emetteur_chauffage ?? []).forEach((e, j) =>
      check(`installation_chauffage[${i}] emetteur_chauffage[${j}]`, e, [
        'enum_type_emission_distribution_id',
      ]),
    );
  });
  (elementsOf(dpe, 'installation_ecs') as RawGeneratorHolder[]).forEach((inst, i) =>
    (inst.generateur_ecs_collection?.generateur_ecs ?? []).forEach((g, j) =>
      check(`installation_ecs[${i}] generateur_ecs[${j}]`, g, [
        'enum_type_generateur_ecs_id',
        'enum_type_energie_id',
      ]),
    ),
  );
  return out;
}

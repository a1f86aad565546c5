/**
 * The inputs of `caracteristique_generale` and `meteo` that the 3CL method reads for every DPE,
 * and the area of every envelope element, when the XML does not give them (absent, empty, or a
 * living area not above 0). Without them the engine
 * fails (the method, the climate zone, the altitude class), gives NaN (the ceiling height, the
 * living areas), or computes silently with another value (the construction period: the bundled
 * house without it gives 383 kWh/m²/yr instead of 381). `prepare` names them as the likely cause of
 * an engine failure; `pre`'s `warning.dpe-inconsistent` and the audit's input gate name them when
 * the engine computed anyway.
 */
import { GENERATED_FLAT, IMMEUBLE_METHODS } from './building.js';
import { elementsOf } from './elements.js';
import { num, str, type RawDpe } from './raw.js';

export interface MissingInput {
  /** the XML's path of the field (`caracteristique_generale.hsp`) */
  figure: string;
  /** what it is, in a few words ("the ceiling height") */
  what: string;
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
  const given = (v: unknown) => (str(v) ?? '') !== '';
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
    'caracteristique_generale.enum_methode_application_dpe_log_id',
    "the DPE's method: house, flat or building",
  );
  need(
    given(cg.enum_periode_construction_id),
    'caracteristique_generale.enum_periode_construction_id',
    'the construction period',
  );
  need(area(cg.hsp), 'caracteristique_generale.hsp', 'the ceiling height');
  if (!building)
    need(
      area(cg.surface_habitable_logement),
      'caracteristique_generale.surface_habitable_logement',
      "the dwelling's living area",
    );
  if (building || GENERATED_FLAT.has(method))
    need(
      area(cg.surface_habitable_immeuble),
      'caracteristique_generale.surface_habitable_immeuble',
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
  need(given(meteo.enum_zone_climatique_id), 'meteo.enum_zone_climatique_id', 'the climate zone');
  need(given(meteo.enum_classe_altitude_id), 'meteo.enum_classe_altitude_id', 'the altitude class');
  return out;
}

/** "hsp (the ceiling height)" */
export function missingInputText(m: MissingInput): string {
  return `${m.figure.slice(m.figure.lastIndexOf('.') + 1)} (${m.what})`;
}

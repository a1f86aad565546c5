/**
 * What dpe-sim reads from a parsed DPE before any computation: its identity, date, model,
 * surface, site, and the registry's own results (`logement/sortie`).
 */
import type { RawDpe } from './raw.js';
import { num, str } from './raw.js';
import { COEF_2025, COEF_2026, COEF_2026_SINCE } from '../contract/constants.js';

/** The registry model id of "dpe 3cl 2021 méthode logement", the only one the engine computes. */
export const MODELE_3CL_LOGEMENT = '1';

export interface RegistryFigures {
  /** primary energy, kWh/yr, in the DPE's own coefficient mode */
  ep: number | undefined;
  epM2: number | undefined;
  /** final energy, kWh/yr (needed to convert between coefficient modes) */
  ef: number | undefined;
  ges: number | undefined;
  gesM2: number | undefined;
  cout: number | undefined;
  classe: string | undefined;
  classeGes: string | undefined;
}

export interface DpeFacts {
  numero: string | undefined;
  statut: string | undefined;
  /** `YYYY-MM-DD`, or undefined when absent */
  date: string | undefined;
  modeleId: string | undefined;
  versionId: string | undefined;
  methodeApplicationId: string | undefined;
  surface: number | undefined;
  zoneId: string | undefined;
  altitudeId: string | undefined;
  /** coefficient the registry's figures were computed with */
  registryCoef: number;
  registry: RegistryFigures;
}

export function factsOf(dpe: RawDpe): DpeFacts {
  const adm = dpe.administratif ?? {};
  const lg = dpe.logement ?? {};
  const cg = lg.caracteristique_generale ?? {};
  const meteo = lg.meteo ?? {};
  const sortie = lg.sortie ?? {};
  const date = str(adm.date_etablissement_dpe)?.slice(0, 10);
  const ep = sortie.ep_conso ?? {};
  const ges = sortie.emission_ges ?? {};
  return {
    numero: str(dpe.numero_dpe),
    statut: str(dpe.statut),
    date,
    modeleId: str(adm.enum_modele_dpe_id),
    versionId: str(adm.enum_version_id),
    methodeApplicationId: str(cg.enum_methode_application_dpe_log_id),
    surface: num(cg.surface_habitable_logement) ?? num(cg.surface_habitable_immeuble),
    zoneId: str(meteo.enum_zone_climatique_id),
    altitudeId: str(meteo.enum_classe_altitude_id),
    registryCoef: date !== undefined && date >= COEF_2026_SINCE ? COEF_2026 : COEF_2025,
    registry: {
      ep: num(ep.ep_conso_5_usages),
      epM2: num(ep.ep_conso_5_usages_m2),
      ef: num(sortie.ef_conso?.conso_5_usages),
      ges: num(ges.emission_ges_5_usages),
      gesM2: num(ges.emission_ges_5_usages_m2),
      cout: num(sortie.cout?.cout_5_usages),
      classe: str(ep.classe_bilan_dpe),
      classeGes: str(ges.classe_emission_ges),
    },
  };
}

/**
 * Converts a primary-energy total between coefficient modes: only the electric part changes.
 * ep = ef_other + coef × ef_elec, so ep' = ef + (coef' − 1) / (coef − 1) × (ep − ef).
 */
export function convertEp(ep: number, ef: number, from: number, to: number): number {
  if (from === to) return ep;
  return ef + ((to - 1) / (from - 1)) * (ep - ef);
}

/**
 * What a DPE covers, for pricing works at the right scale: a house, a flat, or a whole building
 * (and how many dwellings), which installations are collective, the building's heating power.
 * Read from the DPE itself (`enum_methode_application_dpe_log_id`, `nombre_appartement`,
 * surfaces, the generators' `pn`); see README "Costs".
 */
import type { RawDpe, RawElement, RawGeneratorHolder } from './raw.js';
import { num, str } from './raw.js';

export type Coverage = 'maison' | 'appartement' | 'immeuble';

/** enum_methode_application_dpe_log_id of whole-building DPEs (dpe immeuble collectif ...) */
const IMMEUBLE = new Set(['6', '7', '8', '9', '26', '27', '28', '29', '30']);
/** ... of DPEs built from an RT2012 / RE2020 thermal study (not a 3CL survey) */
export const STUDY_BASED_METHODS = new Set([
  '14',
  '15',
  '16',
  '17',
  '18',
  '19',
  '20',
  '21',
  '22',
  '23',
  '24',
  '25',
]);
const MAISON = new Set(['1', '14', '18']);
const STUDY_IMMEUBLE = new Set(['17', '21']);

/** enum_type_installation_id: 1 individuelle, 2 collective, 3 multi-bâtiment (réseau), 4 hybride */
export const INSTALLATION_INDIVIDUELLE = '1';

export interface Building {
  coverage: Coverage;
  /** dwellings the DPE covers: 1 for a house or a flat */
  dwellings: number;
  /** dwellings of the building the DPE belongs to (a flat's building, or the building itself) */
  buildingDwellings: number;
  /** living area the DPE covers, m² */
  surface: number;
  /** living area of the whole building, m² (the DPE's own surface when unknown) */
  buildingSurface: number;
  /** the DPE's share of the building: surface / building surface (1 for a house or a building) */
  share: number;
  /** construction period id (enum_periode_construction_id) */
  periodeId: string | undefined;
}

export function buildingOf(dpe: RawDpe): Building {
  const cg = dpe.logement?.caracteristique_generale ?? {};
  const method = str(cg.enum_methode_application_dpe_log_id) ?? '';
  const coverage: Coverage =
    IMMEUBLE.has(method) || STUDY_IMMEUBLE.has(method)
      ? 'immeuble'
      : MAISON.has(method)
        ? 'maison'
        : 'appartement';
  const flats = Math.max(1, Math.round(num(cg.nombre_appartement) ?? 1));
  const logement = num(cg.surface_habitable_logement);
  const immeuble = num(cg.surface_habitable_immeuble);
  const surface = (coverage === 'immeuble' ? (immeuble ?? logement) : (logement ?? immeuble)) ?? 0;
  const buildingSurface = coverage === 'maison' ? surface : Math.max(surface, immeuble ?? surface);
  return {
    coverage,
    dwellings: coverage === 'immeuble' ? flats : 1,
    buildingDwellings: coverage === 'maison' ? 1 : flats,
    surface,
    buildingSurface,
    share:
      coverage === 'appartement' && buildingSurface > 0
        ? Math.min(1, surface / buildingSurface)
        : 1,
    periodeId: str(cg.enum_periode_construction_id),
  };
}

export function isCollective(inst: RawElement): boolean {
  const t = str(inst.donnee_entree.enum_type_installation_id);
  return t !== undefined && t !== INSTALLATION_INDIVIDUELLE;
}

/**
 * Dwellings an individual installation of a whole-building DPE stands for: its own count
 * (`nombre_logement` of hot-water installations), else the building's dwellings in proportion
 * of the area it heats. 1 outside whole buildings.
 */
export function dwellingsServed(
  b: Building,
  inst: RawElement,
  kind: 'ch' | 'ecs' | 'vent',
): number {
  if (b.coverage !== 'immeuble') return 1;
  const d = inst.donnee_entree;
  const own = num(d.nombre_logement);
  if (kind === 'ecs' && own !== undefined && own >= 1) return Math.round(own);
  const area =
    kind === 'ch'
      ? num(d.surface_chauffee)
      : kind === 'vent'
        ? num(d.surface_ventile)
        : num(d.surface_habitable);
  if (area === undefined || !(b.surface > 0)) return b.dwellings;
  return Math.max(1, Math.round((b.dwellings * Math.min(area, b.surface)) / b.surface));
}

/**
 * Heat loss per m² of living area at base temperature (W/m²), by construction period: FCU
 * technical ratios, G (W/m³·K) × 2.5 m × 26 K (19 °C − (−7 °C)), rounded.
 * enum_periode_construction_id 1 < 1948, 2 1948–74, 3 1975–77, 4 1978–82, 5 1983–88,
 * 6 1989–2000, 7 2001–05, 8 2006–12, 9 2013–21, 10 > 2021.
 */
const W_PER_M2: Record<string, number> = {
  1: 130,
  2: 130,
  3: 91,
  4: 91,
  5: 91,
  6: 65,
  7: 49,
  8: 42,
  9: 14,
  10: 14,
};

/** Heating power (kW) of the whole building, from its surface and period (FCU ratios). */
export function powerFromSurface(b: Building): number {
  const w = W_PER_M2[b.periodeId ?? ''] ?? 91;
  return (w * b.buildingSurface) / 1000;
}

/**
 * The nominal power (kW) of the installation's generators as the engine computed it (`pn`, W, in
 * the baseline's `donnee_intermediaire`), or undefined when none has one.
 */
export function generatorPower(inst: RawGeneratorHolder): number | undefined {
  const gens = inst.generateur_chauffage_collection?.generateur_chauffage ?? [];
  let w = 0;
  for (const g of gens) w += num(g.donnee_intermediaire?.pn) ?? 0;
  return w > 0 ? w / 1000 : undefined;
}

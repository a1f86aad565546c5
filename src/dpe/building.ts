/**
 * The Scope of a DPE: what it covers, named once and used by costing, the tables and `--json`.
 * A house, a flat, a flat generated from the building's data, or a whole building (the families
 * of `enum_methode_application_dpe_log_id`); the dwellings covered; the dwelling's and the
 * building's living areas and the share between them; which systems are individual or collective.
 * Read from the DPE itself (`enum_methode_application_dpe_log_id`, `nombre_appartement`,
 * surfaces, `enum_type_installation_id`, the generators' `pn`); see README "Costs".
 */
import { numberText } from '../contract/number-text.js';
import { elementsOf } from './elements.js';
import type { RawDpe, RawElement, RawGeneratorHolder } from './raw.js';
import { num, str } from './raw.js';

/** The three families the partner API's `type_bien` and the cost check group by. */
export type Coverage = 'maison' | 'appartement' | 'immeuble';
/** The Scope's kind: a generated flat is a flat whose DPE carries its building's envelope. */
export type ScopeKind = 'maison' | 'appartement' | 'appartement-genere' | 'immeuble';
/** How a DPE's heating or hot water is installed, by its method's label. */
export type SystemMode = 'individuel' | 'collectif' | 'mixte';

/** enum_methode_application_dpe_log_id of whole-building DPEs (dpe immeuble collectif ...) */
const IMMEUBLE = new Set(['6', '7', '8', '9', '26', '27', '28', '29', '30']);
/**
 * ... of flats generated from the building's DPE ("dpe appartement généré à partir des données
 * dpe immeuble"): their walls, windows, roofs are the building's; the engine itself apportions
 * heating and hot water with surface_habitable_immeuble (engine.js, ShChauffageAndEcs).
 */
export const GENERATED_FLAT = new Set(['10', '11', '12', '13', '33', '34', '38', '39', '40']);
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
/** every whole-building method, survey or study */
export const IMMEUBLE_METHODS: ReadonlySet<string> = new Set([...IMMEUBLE, ...STUDY_IMMEUBLE]);

/**
 * Heating and hot-water modes by method (the labels' "chauffage X ecs Y"); houses and study-based
 * DPEs whose label says nothing are individual.
 */
const MODES: Record<string, [SystemMode, SystemMode]> = {
  2: ['individuel', 'individuel'],
  3: ['collectif', 'individuel'],
  4: ['individuel', 'collectif'],
  5: ['collectif', 'collectif'],
  6: ['individuel', 'individuel'],
  7: ['collectif', 'individuel'],
  8: ['individuel', 'collectif'],
  9: ['collectif', 'collectif'],
  10: ['individuel', 'individuel'],
  11: ['collectif', 'individuel'],
  12: ['individuel', 'collectif'],
  13: ['collectif', 'collectif'],
  15: ['collectif', 'collectif'],
  16: ['individuel', 'collectif'],
  19: ['collectif', 'collectif'],
  20: ['individuel', 'collectif'],
  22: ['individuel', 'individuel'],
  23: ['collectif', 'individuel'],
  24: ['collectif', 'individuel'],
  25: ['individuel', 'individuel'],
  26: ['mixte', 'mixte'],
  27: ['mixte', 'individuel'],
  28: ['mixte', 'collectif'],
  29: ['individuel', 'mixte'],
  30: ['collectif', 'mixte'],
  31: ['mixte', 'individuel'],
  32: ['mixte', 'collectif'],
  33: ['mixte', 'individuel'],
  34: ['mixte', 'collectif'],
  35: ['mixte', 'mixte'],
  36: ['individuel', 'mixte'],
  37: ['collectif', 'mixte'],
  38: ['mixte', 'mixte'],
  39: ['individuel', 'mixte'],
  40: ['collectif', 'mixte'],
};

/** enum_type_installation_id: 1 individuelle, 2 collective, 3 multi-bâtiment (réseau), 4 hybride */
export const INSTALLATION_INDIVIDUELLE = '1';

export interface Scope {
  kind: ScopeKind;
  /** the partner API's family: a generated flat is an `appartement` */
  coverage: Coverage;
  /** enum_methode_application_dpe_log_id */
  method: string;
  /** dwellings the DPE covers: 1 for a house or a flat */
  dwellings: number;
  /** dwellings of the building the DPE belongs to (a flat's building, or the building itself) */
  buildingDwellings: number;
  /** living area the DPE covers, m² (the dwelling's; the building's for a whole building) */
  surface: number;
  /** living area of the whole building, m² (the DPE's own surface when unknown) */
  buildingSurface: number;
  /** whether the DPE gives the building's living area (a flat's share is then known) */
  buildingSurfaceKnown: boolean;
  /**
   * a flat's building area the DPE declares that is a unit slip (`buildingAreaSlip`), set aside:
   * the area it gives and how many times the flat's it is (2213E0696993Z: 87 120 m², 1 000)
   */
  buildingSurfaceSlip?: { declared: number; factor: number };
  /**
   * a flat's building area the DPE declares that is the flat's own while the DPE counts several
   * flats in the building or an installation is collective (`buildingAreaCopied`), set aside: the
   * area it gives, the flats it counts, whether an installation is collective (2325E0263102J: 18.37
   * m² for its 18.37 m² flat in a building of 93)
   */
  buildingSurfaceCopied?: { declared: number; flats: number; collective: boolean };
  /**
   * a flat's building area the DPE declares that cannot hold the flat and the building's other
   * flats at 9 m² each (`buildingAreaTooSmall`), set aside: the area it gives, the flats it counts
   */
  buildingSurfaceTooSmall?: { declared: number; flats: number };
  /** a flat with a heating or hot-water installation that is not individual (false otherwise) */
  collectiveInstallation: boolean;
  /** the DPE's share of the building: surface / building surface (1 for a house or a building) */
  share: number;
  /**
   * the share its envelope works are priced at: a generated flat's envelope is the building's
   * (walls, windows, roofs), the flat pays `share` of it; 1 otherwise
   */
  envelopeShare: number;
  /** heating and hot water, individual, collective or mixed, by the DPE's method */
  heating: SystemMode;
  hotWater: SystemMode;
  /** construction period id (enum_periode_construction_id) */
  periodeId: string | undefined;
}

export function scopeOf(dpe: RawDpe): Scope {
  const cg = dpe.logement?.caracteristique_generale ?? {};
  const method = str(cg.enum_methode_application_dpe_log_id) ?? '';
  const coverage: Coverage =
    IMMEUBLE.has(method) || STUDY_IMMEUBLE.has(method)
      ? 'immeuble'
      : MAISON.has(method)
        ? 'maison'
        : 'appartement';
  const kind: ScopeKind =
    coverage === 'appartement' && GENERATED_FLAT.has(method) ? 'appartement-genere' : coverage;
  const flats = Math.max(1, Math.round(num(cg.nombre_appartement) ?? 1));
  const logement = num(cg.surface_habitable_logement);
  const declaredImmeuble = num(cg.surface_habitable_immeuble);
  const slip =
    coverage === 'appartement' ? buildingAreaSlip(logement, declaredImmeuble) : undefined;
  const collectiveInstallation = coverage === 'appartement' && hasCollectiveInstallation(dpe);
  const copied =
    coverage === 'appartement' && !slip
      ? buildingAreaCopied(logement, declaredImmeuble, flats, collectiveInstallation)
      : undefined;
  const tooSmall =
    coverage === 'appartement' && !slip && !copied
      ? buildingAreaTooSmall(logement, declaredImmeuble, flats)
      : undefined;
  const immeuble = slip || copied || tooSmall ? undefined : declaredImmeuble;
  const surface = (coverage === 'immeuble' ? (immeuble ?? logement) : (logement ?? immeuble)) ?? 0;
  const buildingSurface = coverage === 'maison' ? surface : Math.max(surface, immeuble ?? surface);
  const share =
    coverage === 'appartement' && buildingSurface > 0 ? Math.min(1, surface / buildingSurface) : 1;
  const [heating, hotWater] = MODES[method] ?? ['individuel', 'individuel'];
  return {
    kind,
    coverage,
    method,
    dwellings: coverage === 'immeuble' ? flats : 1,
    buildingDwellings: coverage === 'maison' ? 1 : flats,
    surface,
    buildingSurface,
    buildingSurfaceKnown: coverage === 'maison' || (immeuble !== undefined && immeuble > 0),
    ...(slip ? { buildingSurfaceSlip: { declared: declaredImmeuble!, factor: slip } } : {}),
    ...(copied ? { buildingSurfaceCopied: copied } : {}),
    ...(tooSmall ? { buildingSurfaceTooSmall: tooSmall } : {}),
    collectiveInstallation,
    share,
    envelopeShare: kind === 'appartement-genere' ? share : 1,
    heating,
    hotWater,
    periodeId: str(cg.enum_periode_construction_id),
  };
}

/**
 * A flat's building area that is exactly a thousand (or ten thousand…) times the flat's own, to
 * the XML's rounding: a unit slip, not a building (2213E0696993Z declares 87 120 m² for its 87.12
 * m² flat). The factor, or undefined. Ten or a hundred times is left alone: a building of ten
 * flats of one area is plausible, and its area is sometimes estimated so (2395E2435060X: 200 ×).
 */
export function buildingAreaSlip(
  flat: number | undefined,
  building: number | undefined,
): number | undefined {
  if (flat === undefined || building === undefined || !(flat > 0) || !(building > flat))
    return undefined;
  const ratio = building / flat;
  const k = Math.round(Math.log10(ratio));
  if (k < 3) return undefined;
  const factor = 10 ** k;
  return Math.abs(ratio / factor - 1) < 1e-4 ? factor : undefined;
}

/**
 * A flat's building area that is the flat's own, to the XML's rounding, where the DPE says the
 * building is more than the flat: it counts several flats (`nombre_appartement`), or an
 * installation of the flat is collective (it serves other dwellings). The flat's area copied into
 * the building's field (2325E0263102J: 18.37 m² for a building of 93 flats; 2492E0831922R: 62.24
 * m², 6 flats and a collective boiler): what it gives, or undefined. A flat alone in its building
 * with its own installations keeps it: nothing there is shared.
 */
export function buildingAreaCopied(
  flat: number | undefined,
  building: number | undefined,
  flats: number,
  collective: boolean,
): { declared: number; flats: number; collective: boolean } | undefined {
  if (flat === undefined || building === undefined || !(flat > 0)) return undefined;
  if (Math.abs(building - flat) > 0.005 + flat * 1e-6) return undefined;
  if (flats <= 1 && !collective) return undefined;
  return { declared: building, flats, collective };
}

/**
 * The least living area of a dwelling, m²: a decent dwelling has at least one main room of 9 m²
 * (décret n° 2002-120 du 30 janvier 2002, art. 4, with 2.20 m under the ceiling).
 */
export const LEAST_DWELLING_M2 = 9;

/**
 * A flat's building area smaller than the flat, or than the flat and the building's other flats
 * (`nombre_appartement` − 1) at `LEAST_DWELLING_M2` each: a building that cannot hold the
 * dwellings the DPE says it has (a near copy of the flat's area, a typing slip). What it gives, or
 * undefined.
 */
export function buildingAreaTooSmall(
  flat: number | undefined,
  building: number | undefined,
  flats: number,
): { declared: number; flats: number } | undefined {
  if (flat === undefined || building === undefined || !(flat > 0) || !(building > 0))
    return undefined;
  const least = flat + (flats - 1) * LEAST_DWELLING_M2;
  return building < least - 0.005 ? { declared: building, flats } : undefined;
}

/**
 * Why a flat's building area is set aside, in words, or undefined: "1 000 × the flat's: a unit
 * slip", "the flat's own, in a building of 93 flats", "the flat's own, under a collective
 * installation". One phrase for `pre`, the options refused and the audit's scope.
 */
export function buildingAreaSetAside(scope: Scope): { declared: number; why: string } | undefined {
  const slip = scope.buildingSurfaceSlip;
  if (slip)
    return { declared: slip.declared, why: `${numberText(slip.factor)} × the flat's: a unit slip` };
  const copied = scope.buildingSurfaceCopied;
  if (copied)
    return {
      declared: copied.declared,
      why:
        copied.flats > 1
          ? `the flat's own, in a building of ${numberText(copied.flats)} flats`
          : "the flat's own, under a collective installation",
    };
  const small = scope.buildingSurfaceTooSmall;
  if (small)
    return {
      declared: small.declared,
      why:
        small.flats > 1
          ? `less than the flat's ${numberText(scope.surface, 2)} m² and ${numberText(LEAST_DWELLING_M2)} m² for each of the building's ${numberText(small.flats - 1)} other flats (the least a dwelling has)`
          : `less than the flat's own ${numberText(scope.surface, 2)} m²`,
    };
  return undefined;
}

function hasCollectiveInstallation(dpe: RawDpe): boolean {
  return [
    ...elementsOf(dpe, 'installation_chauffage'),
    ...elementsOf(dpe, 'installation_ecs'),
  ].some(isCollective);
}

/**
 * A collective base + appoint installation (§9.8: `enum_type_installation_id` 4, collective and
 * individual, with `enum_cfg_installation_ch_id` 10): the engine reads its base, the building's
 * generator, as the first generator and emitter of its lists, each dwelling's appoint as the
 * second.
 */
export function isBaseAppoint(inst: RawElement): boolean {
  const d = inst.donnee_entree;
  return str(d.enum_type_installation_id) === '4' && str(d.enum_cfg_installation_ch_id) === '10';
}

export function isCollective(inst: RawElement): boolean {
  const t = str(inst.donnee_entree.enum_type_installation_id);
  return t !== undefined && t !== INSTALLATION_INDIVIDUELLE;
}

/**
 * The dwellings an installation stands for, two ways (issue 35 item 4): as the engine simulates
 * it, which the gain measures, and as the DPE's installation describes itself.
 */
export interface InstallationDwellings {
  /**
   * the dwellings whose consumption the engine computes with this installation (rounded, at
   * least 1): what a works option on it is priced for, so that price and gain cover the same
   * dwellings; 1 outside whole buildings
   */
  engine: number;
  /**
   * what the DPE's installation says: its own count (`nombre_logement`, hot water) when it gives
   * one, else its area's share of the building's dwellings
   */
  declared: number;
  /** the installation's area, m² (surface_habitable, surface_chauffee, surface_ventile) */
  area: number | undefined;
  /** whether `declared` is the installation's `nombre_logement` (else its area's share) */
  declaredByCount: boolean;
}

type SystemKind = 'ch' | 'ecs' | 'vent';

function installationArea(inst: RawElement, kind: SystemKind): number | undefined {
  const d = inst.donnee_entree;
  return kind === 'ch'
    ? num(d.surface_chauffee)
    : kind === 'vent'
      ? num(d.surface_ventile)
      : num(d.surface_habitable);
}

/** n dwellings × a fraction of the building, rounded, at least 1 and at most n. */
function dwellingsOf(n: number, fraction: number): number {
  if (!Number.isFinite(fraction)) return n;
  return Math.max(1, Math.round(n * Math.min(1, Math.max(0, fraction))));
}

/**
 * The fraction of the building's consumption the engine (1.4.6) computes with the installation
 * of a whole-building DPE:
 * - hot water (11_ecs.js, conso.js): the building's need (nadeq of all its dwellings) × 1/rdim,
 *   then × cle_repartition_ecs × rdim: the whole building whatever its area or
 *   `nombre_logement` say, at its key; with several installations, all individual, each gets
 *   1/nombre_appartement of the need × its key × its rdim (rdim dwellings), or, when they
 *   each describe one flat of a type (`flatTypeDwellings`), the flat's share of the area;
 * - heating (9_chauffage.js): the building's need × surface_chauffee / the building's area (× a
 *   collective installation's cle_repartition_ch, conso.js);
 * - ventilation (4_ventilation.js): the ventilated area over the building's.
 * Undefined when it cannot be read (no building area, several individual hot-water
 * installations without the building's number of flats): the installation's area then decides.
 */
function engineFraction(
  dpe: RawDpe,
  b: Scope,
  inst: RawElement,
  kind: SystemKind,
): number | undefined {
  const d = inst.donnee_entree;
  const key = (v: unknown): number => {
    const x = num(v);
    return x !== undefined && x > 0 ? x : 1;
  };
  if (kind === 'ecs') {
    const all = dpe.logement?.installation_ecs_collection?.installation_ecs ?? [];
    const individuals =
      all.length > 1 && all.every((e) => str(e.donnee_entree.enum_type_installation_id) === '1');
    if (!individuals) return key(d.cle_repartition_ecs);
    const flats = num(dpe.logement?.caracteristique_generale?.nombre_appartement);
    if (flats === undefined || !(flats > 0)) return undefined;
    return (key(d.cle_repartition_ecs) * key(d.rdim)) / flats;
  }
  if (!(b.surface > 0)) return undefined;
  const area = installationArea(inst, kind);
  const fraction = area !== undefined && area > 0 ? area / b.surface : 1;
  return kind === 'ch' && isCollective(inst) ? fraction * key(d.cle_repartition_ch) : fraction;
}

/**
 * The dwellings a whole building's individual hot-water installation stands for when the
 * building's installations each describe one flat of a type (its area, for rdim such flats) and
 * their areas × rdim make the building's within 1%: the engine (correction ecs-immeuble-surface)
 * computes each for its rdim flats at their share of the building's area, so rdim; undefined
 * otherwise (the engine's 1 / nombre_appartement per unit: `engineFraction`).
 */
function flatTypeDwellings(dpe: RawDpe, inst: RawElement): number | undefined {
  const all = dpe.logement?.installation_ecs_collection?.installation_ecs ?? [];
  const total = num(dpe.logement?.caracteristique_generale?.surface_habitable_immeuble);
  if (all.length < 2 || total === undefined || !(total > 0)) return undefined;
  if (!all.every((e) => str(e.donnee_entree.enum_type_installation_id) === '1')) return undefined;
  const rdim = (e: RawElement): number => {
    const x = num(e.donnee_entree.rdim);
    return x !== undefined && x > 0 ? x : 1;
  };
  const parts = all.map((e) => (num(e.donnee_entree.surface_habitable) ?? 0) * rdim(e));
  if (!parts.every((x) => x > 0)) return undefined;
  const sum = parts.reduce((a, x) => a + x, 0);
  if (Math.abs(sum - total) > 0.01 * total) return undefined;
  return Math.max(1, Math.round(rdim(inst)));
}

/**
 * The dwellings an installation of `dpe` stands for, as the engine simulates it and as the
 * DPE describes it (`InstallationDwellings`); 1 and 1 outside whole buildings (a house's, a
 * flat's: the engine computes the dwelling's own consumption).
 */
export function installationDwellings(
  dpe: RawDpe,
  b: Scope,
  inst: RawElement,
  kind: SystemKind,
): InstallationDwellings {
  const area = installationArea(inst, kind);
  if (b.coverage !== 'immeuble') return { engine: 1, declared: 1, area, declaredByCount: false };
  const n = b.dwellings;
  const byArea = area !== undefined && b.surface > 0 ? dwellingsOf(n, area / b.surface) : n;
  const own = num(inst.donnee_entree.nombre_logement);
  const declaredByCount = kind === 'ecs' && own !== undefined && own >= 1;
  const declared = declaredByCount ? Math.round(own) : byArea;
  const fraction = engineFraction(dpe, b, inst, kind);
  const byType = kind === 'ecs' ? flatTypeDwellings(dpe, inst) : undefined;
  return {
    engine: byType ?? (fraction === undefined ? declared : dwellingsOf(n, fraction)),
    declared,
    area,
    declaredByCount,
  };
}

/**
 * Dwellings an installation of a whole-building DPE is priced for: those the engine simulates
 * with it (`installationDwellings`), so that a works option's price and its gain cover the same
 * dwellings; 1 outside whole buildings.
 */
export function dwellingsServed(b: Scope, inst: RawElement, kind: SystemKind, dpe: RawDpe): number {
  return installationDwellings(dpe, b, inst, kind).engine;
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
export function powerFromSurface(b: Scope): number {
  const w = W_PER_M2[b.periodeId ?? ''] ?? 91;
  return (w * b.buildingSurface) / 1000;
}

/**
 * The nominal power (kW) of the installation's generators as the engine computed it (`pn`, W, in
 * the baseline's `donnee_intermediaire`), or undefined when none has one.
 */
export function generatorPower(inst: RawGeneratorHolder): number | undefined {
  const all = inst.generateur_chauffage_collection?.generateur_chauffage ?? [];
  // a collective base + appoint installation (§9.8): the boiler room is its base, the first
  // generator; the appoint is the dwellings' own heaters
  const gens = isBaseAppoint(inst) ? all.slice(0, 1) : all;
  let w = 0;
  for (const g of gens) w += num(g.donnee_intermediaire?.pn) ?? 0;
  return w > 0 ? w / 1000 : undefined;
}

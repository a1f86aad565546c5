/**
 * The DPE's own figures checked for what cannot be, and its parts for what disagrees (`pre`'s
 * alert `warning.dpe-inconsistent`; the audit's input gate reads the same check):
 *
 * - primary energy below final energy, with no electricity produced on site (primary energy is
 *   final energy times coefficients of at least 1: only a production deducted can bring it under);
 * - an installation whose declared area or dwellings are not the ones the engine simulates for
 *   it (its consumption then differs from the XML's own by more than 30%): what is priced for it
 *   and what is credited to it would cover other dwellings;
 * - a registry total (primary energy, emissions) that is not its own per-m² figure times the
 *   area (a unit slip: the per-m² figure, or the final energy, stored as the total);
 * - a flat's building area that is a thousand times (or more, a power of ten) the flat's (a unit
 *   slip, `buildingAreaSlip`), or the flat's own where the DPE counts more flats or a collective
 *   installation (`buildingAreaCopied`), or too small for the flat and the building's other flats
 *   at 9 m² each (`buildingAreaTooSmall`): dpe-sim then prices no collective works sized by the
 *   building;
 * - the engine and the registry more than 30% apart on primary energy or emissions (the bill is
 *   compared in `npm run fidelity`, `billComparison` below, not here: the 2024 price table is
 *   read back from the registry's bills, not from the arrêté's text, docs/bills.md).
 */
import type { Warning } from '../contract/schemas.js';
import type { Fields, RawDpe, RawGeneratorHolder } from '../dpe/raw.js';
import { num, str } from '../dpe/raw.js';
import {
  billOf,
  consumptionOf,
  priceTableAt,
  type Bill,
  type ConsumptionReading,
} from '../engine/bills.js';
import { numberText, percentText } from '../contract/number-text.js';
import { ALERT_IDS, info } from './alerts.js';
import { percentGap, registryTotal, type Comparison } from './comparison.js';
import type { PreparedDpe } from './prepared.js';
import { buildingAreaSetAside, scopeOf } from '../dpe/building.js';
import { oversizedDoors, STANDARD_DOOR_M2 } from '../dpe/doors.js';
import { fieldOf, missingInputs } from '../dpe/required.js';
import { windowShares } from '../dpe/windows.js';

/** enum_methode_application_dpe_log of the flats generated from a building's DPE. */
export const GENERATED_FLAT_METHODS = [10, 11, 12, 13, 33, 34, 38, 39, 40];

/** Over this gap (%), engine and registry are said to disagree. */
export const INCONSISTENT_ABOVE = 30;

export interface Inconsistency {
  /** the figure, as the XML names it (`ep_conso_5_usages`, `installation_ecs[0].conso_ecs`…) */
  figure: string;
  /** one sentence */
  text: string;
}

/** The engine's bill at the prices in force at the DPE's date, beside the registry's. */
export interface BillComparison {
  /** the price table's date (bills.ts) */
  table: string;
  engine: Bill;
  registry: number | undefined;
  /** per use, the registry's (`cout_ch`, `cout_ecs`, `cout_fr`, `cout_eclairage`, `cout_total_auxiliaire`) */
  registryByUse: Record<string, number | undefined>;
  /** % (engine − registry) / registry */
  gap: number | undefined;
}

export function billComparison(dpe: PreparedDpe): BillComparison {
  const table = priceTableAt(dpe.facts.date);
  // (bug-for-bug: the reading of the registry's software that computed the DPE, docs/bills.md)
  const engine = billOf(consumptionOf(dpe.base.output, registryReading(dpe.raw)), table);
  const cout = (dpe.raw.logement?.sortie?.cout ?? {}) as Fields;
  const registry = num(cout.cout_5_usages);
  return {
    table: table.since,
    engine,
    registry,
    registryByUse: {
      ch: num(cout.cout_ch),
      ecs: num(cout.cout_ecs),
      fr: num(cout.cout_fr),
      eclairage: num(cout.cout_eclairage),
      auxiliaire: num(cout.cout_total_auxiliaire),
    },
    gap: registry ? percentGap(engine.total, registry) : undefined,
  };
}

/**
 * How the software that computed the DPE (`administratif.diagnostiqueur.version_logiciel`) priced
 * a flat's share of the collective installations' electricity: LICIEL at the building's band
 * (2159E1018555M, 2213E0696993Z, 2567E0498938R, 2574E3388253L to the cent so), the others at the
 * flat's own (2494E3676842T, 2569E2704431K, 2438E4094489Y within 1% so).
 */
export function registryReading(raw: RawDpe): ConsumptionReading {
  const diag = ((raw.administratif ?? {}) as Fields).diagnostiqueur as Fields | undefined;
  const software = str(diag?.version_logiciel) ?? '';
  return { collectiveElectricity: /liciel/i.test(software) ? 'building' : 'flat' };
}

const arr = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

/** Every impossibility or disagreement found, each naming its figure. */
export function inconsistencies(dpe: PreparedDpe, cmp: Comparison): Inconsistency[] {
  const out: Inconsistency[] = [];
  const sortie = dpe.raw.logement?.sortie;
  const ep = num(sortie?.ep_conso?.ep_conso_5_usages);
  const ef = num(sortie?.ef_conso?.conso_5_usages);
  const production = num(
    ((sortie?.production_electricite ?? {}) as Fields).production_pv ??
      ((sortie?.production_electricite ?? {}) as Fields).conso_elec_ac,
  );
  if (ep !== undefined && ef !== undefined && ep < ef && !(production && production > 0)) {
    out.push({
      figure: 'ep_conso_5_usages',
      text: `primary energy (ep_conso_5_usages ${numberText(ep)} kWh/yr) is below final energy (conso_5_usages ${numberText(ef)} kWh/yr) with no electricity produced on site`,
    });
  }
  // a registry total that is not its own per-m² figure times the area (a unit slip): the
  // comparison reads the per-m² figure (comparison.ts registryTotal)
  const r = dpe.facts.registry;
  const area = dpe.base.surface;
  for (const [figure, total, perM2, unit, what] of [
    ['ep_conso_5_usages', r.ep, r.epM2, 'kWh', 'primary energy'],
    ['emission_ges_5_usages', r.ges, r.gesM2, 'kg CO2e', 'emissions'],
  ] as const)
    if (total !== undefined && perM2 !== undefined && registryTotal(total, perM2, area) !== total)
      out.push({
        figure,
        text: `the registry's total ${what} (${figure} ${numberText(total, 2)} ${unit}/yr) is not its per-m² figure times the area (${numberText(perM2, 2)} ${unit}/m²/yr × ${numberText(area, 2)} m²): the comparison reads the per-m² figure`,
      });
  const scope = scopeOf(dpe.raw);
  const slip = scope.buildingSurfaceSlip;
  if (slip)
    out.push({
      figure: 'surface_habitable_immeuble',
      text: `the building's living area (surface_habitable_immeuble ${numberText(slip.declared, 2)} m²) is ${numberText(slip.factor)} × the flat's (${numberText(area, 2)} m²): a unit slip; collective works are priced at the flat's own size, none sized by the building`,
    });
  const small = scope.buildingSurfaceTooSmall;
  const smallWhy = small ? buildingAreaSetAside(scope)?.why : undefined;
  if (small && smallWhy)
    out.push({
      figure: 'surface_habitable_immeuble',
      text: `the building's living area (surface_habitable_immeuble ${numberText(small.declared, 2)} m²${small.flats > 1 ? `, ${numberText(small.flats)} flats (nombre_appartement)` : ''}) is ${smallWhy}: a building that cannot hold them; collective works are priced at the flat's own size, none sized by the building`,
    });
  const copied = scope.buildingSurfaceCopied;
  if (copied)
    out.push({
      figure: 'surface_habitable_immeuble',
      text: `the building's living area (surface_habitable_immeuble ${numberText(copied.declared, 2)} m²) is the flat's own, ${copied.flats > 1 ? `in a building of ${numberText(copied.flats)} flats (nombre_appartement)` : 'under a collective installation'}: the flat's area copied; collective works are priced at the flat's own size, none sized by the building`,
    });
  out.push(...installationMismatches(dpe.raw, dpe.base.output, dpe));
  out.push(...missingInputsFound(dpe.raw));
  out.push(...unknownInputs(dpe));
  out.push(...generatorMismatches(dpe.raw));
  out.push(...panelMismatches(dpe.raw));
  out.push(...windowCountMismatches(dpe.raw));
  out.push(...doorSizeMismatches(dpe.raw));
  const far = (gap: number | undefined) => gap !== undefined && Math.abs(gap) > INCONSISTENT_ABOVE;
  // per m², figures of a few units apart (emissions 4 against 3) are the floor's rounding
  const apart = (a: number, b: number) => Math.abs(a - b) >= 2;
  const pct = (g: number) => percentText(g, 0, true);
  if (cmp.registry) {
    if (far(cmp.deltaConso) && apart(cmp.engine.epM2, cmp.registry.epM2))
      out.push({
        figure: 'ep_conso_5_usages_m2',
        text: `the engine's primary energy is ${pct(cmp.deltaConso!)} from the registry's (engine ${numberText(cmp.engine.epM2)}, registry ${numberText(cmp.registry.epM2)} kWh/m²/yr)`,
      });
    if (far(cmp.deltaGES) && apart(cmp.engine.gesM2, cmp.registry.gesM2))
      out.push({
        figure: 'emission_ges_5_usages_m2',
        text: `the engine's emissions are ${pct(cmp.deltaGES!)} from the registry's (engine ${numberText(cmp.engine.gesM2)}, registry ${numberText(cmp.registry.gesM2)} kg CO2e/m²/yr)`,
      });
  }
  return out;
}

/**
 * Installations (heating, hot water) whose consumption the engine computes more than 30% away
 * from the XML's own figure for it while the installation declares another area or number of
 * dwellings than the DPE's: the engine simulates it for other dwellings than it serves.
 */
export function installationMismatches(
  raw: RawDpe,
  output: RawDpe,
  dpe: PreparedDpe,
): Inconsistency[] {
  const out: Inconsistency[] = [];
  const cg = (raw.logement?.caracteristique_generale ?? {}) as Fields;
  // a flat generated from building data carries the building's installation figures
  if (GENERATED_FLAT_METHODS.includes(Number(cg.enum_methode_application_dpe_log_id))) return out;
  const dwellings = num(cg.nombre_appartement);
  const surface = dpe.facts.surface;
  const kinds: [string, string, string, string, string][] = [
    [
      'installation_chauffage',
      'heating',
      'conso_ch',
      'surface_chauffee',
      'nombre_logement_echantillon',
    ],
    ['installation_ecs', 'hot-water', 'conso_ecs', 'surface_habitable', 'nombre_logement'],
  ];
  for (const [kind, label, field, areaKey, countKey] of kinds) {
    const xml = installations(raw, kind);
    const eng = installations(output, kind);
    // each side's figure for the whole installation (the engine's hot water, like the XML of a
    // whole building, stores it for one of the installation's rdim units)
    const perUnit = figuresPerUnit(raw, xml, field);
    const enginePerUnit = figuresPerUnit(output, eng, field);
    xml.forEach((inst, i) => {
      const stored = num(inst.donnee_intermediaire?.[field]);
      const units = num(inst.donnee_entree.rdim) ?? 1;
      const rdim = perUnit ? units : 1;
      const mine = stored === undefined ? undefined : stored * rdim;
      const computed = num(eng[i]?.donnee_intermediaire?.[field]);
      const theirs = computed === undefined ? undefined : computed * (enginePerUnit ? units : 1);
      if (mine === undefined || theirs === undefined || mine <= 0) return;
      const gap = percentGap(theirs, mine);
      if (gap === undefined || Math.abs(gap) <= INCONSISTENT_ABOVE) return;
      const area = num(inst.donnee_entree[areaKey]);
      const count = num(inst.donnee_entree[countKey]);
      const otherArea = area !== undefined && surface !== undefined && Math.abs(area - surface) > 1;
      const otherCount = count !== undefined && dwellings !== undefined && count !== dwellings;
      if (!otherArea && !otherCount) return;
      const declared = [
        area !== undefined ? `${numberText(area)} m²` : undefined,
        count !== undefined ? `${numberText(count)} dwelling${count === 1 ? '' : 's'}` : undefined,
      ]
        .filter(Boolean)
        .join(' and ');
      const dpeScale = [
        surface !== undefined ? `${numberText(surface)} m²` : undefined,
        dwellings !== undefined ? `${numberText(dwellings)} dwellings` : undefined,
      ]
        .filter(Boolean)
        .join(', ');
      const description = str(inst.donnee_entree.description);
      out.push({
        figure: `${kind}[${i}].${field}`,
        text: `${label} installation ${i + 1}${description ? ` (${description})` : ''} declares ${declared} where the DPE covers ${dpeScale}; the engine computes ${numberText(Math.round(theirs))} kWh/yr for it against the XML's ${numberText(Math.round(mine))}${rdim !== 1 ? ` (${numberText(Math.round(stored!))} for each of its rdim ${numberText(rdim)})` : ''} (${percentText(gap, 0, true)}): works on it are priced and credited for different dwellings`,
      });
    });
  }
  return out;
}

/**
 * Whether the XML stores its installations' consumption for one of their `rdim` identical units
 * (a whole building's DPE: 2535E0426429Q's gas installation 13 647.29 kWh/yr for each of its 9,
 * its total 122 825.6): the installations' figures times their rdim add up to the DPE's total
 * (ef_conso, within 0.5%) and the figures alone do not.
 */
function figuresPerUnit(raw: RawDpe, xml: RawGeneratorHolder[], field: string): boolean {
  const total = num((raw.logement?.sortie?.ef_conso as Fields | undefined)?.[field]);
  if (total === undefined || total <= 0) return false;
  let plain = 0;
  let scaled = 0;
  for (const inst of xml) {
    const v = num(inst.donnee_intermediaire?.[field]) ?? 0;
    plain += v;
    scaled += v * (num(inst.donnee_entree.rdim) ?? 1);
  }
  const near = (a: number) => Math.abs(a - total) <= total * 0.005;
  return near(scaled) && !near(plain);
}

/**
 * Generator types whose energy the type itself says (the engine's enums.js 1.4.6): a heat pump or
 * a thermodynamic water heater driven by electricity (not the gas ones, ids 83 / 118, nor the
 * hybrid ones with a boiler), a district heating network (not the boilers "modelled as a
 * network"). The engine computes the type (a COP of 2 for a water heater), the registry's
 * software may have followed the energy.
 */
const TYPE_ENERGY: Record<'ch' | 'ecs', { ids: Set<number>; energy: string; kind: string }[]> = {
  ch: [
    { ids: new Set([...range(1, 19), 117]), energy: '1', kind: 'an electric heat pump' },
    { ids: new Set([107, 108, 142]), energy: '8', kind: 'a district heating network' },
  ],
  ecs: [
    {
      ids: new Set([...range(1, 12), 82]),
      energy: '1',
      kind: 'an electric thermodynamic water heater',
    },
    { ids: new Set([72, 73, 119]), energy: '8', kind: 'a district heating network' },
  ],
};

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

/** enum_type_energie_id of the energies these checks name. */
const ENERGY_NAMES: Record<string, string> = {
  '1': 'electricity',
  '2': 'natural gas',
  '3': 'fuel oil',
  '8': 'district heating',
  '13': 'LPG',
};

/**
 * Generators whose declared type and energy disagree (2159E1018555M: hot water from "Réseau de
 * chaleur non répertorié ou inconnu", energy 8, typed as a thermodynamic water heater, id 1: the
 * engine computes it at a COP of 2, 2 058 kWh/yr, the registry at the network's 0.9, 4 573).
 */
export function generatorMismatches(raw: RawDpe): Inconsistency[] {
  const out: Inconsistency[] = [];
  const kinds = [
    ['installation_chauffage', 'generateur_chauffage', 'ch'],
    ['installation_ecs', 'generateur_ecs', 'ecs'],
  ] as const;
  for (const [kind, gen, use] of kinds)
    installations(raw, kind).forEach((inst, i) => {
      const coll = (inst as Fields)[`${gen}_collection`] as Fields | undefined;
      arr(coll?.[gen] as Fields | Fields[] | undefined).forEach((g, j) => {
        const de = (g.donnee_entree ?? {}) as Fields;
        const type = num(de[`enum_type_generateur_${use}_id`]);
        const energy = str(de.enum_type_energie_id);
        if (type === undefined || energy === undefined) return;
        const rule = TYPE_ENERGY[use].find((r) => r.ids.has(type));
        if (!rule || rule.energy === energy) return;
        const description = str(de.description);
        const named = ENERGY_NAMES[energy];
        out.push({
          figure: `${kind}[${i}].${gen}[${j}].enum_type_generateur_${use}_id`,
          text: `${use === 'ch' ? 'heating' : 'hot-water'} generator ${j + 1} of installation ${i + 1}${description ? ` (${description})` : ''} is typed as ${rule.kind} (enum_type_generateur_${use}_id ${type}) but declares energy ${energy}${named ? ` (${named})` : ''}: the engine computes the type, the DPE's own figures may follow the energy`,
        });
      });
    });
  return out;
}

/**
 * Photovoltaic panels whose declared surface and number of modules disagree by more than a factor
 * of 2 (a module is 1.6 m² in the method): 2444E3207594V declares 1 m² and 14 modules, its
 * software computed the 1 m² (239.5 kWh/yr), the engine reads 22.4 m² (5 207.5); 2463E3164679Z
 * declares 20 m² and 1 module. The engine follows the reading the DPE's stored production shows
 * (`pv-surface-declared`); the works are priced on that production, which the auditor checks.
 */
export function panelMismatches(raw: RawDpe): Inconsistency[] {
  const out: Inconsistency[] = [];
  const enr = (raw.logement as Fields | undefined)?.production_elec_enr as Fields | undefined;
  const coll = enr?.panneaux_pv_collection as Fields | undefined;
  arr(coll?.panneaux_pv as Fields | Fields[] | undefined).forEach((p, k) => {
    const modules = num(p.nombre_module);
    const surface = num(p.surface_totale_capteurs);
    if (!modules || !surface || modules <= 0 || surface <= 0) return;
    const byModules = 1.6 * modules;
    if (Math.max(byModules, surface) <= 2 * Math.min(byModules, surface)) return;
    const stored = num((enr?.donnee_intermediaire as Fields | undefined)?.production_pv);
    out.push({
      figure: `production_elec_enr.panneaux_pv[${k}].surface_totale_capteurs`,
      text: `photovoltaic panels ${k + 1} declare ${numberText(surface, 1)} m² and ${numberText(modules)} module${modules === 1 ? '' : 's'} (${numberText(byModules, 1)} m² at 1.6 m² each)${stored !== undefined ? `; the DPE's stored production, ${numberText(Math.round(stored))} kWh/yr, shows which it computed with` : ''}`,
    });
  });
  return out;
}

/** `windowShares` said as an inconsistency of `pre`'s alert. */
export function windowCountMismatches(raw: RawDpe): Inconsistency[] {
  const w = windowShares(raw);
  if (!w) return [];
  return [
    {
      figure: 'baie_vitree.nb_baie',
      text: `the DPE's ${numberText(w.count)} windows (nb_baie) have ${numberText(w.area, 1)} m² in all (surface_totale_baie), ${numberText(w.area / w.count, 3)} m² each: numbers and areas do not describe the same windows (a building's window counts with a flat's share of their area); works on the windows are priced on the areas`,
    },
  ];
}

/** Door elements far larger than the doors they count (`oversizedDoors`). */
export function doorSizeMismatches(raw: RawDpe): Inconsistency[] {
  return oversizedDoors(raw).map((d) => ({
    figure: 'porte.surface_porte',
    text: `door element porte:${d.index} has ${numberText(d.area, 2)} m² for ${numberText(d.doors)} door${d.doors === 1 ? '' : 's'} (nb_porte), ${numberText(d.area / d.doors, 1)} m² a door where a standard door is ${numberText(STANDARD_DOOR_M2, 2)} m² (0.90 × 2.15 m): more doors than it counts, or another element; its works are priced by the doors counted`,
  }));
}

function installations(dpe: RawDpe, kind: string): RawGeneratorHolder[] {
  const log = dpe.logement as Fields | undefined;
  const coll = log?.[`${kind}_collection`] as Fields | undefined;
  return arr(coll?.[kind] as RawGeneratorHolder | RawGeneratorHolder[] | undefined);
}

/**
 * Inputs whose `enum_…_id` the engine's tables do not know (a value of another version of the
 * tables, or a slip): the engine computes them as no value of the method, silently (an unknown
 * energy changes the coefficients) or with NaN, so the figures are not the method's.
 */
export function unknownInputs(dpe: Pick<PreparedDpe, 'unknownEnums'>): Inconsistency[] {
  return (dpe.unknownEnums ?? []).map((u) => ({
    figure: `${u.where ? `${u.where}.` : ''}${u.key}`,
    text: `the input ${u.key} is "${u.value}", not a value of the 3CL table ${u.table}: the engine's figures for it are not the method's`,
  }));
}

/**
 * Inputs the method reads for every DPE that the XML does not give (`missingInputs`): where the
 * engine computed anyway, it did so with another value (the construction period) or a default.
 */
export function missingInputsFound(raw: RawDpe): Inconsistency[] {
  return missingInputs(raw).map((m) => ({
    figure: m.figure,
    text: `the XML does not give ${m.what} (${fieldOf(m)}), which the 3CL method reads: the engine's figures without it are not the method's`,
  }));
}

/** The alert `warning.dpe-inconsistent`, or undefined when the DPE's figures hold together. */
export function consistencyAlert(dpe: PreparedDpe, cmp: Comparison): Warning | undefined {
  const found = inconsistencies(dpe, cmp);
  if (!found.length) return undefined;
  return info(
    ALERT_IDS.inconsistent,
    'The DPE’s figures do not hold together',
    // the XML's name of the figure after its text, with a break between element and field so
    // that a narrow terminal can wrap it (`installation_chauffage[0] conso_ch`)
    `${found.map((f) => `${f.text} (XML: ${f.figure.replace('].', '] ')})`).join('; ')}.`,
  );
}

/**
 * Energy bills priced by dpe-sim from the engine's consumption per energy and use, with the
 * official price tables of the DPE method (arrêté du 31 mars 2021, annexe 7, and its updates;
 * docs/bills.md has each table's source and date).
 *
 * Why not the engine's own `sortie.cout`: the engine (1.4.6) knows only the table of 2021 and
 * prices every piece of electricity on its own (each use, each auxiliary, each generator takes
 * the band of its own kWh and the band's fixed part), where the method prices an energy on the
 * dwelling's whole consumption of it and shares the cost among the uses in proportion. Here:
 *
 * - each energy is priced on its total (electricity: the whole final consumption minus the other
 *   energies'), then shared among heating, hot water, cooling, lighting and auxiliaries in
 *   proportion to their kWh, as the registry's figures are;
 * - an energy supplied by a collective installation is priced at the building's consumption (the
 *   flat's divided by its share: the installation's `ratio_virtualisation`, else the flat's share
 *   of the building's surface), then taken at the flat's share: the band of a building's boiler,
 *   not of one flat (2313E0178624T: hot water 97 € where a flat's own band gives 163 €);
 * - a whole building's energy that no collective installation supplies is each dwelling's own:
 *   priced per dwelling (the building's kWh / `nombre_appartement`, at a dwelling's band, times
 *   the dwellings), and so is its electricity but for what its collective installations use (their
 *   generators' and distribution's auxiliaries, their electric generators' consumption, a
 *   ventilation the DPE describes as collective), priced on the building's total: the registry's
 *   bills of the corpus's 11 whole buildings (docs/bills.md);
 * - the table is the one in force at a given date: the DPE's for the comparison with the
 *   registry (bug-for-bug), the latest for the savings a user is shown.
 */
import type { Fields, RawDpe, RawElement, RawGeneratorHolder } from '../dpe/raw.js';
import { num, str } from '../dpe/raw.js';
import { isCollective, scopeOf } from '../dpe/building.js';
import { ENERGY_PRICES_SINCE } from '../contract/constants.js';

/** One band of a tariff: up to `upTo` kWh/yr (exclusive), `fixed` € + `perKwh` € × kWh. */
export interface PriceBand {
  upTo: number;
  fixed: number;
  perKwh: number;
}

export interface PriceTable {
  /** the date it came into force (ISO), also its id */
  since: string;
  /** where it comes from (docs/bills.md has the detail) */
  source: string;
  /** tariff by `enum_type_energie_id` */
  prices: Record<string, PriceBand[]>;
}

const linear = (perKwh: number): PriceBand[] => [{ upTo: Infinity, fixed: 0, perKwh }];

/** Arrêté du 31 mars 2021 (annexe 7), as the engine has it (conso.js `coef_cout`), plus LPG. */
const TABLE_2021: PriceTable = {
  since: '2021-07-01',
  source: 'arrêté du 31 mars 2021, annexe 7 (prix des énergies)',
  prices: {
    '1': [
      { upTo: 1000, fixed: 0, perKwh: 0.29007 },
      { upTo: 2500, fixed: 149, perKwh: 0.14066 },
      { upTo: 5000, fixed: 122, perKwh: 0.15176 },
      { upTo: 15000, fixed: 94, perKwh: 0.15735 },
      { upTo: Infinity, fixed: 56, perKwh: 0.15989 },
    ],
    '2': [
      { upTo: 5009, fixed: 0, perKwh: 0.11121 },
      { upTo: 50055, fixed: 230, perKwh: 0.06533 },
      { upTo: Infinity, fixed: 415, perKwh: 0.06164 },
    ],
    '3': linear(0.09142),
    '4': linear(0.03201),
    '5': linear(0.05991),
    '6': linear(0.03201),
    '7': linear(0.03201),
    '8': linear(0.0787),
    '9': linear(0.14305),
    '10': linear(0.20027),
    '11': linear(0.02372),
    '12': linear(0),
    // GPL: the registry prices it as propane (16 corpus DPEs of 2021–2023 at 0.14305 €/kWh)
    '13': linear(0.14305),
  },
};

/**
 * The update in force from 1 July 2024 (arrêté du 25 mars 2024, "actualisant les tarifs annuels
 * de l'énergie", annexe 2, JORFTEXT000049446315). Its text was not in the sources at hand: the
 * figures are read back from the registry's own bills of corpus DPEs established from July 2024
 * on (docs/bills.md, each to the cent on 2–6 DPEs). Energies no such DPE uses (fuel oil, wood
 * chips, propane, butane, coal; LPG priced as propane) come from a public transcription of the
 * annex that gives the read-back wood logs, pellets and district heating prices to the cent
 * (docs/bills.md: `transcribed`).
 */
const TABLE_2024: PriceTable = {
  since: ENERGY_PRICES_SINCE,
  source:
    'arrêté du 25 mars 2024 (tarifs annuels de l’énergie, en vigueur le 1er juillet 2024), read back from the registry’s bills',
  prices: {
    ...TABLE_2021.prices,
    '1': [
      { upTo: 1000, fixed: 0, perKwh: 0.34722 },
      { upTo: 2500, fixed: 158.04, perKwh: 0.18952 },
      { upTo: 5000, fixed: 158.45, perKwh: 0.18931 },
      { upTo: Infinity, fixed: 127.48, perKwh: 0.196196 },
    ],
    '2': [
      { upTo: 5009, fixed: 0, perKwh: 0.1312 },
      { upTo: 50055, fixed: 181.98, perKwh: 0.094881 },
      { upTo: Infinity, fixed: 287.9, perKwh: 0.09274 },
    ],
    '4': linear(0.042),
    '5': linear(0.09897),
    '8': linear(0.08921),
    // transcribed (docs/bills.md): fuel oil, wood chips (as logs, like 2021), propane, butane,
    // coal, and LPG at propane's price as the registry prices it
    '3': linear(0.14821),
    '6': linear(0.042),
    '7': linear(0.042),
    '9': linear(0.15672),
    '10': linear(0.23429),
    '11': linear(0.02787),
    '13': linear(0.15672),
  },
};

/** Every table, oldest first. */
export const PRICE_TABLES: readonly PriceTable[] = [TABLE_2021, TABLE_2024];
export const LATEST_PRICE_TABLE: PriceTable = PRICE_TABLES[PRICE_TABLES.length - 1]!;

/** The table in force on `date` (ISO yyyy-mm-dd); the first one before 2021-07-01. */
export function priceTableAt(date: string | undefined): PriceTable {
  if (date === undefined) return LATEST_PRICE_TABLE;
  let found = PRICE_TABLES[0]!;
  for (const t of PRICE_TABLES) if (date >= t.since) found = t;
  return found;
}

/** € per year for `kwh` of the energy at this tariff; NaN when the table has no price for it. */
export function priceOf(bands: PriceBand[] | undefined, kwh: number): number {
  if (!bands) return Number.NaN;
  if (kwh <= 0) return 0;
  const band = bands.find((b) => kwh < b.upTo) ?? bands[bands.length - 1]!;
  return band.fixed + band.perKwh * kwh;
}

export const BILL_USES = ['ch', 'ecs', 'fr', 'eclairage', 'auxiliaire'] as const;
export type BillUse = (typeof BILL_USES)[number];

/** The dwelling's final consumption of one energy, kWh/yr, by use. */
export interface EnergyConsumption {
  /** `enum_type_energie_id` */
  energy: string;
  byUse: Record<BillUse, number>;
  /**
   * How many times the consumption the tariff's band is read at this one is: the band is read at
   * `kWh / share` and the price taken `share` times. Below 1, a flat's share of the collective
   * installation that supplies the energy (priced at the building's consumption, taken at the
   * flat's share); above 1, the dwellings of a whole building each supplied on its own (priced at
   * a dwelling's consumption, for every dwelling); 1 for a dwelling's own supply or a building's
   * collective one. An energy may come in two parts (a whole building's electricity).
   */
  share: number;
}

export interface Bill {
  /** the table's `since` */
  table: string;
  total: number;
  byUse: Record<BillUse, number>;
  /** by `enum_type_energie_id` */
  byEnergy: Record<string, number>;
}

const arr = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
const zero = (): Record<BillUse, number> => ({ ch: 0, ecs: 0, fr: 0, eclairage: 0, auxiliaire: 0 });

/**
 * How a flat's bill reads the electricity of the collective installations that serve it (their
 * generators' and distribution's auxiliaries, a collective ventilation): `building`, the
 * building's, priced at the building's consumption and taken at the flat's share like the fuel
 * (what the building pays for; LICIEL's reading, docs/bills.md); `flat`, the flat's own, at its
 * band with the rest of its electricity (the other software's).
 */
export interface ConsumptionReading {
  collectiveElectricity: 'building' | 'flat';
}

/**
 * The consumption per energy and use of an engine output (`calcul_3cl`'s document): the
 * non-electric energies from `sortie_par_energie` (heating and hot water), electricity as the
 * rest of each use (the engine's electricity entry leaves out the auxiliaries of generators of
 * other energies), cooling, lighting and auxiliaries being electric.
 */
export function consumptionOf(
  output: RawDpe,
  opts: ConsumptionReading = { collectiveElectricity: 'building' },
): EnergyConsumption[] {
  const log = output.logement;
  const sortie = log?.sortie;
  const ef = (sortie?.ef_conso ?? {}) as Fields;
  const perEnergy = arr(
    (sortie?.sortie_par_energie_collection as Fields | undefined)?.sortie_par_energie as
      Fields | Fields[] | undefined,
  );
  const use = (k: string) => num(ef[k]) ?? 0;
  const electric = zero();
  electric.ch = use('conso_ch');
  electric.ecs = use('conso_ecs');
  electric.fr = use('conso_fr');
  electric.eclairage = use('conso_eclairage');
  electric.auxiliaire = use('conso_totale_auxiliaire');
  const shares = collectiveShares(output);
  const out: EnergyConsumption[] = [];
  for (const e of perEnergy) {
    const energy = str(e.enum_type_energie_id);
    if (energy === undefined || energy === '1') continue;
    const byUse = zero();
    byUse.ch = num(e.conso_ch) ?? 0;
    byUse.ecs = num(e.conso_ecs) ?? 0;
    electric.ch -= byUse.ch;
    electric.ecs -= byUse.ecs;
    out.push({ energy, byUse, share: shares.get(energy) ?? 1 });
  }
  for (const k of BILL_USES) electric[k] = Math.max(0, electric[k]);
  const dwellings = wholeBuildingDwellings(output);
  if (dwellings > 1) {
    // a whole building: what its collective installations use on the building's total, the rest
    // the dwellings' own
    for (const c of out) if (!shares.has(c.energy)) c.share = dwellings;
    const collective = collectiveElectricity(output);
    for (const k of BILL_USES) {
      collective[k] = Math.min(collective[k], electric[k]);
      electric[k] -= collective[k];
    }
    out.unshift({ energy: '1', byUse: electric, share: dwellings });
    if (BILL_USES.some((k) => collective[k] > 0))
      out.unshift({ energy: '1', byUse: collective, share: 1 });
    return out;
  }
  // a flat served by a collective installation: the electricity that installation uses is the
  // building's, priced at the building's consumption and taken at the flat's share, like its fuel
  const flatShare =
    opts.collectiveElectricity === 'building' ? collectiveElectricityShare(output) : undefined;
  if (flatShare !== undefined) {
    const collective = collectiveElectricity(output);
    for (const k of BILL_USES) {
      collective[k] = Math.min(collective[k], electric[k]);
      electric[k] -= collective[k];
    }
    out.unshift({ energy: '1', byUse: electric, share: 1 });
    if (BILL_USES.some((k) => collective[k] > 0))
      out.unshift({ energy: '1', byUse: collective, share: flatShare });
    return out;
  }
  out.unshift({ energy: '1', byUse: electric, share: 1 });
  return out;
}

/**
 * A flat's share of the collective installations whose electricity the building pays (those
 * `collectiveElectricity` counts): the first one's `ratio_virtualisation`, else the flat's share
 * of the building's surface; undefined when the DPE is no flat of a larger building or has no
 * such installation.
 */
function collectiveElectricityShare(output: RawDpe): number | undefined {
  const bySurface = surfaceShare(output);
  for (const { inst } of systemsOf(output)) {
    if (!isCollective(inst) || str(inst.donnee_entree.enum_type_installation_id) === '4') continue;
    const ratio = num(inst.donnee_entree.ratio_virtualisation);
    const share = ratio !== undefined && ratio > 0 && ratio < 1 ? ratio : bySurface;
    if (share !== undefined) return share;
  }
  return undefined;
}

/** The flat's share of the building's habitable surface, when the DPE gives both. */
function surfaceShare(output: RawDpe): number | undefined {
  const cg = (output.logement?.caracteristique_generale ?? {}) as Fields;
  const flat = num(cg.surface_habitable_logement);
  const building = num(cg.surface_habitable_immeuble);
  return flat && building && building > flat ? flat / building : undefined;
}

/** A whole building's dwellings (`nombre_appartement`); 1 for any other DPE. */
function wholeBuildingDwellings(output: RawDpe): number {
  const scope = scopeOf(output);
  return scope.coverage === 'immeuble' ? scope.dwellings : 1;
}

/**
 * The electricity a whole building's collective installations use, by use: their generators'
 * and distribution's auxiliaries, their electric generators' consumption, and a ventilation the
 * DPE describes as collective (its `description`: the method's enum does not tell).
 */
function collectiveElectricity(output: RawDpe): Record<BillUse, number> {
  const log = output.logement;
  const used = zero();
  const di = (e: RawElement) => (e.donnee_intermediaire ?? {}) as Fields;
  for (const { inst, gens, use } of systemsOf(output)) {
    // a hybrid installation (4: a collective base, an individual appoint in each dwelling) is
    // priced per dwelling: its electricity is the appoint's (2206E1133029I: every piece of its
    // electricity, the circulators' too, at one dwelling's band)
    if (!isCollective(inst) || str(inst.donnee_entree.enum_type_installation_id) === '4') continue;
    for (const g of gens) {
      const d = di(g);
      used.auxiliaire +=
        (num(d[`conso_auxiliaire_generation_${use}`]) ?? 0) +
        (num(d[`conso_auxiliaire_distribution_${use}`]) ?? 0) +
        (use === 'ecs' ? networkAuxiliaries(g) : 0);
      if (str(g.donnee_entree.enum_type_energie_id) === '1')
        used[use] += num(d[`conso_${use}`]) ?? 0;
    }
  }
  for (const v of arr(log?.ventilation_collection?.ventilation)) {
    if (/collecti/i.test(str(v.donnee_entree.description) ?? ''))
      used.auxiliaire += num(di(v).conso_auxiliaire_ventilation) ?? 0;
  }
  return used;
}

/**
 * A hot-water network's tracing cable or loop circulator (the corrections
 * ecs-tracage-auxiliaries and ecs-bouclage-auxiliaries keep it on the installation's first
 * generator's donnee_utilisateur, at the installation's scale), apportioned as conso.js does:
 * by the generator's hot-water key.
 */
function networkAuxiliaries(g: RawElement): number {
  const u = (g.donnee_utilisateur ?? {}) as Fields;
  const aux = num(u.conso_auxiliaire_distribution_ecs) ?? 0;
  return aux && aux * (num(g.donnee_entree.cle_repartition_ecs) || 1);
}

/** Each heating and hot-water installation with its generators, and which use it serves. */
function systemsOf(
  output: RawDpe,
): { inst: RawGeneratorHolder; gens: RawElement[]; use: 'ch' | 'ecs' }[] {
  const log = output.logement;
  return [
    ...arr(log?.installation_chauffage_collection?.installation_chauffage).map((inst) => ({
      inst,
      gens: arr(inst.generateur_chauffage_collection?.generateur_chauffage),
      use: 'ch' as const,
    })),
    ...arr(log?.installation_ecs_collection?.installation_ecs).map((inst) => ({
      inst,
      gens: arr(inst.generateur_ecs_collection?.generateur_ecs),
      use: 'ecs' as const,
    })),
  ];
}

/**
 * The dwelling's share of each energy a collective installation supplies (not electricity): its
 * `ratio_virtualisation`, else the flat's share of the building's surface, else 1 (a whole
 * building's own installation).
 */
function collectiveShares(output: RawDpe): Map<string, number> {
  const bySurface = surfaceShare(output);
  const shares = new Map<string, number>();
  const known = new Set<string>();
  for (const { inst, gens } of systemsOf(output)) {
    const type = str(inst.donnee_entree.enum_type_installation_id);
    if (type === undefined || type === '1') continue;
    const ratio = num(inst.donnee_entree.ratio_virtualisation);
    const share = ratio !== undefined && ratio > 0 && ratio < 1 ? ratio : bySurface;
    for (const g of gens) {
      const energy = str(g.donnee_entree.enum_type_energie_id);
      if (energy === undefined || energy === '1') continue;
      // the first installation that knows its share gives it; one that does not, 1
      if (share !== undefined && !known.has(energy)) {
        shares.set(energy, share);
        known.add(energy);
      } else if (!shares.has(energy)) shares.set(energy, 1);
    }
  }
  return shares;
}

/** The bill of this consumption at this table: each energy on its total, shared by use. */
export function billOf(consumption: EnergyConsumption[], table: PriceTable): Bill {
  const byUse = zero();
  const byEnergy: Record<string, number> = {};
  let total = 0;
  for (const c of consumption) {
    const kwh = BILL_USES.reduce((s, k) => s + c.byUse[k], 0);
    if (kwh <= 0) continue;
    const bands = table.prices[c.energy];
    // an energy without a price in the table (other fossil fuel, district cooling): no figure
    // rather than the engine's 1 € per kWh
    if (!bands) continue;
    const eur = priceOf(bands, kwh / c.share) * c.share;
    byEnergy[c.energy] = (byEnergy[c.energy] ?? 0) + eur;
    total += eur;
    for (const k of BILL_USES) byUse[k] += (eur * c.byUse[k]) / kwh;
  }
  return { table: table.since, total, byUse, byEnergy };
}

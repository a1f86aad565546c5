/**
 * Replacing a heating or hot-water generator: an individual installation's by an individual one,
 * a collective installation's by the building's boiler room or heat pump (priced at a flat's
 * share), a collective base + appoint installation's base by either of those. New generators are
 * entered with table values (method 1) and a fresh `donnee_intermediaire` (the engine reads pn,
 * rpn, qp0, scop... from it as inputs); untouched generators keep theirs. A new boiler keeps the
 * nominal power the engine used for the old one (without it the engine sizes pn from the whole
 * GV, which inflates the standby losses on building-level DPEs); a heat pump gets none, but at
 * the base of a base + appoint installation, whose power shares the need with the appoint.
 */
import { isBaseAppoint, scopeOf } from '../dpe/building.js';
import type { Fields, RawDpe, RawElement, RawGeneratorHolder } from '../dpe/raw.js';
import {
  cleanRef,
  computedDi,
  ecsGensOf,
  emsOf,
  envelopeList,
  gensOf,
  heatingInstallations,
  hotWaterInstallations,
  methodeApplication,
  n,
  range,
  s,
  type WorksContext,
} from './context.js';
import {
  OTHER_KIND,
  type Applicability,
  type HeatingGenerator,
  type HotWaterGenerator,
} from './generator-kinds.js';
import { editShared } from './frozen-copy.js';

const INDIVIDUELLE = '1'; // enum_type_installation_id
const COLLECTIVE = '2';
const MIXED_REF = 'travaux_generateur_mixte';

// enum_type_emission_distribution_id of water emitters (floors/ceilings, radiators, fan coils)
const HYDRONIC_EMISSION = new Set([
  ...range(11, 18),
  ...range(24, 39),
  ...['46', '47', '48', '49'],
]);
// enum_type_generateur_ch_id feeding a water circuit: heat pumps (4-19), poêles bouilleurs
// (48, 49, 140, 141), wood/oil/gas boilers (55-97), electric boiler (106), other combustion /
// thermodynamic systems (113-118), coal and LPG boilers (120-139), hybrid heat pumps (143-170)
const HYDRONIC_GEN = new Set([
  ...range(4, 19),
  '48',
  '49',
  ...range(55, 97),
  '106',
  ...range(113, 118),
  ...range(120, 141),
  ...range(143, 170),
]);
// 98 convecteur, 99 panneau rayonnant, 100 radiateur NF, 101 autres effet Joule,
// 102/103 plancher / plafond rayonnant électrique, 104 radiateur à accumulation
const JOULE_GEN = new Set(['98', '99', '100', '101', '102', '103', '104']);
// their emitters: 1 convecteur, 2 panneau rayonnant, 3 radiateur, 4 autres effet Joule,
// 6/7 plafond rayonnant, 8/9 plancher rayonnant, 10 radiateur à accumulation
const JOULE_EMISSION = new Set(['1', '2', '3', '4', '6', '7', '8', '9', '10']);
const EFFET_JOULE_GEN = new Set([...JOULE_GEN, '105', '106']); // the engine's isEffetJoule list
// independent fossil heaters: 47 poêle fioul, GPL ou charbon, 50-52 générateurs d'air chaud à
// combustion, 53/54 radiateurs à gaz indépendants (wood stoves, inserts and cookers are not:
// renewable, and what replaces one is the auditor's call)
const ROOM_GEN = new Set(['47', '50', '51', '52', '53', '54']);
// their emitters: 5 air soufflé par réseau aéraulique, 19 radiateur gaz, 20 poêle charbon,
// 22 poêle fioul, 23 poêle GPL
const ROOM_EMISSION = new Set(['5', '19', '20', '22', '23']);
const NO_ROOM_HEATERS = OTHER_KIND.roomHeaters;
// wood room appliances: 20-43 cuisinières, foyers fermés, poêles bûche and inserts of every
// period, 44 poêle à granulés before 2012 or without the Flamme Verte label; 45 and 46 (Flamme
// Verte pellet stoves from 2012) are there already (`alreadyDone`). Boiler stoves (48, 49, 140,
// 141) feed water emitters: central heating, not here.
const WOOD_GEN = new Set(range(20, 46));
const WOOD_EMISSION = new Set(['21']); // poêle bois
const NO_WOOD_STOVES = OTHER_KIND.woodStoves;
const SDB_LINK = '3'; // enum_lien_generateur_emetteur_id: electric appoint in the bathroom

// enum_cfg_installation_ch_id accepted: 1 simple, 2 solar, 3 wood stove appoint, 4/5 bathroom
// electric, 6 relief of a wood boiler, 7 solar + stove, 8 boiler relieving a heat pump, 9 idem +
// stove. Not 11 (bi-jonction convectors); 10 (collective base + appoint) is its own case:
// `isBaseAppoint`.
const CFG_OK = new Set(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
// enum_type_installation_id 4: hybrid collective-individual (base + individual appoint, or
// bi-jonction convectors)
const HYBRID_INSTALLATION = '4';
// once every water generator is merged into one: 6 and 8 → 1 simple, 9 → 3 (stove appoint)
const CFG_AFTER_MERGE: Record<string, string> = { 6: '1', 8: '1', 9: '3' };

const PAC_AIR_EAU_RECENT = new Set(['6', '7']); // pac air/eau 2015-2016, après 2017
const GEOTHERMAL_OR_WATER = new Set(range(8, 19)); // eau/eau, glycolée, géothermique
const HYBRID_PAC = range(143, 170);
const ANY_PAC = new Set([...range(4, 19), ...HYBRID_PAC]);
// fioul (81-84), gaz (91-97), GPL (133-139) low-temperature / condensing boilers
const CONDENSING_OR_LOW_TEMP = new Set([...range(81, 84), ...range(91, 97), ...range(133, 139)]);
const NATURAL_GAS = '2'; // enum_type_energie_id
const ELECTRICITY = '1'; // enum_type_energie_id

/**
 * Heating-generator types and the hot-water type of the same appliance (identical labels in the
 * engine's enums.js 1.4.6): [first heating id, last heating id, first hot-water id].
 */
const SAME_APPLIANCE: readonly (readonly [number, number, number])[] = [
  [48, 49, 13],
  [55, 97, 15],
  [106, 106, 118],
  [107, 139, 72],
  [140, 141, 115],
  [142, 142, 119],
  [148, 161, 120],
  [171, 171, 134],
];

/** The enum_type_generateur_ecs_id of the appliance a heating generator type also is. */
function ecsTypeOf(chType: string): string | undefined {
  const id = Number(chType);
  const row = SAME_APPLIANCE.find(([a, b]) => id >= a && id <= b);
  return row ? String(row[2] + id - row[0]) : undefined;
}

const genType = (g: RawElement): string => s(g.donnee_entree.enum_type_generateur_ch_id);
const ecsType = (g: RawElement): string => s(g.donnee_entree.enum_type_generateur_ecs_id);
const isIndividual = (x: RawElement): boolean =>
  s(x.donnee_entree.enum_type_installation_id) === INDIVIDUELLE;

// ---------------------------------------------------------------------------- shared

/**
 * ECS generators that are the hot-water side of the given heating generators: usage 3
 * "chauffage + ecs" sharing reference_generateur_mixte with them or, without references, any
 * mixed one when a heating generator is mixed, or one of the same appliance type (registry DPEs
 * sometimes flag only the ECS side as mixed).
 */
function linkedEcsGens(
  dpe: RawDpe,
  heating: RawElement[],
): { ecs: RawGeneratorHolder; gen: RawElement }[] {
  const mixed = heating.filter((g) => s(g.donnee_entree.enum_usage_generateur_id) === '3');
  const refs = new Set(
    heating.map((g) => cleanRef(g.donnee_entree.reference_generateur_mixte)).filter(Boolean),
  );
  const types = new Set(heating.map((g) => ecsTypeOf(genType(g))).filter(Boolean));
  const out: { ecs: RawGeneratorHolder; gen: RawElement }[] = [];
  for (const ecs of hotWaterInstallations(dpe)) {
    for (const g of ecsGensOf(ecs)) {
      const d = g.donnee_entree;
      if (s(d.enum_usage_generateur_id) !== '3') continue;
      const r = cleanRef(d.reference_generateur_mixte);
      const byRef = refs.size && r ? refs.has(r) : mixed.length > 0;
      if (byRef || types.has(ecsType(g))) out.push({ ecs, gen: g });
    }
  }
  return out;
}

/** Heating generators that are the heating side of the given ECS generators (same rules). */
function linkedHeatingGens(dpe: RawDpe, ecsGens: RawElement[]): RawElement[] {
  const mixed = ecsGens.filter((g) => s(g.donnee_entree.enum_usage_generateur_id) === '3');
  if (!mixed.length) return [];
  const refs = new Set(
    mixed.map((g) => cleanRef(g.donnee_entree.reference_generateur_mixte)).filter(Boolean),
  );
  const types = new Set(mixed.map(ecsType).filter(Boolean));
  const out: RawElement[] = [];
  for (const inst of heatingInstallations(dpe)) {
    for (const g of gensOf(inst)) {
      const d = g.donnee_entree;
      const r = cleanRef(d.reference_generateur_mixte);
      const byRef = s(d.enum_usage_generateur_id) === '3' && (refs.size && r ? refs.has(r) : true);
      const sameAppliance = types.has(ecsTypeOf(genType(g)) ?? '');
      if (byRef || sameAppliance) out.push(g);
    }
  }
  return out;
}

/** A replaced mixed ECS generator's heating side now only heats. */
function unmix(dpe: RawDpe, oldEcsGens: RawElement[], except?: RawElement): void {
  for (const h of linkedHeatingGens(dpe, oldEcsGens)) {
    if (h === except) continue;
    h.donnee_entree.enum_usage_generateur_id = '1';
    delete h.donnee_entree.reference_generateur_mixte;
  }
}

interface NewGenFields {
  description: string;
  type: string;
  usage: '1' | '2' | '3';
  energie: string;
  lien?: string;
  /** 0/1: inside the heated volume (recovered losses); kept from the old generator when absent */
  position_volume_chauffe?: number;
  presence_ventouse?: number;
  reference_generateur_mixte?: string;
  // hot water
  stockage?: string;
  volume_stockage?: number;
  periode_thermo?: string;
}

/** A fresh heating generator: of the old one only its place and the emitter it feeds are kept. */
function newHeatingGen(old: RawElement | undefined, f: NewGenFields): RawElement {
  const o: Fields = old?.donnee_entree ?? {};
  let position = f.position_volume_chauffe ?? n(o.position_volume_chauffe);
  if (!Number.isFinite(position)) position = 0;
  const d: RawElement['donnee_entree'] = {
    description: f.description,
    enum_type_generateur_ch_id: f.type,
    enum_usage_generateur_id: f.usage,
    enum_type_energie_id: f.energie,
    enum_methode_saisie_carac_sys_id: '1', // valeurs forfaitaires
    enum_lien_generateur_emetteur_id: f.lien ?? (s(o.enum_lien_generateur_emetteur_id) || '1'),
    position_volume_chauffe: position,
  };
  if (f.presence_ventouse !== undefined) d.presence_ventouse = f.presence_ventouse;
  if (o.reference) d.reference = o.reference as string;
  if (f.reference_generateur_mixte) d.reference_generateur_mixte = f.reference_generateur_mixte;
  return { donnee_entree: d, donnee_intermediaire: {} };
}

function newEcsGen(old: RawElement | undefined, f: NewGenFields): RawElement {
  const o: Fields = old?.donnee_entree ?? {};
  let position = f.position_volume_chauffe ?? n(o.position_volume_chauffe);
  if (!Number.isFinite(position)) position = 0;
  const d: RawElement['donnee_entree'] = {
    description: f.description,
    enum_type_generateur_ecs_id: f.type,
    enum_usage_generateur_id: f.usage,
    enum_type_energie_id: f.energie,
    enum_methode_saisie_carac_sys_id: '1',
    enum_type_stockage_ecs_id: f.stockage ?? (s(o.enum_type_stockage_ecs_id) || '2'),
    position_volume_chauffe: position,
  };
  const volume = f.volume_stockage ?? n(o.volume_stockage);
  if (volume > 0) d.volume_stockage = volume;
  if (f.periode_thermo) d.enum_periode_installation_ecs_thermo_id = f.periode_thermo;
  if (f.presence_ventouse !== undefined) d.presence_ventouse = f.presence_ventouse;
  if (o.reference) d.reference = o.reference as string;
  if (f.reference_generateur_mixte) d.reference_generateur_mixte = f.reference_generateur_mixte;
  return { donnee_entree: d, donnee_intermediaire: {} };
}

/** In bug-for-bug mode tv_umur_id / tv_uph_id / tv_upb_id pin the effet-Joule tables. */
function effetJoule(dpe: RawDpe): boolean {
  let joule = 0;
  let total = 0;
  for (const inst of heatingInstallations(dpe)) {
    const area = n(inst.donnee_entree.surface_chauffee) || 0;
    if (gensOf(inst).some((g) => EFFET_JOULE_GEN.has(genType(g)))) joule += area;
    total += area;
  }
  return total > 0 && joule / total >= 0.5;
}

/** Runs `mutate`; when the dwelling switches to or from effet-Joule heating, drops the pins. */
function withEffetJoule(dpe: RawDpe, mutate: () => void): void {
  const before = effetJoule(dpe);
  mutate();
  if (effetJoule(dpe) === before) return;
  for (const [kind, id] of [
    ['mur', 'tv_umur_id'],
    ['plancher_haut', 'tv_uph_id'],
    ['plancher_bas', 'tv_upb_id'],
  ] as const) {
    const list = envelopeList(dpe, kind);
    // an element the works copy shares with the original: a frozen copy without the pin, the
    // same at every run (frozen-copy.ts); one without the pin is left as it is
    list.forEach((el, i) => {
      if (Object.hasOwn(el.donnee_entree, id))
        editShared(list, i, id, (x) => {
          delete x.donnee_entree[id];
        });
    });
  }
}

/** Replaces `old` (members of `list`) by `item`, at the place of the first one. */
function replaceIn(list: RawElement[], old: RawElement[], item: RawElement): RawElement[] {
  const first = old[0] ? list.indexOf(old[0]) : 0;
  const kept = list.filter((x) => !old.includes(x));
  kept.splice(Math.min(Math.max(first, 0), kept.length), 0, item);
  return kept;
}

// ---------------------------------------------------------------------------- central heating

interface HydronicSpec {
  type: string;
  energie: string;
  description: string;
  presence_ventouse?: number;
  position_volume_chauffe?: number;
  /**
   * 'same': mixed generators stay mixed, their ECS side becomes `ecsType` (boilers);
   * 'split': the new generator only heats, the old mixed ECS generator keeps making hot water;
   * 'pac': the new generator is mixed, every ECS generator becomes a dual-service heat pump.
   */
  ecsMode: 'same' | 'split' | 'pac';
  ecsType?: string;
  keepPn?: boolean;
  /** not offered when every water generator is one of these */
  alreadyDone: ReadonlySet<string>;
  /** not offered when a water generator is one of these */
  excluded: ReadonlySet<string>;
  excludedWhy: string;
  needsGas?: boolean;
  /** replaces a collective installation's generators (priced for the building) */
  collective?: boolean;
}

const HYDRONIC: Partial<Record<HeatingGenerator, HydronicSpec>> = {
  'pac-air-eau': {
    type: '7', // pac air/eau installée après 2017
    energie: '1',
    description: 'Pompe à chaleur air/eau (travaux)',
    position_volume_chauffe: 0,
    ecsMode: 'split',
    alreadyDone: new Set([...PAC_AIR_EAU_RECENT, ...GEOTHERMAL_OR_WATER, ...HYBRID_PAC]),
    excluded: new Set([...PAC_AIR_EAU_RECENT, ...GEOTHERMAL_OR_WATER]),
    excludedWhy: 'a recent air/water or a ground-source heat pump is already installed',
  },
  'pac-air-eau-ecs': {
    type: '7',
    energie: '1',
    description: 'Pompe à chaleur air/eau double service (travaux)',
    position_volume_chauffe: 0,
    ecsMode: 'pac',
    // over a recent heat pump, hot water is the thermodynamic water heater's job
    alreadyDone: PAC_AIR_EAU_RECENT,
    excluded: GEOTHERMAL_OR_WATER,
    excludedWhy: 'a ground-source heat pump is already installed',
  },
  'gaz-condensation': {
    type: '97', // chaudière gaz à condensation après 2015
    energie: NATURAL_GAS,
    presence_ventouse: 1,
    description: 'Chaudière gaz à condensation (travaux)',
    ecsMode: 'same',
    ecsType: '57', // the same boiler, hot-water side
    keepPn: true,
    alreadyDone: new Set(['96', '97', '138', '139']),
    excluded: ANY_PAC,
    excludedWhy: 'a heat pump is already installed',
    needsGas: true,
  },
  'gaz-condensation-collective': {
    type: '97',
    energie: NATURAL_GAS,
    presence_ventouse: 0,
    description: 'Chaufferie gaz à condensation (travaux)',
    ecsMode: 'same',
    ecsType: '57',
    keepPn: true,
    alreadyDone: new Set(['96', '97', '138', '139']),
    excluded: ANY_PAC,
    excludedWhy: 'a heat pump is already installed',
    needsGas: true,
    collective: true,
  },
  'pac-air-eau-collective': {
    type: '7',
    energie: '1',
    description: 'Pompe à chaleur air/eau collective (travaux)',
    position_volume_chauffe: 0,
    ecsMode: 'split',
    alreadyDone: new Set([...PAC_AIR_EAU_RECENT, ...GEOTHERMAL_OR_WATER, ...HYBRID_PAC]),
    excluded: new Set([...PAC_AIR_EAU_RECENT, ...GEOTHERMAL_OR_WATER]),
    excludedWhy: 'a recent air/water or a ground-source heat pump is already installed',
    collective: true,
  },
  granules: {
    type: '74', // chaudière bois granulés après 2019
    energie: '5', // bois – granulés ou briquettes
    presence_ventouse: 0,
    description: 'Chaudière bois granulés (travaux)',
    ecsMode: 'same',
    ecsType: '34',
    keepPn: true,
    alreadyDone: new Set(['73', '74']),
    // wood and gas both have an EP coefficient of 1 and the 3CL pellet boiler is less
    // efficient than a condensing / low-temperature one: EP would rise (GES falls)
    excluded: new Set([...ANY_PAC, ...CONDENSING_OR_LOW_TEMP]),
    excludedWhy:
      'a heat pump or a condensing / low-temperature boiler is already installed (a pellet boiler would raise primary energy)',
  },
};

// A collective base + appoint installation (`isBaseAppoint`, §9.8): a collective option replaces
// its base, in its place and at its power (the power sets the base's share of the need); the
// appoint stays as it is.

/** Why an installation is not an individual central heating with water emitters, or undefined. */
function centralRefusal(inst: RawGeneratorHolder, collective = false): string | undefined {
  // (said first: a base + appoint installation is neither individual nor collective, and that
  // it is one is why, whatever the option)
  if (isBaseAppoint(inst)) return collective ? undefined : OTHER_KIND.baseAppointIndividual;
  if (
    s(inst.donnee_entree.enum_type_installation_id) === HYBRID_INSTALLATION ||
    !CFG_OK.has(s(inst.donnee_entree.enum_cfg_installation_ch_id))
  )
    return 'this installation (bi-jonction convectors, or a collective base + appoint the DPE does not describe as one) is not replaced';
  if (collective) {
    if (s(inst.donnee_entree.enum_type_installation_id) !== COLLECTIVE)
      return OTHER_KIND.boilerRoom;
  } else if (!isIndividual(inst)) return OTHER_KIND.individualHeating;
  return undefined;
}

/** The water generators of an individual central heating (the ones replaced). */
function hydronicMains(inst: RawGeneratorHolder, collective = false): RawElement[] {
  if (centralRefusal(inst, collective)) return [];
  if (isBaseAppoint(inst)) {
    // the base alone, when it is a water generator on water emitters
    const base = gensOf(inst)[0];
    const em = emsOf(inst)[0];
    const water =
      base !== undefined &&
      HYDRONIC_GEN.has(genType(base)) &&
      HYDRONIC_EMISSION.has(s(em?.donnee_entree.enum_type_emission_distribution_id));
    return water ? [base] : [];
  }
  const ems = emsOf(inst).filter((e) =>
    HYDRONIC_EMISSION.has(s(e.donnee_entree.enum_type_emission_distribution_id)),
  );
  if (!ems.length) return [];
  return gensOf(inst).filter((g) => HYDRONIC_GEN.has(genType(g)));
}

// enum_type_generateur_ch_id of a heating network (107 not insulated, 108 insulated, 142 not
// listed or unknown) and of the registry's default for an undescribed collective system (119)
const NETWORK_GEN = new Set(['107', '108', '142']);
const DEFAULT_COLLECTIVE_GEN = '119';
const DISTRICT_HEATING = '8'; // enum_type_energie_id: réseau de chauffage urbain

/** The categories that hold generators. */
export type GeneratorCategory = 'installation_chauffage' | 'installation_ecs';

/**
 * The DPE's own words for a generator it files under the registry's default type for an
 * undescribed collective system (heating 119, hot water 84) while describing it, where the
 * engine keeps that type (a default the DPE gives the 3CL row of is prepared as the row's type,
 * dpe/default-generators.ts): "Réseau de chaleur" on district heating (2162E1023160S's hot
 * water), "Chauffe-eau vertical" on electricity (2162E1017681Z). Undefined for any other type, or
 * a description that is the default's own.
 */
export function registryDefaultWords(
  category: GeneratorCategory,
  g: RawElement,
): string | undefined {
  const d = g.donnee_entree;
  const type = s(
    category === 'installation_chauffage'
      ? d.enum_type_generateur_ch_id
      : d.enum_type_generateur_ecs_id,
  );
  if (
    type !==
    (category === 'installation_chauffage' ? DEFAULT_COLLECTIVE_GEN : DEFAULT_COLLECTIVE_ECS)
  )
    return undefined;
  const words = s(d.description).trim();
  return words && !/défaut/i.test(words) ? words : undefined;
}

/** A refusal for a generator filed under the registry's default type that the DPE describes. */
function describedDefault(g: RawElement, category: GeneratorCategory, lead: string): string {
  const words = registryDefaultWords(category, g) ?? '';
  return s(g.donnee_entree.enum_type_energie_id) === DISTRICT_HEATING
    ? `${lead} a heating network (“${words}” on district heating, filed under the registry’s default type for an undescribed collective system), which the catalogue does not replace`
    : `${lead} what the DPE describes as “${words}” but files under the registry’s default type for an undescribed collective system, which the engine simulates: the DPE’s type and words disagree, so no replacement is offered`;
}
/** an electric generator linked to water emitters: neither option family replaces it (one text) */
const ELECTRIC_ON_WATER =
  'an electric heater feeds its water emitters (the DPE’s data disagree): not replaced';

/**
 * Why an installation without a water generator to replace gets no boiler or heat pump: no water
 * emitter, or water emitters fed by what the catalogue does not replace (said, so that an audit's
 * item reads what the DPE holds).
 */
function hydronicRefusal(inst: RawGeneratorHolder): string {
  if (isBaseAppoint(inst))
    return 'its collective base is not a water generator on water emitters: the catalogue does not replace it';
  const water = emsOf(inst).some((e) =>
    HYDRONIC_EMISSION.has(s(e.donnee_entree.enum_type_emission_distribution_id)),
  );
  if (!water) return 'no central heating with water emitters to replace';
  const types = gensOf(inst).map(genType);
  if (types.some((t) => NETWORK_GEN.has(t)))
    return 'its water emitters are fed by a heating network, which the catalogue does not replace';
  const described = gensOf(inst).find((g) => registryDefaultWords('installation_chauffage', g));
  if (described)
    return describedDefault(described, 'installation_chauffage', 'its water emitters are fed by');
  if (types.includes(DEFAULT_COLLECTIVE_GEN))
    return 'its water emitters are fed by the registry’s default for an undescribed collective system: what to replace is not known';
  if (types.some((t) => JOULE_GEN.has(t))) return ELECTRIC_ON_WATER;
  return 'its water emitters are fed by a generator the catalogue does not replace';
}

function hasGas(dpe: RawDpe): boolean {
  return [
    ...heatingInstallations(dpe).flatMap(gensOf),
    ...hotWaterInstallations(dpe).flatMap(ecsGensOf),
  ].some((g) => s(g.donnee_entree.enum_type_energie_id) === NATURAL_GAS);
}

function hydronicApplies(
  inst: RawGeneratorHolder,
  spec: HydronicSpec,
  ctx: WorksContext,
): Applicability {
  const refusal = centralRefusal(inst, spec.collective);
  if (refusal) return refusal;
  const mains = hydronicMains(inst, spec.collective);
  if (!mains.length) return hydronicRefusal(inst);
  if (mains.every((g) => spec.alreadyDone.has(genType(g))))
    return 'this generator (or a better one) is already installed';
  if (mains.some((g) => spec.excluded.has(genType(g)))) return spec.excludedWhy;
  if (spec.needsGas && !hasGas(ctx.dpe)) return 'no natural-gas supply in this dwelling';
  if (spec.ecsMode === 'pac') {
    const ecs = hotWaterInstallations(ctx.dpe);
    if (!ecs.length || !ecs.every(isIndividual))
      return 'hot water is collective: a dual-service heat pump cannot replace it';
  }
  return true;
}

/** The nominal power (W) the engine used for a generator in the baseline. */
function baselinePn(gen: RawElement, ctx: WorksContext): number | undefined {
  const pn = n(computedDi(gen, ctx).pn);
  return pn > 0 ? pn : undefined;
}

/** All water generators of the installation become ONE new generator. */
function hydronicApply(inst: RawGeneratorHolder, spec: HydronicSpec, ctx: WorksContext): void {
  const mains = hydronicMains(inst, spec.collective);
  if (!mains.length) return;
  const linked = linkedEcsGens(ctx.dpe, mains);
  const wasMixed =
    linked.length > 0 || mains.some((g) => s(g.donnee_entree.enum_usage_generateur_id) === '3');
  // the new generator must feed a water emitter (a heat pump without one gives NaN)
  const em = emsOf(inst).find((e) =>
    HYDRONIC_EMISSION.has(s(e.donnee_entree.enum_type_emission_distribution_id)),
  );
  const lien = s(em?.donnee_entree.enum_lien_generateur_emetteur_id) || '1';
  const usage = spec.ecsMode === 'pac' || (spec.ecsMode === 'same' && wasMixed) ? '3' : '1';
  const gen = newHeatingGen(mains[0], {
    ...spec,
    usage,
    lien,
    reference_generateur_mixte: usage === '3' ? MIXED_REF : undefined,
  });
  const pns = mains.map((g) => baselinePn(g, ctx)).filter((x): x is number => x !== undefined);
  // a base keeps its power whatever replaces it: §9.8 shares the need between base and appoint
  // by the base's power
  const pn = (spec.keepPn || isBaseAppoint(inst)) && pns.length ? Math.max(...pns) : undefined;
  if (pn) gen.donnee_intermediaire = { pn };
  withEffetJoule(ctx.dpe, () => {
    const gens = gensOf(inst);
    const hydronicCount = gens.filter((g) => HYDRONIC_GEN.has(genType(g))).length;
    inst.generateur_chauffage_collection = {
      ...inst.generateur_chauffage_collection,
      generateur_chauffage: replaceIn(gens, mains, gen),
    };
    const cfg = CFG_AFTER_MERGE[s(inst.donnee_entree.enum_cfg_installation_ch_id)];
    if (cfg && mains.length === hydronicCount) inst.donnee_entree.enum_cfg_installation_ch_id = cfg;
  });
  if (spec.ecsMode === 'same' && wasMixed && spec.ecsType) {
    for (const { gen: g } of linked) {
      const next = newEcsGen(g, {
        description: spec.description,
        type: spec.ecsType,
        usage: '3',
        energie: spec.energie,
        presence_ventouse: spec.presence_ventouse,
        reference_generateur_mixte: MIXED_REF,
      });
      g.donnee_entree = next.donnee_entree;
      g.donnee_intermediaire = pn ? { pn } : {}; // the same appliance as the heating side
    }
  } else if (spec.ecsMode === 'split') {
    for (const { gen: g } of linked) {
      g.donnee_entree.enum_usage_generateur_id = '2'; // the old boiler keeps making hot water
      delete g.donnee_entree.reference_generateur_mixte;
    }
  } else if (spec.ecsMode === 'pac') {
    for (const ecs of hotWaterInstallations(ctx.dpe)) {
      const old = ecsGensOf(ecs);
      ecs.generateur_ecs_collection = {
        ...ecs.generateur_ecs_collection,
        generateur_ecs: [
          newEcsGen(old[0], {
            description: 'Pompe à chaleur air/eau double service (travaux)',
            type: '12', // pac double service après 2014
            usage: '3',
            energie: '1',
            stockage: '3', // stockage intégré à la production
            volume_stockage: Math.max(150, n(old[0]?.donnee_entree.volume_stockage) || 0),
            periode_thermo: '3', // à partir de 2015
            reference_generateur_mixte: MIXED_REF,
          }),
        ],
      };
      // the replaced ECS generators may have been the hot-water side of another heating generator
      unmix(ctx.dpe, old, gen);
      delete ecs.donnee_entree.tv_rendement_distribution_ecs_id; // depends on the generator's place
    }
  }
}

// ------------------------------------------- room appliances (electric, fossil or wood heaters)

/** What a room-appliance option replaces: electric heaters, fossil heaters or wood appliances. */
type Replaced = 'joule' | 'rooms' | 'wood';

interface ApplianceSpec {
  type: string;
  description: string;
  emission: string;
  intermittence?: string;
  alreadyDone: ReadonlySet<string>;
  /** electric heaters (the default), independent fossil heaters (`ROOM_GEN`) or wood appliances */
  replaces?: Replaced;
  /** enum_type_energie_id of the new appliance (electricity when absent) */
  energie?: string;
  /** the old emitters stay (a stove's own emitter, 21, is the new stove's too) */
  keepEmitters?: boolean;
}

const APPLIANCES: Partial<Record<HeatingGenerator, ApplianceSpec>> = {
  'pac-air-air': {
    type: '3', // pac air/air installée à partir de 2015
    description: 'Pompe à chaleur air/air (travaux)',
    emission: '42', // soufflage d'air chaud, distribution par fluide frigorigène
    alreadyDone: new Set(),
  },
  'pac-air-air-appareils': {
    type: '3', // pac air/air installée à partir de 2015
    description: 'Pompe à chaleur air/air (travaux)',
    emission: '42', // soufflage d'air chaud, distribution par fluide frigorigène
    alreadyDone: new Set(),
    replaces: 'rooms',
  },
  'poele-granules': {
    type: '46', // poêle à granulés flamme verte installé à partir de 2020
    description: 'Poêle à granulés Flamme Verte (travaux)',
    emission: '21', // poêle bois (kept)
    alreadyDone: new Set(['45', '46']),
    replaces: 'wood',
    energie: '5', // bois – granulés (pellets) ou briquettes
    keepEmitters: true,
  },
  'radiateurs-nf': {
    type: '100', // radiateur électrique NFC, NF** et NF***
    description: 'Radiateurs électriques NF*** programmables (travaux)',
    emission: '3', // radiateur électrique NFC, NF** et NF***
    intermittence: '5', // par pièce avec minimum de température et détection de présence
    alreadyDone: new Set(['100']),
  },
};

const REPLACED: Record<Replaced, { gens: ReadonlySet<string>; ems: ReadonlySet<string> }> = {
  joule: { gens: JOULE_GEN, ems: JOULE_EMISSION },
  rooms: { gens: ROOM_GEN, ems: ROOM_EMISSION },
  wood: { gens: WOOD_GEN, ems: WOOD_EMISSION },
};
const NOTHING: Record<Replaced, string> = {
  joule: 'no electric heaters to replace',
  rooms: NO_ROOM_HEATERS,
  wood: NO_WOOD_STOVES,
};

/**
 * Electric generators and emitters of an individual installation, bathroom appoint excluded (or
 * its independent fossil heaters, or its wood stoves, inserts and cookers); where there are none
 * to replace, why (`refusal`).
 */
function replacedAppliances(
  inst: RawGeneratorHolder,
  replaces: Replaced = 'joule',
): {
  gens: RawElement[];
  ems: RawElement[];
  refusal?: string;
} {
  const nothing = NOTHING[replaces];
  const none = { gens: [], ems: [], refusal: nothing };
  if (centralRefusal(inst)) return none;
  const { gens: genSet, ems: emSet } = REPLACED[replaces];
  const gens = gensOf(inst).filter(
    (g) =>
      genSet.has(genType(g)) && s(g.donnee_entree.enum_lien_generateur_emetteur_id) !== SDB_LINK,
  );
  const ems = emsOf(inst).filter(
    (e) =>
      emSet.has(s(e.donnee_entree.enum_type_emission_distribution_id)) &&
      s(e.donnee_entree.enum_lien_generateur_emetteur_id) !== SDB_LINK,
  );
  if (!gens.length) {
    const described =
      replaces === 'joule' &&
      gensOf(inst).find(
        (g) =>
          registryDefaultWords('installation_chauffage', g) &&
          s(g.donnee_entree.enum_type_energie_id) === ELECTRICITY,
      );
    return described
      ? {
          ...none,
          refusal: describedDefault(described, 'installation_chauffage', 'its rooms are heated by'),
        }
      : none;
  }
  // a wood appliance that also makes the hot water keeps its place (its hot-water side would be
  // left without a generator): the auditor's call
  if (replaces === 'wood' && gens.some((g) => s(g.donnee_entree.enum_usage_generateur_id) === '3'))
    return {
      gens: [],
      ems: [],
      refusal: 'its wood appliance also makes the hot water (the hot-water side would be left)',
    };
  // every emitter on the same link must be electric too (an electric generator "feeding" a water
  // radiator is a data error; the engine then counts only one emitter for it)
  const links = new Set(gens.map((g) => s(g.donnee_entree.enum_lien_generateur_emetteur_id)));
  const others = emsOf(inst).filter(
    (e) => !ems.includes(e) && links.has(s(e.donnee_entree.enum_lien_generateur_emetteur_id)),
  );
  if (ems.length && !others.length) return { gens, ems };
  const water = others.some((e) =>
    HYDRONIC_EMISSION.has(s(e.donnee_entree.enum_type_emission_distribution_id)),
  );
  const refusal = water
    ? replaces === 'joule'
      ? ELECTRIC_ON_WATER
      : 'its heater feeds water emitters: a central heating, not an independent heater'
    : others.length
      ? replaces === 'joule'
        ? 'its electric generator feeds emitters the catalogue does not replace (not radiators, convectors, panels or radiant floors and ceilings)'
        : replaces === 'rooms'
          ? 'its heater feeds emitters the catalogue does not replace (not a stove, a gas radiator or warm-air vents)'
          : 'its wood appliance feeds emitters the catalogue does not replace (not a stove’s own)'
      : nothing;
  return { gens: [], ems: [], refusal };
}

function applianceApplies(inst: RawGeneratorHolder, spec: ApplianceSpec): Applicability {
  const refusal = centralRefusal(inst);
  if (refusal) return refusal;
  const m = replacedAppliances(inst, spec.replaces);
  if (!m.gens.length) return m.refusal ?? NOTHING[spec.replaces ?? 'joule'];
  if (m.gens.every((g) => spec.alreadyDone.has(genType(g))))
    return 'this equipment is already installed';
  return true;
}

/**
 * The replaced appliances and their emitters become ONE generator and ONE emitter (a pellet stove:
 * one per old stove, on its emitter).
 */
function applianceApply(inst: RawGeneratorHolder, spec: ApplianceSpec, ctx: WorksContext): void {
  const m = replacedAppliances(inst, spec.replaces);
  const e0 = m.ems[0]?.donnee_entree;
  if (!m.gens.length || !e0) return;
  const lien = s(e0.enum_lien_generateur_emetteur_id) || '1';
  const energie = spec.energie ?? '1';
  if (spec.keepEmitters) {
    // one new appliance per old one, on its link and in its place; the emitters stay
    const fresh = m.gens.map((old) =>
      newHeatingGen(old, {
        description: spec.description,
        type: spec.type,
        usage: '1',
        energie,
        lien: s(old.donnee_entree.enum_lien_generateur_emetteur_id) || lien,
      }),
    );
    inst.generateur_chauffage_collection = {
      ...inst.generateur_chauffage_collection,
      generateur_chauffage: gensOf(inst).map((g) => fresh[m.gens.indexOf(g)] ?? g),
    };
    return;
  }
  const surface =
    Math.max(...m.ems.map((e) => n(e.donnee_entree.surface_chauffee) || 0)) ||
    n(inst.donnee_entree.surface_chauffee);
  const gen = newHeatingGen(m.gens[0], {
    description: spec.description,
    type: spec.type,
    usage: '1',
    energie,
    lien,
    position_volume_chauffe: 1,
  });
  const em: RawElement = {
    donnee_entree: {
      description: spec.description,
      surface_chauffee: surface,
      enum_type_emission_distribution_id: spec.emission,
      enum_type_chauffage_id: '1', // chauffage divisé
      enum_equipement_intermittence_id:
        spec.intermittence ?? (s(e0.enum_equipement_intermittence_id) || '1'),
      enum_type_regulation_id: '2', // avec régulation pièce par pièce
      enum_temp_distribution_ch_id: '1', // no distribution network
      enum_periode_installation_emetteur_id: '3', // après 2000
      enum_lien_generateur_emetteur_id: lien,
      // no reseau_distribution_isole: emitters without a network give NaN with it
    },
    donnee_intermediaire: {},
  };
  withEffetJoule(ctx.dpe, () => {
    inst.generateur_chauffage_collection = {
      ...inst.generateur_chauffage_collection,
      generateur_chauffage: replaceIn(gensOf(inst), m.gens, gen),
    };
    inst.emetteur_chauffage_collection = {
      ...inst.emetteur_chauffage_collection,
      emetteur_chauffage: replaceIn(emsOf(inst), m.ems, em),
    };
  });
}

/** A wood stove, insert, closed hearth or cooker the pellet stove (`poele-granules`) replaces. */
export function isWoodRoomAppliance(g: RawElement): boolean {
  return WOOD_GEN.has(genType(g));
}

/** The energy (`enum_type_energie_id`) a new heating generator burns: gas, pellets, electricity. */
export function heatingEnergy(generator: HeatingGenerator): string {
  return HYDRONIC[generator]?.energie ?? APPLIANCES[generator]?.energie ?? '1';
}

export function heatingApplies(
  inst: RawGeneratorHolder,
  generator: HeatingGenerator,
  ctx: WorksContext,
): Applicability {
  const h = HYDRONIC[generator];
  if (h) return hydronicApplies(inst, h, ctx);
  const e = APPLIANCES[generator];
  return e ? applianceApplies(inst, e) : 'unknown generator';
}

export function heatingApply(
  inst: RawGeneratorHolder,
  generator: HeatingGenerator,
  ctx: WorksContext,
): void {
  const h = HYDRONIC[generator];
  if (h) return hydronicApply(inst, h, ctx);
  const e = APPLIANCES[generator];
  if (e) applianceApply(inst, e, ctx);
}

// ---------------------------------------------------------------------------- hot water

// enum_type_generateur_ecs_id 1-12: thermodynamic water heaters and dual-service heat pumps
const THERMO_ECS = new Set(range(1, 12));
// 68 horizontal, 69 vertical other / unknown, 70 vertical category B electric tanks
const OLD_ELECTRIC_TANKS = new Set(['68', '69', '70']);

/** The volumes thermodynamic water heaters are sold in, litres. */
const CET_VOLUMES = [100, 150, 200, 250, 300] as const;
/** Without a tank to replace (a boiler, an instantaneous heater): a family's size. */
const CET_VOLUME_WITHOUT_TANK = 200;

/**
 * A thermodynamic water heater's volume: the tank it replaces, like for like, a dwelling's share
 * where the installation declares several (a flat generated from building data declares the
 * building's: 2463E3164679Z, 500 L for 28 dwellings), at the next size such heaters are sold in
 * (100 to 300 L: an 11 m² studio's 30 L tank gets 100 L, 2475E0480474U; a house's 300 L keeps
 * 300 L); 200 L where the installation has no tank. The engine's storage losses follow it; the
 * price does not (its source gives a range for any volume, works-costs.md).
 */
export function cetVolume(old: readonly RawElement[], dwellings = 1): number {
  const total = Math.max(0, ...old.map((g) => n(g.donnee_entree.volume_stockage) || 0));
  const tank = total / (dwellings > 1 ? dwellings : 1);
  if (!(tank > 0)) return CET_VOLUME_WITHOUT_TANK;
  return CET_VOLUMES.find((v) => v >= tank) ?? CET_VOLUMES[CET_VOLUMES.length - 1]!;
}

/** A new generator replacing every generator of the installation. */
const WATER_HEATERS: Record<Exclude<HotWaterGenerator, 'cesi'>, NewGenFields> = {
  cet: {
    description: 'Chauffe-eau thermodynamique sur air ambiant (travaux)',
    type: '3', // cet sur air ambiant (sur local non chauffé) après 2014
    usage: '2',
    energie: '1',
    stockage: '3', // stockage intégré à la production (its volume: cetVolume)
    periode_thermo: '3', // à partir de 2015
    // it stands in the unheated room whose air it draws (`ambientAirRoom`), its tank with it:
    // the tank's losses are not heat for the dwelling
    position_volume_chauffe: 0,
  },
  'cet-exterieur': {
    description: 'Chauffe-eau thermodynamique sur air extérieur (travaux)',
    type: '6', // cet sur air extérieur après 2014 (same COP as 3 in the engine)
    usage: '2',
    energie: '1',
    stockage: '3',
    periode_thermo: '3',
  },
  // a building's hot-water heat pump with its tanks (CEE BAR-TH-169), on outdoor air: the 3CL
  // tables' COP for thermodynamic hot water on outdoor air after 2014 (2.5 in H1 and H2, 2.8 in
  // H3); its tanks are the system's own (storage independent of production)
  'pac-ecs-collective': {
    description: 'Pompe à chaleur collective pour l’eau chaude sanitaire (travaux)',
    type: '6', // cet sur air extérieur après 2014
    usage: '2',
    energie: '1',
    stockage: '2', // stockage indépendant de la production
    periode_thermo: '3',
  },
  'ballon-electrique': {
    description: 'Ballon électrique vertical catégorie C (travaux)',
    type: '71', // ballon électrique à accumulation vertical catégorie C ou 3 étoiles
    usage: '2',
    energie: '1',
    stockage: '3',
  },
};

// enum_type_adjacence_id of a house's unheated rooms a water heater on ambient air can stand in
// (the 3CL's "sur local non chauffé"; ADEME: a room of 20 m³ or more): sous-sol non chauffé,
// garage, cellier, autres dépendances. Not a crawl space or an attic, nor a flat's neighbours
// (the building's basement, car park or stairs are not the flat's to put an appliance in). Each
// as the option's label says where the heater stands (catalogue.ts `labelOn`), in the
// catalogue's French: the unheated basement, the garage, the cellar, an outbuilding.
const AMBIENT_AIR_ROOMS: Record<string, string> = {
  '6': 'au sous-sol non chauffé',
  '8': 'dans le garage',
  '9': 'dans le cellier',
  '21': 'dans une dépendance',
};
/**
 * The old hot-water generator's own place, outside the heated volume (position_volume_chauffe 0):
 * a tank's (a volume_stockage), else the generator's (a boiler's instantaneous hot water).
 */
const OLD_TANK_ROOM = 'dans le local non chauffé de l’ancien ballon';
const OLD_GENERATOR_ROOM = 'dans le local non chauffé de l’ancien générateur';

export const NO_AMBIENT_AIR_ROOM =
  'a water heater on ambient air stands in an unheated room: the DPE describes none for it (no garage, cellar, unheated basement or outbuilding of a house) and its tank stands in the heated volume; the one on outdoor air is offered';

/**
 * Where a thermodynamic water heater on ambient air can stand (3CL type 3, "sur local non
 * chauffé"), as its option's label says it: where the old tank (or the old generator, a boiler
 * without one) stands outside the heated volume (position_volume_chauffe 0), its unheated room
 * ("dans le local non chauffé de l’ancien ballon"); in a house, the first unheated room the
 * DPE's envelope borders (its adjacency, AMBIENT_AIR_ROOMS: "au sous-sol non chauffé", "dans le
 * garage"); otherwise nowhere the DPE describes (undefined), and a water heater on outdoor air is
 * what can be fitted.
 */
export function ambientAirRoom(dpe: RawDpe, gens: readonly RawElement[]): string | undefined {
  const outside = gens.find((g) => s(g.donnee_entree.position_volume_chauffe) === '0');
  if (outside)
    return (n(outside.donnee_entree.volume_stockage) || 0) > 0 ? OLD_TANK_ROOM : OLD_GENERATOR_ROOM;
  if (scopeOf(dpe).coverage !== 'maison') return undefined;
  for (const kind of ['mur', 'plancher_bas', 'plancher_haut'] as const)
    for (const el of envelopeList(dpe, kind)) {
      const room = AMBIENT_AIR_ROOMS[s(el.donnee_entree.enum_type_adjacence_id)];
      if (room) return room;
    }
  return undefined;
}

export function hotWaterApplies(
  inst: RawGeneratorHolder,
  generator: HotWaterGenerator,
  ctx: WorksContext,
): Applicability {
  if (generator === 'pac-ecs-collective') return collectiveHotWaterApplies(inst);
  if (!isIndividual(inst)) return OTHER_KIND.individualHotWater;
  const gens = ecsGensOf(inst);
  if (!gens.length) return 'this installation has no generator';
  switch (generator) {
    case 'cet':
    case 'cet-exterieur':
      if (gens.every((g) => THERMO_ECS.has(ecsType(g))))
        return 'a thermodynamic water heater or heat pump is already installed';
      if (generator === 'cet' && !ambientAirRoom(ctx.dpe, gens)) return NO_AMBIENT_AIR_ROOM;
      return true;
    case 'ballon-electrique':
      if (!gens.every((g) => OLD_ELECTRIC_TANKS.has(ecsType(g))))
        return 'no old electric tank to replace (a new tank replaces an old one only)';
      return true;
    case 'cesi':
      if (methodeApplication(ctx.dpe) !== '1')
        return 'a solar water heater is offered on a house only';
      if (s(inst.donnee_entree.enum_type_installation_solaire_id))
        return 'a solar installation is already there';
      return true;
  }
}

// enum_type_generateur_ecs_id of a heating network or of a multi-building installation modelled
// as one (72–77, 119, 134), of the registry's default for an undescribed collective system (84),
// and of the other thermodynamic systems (82 electric, 83 gas)
const NETWORK_ECS = new Set(['72', '73', '74', '75', '76', '77', '119', '134']);
const DEFAULT_COLLECTIVE_ECS = '84';
const OTHER_THERMO_ECS = new Set(['82', '83']);

/**
 * A building's hot-water production (a collective installation) replaced by a heat pump: its
 * generators, whether they make hot water only or are a boiler's hot-water side (that boiler then
 * heats only), become the heat pump. Not a heating network's hot water, nor the registry's default
 * for an undescribed system, nor a production that is already a heat pump.
 */
function collectiveHotWaterApplies(inst: RawGeneratorHolder): Applicability {
  const t = s(inst.donnee_entree.enum_type_installation_id);
  if (t === INDIVIDUELLE || t === '') return OTHER_KIND.collectiveHotWater;
  const gens = ecsGensOf(inst);
  if (!gens.length) return 'this installation has no generator';
  const types = gens.map(ecsType);
  if (t === '3' || types.some((x) => NETWORK_ECS.has(x)))
    return 'hot water comes from a heating network, which the catalogue does not replace';
  const described = gens.find((g) => registryDefaultWords('installation_ecs', g));
  if (described) return describedDefault(described, 'installation_ecs', 'hot water is made by');
  if (types.includes(DEFAULT_COLLECTIVE_ECS))
    return 'hot water is the registry’s default for an undescribed collective system: what to replace is not known';
  if (types.every((x) => THERMO_ECS.has(x) || OTHER_THERMO_ECS.has(x)))
    return 'a heat pump already makes the hot water';
  return true;
}

export function hotWaterApply(
  inst: RawGeneratorHolder,
  generator: HotWaterGenerator,
  ctx: WorksContext,
): void {
  const d = inst.donnee_entree;
  if (generator === 'cesi') {
    // the existing generator(s) become the back-up of the solar water heater
    d.enum_type_installation_solaire_id = '3'; // ecs solaire seule inf 5 ans
    d.enum_cfg_installation_ecs_id = '2'; // un seul système d'ecs avec solaire
    delete d.fecs_saisi;
    delete d.tv_facteur_couverture_solaire_id;
    return;
  }
  const old = ecsGensOf(inst);
  const spec = WATER_HEATERS[generator];
  const volume =
    spec.volume_stockage ??
    (generator === 'cet' || generator === 'cet-exterieur'
      ? cetVolume(old, n(d.nombre_logement))
      : n(old[0]?.donnee_entree.volume_stockage) || 200);
  inst.generateur_ecs_collection = {
    ...inst.generateur_ecs_collection,
    generateur_ecs: [newEcsGen(old[0], { ...spec, volume_stockage: volume })],
  };
  unmix(ctx.dpe, old);
  delete d.tv_rendement_distribution_ecs_id;
}

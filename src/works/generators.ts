/**
 * Replacing a heating or hot-water generator. Only individual installations are offered
 * (a collective boiler room is not the dwelling owner's works). The new generator is entered
 * with table values (method 1), its stored intermediate figures cleared, and its emitters made
 * compatible (water radiators for a boiler or an air/water heat pump).
 */
import type { Fields, RawElement, RawGeneratorHolder } from '../dpe/raw.js';
import { str } from '../dpe/raw.js';
import type {
  Applicability,
  HeatingGenerator,
  HotWaterGenerator,
  WorksContext,
} from './recipes.js';

const INDIVIDUELLE = '1';

interface GeneratorSpec {
  label: string;
  /** enum_type_generateur_ch_id */
  typeId: string;
  /** enum_type_energie_id */
  energyId: string;
  /** emitter the new generator needs */
  emitter: 'water' | 'air-split' | 'electric';
  /** it also makes the dwelling's hot water */
  hotWater?: boolean;
}

export const HEATING_SPECS: Record<HeatingGenerator, GeneratorSpec> = {
  'pac-air-eau': { label: 'Pompe à chaleur air/eau', typeId: '7', energyId: '1', emitter: 'water' },
  'pac-air-eau-ecs': {
    label: 'Pompe à chaleur air/eau double service (chauffage + ECS)',
    typeId: '7',
    energyId: '1',
    emitter: 'water',
    hotWater: true,
  },
  'gaz-condensation': {
    label: 'Chaudière gaz à condensation',
    typeId: '97',
    energyId: '2',
    emitter: 'water',
  },
  granules: { label: 'Chaudière bois granulés', typeId: '74', energyId: '5', emitter: 'water' },
  'pac-air-air': {
    label: 'Pompe à chaleur air/air (multi-split)',
    typeId: '3',
    energyId: '1',
    emitter: 'air-split',
  },
};

/** Emitter ids: electric (effet Joule), water radiators, split units. */
const ELECTRIC_EMITTERS = new Set(['1', '2', '3', '4', '6', '7', '8', '9', '10', '50']);
const WATER_RADIATORS_LOW_TEMP = '39'; // radiateur bitube avec robinet thermostatique, réseau individuel < 65 °C
const SPLIT_EMITTER = '42'; // soufflage d'air chaud par fluide frigorigène
const NATURAL_GAS = '2';
const HEAT_PUMPS_CH = new Set([
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
  '10',
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '17',
  '18',
  '19',
]);

function generators(inst: RawGeneratorHolder): RawElement[] {
  return inst.generateur_chauffage_collection?.generateur_chauffage ?? [];
}

function emitters(inst: RawGeneratorHolder): RawElement[] {
  return inst.emetteur_chauffage_collection?.emetteur_chauffage ?? [];
}

function ecsGenerators(inst: RawGeneratorHolder): RawElement[] {
  return inst.generateur_ecs_collection?.generateur_ecs ?? [];
}

function hasGasNetwork(ctx: WorksContext): boolean {
  const lg = ctx.dpe.logement;
  const all = [
    ...(lg?.installation_chauffage_collection?.installation_chauffage ?? []).flatMap(generators),
    ...(lg?.installation_ecs_collection?.installation_ecs ?? []).flatMap(ecsGenerators),
  ];
  return all.some((g) => str(g.donnee_entree.enum_type_energie_id) === NATURAL_GAS);
}

function isElectricHeating(inst: RawGeneratorHolder): boolean {
  return (
    generators(inst).every((g) => str(g.donnee_entree.enum_type_energie_id) === '1') &&
    emitters(inst).every((e) =>
      ELECTRIC_EMITTERS.has(str(e.donnee_entree.enum_type_emission_distribution_id) ?? ''),
    )
  );
}

export function heatingApplies(
  inst: RawGeneratorHolder,
  gen: HeatingGenerator,
  ctx: WorksContext,
): Applicability {
  if (str(inst.donnee_entree.enum_type_installation_id) !== INDIVIDUELLE) {
    return 'only individual heating installations can be replaced';
  }
  const gens = generators(inst);
  if (gens.length === 0) return 'this installation has no generator';
  const spec = HEATING_SPECS[gen];
  if (gens.every((g) => str(g.donnee_entree.enum_type_generateur_ch_id) === spec.typeId)) {
    return 'this generator is already installed';
  }
  if (
    gens.some((g) => HEAT_PUMPS_CH.has(str(g.donnee_entree.enum_type_generateur_ch_id) ?? '')) &&
    spec.energyId !== '1'
  ) {
    return 'a heat pump is already installed';
  }
  if (gen === 'gaz-condensation' && !hasGasNetwork(ctx))
    return 'no natural-gas supply in this dwelling';
  if (gen === 'pac-air-air' && !isElectricHeating(inst)) {
    return 'an air/air heat pump is offered to replace electric heaters';
  }
  if (
    gen === 'pac-air-eau-ecs' &&
    (ctx.dpe.logement?.installation_ecs_collection?.installation_ecs ?? []).some(
      (e) => str(e.donnee_entree.enum_type_installation_id) !== INDIVIDUELLE,
    )
  ) {
    return 'hot water is collective: a dual-service heat pump cannot replace it';
  }
  return true;
}

function newHeatingGenerator(spec: GeneratorSpec, usage: '1' | '3', previous: Fields): RawElement {
  return {
    donnee_entree: {
      description: spec.label,
      reference: str(previous.reference) ?? 'dpesim-generateur-ch',
      ...(usage === '3' ? { reference_generateur_mixte: 'dpesim-mixte' } : {}),
      enum_type_generateur_ch_id: spec.typeId,
      enum_usage_generateur_id: usage,
      enum_type_energie_id: spec.energyId,
      position_volume_chauffe: 1,
      enum_methode_saisie_carac_sys_id: '1',
      enum_lien_generateur_emetteur_id: '1',
    },
    donnee_intermediaire: {},
  };
}

function newEmitter(previous: Fields, emitterId: string, surface: unknown): RawElement {
  const d: Fields = {
    description: '',
    surface_chauffee: surface,
    enum_type_emission_distribution_id: emitterId,
    enum_equipement_intermittence_id: str(previous.enum_equipement_intermittence_id) ?? '3',
    enum_type_regulation_id: str(previous.enum_type_regulation_id) ?? '2',
    enum_type_chauffage_id: '1',
    enum_temp_distribution_ch_id: emitterId === WATER_RADIATORS_LOW_TEMP ? '3' : '1',
    enum_lien_generateur_emetteur_id: '1',
  };
  if (emitterId === WATER_RADIATORS_LOW_TEMP) {
    d.reseau_distribution_isole = 1;
    d.periode_installation_emetteur = 3;
  }
  return { donnee_entree: d, donnee_intermediaire: {} };
}

export function heatingApply(
  inst: RawGeneratorHolder,
  gen: HeatingGenerator,
  ctx: WorksContext,
): void {
  const spec = HEATING_SPECS[gen];
  const gens = generators(inst);
  const previous = gens[0]?.donnee_entree ?? {};
  const usage = spec.hotWater ? '3' : '1';
  inst.generateur_chauffage_collection = {
    generateur_chauffage: [newHeatingGenerator(spec, usage, previous)],
  };
  // the installation becomes one generator on one kind of emitter
  const ems = emitters(inst);
  const firstEmitter = ems[0]?.donnee_entree ?? {};
  const surface = inst.donnee_entree.surface_chauffee ?? firstEmitter.surface_chauffee;
  const currentId = str(firstEmitter.enum_type_emission_distribution_id) ?? '';
  let emitterId = currentId;
  if (
    spec.emitter === 'water' &&
    (ELECTRIC_EMITTERS.has(currentId) || !isWaterEmitter(currentId))
  ) {
    emitterId = WATER_RADIATORS_LOW_TEMP;
  } else if (spec.emitter === 'air-split') {
    emitterId = SPLIT_EMITTER;
  }
  inst.emetteur_chauffage_collection = {
    emetteur_chauffage: [
      emitterId === currentId && ems[0]
        ? {
            donnee_entree: { ...firstEmitter, enum_lien_generateur_emetteur_id: '1' },
            donnee_intermediaire: {},
          }
        : newEmitter(firstEmitter, emitterId, surface),
    ],
  };
  inst.donnee_entree.enum_cfg_installation_ch_id = '1'; // one generator
  delete inst.donnee_intermediaire;
  if (spec.hotWater) {
    for (const ecs of ctx.dpe.logement?.installation_ecs_collection?.installation_ecs ?? []) {
      replaceHotWater(ecs, {
        description: 'Pompe à chaleur double service (ECS)',
        enum_type_generateur_ecs_id: '12', // pac double service après 2014
        enum_type_energie_id: '1',
        enum_usage_generateur_id: '3',
        reference_generateur_mixte: 'dpesim-mixte',
        position_volume_chauffe: 1,
        enum_type_stockage_ecs_id: '3',
        volume_stockage: 200,
        enum_methode_saisie_carac_sys_id: '1',
      });
    }
  }
}

function isWaterEmitter(id: string): boolean {
  const n = Number(id);
  return (n >= 11 && n <= 18) || (n >= 24 && n <= 39) || (n >= 46 && n <= 49);
}

// ---------------------------------------------------------------------------- hot water

const HOT_WATER_SPECS: Record<HotWaterGenerator, { label: string; fields: Fields }> = {
  cet: {
    label: 'Chauffe-eau thermodynamique sur air ambiant',
    fields: {
      enum_type_generateur_ecs_id: '3',
      enum_type_energie_id: '1',
      enum_type_stockage_ecs_id: '3',
      volume_stockage: 200,
    },
  },
  'cet-exterieur': {
    label: 'Chauffe-eau thermodynamique sur air extérieur',
    fields: {
      enum_type_generateur_ecs_id: '6',
      enum_type_energie_id: '1',
      enum_type_stockage_ecs_id: '3',
      volume_stockage: 200,
    },
  },
  'ballon-electrique': {
    label: 'Ballon électrique vertical catégorie C (3 étoiles)',
    fields: {
      enum_type_generateur_ecs_id: '71',
      enum_type_energie_id: '1',
      enum_type_stockage_ecs_id: '3',
      volume_stockage: 200,
    },
  },
};

const THERMODYNAMIC_ECS = new Set(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);

function replaceHotWater(inst: RawGeneratorHolder, fields: Fields): void {
  const previous = ecsGenerators(inst)[0]?.donnee_entree ?? {};
  inst.generateur_ecs_collection = {
    generateur_ecs: [
      {
        donnee_entree: {
          reference: str(previous.reference) ?? 'dpesim-generateur-ecs',
          enum_usage_generateur_id: '2',
          position_volume_chauffe: str(previous.position_volume_chauffe) === '0' ? 0 : 1,
          enum_methode_saisie_carac_sys_id: '1',
          ...fields,
        },
        donnee_intermediaire: {},
      },
    ],
  };
  inst.donnee_entree.enum_type_installation_id = INDIVIDUELLE;
  delete inst.donnee_intermediaire;
}

export function hotWaterApplies(
  inst: RawGeneratorHolder,
  gen: HotWaterGenerator,
  _ctx: WorksContext,
): Applicability {
  if (str(inst.donnee_entree.enum_type_installation_id) !== INDIVIDUELLE) {
    return 'only individual hot-water installations can be replaced';
  }
  const gens = ecsGenerators(inst);
  if (gens.length === 0) return 'this installation has no generator';
  const current = gens.map((g) => str(g.donnee_entree.enum_type_generateur_ecs_id) ?? '');
  if (current.some((id) => THERMODYNAMIC_ECS.has(id)))
    return 'a thermodynamic water heater or heat pump is already installed';
  if (gens.some((g) => str(g.donnee_entree.enum_usage_generateur_id) === '3')) {
    return 'hot water comes from the heating generator: replace the heating instead (e.g. PACAirEauECS)';
  }
  const target = HOT_WATER_SPECS[gen].fields.enum_type_generateur_ecs_id;
  if (current.every((id) => id === target)) return 'this water heater is already installed';
  if (gen === 'ballon-electrique' && !current.every((id) => ['68', '69', '70'].includes(id))) {
    return 'a new electric tank is offered to replace an old electric tank';
  }
  return true;
}

export function hotWaterApply(
  inst: RawGeneratorHolder,
  gen: HotWaterGenerator,
  _ctx: WorksContext,
): void {
  const spec = HOT_WATER_SPECS[gen];
  replaceHotWater(inst, { description: spec.label, ...spec.fields });
}

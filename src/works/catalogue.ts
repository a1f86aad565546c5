/**
 * The works catalogue: one typed row per works option. A row says where the option applies
 * (category), what the user picks (key, code, label), how it changes the element (a recipe:
 * data interpreted by recipes.ts), and how it is priced (a cost figure of costs.ts, per m² of
 * the element's own area or per unit). Adding an option is adding a row.
 */
import type { Category } from '../contract/schemas.js';
import type { CostKey } from './costs.js';
import type { RawDpe, RawElement, RawGeneratorHolder } from '../dpe/raw.js';
import { ecsGensOf, gensOf } from './context.js';
import { ambientAirRoom } from './generators.js';
import { isFrenchWindow, isGlazedDoor, ROOF_WINDOW_SW, type Recipe } from './recipes.js';

export type WorksKey =
  | 'ISOLATION'
  | 'FENETRE'
  | 'PORTE'
  | 'ReplaceGEN'
  | 'VMC'
  | 'REGULATION'
  | 'EMETTEURS'
  | 'CALORIFUGEAGE';

export interface WorksOptionRow {
  category: Category;
  key: WorksKey;
  /** the technical value (`editableValue`) */
  code: string;
  label: string;
  recipe: Recipe;
  cost: CostKey;
  /** thickness eaten from the rooms, m (internal insulation only) */
  thickness?: number;
}

/** R of an insulation → its thickness with λ = 0.035 W/(m·K), plus 13 mm of plasterboard. */
function itiThickness(r: number): number {
  return Math.round((r * 0.035 + 0.013) * 1000) / 1000;
}

export const CATALOGUE: readonly WorksOptionRow[] = [
  // walls
  {
    category: 'mur',
    key: 'ISOLATION',
    code: 'IMurITE37',
    label: 'Isolation par l’extérieur (ITE), R = 3.7 m²·K/W',
    recipe: { kind: 'wall', position: 'ITE', r: 3.7 },
    cost: 'ite',
  },
  {
    category: 'mur',
    key: 'ISOLATION',
    code: 'IMurITE45',
    label: 'Isolation par l’extérieur (ITE), R = 4.5 m²·K/W',
    recipe: { kind: 'wall', position: 'ITE', r: 4.5 },
    cost: 'ite',
  },
  {
    category: 'mur',
    key: 'ISOLATION',
    code: 'IMurITI30',
    label: 'Isolation par l’intérieur (ITI), R = 3.0 m²·K/W',
    recipe: { kind: 'wall', position: 'ITI', r: 3.0 },
    cost: 'iti',
    thickness: itiThickness(3.0),
  },
  {
    category: 'mur',
    key: 'ISOLATION',
    code: 'IMurITI37',
    label: 'Isolation par l’intérieur (ITI), R = 3.7 m²·K/W',
    recipe: { kind: 'wall', position: 'ITI', r: 3.7 },
    cost: 'iti',
    thickness: itiThickness(3.7),
  },
  // roofs
  {
    category: 'plancher_haut',
    key: 'ISOLATION',
    code: 'IComblesR7',
    label: 'Isolation des combles perdus, R = 7 m²·K/W',
    recipe: { kind: 'roof', variant: 'combles', r: 7 },
    cost: 'combles',
  },
  {
    category: 'plancher_haut',
    key: 'ISOLATION',
    code: 'IRampantsR6',
    label: 'Isolation des rampants de toiture, R = 6 m²·K/W',
    recipe: { kind: 'roof', variant: 'rampants', r: 6 },
    cost: 'rampants',
  },
  {
    category: 'plancher_haut',
    key: 'ISOLATION',
    code: 'ITerrasseR45',
    label: 'Isolation de la toiture-terrasse par l’extérieur, R = 4.5 m²·K/W',
    recipe: { kind: 'roof', variant: 'terrasse', r: 4.5 },
    cost: 'toiture_terrasse',
  },
  {
    category: 'plancher_haut',
    key: 'ISOLATION',
    code: 'IPlafondR6',
    label: 'Isolation du plafond par l’intérieur (sous un local non chauffé), R = 6 m²·K/W',
    recipe: { kind: 'roof', variant: 'plafond', r: 6 },
    cost: 'plafond',
  },
  // floors
  {
    category: 'plancher_bas',
    key: 'ISOLATION',
    code: 'IPlancherR3',
    label: 'Isolation du plancher bas en sous-face, R = 3 m²·K/W',
    recipe: { kind: 'floor', r: 3 },
    cost: 'plancher_bas',
  },
  // windows
  {
    category: 'baie_vitree',
    key: 'FENETRE',
    code: 'PVC',
    label: 'Fenêtre double vitrage PVC (Uw 1.3)',
    recipe: { kind: 'window', vitrage: 'double', materiau: 'pvc', uw: 1.3 },
    cost: 'fenetre_pvc',
  },
  {
    category: 'baie_vitree',
    key: 'FENETRE',
    code: 'BOIS',
    label: 'Fenêtre double vitrage bois (Uw 1.3)',
    recipe: { kind: 'window', vitrage: 'double', materiau: 'bois', uw: 1.3 },
    cost: 'fenetre_bois',
  },
  {
    category: 'baie_vitree',
    key: 'FENETRE',
    code: 'ALU',
    label: 'Fenêtre double vitrage métal à rupture de pont thermique (Uw 1.4)',
    recipe: { kind: 'window', vitrage: 'double', materiau: 'metal', uw: 1.4 },
    cost: 'fenetre_alu',
  },
  {
    category: 'baie_vitree',
    key: 'FENETRE',
    code: 'TRIPLE',
    label: 'Fenêtre triple vitrage PVC (Uw 0.9)',
    recipe: { kind: 'window', vitrage: 'triple', materiau: 'pvc', uw: 0.9 },
    cost: 'fenetre_triple',
  },
  {
    category: 'baie_vitree',
    key: 'FENETRE',
    code: 'TOIT',
    label: 'Fenêtre de toit double vitrage à contrôle solaire (Uw 1.3, Sw 0.36)',
    // roof windows only (recipeFits); BAR-EN-104's roof level, priced as the PVC window per m²
    recipe: { kind: 'window', vitrage: 'double', materiau: 'pvc', uw: 1.3, sw: ROOF_WINDOW_SW },
    cost: 'fenetre_pvc',
  },
  // doors
  {
    category: 'porte',
    key: 'PORTE',
    code: 'PorteIsolee',
    label: 'Porte pleine isolée (U 1.5)',
    recipe: { kind: 'door', uporte: 1.5 },
    cost: 'porte',
  },
  // heating
  {
    category: 'installation_chauffage',
    key: 'ReplaceGEN',
    code: 'PACAirEau',
    label: 'Pompe à chaleur air/eau',
    recipe: { kind: 'heating', generator: 'pac-air-eau' },
    cost: 'pac_air_eau',
  },
  {
    category: 'installation_chauffage',
    key: 'ReplaceGEN',
    code: 'PACAirEauECS',
    label: 'Pompe à chaleur air/eau double service (chauffage + eau chaude)',
    recipe: { kind: 'heating', generator: 'pac-air-eau-ecs' },
    cost: 'pac_air_eau_ecs',
  },
  {
    category: 'installation_chauffage',
    key: 'ReplaceGEN',
    code: 'ChaudiereGazCondensation',
    label: 'Chaudière gaz à condensation',
    recipe: { kind: 'heating', generator: 'gaz-condensation' },
    cost: 'chaudiere_gaz_condensation',
  },
  {
    category: 'installation_chauffage',
    key: 'ReplaceGEN',
    code: 'ChaudiereGranules',
    label: 'Chaudière bois à granulés',
    recipe: { kind: 'heating', generator: 'granules' },
    cost: 'chaudiere_granules',
  },
  {
    category: 'installation_chauffage',
    key: 'ReplaceGEN',
    code: 'PACAirAir',
    label: 'Pompe à chaleur air/air (remplace des radiateurs électriques)',
    recipe: { kind: 'heating', generator: 'pac-air-air' },
    cost: 'pac_air_air',
  },
  {
    category: 'installation_chauffage',
    key: 'ReplaceGEN',
    code: 'PACAirAirAppareils',
    label: 'Pompe à chaleur air/air (remplace des poêles ou radiateurs gaz, fioul, charbon)',
    recipe: { kind: 'heating', generator: 'pac-air-air-appareils' },
    cost: 'pac_air_air',
  },
  {
    category: 'installation_chauffage',
    key: 'ReplaceGEN',
    code: 'PoeleGranules',
    label: 'Poêle à granulés Flamme Verte (remplace un poêle, un insert ou une cuisinière à bois)',
    recipe: { kind: 'heating', generator: 'poele-granules' },
    cost: 'poele_granules',
  },
  {
    category: 'installation_chauffage',
    key: 'ReplaceGEN',
    code: 'RadiateursElecNF',
    label: 'Radiateurs électriques NF*** programmables (remplacent des convecteurs)',
    recipe: { kind: 'heating', generator: 'radiateurs-nf' },
    cost: 'radiateurs_performants',
  },
  // collective heating (priced for the building; a flat's DPE pays its share)
  {
    category: 'installation_chauffage',
    key: 'ReplaceGEN',
    code: 'ChaufferieGazCondensation',
    label: 'Chaufferie collective gaz à condensation',
    recipe: { kind: 'heating', generator: 'gaz-condensation-collective' },
    cost: 'chaufferie_gaz_condensation',
  },
  {
    category: 'installation_chauffage',
    key: 'ReplaceGEN',
    code: 'PACAirEauCollective',
    label: 'Pompe à chaleur air/eau collective',
    recipe: { kind: 'heating', generator: 'pac-air-eau-collective' },
    cost: 'pac_air_eau_collective',
  },
  {
    category: 'installation_chauffage',
    key: 'REGULATION',
    code: 'RobinetsThermostatiques',
    label: 'Robinets thermostatiques et régulation pièce par pièce (réseau collectif)',
    recipe: { kind: 'distribution', work: 'robinets' },
    cost: 'robinets_thermostatiques',
  },
  {
    category: 'installation_chauffage',
    key: 'EMETTEURS',
    code: 'RadiateursBitubeRobinets',
    label: 'Remplacement des radiateurs (bitube, robinets thermostatiques)',
    recipe: { kind: 'distribution', work: 'emetteurs' },
    cost: 'emetteurs_radiateurs',
  },
  {
    category: 'installation_chauffage',
    key: 'CALORIFUGEAGE',
    code: 'CalorifugeageChauffage',
    label: 'Calorifugeage du réseau de chauffage collectif',
    recipe: { kind: 'distribution', work: 'calorifugeage-ch' },
    cost: 'calorifugeage_chauffage',
  },
  // No district-heating substation row: the engine (1.4.6) gives insulated (108) and
  // uninsulated (107) connections the same efficiency, so a substation alone shows no gain in
  // 3CL; district-heated buildings get pipe insulation, valves and emitters instead.
  // hot water
  {
    category: 'installation_ecs',
    key: 'CALORIFUGEAGE',
    code: 'CalorifugeageECS',
    label: 'Calorifugeage du réseau d’eau chaude collectif',
    recipe: { kind: 'distribution', work: 'calorifugeage-ecs' },
    cost: 'calorifugeage_ecs',
  },
  {
    category: 'installation_ecs',
    key: 'ReplaceGEN',
    code: 'CET',
    label: 'Chauffe-eau thermodynamique sur air ambiant',
    recipe: { kind: 'hot-water', generator: 'cet' },
    cost: 'cet',
  },
  {
    category: 'installation_ecs',
    key: 'ReplaceGEN',
    code: 'CETExterieur',
    label: 'Chauffe-eau thermodynamique sur air extérieur',
    recipe: { kind: 'hot-water', generator: 'cet-exterieur' },
    cost: 'cet_exterieur',
  },
  {
    category: 'installation_ecs',
    key: 'ReplaceGEN',
    code: 'BallonElectrique',
    label: 'Ballon électrique récent (catégorie C)',
    recipe: { kind: 'hot-water', generator: 'ballon-electrique' },
    cost: 'ballon_electrique',
  },
  {
    category: 'installation_ecs',
    key: 'ReplaceGEN',
    code: 'CESI',
    label: 'Chauffe-eau solaire individuel (appoint existant conservé)',
    recipe: { kind: 'hot-water', generator: 'cesi' },
    cost: 'cesi',
  },
  // collective hot water (a flat's DPE pays its own dwelling's figure)
  {
    category: 'installation_ecs',
    key: 'ReplaceGEN',
    code: 'PACCollectiveECS',
    label: 'Pompe à chaleur collective pour l’eau chaude sanitaire',
    recipe: { kind: 'hot-water', generator: 'pac-ecs-collective' },
    cost: 'pac_ecs_collective',
  },
  // ventilation
  {
    category: 'ventilation',
    key: 'VMC',
    code: 'VMCHygroB',
    label: 'VMC simple flux hygroréglable B',
    recipe: { kind: 'ventilation', typeId: '15' },
    cost: 'vmc_hygro_b',
  },
  {
    category: 'ventilation',
    key: 'VMC',
    code: 'VMCDoubleFlux',
    label: 'VMC double flux avec échangeur',
    recipe: { kind: 'ventilation', typeId: '20' },
    cost: 'vmc_double_flux',
  },
];

/** The door option's label on a door with glazing, which it replaces like for like. */
export const GLAZED_DOOR_LABEL = 'Porte isolée avec double vitrage (U 1.5)';

/**
 * An option's label on the element it is fitted to: a window option on a French window names a
 * French window ("Porte-fenêtre double vitrage PVC …", the new one keeps its type), the door
 * option on a glazed door an insulated glazed door (the recipe fits one: recipes.ts doorApply);
 * with the DPE, a water heater on ambient air where it stands, the unheated room the rule that
 * offers it found (generators.ts `ambientAirRoom`): "Chauffe-eau thermodynamique sur air
 * ambiant, au sous-sol non chauffé".
 */
/**
 * The independent fossil heaters an installation has, as the air/air heat pump's label names what
 * it replaces (2463E2639384I: a warm-air generator blowing through ducts was "des poêles ou
 * radiateurs"); the engine fits the heat pump's own indoor units (emitter 42), the ducts are not
 * reused. Undefined when it has none (the catalogue's generic label stands).
 */
function roomHeatersText(gens: readonly RawElement[]): string | undefined {
  const types = new Set(gens.map((g) => String(g.donnee_entree?.enum_type_generateur_ch_id ?? '')));
  const parts: string[] = [];
  if (['50', '51', '52'].some((t) => types.has(t)))
    parts.push('un générateur d’air chaud à combustion, gaines non réutilisées');
  if (types.has('53') || types.has('54')) parts.push('des radiateurs gaz indépendants');
  if (types.has('47')) parts.push('des poêles fioul, GPL ou charbon');
  return parts.length ? parts.join(' et ') : undefined;
}

export function labelOn(row: WorksOptionRow, el: RawElement, dpe?: RawDpe): string {
  if (row.recipe.kind === 'window' && row.label.startsWith('Fenêtre ') && isFrenchWindow(el))
    return `Porte-fenêtre ${row.label.slice('Fenêtre '.length)}`;
  if (row.recipe.kind === 'door' && isGlazedDoor(el)) return GLAZED_DOOR_LABEL;
  if (row.recipe.kind === 'heating' && row.recipe.generator === 'pac-air-air-appareils') {
    const replaced = roomHeatersText(gensOf(el as RawGeneratorHolder));
    if (replaced) return `Pompe à chaleur air/air à unités intérieures (remplace ${replaced})`;
  }
  if (dpe && row.recipe.kind === 'hot-water' && row.recipe.generator === 'cet') {
    const room = ambientAirRoom(dpe, ecsGensOf(el as RawGeneratorHolder));
    if (room) return `${row.label}, ${room}`;
  }
  return row.label;
}

export function optionsFor(category: Category): WorksOptionRow[] {
  return CATALOGUE.filter((r) => r.category === category);
}

export function findOption(
  category: Category,
  key: string,
  code: string,
): WorksOptionRow | undefined {
  return CATALOGUE.find((r) => r.category === category && r.key === key && r.code === code);
}

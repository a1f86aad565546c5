/**
 * How a works option changes an element's engine inputs. A recipe is data (`Recipe`, a kind and
 * its parameters, written in the catalogue); this module holds one modelling function per kind,
 * written from measurements on the engine (../shared/docs/engine-notes.md and the corpus tests).
 */
import type { Fields, RawDpe, RawElement, RawGeneratorHolder } from '../dpe/raw.js';
import { num, str } from '../dpe/raw.js';
// generators are modelled in generators.ts (the longest recipes)
import { heatingApplies, heatingApply, hotWaterApplies, hotWaterApply } from './generators.js';

export type Recipe =
  | { kind: 'wall'; position: 'ITE' | 'ITI'; r: number }
  | { kind: 'roof'; variant: 'combles' | 'rampants' | 'terrasse'; r: number }
  | { kind: 'floor'; r: number }
  | { kind: 'window'; vitrage: 'double' | 'triple'; materiau: 'pvc' | 'bois' | 'metal'; uw: number }
  | { kind: 'door'; uporte: number }
  | { kind: 'ventilation'; typeId: string }
  | { kind: 'heating'; generator: HeatingGenerator }
  | { kind: 'hot-water'; generator: HotWaterGenerator };

export type HeatingGenerator =
  'pac-air-eau' | 'pac-air-eau-ecs' | 'gaz-condensation' | 'granules' | 'pac-air-air';
export type HotWaterGenerator = 'cet' | 'cet-exterieur' | 'ballon-electrique';

export interface WorksContext {
  /** the DPE being modified (a copy) */
  dpe: RawDpe;
}

/** `true` when the recipe makes sense on the element, else the reason it is not offered. */
export type Applicability = true | string;

// ---------------------------------------------------------------------------- helpers

/** Thermal conductivity assumed to turn an insulation thickness into a resistance, W/(m·K). */
const LAMBDA = 0.04;
/** Surface resistances of a wall, m²·K/W (interior + exterior). */
const RSI_RSE = 0.17;
/** Latest insulation period id ("après 2021"). */
const PERIODE_RECENTE = '10';
const EXTERIEUR = '1';

function de(el: RawElement): Fields {
  return el.donnee_entree;
}

/** The insulation resistance an element already has, when its inputs say so. */
function existingResistance(d: Fields): number {
  const method = str(d.enum_methode_saisie_u_id);
  if (method === '5' || method === '6') return num(d.resistance_isolation) ?? 0;
  if (method === '3' || method === '4') {
    const e = num(d.epaisseur_isolation);
    return e ? e / 100 / LAMBDA : 0;
  }
  return 0;
}

/** Sets the element's insulation to a justified resistance (method 6), clearing stale inputs. */
function setResistance(d: Fields, r: number, typeIsolationId: string, uKeys: string[]): void {
  d.enum_methode_saisie_u_id = '6';
  d.resistance_isolation = Math.round(r * 100) / 100;
  d.enum_type_isolation_id = typeIsolationId;
  d.enum_periode_isolation_id = PERIODE_RECENTE;
  delete d.epaisseur_isolation;
  for (const k of uKeys) delete d[k];
  // "u0 not entered because u is known" cannot stand once u is computed again
  if (str(d.enum_methode_saisie_u0_id) === '5') d.enum_methode_saisie_u0_id = '2';
}

function currentU(el: RawElement, key: string): number | undefined {
  return num(el.donnee_intermediaire?.[key]);
}

/** Losses through the element are counted (b > 0). */
function hasLosses(el: RawElement): boolean {
  const b = num(el.donnee_intermediaire?.b);
  return b === undefined || b > 0;
}

// ---------------------------------------------------------------------------- envelope

function wallApplies(el: RawElement, r: Extract<Recipe, { kind: 'wall' }>): Applicability {
  const d = de(el);
  if (!hasLosses(el)) return 'this wall has no heat losses (b = 0)';
  if (r.position === 'ITE' && str(d.enum_type_adjacence_id) !== EXTERIEUR) {
    return 'external insulation only on walls facing the outside';
  }
  const existing = existingResistance(d);
  if (existing >= r.r) return `already insulated with R ${existing.toFixed(1)} ≥ ${r.r}`;
  const u = currentU(el, 'umur');
  if (u !== undefined && u <= 1 / (r.r + RSI_RSE))
    return `already better insulated (U ${u.toFixed(2)})`;
  return true;
}

function wallApply(el: RawElement, r: Extract<Recipe, { kind: 'wall' }>, ctx: WorksContext): void {
  const d = de(el);
  const existing = existingResistance(d);
  const wasIti = str(d.enum_type_isolation_id) === '3';
  if (r.position === 'ITE') {
    // over an existing internal insulation: cumulative resistance, type "iti+ite"
    const cumulative = wasIti && existing > 0;
    setResistance(d, cumulative ? existing + r.r : r.r, cumulative ? '6' : '4', [
      'umur_saisi',
      'tv_umur_id',
    ]);
    markReturnInsulation(ctx.dpe, str(d.reference));
  } else {
    setResistance(d, r.r, '3', ['umur_saisi', 'tv_umur_id']);
  }
}

/** ITE wraps the reveals of the windows and doors of the wall. */
function markReturnInsulation(dpe: RawDpe, wallRef: string | undefined): void {
  if (!wallRef) return;
  const env = dpe.logement?.enveloppe;
  for (const el of [
    ...(env?.baie_vitree_collection?.baie_vitree ?? []),
    ...(env?.porte_collection?.porte ?? []),
  ]) {
    if (str(el.donnee_entree.reference_paroi) === wallRef)
      el.donnee_entree.presence_retour_isolation = 1;
  }
}

const ROOF_ADJACENT_ATTIC = new Set(['11', '12', '13']);

function roofApplies(el: RawElement, r: Extract<Recipe, { kind: 'roof' }>): Applicability {
  const d = de(el);
  if (!hasLosses(el)) return 'this ceiling has no heat losses (b = 0)';
  const typeId = str(d.enum_type_plancher_haut_id);
  const attic = ROOF_ADJACENT_ATTIC.has(str(d.enum_type_adjacence_id) ?? '');
  const description = String(d.description ?? '').toLowerCase();
  const isTerrace =
    typeId !== undefined &&
    ['3', '4', '5', '6', '7', '8', '9', '10', '11', '12'].includes(typeId) &&
    description.includes('terrasse');
  if (r.variant === 'combles' && !attic && !description.includes('combles')) {
    return 'lost-attic insulation needs an attic above the ceiling';
  }
  if (r.variant === 'rampants' && attic)
    return 'sloped-roof insulation is for rooms under the roof';
  if (r.variant === 'terrasse' && !isTerrace) return 'roof-terrace insulation only on a flat roof';
  const existing = existingResistance(d);
  if (existing >= r.r) return `already insulated with R ${existing.toFixed(1)} ≥ ${r.r}`;
  const u = currentU(el, 'uph');
  if (u !== undefined && u <= 1 / (r.r + 0.14))
    return `already better insulated (U ${u.toFixed(2)})`;
  return true;
}

function roofApply(el: RawElement, r: Extract<Recipe, { kind: 'roof' }>): void {
  const d = de(el);
  const existing = existingResistance(d);
  setResistance(d, existing + r.r, r.variant === 'terrasse' ? '4' : '3', [
    'uph_saisi',
    'tv_uph_id',
  ]);
  if (r.variant === 'combles') d.enum_type_isolation_id = '3';
}

function floorApplies(el: RawElement, r: Extract<Recipe, { kind: 'floor' }>): Applicability {
  const d = de(el);
  if (!hasLosses(el)) return 'this floor has no heat losses (b = 0)';
  if (str(d.enum_type_adjacence_id) === '5')
    return 'a floor on the ground (terre-plein) cannot be insulated from underneath';
  const existing = existingResistance(d);
  if (existing >= r.r) return `already insulated with R ${existing.toFixed(1)} ≥ ${r.r}`;
  const u = currentU(el, 'upb');
  if (u !== undefined && u <= 1 / (r.r + 0.21))
    return `already better insulated (U ${u.toFixed(2)})`;
  return true;
}

function floorApply(el: RawElement, r: Extract<Recipe, { kind: 'floor' }>): void {
  const d = de(el);
  // entered as 'iti': the engine's 'ite' on a floor raises the floor/wall thermal bridge
  setResistance(d, existingResistance(d) + r.r, '3', ['upb_saisi', 'tv_upb_id']);
}

const MATERIAU_ID = { pvc: '5', bois: '3', metal: '6' } as const;

function windowApplies(el: RawElement, r: Extract<Recipe, { kind: 'window' }>): Applicability {
  if (!hasLosses(el)) return 'this window has no heat losses (b = 0)';
  const u = currentU(el, 'uw');
  if (u !== undefined && u <= r.uw)
    return `the window is already as good (Uw ${u.toFixed(2)} ≤ ${r.uw})`;
  return true;
}

function windowApply(el: RawElement, r: Extract<Recipe, { kind: 'window' }>): void {
  const d = de(el);
  d.enum_type_vitrage_id = r.vitrage === 'triple' ? '3' : '2';
  d.enum_type_materiaux_menuiserie_id = MATERIAU_ID[r.materiau];
  d.enum_type_gaz_lame_id = '2'; // argon
  d.epaisseur_lame = r.vitrage === 'triple' ? 12 : 16;
  d.vitrage_vir = 1;
  d.double_fenetre = 0;
  d.presence_joint = 1;
  // Uw entered from the manufacturer's documentation, the rest from the tables
  d.enum_methode_saisie_perf_vitrage_id = '13';
  d.uw_saisi = r.uw;
  for (const k of [
    'tv_uw_id',
    'tv_ug_id',
    'ug_saisi',
    'ujn_saisi',
    'tv_ujn_id',
    'sw_saisi',
    'tv_sw_id',
  ])
    delete d[k];
  // a survitrage or a double window is replaced by one new window
  delete d.double_fenetre_collection;
}

function doorApplies(el: RawElement, r: Extract<Recipe, { kind: 'door' }>): Applicability {
  if (!hasLosses(el)) return 'this door has no heat losses (b = 0)';
  const u = currentU(el, 'uporte');
  if (u !== undefined && u <= r.uporte)
    return `the door is already as good (U ${u.toFixed(2)} ≤ ${r.uporte})`;
  return true;
}

function doorApply(el: RawElement, r: Extract<Recipe, { kind: 'door' }>): void {
  const d = de(el);
  d.enum_type_porte_id = '13'; // toute menuiserie porte opaque pleine isolée
  d.enum_methode_saisie_uporte_id = '2';
  d.uporte_saisi = r.uporte;
  delete d.tv_uporte_id;
}

// ---------------------------------------------------------------------------- systems

function ventilationApplies(
  el: RawElement,
  r: Extract<Recipe, { kind: 'ventilation' }>,
): Applicability {
  const current = str(de(el).enum_type_ventilation_id);
  if (current === r.typeId) return 'this ventilation is already installed';
  // double flow is better than any single flow; hygro B is only offered over worse systems
  const doubleFlow = new Set(['19', '20', '21', '22']);
  if (current && doubleFlow.has(current)) return 'a double-flow ventilation is already installed';
  if (r.typeId === '15' && current && ['13', '14', '15', '18'].includes(current)) {
    return 'a hygro B single-flow ventilation is already installed';
  }
  return true;
}

function ventilationApply(el: RawElement, r: Extract<Recipe, { kind: 'ventilation' }>): void {
  const d = de(el);
  d.enum_type_ventilation_id = r.typeId;
  d.ventilation_post_2012 = 1;
  for (const k of ['tv_debits_ventilation_id', 'tv_q4pa_conv_id']) delete d[k];
  delete el.donnee_intermediaire;
}

export function applicability(recipe: Recipe, el: RawElement, ctx: WorksContext): Applicability {
  switch (recipe.kind) {
    case 'wall':
      return wallApplies(el, recipe);
    case 'roof':
      return roofApplies(el, recipe);
    case 'floor':
      return floorApplies(el, recipe);
    case 'window':
      return windowApplies(el, recipe);
    case 'door':
      return doorApplies(el, recipe);
    case 'ventilation':
      return ventilationApplies(el, recipe);
    case 'heating':
      return heatingApplies(el as RawGeneratorHolder, recipe.generator, ctx);
    case 'hot-water':
      return hotWaterApplies(el as RawGeneratorHolder, recipe.generator, ctx);
  }
}

export function applyRecipe(recipe: Recipe, el: RawElement, ctx: WorksContext): void {
  switch (recipe.kind) {
    case 'wall':
      return wallApply(el, recipe, ctx);
    case 'roof':
      return roofApply(el, recipe);
    case 'floor':
      return floorApply(el, recipe);
    case 'window':
      return windowApply(el, recipe);
    case 'door':
      return doorApply(el, recipe);
    case 'ventilation':
      return ventilationApply(el, recipe);
    case 'heating':
      return heatingApply(el as RawGeneratorHolder, recipe.generator, ctx);
    case 'hot-water':
      return hotWaterApply(el as RawGeneratorHolder, recipe.generator, ctx);
  }
}

/** Whether the recipe changes the envelope (then the inertia class is computed again). */
export function touchesEnvelope(recipe: Recipe): boolean {
  return ['wall', 'roof', 'floor', 'window', 'door'].includes(recipe.kind);
}

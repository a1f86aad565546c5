/**
 * How a works option changes an element's engine inputs. A recipe is data (`Recipe`, a kind and
 * its parameters, written in the catalogue); this module holds one modelling function per kind,
 * written from measurements on the engine (../shared/docs/engine-notes.md and the corpus tests).
 *
 * Design rules (found on the 194-DPE corpus, in both engine flag modes):
 * - Opaque elements (walls, roofs, floors) are written as "saisie direct U justifiée"
 *   (enum_methode_saisie_u_id 9) with a U computed from the engine's own baseline U:
 *     added insulation (ITE, lost attic, roof terrace, floor from underneath): U = 1/(1/U_now + R)
 *     replaced insulation (ITI, sloped roof from inside):                       U = 1/(1/U0 + R)
 *   This avoids three engine traps: plancher_haut U0 methods 3/4 give U = 0, the U0 tables have
 *   holes (plancher_haut type 15), and resistance methods re-apply the lining or "enduit isolant"
 *   on top of the U0.
 * - Every recipe derives its values from the baseline (`WorksContext.baseline`), and its enum
 *   mappings are fixed points: applying it twice gives the inputs of applying it once.
 * - Internal insulation (ITI, sloped roofs) can lighten the inertia class: see apply.ts.
 */
import type { Fields, RawDpe, RawElement, RawGeneratorHolder } from '../dpe/raw.js';
import {
  cleanRef,
  computedDi,
  envelopeList,
  n,
  s,
  type OpaqueKind,
  type WorksContext,
} from './context.js';
// generators are modelled in generators.ts (the longest recipes)
import type { Applicability, HeatingGenerator, HotWaterGenerator } from './generator-kinds.js';
import { heatingApplies, heatingApply, hotWaterApplies, hotWaterApply } from './generators.js';
import { distributionApplies, distributionApply, type DistributionWork } from './distribution.js';
import { editShared } from './frozen-copy.js';
import { entryOf } from './memo.js';

export type { WorksContext } from './context.js';
export { makeWorksContext } from './context.js';

export type Recipe =
  | { kind: 'wall'; position: 'ITE' | 'ITI'; r: number }
  | { kind: 'roof'; variant: RoofVariant; r: number }
  | { kind: 'floor'; r: number }
  | {
      kind: 'window';
      vitrage: 'double' | 'triple';
      materiau: 'pvc' | 'bois' | 'metal';
      uw: number;
      /** a roof window of this solar factor, entered (roof windows only) */
      sw?: number;
    }
  /** uporte: the table U of an insulated solid door (enum_type_porte_id 13) */
  | { kind: 'door'; uporte: number }
  | { kind: 'ventilation'; typeId: string }
  | { kind: 'heating'; generator: HeatingGenerator }
  | { kind: 'hot-water'; generator: HotWaterGenerator }
  | { kind: 'distribution'; work: DistributionWork };

export type RoofVariant = 'combles' | 'rampants' | 'terrasse' | 'plafond';
export type { Applicability, HeatingGenerator, HotWaterGenerator } from './generator-kinds.js';

// ---------------------------------------------------------------------------- opaque envelope

// enum_type_adjacence_id
const EXTERIEUR = '1';
const NON_DEPERDITIF = '22'; // local non déperditif (local à usage d'habitation chauffé)

// enum_cfg_isolation_lnc_id: the side between the dwelling and the unheated space becomes
// insulated: 2 → 4, 3 → 5, 9/10/11 (espace tampon solarisé N/S/EO) → 6/7/8. (b depends on it.)
const LNC_CFG_INSULATED: Record<string, string> = { 2: '4', 3: '5', 9: '6', 10: '7', 11: '8' };

// enum_type_isolation_id: 1 inconnu, 2 non isolé, 3 iti, 4 ite, 5 itr, 6 iti+ite, 7 iti+itr,
// 8 ite+itr, 9 isolé mais type d'isolation inconnu
const INTERNAL_TYPES = new Set(['3', '6', '7', '9']);
const EXTERNAL_TYPES = new Set(['4', '6', '8']);

const U_KEYS: Record<OpaqueKind, { u: string; u0: string; prefix: string }> = {
  mur: { u: 'umur', u0: 'umur0', prefix: 'umur' },
  plancher_haut: { u: 'uph', u0: 'uph0', prefix: 'uph' },
  plancher_bas: { u: 'upb', u0: 'upb0', prefix: 'upb' },
};

/**
 * New enum_type_isolation_id after adding insulation on the outside (a fixed point). 'inconnu'
 * on a wall is read as the engine's thermal-bridge code reads it: non isolé when the insulation
 * (or construction) period is before 1975, iti otherwise.
 */
function typeAfterExternal(prev: string, d: Fields, dpe: RawDpe, kind: OpaqueKind): string {
  if (EXTERNAL_TYPES.has(prev)) return prev;
  if (prev === '5') return '8'; // itr → ite+itr
  // floors / roofs: the engine reads 'inconnu' (after 1974) and 'isolé type inconnu' as ite
  if (kind !== 'mur' && (prev === '1' || prev === '9')) return '4';
  if (INTERNAL_TYPES.has(prev)) return '6'; // iti (or unknown type) → iti+ite
  if (prev === '1') {
    // enum_periode_isolation_id / enum_periode_construction_id 1 avant 1948, 2 1948-1974
    const p =
      s(d.enum_periode_isolation_id) ||
      s(dpe.logement?.caracteristique_generale?.enum_periode_construction_id);
    return p === '1' || p === '2' || p === '' ? '4' : '6';
  }
  return '4'; // non isolé → ite
}

/**
 * Whether an interior insulation keeps an opaque element's present insulation and adds to it
 * rather than starting from the bare U0: it adds to an external insulation (types 4, 6 and 8),
 * and starts from U0 on any other: a lining or an old interior insulation is taken down, and
 * insulation distributed in the masonry (5, isolation répartie: cellular concrete, insulating
 * bricks) is the wall's material, already in its U0, the U the DPE gives above it being the 3CL's
 * default for an insulated wall of its period; a DPE made after the works computes
 * 1/(1/U0 + R) (2374E2700849T: U0 0.7, U 0.5, after R 3.7 0.195). The audit says where a lining
 * is replaced (`liningReplacedOf`).
 */
export function interiorInsulationAdds(typeIsolation: string): boolean {
  return EXTERNAL_TYPES.has(typeIsolation);
}

/** New enum_type_isolation_id after (re)doing the insulation on the inside (a fixed point). */
function typeAfterInternal(prev: string): string {
  if (EXTERNAL_TYPES.has(prev)) return '6'; // ite (+itr) → iti+ite
  if (prev === '5' || prev === '7') return '7'; // itr → iti+itr
  return '3';
}

interface OpaqueState {
  /** the engine's U now */
  u: number;
  /** the engine's bare U (2.5, "type de paroi inconnu", when unknown) */
  u0: number;
  b: number;
  /** resistance equivalent to the present insulation */
  r: number;
}

function opaqueState(el: RawElement, ctx: WorksContext, kind: OpaqueKind): OpaqueState {
  const di = computedDi(el, ctx);
  const k = U_KEYS[kind];
  const u = n(di[k.u]);
  let u0 = n(di[k.u0]);
  if (!(u0 > 0)) u0 = Math.max(2.5, u);
  const r = u > 0 ? Math.max(0, 1 / u - 1 / u0) : NaN;
  return { u, u0, b: n(di.b), r };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** U after works: 'add' keeps the present insulation, 'replace' starts from the bare U0. */
function uAfter(st: OpaqueState, r: number, mode: 'add' | 'replace'): number {
  const base = mode === 'add' ? st.u : st.u0;
  return round3(Math.min(st.u, 1 / (1 / base + r)));
}

/** Writes U as "saisie direct U justifiée" and drops every input that would override it. */
function setSaisiU(d: Fields, prefix: string, u: number): void {
  d.enum_methode_saisie_u_id = '9';
  d[`${prefix}_saisi`] = u;
  // stale inputs: in bug-for-bug mode plancher_bas switches method when these exist
  delete d.epaisseur_isolation;
  delete d.resistance_isolation;
  delete d[`tv_${prefix}_id`]; // pins the effet-joule / period tables in bug-for-bug mode
  d.enum_periode_isolation_id = '10'; // après 2021
}

/** Common reasons an opaque element is not insulated, or undefined. */
function opaqueRefusal(
  el: RawElement,
  ctx: WorksContext,
  kind: OpaqueKind,
  r: number,
  what: string,
): string | undefined {
  if (!(n(el.donnee_entree.surface_paroi_opaque) > 0)) return `this ${what} has no opaque area`;
  const st = opaqueState(el, ctx, kind);
  if (!(st.b > 0)) return `this ${what} has no heat losses (b = 0)`;
  if (!(st.u > 0)) return `the engine computes no U for this ${what}`;
  if (st.r >= r) return `already insulated with R ${st.r.toFixed(1)} ≥ ${r}`;
  return undefined;
}

function insulateOpaque(
  el: RawElement,
  ctx: WorksContext,
  kind: OpaqueKind,
  r: number,
  mode: 'ITE' | 'ITI',
): void {
  const d = el.donnee_entree;
  const st = opaqueState(el, ctx, kind);
  const prev = s(d.enum_type_isolation_id) || '1';
  const add = mode === 'ITE' || interiorInsulationAdds(prev);
  // read before setSaisiU overwrites the insulation period
  const type = mode === 'ITE' ? typeAfterExternal(prev, d, ctx.dpe, kind) : typeAfterInternal(prev);
  setSaisiU(d, U_KEYS[kind].prefix, uAfter(st, r, add ? 'add' : 'replace'));
  d.enum_type_isolation_id = type;
  // enum_type_doublage_id 2 "absence de doublage": the old lining is replaced by the ITI complex
  if (mode === 'ITI' && kind === 'mur') d.enum_type_doublage_id = '2';
  const lnc = LNC_CFG_INSULATED[s(d.enum_cfg_isolation_lnc_id)];
  if (lnc) d.enum_cfg_isolation_lnc_id = lnc;
}

// ---------------------------------------------------------------------------- walls

/** Windows and doors in a wall: by reference_paroi, or by a "menuiserie / mur" thermal bridge. */
export function openingsOfWall(mur: RawElement, dpe: RawDpe): RawElement[] {
  const ref = cleanRef(mur.donnee_entree.reference);
  if (!ref) return [];
  const linked = new Set<string>();
  for (const pt of envelopeList(dpe, 'pont_thermique')) {
    const p = pt.donnee_entree;
    if (s(p.enum_type_liaison_id) !== '5') continue; // 5 menuiserie / mur
    const r1 = cleanRef(p.reference_1);
    const r2 = cleanRef(p.reference_2);
    if (r1 === ref && r2) linked.add(r2);
    if (r2 === ref && r1) linked.add(r1);
  }
  return [...envelopeList(dpe, 'baie_vitree'), ...envelopeList(dpe, 'porte')].filter(
    (o) =>
      cleanRef(o.donnee_entree.reference_paroi) === ref ||
      linked.has(cleanRef(o.donnee_entree.reference)),
  );
}

/**
 * ITE (added) only on walls facing the outside; ITI (replaces any lining or old internal
 * insulation) on any wall with losses except onto a heated room.
 */
function wallApplies(
  el: RawElement,
  r: Extract<Recipe, { kind: 'wall' }>,
  ctx: WorksContext,
): Applicability {
  const adj = s(el.donnee_entree.enum_type_adjacence_id);
  if (adj === NON_DEPERDITIF) return 'this wall has no heat losses (onto a heated room)';
  if (r.position === 'ITE' && adj !== EXTERIEUR)
    return 'external insulation only on walls facing the outside';
  return opaqueRefusal(el, ctx, 'mur', r.r, 'wall') ?? true;
}

type OpeningKind = 'baie_vitree' | 'porte';
const OPENING_KINDS: readonly OpeningKind[] = ['baie_vitree', 'porte'];

/** The positions in `dpe`'s window and door lists of the openings of its wall `wall`. */
function openingPositionsIn(dpe: RawDpe, wall: RawElement): Record<OpeningKind, number[]> {
  const openings = new Set(openingsOfWall(wall, dpe));
  const at: Record<OpeningKind, number[]> = { baie_vitree: [], porte: [] };
  for (const kind of OPENING_KINDS)
    envelopeList(dpe, kind).forEach((o, j) => {
      if (openings.has(o)) at[kind].push(j);
    });
  return at;
}

/**
 * The openings of each wall, by position, found on the DPE the works start from when the context
 * knows it (they depend only on references, which works never change): once per DPE and wall,
 * not at every works run.
 */
const openingPositions = new WeakMap<RawDpe, Map<number, Record<OpeningKind, number[]>>>();

function openingsAt(ctx: WorksContext, wallIndex: number): Record<OpeningKind, number[]> {
  const dpe = ctx.original ?? ctx.dpe;
  return entryOf(
    entryOf(openingPositions, dpe, () => new Map()),
    wallIndex,
    () => openingPositionsIn(dpe, envelopeList(dpe, 'mur')[wallIndex]!),
  );
}

function insulateReveals(wallIndex: number, ctx: WorksContext): void {
  // the reveals are insulated with the wall (thermal bridge "menuiserie / mur"; for ITE without
  // it, k 0.9 for windows "nu intérieur", i.e. worse than before the works)
  const at = openingsAt(ctx, wallIndex);
  for (const kind of OPENING_KINDS) {
    const list = envelopeList(ctx.dpe, kind);
    // (an opening the works copy shares: a frozen copy with the reveals insulated, works-copy.ts)
    for (const j of at[kind])
      editShared(list, j, 'presence_retour_isolation', (x) => {
        x.donnee_entree.presence_retour_isolation = 1;
      });
  }
}

// ---------------------------------------------------------------------------- roofs

// enum_type_plancher_haut_id 8 dalle béton, 11 plafond lourd entrevous, 16 bac acier,
// 12 combles aménagés sous rampant, 13 chaume; adjacency 11/12/13 comble (très) (faiblement) ventilé
const ROOF_HEAVY_OR_FLAT = new Set(['8', '11', '16']);
const ROOF_COMBLES_ADJ = new Set(['11', '12', '13']);
// a ceiling under an unheated space other than an attic, insulated from the dwelling's side: 4/20
// other-use premises, 6 sous-sol, 7 locaux non chauffés non accessibles (lofts the DPE does not
// class as an attic: "Plafond sous greniers"), 8 garage, 9 cellier, 10 espace tampon, 14-18
// circulations and halls, 19 garage collectif, 21 autres dépendances. Not 22 (a heated room: no
// losses) nor 2, 3, 5 (ground adjacencies a ceiling cannot have).
const CEILING_UNHEATED_ADJ = new Set([
  ...['4', '6', '7', '8', '9', '10'],
  ...Array.from({ length: 8 }, (_, i) => String(14 + i)), // 14 to 21
]);

/**
 * 'combles' (lost attic floor), 'rampants' (sloped roof), 'terrasse' (flat roof), 'plafond' (a
 * ceiling under an unheated space, insulated from below) or null.
 */
export function roofKind(el: RawElement): RoofVariant | null {
  const d = el.donnee_entree;
  const type = s(d.enum_type_plancher_haut_id);
  const adj = s(d.enum_type_adjacence_id);
  if (CEILING_UNHEATED_ADJ.has(adj)) return 'plafond';
  if (type === '12') return adj === EXTERIEUR || ROOF_COMBLES_ADJ.has(adj) ? 'rampants' : null;
  if (ROOF_COMBLES_ADJ.has(adj)) return 'combles';
  if (adj === EXTERIEUR) {
    if (ROOF_HEAVY_OR_FLAT.has(type)) return 'terrasse';
    if (type === '13') return null; // thatched roof
    // a light ceiling under a terrace, in the DPE's own words: LICIEL files the outside above a
    // ceiling as "donnant sur l'extérieur (terrasse)" or "(combles aménagés)" (3 light ceilings of
    // the 290 registry DPEs we have say terrace, on timber joists or of unknown structure)
    if (/\bterrasse\b/i.test(String(d.description ?? ''))) return 'terrasse';
    return 'combles'; // a light ceiling "onto the outside": software usually means a lost attic
  }
  return null; // under another dwelling (a heated room: no losses)
}

const ROOF_REFUSAL: Record<RoofVariant, string> = {
  combles: 'lost-attic insulation needs an attic above the ceiling',
  rampants: 'sloped-roof insulation is for rooms under the roof',
  terrasse: 'roof-terrace insulation only on a flat roof',
  plafond: 'ceiling insulation from below is for a ceiling under an unheated space',
};

function roofApplies(
  el: RawElement,
  r: Extract<Recipe, { kind: 'roof' }>,
  ctx: WorksContext,
): Applicability {
  const kind = roofKind(el);
  if (kind === null)
    return 'no roof insulation under a heated room (no losses) or on a thatched roof';
  if (kind !== r.variant) return ROOF_REFUSAL[r.variant];
  return opaqueRefusal(el, ctx, 'plancher_haut', r.r, 'ceiling') ?? true;
}

function roofApply(el: RawElement, r: Extract<Recipe, { kind: 'roof' }>, ctx: WorksContext): void {
  // lost attic and roof terrace: added on the outside; sloped roof: replaced from inside; a
  // ceiling under an unheated space: from below, inside the dwelling
  const inside = r.variant === 'rampants' || r.variant === 'plafond';
  insulateOpaque(el, ctx, 'plancher_haut', r.r, inside ? 'ITI' : 'ITE');
}

// ---------------------------------------------------------------------------- floors

// adjacencies whose underside can be reached: 1 extérieur (pilotis), 3 vide sanitaire, 6 sous-sol
// non chauffé, 8 garage, 9 cellier, 14-18 circulations / halls, 19 garage privé collectif,
// 21 autres dépendances. Not: 5 terre-plein, 2 paroi enterrée, 4/20 other-use premises,
// 7 non-accessible, 10 espace tampon, 22 heated room.
const FLOOR_UNDERSIDE_ADJ = new Set([
  '1',
  '3',
  '6',
  '8',
  '9',
  '14',
  '15',
  '16',
  '17',
  '18',
  '19',
  '21',
]);

/**
 * Why a floor over a space the works cannot reach from underneath takes none, by its adjacency
 * (2463E2639384I: a flat over a shop, where "an accessible space" was said of premises one can
 * walk into).
 */
const FLOOR_REFUSAL: Readonly<Record<string, string>> = {
  '2': 'a floor against the ground (paroi enterrée) cannot be insulated from underneath',
  '4': 'the space below is premises of another use (bâtiment ou local à usage autre que d’habitation): insulating its ceiling needs their owner’s agreement, and insulation laid on the floor is not in the catalogue',
  '20': 'the space below is commercial premises in the building (local tertiaire): insulating its ceiling needs their owner’s agreement, and insulation laid on the floor is not in the catalogue',
  '7': 'the space below is filed as not accessible (locaux non chauffés non accessibles): floor insulation from underneath needs access to it',
  '10': 'the space below is a sunspace (espace tampon solarisé): floor insulation from underneath is not in the catalogue there',
};

function floorApplies(
  el: RawElement,
  r: Extract<Recipe, { kind: 'floor' }>,
  ctx: WorksContext,
): Applicability {
  const adj = s(el.donnee_entree.enum_type_adjacence_id);
  if (adj === '5') return 'a floor on the ground (terre-plein) cannot be insulated from underneath';
  if (!FLOOR_UNDERSIDE_ADJ.has(adj))
    return FLOOR_REFUSAL[adj] ?? 'floor insulation from underneath needs an accessible space below';
  return opaqueRefusal(el, ctx, 'plancher_bas', r.r, 'floor') ?? true;
}

/**
 * Insulation from underneath, laid with a return down the walls below (the practice that treats
 * the floor/wall junction): the floor keeps the insulation type the 3CL thermal-bridge table
 * reads. Written as "ITE" (insulated underneath), the table raises the "plancher bas / mur" k
 * along every wall the floor meets (0.39 → 0.80 W/m·K on an uninsulated wall, 0.31 → 0.71 on an
 * ITI wall), while the floor's gain over a basement or crawl space is small once the Ue table
 * takes it (2287E0272588O: Ue 0.43 → 0.25 on 23 m², k × l 14.9 → 31.5 W/K, +745 kWh/yr of
 * primary energy). The type is read by nothing else the floor's works change: its U is entered
 * (method 9, `setSaisiU`), the inertia rules class types 1 (inconnu), 2 (non isolé) and 4 (ITE)
 * alike, and Q4Pa,conv reads walls and roofs only. An 'inconnu' floor the table read as "non
 * isolé" (insulation period before 1975) is written "non isolé": the works write the period
 * after 2021, which would make the table read it "ITE". The floor's U, Ue and b then only fall: the works never
 * raise consumption (test/corpus.test.ts).
 */
function floorApply(
  el: RawElement,
  r: Extract<Recipe, { kind: 'floor' }>,
  ctx: WorksContext,
): void {
  const d = el.donnee_entree;
  // the type as the table read it: 'inconnu' isolated before 1975 is read "non isolé" (after,
  // "ite"), and the works write the insulation period after 2021
  const prev = s(d.enum_type_isolation_id);
  const period =
    s(d.enum_periode_isolation_id) ||
    s(ctx.dpe.logement?.caracteristique_generale?.enum_periode_construction_id);
  const read = prev === '1' && (period === '1' || period === '2') ? '2' : prev;
  // upb (before the Ue table of crawl spaces / basements) is the value entered
  insulateOpaque(el, ctx, 'plancher_bas', r.r, 'ITE');
  if (read === '') delete d.enum_type_isolation_id;
  else d.enum_type_isolation_id = read;
}

// ---------------------------------------------------------------------------- windows, doors

const VITRAGE_ID = { double: '2', triple: '3' } as const;
/** Uw of the catalogue's new double-glazed windows */
const NEW_DOUBLE_GLAZING_UW = 1.3;
/**
 * The solar factor of the catalogue's roof window (`TOIT`): CEE sheet BAR-EN-104 asks a roof
 * window Uw ≤ 1.5 with Sw ≤ 0.36 (against summer overheating), where the 3CL tables give new
 * double glazing in a sloping frame 0.38–0.42. The option installs a product at the sheet's level
 * (solar-control glazing), its Sw entered as from the maker's documents.
 */
export const ROOF_WINDOW_SW = 0.36;

/** A roof window: a window sloping less than 75° (enum_inclinaison_vitrage_id 1 or 2). */
export function isRoofWindow(el: RawElement): boolean {
  const i = s(el.donnee_entree.enum_inclinaison_vitrage_id);
  return i === '1' || i === '2';
}

/** Whether an option's recipe is meant for this element at all (a roof window's for roof windows). */
export function recipeFits(recipe: Recipe, el: RawElement): boolean {
  return recipe.kind !== 'window' || recipe.sw === undefined || isRoofWindow(el);
}
const MATERIAU_ID = { pvc: '5', bois: '3', metal: '6' } as const; // 6 métal avec rupture de pont thermique

function windowApplies(
  el: RawElement,
  r: Extract<Recipe, { kind: 'window' }>,
  ctx: WorksContext,
): Applicability {
  const d = el.donnee_entree;
  if (!recipeFits(r, el)) return 'a roof window: for windows sloping less than 75°';
  // enum_type_baie_id 1-3: glass-brick / polycarbonate walls; enum_type_vitrage_id 5/6 likewise
  if (
    ['1', '2', '3'].includes(s(d.enum_type_baie_id)) ||
    ['5', '6'].includes(s(d.enum_type_vitrage_id))
  )
    return 'glass-brick and polycarbonate walls are not replaced by windows';
  if (!(n(d.surface_totale_baie) > 0)) return 'this window has no area';
  const di = computedDi(el, ctx);
  if (!(n(di.b) > 0)) return 'this window has no heat losses (b = 0)';
  const uw = n(di.uw); // includes a double window
  if (!Number.isFinite(uw)) return 'the engine computes no Uw for this window';
  // A window as good as new double glazing (within 0.1: Uw 1.4 at most) is recent: it is not
  // replaced, not even by triple glazing, whose lower solar factor then costs more gains than the
  // better Uw saves (seen on the corpus: a south window at Uw 1.1, an east one at 1.3); a metal
  // window (Uw 1.4) replaces one from Uw 1.5. (Written as comparisons to the tenth: before, 1.3 +
  // 0.1 was 1.4000000000000001 in floating point, and a window at Uw 1.4 read "already as good
  // (Uw 1.40; replaced from Uw 1.4)". The audit's items rest on it: at Uw 1.4 its item says why,
  // instead of paths replacing near-new windows to treat it; 2287E1308066Q, 2378E0077464M.)
  const asGood = Math.round((NEW_DOUBLE_GLAZING_UW + 0.1) * 10) / 10;
  if (uw <= asGood)
    return `the window is already as good as new double glazing (Uw ${uw.toFixed(2)}; replaced above Uw ${asGood.toFixed(1)})`;
  const from = Math.round((r.uw + 0.1) * 10) / 10;
  if (uw < from)
    return `the window is already as good as this one (Uw ${uw.toFixed(2)}; replaced from Uw ${from.toFixed(1)})`;
  return true;
}

function windowApply(el: RawElement, r: Extract<Recipe, { kind: 'window' }>): void {
  const d = el.donnee_entree;
  d.enum_type_vitrage_id = VITRAGE_ID[r.vitrage];
  d.enum_type_gaz_lame_id = '2'; // argon ou krypton
  d.epaisseur_lame = 16;
  d.vitrage_vir = 1; // low emissivity
  d.enum_type_materiaux_menuiserie_id = MATERIAU_ID[r.materiau];
  d.enum_methode_saisie_perf_vitrage_id = '13'; // Uw entered, Ujn and Sw from the tables
  d.uw_saisi = r.uw;
  d.double_fenetre = 0;
  d.presence_joint = 1;
  if (!s(d.enum_inclinaison_vitrage_id)) d.enum_inclinaison_vitrage_id = '3'; // > 75° (Ug table)
  for (const k of [
    'ug_saisi',
    'ujn_saisi',
    'sw_saisi',
    'uw_1',
    'sw_1',
    'uw_2',
    'sw_2',
    'tv_ug_id',
    'tv_uw_id',
    'tv_sw_id',
    'tv_ujn_id',
  ])
    delete d[k];
  if (r.sw !== undefined) {
    d.enum_methode_saisie_perf_vitrage_id = '8'; // Uw and Sw entered, Ujn from the tables
    d.sw_saisi = r.sw;
  }
  // a double window is replaced by one new window
  delete el.baie_vitree_double_fenetre;
}

function doorApplies(
  el: RawElement,
  r: Extract<Recipe, { kind: 'door' }>,
  ctx: WorksContext,
): Applicability {
  if (!(n(el.donnee_entree.surface_porte) > 0)) return 'this door has no area';
  const di = computedDi(el, ctx);
  if (!(n(di.b) > 0)) return 'this door has no heat losses (b = 0)';
  const u = n(di.uporte);
  if (!Number.isFinite(u)) return 'the engine computes no U for this door';
  if (u < r.uporte + 0.2) return `the door is already as good (U ${u.toFixed(2)} vs ${r.uporte})`;
  return true;
}

// enum_type_porte_id of doors with glazing: wood 2-4, PVC 6-8, metal 10-12, "porte isolée avec
// double vitrage" 15
const GLAZED_DOORS = new Set(['2', '3', '4', '6', '7', '8', '10', '11', '12', '15']);
// enum_type_baie_id of French windows: sliding, hinged without and with a low panel
const FRENCH_WINDOWS = new Set(['6', '7', '8']);

/** A door with glazing in the DPE (`enum_type_porte_id`): its replacement is glazed too. */
export function isGlazedDoor(el: RawElement): boolean {
  return GLAZED_DOORS.has(s(el.donnee_entree.enum_type_porte_id));
}

/** A French window (porte-fenêtre) in the DPE (`enum_type_baie_id` 6-8), which a new one keeps. */
export function isFrenchWindow(el: RawElement): boolean {
  return FRENCH_WINDOWS.has(s(el.donnee_entree.enum_type_baie_id));
}

function doorApply(el: RawElement): void {
  const d = el.donnee_entree;
  // like for like: an insulated door, glazed where the old one was (the 3CL table gives both U
  // 1.5: "porte opaque pleine isolée" 13, "porte isolée avec double vitrage" 15)
  d.enum_type_porte_id = isGlazedDoor(el) ? '15' : '13';
  d.enum_methode_saisie_uporte_id = '1'; // valeur forfaitaire
  d.presence_joint = 1;
  delete d.uporte_saisi;
  delete d.tv_uporte_id;
}

// ---------------------------------------------------------------------------- ventilation

// enum_type_ventilation_id: 13-15 / 18 hygro B, 19-24 double flux, 35-38 puits climatiques
const VENT_HYGRO_B_OR_BETTER = new Set([
  '13',
  '14',
  '15',
  '18',
  '19',
  '20',
  '21',
  '22',
  '23',
  '24',
  '35',
  '36',
  '37',
  '38',
]);
const VENT_DF_OR_BETTER = new Set(['19', '20', '21', '22', '37', '38']);
/** systems as good as or better than the one a recipe installs */
const VENT_ALREADY: Record<string, ReadonlySet<string>> = {
  '15': VENT_HYGRO_B_OR_BETTER,
  '20': VENT_DF_OR_BETTER,
};

function ventilationApplies(
  el: RawElement,
  r: Extract<Recipe, { kind: 'ventilation' }>,
): Applicability {
  const current = s(el.donnee_entree.enum_type_ventilation_id);
  if (current === r.typeId || VENT_ALREADY[r.typeId]?.has(current))
    return 'an equivalent or better ventilation is already installed';
  return true;
}

function ventilationApply(el: RawElement, r: Extract<Recipe, { kind: 'ventilation' }>): void {
  const d = el.donnee_entree;
  d.enum_type_ventilation_id = r.typeId;
  d.ventilation_post_2012 = 1;
  delete d.tv_debits_ventilation_id;
  // the Q4Pa,conv row stays: its criteria (period, kind of DPE, insulated surfaces, window
  // joints) are the envelope's, not the ventilation's, and bug-for-bug mode keeps the row the DPE
  // declares (correction q4pa-conv-declared): dropping it here gave the works the engine's own
  // row against a baseline on the declared one (2125E0981916Z: a hygro B VMC 'adding' 7 013
  // kWh/yr); envelope works that flip the criteria drop it (airtightness.ts)
}

// ---------------------------------------------------------------------------- dispatch

type Of<K extends Recipe['kind']> = Extract<Recipe, { kind: K }>;

/**
 * Each kind's functions: whether it applies to an element, and how it changes it. An envelope
 * recipe's `own` is its edit of its own element: it reads the element, its counterpart in the
 * baseline output (`computedDi`, through `originOf` for an edited copy) and the DPE's general
 * data (`typeAfterExternal`'s construction period), nothing that works change (a wall's reveals
 * are edited apart, `insulateReveals`); the others' `apply` writes into their element (and, for
 * generators, across the installations the works copy owns).
 */
type Handlers = {
  [K in Recipe['kind']]: {
    applies: (el: RawElement, r: Of<K>, ctx: WorksContext) => Applicability;
  } & (
    | { own: (el: RawElement, r: Of<K>, ctx: WorksContext) => void }
    | { apply: (el: RawElement, r: Of<K>, ctx: WorksContext) => void }
  );
};

const HANDLERS: Handlers = {
  wall: {
    applies: wallApplies,
    own: (el, r, ctx) => insulateOpaque(el, ctx, 'mur', r.r, r.position),
  },
  roof: { applies: roofApplies, own: roofApply },
  floor: { applies: floorApplies, own: floorApply },
  window: { applies: windowApplies, own: windowApply },
  door: { applies: doorApplies, own: doorApply },
  ventilation: { applies: ventilationApplies, apply: ventilationApply },
  heating: {
    applies: (el, r, ctx) => heatingApplies(el as RawGeneratorHolder, r.generator, ctx),
    apply: (el, r, ctx) => heatingApply(el as RawGeneratorHolder, r.generator, ctx),
  },
  'hot-water': {
    applies: (el, r, ctx) => hotWaterApplies(el as RawGeneratorHolder, r.generator, ctx),
    apply: (el, r, ctx) => hotWaterApply(el as RawGeneratorHolder, r.generator, ctx),
  },
  distribution: {
    applies: (el, r) => distributionApplies(el as RawGeneratorHolder, r.work),
    apply: (el, r) => distributionApply(el as RawGeneratorHolder, r.work),
  },
};

/** A kind's handlers as a recipe of that kind calls them. */
interface RecipeHandlers {
  applies: (el: RawElement, r: Recipe, ctx: WorksContext) => Applicability;
  own?: (el: RawElement, r: Recipe, ctx: WorksContext) => void;
  apply?: (el: RawElement, r: Recipe, ctx: WorksContext) => void;
}

/** The handlers of the recipe's kind (TypeScript cannot pair a kind's entry with its recipe). */
function handlersOf(recipe: Recipe): RecipeHandlers {
  return HANDLERS[recipe.kind] as unknown as RecipeHandlers;
}

export function applicability(recipe: Recipe, el: RawElement, ctx: WorksContext): Applicability {
  return handlersOf(recipe).applies(el, recipe, ctx);
}

/**
 * The key of a recipe's edited copies on a baseline output (one per prepared DPE): its number
 * and the recipe's text (recipes are the catalogue's constants), the same string each time.
 */
const editKeys = new WeakMap<RawDpe, { id: number; keys: Map<Recipe, string> }>();
let nextBaselineId = 1;

function editKey(recipe: Recipe, baseline: RawDpe): string {
  let on = editKeys.get(baseline);
  if (on === undefined) editKeys.set(baseline, (on = { id: nextBaselineId++, keys: new Map() }));
  let key = on.keys.get(recipe);
  if (key === undefined) on.keys.set(recipe, (key = `recipe ${on.id} ${JSON.stringify(recipe)}`));
  return key;
}

/**
 * Whether the recipe puts a frozen edited copy in place of its element (`applyRecipeAt`): the
 * works copy then need not own that element (works-copy.ts).
 */
export function editsSharedCopy(recipe: Recipe): boolean {
  return handlersOf(recipe).own !== undefined;
}

/**
 * Applies `recipe` to `list[i]` of the DPE being modified. An envelope element the works copy
 * shares with the frozen original (works-copy.ts) is replaced by a frozen copy of it so edited,
 * made once per element, recipe and baseline (frozen-copy.ts `editShared`; the edit reads
 * nothing else: its kind's `own`), so that every run meets the same object, which the engine's element
 * memo knows (src/engine/patches/memo/); the other elements it writes into (a wall's
 * reveals) are edited after it, at each run, as before.
 */
export function applyRecipeAt(
  recipe: Recipe,
  list: RawElement[],
  i: number,
  ctx: WorksContext,
): void {
  const { own, apply } = handlersOf(recipe);
  if (own === undefined) return apply?.(list[i] as RawElement, recipe, ctx);
  editShared(list, i, editKey(recipe, ctx.baseline), (x) => own(x, recipe, ctx));
  if (recipe.kind === 'wall') insulateReveals(i, ctx);
}

/**
 * Internal insulation (ITI, sloped roof from inside): it can make a heavy element light, so the
 * inertia class is moved towards "lighter" (apply.ts). External insulation never lightens the mass.
 */
export function isInternalInsulation(recipe: Recipe): boolean {
  return (
    (recipe.kind === 'wall' && recipe.position === 'ITI') ||
    (recipe.kind === 'roof' && recipe.variant === 'rampants')
  );
}

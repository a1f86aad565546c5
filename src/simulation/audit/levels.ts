/**
 * The aids' levels (rules as data): what works an audit proposes must install so that the owner
 * can finance them (CEE standardised sheets, MaPrimeRénov'), and the level at which an existing
 * element needs no works. Sources and dates: docs/audit.md, "The aids' levels".
 *
 * `initial` keeps the whole catalogue; the audit proposes only the options that meet these.
 */
import type { Category } from '../../contract/schemas.js';
import type { RawElement } from '../../dpe/raw.js';
import { num } from '../../dpe/raw.js';
import type { WorksOptionRow } from '../../works/catalogue.js';
import { isRoofWindow, ROOF_WINDOW_SW, roofKind } from '../../works/recipes.js';

export { isRoofWindow };

export interface OpaqueLevel {
  /** the CEE sheet */
  sheet: string;
  /** the minimum thermal resistance of the insulation installed, m²·K/W */
  r: number;
  /**
   * an existing element whose own resistance (1/U − the surface resistances) is at least this
   * needs no works: the level the RT "existant élément par élément" asked of an insulated element
   * from 2007 (arrêté du 3 mai 2007, article 3): walls 2.3, lost attics 4.5, slopes 4, terraces
   * 2.5, low floors 2
   */
  existingR: number;
  /**
   * what the same RT has asked of insulation works since 1 January 2018 (arrêté du 22 mars 2017)
   * in zones H1, H2 and H3 above 800 m: walls 2.9, lost attics 4.8, slopes 4.4, terraces 3.3, low
   * floors 2.7; said beside the reason, the threshold stays `existingR` (docs/audit.md)
   */
  rt2018: number;
  /** ... in zone H3 below 800 m, where the arrêté asks less of walls (2.2) and low floors (2.1) */
  rt2018H3?: number;
  /** Rsi + Rse of the element (NF EN ISO 6946): walls 0.17, roofs 0.14, floors 0.21 */
  surfaces: number;
  label: string;
}

export const OPAQUE_LEVELS = {
  wall: {
    sheet: 'BAR-EN-102',
    r: 3.7,
    existingR: 2.3,
    rt2018: 2.9,
    rt2018H3: 2.2,
    surfaces: 0.17,
    label: 'walls',
  },
  combles: {
    sheet: 'BAR-EN-101',
    r: 7,
    existingR: 4.5,
    rt2018: 4.8,
    surfaces: 0.14,
    label: 'lost attic',
  },
  rampants: {
    sheet: 'BAR-EN-101',
    r: 6,
    existingR: 4,
    rt2018: 4.4,
    surfaces: 0.14,
    label: 'roof slopes',
  },
  // a ceiling under an unheated space, insulated from below: the level BAR-EN-101 asks of an
  // attic's ceiling (plafond de combles, with the slopes); the 2017 arrêté's roof-slope figure
  plafond: {
    sheet: 'BAR-EN-101',
    r: 6,
    existingR: 4,
    rt2018: 4.4,
    surfaces: 0.2,
    label: 'ceiling under an unheated space',
  },
  terrasse: {
    sheet: 'BAR-EN-105',
    r: 4.5,
    existingR: 2.5,
    rt2018: 3.3,
    surfaces: 0.14,
    label: 'roof terrace',
  },
  floor: {
    sheet: 'BAR-EN-103',
    r: 3,
    existingR: 2,
    rt2018: 2.7,
    rt2018H3: 2.1,
    surfaces: 0.21,
    label: 'low floor',
  },
} as const satisfies Record<string, OpaqueLevel>;
export type OpaqueKind = keyof typeof OPAQUE_LEVELS;

/**
 * Windows (BAR-EN-104): Uw ≤ 1.3 with Sw ≥ 0.3, or Uw ≤ 1.7 with Sw ≥ 0.36; roof windows
 * Uw ≤ 1.5 with Sw ≤ 0.36 (the catalogue's roof window `TOIT` enters that solar factor).
 */
export const WINDOW_LEVEL = {
  sheet: 'BAR-EN-104',
  pairs: [
    { uw: 1.3, sw: 0.3 },
    { uw: 1.7, sw: 0.36 },
  ],
  roofUw: 1.5,
  roofSw: ROOF_WINDOW_SW,
} as const;

/** Entrance doors: Ud ≤ 1.7 W/(m²·K) (the éco-PTZ's technical criteria, arrêté du 30 mars 2009). */
export const DOOR_LEVEL = { text: 'éco-PTZ', ud: 1.7 } as const;

/**
 * Generators the aids accept (MaPrimeRénov' 2026, or a CEE sheet): heat pumps (BAR-TH-104,
 * -129, -171; collective air/water BAR-TH-179, which replaced BAR-TH-166 on 2026-01-01; a
 * building's hot-water heat pump BAR-TH-169), pellet boilers (BAR-TH-113), pellet stoves (BAR-TH-112), condensing gas boilers
 * (CEE only, BAR-TH-106 and -107 collective), thermodynamic and solar water heaters (BAR-TH-148,
 * -101). Direct electric radiators, electric tanks and the distribution works (valves, emitters,
 * pipe lagging) are not generators the aids accept: they add to the item, they do not treat it.
 */
export const ACCEPTED_GENERATORS: Readonly<Record<string, string>> = {
  PACAirEau: 'BAR-TH-171',
  PACAirEauECS: 'BAR-TH-171',
  PACAirEauCollective: 'BAR-TH-179',
  PACAirAir: 'BAR-TH-129',
  PACAirAirAppareils: 'BAR-TH-129',
  ChaudiereGranules: 'BAR-TH-113',
  PoeleGranules: 'BAR-TH-112',
  ChaudiereGazCondensation: 'BAR-TH-106',
  ChaufferieGazCondensation: 'BAR-TH-107',
  CET: 'BAR-TH-148',
  CETExterieur: 'BAR-TH-148',
  PACCollectiveECS: 'BAR-TH-169',
  CESI: 'BAR-TH-101',
};

/**
 * A generator burning fuel oil or coal, by its 3CL label: condensing or not, no aid pays for it and
 * no new one may be installed (décret 2022-8: 300 g CO2e/kWh PCI at most).
 */
export function burnsOilOrCoal(label: string): boolean {
  return /fioul|charbon/i.test(label);
}

/** A heat pump, by its 3CL label. */
export function isHeatPump(label: string): boolean {
  return /pompe à chaleur|\bpac\b/i.test(label);
}

/** An existing generator already at a performance the aids accept, by its 3CL label. */
export function acceptedExisting(label: string): boolean {
  const l = label.toLowerCase();
  if (burnsOilOrCoal(l)) return false;
  // (a thermodynamic water heater's 3CL label is "cet sur air …")
  if (isHeatPump(l) || /thermodynamique|\bcet\b|solaire|réseau de chaleur|condensation/.test(l))
    return true;
  // wood: recent pellets, a recent log or wood-chip boiler (after 2012 in the 3CL tables), a stove,
  // insert, closed hearth or cooker with the Flamme Verte label; the 3CL labels of appliances
  // without it ("à partir de 2005 sans label flamme verte", "poêle à granulés installée avant
  // 2012 ou sans label flamme verte") name the label too, and are not what the aids pay for
  if (/sans label flamme verte/.test(l)) return false;
  // pellets: a boiler of 2013 or after, a boiler-stove from 2012, a Flamme Verte stove (a pellet
  // boiler of 1995-2003 is not what the aids pay for: 2374E2700849T, rpn 0.68)
  if (/granul/.test(l)) return /2013|après 2019|à partir de 2012|flamme verte/.test(l);
  const wood = /bois|biomasse|bûche|plaquette|cuisinière|foyer fermé|insert|poêle/;
  return wood.test(l) && /(20(1[3-9]|2\d))|après 2019|flamme verte/.test(l);
}

/** The opaque kind of an element (walls, a roof's variant, floors), or undefined. */
export function opaqueKind(category: Category, el: RawElement): OpaqueKind | undefined {
  if (category === 'mur') return 'wall';
  if (category === 'plancher_bas') return 'floor';
  if (category === 'plancher_haut') return roofKind(el) ?? undefined;
  return undefined;
}

const fmt = (x: number) => String(Math.round(x * 100) / 100);

/** The level works on an element must meet, as text ("R ≥ 3.7 m²·K/W (BAR-EN-102)"). */
export function levelText(category: Category, el: RawElement): string | null {
  const kind = opaqueKind(category, el);
  if (kind) return `R ≥ ${OPAQUE_LEVELS[kind].r} m²·K/W (${OPAQUE_LEVELS[kind].sheet})`;
  if (category === 'baie_vitree')
    return isRoofWindow(el)
      ? `Uw ≤ ${WINDOW_LEVEL.roofUw} W/(m²·K) with Sw ≤ ${WINDOW_LEVEL.roofSw} (${WINDOW_LEVEL.sheet}, roof window)`
      : `Uw ≤ 1.3 W/(m²·K) with Sw ≥ 0.3, or Uw ≤ 1.7 with Sw ≥ 0.36 (${WINDOW_LEVEL.sheet})`;
  if (category === 'porte') return `Ud ≤ ${DOOR_LEVEL.ud} W/(m²·K) (${DOOR_LEVEL.text})`;
  if (category === 'installation_chauffage' || category === 'installation_ecs')
    return 'a generator the aids accept (heat pump, pellet boiler or stove, condensing boiler, thermodynamic or solar water heater)';
  return null;
}

/** Whether a window of `uw` and `sw` meets BAR-EN-104 (a roof window: Uw ≤ 1.5 with Sw ≤ 0.36). */
export function windowMeets(uw: number, sw: number | undefined, roof: boolean): boolean {
  if (roof)
    return uw <= WINDOW_LEVEL.roofUw + 1e-9 && sw !== undefined && sw <= WINDOW_LEVEL.roofSw + 1e-9;
  if (sw === undefined) return false;
  return WINDOW_LEVEL.pairs.some((p) => uw <= p.uw + 1e-9 && sw >= p.sw - 1e-9);
}

/**
 * Whether an existing window needs no works: at BAR-EN-104's level, or a roof window at its Uw
 * whatever its solar factor (a recent roof window is not replaced for its Sw alone).
 */
export function windowNeedsNoWorks(uw: number, sw: number | undefined, roof: boolean): boolean {
  return roof ? uw <= WINDOW_LEVEL.roofUw + 1e-9 : windowMeets(uw, sw, false);
}

/**
 * Whether a catalogue option may be proposed by the audit on `el` before its solar factor is
 * known: envelope options at the aids' level (a window's Sw is checked on the engine's output
 * after the works), generators and everything else as they are.
 */
export function optionAllowed(row: WorksOptionRow, el: RawElement): boolean {
  const r = row.recipe;
  switch (r.kind) {
    case 'wall':
      return r.r >= OPAQUE_LEVELS.wall.r;
    case 'roof':
      return r.r >= OPAQUE_LEVELS[r.variant].r;
    case 'floor':
      return r.r >= OPAQUE_LEVELS.floor.r;
    case 'window':
      // a roof window: the option whose Sw is entered at the sheet's level (the façade windows'
      // Sw from the 3CL tables, 0.38–0.42 in a sloping frame, is above it)
      return isRoofWindow(el)
        ? r.uw <= WINDOW_LEVEL.roofUw && r.sw !== undefined && r.sw <= WINDOW_LEVEL.roofSw
        : r.uw <= WINDOW_LEVEL.pairs[1].uw;
    case 'door':
      return r.uporte <= DOOR_LEVEL.ud;
    default:
      return true;
  }
}

/** Whether an option treats its element (envelope at the level, an accepted generator, ventilation). */
export function optionTreats(row: WorksOptionRow): boolean {
  const r = row.recipe;
  if (r.kind === 'heating' || r.kind === 'hot-water') return row.code in ACCEPTED_GENERATORS;
  if (r.kind === 'distribution') return false;
  return true;
}

/**
 * What the RT for existing buildings has asked of insulation works on such an element since 2018,
 * at the DPE's site (zone H3 below 800 m asks less of walls and low floors).
 */
export function rt2018Level(kind: OpaqueKind, site: { zone: string; altitudeId: string }): number {
  const lv: OpaqueLevel = OPAQUE_LEVELS[kind];
  const lowH3 = site.zone.toLowerCase() === 'h3' && site.altitudeId !== '3';
  return lowH3 && lv.rt2018H3 !== undefined ? lv.rt2018H3 : lv.rt2018;
}

/** The element's own thermal resistance from its U, m²·K/W. */
export function ownResistance(u: number, kind: OpaqueKind): number {
  return u > 0 ? 1 / u - OPAQUE_LEVELS[kind].surfaces : Infinity;
}

/**
 * An opaque element's own U, W/(m²·K), as its insulation is judged: a low floor's `upb`, not the
 * Ue of the ground or the space below that the losses use (`upb_final`, when `upb` is missing).
 */
export function ownU(category: Category, di: Record<string, unknown>): number | undefined {
  if (category === 'mur') return num(di.umur);
  if (category === 'plancher_haut') return num(di.uph);
  if (category === 'plancher_bas') return num(di.upb) ?? num(di.upb_final);
  return undefined;
}

export function performanceOfElement(category: Category, computed: RawElement | undefined): string {
  const di = computed?.donnee_intermediaire ?? {};
  const u = (k: string) => num(di[k]);
  switch (category) {
    case 'mur':
    case 'plancher_haut': {
      const own = ownU(category, di);
      return own !== undefined ? `U ${fmt(own)} W/(m²·K)` : '';
    }
    case 'plancher_bas': {
      // its own U, as it is judged; the Ue the losses use beside it when the ground or the space
      // below makes it another
      const own = ownU(category, di);
      const ue = u('upb_final');
      if (own === undefined) return '';
      return ue !== undefined && fmt(ue) !== fmt(own)
        ? `U ${fmt(own)} W/(m²·K) (Ue ${fmt(ue)} with the ground or the space below)`
        : `U ${fmt(own)} W/(m²·K)`;
    }
    case 'baie_vitree': {
      const uw = u('uw');
      const sw = u('sw');
      return uw !== undefined ? `Uw ${fmt(uw)}${sw !== undefined ? `, Sw ${fmt(sw)}` : ''}` : '';
    }
    case 'porte':
      return u('uporte') !== undefined ? `U ${fmt(u('uporte') as number)} W/(m²·K)` : '';
    default:
      return '';
  }
}

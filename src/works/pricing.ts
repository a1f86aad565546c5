/**
 * The price of a works option on an element, at the scale of what the element serves, with a
 * detail a user can check ("28 × 9 500 €", "180 kW × 1 379 €/kW"). The figures and their
 * sources are in costs.ts; which quantity multiplies them is decided here from the figure's
 * unit, the option's performance (R, Uw) and the DPE's Scope (dpe/building.ts). See README "Costs".
 */
import type { Category } from '../contract/schemas.js';
import {
  buildingAreaSetAside,
  generatorPower,
  installationDwellings,
  isCollective,
  powerFromSurface,
  scopeOf,
  type Scope,
} from '../dpe/building.js';
import type { RawDpe, RawElement, RawGeneratorHolder } from '../dpe/raw.js';
import { num } from '../dpe/raw.js';
import { doorsOf } from '../dpe/doors.js';

export { doorsOf };
import { windowShares, windowsOf } from '../dpe/windows.js';
import type { WorksOptionRow } from './catalogue.js';
import { DEFAULT_COSTS, priceOf, steppedPrice, type CostTable } from './costs.js';
import { numberText } from '../contract/number-text.js';

export interface Price {
  /** euros incl. VAT, rounded */
  eur: number;
  /** how the euros were obtained, e.g. "28 × 4 770 €" */
  detail: string;
  /**
   * the whole building's amount, euros, when the DPE pays a share of it (a flat's share of
   * collective works, a generated flat's share of its building's envelope); absent otherwise
   */
  whole?: number;
  /**
   * what the euros were multiplied by, on a system (not an envelope element): the appliances of
   * an individual system (`installation`: one a dwelling the engine simulates with it, so that
   * price and gain cover the same dwellings), or the dwellings a figure per dwelling served
   * covers (`dwelling`: pipe insulation, valves, radiators), or the kW a collective generator
   * priced by its power has (`kW`: the plant's, or a flat's own heat loss where the building's
   * area is unknown); absent for one plant priced as a whole (a boiler room, a building's works,
   * a network by the m²), which is one installation
   */
  count?: { n: number; unit: 'installation' | 'dwelling' | 'kW' };
  /**
   * a whole building's installation whose DPE says another number of dwellings than the engine
   * simulates with it (`count.n`, the dwellings priced): the DPE's
   */
  declaredDwellings?: number;
  /**
   * windows priced at the least a window costs (`minPerUnit`), above their area's price: the
   * windows and the euros of one (incl. VAT and the table's delta)
   */
  least?: { units: number; eur: number };
  /**
   * an appliance priced by the area it heats (`byServedArea`): the area priced, m², and the euros
   * a dwelling when the least one costs binds (incl. VAT and the table's delta)
   */
  served?: { area: number; leastPerDwelling?: number };
}

/** The R (insulation) or Uw (windows) the option installs: what its price follows. */
export function performanceOf(option: WorksOptionRow): number | undefined {
  const r = option.recipe;
  switch (r.kind) {
    case 'wall':
    case 'roof':
    case 'floor':
      return r.r;
    case 'window':
      return r.uw;
    default:
      return undefined;
  }
}

/** The envelope categories: priced per m² of the element, the building's in a generated flat. */
const ENVELOPE: ReadonlySet<Category> = new Set([
  'mur',
  'baie_vitree',
  'porte',
  'plancher_bas',
  'plancher_haut',
]);

/**
 * Why the options' scope cannot be decided on this element (they are then not offered; README
 * "Costs"), or undefined: a generated flat without the building's living area (no share of its
 * envelope; a flat's collective works: `shareRefusal`, per option), a whole building without its
 * number of dwellings for an individual system, a system of a flat or a building that does not
 * say whether it is individual or collective.
 */
export function scopeRefusal(scope: Scope, category: Category, el: RawElement): string | undefined {
  const kind = systemKind(category);
  if (ENVELOPE.has(category)) {
    if (scope.kind === 'appartement-genere' && !scope.buildingSurfaceKnown)
      return `the DPE carries its building's envelope without ${unknownArea(scope)}: the flat's share is unknown`;
    return undefined;
  }
  if (!kind || kind === 'vent' || scope.coverage === 'maison') return undefined;
  const t = el.donnee_entree.enum_type_installation_id;
  if (t === undefined || t === null || t === '')
    return 'the installation does not say whether it is individual or collective';
  if (!isCollective(el) && scope.coverage === 'immeuble') {
    const n = scope.buildingDwellings;
    const given = el.donnee_entree.nombre_logement;
    if (n <= 1 && (given === undefined || given === null || given === ''))
      return 'an individual installation of a building whose number of dwellings is not given';
  }
  return undefined;
}

/**
 * Why an option on a flat's collective installation is not offered when the building's living
 * area is unknown (not given, a unit slip, the flat's own copied), or undefined. Where its price
 * is proportional to the flat (per m² served, per kW of the flat's own heat loss, per dwelling)
 * the flat's share needs no building: "13.8 m² × 10 €/m²" is the same either way. A boiler room,
 * priced by the building's power in steps, and a whole substation per building, need it: a boiler
 * room of 8 kW at 100 % for a flat of a 6-flat building (2492E0831922R) is no price to sign.
 */
export function shareRefusal(
  scope: Scope,
  category: Category,
  el: RawElement,
  option: WorksOptionRow,
): string | undefined {
  if (!systemKind(category) || scope.coverage !== 'appartement' || scope.buildingSurfaceKnown)
    return undefined;
  if (!isCollective(el)) return undefined;
  const unit = DEFAULT_COSTS[option.cost].unit;
  if (unit !== 'boiler-room' && unit !== 'building') return undefined;
  const what =
    unit === 'boiler-room' ? 'a boiler room sized by the building' : 'a building’s whole';
  return `a collective installation without ${unknownArea(scope)}: the flat's share of ${what} is unknown`;
}

/** "the building's living area", or why the one the DPE declares is set aside */
function unknownArea(scope: Scope): string {
  const aside = buildingAreaSetAside(scope);
  return aside
    ? `the building's living area (the DPE's ${numberText(aside.declared)} m² is ${aside.why})`
    : "the building's living area";
}

/** "4 770 €": the one number format (contract/number-text.ts) */
function eur(x: number): string {
  return `${numberText(Math.round(x))} €`;
}
/** one decimal, two where one would print "0" (a 0.04 m² window is not "0 m²") */
function qty(x: number): string {
  return numberText(x, x > 0 && x < 0.05 ? 2 : 1);
}

/** The area a per-m² price applies to: the element's own area in the DPE. */
export function areaOf(category: Category, el: RawElement): number {
  const d = el.donnee_entree;
  switch (category) {
    case 'mur':
    case 'plancher_bas':
    case 'plancher_haut':
      return num(d.surface_paroi_opaque) ?? num(d.surface_paroi_totale) ?? 0;
    case 'baie_vitree':
      return num(d.surface_totale_baie) ?? 0;
    case 'porte':
      return num(d.surface_porte) ?? 0;
    default:
      return 0;
  }
}

/** The area an installation serves (heated, hot-water or ventilated area), m². */

export function servedAreaOf(category: Category, el: RawElement): number {
  const d = el.donnee_entree;
  switch (category) {
    case 'installation_chauffage':
      return num(d.surface_chauffee) ?? 0;
    case 'installation_ecs':
      return num(d.surface_habitable) ?? 0;
    case 'ventilation':
      return num(d.surface_ventile) ?? 0;
    default:
      return areaOf(category, el);
  }
}

const SYSTEM_KIND = {
  installation_chauffage: 'ch',
  installation_ecs: 'ecs',
  ventilation: 'vent',
} as const;

function systemKind(category: Category): 'ch' | 'ecs' | 'vent' | undefined {
  return (SYSTEM_KIND as Partial<Record<Category, 'ch' | 'ecs' | 'vent'>>)[category];
}

/**
 * The building's heating power (kW): for a whole-building DPE, the installation's generators'
 * power as the engine computed it (`pn`) when there is one, else the FCU ratio by construction
 * period × the building's area. A flat's DPE describes its building's generator only partly:
 * the ratio is used.
 */
export function buildingPower(
  b: Scope,
  inst: RawElement | undefined,
): { kw: number; from: string } {
  if (b.coverage === 'immeuble' && inst) {
    const pn = generatorPower(inst as RawGeneratorHolder);
    if (pn !== undefined) return { kw: pn, from: 'generator power in the DPE' };
  }
  return { kw: powerFromSurface(b), from: 'FCU W/m² ratio by period × building area' };
}

/** Prices `option` on `el` (an element of `dpe`; `computed` is its engine baseline counterpart). */
export function priceOption(
  option: WorksOptionRow,
  el: RawElement,
  dpe: RawDpe,
  costs: CostTable,
  computed?: RawElement,
): Price {
  const figure = costs.figures[option.cost];
  const unitPrice = priceOf(costs, option.cost, performanceOf(option));
  const b = scopeOf(dpe);
  const kind = systemKind(option.category);
  /** the DPE's share of a building-wide amount: "… = 702 274 € × share 54 / 9 231 m²" */
  const shareOf = (whole: number, what: string, share = b.share, totalShown = false): Price => {
    if (share >= 1) return { eur: Math.round(whole), detail: what };
    return {
      eur: Math.round(whole * share),
      detail: `${what}${totalShown ? '' : ` = ${eur(whole)}`} × share ${qty(b.surface)} / ${qty(b.buildingSurface)} m²`,
      whole: Math.round(whole),
    };
  };
  switch (figure.unit) {
    case 'm2': {
      const area = servedAreaOf(option.category, el);
      if (kind && b.coverage === 'appartement' && isCollective(el)) {
        // a collective network serves the whole building: the flat pays its share
        const whole = b.buildingSurface * unitPrice;
        return shareOf(whole, `${qty(b.buildingSurface)} m² × ${eur(unitPrice)}/m²`);
      }
      if (kind && figure.minPerUnit !== undefined)
        return byServedArea(
          dpe,
          b,
          el,
          option.category,
          kind,
          unitPrice,
          figure.minPerUnit * (1 + costs.delta / 100),
        );
      const byArea = `${qty(area)} m² × ${eur(unitPrice)}/m²`;
      const least = leastPrice(figure.minPerUnit, costs, option.category, el, dpe);
      // a generated flat's envelope is its building's: the flat pays its share
      if (least && least.eur > area * unitPrice)
        return {
          ...shareOf(
            least.eur,
            `${qty(least.units)} × ${eur(least.eur / least.units)} (the least a window costs; ${byArea} = ${eur(area * unitPrice)})`,
            b.envelopeShare,
          ),
          least: { units: least.units, eur: least.eur / least.units },
        };
      return shareOf(area * unitPrice, byArea, kind ? 1 : b.envelopeShare);
    }
    case 'unit': {
      if (option.category === 'porte') {
        const n = doorsOf(el);
        return shareOf(n * unitPrice, `${qty(n)} × ${eur(unitPrice)}`, b.envelopeShare);
      }
      if (!kind)
        return {
          eur: Math.round(unitPrice),
          detail: `1 × ${eur(unitPrice)}`,
          count: { n: 1, unit: 'installation' },
        };
      return timesDwellings(dpe, b, el, kind, unitPrice);
    }
    case 'dwelling': {
      // a figure per dwelling served: a flat's DPE pays its own dwelling's
      if (b.coverage === 'appartement') {
        return {
          eur: Math.round(unitPrice),
          detail: dwellingsTimes(1, unitPrice),
          count: { n: 1, unit: 'dwelling' },
        };
      }
      if (!kind)
        return {
          eur: Math.round(b.dwellings * unitPrice),
          detail: dwellingsTimes(b.dwellings, unitPrice),
          count: { n: b.dwellings, unit: 'dwelling' },
        };
      return timesDwellings(dpe, b, el, kind, unitPrice, undefined, true);
    }
    case 'kw': {
      const p = buildingPower(b, computed ?? el);
      const kw = Math.max(1, Math.round(p.kw));
      // without the building's area, the power is the flat's own area's: its share, not a plant
      const own = b.coverage === 'appartement' && !b.buildingSurfaceKnown;
      return {
        ...shareOf(
          kw * unitPrice,
          `${qty(kw)} kW × ${eur(unitPrice)}/kW${own ? " (the flat's share: the heat loss of its own area)" : ''}`,
        ),
        count: { n: kw, unit: 'kW' },
      };
    }
    case 'building':
      return shareOf(unitPrice, `1 building × ${eur(unitPrice)}`);
    case 'boiler-room': {
      const p = buildingPower(b, computed ?? el);
      const kw = Math.max(1, Math.round(p.kw));
      const s = steppedPrice(costs, option.cost, kw);
      return shareOf(s.eur, `boiler room ${qty(kw)} kW (${s.step}) ${eur(s.eur)}`, b.share, true);
    }
  }
}

/**
 * The least an element's works cost whatever its area, when its figure has one (`minPerUnit`:
 * windows, × `nb_baie`, with the table's delta), or undefined. Not where the DPE's window counts
 * and areas cannot describe the same windows (`windowShares`: a building's counts with a flat's
 * share of their area): those are priced on their areas, as the audit's scope says.
 */
function leastPrice(
  minPerUnit: number | undefined,
  costs: CostTable,
  category: Category,
  el: RawElement,
  dpe: RawDpe,
): { eur: number; units: number } | undefined {
  if (!minPerUnit || category !== 'baie_vitree' || windowShares(dpe)) return undefined;
  const units = windowsOf(el);
  return { eur: units * minPerUnit * (1 + costs.delta / 100), units };
}

/** A figure per dwelling served, × `n` dwellings: "1 dwelling × 300 €/dwelling". */
function dwellingsTimes(n: number, unitPrice: number): string {
  return `${qty(n)} dwelling${n === 1 ? '' : 's'} × ${eur(unitPrice)}/dwelling`;
}

/**
 * A price per dwelling on an installation: × the dwellings the engine simulates with it (1
 * outside whole buildings). In a whole building, where the DPE's installation says another
 * number (its `nombre_logement`, or its area's share of the building), the detail says which
 * the price follows: "24 × 2 950 € (24 dwellings, as the engine simulates this installation; the
 * DPE's installation says 1 dwelling, 81 m²)".
 */
function timesDwellings(
  dpe: RawDpe,
  b: Scope,
  el: RawElement,
  kind: 'ch' | 'ecs' | 'vent',
  unitPrice: number,
  how?: string,
  perDwellingFigure = false,
): Price {
  const d = installationDwellings(dpe, b, el, kind);
  const n = d.engine;
  const detail = perDwellingFigure ? dwellingsTimes(n, unitPrice) : `${qty(n)} × ${eur(unitPrice)}`;
  const notes = how ? [how] : [];
  const said = (): string => (notes.length ? ` (${notes.join('; ')})` : '');
  const count = { n, unit: perDwellingFigure ? 'dwelling' : 'installation' } as const;
  if (b.coverage !== 'immeuble' || d.declared === n)
    return { eur: Math.round(n * unitPrice), detail: `${detail}${said()}`, count };
  const what = d.declaredByCount
    ? `${qty(d.declared)} dwelling${d.declared === 1 ? '' : 's'}${d.area !== undefined ? `, ${qty(d.area)} m²` : ''}`
    : `${d.area !== undefined ? `${qty(d.area)} m², ` : ''}${qty(d.declared)} dwelling${d.declared === 1 ? '' : 's'} of ${qty(b.dwellings)} by area`;
  notes.push(
    `${qty(n)} dwelling${n === 1 ? '' : 's'}, as the engine simulates this installation; the DPE's installation says ${what}`,
  );
  return {
    eur: Math.round(n * unitPrice),
    detail: `${detail}${said()}`,
    count,
    declaredDwellings: d.declared,
  };
}

/**
 * An individual appliance priced by the area it heats, and at least `least` a dwelling (the
 * air/air heat pump: € per m² heated, at least a single split): a 14 m² zone of radiant panels
 * is not a whole house's multi-split. The area is the installation's `surface_chauffee`; in a
 * whole building, a dwelling's part of it (the area ÷ the dwellings the engine simulates with the
 * installation), × those dwellings.
 */
function byServedArea(
  dpe: RawDpe,
  b: Scope,
  el: RawElement,
  category: Category,
  kind: 'ch' | 'ecs' | 'vent',
  perM2: number,
  least: number,
): Price {
  // a heating installation without its area is blocked before any works (the engine's NaN)
  const area = servedAreaOf(category, el);
  if (b.coverage !== 'immeuble') return oneDwelling(area, perM2, least);
  const n = installationDwellings(dpe, b, el, kind).engine;
  const each = area / Math.max(1, n);
  const byArea = each * perM2;
  const what = `a dwelling's ${qty(each)} m² × ${eur(perM2)}/m²`;
  if (least > byArea) {
    const how = `the least an appliance costs; ${what} = ${eur(byArea)}`;
    return {
      ...timesDwellings(dpe, b, el, kind, least, how),
      served: { area, leastPerDwelling: least },
    };
  }
  return { ...timesDwellings(dpe, b, el, kind, byArea, what), served: { area } };
}

/** One dwelling's appliance heating `area` m²: € per m², at least `least` (`byServedArea`). */
function oneDwelling(area: number, perM2: number, least: number): Price {
  const byArea = area * perM2;
  const what = `${qty(area)} m² × ${eur(perM2)}/m²`;
  if (least > byArea)
    return {
      eur: Math.round(least),
      detail: `1 × ${eur(least)} (the least an appliance costs; ${what} = ${eur(byArea)})`,
      served: { area, leastPerDwelling: least },
      count: { n: 1, unit: 'installation' },
    };
  return {
    eur: Math.round(byArea),
    detail: what,
    served: { area },
    count: { n: 1, unit: 'installation' },
  };
}

/**
 * One appliance for several zones of one dwelling, priced as `byServedArea` prices one on their
 * areas together (the air/air heat pump's zones as one multi-split: € per m² heated, at least
 * the least one costs). Undefined for an option not priced by the area it heats.
 */
export function oneApplianceFor(
  option: WorksOptionRow,
  area: number,
  costs: CostTable,
): Price | undefined {
  const figure = costs.figures[option.cost];
  if (figure.unit !== 'm2' || figure.minPerUnit === undefined || !systemKind(option.category))
    return undefined;
  const perM2 = priceOf(costs, option.cost, performanceOf(option));
  return oneDwelling(area, perM2, figure.minPerUnit * (1 + costs.delta / 100));
}

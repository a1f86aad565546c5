/**
 * How an audit's per-dwelling cost and its synthesis's aids are written, the same in the terminal,
 * the report, the PDF and the workbench (pure text from the response; the caller's euro format).
 */
import { SMALL_SURFACE_SINCE } from './classes.js';
import { COEF_2026_SINCE, coefOf } from './constants.js';
import { numberText } from './number-text.js';

/**
 * The caveat of an audit whose figures are scaled to the registry's (`normalized`: the engine and
 * the registry more than 15 % apart on the DPE, or a smaller gap accepted), said beside the figures before works on every
 * screen, the report and the PDF, not only in the bills' paragraph (2293E1394343F: emissions
 * −28.9 %); undefined otherwise.
 */
export function normalizedText(a: { normalized: boolean }): string | undefined {
  return a.normalized
    ? 'Figures scaled to the registry’s: the engine and the registry are apart on this DPE (`dpe-sim pre` says by how much and where), so each figure here is the engine’s scaled to the DPE’s own, and indicative only.'
    : undefined;
}

/** " (11 058 € per dwelling)": a whole building's path cost divided by its dwellings; else empty. */
export function perDwellingText(p: { costPerDwelling?: number }, euros: (x: number) => string) {
  return p.costPerDwelling === undefined ? '' : ` (${euros(p.costPerDwelling)} per dwelling)`;
}

/**
 * The DPE's own bill beside the engine's at the prices of its date (`prices.dpe`), after the
 * prices the audit's bills are at: " The DPE's own bill, 632 €/yr, is at the prices in force at
 * its date (since 2021-07-01); the engine's consumption before works at those prices: 633 €/yr."
 * Empty when the DPE states no bill.
 */
export function dpeBillText(
  prices:
    | {
        date: string;
        dpe?: {
          date: string;
          registry: number;
          engine: number;
          byUse?: readonly { use: string; registry: number; engine: number }[];
        };
      }
    | undefined,
  eurosPerYear: (x: number) => string,
): string {
  const d = prices?.dpe;
  if (!d) return '';
  const same =
    d.date === prices.date
      ? 'the same prices'
      : `the prices in force at its date (since ${d.date})`;
  const bill = ` The DPE's own bill, ${eurosPerYear(d.registry)}, is at ${same}; the engine's consumption before works at those prices: ${eurosPerYear(d.engine)}.`;
  if (!d.byUse?.length) return bill;
  const euros = (x: number) => numberText(Math.round(x));
  const uses = d.byUse
    .map((u) => `${USE_WORDS[u.use] ?? u.use} ${euros(u.registry)} and ${euros(u.engine)}`)
    .join(', ');
  const sum = d.byUse.reduce((s, u) => s + u.registry, 0);
  const apart =
    Math.abs(sum - d.registry) > Math.max(1, 0.01 * d.registry)
      ? `; the DPE's uses add up to ${eurosPerYear(sum)}, not its total`
      : '';
  return `${bill} By use, the DPE's and the engine's (€/yr): ${uses}${apart}.`;
}

const USE_WORDS: Record<string, string> = {
  ch: 'heating',
  ecs: 'hot water',
  fr: 'cooling',
  eclairage: 'lighting',
  auxiliaire: 'auxiliaries',
};

/**
 * A generator's performance in a works table's narrow column: "3CL tables" (its efficiency is the
 * 3CL tables' for the type its price is for, which the works column names), with the storage
 * volume it is priced and simulated with when it has one ("3CL tables, 200 L": a 300 L tank
 * replaced by a 200 L water heater says so); any other performance as it is.
 */
export function generatorPerformanceText(performance: string): string {
  if (!performance.startsWith('generator')) return performance;
  const volume = /, (\d+) L\b/.exec(performance);
  return volume ? `3CL tables, ${volume[1]}\u00a0L` : '3CL tables';
}

/**
 * A synthesis row's MaPrimeRénov' cell, in parts: the step's own range, and on a path's last step
 * the path's as one application ("path 4 000 €–32 000 €") when its steps alone claim other;
 * "none" when no aid applies to the row.
 */
export function synthesisAids(
  r: { aidsMin: number; aidsMax: number; pathAidsMin?: number; pathAidsMax?: number },
  euros: (x: number) => string,
  dash = '–',
): string[] {
  const own = r.aidsMax > 0 ? `${euros(r.aidsMin)}${dash}${euros(r.aidsMax)}` : '';
  const path =
    r.pathAidsMax !== undefined && r.pathAidsMax > 0
      ? `${euros(r.pathAidsMin ?? 0)}${dash}${euros(r.pathAidsMax)}`
      : '';
  const cells = [own, ...(path && path !== own ? [`path ${path}`] : [])].filter((x) => x !== '');
  // a row no aid applies to says so (its step's detail says why), where the cell was empty
  return cells.length ? cells : ['none'];
}

/**
 * A works line's quantity that is not an area: "1 unit", "3 units" (a whole building's water
 * heaters, one a dwelling; the response's `unit` says "installation": a count of appliances or
 * installations), "1 dwelling", "24 dwellings" (`unit` "dwelling": works priced per dwelling
 * served, as a collective network's pipe insulation), or "8 kW" (`unit` "kW": a collective
 * generator priced by its power), the same in the terminal, the report, the PDF and the workbench.
 */
export function unitsText(quantity: number, num: (x: number) => string, unit?: string): string {
  if (unit === 'kW') return `${num(quantity)}\u00a0kW`;
  const name = unit === 'dwelling' ? 'dwelling' : 'unit';
  return `${num(quantity)}\u00a0${name}${quantity > 1 ? 's' : ''}`;
}

/** What a works line's quantity note reads from the line (`flooredWindows`: a summed line's) */
export interface QuantityNoteWork {
  quantity: number;
  buildingQuantity?: number;
  doors?: number;
  windows?: number;
  leastPerWindow?: number;
  flooredWindows?: number;
  heatedArea?: number;
  leastPerDwelling?: number;
  /** the element lines summed in this line ("7 × baie_vitree:0…6"); 1 when absent */
  elements?: number;
}

interface NoteFormat {
  num: (x: number) => string;
  euros: (x: number) => string;
  area: (x: number) => string;
}

/**
 * The notes beside a works line's quantity, the same in the terminal, the report, the PDF and the
 * workbench: "building 9.7 m²" (a flat's share of a building's element: what follows is the
 * building's, its windows or doors), "22 doors" (doors are priced by the door), "4 windows" (an
 * element, or a line of elements, holding more windows than elements), "1 window at the
 * 350 € minimum", "9 windows, 1 at the 350 € minimum" (windows priced at the least a window costs
 * rather than by their area), "14.4 m² heated, at the 3 000 € minimum" (an appliance priced by the
 * area it heats; "a dwelling" on a whole building's).
 */
export function quantityNotes(w: QuantityNoteWork, f: NoteFormat): string[] {
  const building =
    w.buildingQuantity !== undefined ? [`building ${f.area(w.buildingQuantity)}`] : [];
  return [...building, ...countNote(w, f)];
}

function countNote(w: QuantityNoteWork, f: NoteFormat): string[] {
  if (w.leastPerWindow !== undefined && w.windows !== undefined) {
    const floored = w.flooredWindows ?? w.windows;
    const minimum = `at the ${f.euros(w.leastPerWindow)} minimum`;
    return floored >= w.windows
      ? [`${f.num(w.windows)} window${w.windows > 1 ? 's' : ''} ${minimum}`]
      : [`${f.num(w.windows)} windows, ${f.num(floored)} ${minimum}`];
  }
  if (w.heatedArea !== undefined) {
    const least =
      w.leastPerDwelling !== undefined
        ? `, at the ${f.euros(w.leastPerDwelling)} minimum${w.quantity > 1 ? ' a dwelling' : ''}`
        : '';
    return [`${f.area(w.heatedArea)} heated${least}`];
  }
  // an element (or a line of elements) holding more windows than elements: the count priced
  if (w.windows !== undefined && w.windows > (w.elements ?? 1))
    return [`${f.num(w.windows)} windows`];
  return w.doors !== undefined && w.doors > 1 ? [`${f.num(w.doors)} doors`] : [];
}

/** The notes in brackets after the quantity: " (building 9.7 m²; 23 windows at the 350 € minimum)" */
export function quantityNote(w: QuantityNoteWork, f: NoteFormat): string {
  const notes = quantityNotes(w, f);
  return notes.length > 0 ? ` (${notes.join('; ')})` : '';
}

/**
 * The summer comfort before works as one text: "average (the DPE states insufficient): roof
 * insulated yes, external solar protection no, …". The DPE's own indicator is given when it
 * differs from the engine's (the registry's software may judge a criterion otherwise).
 */
export function summerComfortText(sc: {
  indicator: string;
  criteria: readonly { label: string; met: boolean }[];
  dpe?: string;
}): string {
  const dpe = sc.dpe && sc.dpe !== sc.indicator ? ` (the DPE states ${sc.dpe})` : '';
  return `${sc.indicator}${dpe}: ${sc.criteria.map((c) => `${c.label} ${c.met ? 'yes' : 'no'}`).join(', ')}`;
}

/**
 * The DPE's own label beside the audit's class before works, when the two are not under the same
 * rules or not the same class: "The DPE's own label: class D, 194 kWh/m²/yr, 5 kg CO2e/m²/yr,
 * with electricity at 2.3 and the class limits of its date (2023-05-04), as this audit's figures
 * give under those rules; today's rules (electricity at 1.9 since 2026-01-01; the class limits of
 * small dwellings since 2024-07-01) put the dwelling in C." Empty otherwise.
 */
export function dpeLabelText(
  a: {
    initial: { classe: string };
    coefMode: 'activated' | 'deactivated';
    dpeLabel?: {
      classe: string;
      epM2: number;
      gesM2: number;
      coef: number;
      date?: string;
      atItsRules: string;
      limitsChanged: boolean;
    };
  },
  num: (x: number) => string,
): string {
  const l = a.dpeLabel;
  if (!l) return '';
  const coef = coefOf(a.coefMode);
  const changed = [
    ...(l.coef !== coef
      ? [
          `electricity at ${coef}${a.coefMode === 'activated' ? ` since ${COEF_2026_SINCE}` : ', --coef 2025'}`,
        ]
      : []),
    ...(l.limitsChanged
      ? [`the class limits of small dwellings since ${SMALL_SURFACE_SINCE}`]
      : []),
  ];
  if (!changed.length && l.classe === a.initial.classe) return '';
  const own = `The DPE's own label: class ${l.classe}, ${num(l.epM2)} kWh/m²/yr, ${num(l.gesM2)} kg CO2e/m²/yr, with electricity at ${l.coef} and the class limits of its date${l.date ? ` (${l.date})` : ''}`;
  const figures =
    l.atItsRules === l.classe
      ? ", as this audit's figures give under those rules"
      : `; this audit's figures give ${l.atItsRules} under those rules`;
  if (!changed.length) return `${own}${figures}.`;
  const today = `${l.atItsRules === a.initial.classe ? 'keep' : 'put'} the dwelling in ${a.initial.classe}`;
  return `${own}${figures}; today's rules (${changed.join('; ')}) ${today}.`;
}

/**
 * The six items' third column, the same on every screen, the report and the PDF: why an item
 * needs no works or cannot take any, then its note (a U that is the 3CL's default for an unknown
 * insulation: 2287E1490206A's walls), and the column's heading, "Why not / note" when any item
 * has a note.
 */
export function itemWhyText(i: { reason: string | null; note?: string }): string {
  return [i.reason, i.note].filter(Boolean).join('; ');
}

export function itemWhyHeading(items: readonly { note?: string }[]): string {
  return items.some((i) => i.note) ? 'Why not / note' : 'Why not';
}

/**
 * A step's notes under its figures, in the order every front door prints them (terminal, report,
 * PDF): the living area interior insulation takes, the insulation it replaces or that the DPE
 * does not know, the heating's back-ups, the heat pumps, the hot water, the bill.
 */
export function stepNotes(step: {
  livingArea?: { note: string };
  insulationNote?: string;
  heatingNote?: string;
  heatPumpsNote?: string;
  hotWaterNote?: string;
  billNote?: string;
}): string[] {
  return [
    step.livingArea?.note,
    step.insulationNote,
    step.heatingNote,
    step.heatPumpsNote,
    step.hotWaterNote,
    step.billNote,
  ].filter((x): x is string => !!x);
}

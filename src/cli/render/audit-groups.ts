/**
 * Works on identical elements as one line (the report): the same option, under the same name, on
 * elements of the same category whose description is the same (twelve identical windows:
 * "12 × …"), quantities and costs summed. The JSON keeps one line per element.
 */
import type { AuditWork } from '../../contract/audit.js';
import { quantityNote, quantityNotes } from '../../contract/audit-text.js';
import { splitElement } from '../../contract/element-label.js';
import { euros, num, withUnit } from '../format.js';

/** A works line as shown: one element's, or several summed (`flooredWindows`: see `windowsOf`) */
export type ShownWork = AuditWork & { flooredWindows?: number; elements?: number };

/**
 * Several window lines summed: their windows, and those priced at the least a window costs (the
 * lines with `leastPerWindow`: every window of such an element is)
 */
export function windowsOf(
  list: readonly AuditWork[],
): Pick<ShownWork, 'windows' | 'leastPerWindow' | 'flooredWindows'> {
  if (!list.some((w) => w.windows !== undefined)) return {};
  const floored = list.filter((w) => w.leastPerWindow !== undefined);
  const least = floored[0]?.leastPerWindow;
  return {
    windows: list.reduce((a, w) => a + (w.windows ?? 0), 0),
    ...(least !== undefined
      ? {
          leastPerWindow: least,
          flooredWindows: floored.reduce((a, w) => a + (w.windows ?? 0), 0),
        }
      : {}),
  };
}

export interface WorksGroup {
  /** the first line, with the group's quantity and cost */
  work: ShownWork;
  count: number;
  /** the elements' references ("baie_vitree:0, 3, 7") */
  refs: string;
  /** the description the elements share */
  description: string;
}

/** what groups elements: their description; an element without one stays on its own line */
const describe = (element: string) => splitElement(element).description || element;

export function groupIdentical(works: readonly AuditWork[]): WorksGroup[] {
  const groups = new Map<string, AuditWork[]>();
  for (const w of works) {
    const category = w.referenceId.split(':')[0] ?? '';
    const key = `${category}|${w.editableKey}|${w.editableValue}|${w.option}|${describe(w.element)}`;
    groups.set(key, [...(groups.get(key) ?? []), w]);
  }
  return [...groups.values()].map((list) => {
    const first = list[0] as AuditWork;
    const category = first.referenceId.split(':')[0] ?? '';
    const sum = (f: (w: AuditWork) => number | undefined) =>
      list.some((w) => f(w) !== undefined) ? list.reduce((a, w) => a + (f(w) ?? 0), 0) : undefined;
    const work: ShownWork = {
      ...first,
      quantity: list.reduce((a, w) => a + w.quantity, 0),
      cost: list.reduce((a, w) => a + w.cost, 0),
      ...windowsOf(list),
      elements: list.length,
    };
    const doors = sum((w) => w.doors);
    if (doors !== undefined) work.doors = doors;
    const bq = sum((w) => w.buildingQuantity);
    const bc = sum((w) => w.buildingCost);
    const heated = sum((w) => w.heatedArea);
    if (heated !== undefined) work.heatedArea = heated;
    if (list.some((w) => w.leastPerDwelling === undefined)) delete work.leastPerDwelling;
    if (bq !== undefined) work.buildingQuantity = bq;
    if (bc !== undefined) work.buildingCost = bc;
    return {
      work,
      count: list.length,
      refs:
        list.length === 1
          ? first.referenceId
          : `${category}:${list.map((w) => w.referenceId.split(':')[1] ?? '').join(', ')}`,
      description: splitElement(first.element).description,
    };
  });
}

/**
 * "39.2 m² (22 doors)": a door line's count beside its area (doors are priced by the door); "0.3 m²
 * (1 window at the 350 € minimum)", "18.1 m² (9 windows, 1 at the 350 € minimum)": the windows
 * priced at the least a window costs rather than by their area; "1 unit (14.4 m² heated, at the
 * 3 000 € minimum)": an appliance priced by the area it heats
 */
export function withDoors(quantity: string, w: ShownWork): string {
  return quantity + quantityNote(w, noteFormat);
}

/** The same notes as a list ("building 9.7 m²", "23 windows at the 350 € minimum") */
export function lineNotes(w: ShownWork): string[] {
  return quantityNotes(w, noteFormat);
}

const noteFormat = { num, euros, area: (x: number) => withUnit(x, 'm²', 1) };

/**
 * What the proof (proof.ts's cut search) says of a step's works: "proved cheapest" (of the works
 * meeting the step's rules and reaching its class, the earlier steps' kept), "at most 12 % above
 * the cheapest", or "cheapest not proved"; empty for an answer without the proof's fields.
 */
export function proofText(step: {
  exact?: boolean;
  lowerBound?: number;
  maxAbovePercent?: number | null;
}): string {
  if (step.exact === undefined) return '';
  if (step.exact) return 'proved cheapest';
  const pct = step.maxAbovePercent;
  return pct === undefined || pct === null
    ? 'cheapest not proved'
    : `at most ${pct} % above the cheapest`;
}

/**
 * The sentence that says why works raise the energy bill (the audit's `billNote`, `calc`'s alert
 * `warning.bill-rises`): read from the engine's outputs before and after the works.
 */
import { numberText } from '../contract/number-text.js';
import type { RawDpe } from '../dpe/raw.js';
import { billOf, consumptionOf, LATEST_PRICE_TABLE } from '../engine/bills.js';
import type { Engine } from '../engine/engine.js';

/**
 * Why works make the bill rise (they trade a cheap energy for a dearer one: a coal or wood boiler
 * for a heat pump), in one sentence, for an audit's step (`billNote`) and a recalculation's
 * alert (`warning.bill-rises`): each energy whose kWh the works change, with its change and
 * its average price at the 3CL method's latest prices (bills.ts), the energies whose bill rises
 * first. Undefined when the bill does not rise between the two outputs.
 */
export function billRiseOf(
  engine: Engine,
  before: RawDpe,
  after: RawDpe,
  /** the final energy shown before and after (kWh/yr: scaled to the registry's, if so) */
  shownFinal: { before: number; after: number },
): string | undefined {
  const read = (output: RawDpe) => {
    const use = consumptionOf(output);
    const kwh = new Map<string, number>();
    for (const c of use)
      kwh.set(
        c.energy,
        (kwh.get(c.energy) ?? 0) + Object.values(c.byUse).reduce((a, b) => a + b, 0),
      );
    return { kwh, bill: billOf(use, LATEST_PRICE_TABLE) };
  };
  const b = read(before);
  const a = read(after);
  if (!(a.bill.total > b.bill.total)) return undefined;
  const energies = [...new Set([...b.kwh.keys(), ...a.kwh.keys()])];
  const moves = energies
    .map((id) => {
      const k0 = b.kwh.get(id) ?? 0;
      const k1 = a.kwh.get(id) ?? 0;
      const e0 = b.bill.byEnergy[id] ?? 0;
      const e1 = a.bill.byEnergy[id] ?? 0;
      // the average price where the energy is used (after the works if it is there, else before)
      const price = k1 > 0 ? e1 / k1 : k0 > 0 ? e0 / k0 : 0;
      return { id, dk: k1 - k0, de: e1 - e0, price };
    })
    .filter((m) => Math.round(m.dk) !== 0 && m.price > 0)
    .sort((x, y) => y.de - x.de);
  if (!moves.length) return undefined;
  const label = (id: string) => engine.enumLabel('type_energie', id) ?? `energy ${id}`;
  const lead =
    shownFinal.after < shownFinal.before
      ? `The bill rises although final energy falls (${numberText(shownFinal.before)} → ${numberText(shownFinal.after)}\u00a0kWh/yr)`
      : 'The bill rises';
  return `${lead}: ${moves
    .map(
      (m) =>
        `${label(m.id)} ${m.dk > 0 ? '+' : '−'}${numberText(Math.abs(m.dk))}\u00a0kWh/yr at ${numberText(m.price, 3)}\u00a0€/kWh`,
    )
    .join(
      ', ',
    )} (the engine's kWh; each energy's average price at the 3CL method's prices in force since ${LATEST_PRICE_TABLE.since}).`;
}

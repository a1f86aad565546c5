/**
 * A works run keeps the price and floor loss of each option it priced (src/works/apply.ts
 * `pricedOn`): per DPE, cost table, option, element and baseline counterpart. A kept price must be
 * the very one `priceOption` and `perteSurfaceOf` give, and never cross cost tables or DPEs: every
 * single option of each DPE is run with two cost tables in turn (the default one and one with
 * other figures and a delta), on two DPEs in turn, and each item is checked against the price
 * worked out afresh. On the fixtures, and on corpus DPEs (the 28-flat building 2535E0426429Q:
 * shares of the building) when the corpus is present.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EditableChange } from '../src/contract/schemas.js';
import { elementsOf } from '../src/dpe/elements.js';
import { copyRaw, type RawElement } from '../src/dpe/raw.js';
import { readDpeFile } from '../src/dpe/source.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { prepare, type PreparedDpe } from '../src/simulation/prepared.js';
import { optionChanges } from '../src/simulation/structure.js';
import { applyWorks, perteSurfaceOf, priceOn, resolveChanges } from '../src/works/apply.js';
import { makeWorksContext } from '../src/works/context.js';
import { defaultCosts, withOverrides, type CostTable } from '../src/works/costs.js';
import { CORPUS, FLAT, HAS_CORPUS, HOUSE } from './helpers.js';

const CORPUS_DPES = ['2535E0426429Q', '2287E0793758O'];
if (!HAS_CORPUS)
  console.warn(`works-price-cache.test.ts: ${CORPUS} is absent: the corpus DPEs are not checked`);
const FILES = [
  HOUSE,
  FLAT,
  ...(HAS_CORPUS ? CORPUS_DPES.map((id) => path.join(CORPUS, `${id}.xml`)) : []),
];

let engine: Engine;
const prepared: PreparedDpe[] = [];

beforeAll(async () => {
  engine = await loadEngine();
  for (const file of FILES) {
    const prep = prepare(engine, await readDpeFile(file));
    if (!prep.ok) throw new Error(`${file} blocked`);
    prepared.push(prep.dpe);
  }
});

/** The item's figures as a works run gives them. */
type Item = [number, string, number | undefined, number];

/** The price of the single change worked out afresh, as a works run did before it kept them. */
function fresh(prep: PreparedDpe, change: EditableChange, costs: CostTable): Item {
  const [r] = resolveChanges(prep, [change]);
  if (!r) throw new Error('not resolved');
  const copy = copyRaw(prep.raw);
  const ctx = makeWorksContext(copy, prep.base.output);
  const original = elementsOf(prep.raw, r.category)[r.index] as RawElement;
  const el = elementsOf(copy, r.category)[r.index] as RawElement;
  const price = priceOn(r.option, original, costs, prep.raw, ctx.computed.get(el));
  return [price.eur, price.detail, price.whole, perteSurfaceOf(r.option, original, prep.raw)];
}

describe('prices kept per works option', () => {
  it('are the prices worked out afresh, per cost table and per DPE, in any order', () => {
    const other = withOverrides(
      defaultCosts(),
      { delta: 12.5, ite: 190, fenetre_pvc: 700, pac_air_eau: 14000 },
      'test',
    );
    const tables: [string, CostTable][] = [
      ['default', defaultCosts()],
      ['other', other],
      ['default again (a new table)', defaultCosts()],
      ['other again', other],
    ];
    let checked = 0;
    let differ = 0;
    for (const [name, costs] of tables)
      for (const prep of prepared) {
        const id = String(prep.raw.numero_dpe);
        for (const change of optionChanges(prep)) {
          const resolved = resolveChanges(prep, [change]);
          const applied = applyWorks(engine, prep, resolved, costs).applied[0];
          if (!applied) throw new Error('no item');
          const got: Item = [
            applied.cout,
            applied.coutDetail,
            applied.coutBatiment,
            applied.perteSurface,
          ];
          const want = fresh(prep, change, costs);
          expect(got, `${name} ${id} ${JSON.stringify(change)}`).toEqual(want);
          if (name === 'other') {
            const byDefault = fresh(prep, change, defaultCosts());
            if (byDefault[0] !== want[0]) differ++;
          }
          checked++;
        }
      }
    // every option of every DPE, four times; the other table moves prices (it is a key)
    expect(checked).toBeGreaterThan(4 * 40);
    expect(differ).toBeGreaterThan(10);
  });
});

/**
 * The cost check of issue 14 on saved outputs: for every registry pack with a real cost (maximum
 * ≥ 1,000 €) reaching a better class than the DPE's own, dpe-sim's cheapest verified scenario
 * reaching the pack's class, divided by the pack's midpoint. Fails when the median of houses,
 * flats or whole buildings leaves 0.5–2. It reads saved `initial` outputs from
 * DPE_SIM_COST_CHECK_FROM (a directory of `initial` JSON, as ../shared/tools/figures-snapshot.mjs
 * saves them; outputs of a dpe-sim older than the packs' own-frame comparison are refused), in a
 * second.
 * On the corpus itself the check runs by default in test/corpus.test.ts, on its `initial` runs.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM bench script without declarations
import { costCheck, costTable, GROUPS, initialBodies, quantile } from '../bench/costs.mjs';

interface Group {
  ratios: number[];
}
const from = process.env.DPE_SIM_COST_CHECK_FROM;

describe.skipIf(!from)('cost check against the diagnosticians’ packs (saved outputs)', () => {
  it('medians of houses, flats and whole buildings sit in 0.5–2', async () => {
    const check = costCheck(await initialBodies(from)) as {
      groups: Record<string, Group>;
    };
    console.log(costTable(check));
    for (const g of GROUPS as string[]) {
      const group = check.groups[g] as Group;
      expect(group.ratios.length, g).toBeGreaterThan(5);
      const median = quantile(group.ratios, 0.5) as number;
      expect(median, g).toBeGreaterThanOrEqual(0.5);
      expect(median, g).toBeLessThanOrEqual(2);
    }
  });
});

if (!from)
  console.warn(
    'cost check on saved outputs skipped: set DPE_SIM_COST_CHECK_FROM=DIR (on the corpus it runs in test/corpus.test.ts)',
  );

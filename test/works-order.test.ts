/**
 * A figure is a function of the works, not of the order they are listed in: internal insulation
 * moves the declared inertia class by what the linings change of the class the engine computes,
 * once, after the other works (src/works/apply.ts, `applyWorksOn`). Before, one step per lining
 * between the other works made 2336E3121993D's works give 22,119.96 or 21,842.58 kWh/yr of primary
 * energy by the order of the list (its attic insulation changes the computed class between two
 * linings).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, HAS_CORPUS, runCli, tempDir } from './helpers.js';

const KEY: Record<string, string> = {
  mur: 'ISOLATION',
  plancher_haut: 'ISOLATION',
  baie_vitree: 'FENETRE',
  porte: 'PORTE',
  ventilation: 'VMC',
};
const works = (list: string) =>
  list.split(' ').map((t) => {
    const [referenceId, editableValue] = t.split('=') as [string, string];
    return { referenceId, editableKey: KEY[referenceId.split(':')[0] as string], editableValue };
  });
// the same 14 works in the two orders that gave two figures
const FIRST =
  'mur:2=IMurITI37 mur:7=IMurITI30 baie_vitree:2=BOIS mur:4=IMurITI37 mur:3=IMurITE45 ' +
  'mur:6=IMurITE45 ventilation:0=VMCHygroB baie_vitree:1=BOIS porte:0=PorteIsolee ' +
  'mur:1=IMurITE45 plancher_haut:0=IComblesR7 mur:0=IMurITI30 mur:5=IMurITE45 baie_vitree:3=TRIPLE';
const SECOND =
  'mur:2=IMurITI37 mur:1=IMurITE45 mur:3=IMurITE45 plancher_haut:0=IComblesR7 mur:4=IMurITI37 ' +
  'mur:6=IMurITE45 porte:0=PorteIsolee baie_vitree:2=BOIS ventilation:0=VMCHygroB ' +
  'mur:0=IMurITI30 mur:5=IMurITE45 mur:7=IMurITI30 baie_vitree:1=BOIS baie_vitree:3=TRIPLE';

if (!HAS_CORPUS) console.warn(`\n⚠ works order corpus test SKIPPED: no corpus at ${CORPUS}\n`);

describe.skipIf(!HAS_CORPUS)('the works in any order', () => {
  it('2336E3121993D: lined walls beside an insulated attic give one figure whatever the order', async () => {
    const dir = tempDir();
    const results = [];
    for (const [name, list] of [
      ['first', FIRST],
      ['second', SECOND],
    ] as const) {
      const file = path.join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(works(list)));
      const r = await runCli([
        '--data-dir',
        path.join(dir, 'data'),
        'calc',
        path.join(CORPUS, '2336E3121993D.xml'),
        '--works',
        file,
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as {
        calculation: { result: Record<string, { value: number; VInit: number }> };
      };
      results.push(out.calculation.result);
    }
    const [a, b] = results as [
      Record<string, { value: number; VInit: number }>,
      Record<string, { value: number; VInit: number }>,
    ];
    for (const k of ['ep_conso_5_usages', 'emission_ges_5_usages', 'classe_bilan_dpe'])
      expect(b[k]?.value, k).toBe(a[k]?.value);
    // the linings lighten the class once, after the attic: the lower of the two figures
    expect(a.ep_conso_5_usages?.value).toBeCloseTo(21842.58, 1);
    expect(a.ep_conso_5_usages?.value).toBeLessThan(a.ep_conso_5_usages?.VInit as number);
  });
});

/**
 * Issue 35 item 4: a works option on an installation is priced for the dwellings whose
 * consumption the engine changes with it, and says so where the DPE's installation describes
 * other dwellings. Corpus DPEs named in each test; skipped with a warning when ../shared/corpus
 * is absent.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InitialResponse } from '../src/contract/schemas.js';
import { installationDwellings, scopeOf } from '../src/dpe/building.js';
import { elementsOf } from '../src/dpe/elements.js';
import type { RawGeneratorHolder } from '../src/dpe/raw.js';
import { readDpeFile, type DpeText } from '../src/dpe/source.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { prepare, type PreparedDpe } from '../src/simulation/prepared.js';
import { runWorks } from '../src/simulation/runs.js';
import { priceOn } from '../src/works/apply.js';
import { findOption } from '../src/works/catalogue.js';
import { defaultCosts } from '../src/works/costs.js';
import { CORPUS, HAS_CORPUS, runCli } from './helpers.js';

if (!HAS_CORPUS)
  console.warn(
    '*** price-what-is-simulated tests on corpus DPEs SKIPPED: ../shared/corpus absent ***',
  );

const costs = defaultCosts();
let engine: Engine;
const tmp = mkdtempSync(path.join(tmpdir(), 'dpe-sim-simulated-'));
beforeAll(async () => {
  engine = await loadEngine();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function prepOf(text: DpeText): PreparedDpe {
  const p = prepare(engine, text);
  if (!p.ok) throw new Error(`${text.key} blocked: ${p.alert.id}`);
  return p.dpe;
}

// a flat's water heater on outdoor air: one on ambient air needs an unheated room the DPE gives
// none of (works/generators.ts `ambientAirRoom`)
const CET = findOption('installation_ecs', 'ReplaceGEN', 'CETExterieur');
const cetOn = (ref: string) => [
  { referenceId: ref, editableKey: 'ReplaceGEN', editableValue: 'CETExterieur' },
];

/** The hot-water need the engine computed with each installation, in dwellings of the building. */
function simulatedDwellings(p: PreparedDpe): number[] {
  const flats = scopeOf(p.raw).dwellings;
  const out = p.base.output.logement?.installation_ecs_collection?.installation_ecs ?? [];
  return (out as RawGeneratorHolder[]).map((e) => {
    const ratio = Number(e.donnee_intermediaire?.ratio_besoin_ecs);
    const gen = e.generateur_ecs_collection?.generateur_ecs?.[0];
    // conso.js: each generator's consumption × cle_repartition_ecs × rdim (written on it)
    const key = Number(gen?.donnee_entree.cle_repartition_ecs ?? 1);
    return Math.round(ratio * key * flats * 100) / 100;
  });
}

describe.skipIf(!HAS_CORPUS)(
  'an installation is priced for the dwellings the engine simulates',
  () => {
    it('2561E0059504D (9 flats): each hot-water installation says nombre_logement 1 (174 m²), the engine simulates 3 flats with it (rdim 3): priced for 3, and the option says so', async () => {
      const p = prepOf(await readDpeFile(path.join(CORPUS, '2561E0059504D.xml')));
      const sc = scopeOf(p.raw);
      const ecs = elementsOf(p.raw, 'installation_ecs');
      expect(ecs.map((el) => el.donnee_entree.nombre_logement)).toEqual([1, 1, 1]);
      expect(simulatedDwellings(p)).toEqual([3, 3, 3]);
      expect(ecs.map((el) => installationDwellings(p.raw, sc, el, 'ecs'))).toEqual(
        ecs.map(() => ({ engine: 3, declared: 1, area: 174.333333, declaredByCount: true })),
      );
      if (!CET || !ecs[0]) throw new Error('no CET');
      expect(priceOn(CET, ecs[0], costs, p.raw)).toEqual({
        eur: 3 * 3400,
        detail:
          "3 × 3\u202f400 € (3 dwellings, as the engine simulates this installation; the DPE's installation says 1 dwelling, 174.3 m²)",
        count: { n: 3, unit: 'installation' },
        declaredDwellings: 1,
      });
      const run = runWorks(engine, p, cetOn('installation_ecs:0'), costs);
      expect(run.cout).toBe(10200);
      expect(run.applied[0]?.coutDetail).toContain('as the engine simulates this installation');
    });

    it('the issue’s case, on 2431E1275871H (8 flats) with its one hot-water installation described as one flat’s (nombre_logement 1, 21 m², no rdim): the engine still computes the 8 flats’ hot water, the water heater is priced for 8, and its gain is the 8 flats’', async () => {
      const file = path.join(CORPUS, '2431E1275871H.xml');
      const text = await readDpeFile(file);
      const a = text.xml.indexOf('<installation_ecs>');
      const b = text.xml.indexOf('</installation_ecs>');
      const block = text.xml
        .slice(a, b)
        .replace(/<nombre_logement>8<\/nombre_logement>/, '<nombre_logement>1</nombre_logement>')
        .replace(
          /<surface_habitable>170<\/surface_habitable>/,
          '<surface_habitable>21</surface_habitable>',
        )
        .replace(/<rdim>8<\/rdim>/, '');
      expect(block).toContain('<nombre_logement>1</nombre_logement>');
      expect(block).toContain('<surface_habitable>21</surface_habitable>');
      expect(block).not.toContain('<rdim>');
      const xml = text.xml.slice(0, a) + block + text.xml.slice(b);
      const original = prepOf(text);
      const oneFlat = prepOf({ ...text, key: 'one-flat-hot-water', xml });

      // the engine computes the whole building's hot-water need either way (its consumption
      // differs: without rdim the installation is one water heater, with its losses, not eight)
      const needOf = (p: PreparedDpe) =>
        Number(
          (p.base.output.logement?.sortie?.apport_et_besoin as { besoin_ecs?: number } | undefined)
            ?.besoin_ecs,
        );
      expect(needOf(oneFlat)).toBeCloseTo(needOf(original), 3);
      expect(simulatedDwellings(oneFlat)).toEqual([8]);
      const el = elementsOf(oneFlat.raw, 'installation_ecs')[0];
      if (!CET || !el) throw new Error('no CET');
      expect(installationDwellings(oneFlat.raw, scopeOf(oneFlat.raw), el, 'ecs')).toMatchObject({
        engine: 8,
        declared: 1,
      });

      // priced for the 8 flats whose hot water it changes (it was 1 × 2 950 € on ambient air before issue 35)
      const works = runWorks(engine, oneFlat, cetOn('installation_ecs:0'), costs);
      expect(works.cout).toBe(8 * 3400);
      expect(works.applied[0]?.coutDetail).toBe(
        "8 × 3\u202f400 € (8 dwellings, as the engine simulates this installation; the DPE's installation says 1 dwelling, 21 m²)",
      );
      // ... and its gain is the 8 flats': of the order of the gain on the DPE that says 8 (one
      // water heater's losses instead of eight's aside), not of one flat's (an eighth of it)
      const gain = (p: PreparedDpe, run: typeof works) => p.base.mode2026.ep - run.mode2026.ep;
      const asDeclared = runWorks(engine, original, cetOn('installation_ecs:0'), costs);
      expect(asDeclared.cout).toBe(8 * 3400);
      expect(asDeclared.applied[0]?.coutDetail).toBe('8 × 3\u202f400 €');
      expect(gain(original, asDeclared)).toBeGreaterThan(1000);
      expect(gain(oneFlat, works) / gain(original, asDeclared)).toBeGreaterThan(0.5);
      expect(gain(oneFlat, works) / gain(original, asDeclared)).toBeLessThan(1.5);

      // the same in `initial --json` (the options of the DPE structure) and on the terminal
      const out = path.join(tmp, 'one-flat-hot-water.xml');
      writeFileSync(out, xml);
      const json = await runCli(['initial', out, '--json']);
      expect(json.code, json.stderr).toBe(0);
      const body = JSON.parse(json.stdout) as InitialResponse;
      const option = body.dpe.items.installation_ecs[0]?.editables.ReplaceGEN?.options.CETExterieur;
      expect(option).toMatchObject({
        cout: 27200,
        logementsChiffres: 8,
        logementsDpe: 1,
        coutDetail: works.applied[0]?.coutDetail,
      });
      const screen = await runCli(['initial', out, '--show', 'elements']);
      expect(screen.code, screen.stderr).toBe(0);
      expect(screen.stdout.replace(/\s+/g, ' ')).toContain(
        'for 8 dwellings as the engine simulates them (the DPE says 1)',
      );
      expect(readFileSync(out, 'utf8')).toBe(xml);
    });
  },
);

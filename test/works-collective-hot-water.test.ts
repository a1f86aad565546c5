/**
 * A building's hot-water production replaced by a collective heat pump (`PACCollectiveECS`): the
 * lever the catalogue lacked where hot water is collective (8 of the 15 audits that fell short of
 * their class on real DPEs outside the corpus were held there). Corpus DPEs: a flat whose
 * building's gas boiler heats and makes its hot water (2213E0696993Z), a whole building on
 * electric tanks that its installation declares as one dwelling (2474E3798234X), the registry's
 * default for an undescribed collective system (2213E1322779R), hot water from a heating network
 * (2314E4481144I); the bundled house (individual hot water).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { elementsOf } from '../src/dpe/elements.js';
import { consumptionOf } from '../src/engine/bills.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import type { PreparedDpe } from '../src/simulation/prepared.js';
import { figuresOf, runWorks } from '../src/simulation/runs.js';
import { applyWorks, offeredOptions, refusalsOn, resolveChanges } from '../src/works/apply.js';
import { ecsGensOf, gensOf } from '../src/works/context.js';
import { defaultCosts } from '../src/works/costs.js';
import type { RawGeneratorHolder } from '../src/dpe/raw.js';
import { CORPUS, FLAT, HAS_CORPUS, HOUSE } from './helpers.js';
import { ambientAirRoom, cetVolume, NO_AMBIENT_AIR_ROOM } from '../src/works/generators.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { preparedFile } from './corpus-engine.js';

if (!HAS_CORPUS)
  console.warn(
    '*** collective hot-water tests on corpus DPEs SKIPPED: ../shared/corpus absent ***',
  );

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine();
});

const prepared = (file: string) => preparedFile(engine, file);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-water-heaters-'));
const corpusDpe = (id: string) => prepared(path.join(CORPUS, `${id}.xml`));

const CHANGE = [
  {
    referenceId: 'installation_ecs:0',
    editableKey: 'ReplaceGEN',
    editableValue: 'PACCollectiveECS',
  },
];
const hotWater = (raw: unknown) =>
  consumptionOf(engine.run(raw as PreparedDpe['raw'], { owned: true }).output).reduce(
    (x, c) => x + c.byUse.ecs,
    0,
  );

describe('a collective hot-water heat pump', () => {
  it.skipIf(!HAS_CORPUS)(
    'replaces the hot-water side of a building’s gas boiler in a flat (2213E0696993Z): the boiler then heats only, the heat pump makes the hot water at the 3CL tables’ COP, for less primary energy and emissions; the flat pays its own dwelling’s 3 400 €',
    async () => {
      const p = await corpusDpe('2213E0696993Z');
      const ecs = elementsOf(p.raw, 'installation_ecs')[0]!;
      expect(ecs.donnee_entree.enum_type_installation_id).toBe('2');
      const codes = offeredOptions(p, 'installation_ecs', ecs).map((r) => r.code);
      expect(codes).toContain('PACCollectiveECS');
      for (const c of ['CET', 'CETExterieur', 'BallonElectrique']) expect(codes).not.toContain(c);
      const before = ecsGensOf(ecs as RawGeneratorHolder);
      expect(before.map((g) => g.donnee_entree.enum_usage_generateur_id)).toEqual(['3']);

      const costs = defaultCosts();
      const works = applyWorks(engine, p, resolveChanges(p, CHANGE), costs);
      const after = elementsOf(works.raw, 'installation_ecs')[0] as RawGeneratorHolder;
      const gens = ecsGensOf(after);
      expect(gens).toHaveLength(1);
      expect(gens[0]!.donnee_entree).toMatchObject({
        enum_type_generateur_ecs_id: '6',
        enum_usage_generateur_id: '2',
        enum_type_energie_id: '1',
      });
      // the boiler that made the hot water now heats only
      const heating = elementsOf(works.raw, 'installation_chauffage').flatMap((i) =>
        gensOf(i as RawGeneratorHolder),
      );
      expect(heating.map((g) => g.donnee_entree.enum_usage_generateur_id)).toEqual(['1']);
      expect(hotWater(works.raw)).toBeLessThan(hotWater(p.raw) * 0.6);

      const o = runWorks(engine, p, CHANGE, costs);
      expect(o.cout).toBe(3400);
      expect(o.applied[0]?.coutDetail).toBe('1 dwelling × 3\u202f400 €/dwelling');
      const f = figuresOf(o, 'activated');
      const f0 = figuresOf(runWorks(engine, p, [], costs), 'activated');
      expect(f.ep).toBeLessThan(f0.ep);
      expect(f.ges).toBeLessThan(f0.ges);
    },
    120_000,
  );

  it.skipIf(!HAS_CORPUS)(
    'in a whole building (2474E3798234X, electric tanks) is priced for the dwellings the engine simulates with the installation, and says what the DPE declares',
    async () => {
      const p = await corpusDpe('2474E3798234X');
      const o = runWorks(engine, p, CHANGE, defaultCosts());
      expect(o.cout).toBe(30 * 3400);
      expect(o.applied[0]?.coutDetail).toBe(
        "30 dwellings × 3\u202f400 €/dwelling (30 dwellings, as the engine simulates this installation; the DPE's installation says 1 dwelling, 907 m²)",
      );
      const f = figuresOf(o, 'activated');
      const f0 = figuresOf(runWorks(engine, p, [], defaultCosts()), 'activated');
      expect(f.ep).toBeLessThan(f0.ep);
    },
    120_000,
  );

  it.skipIf(!HAS_CORPUS)(
    'is not offered on the registry’s default for an undescribed system (2213E1322779R) nor on a heating network’s hot water (2314E4481144I), and says why',
    async () => {
      for (const [id, why] of [
        [
          '2213E1322779R',
          'hot water is the registry’s default for an undescribed collective system: what to replace is not known',
        ],
        [
          '2314E4481144I',
          'hot water comes from a heating network, which the catalogue does not replace',
        ],
      ] as const) {
        const p = await corpusDpe(id);
        const ecs = elementsOf(p.raw, 'installation_ecs')[0]!;
        expect(offeredOptions(p, 'installation_ecs', ecs).map((r) => r.code)).not.toContain(
          'PACCollectiveECS',
        );
        expect(refusalsOn(p, 'installation_ecs', ecs), id).toContain(why);
      }
    },
    120_000,
  );

  it('is not offered on individual hot water, and an individual installation’s reasons do not mention it (the bundled house)', async () => {
    const p = await prepared(HOUSE);
    const ecs = elementsOf(p.raw, 'installation_ecs')[0]!;
    expect(offeredOptions(p, 'installation_ecs', ecs).map((r) => r.code)).not.toContain(
      'PACCollectiveECS',
    );
    for (const r of refusalsOn(p, 'installation_ecs', ecs)) expect(r).not.toMatch(/collective/);
  });
});

describe('a thermodynamic water heater’s volume', () => {
  const tank = (v: number) => ({ donnee_entree: { volume_stockage: v } });
  it('is the tank it replaces, a dwelling’s share of it, at the next size sold (100–300 L); 200 L without a tank', () => {
    expect(cetVolume([tank(30)])).toBe(100);
    expect(cetVolume([tank(100)])).toBe(100);
    expect(cetVolume([tank(120)])).toBe(150);
    expect(cetVolume([tank(200)])).toBe(200);
    expect(cetVolume([tank(300)])).toBe(300);
    expect(cetVolume([tank(500)])).toBe(300);
    expect(cetVolume([tank(0)])).toBe(200);
    expect(cetVolume([])).toBe(200);
    // a flat generated from building data declares the building's 500 L for its 28 dwellings
    expect(cetVolume([tank(500)], 28)).toBe(100);
  });

  it('is what the engine simulates: the bundled flat’s 100 L electric tank becomes a 100 L water heater', async () => {
    const p = await prepared(FLAT);
    const inst = fitted(p, 'CETExterieur');
    expect(ecsGensOf(inst).map((g) => g.donnee_entree.volume_stockage)).toEqual([100]);
    expect(ecsGensOf(inst)[0]?.donnee_entree.enum_type_generateur_ecs_id).toBe('6');
  });
});

/** The bundled DPE `file` with its water heater's place (position_volume_chauffe) set to `at`. */
async function tankAt(file: string, at: 0 | 1): Promise<PreparedDpe> {
  const xml = readFileSync(file, 'utf8');
  const ecs = xml.indexOf('<generateur_ecs>');
  const edited =
    xml.slice(0, ecs) +
    xml
      .slice(ecs)
      .replace(
        /<position_volume_chauffe>\d<\/position_volume_chauffe>/,
        `<position_volume_chauffe>${at}</position_volume_chauffe>`,
      );
  const out = path.join(tmp, `${path.basename(file, '.xml')}-tank-${at}.xml`);
  writeFileSync(out, edited);
  return prepared(out);
}

/** The first hot-water installation of `p` after `code` (ReplaceGEN) is applied on it. */
function fitted(p: PreparedDpe, code: string): RawGeneratorHolder {
  const [resolved] = resolveChanges(p, [
    { referenceId: 'installation_ecs:0', editableKey: 'ReplaceGEN', editableValue: code },
  ]);
  const raw = applyWorks(engine, p, [resolved!], defaultCosts()).raw;
  return elementsOf(raw, 'installation_ecs')[0] as RawGeneratorHolder;
}

const place = (inst: RawGeneratorHolder) =>
  Number(ecsGensOf(inst)[0]?.donnee_entree.position_volume_chauffe);

describe('a thermodynamic water heater on ambient air (3CL: on an unheated room)', () => {
  it('is not offered in a flat whose tank stands in the heated volume and whose DPE describes no room of its own for it (the bundled flat): the one on outdoor air is, and the refusal says why', async () => {
    const p = await prepared(FLAT);
    const ecs = elementsOf(p.raw, 'installation_ecs')[0]!;
    expect(
      Number(ecsGensOf(ecs as RawGeneratorHolder)[0]?.donnee_entree.position_volume_chauffe),
    ).toBe(1);
    const codes = offeredOptions(p, 'installation_ecs', ecs).map((r) => r.code);
    expect(codes).toContain('CETExterieur');
    expect(codes).not.toContain('CET');
    expect(refusalsOn(p, 'installation_ecs', ecs, (r) => r.code === 'CET')).toEqual([
      NO_AMBIENT_AIR_ROOM,
    ]);
    expect(() =>
      resolveChanges(p, [
        { referenceId: 'installation_ecs:0', editableKey: 'ReplaceGEN', editableValue: 'CET' },
      ]),
    ).toThrow(/CETExterieur/);
  });

  it('is offered where the old tank stands outside the heated volume, and stands there (in its unheated room, as the option’s label says)', async () => {
    const p = await tankAt(FLAT, 0);
    expect(
      ambientAirRoom(
        p.raw,
        ecsGensOf(elementsOf(p.raw, 'installation_ecs')[0] as RawGeneratorHolder),
      ),
    ).toBe('dans le local non chauffé de l’ancien ballon');
    expect(place(fitted(p, 'CET'))).toBe(0);
  });

  it('is offered in a house with a garage though its tank stands inside (the bundled house, tank moved in): it goes in the garage, where its tank’s losses no longer warm the house, so it saves less than the same heater on outdoor air, whose tank stays inside', async () => {
    const p = await tankAt(HOUSE, 1);
    const gens = ecsGensOf(elementsOf(p.raw, 'installation_ecs')[0] as RawGeneratorHolder);
    expect(ambientAirRoom(p.raw, gens)).toBe('dans le garage');
    const ambient = fitted(p, 'CET');
    const outdoor = fitted(p, 'CETExterieur');
    expect(place(ambient)).toBe(0);
    expect(place(outdoor)).toBe(1);
    const total = (raw: unknown) =>
      consumptionOf(engine.run(raw as PreparedDpe['raw'], { owned: true }).output).reduce(
        (x, c) => x + c.byUse.ecs + c.byUse.ch,
        0,
      );
    const dpeWith = (code: string) => {
      const [resolved] = resolveChanges(p, [
        { referenceId: 'installation_ecs:0', editableKey: 'ReplaceGEN', editableValue: code },
      ]);
      return applyWorks(engine, p, [resolved!], defaultCosts()).raw;
    };
    expect(total(dpeWith('CET'))).toBeGreaterThan(total(dpeWith('CETExterieur')));
  });
});

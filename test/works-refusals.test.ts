/**
 * Why an option is not offered. A window at Uw 1.4 is as good as new double glazing (within 0.1)
 * and says so (1.3 + 0.1 in floating point refused it as "already as good (Uw 1.40; replaced from
 * Uw 1.4)", which contradicts itself).
 * Why no generator is offered on a heating installation, as the audit's item and `calc`'s refusal
 * say it: what the DPE holds (a stove, water emitters on a heating network or on an electric
 * heater), never an option's description ("an air/air heat pump is offered to replace electric
 * heaters" was read as an offer on a house heated by an oil stove). The bundled house with its gas
 * boiler rewritten; corpus DPEs: a heating network, a building whose electric generator feeds
 * water radiators too.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { elementsOf } from '../src/dpe/elements.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { auditDpe } from '../src/simulation/audit/index.js';
import { generatorName } from '../src/simulation/audit/items.js';
import type { PreparedDpe } from '../src/simulation/prepared.js';
import { defaultCosts } from '../src/works/costs.js';
import {
  applyWorks,
  labelOn,
  offeredOptions,
  priceOn,
  refusalsOn,
  resolveChanges,
} from '../src/works/apply.js';
import { consumptionOf } from '../src/engine/bills.js';
import { ecsGensOf, emsOf, gensOf } from '../src/works/context.js';
import { figuresOf, runWorks } from '../src/simulation/runs.js';
import { CORPUS, HAS_CORPUS, HOUSE } from './helpers.js';
import { preparedFile } from './corpus-engine.js';

if (!HAS_CORPUS)
  console.warn('*** works-refusals tests on corpus DPEs SKIPPED: ../shared/corpus absent ***');

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine();
});

const tmp = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-refusals-'));

/**
 * The bundled house with its boiler (generator 88) and its radiators (emitter 34) replaced; with
 * `heatingOnly`, the new generator heats only (the boiler also makes the hot water: usage 3), its
 * hot water left to the water heater's own entry; a wood appliance (20-46) burns logs or pellets.
 */
async function house(
  generator: string,
  emitter: string,
  heatingOnly = false,
): Promise<PreparedDpe> {
  const usage = heatingOnly ? '1' : '3';
  const id = Number(generator);
  const energy = id >= 20 && id <= 43 ? '4' : id >= 44 && id <= 46 ? '5' : '2';
  const xml = readFileSync(HOUSE, 'utf8')
    .replace(
      /<enum_type_generateur_ch_id>88<\/enum_type_generateur_ch_id>(\s*)<enum_usage_generateur_id>3<\/enum_usage_generateur_id>(\s*)<enum_type_energie_id>2</,
      `<enum_type_generateur_ch_id>${generator}</enum_type_generateur_ch_id>$1<enum_usage_generateur_id>${usage}</enum_usage_generateur_id>$2<enum_type_energie_id>${energy}<`,
    )
    .replace(
      '<enum_type_emission_distribution_id>34</enum_type_emission_distribution_id>',
      `<enum_type_emission_distribution_id>${emitter}</enum_type_emission_distribution_id>`,
    );
  expect(xml).toContain(`<enum_type_generateur_ch_id>${generator}<`);
  const file = path.join(tmp, `house-${generator}-${emitter}-${usage}.xml`);
  writeFileSync(file, xml);
  return prepared(file);
}

const prepared = (file: string) => preparedFile(engine, file);

const corpusDpe = (id: string) => prepared(path.join(CORPUS, `${id}.xml`));

/** What `prepare` records for the first heating generator filed under the registry's default
 * collective type (119) and read by the engine as its own 3CL row's type. */
const heatingDefault = (
  to: string,
  row: string,
): NonNullable<PreparedDpe['resolvedDefaults']>[number] => ({
  referenceId: 'installation_chauffage:0',
  generator: 0,
  from: '119',
  to,
  row,
});

function heatingRefusals(p: PreparedDpe, index = 0): string[] {
  const inst = elementsOf(p.raw, 'installation_chauffage')[index];
  if (!inst) throw new Error('no heating installation');
  return refusalsOn(p, 'installation_chauffage', inst);
}

describe('why no generator is offered on a heating installation', () => {
  it('an oil stove: an air/air heat pump replacing it is offered, nothing for water emitters or electric heaters; the engine heats on electricity, for less primary energy and emissions', async () => {
    // 47 poêle fioul ou gpl ou charbon, 23 poêle gpl
    const stove = await house('47', '23');
    const inst = elementsOf(stove.raw, 'installation_chauffage')[0]!;
    const codes = offeredOptions(stove, 'installation_chauffage', inst).map((r) => r.code);
    expect(codes).toContain('PACAirAirAppareils');
    for (const c of ['PACAirAir', 'RadiateursElecNF', 'PACAirEau', 'ChaudiereGazCondensation'])
      expect(codes).not.toContain(c);
    const why = heatingRefusals(stove);
    expect(why).toContain('no central heating with water emitters to replace');
    expect(why).toContain('no electric heaters to replace');
    for (const r of why) expect(r).not.toMatch(/is offered|are offered/);
    // its label names what it replaces here, and a warm-air generator's ducts (emitter 5)
    const pac = offeredOptions(stove, 'installation_chauffage', inst).find(
      (r) => r.code === 'PACAirAirAppareils',
    )!;
    expect(labelOn(pac, inst)).toBe(
      'Pompe à chaleur air/air à unités intérieures (remplace des poêles fioul, GPL ou charbon)',
    );
    const warmAir = await house('50', '5');
    const ducted = elementsOf(warmAir.raw, 'installation_chauffage')[0]!;
    expect(labelOn(pac, ducted)).toBe(
      'Pompe à chaleur air/air à unités intérieures (remplace un générateur d’air chaud à combustion, gaines non réutilisées)',
    );
    // priced as the air/air heat pump on electric heaters: € per m² heated, at least a split
    const costs = defaultCosts();
    const row = offeredOptions(stove, 'installation_chauffage', inst).find(
      (r) => r.code === 'PACAirAirAppareils',
    )!;
    const area = Number(inst.donnee_entree.surface_chauffee);
    expect(priceOn(row, inst, costs, stove.raw).eur).toBe(
      Math.round(
        Math.max(costs.figures.pac_air_air.minPerUnit ?? 0, area * costs.figures.pac_air_air.eur),
      ),
    );
    const change = [
      {
        referenceId: 'installation_chauffage:0',
        editableKey: 'ReplaceGEN',
        editableValue: 'PACAirAirAppareils',
      },
    ];
    const works = applyWorks(engine, stove, resolveChanges(stove, change), costs);
    const before = consumptionOf(engine.run(stove.raw, { owned: true }).output);
    const after = consumptionOf(engine.run(works.raw, { owned: true }).output);
    const heating = (use: typeof before, energy: string) =>
      use.filter((c) => c.energy === energy).reduce((x, c) => x + c.byUse.ch, 0);
    const electricity = '1';
    const fuels = (use: typeof before) =>
      use.filter((c) => c.energy !== electricity).reduce((x, c) => x + c.byUse.ch, 0);
    expect(fuels(before)).toBeGreaterThan(0);
    expect(fuels(after)).toBe(0);
    expect(heating(after, electricity)).toBeGreaterThan(0);
    const o = runWorks(engine, stove, change, costs);
    const f = figuresOf(o, 'activated');
    const f0 = figuresOf(runWorks(engine, stove, [], costs), 'activated');
    expect(f.ep).toBeLessThan(f0.ep);
    expect(f.ges).toBeLessThan(f0.ges);
  });

  it('a wood stove: a pellet stove replaces it (one appliance, 4 800 € by default, on the stove’s own emitter); the engine burns pellets instead of logs, for less primary energy; no air/air heat pump (said only where nothing else is)', async () => {
    // 26 poêle bûche installé entre 1990 et 2004, 21 poêle bois
    const stove = await house('26', '21', true);
    const inst = elementsOf(stove.raw, 'installation_chauffage')[0]!;
    const offered = offeredOptions(stove, 'installation_chauffage', inst);
    const codes = offered.map((r) => r.code);
    expect(codes).toContain('PoeleGranules');
    for (const c of ['PACAirAirAppareils', 'PACAirAir', 'PACAirEau', 'ChaudiereGazCondensation'])
      expect(codes).not.toContain(c);
    const why = heatingRefusals(stove);
    expect(why).toContain('no central heating with water emitters to replace');
    expect(why).toContain('no electric heaters to replace');
    expect(why).not.toContain('no independent gas, fuel-oil or coal heaters to replace');
    // the same refusal, alone, where it is all there is to say: the option's own applicability
    expect(
      refusalsOn(stove, 'installation_chauffage', inst, (r) => r.code === 'PACAirAirAppareils'),
    ).toEqual(['no independent gas, fuel-oil or coal heaters to replace']);
    // priced per appliance, from the costs table
    const costs = defaultCosts();
    const row = offered.find((r) => r.code === 'PoeleGranules')!;
    expect(costs.figures.poele_granules.eur).toBe(4800);
    expect(priceOn(row, inst, costs, stove.raw).eur).toBe(4800);
    const change = [
      {
        referenceId: 'installation_chauffage:0',
        editableKey: 'ReplaceGEN',
        editableValue: 'PoeleGranules',
      },
    ];
    const works = applyWorks(engine, stove, resolveChanges(stove, change), costs);
    const gen = gensOf(elementsOf(works.raw, 'installation_chauffage')[0]!);
    expect(gen.map((g) => String(g.donnee_entree.enum_type_generateur_ch_id))).toEqual(['46']);
    const em = emsOf(elementsOf(works.raw, 'installation_chauffage')[0]!);
    expect(em.map((e) => String(e.donnee_entree.enum_type_emission_distribution_id))).toEqual([
      '21',
    ]);
    const before = consumptionOf(engine.run(stove.raw, { owned: true }).output);
    const after = consumptionOf(engine.run(works.raw, { owned: true }).output);
    const heating = (use: typeof before, energy: string) =>
      use.filter((c) => c.energy === energy).reduce((x, c) => x + c.byUse.ch, 0);
    const LOGS = '4';
    const PELLETS = '5';
    expect(heating(before, LOGS)).toBeGreaterThan(0);
    expect(heating(after, LOGS)).toBe(0);
    // the 3CL tables: a log stove of 1990-2004 yields 0.6, a Flamme Verte pellet stove 0.87
    expect(heating(after, PELLETS) / heating(before, LOGS)).toBeCloseTo(0.6 / 0.87, 2);
    const f = figuresOf(runWorks(engine, stove, change, costs), 'activated');
    const f0 = figuresOf(runWorks(engine, stove, [], costs), 'activated');
    expect(f.ep).toBeLessThan(f0.ep);
  });

  it('a pellet stove is not offered where one with the Flamme Verte label is there, nor on a wood appliance that also makes the hot water', async () => {
    // 45 poêle à granulés flamme verte installé entre 2012 et 2019
    const recent = await house('45', '21', true);
    const inst = elementsOf(recent.raw, 'installation_chauffage')[0]!;
    expect(offeredOptions(recent, 'installation_chauffage', inst).map((r) => r.code)).not.toContain(
      'PoeleGranules',
    );
    expect(
      refusalsOn(recent, 'installation_chauffage', inst, (r) => r.code === 'PoeleGranules'),
    ).toEqual(['this equipment is already installed']);
    // a cooker of 1990-2004 that also makes the hot water (usage 3, as the boiler it replaces in
    // the file): its hot-water side would be left without an appliance
    const cooker = await house('24', '21');
    const cInst = elementsOf(cooker.raw, 'installation_chauffage')[0]!;
    expect(
      refusalsOn(cooker, 'installation_chauffage', cInst, (r) => r.code === 'PoeleGranules'),
    ).toEqual(['its wood appliance also makes the hot water (the hot-water side would be left)']);
    expect(
      offeredOptions(cooker, 'installation_chauffage', cInst).map((r) => r.code),
    ).not.toContain('PoeleGranules');
  });

  it('a boiler filed under the registry’s default collective type with its own 3CL row is that row’s boiler: simulated and replaced as the house’s own, named by its words and its row (the bundled house’s boiler filed as 119)', async () => {
    const own = await house('88', '34');
    const filed = await house('119', '34');
    // the engine reads the type from the generator's combustion row (tv_generateur_combustion_id
    // 4: chaudière gaz standard 1991-2000, type 88); the prepared DPE carries that type
    expect(filed.resolvedDefaults).toEqual([
      heatingDefault('88', 'Chaudière gaz standard 1991-2000'),
    ]);
    expect(own.resolvedDefaults).toBeUndefined();
    expect(filed.base.mode2026).toEqual(own.base.mode2026);
    const gen = gensOf(elementsOf(filed.raw, 'installation_chauffage')[0]!)[0]!;
    expect(generatorName(engine, 'installation_chauffage', gen)).toBe(
      'Gaz naturel - Chaudière gaz standard installée entre 1991 et 2000 (the DPE’s words; filed under the registry’s default type for an undescribed collective system, computed as its own 3CL row: Chaudière gaz standard 1991-2000)',
    );
    const codes = (p: PreparedDpe) =>
      offeredOptions(p, 'installation_chauffage', elementsOf(p.raw, 'installation_chauffage')[0]!)
        .map((r) => r.code)
        .sort();
    expect(codes(filed)).toContain('ChaudiereGazCondensation');
    expect(codes(filed)).toEqual(codes(own));
    expect(heatingRefusals(filed)).toEqual(heatingRefusals(own));
  });

  it('the boiler itself keeps its offers (no refusal of the gas condensing boiler)', async () => {
    const why = heatingRefusals(await house('88', '34'));
    expect(why.join(' | ')).not.toMatch(/water emitters/);
    // (the electric options' refusal: what the house has not)
    expect(why).toContain('no electric heaters to replace');
  });
});

describe.skipIf(!HAS_CORPUS)('corpus DPEs', () => {
  it('a heating network and electric storage heaters filed under the registry’s default collective type are the types the engine reads from their own rows, named by their words and their rows; a water heater the engine leaves at the default is named by its words (2262E0005683A, 2262E0004883G, 2162E1017681Z)', async () => {
    const networkDpe = await corpusDpe('2262E0005683A');
    expect(networkDpe.resolvedDefaults).toEqual([heatingDefault('107', 'Réseau de chaleur')]);
    const gen = gensOf(elementsOf(networkDpe.raw, 'installation_chauffage')[0]!)[0]!;
    expect(generatorName(engine, 'installation_chauffage', gen)).toBe(
      'Réseau de chaleur (the DPE’s words; filed under the registry’s default type for an undescribed collective system, computed as its own 3CL row: Réseau de chaleur)',
    );
    const network = heatingRefusals(networkDpe);
    expect(network).toContain(
      'its water emitters are fed by a heating network, which the catalogue does not replace',
    );
    expect(network.join(' | ')).not.toMatch(/what to replace is not known|default type/);
    // "Radiateur électrique à accumulation" with the row of a direct electric heater: the
    // engine computes a convector (efficiency 1, 3 698 kWh/yr as the XML's own), and the
    // catalogue replaces it as it does any convector
    const storageDpe = await corpusDpe('2262E0004883G');
    expect(storageDpe.resolvedDefaults).toEqual([
      heatingDefault('98', 'Générateur à effet joule direct'),
    ]);
    const heaters = elementsOf(storageDpe.raw, 'installation_chauffage')[0]!;
    expect(generatorName(engine, 'installation_chauffage', gensOf(heaters)[0]!)).toBe(
      'Radiateur électrique à accumulation (the DPE’s words; filed under the registry’s default type for an undescribed collective system, computed as its own 3CL row: Générateur à effet joule direct)',
    );
    expect(heatingRefusals(storageDpe).join(' | ')).not.toMatch(/default type/);
    expect(
      offeredOptions(storageDpe, 'installation_chauffage', heaters).map((r) => r.code),
    ).toContain('PACAirAir');
    // an electric water heater filed as the default, which the engine keeps: the DPE's words
    const tankDpe = await corpusDpe('2162E1017681Z');
    expect(tankDpe.resolvedDefaults).toEqual([heatingDefault('107', 'Réseau de chaleur')]);
    const tank = elementsOf(tankDpe.raw, 'installation_ecs')[0]!;
    expect(generatorName(engine, 'installation_ecs', ecsGensOf(tank)[0]!)).toBe(
      "Chauffe-eau vertical (the DPE’s words; its type there: système collectif par défaut en abscence d'information : chaudière fioul pénalisante)",
    );
  });

  it('2494E3676842T: collective water radiators on a heating network: the network is named, not "no water emitters"', async () => {
    const dpe = await corpusDpe('2494E3676842T');
    const why = heatingRefusals(dpe);
    expect(why).toContain(
      'its water emitters are fed by a heating network, which the catalogue does not replace',
    );
    expect(why).not.toContain('no central heating with water emitters to replace');
  });

  it('2535E0426429Q: an electric generator feeding electric panels and water radiators: the disagreement is named', async () => {
    const dpe = await corpusDpe('2535E0426429Q');
    // installation 1: generator 99 (electric panel), emitters 2 (electric panel) and 38 (water
    // radiators with valves) on the same link
    const why = heatingRefusals(dpe, 1);
    // (one fact, said once: both option families refuse it with the same words)
    expect(why[0]).toBe(
      'an electric heater feeds its water emitters (the DPE’s data disagree): not replaced',
    );
    expect(why.filter((r) => /electric|water emitters/.test(r))).toHaveLength(1);
  });

  it('2275E3206756S: an electric fan coil (emitter 50) on an electric generator: not "no electric heaters"', async () => {
    const dpe = await corpusDpe('2275E3206756S');
    const why = heatingRefusals(dpe, 1);
    expect(why).toContain(
      'its electric generator feeds emitters the catalogue does not replace (not radiators, convectors, panels or radiant floors and ceilings)',
    );
    expect(why).not.toContain('no electric heaters to replace');
  });

  it('2213E1322779R: a collective hot water says why no generator, not why no lagging (lagging does not treat the item)', async () => {
    // (2235E0705773N until its electric tanks could go to a building's hot-water heat pump; here
    // the registry's default for an undescribed system, with lagging offered)
    const dpe = await corpusDpe('2213E1322779R');
    // its row (tv_generateur_combustion_id 16) is the default's own, "35|84": nothing said of what
    // the generator is, so it stays the default
    expect(dpe.resolvedDefaults).toBeUndefined();
    const ecs = elementsOf(dpe.raw, 'installation_ecs')[0]!;
    expect(offeredOptions(dpe, 'installation_ecs', ecs).map((r) => r.code)).toEqual([
      'CalorifugeageECS',
    ]);
    const a = auditDpe(engine, dpe, {
      coef: 'activated',
      forceNormalization: false,
      costs: defaultCosts(),
      version: 't',
    });
    const hot = a.items
      .find((i) => i.key === 'heatingHotWater')
      ?.elements?.find((e) => e.referenceId === 'installation_ecs:0');
    expect(hot?.status).toBe('cannot');
    expect(hot?.reason).toBe(
      'no generator the aids accept can be offered here: hot water is the registry’s default for an undescribed collective system: what to replace is not known',
    );
  });

  it('2287E1308066Q: a window at Uw 1.4 is as good as new double glazing, and the reason says so without contradicting itself', async () => {
    const dpe = await corpusDpe('2287E1308066Q');
    const win = elementsOf(dpe.raw, 'baie_vitree')[1];
    if (!win) throw new Error('no window');
    expect(offeredOptions(dpe, 'baie_vitree', win)).toEqual([]);
    expect(refusalsOn(dpe, 'baie_vitree', win)).toEqual([
      'the window is already as good as new double glazing (Uw 1.40; replaced above Uw 1.4)',
    ]);
  });
});

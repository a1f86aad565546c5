/**
 * Issue 14: costs at the scale of what the DPE covers, collective catalogue rows that move the
 * engine, clean registry packs, classes and next-class hints that follow the official class.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '../src/contract/constants.js';
import { STANDARD_LIMITS, classesOf } from '../src/contract/classes.js';
import { scopeOf, dwellingsServed } from '../src/dpe/building.js';
import { elementsOf, referenceId } from '../src/dpe/elements.js';
import type { RawDpe } from '../src/dpe/raw.js';
import { readDpeFile } from '../src/dpe/source.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { renderPacksClean } from '../src/cli/render/classes.js';
import { makeStyle } from '../src/cli/render/style.js';
import { classesTable, registryOfficialClass } from '../src/simulation/classes-table.js';
import { nextClassHint } from '../src/simulation/hints.js';
import {
  packTargets,
  registryPacks,
  withScenarioCosts,
  type ScenarioInPackFrame,
} from '../src/simulation/packs.js';
import { initialSimulation } from '../src/simulation/initial.js';
import { calculate } from '../src/simulation/recalculation.js';
import { resolveChanges } from '../src/works/apply.js';
import { prepare, type PreparedDpe } from '../src/simulation/prepared.js';
import { runWorks } from '../src/simulation/runs.js';
import { offeredOptions } from '../src/works/apply.js';
import { CATALOGUE } from '../src/works/catalogue.js';
import { defaultCosts, steppedPrice, withOverrides } from '../src/works/costs.js';
import stringWidth from 'string-width';
import type { AuditResponse } from '../src/contract/audit.js';
import { CORPUS, HAS_CORPUS, HOUSE, ROOT, runCli } from './helpers.js';
import { preparedFile } from './corpus-engine.js';

const costs = defaultCosts();
const T = { ...STANDARD_LIMITS, smallSurface: false, highAltitude: false };
let engine: Engine;

beforeAll(async () => {
  engine = await loadEngine();
});

const prep = (file: string) => preparedFile(engine, file);

describe('a boiler room priced by its power (France Chaleur Urbaine steps)', () => {
  it('within a step: the step’s price; above 1 MW: pro rata of the last step, said once', () => {
    const costs = defaultCosts();
    const k = Math.round(1.3 * 1.055 * 1000) / 1000; // fitting and VAT over the equipment excl. VAT
    const within = steppedPrice(costs, 'chaufferie_gaz_condensation', 299);
    expect(within.step).toBe('≤ 300 kW');
    expect(within.eur).toBeCloseTo(37_500 * k, 0);
    const above = steppedPrice(costs, 'chaufferie_gaz_condensation', 1294);
    expect(above.step).toBe('pro rata above 1\u202f000 kW');
    expect(above.eur).toBeCloseTo(((87_225 * 1294) / 1000) * k, 0);
  });
});

describe('next-class hints follow the official class', () => {
  it('energy in C, GES in D: the official class is D, GES holds it back', () => {
    const classes = classesOf(150, 40, T);
    expect(classes).toEqual({ energy: 'C', ges: 'D', dpe: 'D' });
    const h = nextClassHint(classes, 150, 40, T);
    expect(h).toMatchObject({ next: 'C', resteEp: 0, resteGes: 10, frein: 'ges' });
  });
  it('both over the next limits; A has no next class', () => {
    expect(nextClassHint(classesOf(200, 40, T), 200, 40, T)).toMatchObject({
      next: 'C',
      resteEp: 20,
      resteGes: 10,
      frein: 'energie+ges',
    });
    expect(nextClassHint(classesOf(50, 3, T), 50, 3, T).next).toBeUndefined();
  });
});

describe('classes side by side (fixture house)', () => {
  it('registry, engine with the registry rules, engine today; official = worse of', async () => {
    const p = await prep(HOUSE);
    const t = classesTable(p, 'activated');
    expect(t.rows.map((r) => r.source)).toEqual([
      'registry',
      'engine-registry-rules',
      'engine-today',
    ]);
    for (const r of t.rows.slice(1)) {
      const c = classesOf(
        r.epM2,
        r.gesM2,
        r.seuils === 'today' ? t.thresholdsToday : t.thresholdsRegistry,
      );
      expect([r.energie, r.ges, r.officielle]).toEqual([c.energy, c.ges, c.dpe]);
    }
    expect(t.rows[0]?.officielle).toBe(p.facts.registry.classe);
    expect(t.thresholdsRegistry.dpe.C).toBe(180);
  });
});

describe('registry packs shown clean', () => {
  const raw: RawDpe = {
    descriptif_travaux: {
      pack_travaux_collection: {
        pack_travaux: [
          {
            enum_num_pack_travaux_id: '1',
            conso_5_usages_apres_travaux: '150',
            emission_ges_5_usages_apres_travaux: '35',
            cout_pack_travaux_min: '20000',
            cout_pack_travaux_max: '30000',
            travaux_collection: {
              travaux: [
                { description_travaux: 'Isolation des murs' },
                { description_travaux: 'Sans' },
                { description_travaux: '' },
                { description_travaux: 'sans ' },
                { description_travaux: 'Pompe à chaleur\nsecond line' },
              ],
            },
          },
          {
            conso_5_usages_apres_travaux: '60',
            emission_ges_5_usages_apres_travaux: '2',
            cout_pack_travaux_min: '100',
            cout_pack_travaux_max: '150',
            travaux_collection: { travaux: { description_travaux: 'Sans' } },
          },
        ],
      },
    },
  };
  it('drops "Sans" and empty steps, computes the class worse-of, flags placeholders', () => {
    const scenarios: ScenarioInPackFrame[] = [
      {
        classe: 'D',
        cout: 9000,
        editables: [{ referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE45' }],
      },
      { classe: 'C', cout: 25000, editables: [] },
    ];
    const [a, b] = withScenarioCosts(registryPacks(raw, T), scenarios);
    expect(a).toMatchObject({
      description: 'Isolation des murs + Pompe à chaleur',
      classeApres: 'D', // energy C (150) but GES D (35)
      coutPlaceholder: false,
      coutScenario: 9000,
      editablesScenario: [
        { referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE45' },
      ],
    });
    expect(b).toMatchObject({
      description: 'pack',
      classeApres: 'A',
      coutPlaceholder: true,
      coutScenario: null,
    });
    // without thresholds, no class
    expect(registryPacks(raw)[0]?.classeApres).toBeNull();
    // the classes a scenario is searched for: every pack's, placeholders too (they are shown)
    expect(packTargets(registryPacks(raw, T))).toEqual(['D', 'A']);
  });
});

describe('registry packs reaching no better class than the DPE’s own', () => {
  // 2287E1429838E: registry 453 kWh/m², 79 kg (G); its one pack gives 453.2 / 79.8 after works
  const registry = {
    ep: undefined,
    epM2: 453,
    ef: undefined,
    ges: undefined,
    gesM2: 79,
    cout: undefined,
    classe: undefined as string | undefined,
    classeGes: undefined,
  };
  const raw: RawDpe = {
    descriptif_travaux: {
      pack_travaux_collection: {
        pack_travaux: [
          {
            conso_5_usages_apres_travaux: '453.230076414917',
            emission_ges_5_usages_apres_travaux: '79.7640205156719',
            cout_pack_travaux_min: '17600',
            cout_pack_travaux_max: '26400',
            travaux_collection: { travaux: { description_travaux: 'Isolation des murs' } },
          },
          {
            conso_5_usages_apres_travaux: '300',
            emission_ges_5_usages_apres_travaux: '60',
            cout_pack_travaux_min: '30000',
            cout_pack_travaux_max: '40000',
            travaux_collection: { travaux: { description_travaux: 'Pompe à chaleur' } },
          },
        ],
      },
    },
  };
  const scenarios: ScenarioInPackFrame[] = [
    { classe: 'F', cout: 924, editables: [] },
    {
      classe: 'E',
      cout: 21000,
      editables: [{ referenceId: 'mur:1', editableKey: 'ISOLATION', editableValue: 'IMurITI37' }],
    },
    { classe: 'D', cout: 35000, editables: [] },
  ];
  const packsOf = (avant: string | null) =>
    withScenarioCosts(registryPacks(raw, T, avant, 2.3), scenarios);

  it('the registry class: its own letter, else worse-of from its figures', () => {
    expect(registryOfficialClass(registry, T)).toBe('G');
    expect(registryOfficialClass({ ...registry, epM2: 200, gesM2: 60 }, T)).toBe('E');
    expect(registryOfficialClass({ ...registry, classe: 'F' }, T)).toBe('F');
    expect(registryOfficialClass({ ...registry, classe: '?', epM2: undefined }, T)).toBeNull();
  });

  it('after figures equal to the registry’s: no class gain, no scenario cost; a gain keeps it', () => {
    const avant = registryOfficialClass(registry, T);
    const [same, better] = packsOf(avant);
    expect(same).toMatchObject({
      classeApres: 'G',
      classeAvant: 'G',
      sansGainDeClasse: true,
      coutScenario: null,
      editablesScenario: null,
    });
    // E (energy 300, GES 60): the cheapest scenario reaching E or better
    expect(better).toMatchObject({
      classeApres: 'E',
      classeAvant: 'G',
      sansGainDeClasse: false,
      coutScenario: 21000,
      editablesScenario: [
        { referenceId: 'mur:1', editableKey: 'ISOLATION', editableValue: 'IMurITI37' },
      ],
    });
    // the same class as the registry, not only the same figures: no gain either
    expect(packsOf('E')[1]).toMatchObject({
      sansGainDeClasse: true,
      coutScenario: null,
    });
    // a pack gaining no class asks for no scenario
    expect(packTargets(packsOf('G'))).toEqual(['E']);
    // without the registry class, nothing is flagged
    expect(packsOf(null)[0]).toMatchObject({
      classeAvant: null,
      sansGainDeClasse: false,
      coutScenario: 924,
    });
  });

  it('the renderer flags the pack and counts it, within 80 columns', () => {
    const packs = packsOf('G');
    const out = renderPacksClean(packs, makeStyle(false), { width: 80, wide: false });
    const lines = out.split('\n');
    for (const l of lines) expect(stringWidth(l), l).toBeLessThanOrEqual(80);
    const flag = /no\s+class\s+gain/; // one line, its spaces no-break
    expect(lines.filter((l) => flag.test(l))).toHaveLength(1);
    // the flag sits in the first pack's row, under its After cell (the second pack has a cost)
    const flagRow = lines.findIndex((l) => flag.test(l));
    const afterCol = lines.find((l) => l.includes('After'))?.indexOf('After') ?? -1;
    expect(afterCol).toBeGreaterThan(0);
    expect(lines[flagRow]?.search(flag)).toBe(afterCol);
    expect(lines.slice(0, flagRow).some((l) => l.startsWith('│ 1 '))).toBe(true);
    expect(lines.slice(0, flagRow).some((l) => l.startsWith('│ 2 '))).toBe(false);
    expect(out).toMatch(/21\s000\s€/);
    // each pack's figures after works whole, however narrow the After column (the class on a
    // line of its own: " G  (453" did not fit and was cut "(4…")
    expect(out).not.toContain('…');
    for (const figure of ['453', '300']) expect(out).toMatch(new RegExp(`│ ${figure}\\s`));
    expect(out).toContain(
      "1 pack reaches no better class than the DPE's own (G): nothing to compare.",
    );
    // the frame the packs are compared in, said once (wrapped within 80 columns)
    expect(out.replace(/\s+/g, ' ')).toContain(
      "Pack classes and dpe-sim's costs use the registry's rules for this DPE, as the diagnostician's software did: electricity coefficient 2.3, thresholds at its date.",
    );
    // without such packs, no footer
    expect(
      renderPacksClean(packs.slice(1), makeStyle(false), { width: 80, wide: false }),
    ).not.toContain('no better class');
  });
});

const corpusIt = HAS_CORPUS ? it : it.skip;
if (!HAS_CORPUS) console.warn(`corpus not found at ${CORPUS}: corpus cost tests skipped`);

/** Whole-building DPEs of the corpus named in issue 14, and the others the method flags. */
function wholeBuildings(): string[] {
  return readdirSync(CORPUS).filter((f) => f.endsWith('.xml'));
}

const SYSTEMS: Category[] = ['installation_chauffage', 'installation_ecs', 'ventilation'];
const HEAT_PUMPS = new Set(['PACAirEau', 'PACAirEauECS', 'PACAirEauCollective']);

/**
 * Sourced figures below the sanity floor, kept as they are (README "Costs"): 2592E0472851H
 * is a class-C building of 70 flats whose DPE gives a 145 kW generator (2 kW per flat); at the
 * FCU figure of 1,378 €/kW incl. fitting and VAT, a collective heat pump comes to 2,854 € a flat.
 */
const KNOWN_BELOW = new Set(['2592E0472851H.xml|PACAirEauCollective']);

function floorOf(category: Category, code: string): number {
  if (category === 'installation_chauffage') return HEAT_PUMPS.has(code) ? 4000 : 700;
  if (category === 'installation_ecs') return 500;
  return 400;
}

describe('costs scale with what each installation serves (corpus)', () => {
  corpusIt(
    '2535E0426429Q (28 flats, individual gas): per-flat prices × dwellings served, with the detail',
    async () => {
      const p = await prep(path.join(CORPUS, '2535E0426429Q.xml'));
      const b = scopeOf(p.raw);
      expect(b).toMatchObject({ coverage: 'immeuble', dwellings: 28 });
      const inst = elementsOf(p.raw, 'installation_chauffage')[0];
      if (!inst) throw new Error('no heating');
      const n = dwellingsServed(b, inst, 'ch', p.raw);
      expect(n).toBe(14); // 755.87 of 1,510.81 m² heated
      const run = runWorks(
        engine,
        p,
        [
          {
            referenceId: 'installation_chauffage:0',
            editableKey: 'ReplaceGEN',
            editableValue: 'ChaudiereGazCondensation',
          },
        ],
        costs,
      );
      expect(run.cout).toBe(14 * 4770);
      expect(run.applied[0]?.coutDetail).toBe('14 × 4\u202f770 €');
    },
    120_000,
  );

  corpusIt(
    'sanity floors per dwelling served on every whole-building DPE',
    async () => {
      let checked = 0;
      for (const f of wholeBuildings()) {
        const prepared = prepare(engine, await readDpeFile(path.join(CORPUS, f)));
        if (!prepared.ok) continue;
        const p = prepared.dpe;
        const b = scopeOf(p.raw);
        if (b.coverage !== 'immeuble') continue;
        for (const category of SYSTEMS) {
          elementsOf(p.raw, category).forEach((el, index) => {
            for (const row of offeredOptions(p, category, el)) {
              const change = {
                referenceId: referenceId(category, index),
                editableKey: row.key,
                editableValue: row.code,
              };
              const run = runWorks(engine, p, [change], costs);
              const kind =
                category === 'installation_chauffage'
                  ? 'ch'
                  : category === 'installation_ecs'
                    ? 'ecs'
                    : 'vent';
              const served =
                row.recipe.kind === 'heating' && row.code.includes('Collective')
                  ? b.dwellings
                  : dwellingsServed(b, el, kind, p.raw);
              const per = run.cout / served;
              // distribution works (valves, pipes) are not generators: no floor in the issue
              if (row.recipe.kind === 'distribution') continue;
              checked++;
              if (KNOWN_BELOW.has(`${f}|${row.code}`)) {
                expect(per).toBeLessThan(floorOf(category, row.code));
                continue;
              }
              expect(
                per,
                `${f} ${change.referenceId} ${row.code}: ${run.applied[0]?.coutDetail}`,
              ).toBeGreaterThanOrEqual(floorOf(category, row.code));
            }
          });
        }
      }
      expect(checked).toBeGreaterThan(10);
    },
    600_000,
  );

  corpusIt(
    'every collective catalogue row changes engine inputs that move the result',
    async () => {
      const rows = CATALOGUE.filter(
        (r) =>
          r.recipe.kind === 'distribution' ||
          (r.recipe.kind === 'heating' && r.code.match(/Collective|Chaufferie/)) ||
          (r.recipe.kind === 'hot-water' && r.code.includes('Collective')),
      );
      const moved = new Map<string, string>();
      for (const f of readdirSync(CORPUS)
        .filter((x) => x.endsWith('.xml'))
        .sort()) {
        if (moved.size === rows.length) break;
        const prepared = prepare(engine, await readDpeFile(path.join(CORPUS, f)));
        if (!prepared.ok) continue;
        const p = prepared.dpe;
        for (const row of rows) {
          if (moved.has(row.code)) continue;
          for (const [index, el] of elementsOf(p.raw, row.category).entries()) {
            if (!offeredOptions(p, row.category, el).includes(row)) continue;
            const run = runWorks(
              engine,
              p,
              [
                {
                  referenceId: referenceId(row.category, index),
                  editableKey: row.key,
                  editableValue: row.code,
                },
              ],
              costs,
            );
            if (run.mode2026.ep !== p.base.mode2026.ep) {
              moved.set(row.code, `${f} ${run.applied[0]?.coutDetail}`);
              break;
            }
          }
        }
      }
      expect([...moved.keys()].sort()).toEqual(rows.map((r) => r.code).sort());
    },
    600_000,
  );
});

describe.skipIf(!HAS_CORPUS)('registry packs compared in their own frame', () => {
  // 2474E3798234X: a whole building heated by electricity, computed by the registry at 2.3 (F,
  // 384 kWh/m²); at 1.9 it is E. Its first pack reaches D (199 kWh/m², 6.5 kg) at 2.3.
  it('a pack gets the cost of a scenario reaching its class at the registry coefficient', async () => {
    const engine = await loadEngine();
    const text = await readDpeFile(path.join(CORPUS, '2474E3798234X.xml'));
    const run = (coef: 'activated' | 'deactivated') => {
      const p = prepare(engine, text);
      if (!p.ok) throw new Error(p.alert.content);
      return initialSimulation(engine, p.dpe, {
        coef,
        forceNormalization: false,
        simulationId: 'test',
        costs: defaultCosts(),
      });
    };
    const user = run('activated');
    const pack = user.registryPacks?.find((p) => p.classeApres === 'D' && p.coutMin !== null);
    expect(pack).toMatchObject({ registryCoef: 2.3, classeAvant: 'F', sansGainDeClasse: false });
    const cheapestFor = (body: typeof user, cls: number) =>
      Math.min(
        ...(body.autoSolutions ?? [])
          .filter((s) => s.result.classe_bilan_dpe.value <= cls)
          .map((s) => s.cout),
      );
    // at 1.9 D is one class away and cheaper: not what the pack is compared with
    expect(pack?.coutScenario).toBeGreaterThan(cheapestFor(user, 4));
    // what `initial --coef 2025` finds for D, the engine having run it
    expect(pack?.coutScenario).toBe(cheapestFor(run('deactivated'), 4));
    // its works, recalculated at 2.3 (`calc --coef 2025`), reach D
    const recalc = () => {
      const p = prepare(engine, text);
      if (!p.ok) throw new Error(p.alert.content);
      return calculate(engine, p.dpe, resolveChanges(p.dpe, pack?.editablesScenario ?? []), {
        coef: 'deactivated',
        forceNormalization: false,
        simulationId: 'test',
        scenario: 'default',
        includeDpe: false,
        costs: defaultCosts(),
      }).calculation;
    };
    const at23 = recalc();
    expect(pack?.editablesScenario?.length).toBeGreaterThan(0);
    expect(at23.result.classe_bilan_dpe.value).toBeLessThanOrEqual(4);
  });
});

describe('an air/air heat pump priced by the area it heats, at least a single split a dwelling', () => {
  const airAir = (index: number) => ({
    referenceId: `installation_chauffage:${index}`,
    editableKey: 'ReplaceGEN',
    editableValue: 'PACAirAir',
  });
  const heated = (p: PreparedDpe, index: number): number => {
    const inst = elementsOf(p.raw, 'installation_chauffage')[index];
    return Number(inst?.donnee_entree.surface_chauffee);
  };

  it('the bundled flat: its heated area × 75 €/m²; a costs file’s minimum above it binds', async () => {
    const p = await prep(path.join(ROOT, 'fixtures', '0000E0000002F.xml'));
    const area = heated(p, 0);
    expect(area).toBe(45.2);
    const run = runWorks(engine, p, [airAir(0)], costs);
    expect(run.cout).toBe(Math.round(45.2 * 75));
    expect(run.applied[0]?.coutDetail).toBe('45.2 m² × 75 €/m²');
    const mine = withOverrides(costs, { pac_air_air: { minPerUnit: 4000 } }, 'mine.json');
    // a run is memoised per prepared DPE, made with one cost table: another table, another one
    const again = async () => prep(path.join(ROOT, 'fixtures', '0000E0000002F.xml'));
    const least = runWorks(engine, await again(), [airAir(0)], mine);
    expect(least.cout).toBe(4000);
    expect(least.applied[0]?.coutDetail).toBe(
      '1 × 4\u202f000 € (the least an appliance costs; 45.2 m² × 75 €/m² = 3\u202f390 €)',
    );
    // the table's delta moves both
    const dearer = withOverrides(costs, { delta: 10 }, 'mine.json');
    expect(runWorks(engine, await again(), [airAir(0)], dearer).cout).toBe(
      Math.round(45.2 * 75 * 1.1),
    );
  });

  corpusIt(
    '2287E1307980I: each zone by its own area, the 14 m² one at a single split’s price',
    async () => {
      const p = await prep(path.join(CORPUS, '2287E1307980I.xml'));
      expect([heated(p, 0), heated(p, 1)]).toEqual([48.9, 14.4]);
      const big = runWorks(engine, p, [airAir(0)], costs);
      expect(big.cout).toBe(Math.round(48.9 * 75));
      const small = runWorks(engine, p, [airAir(1)], costs);
      expect(small.cout).toBe(3000);
      expect(small.applied[0]?.coutDetail).toBe(
        '1 × 3\u202f000 € (the least an appliance costs; 14.4 m² × 75 €/m² = 1\u202f080 €)',
      );
    },
    120_000,
  );

  corpusIt(
    '2287E1307980I’s audit by the built bin: each heat pump’s line says the area it heats, and the minimum where it binds',
    async () => {
      const json = await runCli(['audit', path.join(CORPUS, '2287E1307980I.xml'), '--json']);
      expect(json.code).toBe(0);
      const a = JSON.parse(json.stdout) as AuditResponse;
      const lines = a.proposals
        .flatMap((p) => p.steps.flatMap((s) => s.works))
        .filter((w) => w.editableValue === 'PACAirAir');
      expect(lines.length).toBeGreaterThan(0);
      for (const w of lines) {
        const big = w.referenceId === 'installation_chauffage:0';
        expect(w.heatedArea).toBe(big ? 48.9 : 14.4);
        expect(w.cost).toBe(big ? Math.round(48.9 * 75) : 3000);
        expect(w.leastPerDwelling).toBe(big ? undefined : 3000);
      }
      const text = await runCli(['audit', path.join(CORPUS, '2287E1307980I.xml')], {
        env: { COLUMNS: '160' },
      });
      expect(text.code).toBe(0);
      const shown = text.stdout.replace(/\u00a0|\u202f/g, ' ');
      expect(shown).toContain('1 unit (48.9 m² heated)');
      expect(shown).toContain('1 unit (14.4 m² heated, at the 3 000 € minimum)');
    },
    300_000,
  );

  corpusIt(
    '2431E1275871H (8 small flats): a dwelling’s part of the area, × the dwellings served',
    async () => {
      const p = await prep(path.join(CORPUS, '2431E1275871H.xml'));
      const b = scopeOf(p.raw);
      expect(b).toMatchObject({ coverage: 'immeuble', dwellings: 8 });
      let total = 0;
      for (const [index, el] of elementsOf(p.raw, 'installation_chauffage').entries()) {
        if (!offeredOptions(p, 'installation_chauffage', el).some((r) => r.code === 'PACAirAir'))
          continue;
        const n = dwellingsServed(b, el, 'ch', p.raw);
        const each = heated(p, index) / n;
        const run = runWorks(engine, p, [airAir(index)], costs);
        expect(run.cout).toBe(Math.round(n * Math.max(3000, each * 75)));
        expect(run.applied[0]?.coutDetail).toMatch(
          new RegExp(`^${n} × 3\u202f000 € \\(the least an appliance costs; a dwelling's `),
        );
        total += n;
      }
      expect(total).toBe(8);
    },
    120_000,
  );
});

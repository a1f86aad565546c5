/**
 * Issue 14: costs at the scale of what the DPE covers, collective catalogue rows that move the
 * engine, clean registry packs, classes and next-class hints that follow the official class.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '../src/contract/constants.js';
import { STANDARD_LIMITS, classesOf } from '../src/contract/classes.js';
import { buildingOf, dwellingsServed } from '../src/dpe/building.js';
import { elementsOf, referenceId } from '../src/dpe/elements.js';
import type { RawDpe } from '../src/dpe/raw.js';
import { readDpeFile } from '../src/dpe/source.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { classesTable } from '../src/simulation/classes-table.js';
import { nextClassHint } from '../src/simulation/hints.js';
import { registryPacks } from '../src/simulation/packs.js';
import { prepare, type PreparedDpe } from '../src/simulation/prepared.js';
import { runWorks } from '../src/simulation/runs.js';
import { offeredOptions } from '../src/works/apply.js';
import { CATALOGUE } from '../src/works/catalogue.js';
import { defaultCosts } from '../src/works/costs.js';
import { CORPUS, HAS_CORPUS, HOUSE } from './helpers.js';

const costs = defaultCosts();
const T = { ...STANDARD_LIMITS, smallSurface: false, highAltitude: false };
let engine: Engine;

beforeAll(async () => {
  engine = await loadEngine();
});

async function prep(file: string): Promise<PreparedDpe> {
  const p = prepare(engine, await readDpeFile(file));
  if (!p.ok) throw new Error(`${file} blocked: ${p.alert.id}`);
  return p.dpe;
}

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
    const solutions = [
      { result: { classe_bilan_dpe: { value: 4, VInit: 6, title: '' } }, cout: 9000 },
      { result: { classe_bilan_dpe: { value: 3, VInit: 6, title: '' } }, cout: 25000 },
    ] as unknown as Parameters<typeof registryPacks>[2];
    const [a, b] = registryPacks(raw, T, solutions);
    expect(a).toMatchObject({
      description: 'Isolation des murs + Pompe à chaleur',
      classeApres: 'D', // energy C (150) but GES D (35)
      coutPlaceholder: false,
      coutScenario: 9000,
    });
    expect(b).toMatchObject({
      description: 'pack',
      classeApres: 'A',
      coutPlaceholder: true,
      coutScenario: null,
    });
    // without thresholds, no class
    expect(registryPacks(raw)[0]?.classeApres).toBeNull();
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
      const b = buildingOf(p.raw);
      expect(b).toMatchObject({ coverage: 'immeuble', dwellings: 28 });
      const inst = elementsOf(p.raw, 'installation_chauffage')[0];
      if (!inst) throw new Error('no heating');
      const n = dwellingsServed(b, inst, 'ch');
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
      expect(run.applied[0]?.coutDetail).toBe('14 × 4 770 €');
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
        const b = buildingOf(p.raw);
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
                  : dwellingsServed(b, el, kind);
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
          (r.recipe.kind === 'heating' && r.code.match(/Collective|Chaufferie/)),
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

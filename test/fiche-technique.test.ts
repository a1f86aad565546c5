/**
 * The engine's `getFicheTechnique` (a DPE's technical sheets searched by category, description and
 * classifications) is replaced by the same search in loops with the lowered texts kept
 * (src/engine/patches/memo/fiche-technique.js, `__dpeSimFicheOn`). Here the engine's own function
 * (its module loaded unpatched) and the patched one (as the module-load hook patches it, and as
 * built into dist/engine/open3cl.bundle.js) are asked the same questions: hand-made sheets for
 * every branch (a sheet list or a row list that is not an array, holes, null rows, numbers, a
 * sheet without rows, which throws), and every corpus DPE's sheets, raw and sanitized, with the
 * questions the engine asks (each category, its descriptions, the classifications it passes: the
 * windows' labels, the generators' descriptions, years and fuels) and the other field. The answer
 * must be the same row (the same object) or the same exception.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseDpeXml } from '../src/dpe/xml.js';
import type { RawDpe } from '../src/dpe/raw.js';
import { loadEngine } from '../src/engine/engine.js';
import { frozenOriginal, worksCopy } from '../src/works/works-copy.js';
import { CORPUS, FIXTURES, HAS_CORPUS, ROOT } from './helpers.js';

type Fiche = (
  dpe: unknown,
  category: string,
  description: string,
  classifications?: unknown[],
  field?: string,
) => unknown;
interface FicheModule {
  default: Fiche;
  __dpeSimFicheOn?: true;
}
interface PatchedSanitizer extends SanitizerModule {
  __dpeSimSheetSourceOf?: (copy: object) => object | undefined;
}
interface SanitizerModule {
  default: new () => { execute(dpe: unknown): unknown };
}

const require = createRequire(import.meta.url);
/** the engine's module as published: a URL of its own (the query), so no hook patches it */
const ORIGINAL_URL = `${pathToFileURL(require.resolve('@open3cl/engine/ficheTechnique.js')).href}?original`;
const SANITIZER_URL = `${pathToFileURL(require.resolve('@open3cl/engine/dpe-sanitizer.service.js')).href}?original`;

let original: FicheModule;
let hooked: FicheModule;
let bundled: FicheModule;
let sanitizer: SanitizerModule;
let hookedSanitizer: PatchedSanitizer;
let bundledSanitizer: PatchedSanitizer;

beforeAll(async () => {
  original = (await import(ORIGINAL_URL)) as FicheModule;
  sanitizer = (await import(SANITIZER_URL)) as SanitizerModule;
  await loadEngine();
  const modules = await import('../src/engine/open3cl-modules.js');
  hooked = modules.ficheTechnique as FicheModule;
  hookedSanitizer = modules.sanitizer as PatchedSanitizer;
  const bundle = pathToFileURL(path.join(ROOT, 'dist', 'engine', 'open3cl.bundle.js')).href;
  const built = (await import(bundle)) as {
    ficheTechnique: FicheModule;
    sanitizer: PatchedSanitizer;
  };
  bundled = built.ficheTechnique;
  bundledSanitizer = built.sanitizer;
});

type Question = [string, string, unknown[] | undefined, string | undefined];

function answer(f: Fiche, dpe: unknown, q: Question): { row: unknown } | { error: string } {
  try {
    const [category, description, classifications, field] = q;
    return { row: f(dpe, category, description, classifications, field) };
  } catch (e) {
    return { error: e instanceof Error ? e.name : String(e) };
  }
}

/** each question asked of the original and of `mod`: the same row (by identity), or both throw */
function expectSame(mod: FicheModule, dpe: unknown, questions: Question[], what: string): number {
  let found = 0;
  for (const q of questions) {
    const want = answer(original.default, dpe, q);
    const got = answer(mod.default, dpe, q);
    const label = `${what}: ${JSON.stringify(q)}`;
    if ('error' in want) expect(got, label).toEqual(want);
    else {
      expect('row' in got, label).toBe(true);
      expect((got as { row: unknown }).row, label).toBe(want.row);
      if (want.row !== null) found++;
    }
  }
  return found;
}

const DESCRIPTIONS = [
  'joint',
  'exposées',
  'après 2012',
  'hors volume habitable',
  'Présence comptage',
  'année',
  'stockage',
  'Présence ventilateur / dispositif circulation air dans circuit combustion',
  'surface',
  'É',
  '',
];

/** the engine's questions on a DPE's sheets, and more: every category, description and label */
function questionsFor(dpe: Record<string, unknown>): Question[] {
  const labels = new Set<unknown>(['Autre système à combustion', 'bouilleur', 1950, 'Gaz', '']);
  const walk = (v: unknown, key = ''): void => {
    if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) walk(x, k);
    else if (key === 'description' || key === 'valeur') labels.add(v);
  };
  walk(dpe.logement);
  walk(dpe.fiche_technique_collection);
  const some = [...labels].filter((_, i) => i % 7 === 0).slice(0, 40);
  const qs: Question[] = [];
  for (let c = 0; c <= 12; c++)
    for (const d of DESCRIPTIONS) {
      qs.push([String(c), d, undefined, undefined]);
      qs.push([String(c), d, [], 'valeur']);
      for (const l of some) qs.push([String(c), d, [l], undefined]);
      qs.push([String(c), d, [undefined, some[1], null, some[2]], undefined]);
      qs.push([String(c), d, some.slice(0, 4), 'valeur']);
    }
  return qs;
}

function hand(): [string, unknown][] {
  const row = (description: unknown, valeur: unknown) => ({ description, valeur });
  const holes: unknown[] = [row('x', 'Joint oui'), row('joint', 'a')];
  delete holes[0];
  return [
    ['no collection', {}],
    ['empty', { fiche_technique_collection: {} }],
    [
      'one sheet, one row',
      {
        fiche_technique_collection: {
          fiche_technique: {
            enum_categorie_fiche_technique_id: '4',
            sous_fiche_technique_collection: { sous_fiche_technique: row('Joint', 'Nord') },
          },
        },
      },
    ],
    [
      'rows of every kind',
      {
        fiche_technique_collection: {
          fiche_technique: [
            null,
            {
              enum_categorie_fiche_technique_id: '4',
              sous_fiche_technique_collection: {
                sous_fiche_technique: [row(0, 1950), row('JOINT', 'Gaz'), holes, row('joint', 7)],
              },
            },
            {
              enum_categorie_fiche_technique_id: '4',
              sous_fiche_technique_collection: { sous_fiche_technique: holes },
            },
            { enum_categorie_fiche_technique_id: 4, sous_fiche_technique_collection: {} },
          ],
        },
      },
    ],
    [
      'a null row',
      {
        fiche_technique_collection: {
          fiche_technique: [
            {
              enum_categorie_fiche_technique_id: '7',
              sous_fiche_technique_collection: {
                sous_fiche_technique: [row('année', 'bouilleur 1990'), null],
              },
            },
          ],
        },
      },
    ],
    [
      'a sheet without rows after the one found',
      {
        fiche_technique_collection: {
          fiche_technique: [
            {
              enum_categorie_fiche_technique_id: '10',
              sous_fiche_technique_collection: {
                sous_fiche_technique: [row('Façades exposées', 'x')],
              },
            },
            { enum_categorie_fiche_technique_id: '10' },
          ],
        },
      },
    ],
  ];
}

const HAND_QUESTIONS: Question[] = [];
for (const c of ['4', '7', '10', '3'])
  for (const d of ['joint', 'année', 'exposées', 'x', ''])
    for (const cls of [undefined, [], ['nord'], [1950], ['gaz', 'JOINT'], ['bouilleur'], [7], [0]])
      for (const field of [undefined, 'valeur'])
        HAND_QUESTIONS.push([c, d, cls as unknown[] | undefined, field]);

describe('getFicheTechnique (fiche-technique.js)', () => {
  it('is patched in both settings', () => {
    expect(original.__dpeSimFicheOn).toBeUndefined();
    expect(hooked.__dpeSimFicheOn).toBe(true);
    expect(bundled.__dpeSimFicheOn).toBe(true);
  });

  it('gives the same row or the same exception on hand-made sheets', () => {
    for (const [what, dpe] of hand())
      for (const mod of [hooked, bundled]) expectSame(mod, dpe, HAND_QUESTIONS, what);
  });

  it('gives the same row on the fixtures and the corpus DPEs, raw and sanitized', () => {
    const files = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.xml'))
      .map((f) => path.join(FIXTURES, f));
    if (HAS_CORPUS)
      files.push(
        ...readdirSync(CORPUS)
          .filter((f) => f.endsWith('.xml'))
          .sort()
          .filter((_, i) => i % 4 === 0)
          .map((f) => path.join(CORPUS, f)),
      );
    let found = 0;
    for (const file of files) {
      const raw = parseDpeXml(readFileSync(file, 'utf8')) as unknown as Record<string, unknown>;
      const sanitized = new sanitizer.default().execute(structuredClone(raw)) as Record<
        string,
        unknown
      >;
      const qs = questionsFor(sanitized);
      for (const [dpe, what] of [
        [raw, 'raw'],
        [sanitized, 'sanitized'],
      ] as const)
        for (const mod of [hooked, bundled])
          found += expectSame(mod, dpe, qs, `${path.basename(file)} ${what}`);
    }
    // the questions find rows (not only nulls)
    expect(found).toBeGreaterThan(1000);
  });

  it('gives the same row from the answers kept per frozen source, run after run', () => {
    const files = [path.join(FIXTURES, '0000E0000001H.xml')];
    if (HAS_CORPUS)
      files.push(
        ...['2287E0793758O', '2535E0426429Q', '2359E0545021S', '2187E0981996L'].map((id) =>
          path.join(CORPUS, `${id}.xml`),
        ),
      );
    let kept = 0;
    for (const file of files) {
      const raw = parseDpeXml(readFileSync(file, 'utf8')) as unknown as Record<string, unknown>;
      // works copies: each a new root sharing the original's frozen sheets (works-copy.ts)
      const frozen = frozenOriginal(raw as unknown as RawDpe) as unknown as Record<string, unknown>;
      for (const [mod, san] of [
        [hooked, hookedSanitizer],
        [bundled, bundledSanitizer],
      ] as const) {
        // three runs: the first searches and keeps, the next ones read what was kept
        for (let run = 0; run < 3; run++) {
          const copy = new san.default().execute(worksCopy(raw as unknown as RawDpe, [])) as Record<
            string,
            unknown
          >;
          const sheets = copy.fiche_technique_collection as object;
          expect(san.__dpeSimSheetSourceOf?.(sheets)).toBe(frozen.fiche_technique_collection);
          kept += expectSame(mod, copy, questionsFor(copy), `${path.basename(file)} run ${run}`);
        }
      }
    }
    expect(kept).toBeGreaterThan(100);
  });
});

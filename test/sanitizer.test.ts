/**
 * The engine's sanitizer (`DpeSanitizerService.execute`, the first step of every engine run) is
 * replaced by a loop version of the same walk (src/engine/patches/memo/sanitizer.js, `__dpeSimSanitizer`).
 * Here the engine's own `execute` (its module loaded unpatched) and the patched one (as the
 * module-load hook patches it, and as built into dist/engine/open3cl.bundle.js) are given the
 * same inputs: hand-made values for every branch of the value function, the fixtures, named
 * corpus DPEs as parsed and their works copies (every single works option, on a copy sharing
 * frozen parts with the original: works-copy.ts). Outputs must be deep-equal (util's strict
 * equality: prototypes, -0, holes), with the same keys in the same order, the same references
 * shared with the input (none: the engine copies everything but functions), the same writes
 * into the input (the missing collections), and the same exceptions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyRaw } from '../src/dpe/raw.js';
import type { RawDpe } from '../src/dpe/raw.js';
import { readDpeFile } from '../src/dpe/source.js';
import { parseDpeXml } from '../src/dpe/xml.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { prepare } from '../src/simulation/prepared.js';
import { optionChanges } from '../src/simulation/structure.js';
import { applyWorks, resolveChanges, sharedCopyFallbacks } from '../src/works/apply.js';
import { frozenOriginal } from '../src/works/works-copy.js';
import { defaultCosts } from '../src/works/costs.js';
import { CORPUS, FIXTURES, HAS_CORPUS, ownPrototypes, ROOT } from './helpers.js';

const CORPUS_DPES = [
  '2535E0426429Q',
  '2364E0984413P',
  '2459E1831723H',
  '2287E0793758O',
  '2187E0981996L',
  '2463E3164679Z',
];
if (!HAS_CORPUS)
  console.warn(`sanitizer.test.ts: ${CORPUS} is absent: the corpus DPEs are not checked`);

interface Sanitizer {
  execute(dpe: unknown): unknown;
}
interface SanitizerModule {
  default: new () => Sanitizer;
  __dpeSimSanitizer?: true;
  __dpeSimSanitizedKept?: (obj: object) => boolean;
}

const require = createRequire(import.meta.url);
/** the engine's module as published: a URL of its own (the query), so no hook patches it */
const ORIGINAL_URL = `${pathToFileURL(require.resolve('@open3cl/engine/dpe-sanitizer.service.js')).href}?original`;

let engine: Engine;
let original: SanitizerModule;
let hooked: SanitizerModule;
let bundled: SanitizerModule;

beforeAll(async () => {
  original = (await import(ORIGINAL_URL)) as SanitizerModule;
  // beside the sources (no bundle) the adapter loads the engine's modules through the hook
  engine = await loadEngine();
  hooked = (await import('../src/engine/open3cl-modules.js')).sanitizer as SanitizerModule;
  const bundle = pathToFileURL(path.join(ROOT, 'dist', 'engine', 'open3cl.bundle.js')).href;
  bundled = ((await import(bundle)) as { sanitizer: SanitizerModule }).sanitizer;
});

type Outcome =
  { ok: true; out: unknown; input: unknown } | { ok: false; error: string; input: unknown };

/** `execute` of `mod` on `input` (which it may write into): its output or its exception. */
function runOn(mod: SanitizerModule, input: unknown): Outcome {
  try {
    return { ok: true, out: new mod.default().execute(input), input };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e), input };
  }
}

/** Every object reachable from `v` (its own enumerable string keys). */
function objectsOf(v: unknown, into = new Set<unknown>()): Set<unknown> {
  if ((typeof v === 'object' && v !== null) || typeof v === 'function') {
    if (into.has(v)) return into;
    into.add(v);
    if (typeof v === 'object')
      for (const k of Object.keys(v)) objectsOf(v[k as keyof typeof v], into);
  }
  return into;
}

/**
 * The layout of `out`: each path with its keys in order, where an object is one of the input's
 * (`shared`) or met before in `out` (`again`).
 */
function layout(
  v: unknown,
  inputs: Set<unknown>,
  at = '$',
  seen = new Set<unknown>(),
  into: string[] = [],
): string[] {
  if ((typeof v !== 'object' || v === null) && typeof v !== 'function') return into;
  if (inputs.has(v)) into.push(`${at}: shared with the input`);
  if (seen.has(v)) {
    into.push(`${at}: again`);
    return into;
  }
  seen.add(v);
  if (typeof v !== 'object') return into;
  const keys = Object.keys(v);
  into.push(`${at}: ${Array.isArray(v) ? 'array' : 'object'} ${JSON.stringify(keys)}`);
  for (const k of keys) layout(v[k as keyof typeof v], inputs, `${at}.${k}`, seen, into);
  return into;
}

/** Writes into every object of `v` (as the engine writes into the sanitized copy). */
function scribble(v: unknown): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  for (const k of Object.keys(v)) {
    scribble(v[k as keyof typeof v]);
    (v as Record<string, unknown>)[k] = 'written';
  }
}

/** The original and the patched `execute` of `mod`, each on its own copy made by `copy`. */
function expectSame(mod: SanitizerModule, copy: () => unknown, what: string): void {
  const a = copy();
  const b = copy();
  const inputsA = objectsOf(a);
  const inputsB = objectsOf(b);
  const want = runOn(original, a);
  const got = runOn(mod, b);
  expect(got.ok, what).toBe(want.ok);
  if (!want.ok || !got.ok) {
    expect(got, what).toEqual(want);
    return;
  }
  expect(layout(got.out, inputsB), what).toEqual(layout(want.out, inputsA));
  const protos = ownPrototypes(got.out);
  expect(isDeepStrictEqual(protos, ownPrototypes(want.out)), what).toBe(true);
  expect(isDeepStrictEqual(got.out, want.out), what).toBe(true);
  // the engine writes into its copy: a copy kept for the next runs must not be this one
  scribble(got.out);
  // the writes into the input (the collections created when missing)
  expect(isDeepStrictEqual(got.input, want.input), what).toBe(true);
  expect(layout(got.input, new Set()), what).toEqual(layout(want.input, new Set()));
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze(v[k as keyof typeof v]);
  }
  return v;
}

/** Frozen parts given again and again (as works copies share the original's): kept as literals. */
const FROZEN = deepFreeze({
  a: { x: '12.5', y: '', z: null, u: undefined, t: true, n: NaN, m: -0, i: 'Infinity', b: 12n },
  e: { enum_x_id: 3, enum_y_id: '03', enum_w_id: { a: '1' }, original_enum_q_id: -0, enum_n: null },
  l: { one: [5], text: ['5'], two: ['1', '2'], mixed: [true, 'a', 7, undefined, -0, 3n], e: [] },
  m: { installation_ecs: { a: '1' }, generateur_ecs: [{ b: '2' }], sortie_par_energie: 'x' },
  s: { 'a "quote"': 'line\nbreak \u2028 \ud800', 2: '2', 10: 'ten', é: 'é' },
  list: [{ a: '1' }, ['2', { b: '' }], '3', 4],
  // not kept: a function, a hole, a __proto__ key, a part not frozen
  fn: { f: () => 1 },
  hole: { h: [, '1'] }, // eslint-disable-line no-sparse-arrays
  proto: JSON.parse('{"__proto__": {"z": "3"}}') as object,
});
const OPEN = { o: { a: '1' } };

/** Hand-made values for every branch of the engine's value function. */
function edgeCases(): [string, () => unknown][] {
  const fn = () => 1;
  const sparse: unknown[] = ['1', '2'];
  delete sparse[0];
  return [
    [
      'scalars',
      () => ({
        a: '12.5',
        b: '',
        c: null,
        d: undefined,
        e: true,
        f: false,
        g: ' ',
        h: '0x1F',
        i: '-0',
        j: 'Infinity',
        k: 'abc',
        l: NaN,
        m: -0,
        n: 7,
        o: 12n,
        p: fn,
        q: '1e3',
        r: '  42  ',
      }),
    ],
    [
      'enums',
      () => ({
        enum_x_id: 3,
        enum_y_id: '03',
        enum_z_id: null,
        enum_u_id: undefined,
        enum_v_id: '',
        enum_w_id: { a: '1' },
        enum_t_id: [1, 2],
        enum_s_id: [],
        enum_r_id: true,
        original_enum_q_id: 4.5,
        original_enumeration: -0,
        enumeration: '5',
        originalenum: '6',
      }),
    ],
    [
      'arrays',
      () => ({
        empty: [],
        one: [5],
        oneText: ['5'],
        oneEmpty: [''],
        oneNull: [null],
        nested: [[]],
        two: ['1', '2'],
        objects: [{ a: '1', b: '' }, { c: [] }],
        texts: ['a', 'b'],
        sparse,
        deep: [[['x', 'y']]],
      }),
    ],
    [
      'nodes to map',
      () => ({
        installation_ecs: { a: '1', generateur_ecs: { b: '2' } },
        generateur_chauffage: [{ c: '3' }],
        emetteur_chauffage: '4',
        sortie_par_energie: { d: { e: '5' } },
        installation_chauffage: [],
        generateur_ecs: 6,
      }),
    ],
    [
      'values Number() converts: own toString / valueOf, symbols, arrays of objects',
      // (the functions shared by both copies: they are copied as they are)
      () => ({
        objects: [{ a: '1' }, { b: '2' }, { c: '3' }],
        mixed: [{ a: '1' }, 'x', 2, true, 3n],
        ownValueOf: { valueOf: CONVERSIONS.seven },
        ownToString: { toString: CONVERSIONS.eight },
        itemToString: [{ toString: CONVERSIONS.nine }, { a: '1' }],
        tagged: { [Symbol.toStringTag]: 'T', a: '1' },
        arrayValueOf: Object.assign([1, 2], { valueOf: CONVERSIONS.ten }),
        arrayJoin: Object.assign([1, 2], { join: CONVERSIONS.eleven }),
        nestedArrays: [[1], [2]],
        withFunction: [CONVERSIONS.one, 'x'],
      }),
    ],
    [
      'an object without prototype',
      () => ({ o: Object.assign(Object.create(null) as object, { a: '1' }) }),
    ],
    ['an item whose conversion throws', () => ({ list: [{ toString: 1, valueOf: 2 }, 'x'] })],
    ['a symbol item', () => ({ list: [CONVERSIONS.symbol, 'x'] })],
    ['nodes to map: null', () => ({ installation_ecs: null })],
    ['an array holding null', () => ({ list: ['a', null] })],
    ['a top-level array', () => [{ a: '1' }, ['2'], '3']],
    [
      'integer keys, __proto__ as an own key',
      () =>
        Object.assign(JSON.parse('{"b": "1", "2": "2", "__proto__": {"z": "3"}}') as object, {
          1: 'x',
        }),
    ],
    [
      'frozen parts, shared twice',
      () => {
        const part = Object.freeze({ a: '1', list: Object.freeze(['2']) });
        return { x: part, y: part, z: Object.freeze([part, part]) };
      },
    ],
    [
      'collections present and missing',
      () => ({
        logement: {
          enveloppe: { mur_collection: { mur: { a: '1' } }, porte_collection: '' },
          ventilation_collection: { ventilation: [] },
        },
      }),
    ],
  ];
}

/** Conversion functions of the hand-made values (one object each, for both copies of a case). */
const CONVERSIONS = {
  one: () => 1,
  seven: () => 7,
  eight: () => '8',
  nine: () => '9',
  ten: () => 10,
  eleven: () => '11',
  symbol: Symbol('s'),
};

/** The parsed DPEs: fixtures, and named corpus DPEs when present. */
function dpeFiles(): string[] {
  const fixtures = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .map((f) => path.join(FIXTURES, f));
  return [
    ...fixtures,
    ...(HAS_CORPUS ? CORPUS_DPES.map((id) => path.join(CORPUS, `${id}.xml`)) : []),
  ];
}

const VARIANTS: [string, () => SanitizerModule][] = [
  ['module-load hook', () => hooked],
  ['built bundle', () => bundled],
];

describe('engine sanitizer, patched', () => {
  it.each(VARIANTS)('%s: the patch is applied', (_name, mod) => {
    expect(mod().__dpeSimSanitizer).toBe(true);
    expect(original.__dpeSimSanitizer).toBeUndefined();
  });

  it.each(VARIANTS)('%s: hand-made values give what the engine’s execute gives', (_name, mod) => {
    const cases = edgeCases();
    for (const [what, make] of cases) expectSame(mod(), make, what);
    // (both throw on null inside an array or under a node to map)
    for (const [what, make] of cases.filter(([w]) => w.includes('null')))
      expect(runOn(original, make()).ok, what).toBe(false);
    // (an own __proto__ key sets the copy's prototype)
    const proto = cases.find(([w]) => w.includes('__proto__'))?.[1];
    const out = runOn(mod(), proto?.()) as { out: object };
    expect(Object.getPrototypeOf(out.out)).toEqual({ z: 3 });
  });

  it.each(VARIANTS)(
    '%s: frozen parts given again give what the engine’s execute gives, kept when plain data',
    (_name, mod) => {
      const make = () => ({ ...FROZEN, open: { ...OPEN, frozen: FROZEN.a } });
      for (let i = 0; i < 4; i++) expectSame(mod(), make, `run ${i}`);
      const kept = mod().__dpeSimSanitizedKept as (obj: object) => boolean;
      for (const k of ['a', 'e', 'l', 'm', 's', 'list'] as const)
        expect(kept(FROZEN[k]), k).toBe(true);
      for (const k of ['fn', 'hole', 'proto'] as const) expect(kept(FROZEN[k]), k).toBe(false);
      expect(kept(OPEN.o)).toBe(false);
    },
  );

  it.each(VARIANTS)(
    '%s: fixtures and corpus DPEs, as parsed, give what the engine’s execute gives',
    (_name, mod) => {
      const files = dpeFiles();
      for (const file of files) {
        const raw = parseDpeXml(readFileSync(file, 'utf8'));
        expectSame(mod(), () => copyRaw(raw), path.basename(file));
      }
    },
  );

  it.each(dpeFiles().map((f) => [path.basename(f, '.xml'), f]))(
    '%s: works copies (every single works option) give what the engine’s execute gives',
    async (_id, file) => {
      const prep = prepare(engine, await readDpeFile(file));
      if (!prep.ok) return;
      const costs = defaultCosts();
      const fallbacks = sharedCopyFallbacks;
      const singles = optionChanges(prep.dpe);
      expect(singles.length).toBeGreaterThan(0);
      const sets = [...singles.map((c) => [c]), singles.slice(0, 6)];
      let frozenParts = 0;
      for (const changes of sets) {
        const resolved = resolveChanges(prep.dpe, changes);
        // a works copy each: execute writes the missing collections into its input
        const copy = () => applyWorks(engine, prep.dpe, resolved, costs).raw;
        const sample = copy() as RawDpe;
        if ([...objectsOf(sample)].some((o) => Object.isFrozen(o))) frozenParts++;
        for (const [name, mod] of VARIANTS)
          expectSame(mod(), copy, `${name} ${JSON.stringify(changes)}`);
      }
      // the copies did share frozen parts with the original (no fallback to a whole copy), whose
      // sanitized copies were kept as literals
      expect(sharedCopyFallbacks).toBe(fallbacks);
      expect(frozenParts).toBe(sets.length);
      const parts = [...objectsOf(frozenOriginal(prep.dpe.raw))] as object[];
      for (const [name, mod] of VARIANTS) {
        const kept = mod().__dpeSimSanitizedKept as (obj: object) => boolean;
        expect(parts.filter((o) => kept(o)).length, name).toBeGreaterThan(0);
      }
    },
  );
});

// An independent probe of the recommended scenarios (issue 36: "a random probe for cheaper
// combinations"), drawn from what a user can pick rather than from what the search keeps: every
// works option `initial` offers on each element (`offeredOptions`), not the search's candidates
// (which leave out dominated options, options saving nothing alone and harmful ones). Per corpus
// DPE, BENCH_PROBE_N combinations (200), seeded by BENCH_PROBE_SEED and the DPE's name:
// - one in three at random: each group (element and works key) given one of its options with a
//   probability drawn per combination between 5% and 65%;
// - two in three around a scenario drawn at random: one to three moves, each dropping one of its
//   options, changing one for another of the same group, or adding one of any group.
// A combination that reaches a class for less than the scenario for it beats it; one below the
// scenario's proven lower bound, or beating a scenario said proved cheapest, is a false proof
// (must be 0). Prints both, and the combinations run (a combination drawn twice runs once).
//   npm run build && node bench/probe.mjs    (BENCH_PROBE_FILES=every:4 or =NAME,NAME: a subset)
//   (BENCH_DPE_DIR=DIR: other DPEs than the corpus, such as `node bench/variants.mjs 194 DIR`'s)
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusSubset, seeded } from './search.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// BENCH_DPE_DIR: another folder of DPE XMLs (the variants of bench/variants.mjs: DPEs the search
// was never tuned on).
const CORPUS = process.env.BENCH_DPE_DIR
  ? path.resolve(process.env.BENCH_DPE_DIR)
  : path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
const WHAT = process.env.BENCH_DPE_DIR ? CORPUS : 'the corpus';
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);

export async function runProbeBench() {
  if (!existsSync(CORPUS)) {
    console.log(`*** probe bench SKIPPED: no corpus at ${CORPUS} ***`);
    return;
  }
  const [
    { loadEngine },
    { readDpeFile },
    { prepare },
    { searchScenarios },
    { runWorks, figuresOf },
    { outcome },
    { classIndex, CLASS_LETTERS },
    { defaultCosts },
    { offeredOptions },
    { elementsOf, referenceId },
    { CATEGORIES },
  ] = await Promise.all([
    dist('engine/engine.js'),
    dist('dpe/source.js'),
    dist('simulation/prepared.js'),
    dist('simulation/scenarios.js'),
    dist('simulation/runs.js'),
    dist('simulation/calc.js'),
    dist('contract/classes.js'),
    dist('works/costs.js'),
    dist('works/apply.js'),
    dist('dpe/elements.js'),
    dist('contract/constants.js'),
  ]);
  const engine = await loadEngine();
  const opts = { coef: 'activated', forceNormalization: false, costs: defaultCosts() };
  const N = Number(process.env.BENCH_PROBE_N ?? 200);
  const SEED = process.env.BENCH_PROBE_SEED ?? 'independent';
  const subset = process.env.BENCH_PROBE_FILES;
  const files = corpusSubset(subset);
  const id = (change) => `${change.referenceId}|${change.editableKey}=${change.editableValue}`;
  let scenarios = 0;
  let combinations = 0;
  const beaten = [];
  const falseProofs = [];
  for (const f of files) {
    const prep = prepare(engine, await readDpeFile(path.join(CORPUS, f)));
    if (!prep.ok) continue;
    const p = prep.dpe;
    const { solutions } = searchScenarios(engine, p, opts);
    if (!solutions.length) continue;
    // every option offered, by group (element and works key), as `initial` lists them
    const groups = new Map();
    for (const category of CATEGORIES)
      elementsOf(p.raw, category).forEach((el, index) => {
        const ref = referenceId(category, index);
        for (const row of offeredOptions(p, category, el)) {
          const key = `${ref}|${row.key}`;
          const list = groups.get(key) ?? [];
          list.push({ referenceId: ref, editableKey: row.key, editableValue: row.code });
          groups.set(key, list);
        }
      });
    const keys = [...groups.keys()];
    if (!keys.length) continue;
    const rand = seeded(SEED + f);
    const pick = (key) => {
      const list = groups.get(key);
      return list[Math.floor(rand() * list.length)];
    };
    const cheapest = new Map(); // class → { cout, works }
    const seen = new Set();
    const run = (changes) => {
      const key = changes.map(id).sort().join(';');
      if (seen.has(key)) return;
      seen.add(key);
      const w = runWorks(engine, p, changes, opts.costs);
      const o = outcome(p, figuresOf(w, opts.coef), opts.coef, false);
      combinations++;
      const reached = classIndex(o.classesAfter.dpe);
      for (const l of CLASS_LETTERS)
        if (classIndex(l) >= reached && !(cheapest.get(l)?.cout <= w.cout))
          cheapest.set(l, { cout: w.cout, works: key });
    };
    for (let i = 0; i < N; i++) {
      if (i % 3 === 0) {
        const density = 0.05 + 0.6 * rand();
        const changes = [];
        for (const key of keys) if (rand() < density) changes.push(pick(key));
        run(changes);
        continue;
      }
      const s = solutions[Math.floor(rand() * solutions.length)];
      const works = new Map(s.editables.map((c) => [`${c.referenceId}|${c.editableKey}`, c]));
      const moves = 1 + Math.floor(rand() * 3);
      for (let j = 0; j < moves; j++) {
        const x = rand();
        const held = [...works.keys()];
        if (x < 0.35 && held.length) works.delete(held[Math.floor(rand() * held.length)]);
        else if (x < 0.7 && held.length) {
          const key = held[Math.floor(rand() * held.length)];
          works.set(key, pick(key));
        } else {
          const key = keys[Math.floor(rand() * keys.length)];
          works.set(key, pick(key));
        }
      }
      run([...works.values()]);
    }
    const name = f.replace(/\.xml$/, '');
    for (const s of solutions) {
      scenarios++;
      const b = cheapest.get(s.classe);
      if (!b) continue;
      // (0.5 €: the costs are sums of rounded lines)
      if (b.cout < s.cout - 0.5)
        beaten.push(
          `${name} ${s.classe} ${Math.round(s.cout)} € ${s.exact ? 'proved' : `bound ${Math.round(s.lowerBound)} €`}, probe ${Math.round(b.cout)} € (${b.works})`,
        );
      if (b.cout < s.lowerBound - 0.5 || (s.exact && b.cout < s.cout - 0.5))
        falseProofs.push(`${name} ${s.classe}`);
    }
  }
  console.log(
    `independent probe over ${subset ? `a subset of ${WHAT} (${subset})` : `every DPE of ${WHAT}`} (${files.length} files, ${N} draws each, seed "${SEED}"): ${scenarios} scenarios, ${combinations} combinations of offered options run`,
  );
  console.log(
    `  scenarios a combination reaches for less: ${beaten.length}${beaten.length ? `\n    ${beaten.join('\n    ')}` : ''}`,
  );
  console.log(
    `  false proofs (a combination below a proven bound, or cheaper than a scenario said proved): ${falseProofs.length}${falseProofs.length ? ` (${falseProofs.join(', ')})` : ''}`,
  );
  return { scenarios, combinations, beaten: beaten.length, falseProofs: falseProofs.length };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runProbeBench();

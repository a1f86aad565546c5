// The scenario search against brute force on the corpus: every corpus DPE whose candidate options
// (per element and works key, dominated ones dropped) make at most BENCH_SEARCH_MAX (3000)
// combinations has every combination run through the engine; for each class better than its own,
// the cheapest combination reaching it is compared with the best-first search's answer (forced,
// whatever the size). Prints the DPEs and their combination counts, and how many answers are
// cheaper by brute force (must be 0), how many the search proved (exact) and whether every
// lower bound holds. Then, on the same DPEs, the change sets the search evaluates per DPE with the
// heuristic alone (as before the best-first search) and with both (median, max): counts, not
// seconds, so the figures hold on a loaded machine.
//   npm run build && node bench/search.mjs        (BENCH_SEARCH_MAX=n to change the limit)
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
const MAX = Number(process.env.BENCH_SEARCH_MAX ?? 3000);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function runSearchBench() {
  if (!existsSync(CORPUS)) {
    console.log(`*** search bench SKIPPED: no corpus at ${CORPUS} ***`);
    return;
  }
  const { loadEngine } = await import(path.join(ROOT, 'dist/engine/engine.js'));
  const { readDpeFile } = await import(path.join(ROOT, 'dist/dpe/source.js'));
  const { prepare } = await import(path.join(ROOT, 'dist/simulation/prepared.js'));
  const { candidatesOf, searchScenarios } = await import(
    path.join(ROOT, 'dist/simulation/scenarios.js')
  );
  const { runWorks, figuresOf } = await import(path.join(ROOT, 'dist/simulation/runs.js'));
  const { outcome } = await import(path.join(ROOT, 'dist/simulation/calc.js'));
  const { classIndex, CLASS_LETTERS } = await import(path.join(ROOT, 'dist/contract/classes.js'));
  const { defaultCosts } = await import(path.join(ROOT, 'dist/works/costs.js'));
  const engine = await loadEngine();
  const opts = { coef: 'activated', forceNormalization: false, costs: defaultCosts() };
  const files = readdirSync(CORPUS)
    .filter((f) => f.endsWith('.xml'))
    .sort();
  let dpes = 0;
  let combos = 0;
  let classes = 0;
  let cheaper = 0;
  let exact = 0;
  let badBound = 0;
  const listed = [];
  const before = [];
  const after = [];
  for (const f of files) {
    const prep = prepare(engine, await readDpeFile(path.join(CORPUS, f)));
    if (!prep.ok) continue;
    const p = prep.dpe;
    const groups = [...candidatesOf(engine, p, opts).values()];
    const n = groups.reduce((m, g) => m * (g.length + 1), 1);
    if (n > MAX || groups.length === 0) continue;
    // brute force: the cheapest combination reaching each class
    const best = new Map();
    const walk = (i, chosen) => {
      if (i === groups.length) {
        const run = runWorks(engine, p, chosen, opts.costs);
        const o = outcome(p, figuresOf(run, opts.coef), opts.coef, false);
        const reached = classIndex(o.classesAfter.dpe);
        for (const l of CLASS_LETTERS)
          if (classIndex(l) >= reached && !(best.get(l) <= run.cout)) best.set(l, run.cout);
        return;
      }
      walk(i + 1, chosen);
      for (const c of groups[i]) walk(i + 1, [...chosen, c.change]);
    };
    walk(0, []);
    const found = searchScenarios(engine, p, { ...opts, strategy: 'best-first' });
    const heuristic = searchScenarios(engine, p, { ...opts, strategy: 'heuristic' });
    before.push(heuristic.evaluations);
    after.push(found.evaluations);
    const initial = classIndex(
      outcome(p, figuresOf(runWorks(engine, p, [], opts.costs), opts.coef), opts.coef, false)
        .classesBefore.dpe,
    );
    let here = 0;
    for (const l of CLASS_LETTERS) {
      if (classIndex(l) >= initial) continue;
      const optimum = best.get(l);
      const sol = found.solutions.find((s) => s.classe === l);
      if (optimum === undefined) {
        if (sol) cheaper++; // a scenario brute force says cannot exist
        continue;
      }
      classes++;
      here++;
      if (!sol || sol.cout > optimum) cheaper++;
      if (sol?.exact) exact++;
      if (sol && sol.lowerBound > optimum) badBound++;
    }
    dpes++;
    combos += n;
    listed.push(`${f.replace(/\.xml$/, '')} (${n} combinations, ${here} classes)`);
  }
  console.log(
    `search against brute force, corpus DPEs with at most ${MAX} combinations of candidates: ${dpes} DPEs, ${combos} combinations run, ${classes} target classes`,
  );
  console.log(`  ${listed.join(', ')}`);
  console.log(
    `  cheaper by brute force than the search's answer: ${cheaper}; proved exact: ${exact}/${classes}; lower bounds above the optimum: ${badBound}`,
  );
  console.log(
    `  change sets per DPE: heuristic alone median ${median(before)} max ${Math.max(...before)}; heuristic + best-first median ${median(after)} max ${Math.max(...after)}`,
  );
  return { dpes, combos, classes, cheaper, exact, badBound };
}

if (import.meta.url === `file://${process.argv[1]}`) await runSearchBench();

// `initial` over the corpus, in one process after the one-time engine import: wall time per
// DPE (read, parse, baseline, one run per works option, scenario search) and engine runs.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

export async function runInitialBench() {
  const dir = existsSync(CORPUS) ? CORPUS : path.join(ROOT, 'fixtures');
  const { loadEngine } = await import(path.join(ROOT, 'dist/engine/engine.js'));
  const { readDpeFile } = await import(path.join(ROOT, 'dist/dpe/source.js'));
  const { prepare } = await import(path.join(ROOT, 'dist/simulation/prepared.js'));
  const { initialSimulation } = await import(path.join(ROOT, 'dist/simulation/initial.js'));
  const { runCount } = await import(path.join(ROOT, 'dist/simulation/runs.js'));
  const { defaultCosts } = await import(path.join(ROOT, 'dist/works/costs.js'));
  const t0 = performance.now();
  const engine = await loadEngine();
  const importMs = performance.now() - t0;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .sort();
  const times = [];
  const runs = [];
  const scenarios = [];
  let blocked = 0;
  for (const f of files) {
    const start = performance.now();
    const prep = prepare(engine, await readDpeFile(path.join(dir, f)));
    if (!prep.ok) {
      blocked++;
      continue;
    }
    const body = initialSimulation(engine, prep.dpe, {
      coef: 'activated',
      forceNormalization: false,
      simulationId: 'bench',
      costs: defaultCosts(),
    });
    times.push(performance.now() - start);
    runs.push(runCount(prep.dpe) + 1);
    scenarios.push(body.autoSolutions.length);
  }
  console.log(
    `initial over ${dir} (${files.length} DPEs, ${blocked} blocked), one process, engine import ${importMs.toFixed(0)} ms (not counted)`,
  );
  console.log(
    `  wall time per DPE: median ${quantile(times, 0.5).toFixed(0)} ms, p95 ${quantile(times, 0.95).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
  );
  console.log(
    `  engine runs per DPE: median ${quantile(runs, 0.5)}, p95 ${quantile(runs, 0.95)}, max ${Math.max(...runs)}`,
  );
  console.log(
    `  scenarios per DPE: median ${quantile(scenarios, 0.5)}, total ${scenarios.reduce((a, b) => a + b, 0)}`,
  );
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

if (import.meta.url === `file://${process.argv[1]}`) await runInitialBench();

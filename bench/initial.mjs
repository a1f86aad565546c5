// `initial` against `pre` and the bare engine, each corpus DPE once (distinct inputs only), all
// measured in this run:
// 1. the bare engine loop (bench/bare-engine.mjs, its own process) over the corpus: the unit;
// 2. in one process after the engine import, per DPE: `pre`'s work (read, parse, baseline run)
//    and `initial`'s (read, parse, baseline, one run per works option, scenario search), each on
//    a fresh preparation, as ratios to the bare engine's time per DPE; this ranks the DPEs;
// 3. as a user runs them, cold processes with their own data dir: `dpe-sim pre FILE --json`,
//    `dpe-sim initial FILE --json` and `bare-engine.mjs FILE`, on the BENCH_INITIAL_TOP (8)
//    DPEs whose `initial` ranked slowest in 2 (or all with BENCH_INITIAL_ALL=1): initial ÷ a cold
//    bare engine process per DPE (issue 26: ≤ 2), and initial ÷ cold pre, the worst five of each
//    printed; each process's CPU time too (user +
//    system, read at its exit), a ratio that a machine loaded by other programs moves less.
//    BENCH_INITIAL_ONLY=id,id,… limits the run to those corpus DPEs.
//
//   npm run build && node bench/initial.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bareEngine, corpusFiles } from './variants.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'dpe-sim.js');
/**
 * Issue 15's bar for initial ÷ cold pre, set when `pre` took about 0.7 s; since issue 26's
 * start-up work `pre` takes about 0.3 s (0.25-0.3× the bare engine process), so this ratio grew
 * without `initial` getting slower: printed for comparison, the bar is now initial ÷ a cold bare
 * engine process ≤ 2 (below).
 */
const PRE_RATIO_OF_ISSUE_15 = 3;

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

const x = (v) => `${v.toFixed(2)}×`;

/** Wall and CPU time of a whole Node process (CPU read by a hook at its exit). */
function timeProcess(args, env, tmp) {
  const cpuFile = path.join(tmp, 'cpu.json');
  const hook = path.join(tmp, 'cpu-hook.mjs');
  writeFileSync(
    hook,
    `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(${JSON.stringify(cpuFile)}, JSON.stringify(process.cpuUsage())));
`,
  );
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const cpu = JSON.parse(readFileSync(cpuFile, 'utf8'));
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

export async function runInitialBench() {
  const only = process.env.BENCH_INITIAL_ONLY?.split(',').filter(Boolean);
  const files = corpusFiles().filter((f) => !only || only.includes(path.basename(f, '.xml')));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-initial-'));
  const list = path.join(tmp, 'list.txt');
  writeFileSync(list, files.join('\n'));

  // 1. the unit: the bare engine over the same files, in its own process
  const bare = bareEngine(list);
  const bareMs = (bare.seconds * 1000) / bare.items;

  // 2. in one process
  const { loadEngine } = await import(path.join(ROOT, 'dist/engine/engine.js'));
  const { readDpeFile } = await import(path.join(ROOT, 'dist/dpe/source.js'));
  const { prepare } = await import(path.join(ROOT, 'dist/simulation/prepared.js'));
  const { initialSimulation } = await import(path.join(ROOT, 'dist/simulation/initial.js'));
  const { runCount } = await import(path.join(ROOT, 'dist/simulation/runs.js'));
  const { defaultCosts } = await import(path.join(ROOT, 'dist/works/costs.js'));
  const t0 = performance.now();
  const engine = await loadEngine();
  const importMs = performance.now() - t0;
  const rows = [];
  let blocked = 0;
  for (const file of files) {
    const p0 = performance.now();
    const pre = prepare(engine, await readDpeFile(file));
    const preMs = performance.now() - p0;
    if (!pre.ok) {
      blocked++;
      continue;
    }
    const i0 = performance.now();
    const prep = prepare(engine, await readDpeFile(file));
    if (!prep.ok) continue;
    const body = initialSimulation(engine, prep.dpe, {
      coef: 'activated',
      forceNormalization: false,
      simulationId: 'bench',
      costs: defaultCosts(),
    });
    rows.push({
      file,
      preMs,
      initialMs: performance.now() - i0,
      runs: runCount(prep.dpe) + 1,
      scenarios: body.autoSolutions.length,
    });
  }
  const times = rows.map((r) => r.initialMs);
  console.log(
    `initial over ${files.length} distinct DPEs of ${path.dirname(files[0])} (${blocked} blocked)`,
  );
  console.log(
    `  unit: bare engine loop (bench/bare-engine.mjs, same files, this run) ${bareMs.toFixed(1)} ms per DPE`,
  );
  console.log(
    `  in one process (engine import ${importMs.toFixed(0)} ms, not counted), as ratios to the unit:`,
  );
  console.log(
    `    pre work per DPE:     median ${x(
      quantile(
        rows.map((r) => r.preMs),
        0.5,
      ) / bareMs,
    )}`,
  );
  console.log(
    `    initial per DPE:      median ${x(quantile(times, 0.5) / bareMs)}, p95 ${x(quantile(times, 0.95) / bareMs)}, max ${x(Math.max(...times) / bareMs)}  (median ${quantile(times, 0.5).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms)`,
  );
  console.log(
    `    engine runs per DPE:  median ${quantile(
      rows.map((r) => r.runs),
      0.5,
    )}, p95 ${quantile(
      rows.map((r) => r.runs),
      0.95,
    )}, max ${Math.max(...rows.map((r) => r.runs))}; scenarios ${rows.reduce((a, r) => a + r.scenarios, 0)} in all`,
  );

  // 3. cold processes, as a user runs them
  const all = process.env.BENCH_INITIAL_ALL === '1';
  const top = Number(process.env.BENCH_INITIAL_TOP ?? 8);
  const picked = [...rows]
    .sort((a, b) => b.initialMs - a.initialMs)
    .slice(0, all ? rows.length : top);
  const cold = [];
  for (const r of picked) {
    const data = mkdtempSync(path.join(tmp, 'data-'));
    const env = {
      ...process.env,
      DPE_SIM_DATA_DIR: data,
      DPE_SIM_CONFIG_DIR: path.join(data, 'config'),
      DPE_SIM_BACKEND: 'local',
      NO_COLOR: '1',
    };
    const bareProcess = timeProcess(
      [path.join(ROOT, 'bench', 'bare-engine.mjs'), r.file],
      env,
      data,
    );
    const pre = timeProcess([BIN, 'pre', r.file, '--json'], env, data);
    const initial = timeProcess([BIN, 'initial', r.file, '--json'], env, data);
    cold.push({ ...r, bareProcess, pre, initial, ratio: initial.ms / pre.ms });
  }
  cold.sort((a, b) => b.ratio - a.ratio);
  const over = cold.filter((c) => c.ratio > PRE_RATIO_OF_ISSUE_15).length;
  console.log(
    `  cold processes (${all ? 'every DPE' : `the ${picked.length} slowest DPEs in one process`}): initial ÷ cold pre (issue 15's ≤ ${PRE_RATIO_OF_ISSUE_15}, when pre took 0.7 s: no longer the bar) ${over} over; worst five:`,
  );
  console.log(
    '    DPE                initial/pre   initial     pre         ÷ bare process: initial, pre   CPU time: initial/pre (initial, pre)',
  );
  for (const c of cold.slice(0, 5)) {
    console.log(
      `    ${path.basename(c.file, '.xml').padEnd(18)} ${x(c.ratio).padStart(11)}   ${c.initial.ms.toFixed(0).padStart(6)} ms ${c.pre.ms.toFixed(0).padStart(6)} ms   ${x(c.initial.ms / c.bareProcess.ms).padStart(6)}, ${x(c.pre.ms / c.bareProcess.ms).padEnd(6)}                ${x(c.initial.cpuMs / c.pre.cpuMs)} (${c.initial.cpuMs.toFixed(0)} ms, ${c.pre.cpuMs.toFixed(0)} ms)`,
    );
  }
  // issue 26: initial ÷ a cold bare engine process (node, the engine, parse and one run)
  const byBare = [...cold].sort(
    (a, b) => b.initial.ms / b.bareProcess.ms - a.initial.ms / a.bareProcess.ms,
  );
  const overBare = byBare.filter((c) => c.initial.ms / c.bareProcess.ms > 2).length;
  console.log(
    `  initial ÷ cold bare engine process, target ≤ 2: ${overBare} over of ${cold.length}; worst five:`,
  );
  for (const c of byBare.slice(0, 5)) {
    console.log(
      `    ${path.basename(c.file, '.xml').padEnd(18)} ${x(c.initial.ms / c.bareProcess.ms).padStart(7)}   initial ${c.initial.ms.toFixed(0)} ms, bare ${c.bareProcess.ms.toFixed(0)} ms; CPU ${x(c.initial.cpuMs / c.bareProcess.cpuMs)}`,
    );
  }
  const ratios = cold.map((c) => c.initial.ms / c.bareProcess.ms);
  console.log(
    `    over all ${cold.length}: median ${x(quantile(ratios, 0.5))}, p90 ${x(quantile(ratios, 0.9))}, max ${x(Math.max(...ratios))}${
      overBare
        ? `; over 2: ${byBare
            .slice(0, overBare)
            .map((c) => path.basename(c.file, '.xml'))
            .join(' ')}`
        : ''
    }`,
  );
  return {
    median: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    worst: cold.slice(0, 5).map((c) => ({ dpe: path.basename(c.file, '.xml'), ratio: c.ratio })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) await runInitialBench();

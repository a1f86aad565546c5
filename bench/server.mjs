// Load test of `dpe-sim serve` on distinct DPEs: the server runs as a child process (the built
// bin/dpe-sim.js) on a copy of the corpus (its own --dpe-dir), autocannon drives it from this
// process over 10 keep-alive connections, and every DPE is posted once per operation, so no
// cache answers (between `pre` and `calc` the files are touched: a new version, prepared
// again). Meanwhile one more connection asks `/health` again and again: its p99 says whether
// the request thread stays free while the engine threads compute.
//
// Every rate is printed as a ratio to the bare engine loop (bench/bare-engine.mjs: one thread,
// parse + calcul_3cl as shipped) over the same files, measured in the same run.
// Targets on 2 cores: pre ≥ 1.7× the bare loop; /health p99 < 20 ms under load; no errors but
// the 4xx of DPEs that lack the works (calc) or cannot be simulated (422).
//
//   npm run build && node bench/server.mjs            (BENCH_CONNECTIONS=10, BENCH_DPE_DIR=corpus)
//
// Exported: runServerBench(options) → the figures; formatBench(report) → { text, ok }.
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'dpe-sim.js');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
const FIXTURES = path.join(ROOT, 'fixtures');

const IDENTITY = {
  customerId: 'bench-co',
  userId: 'bench-user',
  userName: 'Bench User',
  customerName: 'Bench Co',
};
/** a works item most DPEs offer; those that do not answer 400 (counted apart) */
const WORKS = [{ referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' }];

export const TARGET = { preRatio: 1.7, healthP99Ms: 20 };

function runBin(args, dataDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`dpe-sim ${args.join(' ')}: ${err}`)),
    );
  });
}

/**
 * A hook loaded in the server process: the request thread's event-loop delay (how long a ready
 * callback, such as a /health request, waited), per phase (SIGUSR2 starts the next one),
 * written to `file` at exit.
 */
function eventLoopHook(tmp, file) {
  const hook = path.join(tmp, 'eld-hook.mjs');
  writeFileSync(
    hook,
    `import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
const phases = [];
let h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
const close = () => {
  h.disable();
  phases.push({ p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 });
};
process.on('SIGUSR2', () => {
  close();
  h.reset();
  h.enable();
});
process.on('exit', () => {
  close();
  writeFileSync(${JSON.stringify(file)}, JSON.stringify(phases));
});
`,
  );
  return pathToFileURL(hook).href;
}

function startServe(dataDir, dpeDir, hook) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        hook,
        BIN,
        '--data-dir',
        dataDir,
        '--dpe-dir',
        dpeDir,
        '--offline',
        'serve',
        '--port',
        '0',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`dpe-sim serve exited (${code}): ${err}`)));
  });
}

function stopServe(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function bareLoop(files, tmp) {
  const list = path.join(tmp, 'bare-list.txt');
  writeFileSync(list, `${files.join('\n')}\n`);
  const { stdout } = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bench', 'bare-engine.mjs'), list],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const r = JSON.parse(stdout);
  return { ...r, rate: r.items / r.seconds };
}

/** Each id posted once, on `connections` connections; `/health` polled meanwhile. */
async function load(name, url, key, ids, bodyOf, connections) {
  let next = 0;
  // paced (50 a second): a probe, not a load of its own competing for the cores
  const health = autocannon({
    url: `${url}/health`,
    connections: 1,
    overallRate: 50,
    duration: 3600,
  });
  const started = performance.now();
  // the time of the last answer: autocannon itself ends on its one-second ticker, which would
  // round every run up to a whole number of seconds
  let last = started;
  const run = autocannon({
    url: `${url}/partners/dpe/${name}`,
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    connections,
    pipelining: 1,
    amount: ids.length,
    timeout: 120,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify(bodyOf(ids[next++ % ids.length])),
        }),
      },
    ],
  });
  run.on('response', () => {
    last = performance.now();
  });
  const result = await run;
  const seconds = (last - started) / 1000;
  health.stop();
  const h = await health;
  return {
    name,
    requests: result.requests.total,
    seconds,
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses: {
      '2xx': result['2xx'],
      '4xx': result['4xx'],
      '5xx': result['5xx'],
    },
    errors: result.errors + result.timeouts,
    health: {
      requests: h.requests.total,
      p50: h.latency.p50,
      p99: h.latency.p99,
      max: h.latency.max,
    },
  };
}

export async function runServerBench({
  connections = Number(process.env.BENCH_CONNECTIONS ?? 10),
  source = process.env.BENCH_DPE_DIR ?? (existsSync(CORPUS) ? CORPUS : FIXTURES),
} = {}) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-server-'));
  const dataDir = path.join(tmp, 'data');
  const dpeDir = path.join(tmp, 'dpe');
  try {
    // a copy: the files are touched between the operations, the corpus never is
    const names = readdirSync(source)
      .filter((f) => /^\d{4}E\d{7}[A-Z]\.xml$/.test(f))
      .sort();
    mkdirSync(dpeDir, { recursive: true });
    for (const f of names) copyFileSync(path.join(source, f), path.join(dpeDir, f));
    const files = names.map((f) => path.join(dpeDir, f));
    const ids = names.map((f) => f.slice(0, -4));
    const loadBefore = os.loadavg()[0];

    const bare = bareLoop(files, tmp);
    const key = (await runBin(['keys', 'create', 'bench'], dataDir)).trim();
    const eldFile = path.join(tmp, 'eld.json');
    const { url, child } = await startServe(dataDir, dpeDir, eventLoopHook(tmp, eldFile));
    let results;
    try {
      child.kill('SIGUSR2'); // start-up apart
      const pre = await load(
        'pre',
        url,
        key,
        ids,
        (dpeId) => ({ ...IDENTITY, dpeId }),
        connections,
      );
      child.kill('SIGUSR2');
      // a new version of every file: calc prepares each DPE again, as a first request would
      const later = new Date(Date.now() + 60_000);
      for (const f of files) utimesSync(f, later, later);
      const calc = await load(
        'calc',
        url,
        key,
        ids,
        (dpeId) => ({ ...IDENTITY, dpeId, params: { editablesChanges: WORKS } }),
        connections,
      );
      results = [pre, calc];
    } finally {
      await stopServe(child);
    }
    // the request thread's event-loop delay during each load (phase 0: start-up)
    const eld = existsSync(eldFile) ? JSON.parse(readFileSync(eldFile, 'utf8')) : [];
    return {
      dpes: ids.length,
      source,
      connections,
      cpus: os.availableParallelism(),
      loadBefore,
      loadAfter: os.loadavg()[0],
      bare,
      results: results.map((r, k) => ({ ...r, ratio: r.rps / bare.rate, loopDelay: eld[k + 1] })),
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

export function formatBench(report) {
  const lines = [
    `dpe-sim serve under load: ${report.dpes} distinct DPEs (${report.source}), each posted once per operation, ${report.connections} keep-alive connections, ${report.cpus} CPUs, load average ${report.loadBefore.toFixed(1)} → ${report.loadAfter.toFixed(1)}`,
    `bare engine loop, 1 thread, same files: ${report.bare.rate.toFixed(1)} DPE/s (${report.bare.seconds.toFixed(1)} s)`,
    'operation  req/s   × bare   p50 ms   p99 ms   2xx   4xx   5xx  errors   /health p50 / p99 / max ms   server loop delay p99 / max ms',
  ];
  for (const r of report.results) {
    lines.push(
      `${r.name.padEnd(9)} ${r.rps.toFixed(1).padStart(6)} ${`${r.ratio.toFixed(2)}×`.padStart(8)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.statuses['2xx']).padStart(5)} ${String(r.statuses['4xx']).padStart(5)} ${String(r.statuses['5xx']).padStart(5)} ${String(r.errors).padStart(7)}   ${r.health.p50} / ${r.health.p99} / ${r.health.max} (${r.health.requests})   ${r.loopDelay ? `${r.loopDelay.p99.toFixed(0)} / ${r.loopDelay.max.toFixed(0)}` : '-'}`,
    );
  }
  const pre = report.results.find((r) => r.name === 'pre');
  const worstHealth = Math.max(...report.results.map((r) => r.health.p99));
  const ok =
    pre !== undefined &&
    pre.ratio >= TARGET.preRatio &&
    worstHealth < TARGET.healthP99Ms &&
    report.results.every((r) => r.errors === 0 && r.statuses['5xx'] === 0);
  lines.push(
    `target: pre ≥ ${TARGET.preRatio}× the bare loop, /health p99 < ${TARGET.healthP99Ms} ms, no 5xx or errors: ${ok ? 'met' : 'MISSED'}`,
  );
  return { text: lines.join('\n'), ok };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = await runServerBench();
  const { text, ok } = formatBench(report);
  console.log(text);
  if (!ok) process.exitCode = 1;
}

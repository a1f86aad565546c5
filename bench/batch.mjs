// Batch throughput: `dpe-sim batch pre` over the corpus (repeated to about 2,000 items) against
// a single-threaded loop of the bare engine (parse + calcul_3cl) over the same files, plus the
// batch's peak RSS (main thread and worker threads are one process: its maxRSS).
//
//   npm run build && node bench/batch.mjs [items]
//
// Uses the built dist/. Targets on a 2-core machine: batch ≥ 1.8× the bare loop, peak RSS < 600 MB.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
const FIXTURES = path.join(ROOT, 'fixtures');

function xmlFiles(dir) {
  return readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.xml'))
    .sort()
    .map((f) => path.join(dir, f));
}

function runBatchChild(listFile, tmp, concurrency) {
  const out = path.join(tmp, 'out.jsonl');
  const rssFile = path.join(tmp, 'maxrss');
  const hook = path.join(tmp, 'rss-hook.mjs');
  writeFileSync(
    hook,
    `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, JSON.stringify(process.resourceUsage())));
`,
  );
  const args = [
    '--import',
    pathToFileURL(hook).href,
    path.join(ROOT, 'bin', 'dpe-sim.js'),
    'batch',
    'pre',
    listFile,
    '--out',
    out,
    ...(concurrency ? ['--concurrency', String(concurrency)] : []),
  ];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        DPE_SIM_DATA_DIR: path.join(tmp, 'data'),
        DPE_SIM_CONFIG_DIR: path.join(tmp, 'config'),
        DPE_SIM_BACKEND: 'local',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const lines = existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean) : [];
      const counts = { ok: 0, blocked: 0, failed: 0 };
      for (const l of lines) counts[JSON.parse(l).status]++;
      const summary = /in ([\d.]+) s \(([\d.]+) DPE\/s\)/.exec(stderr);
      resolve({
        code,
        seconds,
        items: lines.length,
        counts,
        batchSeconds: summary ? Number(summary[1]) : seconds,
        usage: existsSync(rssFile) ? JSON.parse(readFileSync(rssFile, 'utf8')) : undefined,
        stderr,
      });
    });
  });
}

// The engine as shipped, in its own process (bench/bare-engine.mjs): nothing of dpe-sim (its
// memoised table lookups) is loaded beside it.
function bareLoop(listFile) {
  const { stdout } = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bench', 'bare-engine.mjs'), listFile],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout);
}

export async function runBatchBench({ items = 2000, concurrency } = {}) {
  const source = existsSync(CORPUS) ? CORPUS : FIXTURES;
  const distinct = xmlFiles(source);
  const repeat = Math.max(1, Math.round(items / distinct.length));
  const files = Array.from({ length: repeat }, () => distinct).flat();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-'));
  try {
    const listFile = path.join(tmp, 'list.txt');
    writeFileSync(listFile, `${files.join('\n')}\n`);
    const cores = os.availableParallelism();
    console.log(
      `batch bench: ${files.length} items (${distinct.length} files of ${path.relative(process.cwd(), source) || source} × ${repeat}), ${cores} cores, load average ${os.loadavg()[0].toFixed(2)}`,
    );

    const batch = await runBatchChild(listFile, tmp, concurrency);
    if (batch.items !== files.length) {
      throw new Error(
        `the batch wrote ${batch.items} lines for ${files.length} items:\n${batch.stderr}`,
      );
    }
    const batchRate = batch.items / batch.batchSeconds;
    const endToEnd = batch.items / batch.seconds;
    console.log(
      `  batch pre (${concurrency ?? cores} workers): ${batchRate.toFixed(1)} DPE/s (${batch.batchSeconds.toFixed(1)} s; ${endToEnd.toFixed(1)} DPE/s end to end with process start) — ${batch.counts.ok} ok, ${batch.counts.blocked} blocked, ${batch.counts.failed} failed, exit ${batch.code}`,
    );

    const bare = bareLoop(listFile);
    const bareRate = bare.items / bare.seconds;
    console.log(
      `  bare engine, 1 thread:      ${bareRate.toFixed(1)} DPE/s (${bare.seconds.toFixed(1)} s; @open3cl/engine as shipped: parse + calcul_3cl; ${bare.failed} engine failures)`,
    );

    const ratio = batchRate / bareRate;
    const rssMb = (batch.usage?.maxRSS ?? NaN) / 1024;
    const batchCpu =
      ((batch.usage?.userCPUTime ?? NaN) + (batch.usage?.systemCPUTime ?? NaN)) / 1e6;
    console.log(
      `  CPU per item:               batch ${((batchCpu / batch.items) * 1000).toFixed(0)} ms (whole process, startup included), bare ${((bare.cpuSeconds / bare.items) * 1000).toFixed(0)} ms`,
    );
    console.log(`  ratio batch / bare:         ${ratio.toFixed(2)}× (target ≥ 1.8× on 2 cores)`);
    console.log(`  batch peak RSS:             ${rssMb.toFixed(0)} MB (target < 600 MB)`);
    console.log(`  load average after:         ${os.loadavg()[0].toFixed(2)}`);
    return { items: files.length, batchRate, endToEnd, bareRate, ratio, peakRssMb: rssMb };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const n = process.argv[2] ? Number(process.argv[2]) : undefined;
  await runBatchBench(n ? { items: n } : {});
}

// Soak test of `dpe-sim serve`: 10 minutes of mixed pre / initial / calc load on distinct DPEs
// (the corpus, or the fixtures when it is absent), the server in its own process (the built
// bin/dpe-sim.js). Every pass over the DPEs touches their files first, so each pass prepares
// every DPE again (a new version) and the 128 MiB prepared-DPE cache turns over instead of
// answering. The server's RSS (main thread and engine threads: one process) is sampled every
// 5 s and reported at 1, 5 and 10 minutes with its peak; the latency p50/p99 and every status
// and error are counted. Not in CI (it takes 10 minutes); part of `npm run bench`.
//
//   npm run build && node bench/soak.mjs     (SOAK_SECONDS=600, SOAK_CONNECTIONS=4)
//
// Target: RSS below 600 MB at 1, 5 and 10 minutes and level (the 10-minute figure within 10%
// of the 5-minute one), no 5xx, no connection error.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  utimesSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setInterval, clearInterval } from 'node:timers';
import autocannon from 'autocannon';
import { rssMb, startServe } from './serve-process.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'dpe-sim.js');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
const FIXTURES = path.join(ROOT, 'fixtures');

const IDENTITY = {
  customerId: 'soak-co',
  userId: 'soak-user',
  userName: 'Soak User',
  customerName: 'Soak Co',
};
const WORKS = [{ referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' }];
const OPERATIONS = ['pre', 'initial', 'calc'];
export const TARGET = { rssMb: 600, levelRatio: 1.1 };

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

export async function runSoakBench({
  seconds = Number(process.env.SOAK_SECONDS ?? 600),
  connections = Number(process.env.SOAK_CONNECTIONS ?? 4),
  source = process.env.BENCH_DPE_DIR ?? (existsSync(CORPUS) ? CORPUS : FIXTURES),
} = {}) {
  if (source === FIXTURES) console.log('soak: the corpus is absent, running on the 3 fixtures');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-soak-'));
  const dataDir = path.join(tmp, 'data');
  const dpeDir = path.join(tmp, 'dpe');
  try {
    const names = readdirSync(source)
      .filter((f) => /^\d{4}E\d{7}[A-Z]\.xml$/.test(f))
      .sort();
    mkdirSync(dpeDir, { recursive: true });
    for (const f of names) copyFileSync(path.join(source, f), path.join(dpeDir, f));
    const files = names.map((f) => path.join(dpeDir, f));
    const ids = names.map((f) => f.slice(0, -4));
    const key = (await runBin(['keys', 'create', 'soak'], dataDir)).trim();
    const { url, child } = await startServe([
      '--data-dir',
      dataDir,
      '--dpe-dir',
      dpeDir,
      '--offline',
    ]);
    const samples = [];
    const t0 = performance.now();
    const sample = () => {
      const mb = rssMb(child.pid);
      if (mb !== undefined) samples.push({ s: (performance.now() - t0) / 1000, mb });
    };
    sample();
    const sampler = setInterval(sample, 5000);
    let next = 0;
    let passes = 0;
    const serverErrors = [];
    const byOperation = Object.fromEntries(OPERATIONS.map((op) => [op, 0]));
    let result;
    try {
      result = await autocannon({
        url,
        connections,
        duration: seconds,
        timeout: 120,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        requests: [
          {
            method: 'POST',
            setupRequest: (req, context) => {
              const i = next++;
              const op = OPERATIONS[i % OPERATIONS.length];
              const k = Math.floor(i / OPERATIONS.length) % ids.length;
              if (k === 0 && i % OPERATIONS.length === 0 && i > 0) {
                // a new pass: every DPE a new version, prepared again
                passes++;
                const later = new Date(Date.now() + passes * 1000);
                for (const f of files) utimesSync(f, later, later);
              }
              byOperation[op]++;
              const body =
                op === 'calc'
                  ? { ...IDENTITY, dpeId: ids[k], params: { editablesChanges: WORKS } }
                  : { ...IDENTITY, dpeId: ids[k] };
              context.what = `${op} ${ids[k]}`;
              return { ...req, path: `/partners/dpe/${op}`, body: JSON.stringify(body) };
            },
            // the first few server errors, to say what they were
            onResponse: (status, body, context) => {
              if (status >= 500 && serverErrors.length < 5)
                serverErrors.push(`${status} ${context.what}: ${String(body).slice(0, 300)}`);
            },
          },
        ],
      });
    } finally {
      clearInterval(sampler);
      sample();
      await new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
    const at = (s) =>
      samples.reduce((best, x) => (Math.abs(x.s - s) < Math.abs(best.s - s) ? x : best));
    return {
      dpes: ids.length,
      seconds,
      connections,
      requests: result.requests.total,
      byOperation,
      passes,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      statuses: { '2xx': result['2xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
      serverErrors,
      errors: result.errors,
      timeouts: result.timeouts,
      rss: {
        start: samples[0]?.mb,
        min1: at(60).mb,
        min5: at(300).mb,
        min10: at(seconds).mb,
        peak: Math.max(...samples.map((x) => x.mb)),
        perMinute: samples
          .filter((x) => Math.round(x.s) % 60 < 5)
          .map((x) => [Math.round(x.s), Math.round(x.mb)]),
      },
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

export function formatBench(r) {
  const mb = (x) => (x === undefined ? '?' : `${Math.round(x)} MB`);
  const level = r.rss.min10 / r.rss.min5;
  const ok =
    r.rss.min10 < TARGET.rssMb &&
    r.rss.peak < TARGET.rssMb &&
    level < TARGET.levelRatio &&
    r.statuses['5xx'] === 0 &&
    r.errors === 0;
  const text = [
    `soak: ${r.seconds} s, ${r.connections} connections, ${r.dpes} DPEs, ${r.passes} passes (each a new version of every DPE)`,
    `  requests ${r.requests} (pre ${r.byOperation.pre}, initial ${r.byOperation.initial}, calc ${r.byOperation.calc}); 2xx ${r.statuses['2xx']}, 4xx ${r.statuses['4xx']}, 5xx ${r.statuses['5xx']}, errors ${r.errors}, timeouts ${r.timeouts}`,
    `  latency p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms`,
    `  RSS: start ${mb(r.rss.start)}, 1 min ${mb(r.rss.min1)}, 5 min ${mb(r.rss.min5)}, 10 min ${mb(r.rss.min10)}, peak ${mb(r.rss.peak)}; 10 min ÷ 5 min ${level.toFixed(2)}`,
    `  RSS per minute (s, MB): ${r.rss.perMinute.map(([s, m]) => `${s}:${m}`).join(' ')}`,
    ...r.serverErrors.map((e) => `  server error: ${e}`),
    `  target: RSS < ${TARGET.rssMb} MB and level (10 min ÷ 5 min < ${TARGET.levelRatio}), no 5xx, no error: ${ok ? 'met' : 'NOT met'}`,
  ].join('\n');
  return { text, ok };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runSoakBench();
  const { text, ok } = formatBench(r);
  console.log(text);
  process.exitCode = ok ? 0 : 1;
}

// Load test of `dpe-sim serve`: the server runs as a child process (the built bin/dpe-sim.js),
// autocannon drives it from this process over keep-alive connections on 127.0.0.1, and the
// figures (requests/s, p50/p99 latency, errors) are printed for `pre` and `calc`.
// Target on a 2-core machine: calc >= 100 req/s with p99 < 200 ms and zero errors.
//
//   npm run build && node bench/server.mjs            (BENCH_SECONDS=10, BENCH_CONNECTIONS=10)
//
// Exported: runServerBench(options) → { url, results: [{ name, rps, p50, p99, errors, ... }] }.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'dpe-sim.js');

const IDENTITY = {
  customerId: 'bench-co',
  userId: 'bench-user',
  userName: 'Bench User',
  customerName: 'Bench Co',
};
const DPE_ID = '0000E0000001H';
const WORKS = [
  { referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' },
  { referenceId: 'baie_vitree:0', editableKey: 'FENETRE', editableValue: 'PVC' },
];

export const TARGET = { calcRps: 100, calcP99Ms: 200 };

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

function startServe(dataDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'serve', '--port', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
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

async function post(url, key, body) {
  const res = await globalThis.fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

async function load(name, url, key, body, { seconds, connections }) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections,
    pipelining: 1,
    duration: seconds,
  });
  return {
    name,
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/**
 * Starts `dpe-sim serve` on a fresh store, creates a partner key, warms the caches, then loads
 * `pre` and `calc` for `seconds` each on `connections` keep-alive connections.
 */
export async function runServerBench({
  seconds = Number(process.env.BENCH_SECONDS ?? 10),
  connections = Number(process.env.BENCH_CONNECTIONS ?? 10),
} = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-'));
  const key = (await runBin(['keys', 'create', 'bench'], dataDir)).trim();
  const { url, child } = await startServe(dataDir);
  try {
    const preBody = { ...IDENTITY, dpeId: DPE_ID };
    const calcBody = { ...IDENTITY, dpeId: DPE_ID, params: { editablesChanges: WORKS } };
    await post(`${url}/partners/dpe/pre`, key, preBody);
    await post(`${url}/partners/dpe/calc`, key, calcBody);
    const opts = { seconds, connections };
    const results = [
      await load('pre', `${url}/partners/dpe/pre`, key, preBody, opts),
      await load('calc', `${url}/partners/dpe/calc`, key, calcBody, opts),
    ];
    return { url, seconds, connections, cpus: os.cpus().length, results };
  } finally {
    await stopServe(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatBench(report) {
  const lines = [
    `dpe-sim serve under load: ${report.connections} keep-alive connections, ${report.seconds} s per operation, ${report.cpus} CPUs, DPE ${DPE_ID}`,
    'operation   req/s   p50 ms   p99 ms   max ms   requests   errors',
  ];
  for (const r of report.results) {
    lines.push(
      `${r.name.padEnd(9)} ${r.rps.toFixed(0).padStart(7)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.max).padStart(8)} ${String(r.requests).padStart(10)} ${String(r.errors).padStart(8)}`,
    );
  }
  const calc = report.results.find((r) => r.name === 'calc');
  const ok =
    calc !== undefined &&
    calc.rps >= TARGET.calcRps &&
    calc.p99 < TARGET.calcP99Ms &&
    report.results.every((r) => r.errors === 0);
  lines.push(
    `target: calc >= ${TARGET.calcRps} req/s, p99 < ${TARGET.calcP99Ms} ms, zero errors: ${ok ? 'met' : 'MISSED'}`,
  );
  return { text: lines.join('\n'), ok };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = await runServerBench();
  const { text, ok } = formatBench(report);
  console.log(text);
  if (!ok) process.exitCode = 1;
}

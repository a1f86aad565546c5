// Benchmark of the command line: `dpe-sim --help` and `--version` (must load neither the engine
// nor the schemas) and `dpe-sim pre` on one file, against `node -e 0` and a bare engine run
// (import + parse + calcul_3cl) on the same file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'dpe-sim.js');
const FILE = path.join(ROOT, 'fixtures', '0000E0000001H.xml');

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeCommand(args, runs, env = {}) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    times.push(ms);
  }
  return median(times);
}

/**
 * The commands, interleaved run by run (a machine whose load drifts moves them all alike), as
 * medians of wall time; the targets of issue 26 are ratios to `node -e 0` of the same run.
 */
export function runCliBench() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-'));
  const env = { DPE_SIM_DATA_DIR: dataDir, DPE_SIM_CONFIG_DIR: path.join(dataDir, 'config') };
  const runs = Number(process.env.BENCH_CLI_RUNS ?? 7);
  const samples = { node: [], help: [], version: [], pre: [], bare: [] };
  for (let i = 0; i < runs; i++) {
    samples.node.push(timeCommand(['-e', '0'], 1));
    samples.help.push(timeCommand([BIN, '--help'], 1, env));
    samples.version.push(timeCommand([BIN, '--version'], 1, env));
    samples.pre.push(timeCommand([BIN, 'pre', FILE, '--json'], 1, env));
    samples.bare.push(timeCommand([path.join(ROOT, 'bench', 'bare-engine.mjs'), FILE], 1));
  }
  const [node, help, version, pre, bare] = ['node', 'help', 'version', 'pre', 'bare'].map((k) =>
    median(samples[k]),
  );
  const check = (ratio, target) =>
    `${ratio.toFixed(2)}× (target ≤ ${target}×: ${ratio <= target ? 'met' : 'NOT met'})`;
  console.log(`CLI (median wall time of ${runs} whole processes each, interleaved, this machine)`);
  console.log(`  node -e 0                  ${node.toFixed(0)} ms   (Node start-up alone)`);
  console.log(
    `  dpe-sim --help             ${help.toFixed(0)} ms   ${check(help / node, 1.5)} of node -e 0`,
  );
  console.log(
    `  dpe-sim --version          ${version.toFixed(0)} ms   ${(version / node).toFixed(2)}× node -e 0`,
  );
  console.log(
    `  dpe-sim pre <house> --json ${pre.toFixed(0)} ms   ${check(pre / node, 5)} of node -e 0`,
  );
  console.log(
    `  bare engine, same file     ${bare.toFixed(0)} ms   (import + parse + calcul_3cl, no dpe-sim)`,
  );
  console.log(
    `  as ratios to the bare engine process of this run: pre ${(pre / bare).toFixed(2)}×, --help ${(help / bare).toFixed(2)}× (the same file each time: no cache lives across processes)`,
  );
  return { help, version, pre, bare, node };
}

if (import.meta.url === `file://${process.argv[1]}`) runCliBench();

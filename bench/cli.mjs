// Benchmark of the command line: `dpe-sim --help` (must not load the engine) and `dpe-sim pre`
// on one file, against a bare engine run (import + parse + calcul_3cl) on the same file.
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

export function runCliBench() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-'));
  const env = { DPE_SIM_DATA_DIR: dataDir, DPE_SIM_CONFIG_DIR: path.join(dataDir, 'config') };
  const help = timeCommand([BIN, '--help'], 10, env);
  const pre = timeCommand([BIN, 'pre', FILE, '--json'], 5, env);
  const bare = timeCommand([path.join(ROOT, 'bench', 'bare-engine.mjs'), FILE], 5);
  const node = timeCommand(['-e', ''], 10);
  console.log('CLI (median wall time of whole processes, this machine)');
  console.log(`  node -e ''                 ${node.toFixed(0)} ms   (Node start-up alone)`);
  console.log(`  dpe-sim --help             ${help.toFixed(0)} ms`);
  console.log(`  dpe-sim pre <house> --json ${pre.toFixed(0)} ms`);
  console.log(
    `  bare engine, same file     ${bare.toFixed(0)} ms   (import + parse + calcul_3cl, no dpe-sim)`,
  );
  console.log(
    `  pre overhead over bare     ${(pre - bare).toFixed(0)} ms   (store, login token, history record; noise on a busy machine)`,
  );
  console.log(
    `  as ratios to the bare engine process of this run: pre ${(pre / bare).toFixed(2)}×, --help ${(help / bare).toFixed(2)}× (the same file each time: no cache lives across processes)`,
  );
  return { help, pre, bare, node };
}

if (import.meta.url === `file://${process.argv[1]}`) runCliBench();

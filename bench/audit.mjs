// `audit` (docs/audit.md):
// 1. over every corpus DPE of class D to G (houses, flats, whole buildings), in one process: how
//    many get both proposals meeting every rule, and which rule blocks the others (counts per
//    coverage; BENCH_AUDIT_CORPUS=0 skips it; BENCH_AUDIT_JSONL=FILE writes one line per DPE);
// 2. on the corpus's slowest DPE (BENCH_AUDIT_DPE, default 2535E0426429Q), as a user runs them:
//    cold processes `dpe-sim initial FILE --json` and `dpe-sim audit FILE --json`, wall and CPU
//    time (median of BENCH_AUDIT_REPEAT, default 3), audit ÷ initial (target ≤ 2); and the engine
//    runs (change sets) each makes, a count that a loaded machine does not move.
//
//   npm run build && node bench/audit.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusFiles } from './variants.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'dpe-sim.js');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
const TARGET = 2;

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
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const cpu = JSON.parse(readFileSync(cpuFile, 'utf8'));
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, stdout: r.stdout.toString() };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function corpusCounts() {
  const { loadEngine } = await import(path.join(ROOT, 'dist/engine/engine.js'));
  const { readDpeFile } = await import(path.join(ROOT, 'dist/dpe/source.js'));
  const { prepare } = await import(path.join(ROOT, 'dist/simulation/prepared.js'));
  const { auditDpe } = await import(path.join(ROOT, 'dist/simulation/audit/index.js'));
  const { defaultCosts } = await import(path.join(ROOT, 'dist/works/costs.js'));
  const engine = await loadEngine();
  const costs = defaultCosts();
  const byCoverage = new Map();
  const lines = [];
  let blocked = 0;
  let outOfScope = 0;
  let slowest = { ms: 0, id: '' };
  for (const file of corpusFiles()) {
    const p = prepare(engine, await readDpeFile(file));
    if (!p.ok) {
      blocked++;
      continue;
    }
    const t0 = performance.now();
    const a = auditDpe(engine, p.dpe, {
      coef: 'activated',
      forceNormalization: false,
      costs,
      version: 'bench',
    });
    const ms = performance.now() - t0;
    if (!a.auditApplies) {
      outOfScope++;
      continue;
    }
    if (ms > slowest.ms) slowest = { ms, id: a.dpeId };
    const c = byCoverage.get(a.coverage) ?? { dpes: 0, both: 0, rules: {} };
    c.dpes++;
    if (a.ok) c.both++;
    for (const r of a.blockedBy) c.rules[r] = (c.rules[r] ?? 0) + 1;
    byCoverage.set(a.coverage, c);
    lines.push(
      JSON.stringify({
        dpeId: a.dpeId,
        coverage: a.coverage,
        classe: a.initial.classe,
        target: a.targetClass,
        ok: a.ok,
        blockedBy: a.blockedBy,
        why: a.proposals.flatMap((pr) =>
          pr.rules.filter((r) => !r.pass).map((r) => `${pr.kind}/${r.id}: ${r.why}`),
        ),
        costs: a.proposals.map((pr) => pr.cost),
        changeSets: a.changeSets,
        ms: Math.round(ms),
      }),
    );
  }
  if (process.env.BENCH_AUDIT_JSONL)
    writeFileSync(process.env.BENCH_AUDIT_JSONL, lines.join('\n') + '\n');
  console.log(
    `corpus: ${lines.length} DPEs of class D–G audited (${blocked} blocked, ${outOfScope} in A–C)`,
  );
  const total = { dpes: 0, both: 0, rules: {} };
  for (const [coverage, c] of byCoverage) {
    total.dpes += c.dpes;
    total.both += c.both;
    for (const [r, n] of Object.entries(c.rules)) total.rules[r] = (total.rules[r] ?? 0) + n;
    console.log(
      `  ${coverage.padEnd(12)} ${String(c.dpes).padStart(3)} DPEs, both proposals ${c.both}, blocked by: ${JSON.stringify(c.rules)}`,
    );
  }
  console.log(
    `  ${'all'.padEnd(12)} ${String(total.dpes).padStart(3)} DPEs, both proposals ${total.both}, blocked by: ${JSON.stringify(total.rules)}`,
  );
  console.log(`  slowest audit in process: ${slowest.id} ${Math.round(slowest.ms)} ms`);
  return { byCoverage: Object.fromEntries(byCoverage), total };
}

export async function runAuditBench() {
  let counts;
  if (process.env.BENCH_AUDIT_CORPUS !== '0' && existsSync(CORPUS)) counts = await corpusCounts();
  else if (!existsSync(CORPUS)) console.log(`corpus counts skipped: no corpus at ${CORPUS}`);
  const id = process.env.BENCH_AUDIT_DPE ?? '2535E0426429Q';
  const file = existsSync(path.join(CORPUS, `${id}.xml`))
    ? path.join(CORPUS, `${id}.xml`)
    : path.join(ROOT, 'fixtures', '0000E0000001H.xml');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-audit-'));
  const env = { ...process.env, DPE_SIM_DATA_DIR: path.join(tmp, 'data'), NO_COLOR: '1' };
  const repeat = Number(process.env.BENCH_AUDIT_REPEAT ?? 3);
  const runs = { initial: [], audit: [] };
  let auditBody;
  for (let i = 0; i < repeat; i++) {
    for (const cmd of ['initial', 'audit']) {
      const r = timeProcess(
        [BIN, cmd, file, '--json', '--data-dir', path.join(tmp, `data-${cmd}-${i}`)],
        env,
        tmp,
      );
      runs[cmd].push(r);
      if (cmd === 'audit') auditBody = JSON.parse(r.stdout);
    }
  }
  const wall = (k) => median(runs[k].map((r) => r.ms));
  const cpu = (k) => median(runs[k].map((r) => r.cpuMs));
  const ratio = wall('audit') / wall('initial');
  const cpuRatio = cpu('audit') / cpu('initial');
  console.log(
    `${path.basename(file, '.xml')}: cold initial ${Math.round(wall('initial'))} ms (CPU ${Math.round(cpu('initial'))} ms), cold audit ${Math.round(wall('audit'))} ms (CPU ${Math.round(cpu('audit'))} ms): audit ÷ initial ${ratio.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× CPU (target ≤ ${TARGET}); the audit ran ${auditBody.changeSets} change sets; median of ${repeat}`,
  );
  return { counts, ratio, cpuRatio, changeSets: auditBody.changeSets };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAuditBench();

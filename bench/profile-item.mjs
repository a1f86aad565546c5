// Where one batch item's time goes, step by step, in one thread (the built dist/): read the
// file, parse the XML, run the engine (the baseline), the pre-analysis, the login token (user
// and token rows), the history row, the output line. Then a real `batch pre` over the same
// files, with the main thread's event-loop utilisation: what the main thread costs per item.
//
//   npm run build && node bench/profile-item.mjs [N files of the corpus, default 60]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);

const [{ readDpeFile }, { parseDpeXml }, { loadEngine }, { prepare }, { preAnalysis }, calc, cmp] =
  await Promise.all([
    dist('dpe/source.js'),
    dist('dpe/xml.js'),
    dist('engine/engine.js'),
    dist('simulation/prepared.js'),
    dist('simulation/pre.js'),
    dist('simulation/calc.js'),
    dist('simulation/comparison.js'),
  ]);
const { SqliteStore } = await dist('store/sqlite-store.js');
const { outcomeLine } = await dist('batch/item.js');

const n = Number(process.argv[2] ?? 60);
const source = existsSync(CORPUS) ? CORPUS : path.join(ROOT, 'fixtures');
const files = readdirSync(source)
  .filter((f) => f.endsWith('.xml'))
  .sort()
  .slice(0, n)
  .map((f) => path.join(source, f));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-profile-'));
const engine = await loadEngine();
const store = SqliteStore.open(path.join(tmp, 'data'));
const partner = await store.localPartner();
const identity = { customerId: 'c', userId: 'u', userName: 'U', customerName: 'C' };

const steps = [
  'read',
  'parse',
  'engine',
  'pre-analysis',
  'user+token',
  'history row',
  'output line',
];
const totals = Object.fromEntries(steps.map((s) => [s, 0]));
const t = () => performance.now();
for (const file of files) {
  let a = t();
  const text = await readDpeFile(file);
  totals.read += t() - a;
  a = t();
  parseDpeXml(text.xml); // parse alone (prepare parses again: subtracted below)
  const parse = t() - a;
  totals.parse += parse;
  a = t();
  const prep = prepare(engine, text);
  totals.engine += Math.max(0, t() - a - parse);
  a = t();
  const analysis = preAnalysis(prep, { coef: 'activated', forceNormalization: false });
  const base = prep.ok
    ? calc.outcome(prep.dpe, cmp.engineFigures(prep.dpe.base, 'activated'), 'activated', false)
    : undefined;
  totals['pre-analysis'] += t() - a;
  a = t();
  const user = await store.ensureUser(partner, identity);
  const { token } = await store.issueToken(user, { dpeId: text.key });
  totals['user+token'] += t() - a;
  a = t();
  await store.recordRun({
    operation: 'pre',
    user,
    dpeId: text.key,
    coefMode: 'activated',
    classBefore: base?.classesBefore.dpe ?? null,
    consoBefore: base?.before.epM2 ?? null,
    normalized: false,
    blocked: analysis.blocked,
  });
  totals['history row'] += t() - a;
  a = t();
  const body = { url: token, maxCalculation: analysis.maxCalculation, warnings: analysis.warnings };
  outcomeLine(file, {
    dpeId: text.key,
    status: 'ok',
    exitCode: 0,
    attempts: 1,
    ms: 1,
    resultJson: JSON.stringify(body),
  });
  totals['output line'] += t() - a;
}
await store.close();
const sum = Object.values(totals).reduce((x, y) => x + y, 0);
console.log(
  `one item, step by step, in one thread (${files.length} corpus files, load average ${os.loadavg()[0].toFixed(1)}):`,
);
for (const s of steps)
  console.log(
    `  ${s.padEnd(14)} ${(totals[s] / files.length).toFixed(2).padStart(7)} ms  ${((totals[s] / sum) * 100).toFixed(1).padStart(5)}%`,
  );
console.log(`  ${'total'.padEnd(14)} ${(sum / files.length).toFixed(2).padStart(7)} ms`);

// the real batch: the main thread's busy share (event-loop utilisation) per item
const list = path.join(tmp, 'list.txt');
writeFileSync(list, `${files.join('\n')}\n`);
const hook = path.join(tmp, 'elu.mjs');
const eluFile = path.join(tmp, 'elu.json');
writeFileSync(
  hook,
  `import { writeFileSync } from 'node:fs';
const start = performance.eventLoopUtilization();
process.on('exit', () => writeFileSync(${JSON.stringify(eluFile)}, JSON.stringify(performance.eventLoopUtilization(start))));
`,
);
const r = spawnSync(
  process.execPath,
  [
    '--import',
    pathToFileURL(hook).href,
    path.join(ROOT, 'bin', 'dpe-sim.js'),
    'batch',
    'pre',
    list,
    '--out',
    path.join(tmp, 'out.jsonl'),
  ],
  {
    env: {
      ...process.env,
      DPE_SIM_DATA_DIR: path.join(tmp, 'd2'),
      DPE_SIM_CONFIG_DIR: path.join(tmp, 'c2'),
      DPE_SIM_OFFLINE: '1',
    },
    encoding: 'utf8',
  },
);
const { readFileSync } = await import('node:fs');
const elu = JSON.parse(readFileSync(eluFile, 'utf8'));
console.log(
  `batch pre, ${files.length} items: main thread busy ${elu.active.toFixed(0)} ms of ${(elu.idle + elu.active).toFixed(0)} ms (${(elu.utilization * 100).toFixed(1)}%), ${(elu.active / files.length).toFixed(2)} ms per item (start-up included); exit ${r.status}`,
);
rmSync(tmp, { recursive: true, force: true });

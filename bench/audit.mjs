// `audit` (docs/audit.md):
// 1. over every corpus DPE of class D to G (houses, flats, whole buildings), in one process: per
//    DPE both paths and each rule (BENCH_AUDIT_QUIET=1 leaves them out), how many get both
//    proposals meeting every rule, which rule blocks the others, the signer's counts that must be
//    0, and the DPEs the input gate stops with their reason (BENCH_AUDIT_CORPUS=0 skips it;
//    BENCH_AUDIT_ONLY=id,id limits it; BENCH_AUDIT_JSONL=FILE writes one line per DPE;
//    BENCH_DPE_DIR=DIR reads another folder of DPE XMLs);
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
// BENCH_DPE_DIR: another folder of DPE XMLs (real DPEs outside the corpus, docs/fidelity.md)
const CORPUS = process.env.BENCH_DPE_DIR
  ? path.resolve(process.env.BENCH_DPE_DIR)
  : path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
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

/** The signer's checks on one audit (docs/audit.md, "What the bench counts"): each must be 0. */
function signerChecks(a) {
  const bad = {
    tokenItems: [],
    belowLevel: [],
    singleDearer: [],
    oneStepDearer: [],
    stepsShort: [],
    primaryBelowFinal: [],
    flatSteps: [],
  };
  const elements = new Map(
    a.items.flatMap((i) => (i.elements ?? []).map((e) => [e.referenceId, e])),
  );
  const production = (a.gate?.checks ?? []).some(
    (c) => c.id === 'primary-final' && /produced on site/.test(c.figure),
  );
  const figures = [['initial', a.initial]];
  for (const p of a.proposals) {
    const refs = new Set(
      p.steps.flatMap((s) => s.works.filter((w) => w.treats !== false).map((w) => w.referenceId)),
    );
    for (const it of p.items) {
      if (it.status !== 'treated') continue;
      const state = a.items.find((i) => i.key === it.key);
      const els = state?.elements ?? [];
      const need = els.filter((e) => e.status === 'needs-works' || e.status === 'cannot');
      if (it.key === 'ventilation' || it.key === 'heatingHotWater') {
        // a dual-service heat pump on the heating replaces the hot water too
        const dual = p.steps.some((s) => s.works.some((w) => w.editableValue === 'PACAirEauECS'));
        const undone = els.filter(
          (e) =>
            e.status === 'needs-works' &&
            !refs.has(e.referenceId) &&
            !(dual && e.referenceId.startsWith('installation_ecs:')),
        );
        if (undone.length)
          bad.tokenItems.push(`${p.kind}/${it.key}: ${undone.map((e) => e.referenceId).join(',')}`);
        continue;
      }
      const needArea = need.reduce((x, e) => x + e.area, 0);
      const doneArea = need.filter((e) => refs.has(e.referenceId)).reduce((x, e) => x + e.area, 0);
      if (doneArea < 0.5 * needArea - 1e-6)
        bad.tokenItems.push(
          `${p.kind}/${it.key}: ${doneArea.toFixed(1)} of ${needArea.toFixed(1)} m²`,
        );
    }
    for (const s of p.steps) {
      figures.push([`${p.kind}/${s.n}`, s.after]);
      if (s.gain < 1)
        bad.flatSteps.push(`${p.kind}/step ${s.n} ${s.before.classe}→${s.after.classe}`);
      for (const w of s.works) {
        const envelope = ['walls', 'lowFloors', 'roof', 'windowsDoors'].includes(w.item);
        if ((envelope && !w.aidLevel) || (w.aidLevel && !w.aidLevel.met))
          bad.belowLevel.push(
            `${p.kind}/${s.n} ${w.referenceId} ${w.aidLevel?.installed ?? w.performance}`,
          );
        const el = elements.get(w.referenceId);
        if (envelope && el && (el.status === 'at-level' || el.status === 'no-losses'))
          bad.belowLevel.push(
            `${p.kind}/${s.n} ${w.referenceId}: works on an element already at its level`,
          );
      }
    }
  }
  for (const [where, f] of figures)
    if (!production && f.epM2 + 1 < f.efM2)
      bad.primaryBelowFinal.push(`${where}: ${f.epM2} < ${f.efM2}`);
  const steps = a.proposals.find((p) => p.kind === 'steps');
  const single = a.proposals.find((p) => p.kind === 'single');
  const stepsMeetsSingle =
    steps &&
    steps.rules.every(
      (r) => !['final-class', 'six-items', 'aid-levels', 'ventilation'].includes(r.id) || r.pass,
    );
  if (steps && single && stepsMeetsSingle && single.cost > steps.cost + 0.5)
    bad.singleDearer.push(`${single.cost} € > ${steps.cost} €`);
  // a path in steps of one step has the path in one step's rules and its own: never dearer than
  // that path's answer when it meets them and reaches at least its class
  const cls = (p) => p.steps.at(-1)?.after.classe ?? 'G';
  const firstRules = ['first-step-gain', 'first-step-insulation'];
  if (
    steps?.steps.length === 1 &&
    single &&
    steps.cost > single.cost + 0.5 &&
    cls(single) <= cls(steps) &&
    single.rules.every((r) => r.pass || r.id === 'final-class') &&
    steps.rules.filter((r) => firstRules.includes(r.id)).every((r) => r.pass)
  )
    bad.oneStepDearer.push(`${steps.cost} € > ${single.cost} € for ${cls(single)}`);
  // the final class the path in one step reaches, the path in steps reaches too
  const reached = (p) => p?.rules.find((r) => r.id === 'final-class')?.pass;
  if (reached(single) && !reached(steps))
    bad.stepsShort.push(`steps end in ${cls(steps)}, the path in one step in ${cls(single)}`);
  return bad;
}

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
  const gated = [];
  const totals = {
    tokenItems: 0,
    belowLevel: 0,
    singleDearer: 0,
    oneStepDearer: 0,
    stepsShort: 0,
    primaryBelowFinal: 0,
    flatSteps: 0,
  };
  // what the proof says of each step (proof.ts's cut search): proved, or at most N % above
  const proofs = {
    steps: { proved: 0, bounded: [], none: 0 },
    single: { proved: 0, bounded: [], none: 0 },
  };
  let blocked = 0;
  let outOfScope = 0;
  let slowest = { ms: 0, id: '' };
  const verbose = process.env.BENCH_AUDIT_QUIET !== '1';
  const only = process.env.BENCH_AUDIT_ONLY?.split(',');
  for (const file of corpusFiles(CORPUS)) {
    if (only && !only.some((id) => file.includes(id))) continue;
    const p = prepare(engine, await readDpeFile(file));
    if (!p.ok) {
      blocked++;
      continue;
    }
    const t0 = performance.now();
    let a;
    try {
      a = auditDpe(engine, p.dpe, {
        coef: 'activated',
        forceNormalization: false,
        costs,
        version: 'bench',
      });
    } catch (err) {
      if (err?.kind !== 'blocked') throw err;
      gated.push(`${p.dpe.key}: ${err.details?.warnings?.[0]?.content ?? err.message}`);
      continue;
    }
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
    const bad = signerChecks(a);
    for (const k of Object.keys(totals)) totals[k] += bad[k].length;
    for (const pr of a.proposals)
      for (const st of pr.steps) {
        const t = proofs[pr.kind];
        if (st.exact) t.proved++;
        else if (st.maxAbovePercent !== null && st.maxAbovePercent !== undefined)
          t.bounded.push(st.maxAbovePercent);
        else t.none++;
      }
    if (verbose) {
      console.log(
        `${a.dpeId} ${a.coverage} ${a.initial.classe} → ${a.targetClass}${a.ok ? '' : ' (rules not met)'}`,
      );
      for (const pr of a.proposals) {
        console.log(
          `  ${pr.kind.padEnd(6)} ${Math.round(pr.cost)} €: ${pr.steps.map((s) => `${s.before.classe}→${s.after.classe} ${Math.round(s.cost)} € (bill −${s.billSaved} €/yr, ${s.exact ? 'proved' : s.maxAbovePercent === null ? 'not proved' : `≤ ${s.maxAbovePercent} % above`})`).join(', ')}`,
        );
        console.log(
          `         ${pr.rules.map((r) => `${r.id} ${r.pass ? 'pass' : 'FAIL'}`).join(' · ')}`,
        );
      }
      for (const [k, v] of Object.entries(bad))
        if (v.length) console.log(`  !! ${k}: ${v.join('; ')}`);
    }
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
        bad,
        ms: Math.round(ms),
      }),
    );
  }
  if (process.env.BENCH_AUDIT_JSONL)
    writeFileSync(process.env.BENCH_AUDIT_JSONL, lines.join('\n') + '\n');
  console.log(
    `${process.env.BENCH_DPE_DIR ? CORPUS : 'corpus'}: ${lines.length} DPEs of class D–G audited (${blocked} blocked at pre, ${gated.length} stopped by the audit's input gate, ${outOfScope} in A–C)`,
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
  console.log('counts that must be 0:');
  console.log(
    `  items counted treated with less than half of their area needing works done: ${totals.tokenItems}`,
  );
  console.log(
    `  envelope works below the aids' levels (or on an element already at its level): ${totals.belowLevel}`,
  );
  console.log(`  one-step paths dearer than the path in steps: ${totals.singleDearer}`);
  console.log(
    `  paths in steps of one step dearer than the path in one step: ${totals.oneStepDearer}`,
  );
  console.log(
    `  paths in steps short of the final class the path in one step reaches: ${totals.stepsShort}`,
  );
  console.log(`  figures with primary below final (no production): ${totals.primaryBelowFinal}`);
  console.log(`  steps without a class gained: ${totals.flatSteps}`);
  for (const [kind, t] of Object.entries(proofs)) {
    const b = [...t.bounded].sort((x, y) => x - y);
    console.log(
      `  ${kind === 'steps' ? 'path in steps, steps' : 'path in one step'}: ${t.proved} proved cheapest, ${b.length} at most N % above (median ${b.length ? b[Math.floor(b.length / 2)] : '-'} %, max ${b.length ? b[b.length - 1] : '-'} %), ${t.none} without a bound (final class out of reach, a step folded, or the path in one step split in two)`,
    );
  }
  console.log(`stopped by the input gate (${gated.length}):`);
  for (const g of gated) console.log(`  ${g}`);
  console.log(`  slowest audit in process: ${slowest.id} ${Math.round(slowest.ms)} ms`);
  return { byCoverage: Object.fromEntries(byCoverage), total, totals, gated, slowest: slowest.id };
}

export async function runAuditBench() {
  let counts;
  if (process.env.BENCH_AUDIT_CORPUS !== '0' && existsSync(CORPUS)) counts = await corpusCounts();
  else if (!existsSync(CORPUS)) console.log(`corpus counts skipped: no corpus at ${CORPUS}`);
  const ids = [process.env.BENCH_AUDIT_DPE ?? '2535E0426429Q'];
  // the slowest audit that passes the gate and makes proposals (2535E0426429Q is stopped by
  // it, and on the engine's own figures it is in C: no search runs there)
  if (counts?.slowest && !ids.includes(counts.slowest)) ids.push(counts.slowest);
  const out = [];
  for (const id of ids) out.push(await timeCold(id));
  return { counts, timings: out };
}

async function timeCold(id) {
  const file = existsSync(path.join(CORPUS, `${id}.xml`))
    ? path.join(CORPUS, `${id}.xml`)
    : path.join(ROOT, 'fixtures', '0000E0000001H.xml');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-audit-'));
  const env = { ...process.env, DPE_SIM_DATA_DIR: path.join(tmp, 'data'), NO_COLOR: '1' };
  const repeat = Number(process.env.BENCH_AUDIT_REPEAT ?? 3);
  if (!(repeat >= 1)) return undefined; // BENCH_AUDIT_REPEAT=0: the corpus counts only
  const runs = { initial: [], audit: [] };
  let auditBody;
  for (let i = 0; i < repeat; i++) {
    for (const cmd of ['initial', 'audit']) {
      const r = timeProcess(
        // (--engine-figures: the audit computes in full on a DPE its input gate stops)
        [
          BIN,
          cmd,
          file,
          '--json',
          ...(cmd === 'audit' ? ['--engine-figures'] : []),
          '--data-dir',
          path.join(tmp, `data-${cmd}-${i}`),
        ],
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
    `${path.basename(file, '.xml')}: cold initial ${Math.round(wall('initial'))} ms (CPU ${Math.round(cpu('initial'))} ms), cold audit ${Math.round(wall('audit'))} ms (CPU ${Math.round(cpu('audit'))} ms): audit ÷ initial ${ratio.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× CPU (target ≤ ${TARGET}); the audit ran ${auditBody.changeSets} combinations, ${auditBody.proposals.length} proposals${auditBody.gate?.engineFigures ? ' (the gate failed: the engine’s own figures)' : ''}; median of ${repeat}`,
  );
  return { id, ratio, cpuRatio, changeSets: auditBody.changeSets };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAuditBench();

// The engine fidelity dashboard: every corpus DPE through the path `pre` uses (prepare: parse,
// checks, the bundled engine run; then the comparison with the registry), in bug-for-bug mode
// (coefficient 2025, the registry's own: `pre --coef 2025`) and default mode (`--coef 2026`, the
// registry's figures converted), by kind of DPE: primary energy within 5%, emissions within 5%,
// class equal to the registry's; the worst ten; and the intermediate figures the XML carries
// compared with the engine's (src/simulation/fidelity.ts): the first step where they part.
//   npm run fidelity [-- --corpus DIR] [--json FILE] [--only ID,ID] [--steps] [--against FILE]
// --against FILE (a --json of an earlier run): the DPEs whose figures moved since, in both modes,
// and those that crossed the 5% line (gained, lost) or changed class agreement.
// Bills: the engine's consumption priced at the table in force at the DPE's date (bills.ts)
// against the registry's cout_5_usages, by kind of DPE, by use and by energy. Moved away: the
// DPEs dpe-sim puts farther from the registry than the bare engine (bench/bare-engine.mjs, run
// in its own process; --no-bare skips it).
// Run after `npm run build` (it imports dist/).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
const { loadEngine } = await dist('engine/engine.js');
const { prepare } = await dist('simulation/prepared.js');
const { compare, registryInMode } = await dist('simulation/comparison.js');
const { classesOf } = await dist('contract/classes.js');
const { readDpeFile } = await dist('dpe/source.js');
const { stepGaps, firstParting } = await dist('simulation/fidelity.js');
const { billComparison } = await dist('simulation/consistency.js');
const { BILL_USES } = await dist('engine/bills.js');
const { COEF_2025 } = await dist('contract/constants.js');

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const corpus = path.resolve(opt('--corpus') ?? path.join(ROOT, '..', 'shared', 'corpus', 'dpe'));
const only = opt('--only')?.split(',');
const jsonOut = opt('--json');
const against = opt('--against');

const KINDS = [
  'house',
  'flat, individual heating',
  'flat, collective heating',
  'flat, mixed heating',
  'flat from building data',
  'whole building',
];

/** The kind of DPE from its method of application (enum methode_application_dpe_log). */
function kindOf(label) {
  if (label === undefined) return 'unknown';
  if (label.includes('étude')) return 'study-based';
  if (label.includes('maison')) return 'house';
  if (label.includes('généré')) return 'flat from building data';
  if (label.includes('immeuble collectif')) return 'whole building';
  const heating = /chauffage (individuel|collectif|mixte)/.exec(label)?.[1];
  return heating === 'individuel'
    ? 'flat, individual heating'
    : heating === 'collectif'
      ? 'flat, collective heating'
      : 'flat, mixed heating';
}

/** The sum of a registry sortie's GES by use (undefined without its heating's). */
function gesUsesOf(ges) {
  if (!ges || ges.emission_ges_ch === undefined) return undefined;
  return [
    'emission_ges_ch',
    'emission_ges_ecs',
    'emission_ges_fr',
    'emission_ges_eclairage',
    'emission_ges_totale_auxiliaire',
  ].reduce((a, k) => a + (Number(ges[k]) || 0), 0);
}

const MODES = [
  ['bug-for-bug (--coef 2025)', 'deactivated'],
  ['default (--coef 2026)', 'activated'],
];

if (!existsSync(corpus)) {
  console.error(`fidelity: no corpus at ${corpus} (pass --corpus DIR, a directory of DPE XMLs)`);
  process.exit(2);
}
const started = process.hrtime.bigint();
const engine = await loadEngine();
const files = readdirSync(corpus)
  .filter((f) => f.endsWith('.xml'))
  .filter((f) => !only || only.includes(f.replace(/\.xml$/, '')))
  .sort();
const rows = [];
// each DPE's steps against the XML (dpe-sim's engine), for the DPEs moved away
const gapsOf = new Map();
for (const f of files) {
  const text = await readDpeFile(path.join(corpus, f));
  const prep = prepare(engine, text);
  const id = f.replace(/\.xml$/, '');
  if (!prep.ok) {
    const label = engine.enumLabel('methode_application_dpe_log', prep.facts?.methodeApplicationId);
    rows.push({ id, kind: kindOf(label), blocked: prep.alert.id });
    continue;
  }
  const dpe = prep.dpe;
  const label = engine.enumLabel('methode_application_dpe_log', dpe.facts.methodeApplicationId);
  const row = { id, kind: kindOf(label), modes: {} };
  for (const [, mode] of MODES) {
    const cmp = compare(dpe.facts, dpe.base, mode);
    const reg = registryInMode(dpe.facts, dpe.base.surface, mode);
    const cls = (epM2, gesM2) => classesOf(epM2, gesM2, dpe.registryThresholds).dpe;
    row.modes[mode] = {
      dEp: cmp.deltaConso,
      dGes: cmp.deltaGES,
      classEngine: cls(cmp.engine.epM2, cmp.engine.gesM2),
      classRegistry: reg ? cls(reg.epM2, reg.gesM2) : undefined,
    };
  }
  const gaps = stepGaps(dpe.raw, dpe.base.output);
  const first = firstParting(gaps);
  gapsOf.set(id, gaps);
  row.first = first && {
    key: first.key,
    label: first.label,
    gap: first.gap,
    registry: first.registry,
    engine: first.engine,
  };
  if (args.includes('--steps')) row.steps = gaps;
  const bill = billComparison(dpe);
  const xmlEnergies = [dpe.raw.logement?.sortie?.sortie_par_energie_collection?.sortie_par_energie]
    .flat()
    .filter(Boolean);
  row.bill = {
    table: bill.table,
    engine: bill.engine.total,
    registry: bill.registry,
    gap: bill.gap,
    byUse: Object.fromEntries(
      BILL_USES.map((u) => [u, [bill.engine.byUse[u], bill.registryByUse[u]]]),
    ),
    byEnergy: Object.fromEntries(
      xmlEnergies.map((e) => [
        String(e.enum_type_energie_id),
        [bill.engine.byEnergy[String(e.enum_type_energie_id)] ?? 0, Number(e.cout_5_usages)],
      ]),
    ),
  };
  const reg2025 = registryInMode(dpe.facts, dpe.base.surface, 'deactivated');
  row.ep2025 = {
    engine: dpe.base.mode2025.ep,
    ges: dpe.base.mode2025.ges,
    surface: dpe.base.surface,
    registry: reg2025?.ep,
    // the total as the XML stores it, where the registry computed in this mode (registryInMode
    // reads a total that contradicts the per-m² figure from that figure: compared below as such)
    registryStored: dpe.facts.registryCoef === COEF_2025 ? dpe.facts.registry.ep : undefined,
    registryGes: dpe.facts.registry.ges,
    // the registry's published per-m² figures (what its class reads)
    registryM2: reg2025?.epM2,
    registryGesM2: reg2025?.gesM2,
    // the registry's own energies (sortie_par_energie), summed: its total should be that sum
    registryGesEnergies: xmlEnergies.length
      ? xmlEnergies.reduce((a, e) => a + (Number(e.emission_ges_5_usages) || 0), 0)
      : undefined,
    // and its own uses (emission_ges_ch, _ecs, _fr, _eclairage, _totale_auxiliaire), summed
    registryGesUses: gesUsesOf(dpe.raw.logement?.sortie?.emission_ges),
  };
  rows.push(row);
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;

const within = (d) => d !== undefined && Math.abs(d) <= 5;
const pct = (n, d) => (d ? `${Math.round((n / d) * 100)}%` : '-');
const cell = (n, d) => `${n}/${d} ${pct(n, d)}`.padEnd(12);
const sign = (x) => (x === undefined ? 'n/a' : `${x > 0 ? '+' : ''}${x.toFixed(1)}%`);

const lines = [];
const say = (s = '') => lines.push(s);
say(`Engine fidelity on ${files.length} corpus DPEs (${path.relative(ROOT, corpus)})`);
const blocked = rows.filter((r) => r.blocked);
say(
  `${rows.length - blocked.length} computed, ${blocked.length} blocked (${[...new Set(blocked.map((r) => r.blocked))].join(', ') || 'none'}); counts are over all ${rows.length}, a blocked DPE counting as a miss`,
);
for (const [title, mode] of MODES) {
  say();
  say(`## ${title}`);
  say();
  say(
    `${'kind'.padEnd(26)} ${'DPEs'.padStart(4)}  ${'ep ≤ 5%'.padEnd(12)} ${'GES ≤ 5%'.padEnd(12)} ${'class ='.padEnd(12)}`,
  );
  const groups = [...KINDS, ...new Set(rows.map((r) => r.kind).filter((k) => !KINDS.includes(k)))];
  const total = { n: 0, ep: 0, ges: 0, cls: 0 };
  for (const kind of [...groups, 'all']) {
    const rs = kind === 'all' ? rows : rows.filter((r) => r.kind === kind);
    if (!rs.length) continue;
    const m = rs.map((r) => r.modes?.[mode]);
    const ep = m.filter((x) => x && within(x.dEp)).length;
    const ges = m.filter((x) => x && within(x.dGes)).length;
    const cls = m.filter((x) => x && x.classRegistry && x.classEngine === x.classRegistry).length;
    if (kind !== 'all') Object.assign(total, { n: total.n + rs.length });
    say(
      `${kind.padEnd(26)} ${String(rs.length).padStart(4)}  ${cell(ep, rs.length)} ${cell(ges, rs.length)} ${cell(cls, rs.length)}`,
    );
  }
  say();
  say('worst ten (larger of the ep and GES gaps), with the first step where engine and XML part:');
  const worst = rows
    .filter((r) => r.modes)
    .map((r) => ({ r, m: r.modes[mode] }))
    .sort(
      (a, b) =>
        Math.max(Math.abs(b.m.dEp ?? 0), Math.abs(b.m.dGes ?? 0)) -
        Math.max(Math.abs(a.m.dEp ?? 0), Math.abs(a.m.dGes ?? 0)),
    )
    .slice(0, 10);
  for (const { r, m } of worst) {
    const f = r.first
      ? `${r.first.label} ${sign(r.first.gap)} (${Math.round(r.first.engine)} vs ${Math.round(r.first.registry)})`
      : 'no intermediate step parts';
    say(
      `  ${r.id}  ${r.kind.padEnd(24)} ep ${sign(m.dEp).padStart(7)}  GES ${sign(m.dGes).padStart(7)}  class ${m.classEngine}/${m.classRegistry}  first: ${f}`,
    );
  }
}
say();
say(
  '## first step where engine and XML part (> 5%), DPEs whose ep is off by more than 5% in bug-for-bug mode',
);
say();
const counts = new Map();
for (const r of rows.filter((x) => x.modes && !within(x.modes.deactivated.dEp))) {
  const k = r.first ? r.first.key.replace(/\[\d+\]/g, '[i]') : 'none (only the totals part)';
  counts.set(k, [...(counts.get(k) ?? []), r.id]);
}
for (const [k, ids] of [...counts].sort((a, b) => b[1].length - a[1].length))
  say(
    `  ${String(ids.length).padStart(3)}  ${k.padEnd(44)} ${ids.slice(0, 6).join(' ')}${ids.length > 6 ? ' …' : ''}`,
  );
say();
say(
  "## bills, bug-for-bug: the engine's consumption at the prices of the DPE's date vs cout_5_usages",
);
say();
const billWithin = (e, r) => r !== undefined && r > 0 && Math.abs(e / r - 1) <= 0.1;
const billDouble = (e, r) => r !== undefined && r > 0 && (e / r >= 2 || e / r <= 0.5);
say(
  `${'kind'.padEnd(26)} ${'DPEs'.padStart(4)}  ${'bill ≤ 10%'.padEnd(12)} ${'off by 2×'.padEnd(9)} median gap`,
);
for (const kind of [...KINDS, 'all']) {
  const rs = (kind === 'all' ? rows : rows.filter((r) => r.kind === kind)).filter((r) => r.bill);
  if (!rs.length) continue;
  const n = (kind === 'all' ? rows : rows.filter((r) => r.kind === kind)).length;
  const w = rs.filter((r) => billWithin(r.bill.engine, r.bill.registry)).length;
  const d = rs.filter((r) => billDouble(r.bill.engine, r.bill.registry)).length;
  const gaps = rs.map((r) => r.bill.gap ?? 0).sort((a, b) => a - b);
  say(
    `${kind.padEnd(26)} ${String(n).padStart(4)}  ${cell(w, n)} ${String(d).padEnd(9)} ${sign(gaps[gaps.length >> 1])}`,
  );
}
say();
say("by use (DPEs where the registry's cost of the use is at least 10 €):");
for (const u of BILL_USES) {
  const rs = rows.filter((r) => r.bill && (r.bill.byUse[u][1] ?? 0) >= 10);
  const w = rs.filter((r) => billWithin(r.bill.byUse[u][0], r.bill.byUse[u][1])).length;
  say(`  ${u.padEnd(11)} ${cell(w, rs.length)}`);
}
say();
say("by energy (the registry's sortie_par_energie cout_5_usages, where at least 10 €):");
const energyNames = {
  1: 'electricity',
  2: 'natural gas',
  3: 'fuel oil',
  4: 'wood logs',
  5: 'wood pellets',
  6: 'wood chips',
  7: 'industrial wood chips',
  8: 'district heating',
  9: 'propane',
  10: 'butane',
  11: 'coal',
  12: 'renewable electricity',
  13: 'LPG',
  14: 'other fossil',
  15: 'district cooling',
};
const energies = [...new Set(rows.flatMap((r) => Object.keys(r.bill?.byEnergy ?? {})))].sort(
  (a, b) => a - b,
);
for (const en of energies) {
  const rs = rows.filter((r) => (r.bill?.byEnergy[en]?.[1] ?? 0) >= 10);
  if (!rs.length) continue;
  const w = rs.filter((r) => billWithin(r.bill.byEnergy[en][0], r.bill.byEnergy[en][1])).length;
  say(`  ${`${en} ${energyNames[en] ?? ''}`.padEnd(26)} ${cell(w, rs.length)}`);
}
say();
say('bills off by more than 10%:');
for (const r of rows.filter((x) => x.bill && !billWithin(x.bill.engine, x.bill.registry)))
  say(
    `  ${r.id}  ${r.kind.padEnd(24)} ${sign(r.bill.gap).padStart(7)}  engine ${Math.round(r.bill.engine)} vs ${Math.round(r.bill.registry ?? NaN)} €/yr (prices of ${r.bill.table})`,
  );
if (!args.includes('--no-bare')) {
  const { spawnSync } = await import('node:child_process');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const list = path.join(mkdtempSync(path.join(tmpdir(), 'fidelity-')), 'list');
  writeFileSync(list, files.map((f) => path.join(corpus, f)).join('\n') + '\n');
  const bare = spawnSync(process.execPath, [path.join(ROOT, 'bench', 'bare-engine.mjs'), list], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const figures = JSON.parse(bare.stdout).figures;
  const away = [];
  const contradicted = [];
  for (const r of rows.filter((x) => x.ep2025)) {
    const b = figures[path.join(corpus, `${r.id}.xml`)];
    const { engine, ges, registry, registryGes, surface } = r.ep2025;
    if (!b || !registry) continue;
    const g = (a, ref) => Math.abs((a / ref - 1) * 100);
    const sum = r.ep2025.registryGesEnergies;
    const uses = r.ep2025.registryGesUses;
    // The registry's figure to compare with: its total, unless the total contradicts the
    // registry's own figures: it is not its per-m² figure times the surface (beyond the per-m²
    // rounding: a unit slip, e.g. the per-m² figure stored as the total), or, for GES, it is
    // not the sum of its own energies (sortie_par_energie) or of its own uses (emission_ges_ch,
    // _ecs, …), beyond 0.1%, while dpe-sim's total is that sum (within 0.05%). Then the
    // reference is its published per-m² figure (what its class reads), read as published: a
    // whole number n stands for [n, n + 1), the registry floors. Distances in % of the
    // reference.
    const reference = (total, m2, parts, mine, useSum) => {
      const why = [];
      if (m2 !== undefined && Math.abs(total / surface - m2) > 1)
        why.push(`its total ${total.toFixed(2)} is not its ${m2} per m² × ${surface} m²`);
      if (parts > 0 && g(total, parts) > 0.1 && g(mine, parts) <= 0.05)
        why.push(
          `its total ${total.toFixed(1)} is not the sum of its energies ${parts.toFixed(1)}, dpe-sim's is`,
        );
      else if (useSum > 0 && g(total, useSum) > 0.1 && g(mine, useSum) <= 0.05)
        why.push(
          `its total ${total.toFixed(1)} is not the sum of its uses ${useSum.toFixed(1)}, dpe-sim's is`,
        );
      if (!why.length || m2 === undefined) return { dist: (x) => g(x, total) };
      const hi = Number.isInteger(m2) ? m2 + 1 : m2;
      return {
        why,
        dist: (x) => {
          const v = x / surface;
          return (Math.max(m2 - v, v - hi, 0) / m2) * 100;
        },
      };
    };
    const refs = [
      [
        'ep',
        engine,
        b[1],
        reference(r.ep2025.registryStored ?? registry, r.ep2025.registryM2, undefined, engine),
      ],
      ...(registryGes
        ? [['GES', ges, b[2], reference(registryGes, r.ep2025.registryGesM2, sum, ges, uses)]]
        : []),
    ];
    const moved = [];
    for (const [name, mine, bare, ref] of refs) {
      const [dm, db] = [ref.dist(mine), ref.dist(bare)];
      if (ref.why)
        contradicted.push(
          `  ${r.id}  ${name}: ${ref.why.join('; ')}: per m², bare engine ${(bare / surface).toFixed(2)} (off ${db.toFixed(2)}%), dpe-sim ${(mine / surface).toFixed(2)} (off ${dm.toFixed(2)}%)${dm > db + 0.05 ? ': moved away' : ''}`,
        );
      if (dm <= db + 0.05) continue;
      const total = name === 'ep' ? (r.ep2025.registryStored ?? registry) : registryGes;
      moved.push(
        ref.why
          ? `${name} per m² off ${db.toFixed(1)}% → ${dm.toFixed(1)}% of the registry's ${name === 'ep' ? r.ep2025.registryM2 : r.ep2025.registryGesM2}`
          : `${name} ${sign((bare / total - 1) * 100)} → ${sign((mine / total - 1) * 100)}`,
      );
    }
    if (!moved.length) continue;
    away.push({ r, b, text: `${moved.join(', ')} (bare engine → dpe-sim)` });
  }
  // which correction moves each: the bare engine with one correction at a time, on those DPEs
  if (away.length) {
    const { CORRECTIONS } = await dist('engine/corrections.js');
    writeFileSync(list, away.map((a) => path.join(corpus, `${a.r.id}.xml`)).join('\n') + '\n');
    for (const c of CORRECTIONS) {
      const one = spawnSync(
        process.execPath,
        [path.join(ROOT, 'bench', 'bare-engine.mjs'), '--correction', c.id, list],
        { encoding: 'utf8', maxBuffer: 64 << 20 },
      );
      const f = JSON.parse(one.stdout).figures;
      for (const a of away) {
        const x = f[path.join(corpus, `${a.r.id}.xml`)];
        if (x && (x[1] !== a.b[1] || x[2] !== a.b[2])) (a.by ??= []).push(c.id);
      }
    }
    // which steps the corrections move, and which way: the bare engine's steps against dpe-sim's
    const bare = spawnSync(
      process.execPath,
      [path.join(ROOT, 'bench', 'bare-engine.mjs'), '--steps', list],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    const bareSteps = JSON.parse(bare.stdout).steps;
    for (const a of away) {
      const before = new Map(
        (bareSteps[path.join(corpus, `${a.r.id}.xml`)] ?? []).map((g) => [g.key, g]),
      );
      const seen = new Set();
      a.steps = [];
      for (const g of gapsOf.get(a.r.id) ?? []) {
        const b = before.get(g.key);
        const what = `${g.label} ${g.registry.toFixed(1)} ${g.engine.toFixed(1)}`;
        if (!b || seen.has(what) || Math.abs(g.engine - b.engine) <= 1e-6 * Math.abs(b.engine))
          continue;
        seen.add(what);
        const [db, dm] = [Math.abs(b.engine / g.registry - 1), Math.abs(g.engine / g.registry - 1)];
        if (!Number.isFinite(db) || Math.abs(dm - db) * 100 < 0.05) continue;
        a.steps.push(
          `${g.label} ${sign((b.engine / g.registry - 1) * 100)} → ${sign((g.engine / g.registry - 1) * 100)}${dm < db ? '' : ' (farther)'}`,
        );
      }
    }
  }
  say();
  say(
    `## moved away: farther from the registry than the bare engine (bug-for-bug totals, over 0.05 points): ${away.length}`,
  );
  say(
    "  the registry's total is the reference, or its per-m² figure where the total contradicts the registry's own figures (below)",
  );
  say();
  for (const a of away)
    say(
      `  ${a.r.id}  ${a.r.kind.padEnd(24)} ${a.text}; moved by ${(a.by ?? ['none alone']).join(', ')}${a.steps?.length ? `\n      steps against the XML's (bare engine → dpe-sim): ${a.steps.join('; ')}` : ''}`,
    );
  say();
  say(
    `registry totals that contradict the registry's own figures, compared on its per-m² figure: ${contradicted.length}`,
  );
  for (const c of contradicted) say(c);
}
if (against) {
  const before = new Map(JSON.parse(readFileSync(against, 'utf8')).map((r) => [r.id, r]));
  say();
  say(`## moved since ${path.basename(against)}`);
  say();
  for (const [title, mode] of MODES) {
    const moved = [];
    const line = { ep: [[], []], ges: [[], []], cls: [[], []] };
    for (const r of rows) {
      const a = before.get(r.id)?.modes?.[mode];
      const b = r.modes?.[mode];
      if (!a || !b) continue;
      if (a.dEp === b.dEp && a.dGes === b.dGes && a.classEngine === b.classEngine) continue;
      moved.push(
        `${r.id} (ep ${sign(a.dEp)} → ${sign(b.dEp)}, GES ${sign(a.dGes)} → ${sign(b.dGes)})`,
      );
      const flip = (k, was, now) => {
        if (was !== now) line[k][now ? 0 : 1].push(r.id);
      };
      flip('ep', within(a.dEp), within(b.dEp));
      flip('ges', within(a.dGes), within(b.dGes));
      flip('cls', a.classEngine === a.classRegistry, b.classEngine === b.classRegistry);
    }
    say(`${title}: ${moved.length} DPEs moved`);
    for (const m of moved) say(`  ${m}`);
    for (const [k, name] of [
      ['ep', 'ep ≤ 5%'],
      ['ges', 'GES ≤ 5%'],
      ['cls', 'class ='],
    ])
      say(
        `  ${name}: gained ${line[k][0].length} ${line[k][0].join(' ')}; lost ${line[k][1].length} ${line[k][1].join(' ')}`,
      );
  }
}
say();
say(`(${seconds.toFixed(1)} s)`);
console.log(lines.join('\n'));
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(rows, null, 1) + '\n');

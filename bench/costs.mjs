// `npm run bench:costs`: dpe-sim's costs against the diagnosticians' own works packs.
// For every corpus DPE, `dpe-sim initial --json` gives the registry packs (cleaned, with the
// class each pack reaches, worse-of by the DPE's thresholds) and dpe-sim's cheapest verified
// scenario reaching that class (`coutScenario`). Ratio = our cost / the pack's midpoint
// ((min + max) / 2). Packs with a maximum under 1,000 € are placeholders: left out, counted.
// Packs reaching no better class than the DPE's own registry class (`sansGainDeClasse`: most
// copy the registry's current figures as after-works figures) have nothing to compare with (our
// cheapest scenario "reaching" that class is no works): left out, counted.
// Prints median and 10th–90th percentiles for houses, flats and whole buildings.
//   node bench/costs.mjs [--from DIR]   DIR: saved `initial` outputs (DIR/<id>.json, as written
//                                       by ../shared/tools/figures-snapshot.mjs save) instead of runs.
//                                       The check reads each pack's own fields (`classeApres`,
//                                       `sansGainDeClasse`, `coutScenario`, in the pack's frame since
//                                       packs carry `registryCoef`): outputs saved by an older
//                                       dpe-sim are refused, to be saved again.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
export const GROUPS = ['maison', 'appartement', 'immeuble'];
const GROUP_TITLE = { maison: 'houses', appartement: 'flats', immeuble: 'whole buildings' };

function runInitial(file, dataDir) {
  return new Promise((done) => {
    const p = spawn(
      process.execPath,
      [path.join(ROOT, 'bin', 'dpe-sim.js'), 'initial', file, '--json', '--data-dir', dataDir],
      { env: { ...process.env, NO_COLOR: '1', CI: 'true' }, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('close', () => {
      try {
        done(JSON.parse(out));
      } catch {
        done(undefined);
      }
    });
  });
}

/** A saved output's body: the snapshot's `{exitCode, body}` or the body itself. */
function savedBody(file) {
  const j = JSON.parse(readFileSync(file, 'utf8'));
  return j.body && j.exitCode === 0 ? j.body : j.exitCode === undefined ? j : undefined;
}

/** The `initial` bodies of the corpus: from saved outputs or from runs (two at a time). */
export async function initialBodies(from) {
  if (from) {
    return readdirSync(from)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => {
        const body = savedBody(path.join(from, f));
        return { id: f.replace(/\.json$/, ''), body: body?.dpe ? body : undefined };
      });
  }
  const files = readdirSync(CORPUS)
    .filter((f) => f.endsWith('.xml'))
    .sort();
  const data = mkdtempSync(path.join(os.tmpdir(), 'bench-costs-'));
  const out = new Array(files.length);
  let next = 0;
  const worker = async (w) => {
    while (next < files.length) {
      const i = next++;
      out[i] = {
        id: files[i].replace(/\.xml$/, ''),
        body: await runInitial(path.join(CORPUS, files[i]), path.join(data, String(w))),
      };
    }
  };
  await Promise.all([worker(0), worker(1)]);
  return out;
}

export function quantile(sorted, q) {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Whether an output's packs carry the fields the check reads (dpe-sim from the packs' frame on). */
function packsInTheirFrame(body) {
  return (body.registryPacks ?? []).every((p) => 'registryCoef' in p && 'sansGainDeClasse' in p);
}

/**
 * Ratios per group, with the packs left out and why. `bodies`: `{id, body}`, the body needing only
 * `dpe.infos` and `registryPacks`.
 */
export function costCheck(bodies) {
  const groups = Object.fromEntries(
    GROUPS.map((g) => [
      g,
      { ratios: [], placeholders: 0, noGain: 0, noClass: 0, noScenario: 0, dpes: new Set() },
    ]),
  );
  let packs = 0;
  let blocked = 0;
  for (const { id, body } of bodies) {
    if (!body) {
      blocked++;
      continue;
    }
    if (!packsInTheirFrame(body))
      throw new Error(
        `${id}: saved by an older dpe-sim (its packs have no registryCoef / sansGainDeClasse): save the outputs again`,
      );
    const g = groups[body.dpe?.infos?.type_bien?.value] ?? groups.appartement;
    for (const p of body.registryPacks ?? []) {
      packs++;
      if (p.coutPlaceholder || (p.coutMax !== null && p.coutMax < 1000)) {
        g.placeholders++;
        continue;
      }
      if (p.coutMin === null || p.coutMax === null || !p.classeApres) {
        g.noClass++;
        continue;
      }
      if (p.sansGainDeClasse) {
        g.noGain++;
        continue;
      }
      const ours = p.coutScenario;
      if (ours === null || ours === undefined) {
        g.noScenario++;
        continue;
      }
      g.ratios.push(ours / ((p.coutMin + p.coutMax) / 2));
      g.dpes.add(id);
    }
  }
  for (const g of Object.values(groups)) g.ratios.sort((a, b) => a - b);
  return { groups, packs, blocked, dpes: bodies.length };
}

export function costTable(check) {
  const f = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');
  const lines = [
    '| group | packs compared | DPEs | median | p10 | p90 | placeholder packs left out | no class gain | no class / no scenario |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const name of GROUPS) {
    const g = check.groups[name];
    lines.push(
      `| ${GROUP_TITLE[name]} | ${g.ratios.length} | ${g.dpes.size} | ${f(quantile(g.ratios, 0.5))} | ${f(quantile(g.ratios, 0.1))} | ${f(quantile(g.ratios, 0.9))} | ${g.placeholders} | ${g.noGain} | ${g.noClass} / ${g.noScenario} |`,
    );
  }
  return `${lines.join('\n')}\n\n${check.packs} packs on ${check.dpes} DPEs (${check.blocked} blocked or failed); ratio = dpe-sim's cheapest verified scenario reaching the pack's class / the pack's midpoint cost. Left out and counted: placeholder costs (maximum under 1,000 €) and packs reaching no better class than the DPE's own registry class (nothing to compare: our cheapest scenario for that class is no works).`;
}

export async function runCostsBench(argv = process.argv.slice(2)) {
  const i = argv.indexOf('--from');
  const from = i >= 0 ? argv[i + 1] : undefined;
  if (!from && !existsSync(CORPUS)) {
    console.log(`corpus not found at ${CORPUS}: cost check skipped`);
    return;
  }
  const t0 = Date.now();
  const check = costCheck(await initialBodies(from));
  console.log(costTable(check));
  console.log(`(${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  return check;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCostsBench();
}

// The workbench (issue 37, docs/workbench.md), in headless Chromium (playwright-core and
// /usr/bin/chromium, or DPE_SIM_CHROMIUM) against an in-process `dpe-sim serve` on the bundled
// house (fixtures/0000E0000001H.xml):
// 1. first render: from following the login URL of a `pre` to the page showing the DPE, its
//    works and its results (the page's `pre` and `initial`), cold (the server's first DPE) and
//    warm (the median of three later logins); goal ≤ 1 s warm;
// 2. a works pick's round trip: from checking an option to the recomputed class and figures on
//    the page (BENCH_WORKBENCH_PICKS picks, default 30, each a different set of works); goal
//    p50 ≤ 300 ms;
// each beside the same operation run plainly on a LocalBackend in this process (`initial`,
// `calc` with the same works), so the browser's and HTTP's share is what is left.
//
//   npm run build && node bench/workbench.mjs
import { existsSync, mkdtempSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.DPE_SIM_CHROMIUM ?? '/usr/bin/chromium';
const HOUSE_ID = '0000E0000001H';
const PICKS = Number(process.env.BENCH_WORKBENCH_PICKS ?? 30);
const WHO = { customerId: 'bench', userId: 'u1', userName: 'Bench', customerName: 'Bench' };

const dist = (p) => pathToFileURL(path.join(ROOT, 'dist', p)).href;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x) => `${Math.round(x)} ms`;

/** The works sets of the picks: wall i gets option j, one element changed at a time. */
function pickPlan(n) {
  const options = ['IMurITI30', 'IMurITI37', 'IMurITE37', 'IMurITE45'];
  const plan = [];
  const state = {};
  for (let k = 0; k < n; k++) {
    const wall = k % 4; // mur:4 has fewer options
    const value = options[(Math.floor(k / 4) + wall) % options.length];
    state[`mur:${wall}`] =
      value === state[`mur:${wall}`] ? options[(options.indexOf(value) + 1) % 4] : value;
    plan.push({ wall, value: state[`mur:${wall}`], works: { ...state } });
  }
  return plan;
}

const toChanges = (works) =>
  Object.entries(works).map(([referenceId, editableValue]) => ({
    referenceId,
    editableKey: 'ISOLATION',
    editableValue,
  }));

export async function runWorkbenchBench() {
  if (!existsSync(CHROMIUM)) {
    console.log(
      `workbench bench SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`,
    );
    return undefined;
  }
  const { chromium } = await import('playwright-core');
  const { composeLocal } = await import(dist('compose.js'));
  const { startServer } = await import(dist('server/start.js'));
  const { LocalBackend } = await import(dist('backend/local.js'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-wb-'));
  const dpeDir = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-wb-dpe-'));
  copyFileSync(
    path.join(ROOT, 'fixtures', `${HOUSE_ID}.xml`),
    path.join(dpeDir, `${HOUSE_ID}.xml`),
  );
  const services = await composeLocal({
    dataDir,
    dpeDir,
    appUrl: 'http://127.0.0.1',
    offline: true,
    dpeLocations: false,
    engineThreads: Math.min(2, os.availableParallelism()),
  });
  const server = await startServer({
    services,
    historyPath: '/partners/tracking/history',
    host: '127.0.0.1',
    port: 0,
  });
  const key = await services.createPartnerKey('bench');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const pre = async () => {
      const res = await fetch(`${server.url}/partners/dpe/pre`, {
        method: 'POST',
        headers: { authorization: key, 'content-type': 'application/json' },
        body: JSON.stringify({ ...WHO, dpeId: HOUSE_ID }),
      });
      return (await res.json()).url;
    };
    /**
     * From following the link to the DPE's label shown (the page's `pre`), and to the page
     * ready (its `initial`: the works and the results shown).
     */
    const firstRender = async (page) => {
      const url = await pre();
      const t0 = performance.now();
      await page.goto(url);
      await page.waitForSelector('.label-rows li[aria-current="true"]', { timeout: 120_000 });
      const label = performance.now() - t0;
      await page.waitForSelector('main[data-ready="true"]', { timeout: 120_000 });
      return { label, ready: performance.now() - t0 };
    };
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const cold = await firstRender(await ctx.newPage());
    // warm: the DPE prepared and its initial cached (on each engine thread, which may take
    // more than one login), the median of three
    const warms = [];
    let page;
    for (let i = 0; i < 3; i++) {
      page = await ctx.newPage();
      warms.push(await firstRender(page));
    }
    const warm = {
      label: median(warms.map((w) => w.label)),
      ready: median(warms.map((w) => w.ready)),
    };

    // the same operations plainly, in this process, on the same services (warm)
    const backend = new LocalBackend(services, await services.localPartner());
    let t0 = performance.now();
    await backend.previewPre({ ...WHO, dpeId: HOUSE_ID });
    await backend.previewInitial({ ...WHO, dpeId: HOUSE_ID });
    const plainInitial = performance.now() - t0;

    const plan = pickPlan(PICKS);
    const browserMs = [];
    for (const [k, p] of plan.entries()) {
      t0 = performance.now();
      await page.check(`input[name="mur:${p.wall}|ISOLATION"][value="${p.value}"]`);
      await page.waitForSelector(`main[data-seq="${k + 1}"] #result[aria-busy="false"]`);
      browserMs.push(performance.now() - t0);
    }
    // the plain calcs: the same works and the door (sets the browser did not compute, so
    // nothing of them is cached either)
    const plainMs = [];
    for (const p of plan) {
      const door = { referenceId: 'porte:0', editableKey: 'PORTE', editableValue: 'PorteIsolee' };
      t0 = performance.now();
      await backend.previewCalc({
        ...WHO,
        dpeId: HOUSE_ID,
        params: { editablesChanges: [...toChanges(p.works), door] },
      });
      plainMs.push(performance.now() - t0);
    }
    const result = {
      firstRenderColdMs: cold.ready,
      labelWarmMs: warm.label,
      firstRenderWarmMs: warm.ready,
      plainPreInitialMs: plainInitial,
      pickP50Ms: median(browserMs),
      pickP90Ms: pct(browserMs, 0.9),
      plainCalcP50Ms: median(plainMs),
      picks: PICKS,
    };
    console.log(
      [
        `first render, from the login link (warm: median of 3): the DPE's label shown ${ms(warm.label)} (goal ≤ 1 s); the works and results shown ${ms(warm.ready)}, cold ${ms(cold.ready)}; plain pre + initial in this process, warm, ${ms(plainInitial)}`,
        `works pick round trip (${PICKS} picks, click → class and figures shown): p50 ${ms(result.pickP50Ms)}, p90 ${ms(result.pickP90Ms)} (goal p50 ≤ 300 ms); plain calc in this process p50 ${ms(result.plainCalcP50Ms)}`,
      ].join('\n'),
    );
    await ctx.close();
    return result;
  } finally {
    await browser.close();
    await server.close();
    await services.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runWorkbenchBench();

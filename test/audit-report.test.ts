/**
 * The audit's printable report (`dpe-sim audit --report`) in headless Chromium (Debian's
 * `chromium` through playwright-core, as the login-page test): no console error, no request
 * beyond the file itself, every figure of the JSON present in the page as the page prints it,
 * and the PDF printed from it (`page.pdf`, A4) at most 4 pages for a house. The PDFs are kept in
 * `<OS temp dir>/dpe-sim-audit-report/` (the path is printed). Skipped, with a visible message,
 * when /usr/bin/chromium is absent.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditResponse } from '../src/contract/audit.js';
import { billChangeText } from '../src/contract/number-text.js';
import { generatorPerformanceText, summerComfortText } from '../src/contract/audit-text.js';
import { euros, num, withUnit } from '../src/cli/format.js';
import { groupIdentical } from '../src/cli/render/audit-groups.js';
import { CORPUS, HAS_CORPUS, HOUSE, runCli, tempDir } from './helpers.js';

const CHROMIUM = process.env.DPE_SIM_CHROMIUM ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM)
  console.warn(
    `\n⚠ audit report tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set DPE_SIM_CHROMIUM)\n`,
  );

/** Where the printed PDFs are kept after the test (printed on the console). */
export const REPORT_DIR = path.join(os.tmpdir(), 'dpe-sim-audit-report');

/** Every figure of the audit, as the report prints it (French format, as the terminal). */
function figuresOf(a: AuditResponse): string[] {
  const f: string[] = [num(a.losses.total, 1)];
  for (const i of a.losses.items) f.push(num(i.wk, 1), num(i.share, 1));
  const fig = (x: AuditResponse['initial']) =>
    f.push(x.classe, num(x.epM2), num(x.gesM2), num(x.ef), num(x.efM2), num(x.bill));
  fig(a.initial);
  for (const p of a.proposals) {
    f.push(euros(p.cost));
    for (const s of p.steps) {
      fig(s.before);
      fig(s.after);
      f.push(euros(s.cost), euros(s.cumulativeCost));
      if (s.billSaved !== undefined) f.push(billChangeText(s.billSaved));
      if (s.summerComfort) f.push(s.summerComfort.indicator);
      // identical elements grouped: the group's quantity and cost
      for (const { work: w } of groupIdentical(s.works))
        f.push(
          euros(w.cost),
          w.unit === 'm²' ? withUnit(w.quantity, 'm²', 1) : num(w.quantity),
          generatorPerformanceText(w.performance),
        );
    }
    for (const r of p.rules) f.push(r.figure);
    if (p.aids) {
      f.push(p.aids.asOf, p.aids.rule);
      if (p.aids.eligible)
        for (const c of p.aids.byCategory) f.push(euros(c.maPrimeRenov), euros(c.netCost));
    }
  }
  for (const c of a.controls ?? []) f.push(c);
  if (a.summerComfort) f.push('Summer comfort before works', summerComfortText(a.summerComfort));
  if (a.prices) f.push(a.prices.date);
  if (a.synthesis?.length) f.push('Synthesis');
  if (a.gate?.banner) f.push(a.gate.banner);
  for (const c of a.costs.figures) f.push(euros(c.eur));
  f.push(a.versions.engine, a.versions.catalogue, a.dpeId);
  return f;
}

/** Pages of a PDF: its page objects (`/Type /Page`, not `/Pages`). */
function pdfPages(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
}

describe.skipIf(!HAS_CHROMIUM)('the audit report in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(REPORT_DIR, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function check(
    dpe: string,
    name: string,
    extra: string[] = [],
  ): Promise<{ pages: number; pdf: string }> {
    const dir = tempDir('dpe-sim-audit-report-');
    const html = path.join(dir, `${name}.html`);
    const res = await runCli(['audit', dpe, '--json', '--report', html, ...extra], {
      dataDir: dir,
    });
    expect(res.code, res.stderr).toBe(0);
    const a = JSON.parse(res.stdout) as AuditResponse;
    expect(readFileSync(html, 'utf8')).not.toMatch(/<script|<link|@import|url\(/i);
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(html).href);
    const text = await page.innerText('body');
    for (const figure of figuresOf(a)) expect(text, figure).toContain(figure);
    expect(text).toContain('does not replace');
    expect(await page.locator('svg').count()).toBeGreaterThanOrEqual(2);
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    const file = path.join(REPORT_DIR, `${name}.pdf`);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, pdf);
    writeFileSync(path.join(REPORT_DIR, `${name}.html`), readFileSync(html));
    console.log(`audit report: ${file} (${pdfPages(pdf)} pages)`);
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(html).href]);
    await page.close();
    return { pages: pdfPages(pdf), pdf: file };
  }

  it('a house: every figure on the page, no console error, a PDF of at most 4 pages', async () => {
    const { pages } = await check(HOUSE, 'audit-house-0000E0000001H');
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(pages).toBeLessThanOrEqual(4);
  });

  it.skipIf(!HAS_CORPUS)('a whole building (2535E0426429Q): every figure on the page', async () => {
    await check(path.join(CORPUS, '2535E0426429Q.xml'), 'audit-building-2535E0426429Q');
  });

  it.skipIf(!HAS_CORPUS)(
    'a DPE the input gate stops (2262E1839422L): every figure on the page, under the banner',
    async () => {
      await check(path.join(CORPUS, '2262E1839422L.xml'), 'audit-gate-2262E1839422L', [
        '--engine-figures',
      ]);
    },
  );
});

/** The PDF PDFKit makes (`--pdf`): no browser needed, a dwelling's in at most 4 pages. */
describe('the audit PDF (--pdf, PDFKit)', () => {
  const dwellings = [HOUSE, ...(HAS_CORPUS ? [path.join(CORPUS, '2287E1923356Q.xml')] : [])];
  it('a dwelling’s PDF: A4, at most 4 pages, the report’s content', async () => {
    mkdirSync(REPORT_DIR, { recursive: true });
    for (const dpe of dwellings) {
      const dir = tempDir('dpe-sim-audit-pdf-');
      const file = path.join(REPORT_DIR, `audit-${path.basename(dpe, '.xml')}.pdfkit.pdf`);
      const res = await runCli(['audit', dpe, '--pdf', file], { dataDir: dir });
      expect(res.code, res.stderr).toBe(0);
      const pdf = readFileSync(file);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.toString('latin1')).toContain('/MediaBox [0 0 595.28 841.89]');
      const pages = pdfPages(pdf);
      console.log(`audit PDF: ${file} (${pages} pages)`);
      expect(pages).toBeGreaterThanOrEqual(1);
      expect(pages).toBeLessThanOrEqual(4);
    }
  });
});

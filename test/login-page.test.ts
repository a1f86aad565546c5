/**
 * The login page in headless Chromium (Debian's `chromium`, driven by playwright-core): follow
 * the URL that `dpe-sim auth` returns, see the user, the DPE's classes and the last simulation;
 * a used, expired, unknown or missing token shows a clear error. Skipped, with a visible
 * message, when /usr/bin/chromium is absent (`apt-get install -y chromium`).
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';
import { startTestServer, type TestServer } from './server-harness.js';

const CHROMIUM = process.env.DPE_SIM_CHROMIUM ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) {
  console.warn(
    `\n⚠ login page tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set DPE_SIM_CHROMIUM)\n`,
  );
}

const HOUSE_ID = '0000E0000001H';
const WHO = [
  '--customer-id',
  'acme-42',
  '--user-id',
  'u-7',
  '--user-name',
  'Alice Martin',
  '--customer-name',
  'ACME Habitat',
];

describe.skipIf(!HAS_CHROMIUM)('login page in headless Chromium', () => {
  let s: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    s = await startTestServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  /** `dpe-sim --backend remote ... <args>` against the test server, as partner alpha. */
  function remote(args: string[]) {
    return runCli(
      ['--backend', 'remote', '--base-url', s.url, '--partner-key-file', '-', ...args, ...WHO],
      { input: s.keyA },
    );
  }

  async function open(url: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(url);
    await page.waitForSelector('#content:not([hidden]), #error:not([hidden])');
    return { page, errors };
  }

  it('shows the user, the DPE classes and the last simulation', async () => {
    const calc = await remote(['calc', HOUSE_ID, '--work', 'mur:0=ISOLATION:IMurITE37', '--json']);
    expect(calc.code, calc.stderr).toBe(0);
    const after = (
      JSON.parse(calc.stdout) as { simulation: { initialGrade: string; currentGrade: string } }
    ).simulation;
    const auth = await remote(['auth', '--dpe-id', HOUSE_ID]);
    expect(auth.code, auth.stderr).toBe(0);
    const url = auth.stdout.trim();
    expect(url.startsWith(`${s.url}/public/partnerLogin.html?partnerToken=`)).toBe(true);

    const { page, errors } = await open(url);
    expect(await page.isVisible('#content')).toBe(true);
    expect(await page.textContent('#user-name')).toBe('Alice Martin');
    expect(await page.textContent('#customer-name')).toBe('ACME Habitat');
    expect(await page.textContent('#user-ids')).toBe('acme-42 / u-7');
    expect(await page.textContent('#dpe-id')).toBe(HOUSE_ID);
    expect(await page.textContent('#class-dpe')).toBe(after.initialGrade);
    expect(await page.textContent('#class-energy')).toMatch(/^[A-G]$/);
    expect(await page.textContent('#class-ges')).toMatch(/^[A-G]$/);
    expect(await page.textContent('#dpe-ep')).toBe('381 kWh/m²/yr');
    expect(await page.textContent('#last-operation')).toBe(`calc (default) on ${HOUSE_ID}`);
    expect(await page.textContent('#last-class-before')).toBe(after.initialGrade);
    expect(await page.textContent('#last-class-after')).toBe(after.currentGrade);
    expect(await page.textContent('#last-conso')).toMatch(/^381 → \d+ kWh\/m²\/yr$/);
    expect(await page.textContent('#last-works')).toBe('mur:0 ISOLATION IMurITE37');
    expect(await page.title()).toBe('Welcome Alice Martin');
    // the single-use token is gone from the address bar
    expect(page.url()).toBe(`${s.url}/public/partnerLogin.html`);
    expect(errors).toEqual([]);

    // the same link a second time: used
    const again = await open(url);
    expect(await again.page.isVisible('#error')).toBe(true);
    expect(await again.page.textContent('#error-title')).toBe(
      'This login link can no longer be used.',
    );
    expect(await again.page.textContent('#error-detail')).toContain(
      'This login token has already been used. Ask for a new link.',
    );
    expect(await again.page.isVisible('#content')).toBe(false);
  });

  it('a link made by the local CLI with --app-url pointing at the server', async () => {
    const auth = await runCli(
      ['auth', '--app-url', s.url, '--dpe-id', '0000E0000002F', ...WHO, '--user-id', 'local-1'],
      { dataDir: s.dataDir },
    );
    expect(auth.code, auth.stderr).toBe(0);
    const { page } = await open(auth.stdout.trim());
    expect(await page.textContent('#user-ids')).toBe('acme-42 / local-1');
    expect(await page.textContent('#dpe-id')).toBe('0000E0000002F');
    expect(await page.textContent('#class-dpe')).toMatch(/^[A-G]$/);
    expect(await page.isVisible('#no-last')).toBe(true);
  });

  it('expired, unknown and missing tokens show a clear error', async () => {
    const auth = await remote(['auth', '--expire', '1']);
    const url = auth.stdout.trim();
    const token = new URL(url).searchParams.get('partnerToken') ?? '';
    const db = new Database(s.store.location);
    db.prepare(
      "UPDATE tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE used_at IS NULL",
    ).run();
    db.close();
    expect(token).not.toBe('');
    const expired = await open(url);
    expect(await expired.page.textContent('#error-title')).toBe(
      'This login link can no longer be used.',
    );
    expect(await expired.page.textContent('#error-detail')).toContain('has expired');

    const unknown = await open(`${s.url}/public/partnerLogin.html?partnerToken=not-a-token`);
    expect(await unknown.page.textContent('#error-title')).toBe('This login link is not valid.');

    const missing = await open(`${s.url}/public/partnerLogin.html`);
    expect(await missing.page.textContent('#error-title')).toBe('This page needs a login link.');
  });

  it('is served with a strict Content-Security-Policy and no caching', async () => {
    const res = await fetch(`${s.url}/public/partnerLogin.html?partnerToken=x`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toMatch(
      /default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-/,
    );
  });
});

/**
 * One number format on every screen (contract/number-text.ts): a decimal point and digits grouped
 * with a narrow no-break space. The CLI's table output of pre, initial and calc, on the fixtures
 * and on corpus DPEs of each kind (a house, a flat, a flat generated from building data, a whole
 * building), holds no number written with a decimal comma ("1,28") nor grouped with a comma
 * ("36,353"). Beyond these screens, every CLI run of the test suite is checked the same way by
 * test/helpers.ts (startCli): a human line with such a number fails the test that ran it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { billChangeText } from '../src/contract/number-text.js';
import { CORPUS, FLAT, HAS_CORPUS, HOUSE, STUDIO, runCli, tempDir } from './helpers.js';

const KINDS: Record<string, string> = {
  house: '2187E0981996L',
  flat: '2125E0981916Z',
  'generated flat': '2463E3164679Z',
  'whole building': '2535E0426429Q',
};
if (!HAS_CORPUS)
  console.warn('*** number format on corpus DPEs SKIPPED: ../shared/corpus absent ***');

/** "1,28" or "36,353": a digit, a comma, a digit (a list "3, 4" has a space). */
const COMMA_NUMBER = /\d,\d/g;

async function screens(file: string): Promise<string> {
  const dataDir = tempDir();
  const out: string[] = [];
  for (const args of [
    ['pre', file],
    // every section of initial's screen (the default screen is a part of it)
    ['initial', file, '--all'],
    ['calc', file, '--scenario-from', '1'],
    ['audit', file],
  ]) {
    const r = await runCli(args, { dataDir });
    out.push(r.stdout, r.stderr);
  }
  return out.join('\n');
}

describe('one number format', () => {
  it('the fixtures: no decimal comma, no comma grouping; decimals with a point', async () => {
    for (const file of [HOUSE, FLAT, STUDIO]) {
      const text = await screens(file);
      expect(text.match(COMMA_NUMBER), file).toBeNull();
      expect(text, file).toMatch(/\d\.\d/); // there are decimals, and they use a point
      expect(text, file).toMatch(/\d\u202f\d{3}/); // thousands grouped with a narrow space
    }
  });

  for (const [kind, id] of Object.entries(KINDS)) {
    const file = path.join(CORPUS, `${id}.xml`);
    it.skipIf(!HAS_CORPUS || !existsSync(file))(`a ${kind} of the corpus (${id})`, async () => {
      const text = await screens(file);
      const hits = [...text.matchAll(COMMA_NUMBER)].map((m) =>
        text.slice(Math.max(0, m.index - 30), m.index + 30),
      );
      expect(hits, `${kind} ${id}`).toEqual([]);
    });
  }
});

describe('a bill change has one sign', () => {
  it('a saving is a minus, a rise a plus, never a minus before a negative saving', () => {
    expect(billChangeText(1359.4)).toBe('−1\u202f359\u00a0€/yr');
    expect(billChangeText(-441.6)).toBe('+442\u00a0€/yr');
    expect(billChangeText(0.2)).toBe('0\u00a0€/yr');
    expect(billChangeText(undefined)).toBe('–');
  });

  // a house heated with coal whose first step’s heat pump raises the bill (coal is cheap per kWh)
  const risen = path.join(CORPUS, '2359E2800645M.xml');
  it.skipIf(!HAS_CORPUS || !existsSync(risen))(
    'the audit of a house whose first step raises its bill says "+", in the terminal and the report (2359E2800645M)',
    async () => {
      const dir = tempDir();
      const report = path.join(dir, 'a.html');
      const r = await runCli(['audit', risen, '--report', report], { dataDir: dir });
      expect(r.code, r.stderr).toBe(0);
      const step1 = r.stdout.split('\n').find((l) => /Step 1: G → /.test(l)) ?? '';
      expect(step1).toMatch(/bill \+\d+\u00a0€\/yr\)/);
      expect(r.stdout).not.toMatch(/−−|-−|−-/);
      const html = readFileSync(report, 'utf8');
      expect(html).toMatch(/Step 1: G → [A-G] · [^<]* · bill \+\d+\u00a0€\/yr/);
      expect(html).not.toMatch(/bill saved/);
    },
  );
});

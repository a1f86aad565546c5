/**
 * Blocks (issue 14): a DPE too old for the 3CL-2021 method (fixture 0000E0000004O: the house
 * fixture dated 2021-05-20 with XML version 0.9) and a DPE built from an RT2012 thermal study
 * (corpus 2144E0951019J, method 23) get their block from pre, which still issues a login token
 * (the spec: a valid pre request creates one, issue 38) and records a blocked pre in history;
 * initial and calc refuse them with the block's message.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PreResponse } from '../src/contract/schemas.js';
import { factsOf } from '../src/dpe/facts.js';
import { tooOldBlock, studyBasedBlock } from '../src/simulation/blocks.js';
import { CORPUS, FIXTURES, HAS_CORPUS, HOUSE, runCli, tempDir } from './helpers.js';
import { parseDpeXml } from '../src/dpe/xml.js';
import { readFileSync } from 'node:fs';

const TOO_OLD = path.join(FIXTURES, '0000E0000004O.xml');
const STUDY = path.join(CORPUS, '2144E0951019J.xml');

async function blockedPre(file: string, id: string, message: RegExp): Promise<void> {
  const dataDir = tempDir('dpe-sim-blocks-');
  const r = await runCli(['pre', file, '--json'], { dataDir });
  expect(r.code).toBe(3);
  const body = JSON.parse(r.stdout) as PreResponse;
  expect(body.warnings.map((w) => [w.type, w.id])).toEqual([['block', id]]);
  // the spec's state table: a valid pre request creates a login token, blocked DPE or not
  expect(body.url).toMatch(/partnerLogin\.html\?partnerToken=[A-Za-z0-9_-]{43}$/);
  expect(body.classes).toBeUndefined();
  const table = await runCli(['pre', file], { dataDir });
  expect(table.code).toBe(3);
  expect(table.stdout).toContain(id);
  expect(table.stdout).toMatch(/Login URL: \S+partnerToken=/);
  const h = await runCli(['history', '--json'], { dataDir });
  expect(h.code).toBe(0);
  const records = (JSON.parse(h.stdout) as { records: { operation: string; blocked: boolean }[] })
    .records;
  expect(records.map((r) => [r.operation, r.blocked])).toEqual([
    ['pre', true],
    ['pre', true],
  ]);
  for (const cmd of ['initial', 'calc']) {
    const works = cmd === 'calc' ? ['--work', 'ventilation:0=VMC:VMCHygroB'] : [];
    const x = await runCli([cmd, file, '--json', ...works], { dataDir });
    expect(x.code).toBe(3);
    expect(x.stderr).toMatch(message);
  }
}

describe('block.too-old', () => {
  it('dates and XML versions before 3CL-2021 are too old; the fixtures are not', () => {
    const old = factsOf(parseDpeXml(readFileSync(TOO_OLD, 'utf8')));
    expect(old.date).toBe('2021-05-20');
    expect(tooOldBlock(old)?.content).toContain('2021-05-20');
    const house = factsOf(parseDpeXml(readFileSync(HOUSE, 'utf8')));
    expect(tooOldBlock(house)).toBeUndefined();
    expect(tooOldBlock({ ...house, versionId: '0.9' })?.content).toContain('XML version 0.9');
    expect(tooOldBlock({ ...house, date: '2021-07-01' })).toBeUndefined();
    expect(studyBasedBlock(house, undefined)).toBeUndefined();
    expect(studyBasedBlock({ ...house, methodeApplicationId: '17' }, 'rt2012 immeuble')?.id).toBe(
      'block.study-based',
    );
  });

  it('pre gives its block with a login token, recorded as blocked; initial and calc refuse it', async () => {
    await blockedPre(TOO_OLD, 'block.too-old', /established on 2021-05-20, before the 3CL-2021/);
  });
});

describe.skipIf(!HAS_CORPUS)('block.study-based (corpus 2144E0951019J, RT2012 study)', () => {
  it('pre gives its block with a login token, recorded as blocked; initial and calc refuse it', async () => {
    await blockedPre(STUDY, 'block.study-based', /regulatory thermal study \(method 23/);
  });
});

if (!HAS_CORPUS) console.warn(`corpus not found at ${CORPUS}: study-based test skipped`);

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRecord, HistoryResponse } from '../src/contract/schemas.js';
import { consumptionPoints, renderChart } from '../src/cli/history/chart.js';
import { csvRow } from '../src/cli/history/history-view.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { FLAT, HOUSE, runCli, tempDir } from './helpers.js';

const HOUSE_ID = '0000E0000001H';
const FLAT_ID = '0000E0000002F';

function records(stdout: string): HistoryRecord[] {
  return (JSON.parse(stdout) as HistoryResponse).records;
}

describe('dpe-sim history (local store)', () => {
  const dataDir = tempDir('dpe-sim-history-');
  const cli = (args: string[]) => runCli(args, { dataDir });

  beforeAll(async () => {
    // three runs by three users, oldest first; each command has exited (committed) before the next
    for (const args of [
      ['pre', HOUSE, '--customer-id', 'acme', '--user-id', 'alice'],
      ['initial', FLAT, '--customer-id', 'acme', '--user-id', 'alice'],
      [
        'calc',
        HOUSE,
        '--customer-id',
        'globex',
        '--user-id',
        'bob',
        '--work',
        'mur:0=ISOLATION:IMurITE37',
        '--scenario',
        'walls',
      ],
    ]) {
      const r = await cli([...args, '--json']);
      expect(r.code, r.stderr).toBe(0);
    }
  });

  it('lists every run, newest first, with what was done', async () => {
    const r = await cli(['history', '--json']);
    expect(r.code).toBe(0);
    const all = records(r.stdout);
    expect(all.map((x) => x.operation)).toEqual(['calc', 'initial', 'pre']);
    expect(all.map((x) => x.id)).toEqual([...all.map((x) => x.id)].sort((a, b) => b - a));
    const [calc, initial, pre] = all as [HistoryRecord, HistoryRecord, HistoryRecord];
    expect(pre).toMatchObject({
      dpeId: HOUSE_ID,
      customerId: 'acme',
      userId: 'alice',
      scenario: null,
      classBefore: 'F',
      consoBefore: 381,
      coefMode: 'activated',
      blocked: false,
    });
    expect(initial).toMatchObject({ dpeId: FLAT_ID, operation: 'initial', works: [] });
    expect(calc).toMatchObject({
      dpeId: HOUSE_ID,
      customerId: 'globex',
      userId: 'bob',
      scenario: 'walls',
      works: [{ referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' }],
      consoBefore: 381,
    });
    expect(calc.consoAfter).toBeLessThan(381);
    expect(calc.coutTravaux).toBeGreaterThan(0);
  });

  it('lists an audit run (what `audit` records) with its path: classes, kWh, cost', async () => {
    const other = tempDir('dpe-sim-history-audit-');
    const store = SqliteStore.open(other);
    try {
      const user = await store.ensureUser(await store.localPartner(), {
        customerId: 'acme',
        userId: 'carol',
        userName: 'carol',
        customerName: 'acme',
      });
      await store.recordRun({
        user,
        dpeId: HOUSE_ID,
        operation: 'audit',
        scenario: 'in one step',
        works: [{ referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' }],
        classBefore: 'F',
        classAfter: 'B',
        consoBefore: 381,
        consoAfter: 104,
        coutTravaux: 41_000,
        coefMode: 'activated',
      });
    } finally {
      await store.close();
    }
    const j = await runCli(['history', '--json'], { dataDir: other });
    expect(j.code, j.stderr).toBe(0);
    expect(records(j.stdout).map((r) => [r.operation, r.classAfter])).toEqual([['audit', 'B']]);
    const t = await runCli(['history'], { dataDir: other });
    expect(t.code).toBe(0);
    // off a TTY: tab-separated; the audit's row reads like a calc's (before → after)
    expect(t.stdout).toMatch(
      /\tacme\/carol\t0000E0000001H\taudit\tin one step\t1\tF → B\t381 → 104\t41\u202f000\u00a0€\t/,
    );
  });

  it('filters by DPE, customer, user, date and count', async () => {
    const ops = async (args: string[]) => {
      const r = await cli(['history', '--json', ...args]);
      expect(r.code, r.stderr).toBe(0);
      return records(r.stdout).map((x) => x.operation);
    };
    expect(await ops(['--dpe-id', HOUSE_ID])).toEqual(['calc', 'pre']);
    expect(await ops([FLAT_ID])).toEqual(['initial']);
    expect(await ops(['--customer-id', 'acme'])).toEqual(['initial', 'pre']);
    expect(await ops(['--user-id', 'bob'])).toEqual(['calc']);
    expect(await ops(['--customer-id', 'acme', '--user-id', 'bob'])).toEqual([]);
    expect(await ops(['--limit', '1'])).toEqual(['calc']);
    expect(await ops(['--since', '2000-01-01'])).toHaveLength(3);
    expect(await ops(['--since', '2999-01-01'])).toEqual([]);
    expect(await ops(['--since', '1h'])).toHaveLength(3);
  });

  it('rejects bad filters with exit 2', async () => {
    for (const args of [
      ['--since', 'yesterday'],
      ['--limit', '0'],
      ['--dpe-id', 'abc'],
      ['--user-id', 'a:b'],
    ]) {
      const r = await cli(['history', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
    }
  });

  it("shows a dwelling's table; no chart while its own runs do not span two days", async () => {
    const r = await cli(['history', HOUSE_ID]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`History of DPE ${HOUSE_ID}`);
    expect(r.stdout).toMatch(/\tcalc\twalls\t1\tF → [A-G]\t381 → \d+\t/);
    // dates one way across the CLI (issue 38): ISO 8601's order, local time to the minute
    expect(r.stdout).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d\t/m);
    // the calc is a works hypothesis, not a point in time: no chart of runs 1…n
    expect(r.stdout).toContain(
      "No chart: it plots the dwelling's own figures (pre, initial) over time",
    );
    expect(r.stdout).not.toMatch(/┼/);
  });

  it('exports CSV and JSON Lines', async () => {
    const dir = tempDir('dpe-sim-export-');
    const all = records((await cli(['history', '--json'])).stdout);

    const csv = path.join(dir, 'runs.csv');
    const r1 = await cli(['history', '--export', csv]);
    expect(r1.code).toBe(0);
    expect(r1.stderr).toContain(`Wrote 3 records to ${csv}`);
    const rows = readFileSync(csv, 'utf8').trimEnd().split('\n');
    expect(rows[0]).toBe(
      'id,at,customerId,userId,dpeId,operation,scenario,works,classBefore,classAfter,consoBefore,consoAfter,coutTravaux,coefMode,normalized,blocked',
    );
    expect(rows.slice(1)).toEqual(all.map(csvRow));
    expect(rows[1]).toContain(',walls,mur:0=ISOLATION:IMurITE37,F,');

    const jsonl = path.join(dir, 'acme.jsonl');
    const r2 = await cli(['history', '--customer-id', 'acme', '--export', jsonl]);
    expect(r2.code).toBe(0);
    const lines = readFileSync(jsonl, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l) as HistoryRecord)).toEqual(
      all.filter((x) => x.customerId === 'acme'),
    );

    const r3 = await cli(['history', '--export', path.join(dir, 'runs.txt')]);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/\.csv.*\.jsonl/);
  });
});

describe('dpe-sim history (remote backend)', () => {
  const seen: { url: string; auth: string | undefined }[] = [];
  const record: HistoryRecord = {
    id: 42,
    at: '2025-06-01T10:00:00.000Z',
    customerId: 'acme',
    userId: 'alice',
    dpeId: HOUSE_ID,
    operation: 'calc',
    scenario: 'roof',
    works: [],
    classBefore: 'F',
    classAfter: 'D',
    consoBefore: 381,
    consoAfter: 240,
    coutTravaux: 12000,
    coefMode: 'activated',
    normalized: false,
    blocked: false,
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ url: req.url ?? '', auth: req.headers.authorization });
    res.setHeader('content-type', 'application/json');
    if (!req.url?.startsWith('/custom/tracking?')) {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: 'not here' }));
      return;
    }
    res.end(JSON.stringify({ records: [record] }));
  });
  let baseUrl = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('calls the configured history path with the filters', async () => {
    const r = await runCli(
      ['history', HOUSE_ID, '--user-id', 'alice', '--since', '2025-01-01', '--json'],
      {
        env: {
          DPE_SIM_BASE_URL: baseUrl,
          DPE_SIM_PARTNER_KEY: 'dpsk_test_key',
          DPE_SIM_HISTORY_PATH: '/custom/tracking',
        },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ records: [record] });
    const call = new URL(seen.at(-1)?.url ?? '', baseUrl);
    expect(call.pathname).toBe('/custom/tracking');
    expect(Object.fromEntries(call.searchParams)).toEqual({
      limit: '50',
      dpeId: HOUSE_ID,
      since: '2025-01-01T00:00:00.000Z',
      userId: 'alice',
    });
    expect(seen.at(-1)?.auth).toBe('Bearer dpsk_test_key');
  });
});

describe('the consumption chart', () => {
  it('draws each run as its class at its consumption, between the threshold lines', () => {
    const text = renderChart([
      { value: 381, klass: 'F' },
      { value: 336, klass: 'E' },
      { value: null, klass: null },
      { value: 95, klass: 'B' },
    ]);
    const lines = text.split('\n');
    const rowOf = (re: RegExp) => lines.findIndex((l) => re.test(l));
    expect(rowOf(/^F 420 ┼┈+$/)).toBeGreaterThanOrEqual(0);
    // 336 is above the E line (330), 95 between A (70) and B (110)
    expect(rowOf(/^\s+│\s+E\s*$/)).toBeLessThan(rowOf(/^E 330 ┼/));
    expect(rowOf(/B\s*$/)).toBeGreaterThan(rowOf(/^B 110 ┼/));
    expect(rowOf(/B\s*$/)).toBeLessThan(rowOf(/^A {2}70 ┼/));
    expect(lines.at(-1)).toMatch(/kWh\s+381\s+336\s+–\s+95/);
    expect(lines.at(-2)).toMatch(/run\s+1\s+2\s+3\s+4/);
    const dated = renderChart([
      { value: 381, klass: 'F', label: '01-01' },
      { value: 336, klass: 'E', label: '03-02' },
    ]).split('\n');
    expect(dated.at(-2)).toMatch(/date\s+01-01\s+03-02/);
  });

  it("plots the dwelling's own runs (pre, initial) by date, the day's latest; never a calc", () => {
    const base = { works: [], coefMode: 'activated' as const, normalized: false, blocked: false };
    const points = consumptionPoints([
      {
        ...base,
        id: 2,
        at: '2025-01-02T00:00:00Z',
        customerId: 'c',
        userId: 'u',
        dpeId: HOUSE_ID,
        operation: 'calc',
        scenario: 'x',
        classBefore: 'F',
        classAfter: 'D',
        consoBefore: 381,
        consoAfter: 200,
        coutTravaux: 1,
      },
      {
        ...base,
        id: 1,
        at: '2025-01-01T00:00:00Z',
        customerId: 'c',
        userId: 'u',
        dpeId: HOUSE_ID,
        operation: 'pre',
        scenario: null,
        classBefore: 'F',
        classAfter: null,
        consoBefore: 381,
        consoAfter: null,
        coutTravaux: null,
      },
    ]);
    // one day of runs is not a time series
    expect(points).toEqual([]);
    const later = {
      ...base,
      id: 3,
      at: '2025-02-10T12:00:00Z',
      customerId: 'c',
      userId: 'u',
      dpeId: HOUSE_ID,
      operation: 'initial' as const,
      scenario: null,
      classBefore: 'E',
      classAfter: null,
      consoBefore: 300,
      consoAfter: null,
      coutTravaux: null,
    };
    const two = consumptionPoints([
      later,
      {
        ...later,
        id: 2,
        at: '2025-01-02T00:00:00Z',
        operation: 'calc',
        classAfter: 'B',
        consoAfter: 90,
      },
      {
        ...later,
        id: 1,
        at: '2025-01-01T12:00:00Z',
        operation: 'pre',
        classBefore: 'F',
        consoBefore: 381,
      },
    ]);
    expect(two).toEqual([
      { value: 381, klass: 'F', label: '01-01' },
      { value: 300, klass: 'E', label: '02-10' },
    ]);
  });
});

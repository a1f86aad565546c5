/**
 * Requests an attacker would send: a body nested 10,000 deep, control characters in free text,
 * a body in another charset, impossible dates. Each is a 400 or a 415 that says why (never a
 * 500), on the server and on the command line (exit 2); stored text reaches a terminal or a
 * CSV file without its control characters, and a CSV cell never starts a formula.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_PATH } from '../src/config/keys.js';
import { MAX_JSON_DEPTH } from '../src/server/json-body.js';
import { HOUSE, runCli, tempDir } from './helpers.js';
import { http, IDENTITY, startTestServer, type TestServer } from './server-harness.js';

const HOUSE_ID = '0000E0000001H';
const ESC_CLEAR = '\u001b[2J\u001b[H';

interface ErrorAnswer {
  error: string;
  errorObject?: Record<string, unknown>;
}

/** RFC 4180: fields separated by commas, quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        field += text.slice(i, q);
        i = q + 1;
        if (text[i] === '"') {
          field += '"';
          i++;
        } else break;
      }
    } else {
      const m = /[^,\n]*/.exec(text.slice(i)) as RegExpExecArray;
      field = m[0];
      i += field.length;
    }
    row.push(field);
    if (text[i] === ',') i++;
    else {
      rows.push(row);
      row = [];
      i++;
    }
  }
  return rows;
}

function nested(depth: number): string {
  return `{"customerId":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

describe('the server', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => srv?.close());

  const POSTS = [
    '/partners/user/auth',
    '/partners/dpe/pre',
    '/partners/dpe/initial',
    '/partners/dpe/calc',
  ];

  it('a body nested 10,000 deep: 400 on every POST route, naming where the check stopped', async () => {
    for (const route of [...POSTS, '/public/api/login']) {
      const r = await http<ErrorAnswer>(`${srv.url}${route}`, {
        key: srv.keyA,
        raw: nested(10_000),
      });
      expect(r.status, route).toBe(400);
      const where = `customerId${'[0]'.repeat(MAX_JSON_DEPTH - 1)}`;
      expect(r.body.error).toBe(
        `the body is nested too deep: at most 64 levels of objects and arrays; the check stopped at '${where}'`,
      );
      expect(r.body.errorObject).toMatchObject({ field: where, reason: 'too-deep', limit: 64 });
    }
  });

  it('64 levels are read (then refused by the schema, not by the depth)', async () => {
    const r = await http<ErrorAnswer>(`${srv.url}/partners/dpe/pre`, {
      key: srv.keyA,
      raw: nested(MAX_JSON_DEPTH - 1),
    });
    expect(r.status).toBe(400);
    expect(r.body.error).not.toContain('nested too deep');
  });

  it('an ESC in namedCalculation: 400 naming the field, nothing recorded', async () => {
    const before = await srv.store.history(1, { limit: 10_000 });
    const r = await http<ErrorAnswer>(`${srv.url}/partners/dpe/calc`, {
      key: srv.keyA,
      body: { ...IDENTITY, dpeId: HOUSE_ID, params: { namedCalculation: `x${ESC_CLEAR}` } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(
      "'params.namedCalculation' must not contain control characters (NUL, CR, LF, tab...)",
    );
    expect(r.body.errorObject?.field).toBe('params.namedCalculation');
    expect(await srv.store.history(1, { limit: 10_000 })).toHaveLength(before.length);
  });

  it('CR, LF, NUL, DEL or a C1 character in a free-text field: 400 each', async () => {
    for (const bad of ['a\rb', 'a\nb', 'a\u0000b', 'a\u007fb', 'a\u009bb']) {
      const calc = await http<ErrorAnswer>(`${srv.url}/partners/dpe/calc`, {
        key: srv.keyA,
        body: { ...IDENTITY, dpeId: HOUSE_ID, params: { namedCalculation: bad } },
      });
      expect(calc.status, JSON.stringify(bad)).toBe(400);
      const user = await http<ErrorAnswer>(`${srv.url}/partners/user/auth`, {
        key: srv.keyA,
        body: { ...IDENTITY, userName: bad },
      });
      expect(user.status, JSON.stringify(bad)).toBe(400);
      const works = await http<ErrorAnswer>(`${srv.url}/partners/dpe/calc`, {
        key: srv.keyA,
        body: {
          ...IDENTITY,
          dpeId: HOUSE_ID,
          params: {
            editablesChanges: [
              { referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: bad },
            ],
          },
        },
      });
      expect(works.status, JSON.stringify(bad)).toBe(400);
      expect(works.body.errorObject?.field).toBe('params.editablesChanges[0].editableValue');
    }
  });

  for (const charset of ['utf-16', 'UTF-16LE', 'latin1', 'iso-8859-1']) {
    it(`Content-Type: application/json; charset=${charset} → 415 naming it`, async () => {
      const r = await http<ErrorAnswer>(`${srv.url}/partners/dpe/pre`, {
        key: srv.keyA,
        body: { ...IDENTITY, dpeId: HOUSE_ID },
        headers: { 'content-type': `application/json; charset=${charset}` },
      });
      expect(r.status).toBe(415);
      expect(r.body.error).toMatch(
        new RegExp(`^unsupported charset '${charset.toLowerCase()}': the body must be UTF-8`),
      );
      expect(r.body.errorObject).toEqual({ charset: charset.toLowerCase() });
    });
  }

  it('charset=utf-8 (any case, quoted) is read', async () => {
    for (const ct of ['application/json; charset=utf-8', 'application/json;charset="UTF-8"']) {
      const r = await http(`${srv.url}/partners/user/auth`, {
        key: srv.keyA,
        body: IDENTITY,
        headers: { 'content-type': ct },
      });
      expect(r.status, ct).toBe(200);
    }
  });

  it('since=2025-02-30 and until=2025-04-31: 400 naming the field and why', async () => {
    const r = await http<ErrorAnswer>(`${srv.url}${DEFAULT_HISTORY_PATH}?since=2025-02-30`, {
      key: srv.keyA,
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(
      "'since' is not a date: '2025-02-30': 2025-02 has no day 30 (it has 28 days)",
    );
    const u = await http<ErrorAnswer>(
      `${srv.url}${DEFAULT_HISTORY_PATH}?until=2025-04-31T10:00:00Z`,
      {
        key: srv.keyA,
      },
    );
    expect(u.status).toBe(400);
    expect(u.body.errorObject).toMatchObject({ field: 'until', value: '2025-04-31T10:00:00Z' });
    const leap = await http(`${srv.url}${DEFAULT_HISTORY_PATH}?since=2024-02-29`, {
      key: srv.keyA,
    });
    expect(leap.status).toBe(200);
  });
});

describe('the command line', () => {
  it('calc --scenario with an ESC: exit 2, nothing recorded', async () => {
    const dataDir = tempDir();
    const r = await runCli(['calc', HOUSE, '--scenario', `a${ESC_CLEAR}`], { dataDir });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: --scenario must not contain control characters (NUL, CR, LF, tab, ESC...)',
    );
    const h = await runCli(['history', '--json'], { dataDir });
    expect(JSON.parse(h.stdout)).toEqual({ records: [] });
  });

  it('history --since 2025-02-30: exit 2', async () => {
    const r = await runCli(['history', '--since', '2025-02-30']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      "error: --since '2025-02-30' is not a date: 2025-02 has no day 30 (it has 28 days)",
    );
  });

  it('stored text with control characters: the history table shows it without them, the CSV quotes it and neutralises formulas', async () => {
    const dataDir = tempDir();
    const run = await runCli(
      [
        'calc',
        HOUSE,
        '--work',
        'ventilation:0=VMC:VMCHygroB',
        '--customer-id',
        '=HYPERLINK("x")',
        '--user-id',
        '+u',
        '--scenario',
        '-2+3',
      ],
      { dataDir },
    );
    expect(run.code, run.stderr).toBe(0);
    // a record stored before control characters were refused (or by another tool)
    const db = new Database(path.join(dataDir, 'dpe-sim.sqlite'));
    db.prepare('UPDATE runs SET scenario = ?').run(`@SUM(1)${ESC_CLEAR}\r\nX\u0000\u009b31m`);
    db.close();

    const table = await runCli(['history'], { dataDir });
    expect(table.code, table.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(table.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(table.stdout).toContain('\t@SUM(1)  X\t');

    const file = path.join(tempDir(), 'runs.csv');
    const exp = await runCli(['history', '--export', file], { dataDir });
    expect(exp.code, exp.stderr).toBe(0);
    const csv = readFileSync(file, 'utf8');
    // eslint-disable-next-line no-control-regex
    expect(csv).not.toMatch(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
    const [header, row] = parseCsv(csv);
    expect(header?.slice(2, 7)).toEqual(['customerId', 'userId', 'dpeId', 'operation', 'scenario']);
    // a leading apostrophe: a spreadsheet shows the text, never runs it
    expect(row?.slice(2, 7)).toEqual([
      `'=HYPERLINK("x")`,
      "'+u",
      HOUSE_ID,
      'calc',
      "'@SUM(1)[2J[H\r\nX31m",
    ]);
    expect(csv).toContain(`,"'=HYPERLINK(""x"")",`);
  });
});

/**
 * Every validation and error rule of the server, over real HTTP on 127.0.0.1: the status, the
 * error body, and that a rejected request writes nothing to the store.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../src/contract/schemas.js';
import { BLOCKED_ID, IDENTITY, http, startTestServer, type TestServer } from './server-harness.js';

const HOUSE_ID = '0000E0000001H';
const KEY_ERROR = { error: 'invalid or missing partner key' };
const WALL_WORK = { referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' };

let s: TestServer;
let key: string;

beforeAll(async () => {
  s = await startTestServer();
  key = s.keyA;
});
afterAll(async () => {
  await s?.close();
});

/** Rows in every table a request could write to. */
function counts(): Record<string, number> {
  const db = new Database(s.store.location, { readonly: true, fileMustExist: true });
  try {
    return Object.fromEntries(
      ['organisations', 'users', 'tokens', 'sessions', 'simulations', 'runs'].map((t) => [
        t,
        (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n,
      ]),
    );
  } finally {
    db.close();
  }
}

async function post(path: string, body: unknown, k: string | null = key) {
  return http<ErrorBody>(`${s.url}${path}`, { method: 'POST', body, key: k });
}

/** Asserts a rejection: the status, the error message, nothing written. */
async function rejects(
  path: string,
  body: unknown,
  status: number,
  message: string | RegExp,
  k: string | null = key,
): Promise<ErrorBody> {
  const before = counts();
  const res = await post(path, body, k);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(typeof res.body.error).toBe('string');
  if (typeof message === 'string') expect(res.body.error).toContain(message);
  else expect(res.body.error).toMatch(message);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(counts()).toEqual(before);
  return res.body;
}

describe('partner key (401)', () => {
  const body = { ...IDENTITY };
  it('missing, unknown, malformed or revoked keys get the same body that leaks nothing', async () => {
    for (const k of [null, 'nope', 'Bearer ', 'Bearer nope', `Basic ${key}`, `${key}x`]) {
      const res = await post('/partners/user/auth', body, k);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(KEY_ERROR);
    }
    const revoked = await s.store.createPartnerKey('revoked-soon');
    expect((await post('/partners/user/auth', body, revoked)).status).toBe(200);
    await s.store.revokePartnerKey('revoked-soon');
    const res = await post('/partners/user/auth', body, revoked);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(KEY_ERROR);
  });

  it('the key is accepted raw or as Bearer (any case)', async () => {
    for (const k of [key, `Bearer ${key}`, `bearer ${key}`, `  Bearer   ${key}  `]) {
      expect((await post('/partners/user/auth', body, k)).status).toBe(200);
    }
  });

  it('every partner operation needs it, and nothing is read or written without it', async () => {
    await rejects(
      '/partners/dpe/pre',
      { ...IDENTITY, dpeId: HOUSE_ID },
      401,
      KEY_ERROR.error,
      null,
    );
    await rejects(
      '/partners/dpe/initial',
      { ...IDENTITY, dpeId: HOUSE_ID },
      401,
      'partner key',
      null,
    );
    await rejects('/partners/dpe/calc', { ...IDENTITY, dpeId: HOUSE_ID }, 401, 'partner key', null);
    // auth comes before validation: an invalid body without a key is still a 401
    await rejects('/partners/dpe/calc', { nonsense: true }, 401, 'partner key', 'wrong');
    for (const path of [
      '/partners/token/abc',
      '/partners/tokenLogin/abc',
      '/partners/tracking/history',
    ]) {
      const res = await http<ErrorBody>(`${s.url}${path}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(KEY_ERROR);
    }
  });
});

describe('request validation (400)', () => {
  it('a missing required field is named', async () => {
    await rejects('/partners/dpe/pre', { ...IDENTITY }, 400, "missing required field 'dpeId'");
    const noName: Partial<typeof IDENTITY> = { ...IDENTITY };
    delete noName.customerName;
    await rejects('/partners/user/auth', noName, 400, "missing required field 'customerName'");
    await rejects(
      '/partners/dpe/initial',
      { dpeId: HOUSE_ID },
      400,
      /^missing required field 'customerId', 'userId', 'userName', 'customerName'$/,
    );
    await rejects(
      '/partners/dpe/calc',
      {
        ...IDENTITY,
        dpeId: HOUSE_ID,
        params: { editablesChanges: [{ referenceId: 'mur:0', editableKey: 'ISOLATION' }] },
      },
      400,
      "missing required field 'params.editablesChanges[0].editableValue'",
    );
  });

  it("customerId and userId must not contain ':'", async () => {
    for (const path of [
      '/partners/user/auth',
      '/partners/dpe/pre',
      '/partners/dpe/initial',
      '/partners/dpe/calc',
    ]) {
      await rejects(
        path,
        { ...IDENTITY, dpeId: HOUSE_ID, customerId: 'a:b' },
        400,
        "'customerId' must not contain ':'",
      );
      await rejects(
        path,
        { ...IDENTITY, dpeId: HOUSE_ID, userId: 'x:y' },
        400,
        "'userId' must not contain ':'",
      );
    }
  });

  it('dpeId must match ^[0-9]{4}E[0-9]{7}[A-Z]$', async () => {
    for (const path of [
      '/partners/user/auth',
      '/partners/dpe/pre',
      '/partners/dpe/initial',
      '/partners/dpe/calc',
    ]) {
      for (const bad of [
        '12345',
        '0000E0000001h',
        '0000X0000001H',
        '0000E000001H',
        ' 0000E0000001H',
      ]) {
        const body = await rejects(
          path,
          { ...IDENTITY, dpeId: bad },
          400,
          "'dpeId' must be a DPE number matching ^[0-9]{4}E[0-9]{7}[A-Z]$",
        );
        expect(body.errorObject).toBeDefined();
      }
    }
  });

  it('expireInMinutes must be an integer from 1 to 1440', async () => {
    for (const bad of [0, -5, 1.5, '10', null, 1441, 5e7, 1e12]) {
      await rejects(
        '/partners/user/auth',
        { ...IDENTITY, expireInMinutes: bad },
        400,
        /'expireInMinutes' must be (>= 1|<= 1440|an integer)/,
      );
      await rejects(
        '/partners/dpe/pre',
        { ...IDENTITY, dpeId: HOUSE_ID, query: { expireInMinutes: bad } },
        400,
        /'query\.expireInMinutes' must be (>= 1|<= 1440|an integer)/,
      );
    }
    expect((await post('/partners/user/auth', { ...IDENTITY, expireInMinutes: 1 })).status).toBe(
      200,
    );
  });

  it("an unknown coef2026 value lists 'activated', 'deactivated'", async () => {
    for (const path of ['/partners/dpe/pre', '/partners/dpe/initial', '/partners/dpe/calc']) {
      await rejects(
        path,
        { ...IDENTITY, dpeId: HOUSE_ID, query: { coef2026: '2026' } },
        400,
        "'query.coef2026' must be one of 'activated', 'deactivated'",
      );
    }
  });

  it('unknown works reference, key or value are named with what is allowed', async () => {
    const calc = (change: Record<string, string>) => ({
      ...IDENTITY,
      dpeId: HOUSE_ID,
      params: { editablesChanges: [WALL_WORK, change] },
    });
    await rejects(
      '/partners/dpe/calc',
      calc({ ...WALL_WORK, referenceId: 'mur:99' }),
      400,
      "unknown referenceId 'mur:99': this DPE has mur:0",
    );
    await rejects(
      '/partners/dpe/calc',
      calc({ ...WALL_WORK, referenceId: 'garage:0' }),
      400,
      "unknown referenceId 'garage:0'",
    );
    await rejects(
      '/partners/dpe/calc',
      calc({ ...WALL_WORK, referenceId: 'wall' }),
      400,
      "'params.editablesChanges[1].referenceId' must match",
    );
    await rejects(
      '/partners/dpe/calc',
      calc({ ...WALL_WORK, editableKey: 'PAINT' }),
      400,
      "unknown editableKey 'PAINT' for mur:0; allowed on mur:0: ISOLATION (",
    );
    const body = await rejects(
      '/partners/dpe/calc',
      calc({ ...WALL_WORK, editableValue: 'IMurXXL' }),
      400,
      "editableValue 'IMurXXL' is not allowed for mur:0 ISOLATION; allowed on mur:0: ISOLATION (IMurITE37",
    );
    expect(body.errorObject).toMatchObject({
      reason: 'value-not-allowed',
      field: 'params.editablesChanges[1].editableValue',
      value: 'IMurXXL',
      change: { ...WALL_WORK, editableValue: 'IMurXXL' },
    });
    expect((body.errorObject as { allowed: string[] }).allowed).toContain('IMurITE37');
  });

  it('a body that is not a JSON object', async () => {
    await rejects('/partners/dpe/pre', undefined, 400, 'JSON object body');
    const before = counts();
    const bad = await http<ErrorBody>(`${s.url}/partners/dpe/pre`, { key, raw: '{"dpeId": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^the body is not valid JSON \(/);
    const list = await http<ErrorBody>(`${s.url}/partners/dpe/pre`, { key, body: [1, 2] });
    expect(list.status).toBe(400);
    expect(list.body.error).toContain('must be object');
    const text = await http<ErrorBody>(`${s.url}/partners/dpe/pre`, {
      key,
      raw: 'dpeId=1',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body.error).toContain('application/json');
    const proto = await http<ErrorBody>(`${s.url}/partners/dpe/pre`, {
      key,
      raw: `{"__proto__": {"x": 1}, "dpeId": "${HOUSE_ID}"}`,
    });
    expect(proto.status).toBe(400);
    expect(counts()).toEqual(before);
  });

  it('history query parameters', async () => {
    const get = (q: string) => http<ErrorBody>(`${s.url}/partners/tracking/history${q}`, { key });
    for (const [q, message] of [
      ['?limit=0', "'limit' must be >= 1"],
      ['?limit=abc', "'limit' must be integer"],
      ['?limit=1.5', "'limit' must be integer"],
      ['?limit=10001', "'limit' must be <= 10000"],
      ['?dpeId=nope', "'dpeId' must be a DPE number"],
      ['?customerId=a:b', "'customerId' must not contain ':'"],
    ] as const) {
      const res = await get(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toContain(message);
    }
    expect((await get('?limit=5&customerId=acme-42')).status).toBe(200);
  });
});

describe('other statuses', () => {
  it('a body over 1 MiB is refused with 413 and an error body', async () => {
    const big = { ...IDENTITY, dpeId: HOUSE_ID, padding: 'x'.repeat(1024 * 1024) };
    const body = await rejects(
      '/partners/dpe/pre',
      big,
      413,
      'request body too large: the limit is 1048576 bytes (1 MiB)',
    );
    expect(body).toEqual({ error: 'request body too large: the limit is 1048576 bytes (1 MiB)' });
    // unknown fields are refused: pad a valid body with whitespace instead
    const valid = JSON.stringify({ ...IDENTITY, dpeId: HOUSE_ID });
    const justUnder = await http<unknown>(`${s.url}/partners/dpe/pre`, {
      key,
      raw: valid + ' '.repeat(1024 * 1024 - valid.length - 10),
    });
    expect(justUnder.status).toBe(200);
  });

  it('an unknown dpeId is a 404 that does not reveal the server directory', async () => {
    for (const path of [
      '/partners/user/auth',
      '/partners/dpe/pre',
      '/partners/dpe/initial',
      '/partners/dpe/calc',
    ]) {
      const body = await rejects(
        path,
        { ...IDENTITY, dpeId: '9999E9999999Z' },
        404,
        "unknown dpeId '9999E9999999Z'",
      );
      expect(body).toEqual({
        error: "unknown dpeId '9999E9999999Z'",
        errorObject: { reason: 'unknown-dpe', dpeId: '9999E9999999Z' },
      });
      expect(JSON.stringify(body)).not.toContain(s.dpeDir);
    }
  });

  it('a blocked DPE: 200 with the block alert on pre, 422 on initial and calc', async () => {
    const pre = await post('/partners/dpe/pre', { ...IDENTITY, dpeId: BLOCKED_ID });
    expect(pre.status).toBe(200);
    expect((pre.body as unknown as { warnings: { type: string }[] }).warnings[0]?.type).toBe(
      'block',
    );
    for (const path of ['/partners/dpe/initial', '/partners/dpe/calc']) {
      const body = await rejects(
        path,
        { ...IDENTITY, dpeId: BLOCKED_ID },
        422,
        `DPE ${BLOCKED_ID} cannot be simulated: malformed XML`,
      );
      const warnings = (body.errorObject as { warnings: { id: string; type: string }[] }).warnings;
      expect(warnings[0]).toMatchObject({ id: 'block.malformed-xml', type: 'block' });
    }
  });

  it('tokens: 404 unknown, 410 used or expired', async () => {
    const auth = await post('/partners/user/auth', { ...IDENTITY, dpeId: HOUSE_ID });
    const token =
      new URL((auth.body as unknown as { url: string }).url).searchParams.get('partnerToken') ?? '';
    const get = (p: string) => http<ErrorBody & { status?: string }>(`${s.url}${p}`, { key });
    expect((await get(`/partners/token/${token}`)).status).toBe(200);
    expect((await get(`/partners/tokenLogin/${token}`)).status).toBe(200);
    const used = await get(`/partners/tokenLogin/${token}`);
    expect(used.status).toBe(410);
    expect(used.body).toEqual({ error: 'this login token has already been used' });
    expect((await get(`/partners/token/${token}`)).body.status).toBe('used');
    const unknown = await get('/partners/tokenLogin/not-a-token');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'unknown login token' });
    expect((await get('/partners/token/not-a-token')).status).toBe(404);
    // expired: issued a minute ago... by writing the clock back on a fresh token
    const expired = await post('/partners/user/auth', { ...IDENTITY, expireInMinutes: 1 });
    const t2 =
      new URL((expired.body as unknown as { url: string }).url).searchParams.get('partnerToken') ??
      '';
    const db = new Database(s.store.location);
    db.prepare(
      "UPDATE tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE used_at IS NULL",
    ).run();
    db.close();
    expect((await get(`/partners/token/${t2}`)).body.status).toBe('expired');
    const late = await get(`/partners/tokenLogin/${t2}`);
    expect(late.status).toBe(410);
    expect(late.body).toEqual({ error: 'this login token has expired' });
  });

  it('an unknown route is a 404 with an error body', async () => {
    const res = await http<ErrorBody>(`${s.url}/partners/nope?partnerToken=secret`, { key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'no such endpoint: GET /partners/nope' });
  });

  it('a valid request answers 200 and records what it did', async () => {
    const before = counts();
    const res = await post('/partners/dpe/calc', {
      ...IDENTITY,
      dpeId: HOUSE_ID,
      params: { editablesChanges: [WALL_WORK] },
    });
    expect(res.status).toBe(200);
    const after = counts();
    expect(after.runs).toBe((before.runs ?? 0) + 1);
  });
});

describe('public routes', () => {
  it('GET /health', async () => {
    const res = await http(`${s.url}/health`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('POST /public/api/login validates its body and needs no partner key', async () => {
    const res = await http<ErrorBody>(`${s.url}/public/api/login`, { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("missing required field 'partnerToken'");
    const unknown = await http<ErrorBody>(`${s.url}/public/api/login`, {
      body: { partnerToken: 'nope' },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('error bodies', () => {
  it('a runtime failure is a 500 that says nothing about the internals', async () => {
    const { httpErrorOf } = await import('../src/server/error-body.js');
    const { DpeSimError } = await import('../src/contract/errors.js');
    expect(httpErrorOf(new DpeSimError('runtime', 'cannot open /secret/path'))).toEqual({
      status: 500,
      body: { error: 'internal server error' },
    });
    expect(httpErrorOf(new TypeError('x is undefined'))).toEqual({
      status: 500,
      body: { error: 'internal server error' },
    });
    expect(httpErrorOf(new DpeSimError('token', 'this login token has expired'))).toEqual({
      status: 410,
      body: { error: 'this login token has expired' },
    });
  });
});

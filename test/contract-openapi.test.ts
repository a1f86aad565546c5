/**
 * The OpenAPI 3.1 document comes from the contract's schemas, and the server serves exactly the
 * operations it documents (at the configured history path).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_PATH } from '../src/config/keys.js';
import { openApiDocument } from '../src/contract/openapi.js';
import { apiOperations } from '../src/contract/operations.js';
import { CalcRequest, ErrorBody, InitialResponse, PreRequest } from '../src/contract/schemas.js';
import { BLOCKED_ID, IDENTITY, http, startTestServer, type TestServer } from './server-harness.js';

// ajv-formats is CommonJS: its function is the module itself or its `default`
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ??
  (addFormatsModule as unknown as AddFormats);

type Obj = Record<string, unknown>;

const doc = openApiDocument({ historyPath: DEFAULT_HISTORY_PATH }) as Obj;
const plain = (x: unknown) => {
  const copy = JSON.parse(JSON.stringify(x)) as Obj;
  delete copy.$id;
  return copy;
};

function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const x of node) refs(x, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

function at(path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Obj | undefined)?.[key], doc);
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with every operation of the spec and the partner key scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    const paths = doc.paths as Record<string, Obj>;
    for (const [path, method] of [
      ['/partners/user/auth', 'post'],
      ['/partners/token/{partnerToken}', 'get'],
      ['/partners/tokenLogin/{partnerToken}', 'get'],
      ['/partners/dpe/pre', 'post'],
      ['/partners/dpe/initial', 'post'],
      ['/partners/dpe/calc', 'post'],
      [DEFAULT_HISTORY_PATH, 'get'],
      ['/public/api/login', 'post'],
      ['/public/partnerLogin.html', 'get'],
      ['/health', 'get'],
      ['/ready', 'get'],
      ['/openapi.json', 'get'],
    ] as const) {
      expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(at(['components', 'securitySchemes', 'partnerKey'])).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    expect(doc.security).toEqual([{ partnerKey: [] }]);
    expect(at(['paths', '/health', 'get', 'security'])).toEqual([]);
  });

  it('every $ref resolves', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(20);
    for (const r of all) {
      expect(r.startsWith('#/components/schemas/')).toBe(true);
      expect(at(r.slice(2).split('/')), r).toBeDefined();
    }
  });

  it('the schemas are the contract schemas', () => {
    const schemas = at(['components', 'schemas']) as Obj;
    expect(schemas.PreRequest).toEqual(plain(PreRequest));
    expect(schemas.CalcRequest).toEqual(plain(CalcRequest));
    expect(schemas.InitialResponse).toEqual(plain(InitialResponse));
    expect(schemas.ErrorBody).toEqual(plain(ErrorBody));
    expect(JSON.stringify(schemas)).toContain('^[0-9]{4}E[0-9]{7}[A-Z]$');
    expect(at(['paths', '/partners/dpe/pre', 'post', 'requestBody', 'content'])).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/PreRequest' } },
    });
  });

  it('calculation.hints holds numbers only (the spec); the next class sits beside it', () => {
    const calc = (
      (at(['components', 'schemas', 'InitialResponse']) as Obj).properties as {
        calculation: { properties: Record<string, Obj> };
      }
    ).calculation.properties;
    const hints = calc.hints?.properties as Record<string, Obj>;
    const types = Object.entries(hints).map(([k, v]) => {
      const t = (v.anyOf as Obj[] | undefined)?.map((x) => x.type) ?? [v.type];
      return [k, t.filter((x) => x !== 'null')];
    });
    expect(types.length).toBe(10);
    for (const [k, t] of types) expect([k, t]).toEqual([k, ['number']]);
    expect(Object.keys(calc)).toEqual(
      expect.arrayContaining(['classeSuivante', 'freinClasseSuivante']),
    );
  });

  it('documents the error statuses with the error body', () => {
    const calc = at(['paths', '/partners/dpe/calc', 'post', 'responses']) as Obj;
    expect(Object.keys(calc).sort()).toEqual(
      [
        '200',
        '400',
        '401',
        '404',
        '405',
        '408',
        '413',
        '415',
        '422',
        '429',
        '500',
        '502',
        '503',
        '504',
        '507',
      ].sort(),
    );
    expect(
      Object.keys(at(['paths', '/partners/token/{partnerToken}', 'get', 'responses']) as Obj),
    ).toContain('414');
    expect(
      at(['paths', '/partners/dpe/calc', 'post', 'responses', '405', 'headers']),
    ).toHaveProperty('Allow');
    expect(at(['paths', '/partners/dpe/calc', 'post', 'responses', '422', 'content'])).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } },
    });
    const login = at(['paths', '/partners/tokenLogin/{partnerToken}', 'get']) as Obj;
    expect(Object.keys(login.responses as Obj)).toContain('410');
    expect(login.parameters).toEqual([
      {
        name: 'partnerToken',
        in: 'path',
        required: true,
        schema: { type: 'string', minLength: 1, maxLength: 200 },
      },
    ]);
    const history = at(['paths', DEFAULT_HISTORY_PATH, 'get', 'parameters']) as { name: string }[];
    expect(history.map((p) => p.name)).toEqual([
      'customerId',
      'userId',
      'dpeId',
      'since',
      'until',
      'limit',
    ]);
  });
});

describe('the server serves what the document says', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ historyPath: '/partners/tracking/consumption' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('GET /openapi.json is the document, with the configured history path', async () => {
    const res = await http<Obj>(`${s.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      openApiDocument({ historyPath: '/partners/tracking/consumption', serverUrl: s.url }),
    );
    // `servers` is the address the server listens on
    expect(res.body.servers).toEqual([{ url: s.url, description: 'This server' }]);
    expect(Object.keys(res.body.paths as Obj)).toContain('/partners/tracking/consumption');
  });

  it('every documented partner operation exists and asks for the key', async () => {
    for (const op of apiOperations('/partners/tracking/consumption')) {
      const url = `${s.url}${op.path.replace('{partnerToken}', 'abc')}`;
      const res = await http(url, {
        method: op.method,
        ...(op.method === 'POST' ? { body: {} } : {}),
      });
      if (op.partnerKey) expect(res.status, `${op.method} ${op.path}`).toBe(401);
      else expect(res.status, `${op.method} ${op.path}`).not.toBe(404);
    }
    const old = await http(`${s.url}${DEFAULT_HISTORY_PATH}`, { key: s.keyA });
    expect(old.status).toBe(404);
    const moved = await http(`${s.url}/partners/tracking/consumption`, { key: s.keyA });
    expect(moved.status).toBe(200);
  });
});

/**
 * Every response the server sends, for every operation, checked against the OpenAPI document
 * itself (not the TypeBox schemas it was made from): the status must be documented for the
 * operation, and the body must match the documented schema (Ajv, JSON Schema 2020-12, formats).
 */
describe('every response matches the OpenAPI document', () => {
  let s: TestServer;
  let served: Obj;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  beforeAll(async () => {
    s = await startTestServer();
    served = (await http<Obj>(`${s.url}/openapi.json`)).body;
    ajv.addSchema({ $id: 'openapi.json', components: served.components }, 'openapi.json');
  });
  afterAll(async () => {
    await s?.close();
  });

  const checked: string[] = [];

  /** Sends one request, checks status and body against the document for (method, docPath). */
  async function check(
    method: 'GET' | 'POST' | 'PUT',
    docPath: string,
    url: string,
    opts: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> },
    expected: number,
  ): Promise<Obj> {
    const res = await http<Obj>(`${s.url}${url}`, { method, key: s.keyA, ...opts });
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(expected);
    const pathItem = (served.paths as Record<string, Record<string, Obj>>)[docPath] ?? {};
    // a wrong method (405) is documented on the path's own operation
    const docMethod = method === 'PUT' ? (Object.keys(pathItem)[0] ?? '') : method.toLowerCase();
    const responses = pathItem[docMethod]?.responses as Record<string, Obj> | undefined;
    expect(responses, `${docMethod} ${docPath} documented`).toBeDefined();
    const documented = responses?.[String(res.status)];
    expect(documented, `${res.status} documented for ${docMethod} ${docPath}`).toBeDefined();
    const schema = (documented?.content as Obj | undefined)?.['application/json'] as
      { schema?: { $ref?: string } } | undefined;
    const ref = schema?.schema?.$ref;
    if (ref) {
      const validate = ajv.getSchema(`openapi.json${ref}`);
      expect(validate, ref).toBeDefined();
      const ok = validate?.(res.body);
      expect(ok, `${method} ${url} → ${res.status}: ${ajv.errorsText(validate?.errors)}`).toBe(
        true,
      );
    }
    if (res.status === 405) expect(res.headers.get('allow')).toBeTruthy();
    checked.push(`${docMethod} ${docPath} ${res.status}`);
    return res.body;
  }

  it('all operations, success and error statuses', async () => {
    const H = '0000E0000001H';
    const who = { ...IDENTITY };
    const WALL = { referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' };
    const AUTH = '/partners/user/auth';
    const auth = await check('POST', AUTH, AUTH, { body: { ...who, dpeId: H } }, 200);
    const token = new URL(String(auth.url)).searchParams.get('partnerToken') ?? '';
    await check('POST', AUTH, AUTH, { body: { ...who, expireInMinutes: 5e7 } }, 400);
    await check('POST', AUTH, AUTH, { key: null, body: who }, 401);
    await check('POST', AUTH, AUTH, { body: { ...who, dpeId: '9999E9999999Z' } }, 404);
    await check('PUT', AUTH, AUTH, { body: who }, 405);
    await check(
      'POST',
      AUTH,
      AUTH,
      { raw: JSON.stringify(who) + ' '.repeat(1024 * 1024 + 1) },
      413,
    );
    await check('POST', AUTH, AUTH, { raw: 'x=1', headers: { 'content-type': 'text/plain' } }, 415);

    const INFO = '/partners/token/{partnerToken}';
    await check('GET', INFO, `/partners/token/${token}`, {}, 200);
    await check('GET', INFO, `/partners/token/${'t'.repeat(201)}`, {}, 400);
    await check('GET', INFO, '/partners/token/abc', { key: null }, 401);
    await check('GET', INFO, '/partners/token/abc', {}, 404);
    await check('GET', INFO, `/partners/token/${'t'.repeat(300)}`, {}, 414);
    const LOGIN = '/partners/tokenLogin/{partnerToken}';
    await check('GET', LOGIN, `/partners/tokenLogin/${token}`, {}, 200);
    await check('GET', LOGIN, `/partners/tokenLogin/${token}`, {}, 410);

    const PRE = '/partners/dpe/pre';
    const pre = await check('POST', PRE, PRE, { body: { ...who, dpeId: H } }, 200);
    await check('POST', PRE, PRE, { body: { ...who, dpeId: H, extra: 1 } }, 400);
    await check('POST', PRE, PRE, { body: { ...who, dpeId: BLOCKED_ID } }, 200);
    const INITIAL = '/partners/dpe/initial';
    await check('POST', INITIAL, INITIAL, { body: { ...who, dpeId: H } }, 200);
    await check('POST', INITIAL, INITIAL, { body: { ...who, dpeId: BLOCKED_ID } }, 422);
    await check('POST', INITIAL, INITIAL, { body: { ...who, dpeId: '9999E9999999Z' } }, 404);
    const CALC = '/partners/dpe/calc';
    const calcBody = { ...who, dpeId: H, params: { editablesChanges: [WALL] } };
    await check('POST', CALC, CALC, { body: calcBody }, 200);
    await check('POST', CALC, CALC, { body: { ...calcBody, query: { includeDPE: true } } }, 200);
    await check(
      'POST',
      CALC,
      CALC,
      {
        body: { ...who, dpeId: H, params: { editablesChanges: [{ ...WALL, editableValue: 'X' }] } },
      },
      400,
    );

    const AUDIT = '/dpe-sim/audit';
    await check('POST', AUDIT, AUDIT, { body: { ...who, dpeId: H } }, 200);
    await check('POST', AUDIT, AUDIT, { body: { ...who, dpeId: BLOCKED_ID } }, 422);
    await check('POST', AUDIT, AUDIT, { body: { ...who, dpeId: '9999E9999999Z' } }, 404);

    await check('GET', DEFAULT_HISTORY_PATH, `${DEFAULT_HISTORY_PATH}?limit=5`, {}, 200);
    await check('GET', DEFAULT_HISTORY_PATH, `${DEFAULT_HISTORY_PATH}?since=nope`, {}, 400);
    await check('GET', DEFAULT_HISTORY_PATH, DEFAULT_HISTORY_PATH, { key: null }, 401);

    const PAGE = '/public/api/login';
    const preToken = new URL(String(pre.url)).searchParams.get('partnerToken') ?? '';
    await check('POST', PAGE, PAGE, { key: null, body: { partnerToken: preToken } }, 200);
    await check('POST', PAGE, PAGE, { key: null, body: { partnerToken: preToken } }, 410);
    await check('POST', PAGE, PAGE, { key: null, body: { partnerToken: 'nope' } }, 404);
    await check('POST', PAGE, PAGE, { key: null, body: { token: 'x' } }, 400);
    await check('GET', '/health', '/health', { key: null }, 200);
    await check('PUT', '/health', '/health', { key: null, body: {} }, 405);
    await check('GET', '/ready', '/ready', { key: null }, 200);

    // the validator does refuse what the document does not allow
    const preSchema = ajv.getSchema('openapi.json#/components/schemas/PreResponse');
    expect(preSchema?.({ ...pre, maxCalculation: { deltaGES: 'n/a' } })).toBe(false);
    expect(preSchema?.({ ...pre, url: 'not a uri' })).toBe(false);

    // every operation of the table was exercised, with its success status
    for (const op of apiOperations(DEFAULT_HISTORY_PATH)) {
      expect(checked, op.id).toContain(`${op.method.toLowerCase()} ${op.path} 200`);
    }
  });
});

/**
 * The OpenAPI 3.1 document comes from the contract's schemas, and the server serves exactly the
 * operations it documents (at the configured history path).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_PATH } from '../src/config/keys.js';
import { openApiDocument } from '../src/contract/openapi.js';
import { apiOperations } from '../src/contract/operations.js';
import { CalcRequest, ErrorBody, InitialResponse, PreRequest } from '../src/contract/schemas.js';
import { http, startTestServer, type TestServer } from './server-harness.js';

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

  it('documents the error statuses with the error body', () => {
    const calc = at(['paths', '/partners/dpe/calc', 'post', 'responses']) as Obj;
    expect(Object.keys(calc).sort()).toEqual(['200', '400', '401', '404', '413', '422', '500']);
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
    expect(history.map((p) => p.name)).toEqual(['customerId', 'userId', 'dpeId', 'since', 'limit']);
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
    expect(res.body).toEqual(openApiDocument({ historyPath: '/partners/tracking/consumption' }));
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

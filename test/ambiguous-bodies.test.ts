/**
 * One meaning per body (issue 38, point 3): a key given twice, a lone surrogate, a bidi or other
 * format character (Unicode Cf) in a name, bytes that are not UTF-8 are each a 400 naming the
 * field, before anything is stored; a compressed body (`Content-Encoding: gzip`, `deflate`,
 * `br`) is decoded, within the body limit once decoded, and any other encoding is a 415. Over
 * real HTTP on 127.0.0.1.
 */
import { request } from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_PATH } from '../src/config/keys.js';
import { firstDuplicateKey } from '../src/server/json-body.js';
import { HOUSE, runCli } from './helpers.js';
import { IDENTITY, http, startTestServer, type TestServer } from './server-harness.js';

interface Answer {
  status: number;
  body: { error: string; errorObject?: Record<string, unknown> } & Record<string, unknown>;
}

/** POST raw bytes with the given headers. */
function post(url: string, bytes: Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(bytes.length),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['body'],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

describe('one meaning per body', () => {
  let srv: TestServer;
  let preUrl: string;
  const auth = () => ({ authorization: srv.keyA });
  const stored = async () =>
    (
      await http<{ records: unknown[] }>(`${srv.url}${DEFAULT_HISTORY_PATH}`, {
        key: srv.keyA,
      })
    ).body.records.length;
  beforeAll(async () => {
    srv = await startTestServer();
    preUrl = `${srv.url}/partners/dpe/pre`;
  });
  afterAll(async () => srv?.close());

  it('a key given twice: 400 naming it (the last dpeId no longer wins)', async () => {
    const raw = `{"customerId":"acme-42","userId":"u-1","userName":"Alice","customerName":"ACME","dpeId":"0000E0000001H","dpeId":"0000E0000002F"}`;
    const r = await post(preUrl, Buffer.from(raw), auth());
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error:
        "'dpeId' is given twice in the body: a key appears once per object (readers disagree on which one counts)",
      errorObject: { field: 'dpeId', reason: 'duplicate-key' },
    });
    // the same key written with an escape is the same key
    const escaped = raw.replace('"dpeId":"0000E0000002F"', '"\\u0064peId":"0000E0000002F"');
    expect((await post(preUrl, Buffer.from(escaped), auth())).body.errorObject).toEqual({
      field: 'dpeId',
      reason: 'duplicate-key',
    });
    expect(await stored()).toBe(0);
  });

  it('the JSON path of a key given twice, at any depth', () => {
    expect(firstDuplicateKey('{"a":1,"b":{"c":[1,{"d":1,"e":"}{,\\"","d":2}]}}')).toBe('b.c[1].d');
    expect(firstDuplicateKey('{"a":{"x":1},"b":{"x":1},"c":[{"x":1},{"x":1}]}')).toBeUndefined();
    expect(firstDuplicateKey('[{"k":"v"},{"k":"v","k":"w"}]')).toBe('[1].k');
  });

  it('a lone surrogate, a right-to-left override, a zero-width space in a name: 400 naming the field, nothing stored', async () => {
    const cases: [string, string, string, string][] = [
      ['userName', 'Al\\ud800ice', 'lone-surrogate', 'U+D800'],
      ['userName', 'Alice \\u202eecilA', 'format-character', 'U+202E'],
      ['customerName', 'ACME\\u200bHabitat', 'format-character', 'U+200B'],
      ['customerId', '\\ufeffacme', 'format-character', 'U+FEFF'],
    ];
    for (const [field, value, reason, codePoint] of cases) {
      const body = { ...IDENTITY, dpeId: '0000E0000001H' } as Record<string, string>;
      const raw = JSON.stringify(body).replace(
        `"${field}":"${body[field]}"`,
        `"${field}":"${value}"`,
      );
      const r = await post(preUrl, Buffer.from(raw), auth());
      expect(r.status, `${field}=${value}`).toBe(400);
      expect(r.body.errorObject).toEqual({ field, reason, codePoint });
      expect(r.body.error.startsWith(`'${field}' `)).toBe(true);
    }
    expect(await stored()).toBe(0);
    // accents, CJK, emoji are text
    const ok = await http(preUrl, {
      key: srv.keyA,
      body: { ...IDENTITY, userName: 'Élodie 李 😀', dpeId: '0000E0000001H' },
    });
    expect(ok.status).toBe(200);
  });

  it('bytes that are not UTF-8: 400 (not read as U+FFFD)', async () => {
    const raw = Buffer.concat([
      Buffer.from(`{"customerId":"acme-42","userId":"u-1","userName":"Al`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`","customerName":"ACME","dpeId":"0000E0000001H"}`),
    ]);
    const r = await post(preUrl, raw, auth());
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'the body is not valid UTF-8: a byte sequence is not a character (JSON is UTF-8)',
      errorObject: { reason: 'not-utf8' },
    });
  });

  it('Content-Encoding gzip, deflate, br: decoded; a bomb: 413; broken data: 400; another encoding: 415', async () => {
    const body = Buffer.from(JSON.stringify({ ...IDENTITY, dpeId: '0000E0000001H' }));
    for (const [encoding, bytes] of [
      ['gzip', zlib.gzipSync(body)],
      ['deflate', zlib.deflateSync(body)],
      ['br', zlib.brotliCompressSync(body)],
    ] as const) {
      const r = await post(preUrl, bytes, { ...auth(), 'content-encoding': encoding });
      expect(r.status, `${encoding}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body).toHaveProperty('maxCalculation');
    }
    // 64 MiB of spaces in 64 KiB: refused once 1 MiB is decoded
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const big = await post(preUrl, bomb, { ...auth(), 'content-encoding': 'gzip' });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('request body too large: the limit is 1048576 bytes (1 MiB)');
    const broken = await post(preUrl, Buffer.from('not gzip at all'), {
      ...auth(),
      'content-encoding': 'gzip',
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('the body is not valid gzip data (Content-Encoding: gzip)');
    for (const encoding of ['compress', 'zstd', 'gzip, br']) {
      const r = await post(preUrl, body, { ...auth(), 'content-encoding': encoding });
      expect(r.status, encoding).toBe(415);
      expect(r.body).toEqual({
        error: `unsupported Content-Encoding '${encoding}': send the body as it is (identity), or compressed with one of gzip, deflate, br`,
        errorObject: { reason: 'unsupported-encoding', encoding },
      });
    }
    const identity = await post(preUrl, body, { ...auth(), 'content-encoding': 'identity' });
    expect(identity.status).toBe(200);
  });
});

describe('the identity flags of the command line', () => {
  it('a right-to-left override in --user-name: exit 2 naming the flag and the character', async () => {
    const r = await runCli(['pre', HOUSE, '--user-name', 'Alice \u202eecilA']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: --user-name must not contain format characters (U+202E: bidi controls such as U+202E, zero-width characters, U+FEFF): they make a text show other than it is',
    );
  });
});

/**
 * The JSON body parser: every body is JSON (anything else is a 415), parsed with `JSON.parse`
 * and refused, with a message that says why, when it is not valid JSON or carries a key that can
 * reach an object's prototype (`__proto__`, `constructor`, `prototype`) at any depth, or is nested
 * deeper than MAX_JSON_DEPTH (checked without recursion).
 */
import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { DpeSimError } from '../contract/errors.js';
import { ambiguousText, ambiguousTextMessage } from '../contract/text.js';
import { POISON_KEYS } from '../contract/validate.js';
import { BODY_LIMIT_BYTES } from './error-body.js';

/** The deepest nesting of objects and arrays a body may have (a request's is at most 4). */
export const MAX_JSON_DEPTH = 64;

type Finding =
  | { kind: 'poison'; path: string; key: string }
  | { kind: 'depth'; path: string }
  | {
      kind: 'ambiguous';
      path: string;
      found: NonNullable<ReturnType<typeof ambiguousText>>;
    };

/**
 * Walks a parsed value without recursion (a body nested 10,000 deep cannot overflow the stack):
 * the JSON path of the first prototype key, or of the first value nested deeper than
 * MAX_JSON_DEPTH, or undefined.
 */
function inspect(root: unknown): Finding | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value: root, path: '', depth: 0 },
  ];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as (typeof stack)[number];
    if (typeof value === 'string') {
      const found = ambiguousText(value);
      if (found) return { kind: 'ambiguous', path: path || '(the body)', found };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { kind: 'depth', path: path || '(the body)' };
    const children: { value: unknown; path: string; depth: number }[] = [];
    if (Array.isArray(value)) {
      value.forEach((item, i) =>
        children.push({ value: item, path: `${path}[${i}]`, depth: depth + 1 }),
      );
    } else {
      for (const key of Object.keys(value)) {
        const here = path ? `${path}.${key}` : key;
        if ((POISON_KEYS as readonly string[]).includes(key))
          return { kind: 'poison', path: here, key };
        const found = ambiguousText(key);
        if (found) return { kind: 'ambiguous', path: here, found };
        children.push({
          value: (value as Record<string, unknown>)[key],
          path: here,
          depth: depth + 1,
        });
      }
    }
    // in document order: the first child is looked at first
    for (let i = children.length - 1; i >= 0; i--)
      stack.push(children[i] as (typeof children)[number]);
  }
  return undefined;
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') {
    throw new DpeSimError('invalid-input', 'the body is empty: send a JSON object');
  }
  let value: unknown;
  try {
    // JSON.parse makes `__proto__` an own key (it does not set the prototype): checked below
    value = JSON.parse(text);
  } catch (err) {
    throw new DpeSimError(
      'invalid-input',
      `the body is not valid JSON (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const finding = inspect(value);
  if (finding?.kind === 'poison') {
    throw new DpeSimError(
      'invalid-input',
      `'${finding.path}': a '${finding.key}' key is refused (it could alter object prototypes)`,
      { field: finding.path, value: finding.key },
    );
  }
  if (finding?.kind === 'ambiguous') {
    throw new DpeSimError(
      'invalid-input',
      ambiguousTextMessage(`'${finding.path}'`, finding.found),
      { field: finding.path, ...finding.found },
    );
  }
  if (finding?.kind === 'depth') {
    throw new DpeSimError(
      'invalid-input',
      `the body is nested too deep: at most ${MAX_JSON_DEPTH} levels of objects and arrays; the check stopped at '${finding.path}'`,
      { field: finding.path, reason: 'too-deep', limit: MAX_JSON_DEPTH },
    );
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== undefined) {
    throw new DpeSimError(
      'invalid-input',
      `'${duplicate}' is given twice in the body: a key appears once per object (readers disagree on which one counts)`,
      { field: duplicate, reason: 'duplicate-key' },
    );
  }
  return value;
}

type Frame =
  | { object: true; keys: Set<string>; key: string; expectKey: boolean }
  | { object: false; index: number };

function framePath(stack: Frame[]): string {
  let out = '';
  for (const f of stack) {
    if (f.object) out += out ? `.${f.key}` : f.key;
    else out += `[${f.index}]`;
  }
  return out;
}

/**
 * The JSON path of the first key given twice in one object, or undefined. `JSON.parse` keeps the
 * last; a proxy or a log reader may keep the first: the same body would mean two requests.
 * Keys are compared decoded (`"a"` and `"\u0061"` are one key). Runs on text JSON.parse has
 * accepted, with a stack of its own (no recursion).
 */
export function firstDuplicateKey(text: string): string | undefined {
  const stack: Frame[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x5c /* \ */) j += 2;
        else if (d === 0x22) break;
        else j++;
      }
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        const raw = text.slice(i + 1, j);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.keys.has(key)) {
          top.key = key;
          return framePath(stack);
        }
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === 0x7b /* { */) stack.push({ object: true, keys: new Set(), key: '', expectKey: true });
    else if (c === 0x5b /* [ */) stack.push({ object: false, index: 0 });
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) stack.pop();
    else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.object) top.expectKey = true;
      else if (top) top.index++;
    }
    i++;
  }
  return undefined;
}

/** The `charset` parameter of a Content-Type, lower-cased, or undefined. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  if (!m) return undefined;
  return (m[1] ?? m[2] ?? '').toLowerCase();
}

/** A body in another charset than UTF-8: 415, naming it (a fastify-style error: statusCode). */
export class UnsupportedCharsetError extends Error {
  readonly statusCode = 415;
  readonly code = 'DPE_SIM_UNSUPPORTED_CHARSET';
  constructor(readonly charset: string) {
    super(
      `unsupported charset '${charset.slice(0, 40)}': the body must be UTF-8 (Content-Type: application/json, or application/json; charset=utf-8)`,
    );
  }
}

/** Replaces fastify's JSON parser (and drops text/plain) on `app`. */
export function useJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  useContentEncoding(app);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    try {
      // JSON is UTF-8 (RFC 8259): a body said to be UTF-16 or Latin-1 would be misread
      const charset = charsetOf(req.headers['content-type']);
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
        throw new UnsupportedCharsetError(charset);
      }
      done(null, parseJsonBody(utf8Text(body as Buffer)));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body as text; bytes that are not UTF-8 are refused (they would be read as U+FFFD). */
function utf8Text(body: Buffer): string {
  try {
    return UTF8.decode(body);
  } catch {
    throw new DpeSimError(
      'invalid-input',
      'the body is not valid UTF-8: a byte sequence is not a character (JSON is UTF-8)',
      { reason: 'not-utf8' },
    );
  }
}

/** A Content-Encoding other than the ones decoded: 415, naming it (a fastify-style error). */
export class UnsupportedEncodingError extends Error {
  readonly statusCode = 415;
  readonly code = 'DPE_SIM_UNSUPPORTED_ENCODING';
  constructor(readonly encoding: string) {
    super(
      `unsupported Content-Encoding '${encoding.slice(0, 40)}': send the body as it is (identity), or compressed with one of gzip, deflate, br`,
    );
  }
}

const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * Counts what a decoder gives: past the body limit, the body is refused (413) and the decoder
 * stopped, so a small compressed body cannot unfold into gigabytes.
 */
class Limited extends Transform {
  private size = 0;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > BODY_LIMIT_BYTES) {
      done(Object.assign(new Error('request body too large'), { statusCode: 413 }));
      return;
    }
    done(null, chunk);
  }
}

/**
 * `Content-Encoding: gzip`, `deflate` or `br` is decoded before the body is parsed (the limit,
 * 1 MiB, applies to the decoded body); `identity` or none is read as it is; anything else (or a
 * list of encodings) is a 415 rather than a compressed body read as JSON.
 */
function useContentEncoding(app: FastifyInstance): void {
  app.addHook('preParsing', async (req, _reply, payload) => {
    const header = req.headers['content-encoding'];
    if (header === undefined) return payload;
    const encoding = String(header).trim().toLowerCase();
    if (encoding === '' || encoding === 'identity') return payload;
    const decoder = DECODERS[encoding]?.();
    if (!decoder) throw new UnsupportedEncodingError(String(header));
    let encoded = 0;
    payload.on('data', (chunk: Buffer) => (encoded += chunk.length));
    const limited = new Limited();
    decoder.on('error', (err) =>
      limited.destroy(
        Object.assign(
          new Error(`the body is not valid ${encoding} data (Content-Encoding: ${encoding})`),
          { statusCode: 400, cause: err },
        ),
      ),
    );
    payload.on('error', (err) => limited.destroy(err));
    payload.pipe(decoder).pipe(limited);
    // fastify compares the bytes received with Content-Length: the encoded ones
    Object.defineProperty(limited, 'receivedEncodedLength', { get: () => encoded });
    return limited;
  });
}

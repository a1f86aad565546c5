/**
 * The JSON body parser: every body is JSON (anything else is a 415), parsed with `JSON.parse`
 * and refused, with a message that says why, when it is not valid JSON or carries a key that can
 * reach an object's prototype (`__proto__`, `constructor`, `prototype`) at any depth, or is nested
 * deeper than MAX_JSON_DEPTH (checked without recursion).
 */
import type { FastifyInstance } from 'fastify';
import { DpeSimError } from '../contract/errors.js';
import { POISON_KEYS } from '../contract/validate.js';

/** The deepest nesting of objects and arrays a body may have (a request's is at most 4). */
export const MAX_JSON_DEPTH = 64;

type Finding = { kind: 'poison'; path: string; key: string } | { kind: 'depth'; path: string };

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
  if (finding?.kind === 'depth') {
    throw new DpeSimError(
      'invalid-input',
      `the body is nested too deep: at most ${MAX_JSON_DEPTH} levels of objects and arrays; the check stopped at '${finding.path}'`,
      { field: finding.path, reason: 'too-deep', limit: MAX_JSON_DEPTH },
    );
  }
  return value;
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
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    try {
      // JSON is UTF-8 (RFC 8259): a body said to be UTF-16 or Latin-1 would be misread
      const charset = charsetOf(req.headers['content-type']);
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
        throw new UnsupportedCharsetError(charset);
      }
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

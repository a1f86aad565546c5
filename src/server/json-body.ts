/**
 * The JSON body parser: every body is JSON (anything else is a 415), parsed with `JSON.parse`
 * and refused, with a message that says why, when it is not valid JSON or carries a key that can
 * reach an object's prototype (`__proto__`, `constructor`, `prototype`) at any depth.
 */
import type { FastifyInstance } from 'fastify';
import { DpeSimError } from '../contract/errors.js';
import { POISON_KEYS } from '../contract/validate.js';

/** The JSON path of the first prototype key in a parsed value, or undefined. */
function poisonPath(value: unknown, path: string): { path: string; key: string } | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = poisonPath(value[i], `${path}[${i}]`);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const here = path ? `${path}.${key}` : key;
    if ((POISON_KEYS as readonly string[]).includes(key)) return { path: here, key };
    const hit = poisonPath((value as Record<string, unknown>)[key], here);
    if (hit) return hit;
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
  const poison = poisonPath(value, '');
  if (poison) {
    throw new DpeSimError(
      'invalid-input',
      `'${poison.path}': a '${poison.key}' key is refused (it could alter object prototypes)`,
      { field: poison.path, value: poison.key },
    );
  }
  return value;
}

/** Replaces fastify's JSON parser (and drops text/plain) on `app`. */
export function useJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

/**
 * Request validation from the contract's schemas: fastify's validator compiler replaced by
 * `parseBody` (TypeBox), so the server's 400 messages are the contract's own ("missing required
 * field 'dpeId'", "'customerId' must not contain ':'", "'query.coef2026' must be one of ...").
 * Query strings arrive as text: numbers and booleans the schema asks for are converted first.
 */
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { DpeSimError } from '../contract/errors.js';
import { parseBody } from '../contract/validate.js';

type Part = 'body' | 'querystring' | 'params' | 'headers';

const WHERE: Record<Part, string> = {
  body: 'body',
  querystring: 'query string',
  params: 'path',
  headers: 'headers',
};

interface PropertySchema {
  type?: string;
}

/** Turns `"12"` into 12 and `"true"` into true where the schema wants a number or a boolean. */
export function coerceQuery(schema: TSchema, data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  const props = (schema as { properties?: Record<string, PropertySchema> }).properties ?? {};
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const [name, value] of Object.entries(out)) {
    if (typeof value !== 'string') continue;
    const type = props[name]?.type;
    if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim())) {
      out[name] = Number(value);
    } else if (type === 'boolean' && (value === 'true' || value === 'false')) {
      out[name] = value === 'true';
    }
  }
  return out;
}

export const contractValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const part = (httpPart ?? 'body') as Part;
  return (data: unknown) => {
    try {
      if (part === 'body' && (data === null || data === undefined)) {
        throw new DpeSimError(
          'invalid-input',
          'the request needs a JSON object body (Content-Type: application/json)',
        );
      }
      const input = part === 'querystring' ? coerceQuery(schema, data) : data;
      return { value: parseBody(schema, input, WHERE[part]) };
    } catch (error) {
      return { error: error instanceof Error ? error : new Error(String(error)) };
    }
  };
};

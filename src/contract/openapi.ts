/**
 * The OpenAPI 3.1 document, built from the operations table (`operations.ts`) and the contract's
 * schemas, so the document, the validation and the routes cannot disagree.
 */
import type { TSchema } from 'typebox';
import { apiOperations, ERROR_DESCRIPTIONS } from './operations.js';
import { ErrorBody } from './schemas.js';

// ---------------------------------------------------------------- the OpenAPI document

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A schema as plain JSON (TypeBox's markers dropped), without `$id`. */
function plain(schema: TSchema): JsonObject {
  const copy = JSON.parse(JSON.stringify(schema)) as JsonObject;
  delete copy.$id;
  return copy;
}

function ref(name: string): JsonObject {
  return { $ref: `#/components/schemas/${name}` };
}

function parameters(schema: TSchema, where: 'query' | 'path'): Json[] {
  const s = plain(schema);
  const props = (s.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((s.required ?? []) as string[]);
  return Object.entries(props).map(([name, prop]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: prop,
  }));
}

function jsonContent(schema: JsonObject): JsonObject {
  return { 'application/json': { schema } };
}

/** `dpe-sim serve`'s default address */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8787';

export interface OpenApiOptions {
  /** where the consumption history is served (the config's `historyPath`) */
  historyPath: string;
  /** the server's own URL, listed in `servers` */
  serverUrl?: string;
  version?: string;
}

export function openApiDocument(opts: OpenApiOptions): JsonObject {
  const ops = apiOperations(opts.historyPath);
  const schemas: JsonObject = { ErrorBody: plain(ErrorBody) };
  const paths: Record<string, JsonObject> = {};
  for (const op of ops) {
    schemas[op.response.name] = plain(op.response.schema);
    if (op.body) schemas[op.body.name] = plain(op.body.schema);
    const responses: JsonObject = {
      200: { description: 'Success', content: jsonContent(ref(op.response.name)) },
    };
    for (const status of [...op.errors].sort((a, b) => a - b)) {
      responses[status] = {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        ...(status === 405
          ? {
              headers: {
                Allow: {
                  description: 'The methods the path accepts',
                  schema: { type: 'string' },
                },
              },
            }
          : {}),
        ...(status === 429 || status === 503
          ? {
              headers: {
                'Retry-After': {
                  description: 'Seconds to wait before trying again',
                  schema: { type: 'integer', minimum: 0 },
                },
              },
            }
          : {}),
        content: jsonContent(ref('ErrorBody')),
      };
    }
    const parametersList = [
      ...(op.params ? parameters(op.params, 'path') : []),
      ...(op.query ? parameters(op.query, 'query') : []),
    ];
    const entry: JsonObject = {
      operationId: op.id,
      tags: [op.tag],
      summary: op.summary,
      description: op.description,
      ...(op.partnerKey ? {} : { security: [] }),
      ...(op.extension ? { 'x-dpe-sim-extension': true } : {}),
      ...(parametersList.length ? { parameters: parametersList } : {}),
      ...(op.body
        ? { requestBody: { required: true, content: jsonContent(ref(op.body.name)) } }
        : {}),
      responses,
    };
    paths[op.path] = { ...(paths[op.path] ?? {}), [op.method.toLowerCase()]: entry };
  }
  const notAllowed: JsonObject = {
    description: ERROR_DESCRIPTIONS[405] ?? 'Method not allowed',
    headers: { Allow: { description: 'The methods the path accepts', schema: { type: 'string' } } },
    content: jsonContent(ref('ErrorBody')),
  };
  paths['/openapi.json'] = {
    get: {
      operationId: 'openapi',
      tags: ['Public'],
      summary: 'This document',
      security: [],
      responses: {
        200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': {} } },
        405: notAllowed,
      },
    },
  };
  paths['/public/partnerLogin.html'] = {
    get: {
      operationId: 'loginPage',
      tags: ['Public'],
      summary: 'The workbench that login URLs point to (`?partnerToken=<token>`): an HTML page',
      security: [],
      parameters: [
        { name: 'partnerToken', in: 'query', required: true, schema: { type: 'string' } },
      ],
      responses: {
        200: { description: 'HTML page', content: { 'text/html': {} } },
        405: notAllowed,
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner DPE Simulation Service (dpe-sim)',
      version: opts.version ?? '0.1.0',
      description:
        'The partner API served by `dpe-sim serve` on the bundled 3CL engine. Every `/partners/*` operation needs the partner key in `Authorization` (the raw key, or `Bearer <key>`). Errors are `{"error": "...", "errorObject": {...}}`. Request bodies refuse unknown fields (400 with the JSON path and a did-you-mean). Limits: body 1 MiB (413); headers and body within 10 s each (408, or the connection is closed); at most 512 open connections (when all are open, the oldest socket not in a request of the busiest address gives way to an address holding fewer), 128 from one client address (429 with `Retry-After` beyond), a reserve of 32 beyond for `/health` and `/ready` only, and 6,000 requests a minute from one address (429 with `Retry-After`; `/health` and `/ready` not counted); a JSON body at most 64 levels deep, in UTF-8 (another `charset`: 415; bytes that are not UTF-8: 400), each key once per object, no lone surrogate nor format character (bidi controls, zero-width) in any string (400 naming the field); `Content-Encoding` gzip, deflate or br decoded (the 1 MiB limit applies decoded), any other 415; free-text fields (`namedCalculation`, `editableKey`, `editableValue`) without control characters; identity fields 1 to 256 characters without control characters; `expireInMinutes` 1 to 1440; a login token at most 200 characters (a path parameter over 256 characters: 414).',
      license: { name: 'GPL-3.0-or-later', identifier: 'GPL-3.0-or-later' },
    },
    servers: [
      {
        url: opts.serverUrl ?? DEFAULT_SERVER_URL,
        description: opts.serverUrl
          ? 'This server'
          : 'The default address of `dpe-sim serve` (the document served at /openapi.json names the address the server listens on)',
      },
    ],
    tags: [
      { name: 'Authentication', description: 'Login tokens and login URLs for partner users.' },
      {
        name: 'DPE',
        description: 'Pre-analysis, initial simulation and recalculation with works.',
      },
      { name: 'Tracking', description: "The partner's consumption history." },
      {
        name: 'Public',
        description: 'No partner key: the login page, health and readiness checks, this document.',
      },
    ],
    security: [{ partnerKey: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        partnerKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The partner key, raw or as `Bearer <key>`.',
        },
      },
    },
  };
}

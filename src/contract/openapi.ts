/**
 * The partner API's operations as data (method, path, schemas, statuses), and the OpenAPI 3.1
 * document built from them. The server registers its routes from the same table, so the
 * document, the validation and the routes cannot disagree.
 */
import type { TSchema } from 'typebox';
import {
  AuthRequest,
  AuthResponse,
  CalcRequest,
  CalcResponse,
  ErrorBody,
  HealthResponse,
  HistoryRequest,
  HistoryResponse,
  InitialRequest,
  InitialResponse,
  PageLoginRequest,
  PageLoginResponse,
  PreRequest,
  PreResponse,
  TokenInfoResponse,
  TokenLoginResponse,
  TokenParams,
} from './schemas.js';

export type OperationId =
  | 'auth'
  | 'tokenInfo'
  | 'tokenLogin'
  | 'pre'
  | 'initial'
  | 'calc'
  | 'history'
  | 'pageLogin'
  | 'health';

export interface ApiOperation {
  id: OperationId;
  method: 'GET' | 'POST';
  /** OpenAPI form: `/partners/token/{partnerToken}` */
  path: string;
  tag: 'Authentication' | 'DPE' | 'Tracking' | 'Public';
  summary: string;
  description: string;
  /** false: no partner key (the login page's API, the health check) */
  partnerKey: boolean;
  body?: { name: string; schema: TSchema };
  query?: TSchema;
  params?: TSchema;
  response: { name: string; schema: TSchema };
  /** error statuses this operation can answer, each with an ErrorBody */
  errors: readonly number[];
}

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: `error` states the reason (missing field, pattern, unknown works...).',
  401: 'Partner key missing, unknown or revoked.',
  404: 'Unknown DPE number, or unknown login token.',
  410: 'The login token has expired or has already been used.',
  413: 'Request body larger than 1 MiB.',
  422: 'The DPE is blocked (a `block` alert): it cannot be simulated. `errorObject.warnings` holds the alert.',
  500: 'Internal error.',
};

const PARTNER_ERRORS = [400, 401, 413, 500] as const;

/** Every operation of the server; the consumption history is served at `historyPath`. */
export function apiOperations(historyPath: string): ApiOperation[] {
  return [
    {
      id: 'auth',
      method: 'POST',
      path: '/partners/user/auth',
      tag: 'Authentication',
      summary: 'Create a single-use login token and return the login URL',
      description:
        'Creates the customer organization and the user on first use. The URL is `{app_url}/public/partnerLogin.html?partnerToken=<token>`, valid `expireInMinutes` minutes (default 10), usable once. When `dpeId` is given the DPE must exist on this server (404 otherwise).',
      partnerKey: true,
      body: { name: 'AuthRequest', schema: AuthRequest },
      response: { name: 'AuthResponse', schema: AuthResponse },
      errors: [...PARTNER_ERRORS, 404],
    },
    {
      id: 'tokenInfo',
      method: 'GET',
      path: '/partners/token/{partnerToken}',
      tag: 'Authentication',
      summary: 'Look at a login token without using it',
      description:
        "Returns the token's status (`issued`, `used`, `expired`), expiry, user and DPE. Does not consume the token. Only the partner that issued the token sees it (404 for any other).",
      partnerKey: true,
      params: TokenParams,
      response: { name: 'TokenInfoResponse', schema: TokenInfoResponse },
      errors: [400, 401, 404, 500],
    },
    {
      id: 'tokenLogin',
      method: 'GET',
      path: '/partners/tokenLogin/{partnerToken}',
      tag: 'Authentication',
      summary: 'Log in with a token (uses it: single use)',
      description:
        'Consumes the token atomically (of two concurrent logins exactly one succeeds) and opens a session: returns a session token, the user and the DPE. 410 when the token was already used or has expired, 404 when it is unknown to this partner.',
      partnerKey: true,
      params: TokenParams,
      response: { name: 'TokenLoginResponse', schema: TokenLoginResponse },
      errors: [400, 401, 404, 410, 500],
    },
    {
      id: 'pre',
      method: 'POST',
      path: '/partners/dpe/pre',
      tag: 'DPE',
      summary: 'Pre-analysis of a DPE, and a login URL for the user',
      description:
        'Engine figures against the registry figures, alerts and a login URL. A blocked DPE answers 200 with a `block` alert in `warnings`.',
      partnerKey: true,
      body: { name: 'PreRequest', schema: PreRequest },
      response: { name: 'PreResponse', schema: PreResponse },
      errors: [...PARTNER_ERRORS, 404],
    },
    {
      id: 'initial',
      method: 'POST',
      path: '/partners/dpe/initial',
      tag: 'DPE',
      summary: 'Initial simulation: the DPE structure, works options, initial calculation',
      description:
        'The step before `/partners/dpe/calc`. A blocked DPE answers 422 with the alert in `errorObject.warnings`.',
      partnerKey: true,
      body: { name: 'InitialRequest', schema: InitialRequest },
      response: { name: 'InitialResponse', schema: InitialResponse },
      errors: [...PARTNER_ERRORS, 404, 422],
    },
    {
      id: 'calc',
      method: 'POST',
      path: '/partners/dpe/calc',
      tag: 'DPE',
      summary: 'Recalculate the DPE with works',
      description:
        'Applies `params.editablesChanges`. Every change is checked against the DPE before anything is computed or recorded: an unknown referenceId, editableKey or editableValue answers 400 naming the allowed ones. A blocked DPE answers 422.',
      partnerKey: true,
      body: { name: 'CalcRequest', schema: CalcRequest },
      response: { name: 'CalcResponse', schema: CalcResponse },
      errors: [...PARTNER_ERRORS, 404, 422],
    },
    {
      id: 'history',
      method: 'GET',
      path: historyPath,
      tag: 'Tracking',
      summary: "Consumption history: the partner's pre / initial / calc runs, newest first",
      description:
        'Filters: `customerId`, `userId`, `dpeId`, `since` (ISO 8601 timestamp, inclusive), `limit` (1 to 10000, default 100). Only the calling partner’s runs.',
      partnerKey: true,
      query: HistoryRequest,
      response: { name: 'HistoryResponse', schema: HistoryResponse },
      errors: [400, 401, 500],
    },
    {
      id: 'pageLogin',
      method: 'POST',
      path: '/public/api/login',
      tag: 'Public',
      summary: 'Login page: use a login token, get the user, the DPE classes, the last simulation',
      description:
        'Called by `/public/partnerLogin.html`. No partner key: the token is the secret. Consumes the token like `tokenLogin` (410 used or expired, 404 unknown).',
      partnerKey: false,
      body: { name: 'PageLoginRequest', schema: PageLoginRequest },
      response: { name: 'PageLoginResponse', schema: PageLoginResponse },
      errors: [400, 404, 410, 413, 500],
    },
    {
      id: 'health',
      method: 'GET',
      path: '/health',
      tag: 'Public',
      summary: 'Health check',
      description: 'Answers 200 `{"status":"ok"}` when the server is up.',
      partnerKey: false,
      response: { name: 'HealthResponse', schema: HealthResponse },
      errors: [],
    },
  ];
}

export function operation(ops: readonly ApiOperation[], id: OperationId): ApiOperation {
  const op = ops.find((o) => o.id === id);
  if (!op) throw new Error(`no operation ${id}`);
  return op;
}

/** `/partners/token/{partnerToken}` → `/partners/token/:partnerToken` */
export function routePath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

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
    for (const status of op.errors) {
      responses[status] = {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
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
      ...(parametersList.length ? { parameters: parametersList } : {}),
      ...(op.body
        ? { requestBody: { required: true, content: jsonContent(ref(op.body.name)) } }
        : {}),
      responses,
    };
    paths[op.path] = { ...(paths[op.path] ?? {}), [op.method.toLowerCase()]: entry };
  }
  paths['/openapi.json'] = {
    get: {
      operationId: 'openapi',
      tags: ['Public'],
      summary: 'This document',
      security: [],
      responses: { 200: { description: 'The OpenAPI 3.1 document' } },
    },
  };
  paths['/public/partnerLogin.html'] = {
    get: {
      operationId: 'loginPage',
      tags: ['Public'],
      summary: 'The login page that login URLs point to (`?partnerToken=<token>`)',
      security: [],
      parameters: [
        { name: 'partnerToken', in: 'query', required: true, schema: { type: 'string' } },
      ],
      responses: { 200: { description: 'HTML page', content: { 'text/html': {} } } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner DPE Simulation Service (dpe-sim)',
      version: opts.version ?? '0.1.0',
      description:
        'The partner API served by `dpe-sim serve` on the bundled 3CL engine. Every `/partners/*` operation needs the partner key in `Authorization` (the raw key, or `Bearer <key>`). Errors are `{"error": "...", "errorObject": {...}}`.',
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    tags: [{ name: 'Authentication' }, { name: 'DPE' }, { name: 'Tracking' }, { name: 'Public' }],
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

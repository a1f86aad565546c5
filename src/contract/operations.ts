/**
 * The partner API's operations as one table: name, method, path, request and response schemas,
 * error statuses, and the Backend method that answers it. The server's routes, the OpenAPI
 * paths and the remote client's calls are all derived from this table, so adding an operation
 * means adding a row (and the method to `PartnerApi`).
 */
import type { TSchema } from 'typebox';
import { AuditRequest, AuditResponse } from './audit.js';
import {
  AuthRequest,
  AuthResponse,
  CalcRequest,
  CalcResponse,
  HealthResponse,
  HistoryRequest,
  HistoryResponse,
  InitialRequest,
  InitialResponse,
  PageLoginRequest,
  PageLoginResponse,
  PreRequest,
  PreResponse,
  ReadyResponse,
  TokenInfoResponse,
  TokenLoginResponse,
  TokenParams,
} from './schemas.js';
import {
  SpecAuthResponse,
  SpecCalcResponse,
  SpecHistoryResponse,
  SpecInitialResponse,
  SpecPreResponse,
  SpecTokenInfoResponse,
  SpecTokenLoginResponse,
} from './spec-responses.js';

/**
 * The seven operations a partner calls with its key: what every Backend answers. Responses are
 * typed as the spec guarantees them (`spec-responses.ts`): the spec-named fields, the others
 * optional, since a remote service that honours the spec may leave them out. The local backend
 * returns the full bodies (`schemas.ts`), which are subtypes of these.
 */
export interface PartnerApi {
  auth(req: AuthRequest): Promise<SpecAuthResponse>;
  /** GET /partners/token/{partnerToken}: looks at a token without using it */
  tokenInfo(req: TokenParams): Promise<SpecTokenInfoResponse>;
  /** GET /partners/tokenLogin/{partnerToken}: uses the token (once) */
  tokenLogin(req: TokenParams): Promise<SpecTokenLoginResponse>;
  pre(req: PreRequest): Promise<SpecPreResponse>;
  initial(req: InitialRequest): Promise<SpecInitialResponse>;
  calc(req: CalcRequest): Promise<SpecCalcResponse>;
  history(req: HistoryRequest): Promise<SpecHistoryResponse>;
  /** POST /dpe-sim/audit: a dpe-sim extension (the spec has no audit operation) */
  audit(req: AuditRequest): Promise<AuditResponse>;
}
export type PartnerOperationId = keyof PartnerApi;

export type OperationId = PartnerOperationId | 'pageLogin' | 'health' | 'ready';

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
  /** where the operation's one input comes from: the JSON body, the query string or the path */
  input: 'body' | 'query' | 'params' | 'none';
  body?: { name: string; schema: TSchema };
  query?: TSchema;
  params?: TSchema;
  response: { name: string; schema: TSchema };
  /**
   * What a client requires of the response: the fields the spec names for this operation, the
   * others optional (`spec-responses.ts`). The remote backend checks only this.
   */
  specResponse: TSchema;
  /** error statuses this operation can answer, each with an ErrorBody */
  errors: readonly number[];
  /** a dpe-sim extension, not in the partner spec (`x-dpe-sim-extension` in the OpenAPI) */
  extension?: true;
  /**
   * Sending it twice does what sending it once does (a lookup). The remote client sends only such
   * an operation again after a timeout: the others compute, record a run or use a token, and a
   * timeout means the server has the request and may still be working on it.
   */
  repeatable: boolean;
}

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: `error` states the reason (missing or unknown field with its JSON path and a did-you-mean, pattern, length, range, unknown works...); `errorObject.field` names the field.',
  401: 'Partner key missing, unknown or revoked.',
  403: 'A login from a page of another site (its `Origin` is not this server): refused.',
  404: 'Unknown DPE number, or unknown login token.',
  405: 'Wrong method on a known path: the `Allow` header lists the right ones.',
  408: 'The request (headers and body) did not arrive within 10 seconds.',
  410: 'The login token has expired or has already been used.',
  413: 'Request body larger than 1 MiB.',
  414: 'URL path too long: a path parameter has at most 256 characters.',
  415: 'Content-Type is not `application/json`.',
  422: 'The DPE is blocked (a `block` alert): it cannot be simulated. `errorObject.warnings` holds the alert.',
  500: 'Internal error.',
  429: 'Too many requests from this client address: `Retry-After` says when to try again.',
  503: 'The server is shutting down, every engine thread is busy, the store is unavailable (`errorObject.reason` `store-unavailable`) or read-only (`read-only`), or the connection is one of the reserve kept for /health and /ready (`connection-limit`): `Retry-After` says when to try again.',
  502: 'The DPE is in no local place and the registry cannot be reached (`errorObject.reason` `registry-unreachable`): `Retry-After` says when to try again.',
  504: 'The DPE is in no local place and the registry did not answer within 4 seconds (`errorObject.reason` `registry-unreachable`); the lookup goes on and caches the DPE: `Retry-After` says when to try again.',
  507: "The store cannot be written: no space left on the server's disk (`errorObject.reason` `disk-full`): `Retry-After` says when to try again.",
};

/** An operation that looks a DPE number up: unknown (404), the registry unreachable or late. */
const DPE_ERRORS = [404, 502, 504] as const;

/** What the probes (/health, /ready) can answer: wrong method, too slow, internal error, closing. */
const PROBE_ERRORS = [405, 408, 500, 503] as const;
/** ... and every other operation: too many requests or connections from one address (429). */
const COMMON_ERRORS = [...PROBE_ERRORS, 429] as const;
/** ... and an operation with a JSON body: invalid, too large, not JSON */
const BODY_ERRORS = [400, 413, 415] as const;
const PARTNER_ERRORS = [401, ...BODY_ERRORS, ...COMMON_ERRORS] as const;
/** ... and an operation with a path parameter */
const PATH_ERRORS = [400, 401, 414, ...COMMON_ERRORS] as const;

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
      input: 'body',
      partnerKey: true,
      body: { name: 'AuthRequest', schema: AuthRequest },
      response: { name: 'AuthResponse', schema: AuthResponse },
      specResponse: SpecAuthResponse,
      errors: [...PARTNER_ERRORS, ...DPE_ERRORS, 507],
      repeatable: false,
    },
    {
      id: 'tokenInfo',
      method: 'GET',
      path: '/partners/token/{partnerToken}',
      tag: 'Authentication',
      summary: 'Look at a login token without using it',
      description:
        "Returns the token's status (`issued`, `used`, `expired`), expiry, user and DPE. Does not consume the token. Only the partner that issued the token sees it (404 for any other).",
      input: 'params',
      partnerKey: true,
      params: TokenParams,
      response: { name: 'TokenInfoResponse', schema: TokenInfoResponse },
      specResponse: SpecTokenInfoResponse,
      errors: [...PATH_ERRORS, 404],
      repeatable: true,
    },
    {
      id: 'tokenLogin',
      method: 'GET',
      path: '/partners/tokenLogin/{partnerToken}',
      tag: 'Authentication',
      summary: 'Log in with a token (uses it: single use)',
      description:
        'Consumes the token atomically (of two concurrent logins exactly one succeeds) and opens a session: returns a session token, the user and the DPE. 410 when the token was already used or has expired, 404 when it is unknown to this partner.',
      input: 'params',
      partnerKey: true,
      params: TokenParams,
      response: { name: 'TokenLoginResponse', schema: TokenLoginResponse },
      specResponse: SpecTokenLoginResponse,
      errors: [...PATH_ERRORS, 404, 410, 507],
      repeatable: false,
    },
    {
      id: 'pre',
      method: 'POST',
      path: '/partners/dpe/pre',
      tag: 'DPE',
      summary: 'Pre-analysis of a DPE, and a login URL for the user',
      description:
        'Engine figures against the registry figures, alerts and a login URL. A blocked DPE answers 200 with a `block` alert in `warnings`.',
      input: 'body',
      partnerKey: true,
      body: { name: 'PreRequest', schema: PreRequest },
      response: { name: 'PreResponse', schema: PreResponse },
      specResponse: SpecPreResponse,
      errors: [...PARTNER_ERRORS, ...DPE_ERRORS, 507],
      repeatable: false,
    },
    {
      id: 'initial',
      method: 'POST',
      path: '/partners/dpe/initial',
      tag: 'DPE',
      summary: 'Initial simulation: the DPE structure, works options, initial calculation',
      description:
        'The step before `/partners/dpe/calc`. A blocked DPE answers 422 with the alert in `errorObject.warnings`.',
      input: 'body',
      partnerKey: true,
      body: { name: 'InitialRequest', schema: InitialRequest },
      response: { name: 'InitialResponse', schema: InitialResponse },
      specResponse: SpecInitialResponse,
      errors: [...PARTNER_ERRORS, ...DPE_ERRORS, 422, 507],
      repeatable: false,
    },
    {
      id: 'calc',
      method: 'POST',
      path: '/partners/dpe/calc',
      tag: 'DPE',
      summary: 'Recalculate the DPE with works',
      description:
        'Applies `params.editablesChanges`. Every change is checked against the DPE before anything is computed or recorded: an unknown referenceId, editableKey or editableValue answers 400 naming the allowed ones. A blocked DPE answers 422.',
      input: 'body',
      partnerKey: true,
      body: { name: 'CalcRequest', schema: CalcRequest },
      response: { name: 'CalcResponse', schema: CalcResponse },
      specResponse: SpecCalcResponse,
      errors: [...PARTNER_ERRORS, ...DPE_ERRORS, 422, 507],
      repeatable: false,
    },
    {
      id: 'audit',
      method: 'POST',
      path: '/dpe-sim/audit',
      tag: 'DPE',
      summary: 'dpe-sim extension: the energy audit (loss breakdown, two works paths, rule checks)',
      description:
        'Not in the partner spec: an extension of dpe-sim (`x-dpe-sim-extension`). The body is that of `/partners/dpe/initial`. Answers the heat-loss breakdown, a path in steps and a path in one step reaching a "rénovation performante" (class B, or C from F or G), each step with its works, figures and costs, and every rule of the regulatory audit checked with its figure (docs/audit.md), with the input gate, bills saved, aids, controls and summer comfort; `engineFigures: true` audits a DPE the gate stops on the engine’s own figures under a banner. Recorded in the history (operation `audit`). A blocked DPE, or one the gate stops, answers 422.',
      input: 'body',
      partnerKey: true,
      body: { name: 'AuditRequest', schema: AuditRequest },
      response: { name: 'AuditResponse', schema: AuditResponse },
      specResponse: AuditResponse,
      errors: [...PARTNER_ERRORS, ...DPE_ERRORS, 422, 507],
      extension: true,
      repeatable: false,
    },
    {
      id: 'history',
      method: 'GET',
      path: historyPath,
      tag: 'Tracking',
      summary:
        "Consumption history: the partner's pre / initial / calc runs (and dpe-sim audits), newest first",
      description:
        'Filters: `customerId`, `userId`, `dpeId`, `since` and `until` (ISO 8601 date or date-time, inclusive; an impossible date such as 2025-13-45 is a 400), `limit` (1 to 10000, default 100). Unknown parameters are a 400. Only the calling partner’s runs.',
      input: 'query',
      partnerKey: true,
      query: HistoryRequest,
      response: { name: 'HistoryResponse', schema: HistoryResponse },
      specResponse: SpecHistoryResponse,
      errors: [400, 401, ...COMMON_ERRORS],
      repeatable: true,
    },
    {
      id: 'pageLogin',
      method: 'POST',
      path: '/public/api/login',
      tag: 'Public',
      summary: 'Login page: use a login token, get the user, the DPE classes, the last simulation',
      description:
        'No partner key: the token is the secret. Consumes the token like `tokenLogin` (410 used or expired, 404 unknown) and sets the session cookie of the workbench (`dpesim_session`: HttpOnly, SameSite=Strict, 12 h). A request whose `Origin` is another site is refused (403). The workbench page itself signs in through its own routes (docs/workbench.md).',
      input: 'body',
      partnerKey: false,
      body: { name: 'PageLoginRequest', schema: PageLoginRequest },
      response: { name: 'PageLoginResponse', schema: PageLoginResponse },
      specResponse: PageLoginResponse,
      errors: [...BODY_ERRORS, ...COMMON_ERRORS, 403, 404, 410, 507],
      repeatable: false,
    },
    {
      id: 'health',
      method: 'GET',
      path: '/health',
      tag: 'Public',
      summary: 'Health check',
      description: 'Answers 200 `{"status":"ok"}` when the server is up.',
      input: 'none',
      partnerKey: false,
      response: { name: 'HealthResponse', schema: HealthResponse },
      specResponse: HealthResponse,
      errors: [...PROBE_ERRORS],
      repeatable: true,
    },
    {
      id: 'ready',
      method: 'GET',
      path: '/ready',
      tag: 'Public',
      summary: 'Readiness check: the server and its store answer',
      description:
        'Answers 200 `{"status":"ready","checks":{"store":"ok"}}` when the store answers a trivial query within 2 seconds and can be written; 503 with `Retry-After` and `errorObject.reason` `store-unavailable`, `disk-full` or `read-only` otherwise. A load balancer probes this one; `/health` only says the process is up. Both are served on a reserve of connections when all others are taken.',
      input: 'none',
      partnerKey: false,
      response: { name: 'ReadyResponse', schema: ReadyResponse },
      specResponse: ReadyResponse,
      errors: [...PROBE_ERRORS],
      repeatable: true,
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

/** The partner operations (those a Backend answers), in table order. */
export function partnerOperations(
  historyPath: string,
): (ApiOperation & { id: PartnerOperationId })[] {
  return apiOperations(historyPath).filter(
    (op): op is ApiOperation & { id: PartnerOperationId } => op.partnerKey,
  );
}

/**
 * What needs no partner key: the login page (the workbench), its files and its login (the token
 * is the secret), the health check and the OpenAPI document.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { LocalServices } from '../../backend/local-services.js';
import { openApiDocument } from '../../contract/openapi.js';
import { operation, type ApiOperation } from '../../contract/operations.js';
import { DpeSimError } from '../../contract/errors.js';
import type { HealthResponse, PageLoginRequest, ReadyResponse } from '../../contract/schemas.js';
import {
  ASSET_NAMES,
  LOGIN_PAGE_HEADERS,
  LOGIN_PAGE_HTML,
  LOGIN_PAGE_PATH,
  pageAsset,
} from '../login-page.js';
import { crossSiteReason, setSessionCookie } from '../session-cookie.js';
import { routeBase } from './route-options.js';
import { STORE_FULL_TEXT, STORE_READ_ONLY_TEXT } from '../error-body.js';

export interface PublicRoutesDeps {
  services: LocalServices;
  operations: readonly ApiOperation[];
  historyPath: string;
}

export function publicRoutes(deps: PublicRoutesDeps) {
  // built on the first request, once the server listens: `servers` names its address
  let openapi: string | undefined;
  return async (scope: FastifyInstance): Promise<void> => {
    scope.route({
      ...routeBase(operation(deps.operations, 'health')),
      handler: async (): Promise<HealthResponse> => ({ status: 'ok' }),
    });
    scope.route({
      ...routeBase(operation(deps.operations, 'ready')),
      handler: async (): Promise<ReadyResponse> => {
        await storeAnswers(deps.services);
        return { status: 'ready', checks: { store: 'ok' } };
      },
    });
    scope.get('/openapi.json', async (req, reply) => {
      openapi ??= JSON.stringify(
        openApiDocument({
          historyPath: deps.historyPath,
          ...listenUrl(req.server.server.address()),
        }),
      );
      return reply.type('application/json; charset=utf-8').send(openapi);
    });
    scope.get(LOGIN_PAGE_PATH, async (_req, reply) =>
      reply.headers(LOGIN_PAGE_HEADERS).send(LOGIN_PAGE_HTML),
    );
    for (const name of ASSET_NAMES) {
      scope.get(`/public/${name}`, async (_req, reply) => {
        const asset = await pageAsset(name);
        if (!asset) throw new Error(`no asset ${name}`);
        return reply.headers(asset.headers).send(asset.body);
      });
    }
    scope.route<{ Body: PageLoginRequest }>({
      ...routeBase(operation(deps.operations, 'pageLogin')),
      handler: async (req, reply) => {
        reply.header('cache-control', 'no-store');
        // a page of another site may not sign this browser in (login CSRF)
        const why = crossSiteReason(req, false);
        if (why) return reply.code(403).send({ error: why });
        const { body, sessionToken } = await deps.services.pageLogin(req.body.partnerToken);
        setSessionCookie(req, reply, sessionToken);
        return body;
      },
    });
  };
}

/** The address the server listens on, as a URL (`0.0.0.0` and `::` shown as 127.0.0.1). */
function listenUrl(address: string | AddressInfo | null): { serverUrl?: string } {
  if (address === null || typeof address === 'string') return {};
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? '127.0.0.1'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  return { serverUrl: `http://${host}:${address.port}` };
}

/** How long /ready waits for the store, ms: a hung database is "not ready", not a hung probe. */
const READY_TIMEOUT_MS = 2000;

/** Resolves when the store answers `SELECT 1` in time; a 503 (store-unavailable) otherwise. */
async function storeAnswers(services: LocalServices): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new DpeSimError(
            'busy',
            `the store did not answer within ${READY_TIMEOUT_MS / 1000} s; retry in 5 s`,
            { reason: 'store-unavailable', store: 'unknown', retryAfterSeconds: 5 },
          ),
        ),
      READY_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([
      (async () => {
        await services.store.ping();
        await services.store.canWrite().catch((err: unknown) => {
          throw cannotWrite(err);
        });
      })(),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A store that answers but cannot be written (a full disk, a read-only file system) is not
 * ready: a load balancer must stop sending it requests that would all fail. 503 with
 * Retry-After; the store's location stays in the operator's log.
 */
function cannotWrite(err: unknown): unknown {
  if (!(err instanceof DpeSimError)) return err;
  const reason = err.details?.reason;
  if (reason !== 'disk-full' && reason !== 'read-only') return err;
  const store = err.details?.store;
  const retryAfterSeconds = err.details?.retryAfterSeconds ?? 30;
  return new DpeSimError(
    'busy',
    `${reason === 'disk-full' ? STORE_FULL_TEXT : STORE_READ_ONLY_TEXT}; retry in ${String(retryAfterSeconds)} s`,
    { reason, store, retryAfterSeconds },
    { cause: err },
  );
}

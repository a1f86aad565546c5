/**
 * The HTTP face of the local backend: a fastify app with the partner API, the login page (the
 * workbench) and its session routes, the health check and the OpenAPI document. Requests are validated from the contract's schemas;
 * every error is the contract's error body.
 */
import { createServer } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import type { LocalServices } from '../backend/local-services.js';
import { apiOperations, partnerOperations } from '../contract/operations.js';
import { BODY_LIMIT_BYTES, sendError } from './error-body.js';
import { partnerRoutes } from './routes/partner-routes.js';
import { publicRoutes } from './routes/public-routes.js';
import { WORKBENCH_ROUTES, workbenchRoutes } from './routes/workbench-routes.js';
import { ASSET_NAMES } from './login-page.js';
import { contractValidatorCompiler } from './validation.js';
import { useJsonBodyParser } from './json-body.js';
import { DEFAULT_LIMITS, type ServerLimits } from './limits.js';
import { notFoundOrNotAllowed } from './method-not-allowed.js';
import {
  manageConnections,
  onProbeReserve,
  PROBE_PATHS,
  refusedOverCap,
  RESERVE_ONLY_FOR_PROBES,
  useRateLimit,
} from './fairness.js';

export interface AppDeps {
  /** the services every request runs on */
  services: LocalServices;
  historyPath: string;
  /** one line per request (method, route pattern, status, time; never keys or tokens) */
  accessLog?: (line: string) => void;
  /** where internal errors are reported (default: stderr) */
  errorLog?: (line: string) => void;
  /** timeouts and caps (default: DEFAULT_LIMITS, documented in the README) */
  limits?: Partial<ServerLimits>;
}

export function buildApp(deps: AppDeps): FastifyInstance {
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const errorLog = deps.errorLog ?? ((line: string) => process.stderr.write(`${line}\n`));
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    connectionTimeout: limits.connectionTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    routerOptions: { maxParamLength: limits.maxParamLength },
    // the router's own refusals (a path parameter too long: 414; a malformed URL: 400) get the
    // contract's error body too
    frameworkErrors: (err, req, reply) => sendError(err, req, reply, errorLog),
    // Node's own server, to set how often it checks the header and request timeouts
    serverFactory: (handler) => {
      const server = createServer(
        {
          headersTimeout: limits.headersTimeoutMs,
          requestTimeout: limits.requestTimeoutMs,
          keepAliveTimeout: limits.keepAliveTimeoutMs,
          connectionsCheckingInterval: limits.checkIntervalMs,
        },
        handler,
      );
      server.setTimeout(limits.connectionTimeoutMs);
      manageConnections(server, limits);
      return server;
    },
  });
  const operations = apiOperations(deps.historyPath);

  // a request that slipped in on a socket refused for too many connections is not handled
  app.addHook('onRequest', async (req, reply) => {
    if (refusedOverCap(req.socket)) return reply.hijack();
    // the idle-socket timer stops while the answer is prepared (an engine thread computing a
    // whole building, a turn in the engine queue, the registry's answer: the socket is silent
    // and the client waits); it runs again from the answer's first byte (`onSend`), against a
    // client that stops reading. Slow senders are cut by the header and request timeouts.
    req.raw.socket.setTimeout(0);
    if (onProbeReserve(req.socket)) {
      // a socket of the probes' reserve: closed after its one answer
      void reply.header('connection', 'close');
      if (!PROBE_PATHS.has(req.url.split('?')[0] ?? '')) {
        return reply
          .code(503)
          .header('retry-after', '1')
          .type('application/json; charset=utf-8')
          .send({
            error: RESERVE_ONLY_FOR_PROBES,
            errorObject: { reason: 'connection-limit', retryAfterSeconds: 1 },
          });
      }
    }
  });
  app.addHook('onSend', async (req, _reply, payload) => {
    req.raw.socket.setTimeout(limits.connectionTimeoutMs);
    return payload;
  });
  useRateLimit(app, limits); // before the routes: every route but /health and /ready
  useJsonBodyParser(app); // every body is JSON: anything else is a 415
  app.setValidatorCompiler<TSchema>(contractValidatorCompiler);
  app.setErrorHandler((err, req, reply) => sendError(err, req, reply, errorLog));
  app.setNotFoundHandler(
    notFoundOrNotAllowed([
      ...operations,
      { method: 'GET', path: '/openapi.json' },
      { method: 'GET', path: '/public/partnerLogin.html' },
      ...ASSET_NAMES.map((name) => ({ method: 'GET', path: `/public/${name}` })),
      ...WORKBENCH_ROUTES,
    ]),
  );
  const accessLog = deps.accessLog;
  if (accessLog) {
    app.addHook('onResponse', async (req, reply) => {
      accessLog(
        `${req.method} ${req.routeOptions.url ?? '(no route)'} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`,
      );
    });
  }

  void app.register(
    publicRoutes({ services: deps.services, operations, historyPath: deps.historyPath }),
  );
  void app.register(workbenchRoutes({ services: deps.services }));
  void app.register(
    partnerRoutes({ services: deps.services, operations: partnerOperations(deps.historyPath) }),
  );
  return app;
}

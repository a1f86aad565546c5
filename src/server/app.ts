/**
 * The HTTP face of the local backend: a fastify app with the partner API, the login page, the
 * health check and the OpenAPI document. Requests are validated from the contract's schemas;
 * every error is the contract's error body.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import type { LocalServices } from '../backend/local-services.js';
import { apiOperations, partnerOperations } from '../contract/operations.js';
import { BODY_LIMIT_BYTES, sendError } from './error-body.js';
import { partnerRoutes } from './routes/partner-routes.js';
import { publicRoutes } from './routes/public-routes.js';
import { contractValidatorCompiler } from './validation.js';

export interface AppDeps {
  /** the services every request runs on */
  services: LocalServices;
  historyPath: string;
  /** one line per request (method, route pattern, status, time; never keys or tokens) */
  accessLog?: (line: string) => void;
  /** where internal errors are reported (default: stderr) */
  errorLog?: (line: string) => void;
}

export function buildApp(deps: AppDeps): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  const errorLog = deps.errorLog ?? ((line: string) => process.stderr.write(`${line}\n`));
  const operations = apiOperations(deps.historyPath);

  app.removeContentTypeParser('text/plain'); // every body is JSON: anything else is a 415
  app.setValidatorCompiler<TSchema>(contractValidatorCompiler);
  app.setErrorHandler((err, req, reply) => sendError(err, req, reply, errorLog));
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({ error: `no such endpoint: ${req.method} ${req.url.split('?')[0]}` }),
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
  void app.register(
    partnerRoutes({ services: deps.services, operations: partnerOperations(deps.historyPath) }),
  );
  return app;
}

/**
 * The partner API (`/partners/...`): every request authenticates its partner key first (before
 * the body is even read), then runs on a LocalBackend that sees only that partner's
 * organisations, users, tokens and history.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LocalBackend, LocalServices } from '../../backend/local.js';
import { operation, type ApiOperation, type OperationId } from '../../contract/openapi.js';
import type {
  AuthRequest,
  CalcRequest,
  HistoryRequest,
  InitialRequest,
  PreRequest,
  TokenParams,
} from '../../contract/schemas.js';
import type { Partner } from '../../store/store.js';
import { authenticate } from '../partner-key.js';
import { checkDpeExists, checkWorks } from '../request-checks.js';
import { routeBase } from './route-options.js';

export interface PartnerRoutesDeps {
  services: () => LocalServices;
  operations: readonly ApiOperation[];
}

export function partnerRoutes(deps: PartnerRoutesDeps) {
  const partners = new WeakMap<FastifyRequest, Partner>();
  const backendOf = (req: FastifyRequest): LocalBackend => {
    const partner = partners.get(req);
    if (!partner) throw new Error('request without an authenticated partner');
    return deps.services().for(partner);
  };
  const base = (id: OperationId) => routeBase(operation(deps.operations, id));

  return async (scope: FastifyInstance): Promise<void> => {
    scope.addHook('onRequest', async (req) => {
      partners.set(req, await authenticate(deps.services().store, req.headers.authorization));
    });

    scope.route<{ Body: AuthRequest }>({
      ...base('auth'),
      handler: async (req) => {
        if (req.body.dpeId !== undefined) await checkDpeExists(deps.services(), req.body.dpeId);
        return backendOf(req).auth(req.body);
      },
    });
    scope.route<{ Params: TokenParams }>({
      ...base('tokenInfo'),
      handler: async (req) => backendOf(req).tokenInfo(req.params.partnerToken),
    });
    scope.route<{ Params: TokenParams }>({
      ...base('tokenLogin'),
      handler: async (req) => backendOf(req).tokenLogin(req.params.partnerToken),
    });
    scope.route<{ Body: PreRequest }>({
      ...base('pre'),
      handler: async (req) => backendOf(req).pre(req.body),
    });
    scope.route<{ Body: InitialRequest }>({
      ...base('initial'),
      handler: async (req) => backendOf(req).initial(req.body),
    });
    scope.route<{ Body: CalcRequest }>({
      ...base('calc'),
      handler: async (req) => {
        await checkWorks(deps.services(), req.body);
        return backendOf(req).calc(req.body);
      },
    });
    scope.route<{ Querystring: HistoryRequest }>({
      ...base('history'),
      handler: async (req) => backendOf(req).history(req.query),
    });
  };
}

/**
 * The partner API (`/partners/...`), one route per row of the operations table: every request
 * authenticates its partner key first (before the body is even read), then its one input (body,
 * query or path parameters, validated from the contract) goes to the operation's Backend method
 * on a LocalBackend that sees only that partner's organisations, users, tokens and history.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RunOptions } from '../../backend/backend.js';
import { LocalBackend } from '../../backend/local.js';
import { whileClientWaits } from '../client-gone.js';
import type { LocalServices } from '../../backend/local-services.js';
import type { ApiOperation, PartnerApi, PartnerOperationId } from '../../contract/operations.js';
import { partnerFromHeader } from '../partner-key.js';
import { routeBase } from './route-options.js';

export interface PartnerRoutesDeps {
  services: LocalServices;
  operations: readonly (ApiOperation & { id: PartnerOperationId })[];
}

type AnyInput = Parameters<PartnerApi[PartnerOperationId]>[0];

function inputOf(op: ApiOperation, req: FastifyRequest): AnyInput {
  const part = op.input === 'body' ? req.body : op.input === 'query' ? req.query : req.params;
  // validated against the operation's schema by the validator compiler before the handler runs
  return part as AnyInput;
}

export function partnerRoutes(deps: PartnerRoutesDeps) {
  const backends = new WeakMap<FastifyRequest, LocalBackend>();
  return async (scope: FastifyInstance): Promise<void> => {
    scope.addHook('onRequest', async (req) => {
      const partner = await partnerFromHeader(deps.services, req.headers.authorization);
      backends.set(req, new LocalBackend(deps.services, partner));
    });
    for (const op of deps.operations) {
      scope.route({
        ...routeBase(op),
        handler: async (req, reply) => {
          const backend = backends.get(req);
          if (!backend) throw new Error('request without an authenticated partner');
          const call = backend[op.id] as (input: AnyInput, opts: RunOptions) => Promise<unknown>;
          return whileClientWaits(reply, (signal) =>
            call.call(backend, inputOf(op, req), { signal }),
          );
        },
      });
    }
  };
}

/** A route's method, URL and validation schemas, taken from the contract's operation table. */
import type { FastifySchema, HTTPMethods } from 'fastify';
import type { ApiOperation } from '../../contract/operations.js';

export interface RouteBase {
  method: HTTPMethods;
  url: string;
  schema: FastifySchema;
}

/** `/partners/token/{partnerToken}` → `/partners/token/:partnerToken` */
export function routePath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

export function routeBase(op: ApiOperation): RouteBase {
  return {
    method: op.method,
    url: routePath(op.path),
    schema: {
      ...(op.body ? { body: op.body.schema } : {}),
      ...(op.query ? { querystring: op.query } : {}),
      ...(op.params ? { params: op.params } : {}),
    },
  };
}

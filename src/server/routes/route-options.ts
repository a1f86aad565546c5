/** A route's method, URL and validation schemas, taken from the contract's operation table. */
import type { FastifySchema, HTTPMethods } from 'fastify';
import { routePath, type ApiOperation } from '../../contract/openapi.js';

export interface RouteBase {
  method: HTTPMethods;
  url: string;
  schema: FastifySchema;
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

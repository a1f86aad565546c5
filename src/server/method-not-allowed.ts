/**
 * 405 for a known path called with the wrong method, with the `Allow` header listing the right
 * ones (RFC 9110 §15.5.6); 404 for a path the server does not have.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface KnownRoute {
  method: string;
  /** OpenAPI form: `/partners/token/{partnerToken}` */
  path: string;
}

function matcher(path: string): RegExp {
  const escaped = path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${escaped}/?$`);
}

export function notFoundOrNotAllowed(routes: readonly KnownRoute[]) {
  const compiled = routes.map((r) => ({ method: r.method.toUpperCase(), re: matcher(r.path) }));
  return (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0] ?? '';
    const methods = new Set(compiled.filter((r) => r.re.test(path)).map((r) => r.method));
    if (methods.size > 0) {
      if (methods.has('GET')) methods.add('HEAD');
      const allow = [...methods].sort().join(', ');
      return reply
        .code(405)
        .header('allow', allow)
        .type('application/json; charset=utf-8')
        .send({
          error: `method ${req.method} is not allowed on ${path}: use ${allow}`,
          errorObject: { allowed: [...methods].sort() },
        });
    }
    return reply
      .code(404)
      .type('application/json; charset=utf-8')
      .send({ error: `no such endpoint: ${req.method} ${path}` });
  };
}

/**
 * The workbench's session: the login token, used once, becomes a cookie holding the session's
 * secret (256 random bits; the store keeps only its hash). HttpOnly (no script reads it),
 * SameSite=Strict (no other site's page sends it), Path=/public/, Max-Age the session's life
 * (12 h, the store's expiry), Secure when the page is served over HTTPS. Every state-changing
 * request also has to come from a page of this server: its Origin header must be this
 * server's (a request without one is refused too: these routes serve the browser only).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_HOURS } from '../backend/local-services.js';

export const SESSION_COOKIE = 'dpesim_session';

/** The session secret of a request's cookies, if any. */
export function sessionCookie(req: FastifyRequest): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, secret: string): void {
  const attrs = [
    `${SESSION_COOKIE}=${secret}`,
    'Path=/public/',
    `Max-Age=${SESSION_HOURS * 3600}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(req.protocol === 'https' ? ['Secure'] : []),
  ];
  reply.header('set-cookie', attrs.join('; '));
}

/** This server's origin as a browser names it (`http://127.0.0.1:8787`). */
function ownOrigin(req: FastifyRequest): string | undefined {
  const host = req.headers.host;
  return host ? `${req.protocol}://${host}` : undefined;
}

/**
 * Why a request must not change state, or undefined when it may: its Origin must be this
 * server's. `required`: a request without Origin is refused too (the session routes); the
 * login (`POST /public/api/login`, also called by tools) refuses only another origin.
 */
export function crossSiteReason(req: FastifyRequest, required: boolean): string | undefined {
  const origin = req.headers.origin;
  if (origin === undefined) {
    return required
      ? 'this request has no Origin header: only the workbench page may send it'
      : undefined;
  }
  if (origin !== ownOrigin(req)) {
    return `a request from another site (${origin.slice(0, 100)}) is refused`;
  }
  return undefined;
}

/**
 * One client cannot starve the others: at most `maxConnectionsPerAddress` open sockets per
 * client address (a connection beyond is answered 429 with Retry-After and closed at once, before
 * any request is read, so a client that reconnects in a loop holds at most that many sockets of
 * the server's `maxConnections`), and at most `rateLimitMax` requests per address and window
 * (@fastify/rate-limit: 429 with Retry-After). `/health` and `/ready` are not rate-limited: a
 * load balancer probes them often.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { ServerLimits } from './limits.js';

/** Seconds a client turned away for too many connections should wait. */
const CONNECTION_RETRY_AFTER_SECONDS = 1;

function tooManyConnections(cap: number): string {
  const body = JSON.stringify({
    error: `too many connections from this address: at most ${cap} at once; retry in ${CONNECTION_RETRY_AFTER_SECONDS} s`,
    errorObject: { reason: 'too-many-connections', limit: cap },
  });
  return [
    'HTTP/1.1 429 Too Many Requests',
    `Retry-After: ${CONNECTION_RETRY_AFTER_SECONDS}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Caps the sockets per client address on `server` (before the HTTP parser sees them). */
export function capConnectionsPerAddress(server: Server, cap: number): void {
  if (cap <= 0) return;
  const open = new Map<string, number>();
  const answer = tooManyConnections(cap);
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '?';
    const count = open.get(address) ?? 0;
    if (count >= cap) {
      // written at once (a few hundred bytes go to the kernel's buffer), then closed: the
      // socket never holds a place for long, and no request on it reaches a route
      socket.on('error', () => {});
      socket.end(answer);
      socket.destroySoon();
      (socket as Socket & { refusedOverCap?: boolean }).refusedOverCap = true;
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/** A request on a socket refused for too many connections is not handled (see above). */
export function refusedOverCap(socket: Socket): boolean {
  return (socket as Socket & { refusedOverCap?: boolean }).refusedOverCap === true;
}

const UNLIMITED_PATHS = new Set(['/health', '/ready']);

/** The request rate limit per client address (429 with Retry-After, in the contract's body). */
export function useRateLimit(app: FastifyInstance, limits: ServerLimits): void {
  if (limits.rateLimitMax <= 0) return;
  void app.register(rateLimit, {
    global: true,
    max: limits.rateLimitMax,
    timeWindow: limits.rateLimitWindowMs,
    allowList: (req) => UNLIMITED_PATHS.has(req.url.split('?')[0] ?? ''),
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    errorResponseBuilder: (_req, context) =>
      Object.assign(
        new Error(
          `too many requests from this address: at most ${context.max} every ${Math.round(limits.rateLimitWindowMs / 1000)} s; retry in ${Math.max(1, Math.ceil(context.ttl / 1000))} s`,
        ),
        { statusCode: 429, code: 'DPE_SIM_RATE_LIMITED', limit: context.max },
      ),
  });
}

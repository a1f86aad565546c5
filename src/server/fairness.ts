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

type ManagedSocket = Socket & {
  refusedOverCap?: boolean;
  /** admitted beyond `maxConnections`, for /health and /ready only */
  probeReserve?: boolean;
  /** closes a reserve socket whose request headers are late */
  reserveTimer?: NodeJS.Timeout;
  /** requests on this socket being answered (a socket in a request is never evicted) */
  inRequest?: number;
  /** gives its place back (once) */
  release?: () => void;
};

/** The open sockets of each client address, oldest first. */
class ByAddress {
  private readonly sockets = new Map<string, Set<ManagedSocket>>();
  count(address: string): number {
    return this.sockets.get(address)?.size ?? 0;
  }
  add(address: string, socket: ManagedSocket): void {
    let set = this.sockets.get(address);
    if (!set) this.sockets.set(address, (set = new Set()));
    set.add(socket);
  }
  remove(address: string, socket: ManagedSocket): void {
    const set = this.sockets.get(address);
    set?.delete(socket);
    if (set?.size === 0) this.sockets.delete(address);
  }
  /**
   * The oldest socket not in a request (still sending its headers, or an idle keep-alive) of
   * the address holding the most sockets, when that address holds at least `atLeast`.
   */
  evictable(atLeast: number): ManagedSocket | undefined {
    let most: Set<ManagedSocket> | undefined;
    for (const set of this.sockets.values()) if (!most || set.size > most.size) most = set;
    if (!most || most.size < atLeast) return undefined;
    for (const s of most) if (!s.inRequest) return s;
    return undefined;
  }
}

function refuse(socket: ManagedSocket, answer: string | undefined): void {
  socket.on('error', () => {});
  socket.refusedOverCap = true;
  // written at once (a few hundred bytes go to the kernel's buffer), then closed: the socket
  // never holds a place for long, and no request on it reaches a route
  if (answer) socket.end(answer);
  socket.destroySoon();
}

/**
 * The sockets of `server`, before the HTTP parser sees them:
 * - at most `maxConnectionsPerAddress` open from one client address (beyond: 429 and closed);
 * - at most `maxConnections` in all for any request. When they are all open, a newcomer from an
 *   address holding fewer than the busiest address (by two or more) takes the place of that
 *   address's oldest socket that is not in a request (still sending its headers, or idle):
 *   slow-header clients from a few addresses cannot keep the others out;
 * - beyond that, a reserve of `probeReserve` sockets for `/health` and `/ready` only (any
 *   other request on them is a 503 with Retry-After), at most `probeReservePerAddress` from one
 *   address, each closed unless its request's headers arrive within `probeReserveHeadersMs`,
 *   so a load balancer's probes get through a server whose sockets all compute;
 * - beyond the reserve, closed at once.
 */
export function manageConnections(server: Server, limits: ServerLimits): void {
  const cap = limits.maxConnectionsPerAddress;
  const general = new ByAddress();
  const reserveByAddress = new ByAddress();
  let generalOpen = 0;
  let reserveOpen = 0;
  const tooMany = cap > 0 ? tooManyConnections(cap) : undefined;
  // not Node's own bound (server.maxConnections): it counts the sockets being refused too, and
  // drops a probe at accept, before this listener can let it through
  server.prependListener(
    'request',
    (req: { socket: ManagedSocket }, res: { once(e: 'close', f: () => void): void }) => {
      const socket = req.socket;
      if (socket.reserveTimer) clearTimeout(socket.reserveTimer);
      socket.inRequest = (socket.inRequest ?? 0) + 1;
      res.once('close', () => {
        socket.inRequest = (socket.inRequest ?? 1) - 1;
      });
    },
  );
  const admit = (socket: ManagedSocket, address: string) => {
    generalOpen++;
    general.add(address, socket);
    let released = false;
    socket.release = () => {
      if (released) return;
      released = true;
      generalOpen--;
      general.remove(address, socket);
    };
    socket.once('close', socket.release);
  };
  server.prependListener('connection', (raw: Socket) => {
    const socket = raw as ManagedSocket;
    const address = socket.remoteAddress ?? '?';
    const held = general.count(address) + reserveByAddress.count(address);
    if (cap > 0 && held >= cap) return refuse(socket, tooMany);
    if (generalOpen < limits.maxConnections) return admit(socket, address);
    const victim = general.evictable(general.count(address) + 2);
    if (victim) {
      // its place is free now ('close' comes later)
      victim.release?.();
      victim.destroy();
      return admit(socket, address);
    }
    if (
      reserveOpen >= limits.probeReserve ||
      reserveByAddress.count(address) >= limits.probeReservePerAddress
    )
      return refuse(socket, undefined);
    reserveOpen++;
    reserveByAddress.add(address, socket);
    socket.probeReserve = true;
    socket.reserveTimer = setTimeout(() => socket.destroy(), limits.probeReserveHeadersMs);
    socket.reserveTimer.unref();
    socket.once('close', () => {
      clearTimeout(socket.reserveTimer);
      reserveOpen--;
      reserveByAddress.remove(address, socket);
    });
  });
}

/** A request on a socket refused for too many connections is not handled (see above). */
export function refusedOverCap(socket: Socket): boolean {
  return (socket as ManagedSocket).refusedOverCap === true;
}

/** A socket of the probes' reserve: it serves /health and /ready, and is closed after. */
export function onProbeReserve(socket: Socket): boolean {
  return (socket as ManagedSocket).probeReserve === true;
}

/** The answer on a reserve socket to anything but the probes. */
export const RESERVE_ONLY_FOR_PROBES = `the server is at its connection limit: this connection serves only /health and /ready; retry in ${CONNECTION_RETRY_AFTER_SECONDS} s`;

export const PROBE_PATHS: ReadonlySet<string> = new Set(['/health', '/ready']);

/** The request rate limit per client address (429 with Retry-After, in the contract's body). */
export function useRateLimit(app: FastifyInstance, limits: ServerLimits): void {
  if (limits.rateLimitMax <= 0) return;
  void app.register(rateLimit, {
    global: true,
    max: limits.rateLimitMax,
    timeWindow: limits.rateLimitWindowMs,
    allowList: (req) => PROBE_PATHS.has(req.url.split('?')[0] ?? ''),
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

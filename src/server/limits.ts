/**
 * The server's limits, in one place: what `serve` enforces, what the OpenAPI document and the
 * README state. A client that sends its headers or its body too slowly is cut within about 10 s;
 * at most `maxConnections` sockets are open at once (beyond: the busiest address's oldest idle
 * socket gives way, then a reserve for the probes, then refused at accept: fairness.ts), at most
 * `maxConnectionsPerAddress` from one client address, which may send at most `rateLimitMax`
 * requests a minute (docs/server-limits.md).
 */
import { TOKEN_MAX_LENGTH } from '../contract/schemas.js';

export interface ServerLimits {
  /** the request headers must arrive within this time (Node `headersTimeout`), ms */
  headersTimeoutMs: number;
  /** the whole request must arrive within this time (Node `requestTimeout`), ms */
  requestTimeoutMs: number;
  /**
   * a socket with no traffic for this long is closed (fastify `connectionTimeout`), ms. It stops
   * while an answer is prepared (app.ts: an engine thread computing, a turn in the engine queue,
   * the registry's answer) and runs again from the answer's first byte, against a client that
   * stops reading; slow senders are cut by the two timeouts above.
   */
  connectionTimeoutMs: number;
  /** an idle keep-alive socket is closed after this long, ms */
  keepAliveTimeoutMs: number;
  /** how often Node checks the two timeouts above, ms (its default, 30 s, is too coarse) */
  checkIntervalMs: number;
  /** open sockets at once for any request (counted by fairness.ts, not Node's maxConnections) */
  maxConnections: number;
  /** longest path parameter (a login token) before fastify answers 414 */
  maxParamLength: number;
  /**
   * open sockets at once from one client address; a connection beyond is answered 429 with
   * Retry-After and closed at once (0: no cap). Keeps one client from filling `maxConnections`.
   */
  maxConnectionsPerAddress: number;
  /**
   * sockets accepted beyond `maxConnections` for `/health` and `/ready` only (any other request
   * on them: 503 with Retry-After), so that probes get through a server whose sockets are all
   * taken (by slow-header clients from many addresses, or by real load)
   */
  probeReserve: number;
  /** reserve sockets from one client address at once */
  probeReservePerAddress: number;
  /** a reserve socket whose request headers have not arrived within this time is closed, ms */
  probeReserveHeadersMs: number;
  /** requests per client address per `rateLimitWindowMs`; beyond, 429 with Retry-After (0: off).
   * `/health` and `/ready` are not counted. */
  rateLimitMax: number;
  /** the window of `rateLimitMax`, ms */
  rateLimitWindowMs: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  connectionTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
  maxConnections: 512,
  // above the token's maxLength (200), so a 201–256 character token gets the schema's 400 and
  // only a longer one the router's 414
  maxParamLength: Math.max(256, TOKEN_MAX_LENGTH),
  maxConnectionsPerAddress: 128,
  probeReserve: 32,
  probeReservePerAddress: 4,
  probeReserveHeadersMs: 2000,
  rateLimitMax: 6000,
  rateLimitWindowMs: 60_000,
};

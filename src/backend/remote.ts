/**
 * The remote backend: the partner API over HTTP (Node's fetch). Timeout per attempt, retries on
 * network errors and 429/502/503/504 with exponential backoff and jitter (honouring
 * Retry-After), response bodies checked against the contract.
 */
import type { TSchema, Static } from 'typebox';
import { DpeSimError, kindForStatus } from '../contract/errors.js';
import {
  AuthResponse,
  CalcResponse,
  ErrorBody,
  HistoryResponse,
  InitialResponse,
  PreResponse,
  TokenInfoResponse,
  TokenLoginResponse,
  type AuthRequest,
  type CalcRequest,
  type HistoryRequest,
  type InitialRequest,
  type PreRequest,
} from '../contract/schemas.js';
import { isValid, parseBody } from '../contract/validate.js';
import type { Backend } from './backend.js';

export interface RemoteOptions {
  baseUrl: string;
  partnerKey: string;
  timeoutMs: number;
  /** extra attempts after the first */
  retries: number;
  historyPath: string;
  /** base delay of the backoff, ms */
  backoffMs?: number;
  fetch?: typeof fetch;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_DELAY_MS = 30_000;

export class RemoteBackend implements Backend {
  readonly kind = 'remote' as const;
  /** attempts made by the last request (for batch reports) */
  lastAttempts = 0;
  private readonly base: string;

  constructor(private readonly opts: RemoteOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
  }

  auth(req: AuthRequest) {
    return this.call('POST', '/partners/user/auth', AuthResponse, req);
  }
  pre(req: PreRequest) {
    return this.call('POST', '/partners/dpe/pre', PreResponse, req);
  }
  initial(req: InitialRequest) {
    return this.call('POST', '/partners/dpe/initial', InitialResponse, req);
  }
  calc(req: CalcRequest) {
    return this.call('POST', '/partners/dpe/calc', CalcResponse, req);
  }
  history(req: HistoryRequest) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(req)) if (v !== undefined) q.set(k, String(v));
    const qs = q.toString();
    return this.call('GET', `${this.opts.historyPath}${qs ? `?${qs}` : ''}`, HistoryResponse);
  }
  tokenInfo(token: string) {
    return this.call('GET', `/partners/token/${encodeURIComponent(token)}`, TokenInfoResponse);
  }
  tokenLogin(token: string) {
    return this.call(
      'GET',
      `/partners/tokenLogin/${encodeURIComponent(token)}`,
      TokenLoginResponse,
    );
  }
  async close(): Promise<void> {}

  private async call<T extends TSchema>(
    method: 'GET' | 'POST',
    path: string,
    schema: T,
    body?: unknown,
  ): Promise<Static<T>> {
    const url = `${this.base}${path}`;
    const doFetch = this.opts.fetch ?? fetch;
    let attempt = 0;
    for (;;) {
      attempt++;
      this.lastAttempts = attempt;
      let res: Response;
      try {
        res = await doFetch(url, {
          method,
          headers: {
            authorization: `Bearer ${this.opts.partnerKey}`,
            accept: 'application/json',
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(this.opts.timeoutMs),
        });
      } catch (err) {
        const reason = describeNetworkError(err, this.opts.timeoutMs);
        if (attempt <= this.opts.retries) {
          await sleep(this.backoff(attempt, undefined));
          continue;
        }
        throw new DpeSimError(
          'runtime',
          `cannot reach ${this.base}: ${reason} (after ${attempt} attempt${attempt > 1 ? 's' : ''})`,
        );
      }
      if (RETRY_STATUSES.has(res.status) && attempt <= this.opts.retries) {
        await res.body?.cancel();
        await sleep(this.backoff(attempt, res.headers.get('retry-after')));
        continue;
      }
      const payload = await readJson(res);
      if (!res.ok) {
        const message = isValid(ErrorBody, payload)
          ? payload.error
          : `HTTP ${res.status} ${res.statusText}`;
        const kind = kindForStatus(res.status);
        throw new DpeSimError(
          kind,
          res.status === 401 ? `authentication failed: ${message}` : message,
          {
            status: res.status,
            ...(isValid(ErrorBody, payload) && payload.errorObject
              ? { errorObject: payload.errorObject }
              : {}),
          },
        );
      }
      try {
        return parseBody(schema, payload, 'response');
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        throw new DpeSimError(
          'runtime',
          `the service's response does not match the contract: ${why}`,
        );
      }
    }
  }

  /** Exponential backoff with full jitter; Retry-After (seconds or HTTP date) wins when given. */
  private backoff(attempt: number, retryAfter: string | null | undefined): number {
    if (retryAfter) {
      const secs = Number(retryAfter);
      if (Number.isFinite(secs) && secs >= 0) return Math.min(secs * 1000, MAX_DELAY_MS);
      const date = Date.parse(retryAfter);
      if (!Number.isNaN(date)) return Math.min(Math.max(0, date - Date.now()), MAX_DELAY_MS);
    }
    const base = this.opts.backoffMs ?? 250;
    const cap = Math.min(base * 2 ** (attempt - 1), MAX_DELAY_MS);
    return cap / 2 + Math.random() * (cap / 2);
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    if (res.ok)
      throw new DpeSimError(
        'runtime',
        `the service answered HTTP ${res.status} with a body that is not JSON`,
      );
    return undefined;
  }
}

function describeNetworkError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError')
      return `no answer within ${timeoutMs / 1000} s`;
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code) return cause.code;
    return cause?.message ?? err.message;
  }
  return String(err);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * The remote backend: the partner API over HTTP (Node's fetch). Timeout per attempt, retries on
 * network errors and 429/502/503/504 with exponential backoff and jitter (honouring
 * Retry-After), response bodies checked against the contract. A timeout is retried only on an
 * operation that is a lookup (`repeatable`): the others are being computed on the server, and
 * sending them again would only queue the same work behind itself.
 */
import type { TSchema, Static } from 'typebox';
import { DpeSimError, kindForStatus } from '../contract/errors.js';
import {
  partnerOperations,
  type ApiOperation,
  type PartnerApi,
  type PartnerOperationId,
} from '../contract/operations.js';
import type { AuditRequest } from '../contract/audit.js';
import {
  ErrorBody,
  type AuthRequest,
  type CalcRequest,
  type HistoryRequest,
  type InitialRequest,
  type PreRequest,
  type TokenParams,
} from '../contract/schemas.js';
import type { SpecAutoSolution } from '../contract/spec-responses.js';
import { isValid, parseBody } from '../contract/validate.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeNetworkError, isTimeout, retryDelayMs } from '../registry/retry.js';
import { pickScenario, type Backend, type RunOptions } from './backend.js';

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

type Input<K extends PartnerOperationId> = Parameters<PartnerApi[K]>[0];
type Output<K extends PartnerOperationId> = Awaited<ReturnType<PartnerApi[K]>>;

export class RemoteBackend implements Backend {
  readonly kind = 'remote' as const;
  /** attempts made by the last request (for batch reports) */
  lastAttempts = 0;
  private readonly base: string;
  private readonly operations: Map<PartnerOperationId, ApiOperation>;

  constructor(private readonly opts: RemoteOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.operations = new Map(partnerOperations(opts.historyPath).map((op) => [op.id, op]));
  }

  auth(req: AuthRequest) {
    return this.invoke('auth', req);
  }
  tokenInfo(req: TokenParams) {
    return this.invoke('tokenInfo', req);
  }
  tokenLogin(req: TokenParams) {
    return this.invoke('tokenLogin', req);
  }
  pre(req: PreRequest) {
    return this.invoke('pre', req);
  }
  /** progress is not reported by a remote service */
  initial(req: InitialRequest, _opts?: RunOptions) {
    return this.invoke('initial', req);
  }
  calc(req: CalcRequest) {
    return this.invoke('calc', req);
  }
  history(req: HistoryRequest) {
    return this.invoke('history', req);
  }
  /**
   * `POST /dpe-sim/audit`: a dpe-sim extension, not in the spec. A dpe-sim server answers it; any
   * other service answers 404 or 405 without dpe-sim's typed details: a clear error then.
   */
  async audit(req: AuditRequest, _opts?: RunOptions) {
    try {
      return await this.invoke('audit', req);
    } catch (err) {
      const status = err instanceof DpeSimError ? err.details?.status : undefined;
      const typed = err instanceof DpeSimError && err.details?.reason !== undefined;
      if ((status === 404 || status === 405 || status === 501) && !typed)
        throw new DpeSimError(
          'invalid-input',
          `${this.base} has no audit operation: the audit is a dpe-sim extension (POST /dpe-sim/audit), not in the partner spec; use the local backend, or a 'dpe-sim serve' server as the remote (HTTP ${status})`,
          { reason: 'no-audit', status },
        );
      throw err;
    }
  }

  async openDpe(): Promise<string> {
    throw new DpeSimError(
      'invalid-input',
      'a DPE file works only with the local backend; the remote service knows DPEs by registry number',
      { reason: 'unknown-dpe' },
    );
  }

  async recommendedScenario(req: InitialRequest, n: number): Promise<SpecAutoSolution> {
    return pickScenario((await this.initial(req)).autoSolutions, n);
  }

  previewInitial(req: InitialRequest) {
    return this.initial(req);
  }
  previewCalc(req: CalcRequest) {
    return this.calc(req);
  }

  async close(): Promise<void> {}

  /** One operation of the table: its method, its path (with path parameters), query or body. */
  private async invoke<K extends PartnerOperationId>(id: K, input: Input<K>): Promise<Output<K>> {
    const op = this.operations.get(id);
    if (!op) throw new Error(`no operation ${id}`);
    const fields = input as unknown as Record<string, unknown>;
    let path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(String(fields[name] ?? '')),
    );
    if (op.input === 'query') {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) q.set(k, String(v));
      const qs = q.toString();
      if (qs) path += `?${qs}`;
    }
    const body = op.input === 'body' ? input : undefined;
    return (await this.call(op, path, op.specResponse, body)) as Output<K>;
  }

  private async call<T extends TSchema>(
    op: ApiOperation,
    path: string,
    schema: T,
    body?: unknown,
  ): Promise<Static<T>> {
    const method = op.method;
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
        if (isTimeout(err) && !op.repeatable)
          throw new DpeSimError(
            'runtime',
            `${this.base} gave no answer within ${this.opts.timeoutMs / 1000} s to ${op.method} ${op.path}; not sent again, since the service may still be computing it`,
            {
              reason: 'no-answer',
              timeoutSeconds: this.opts.timeoutMs / 1000,
              hint: 'wait longer with --timeout SECONDS; a run the service finishes meanwhile shows in dpe-sim history',
            },
          );
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
      let payload: unknown;
      try {
        payload = await readJson(res);
      } catch (err) {
        if (err instanceof DpeSimError) throw err;
        // the answer began and stopped: too slow (the same timeout) or the connection cut
        throw new DpeSimError(
          'runtime',
          `${this.base} began its answer to ${op.method} ${op.path} (HTTP ${res.status}) and did not finish it: ${isTimeout(err) ? `not all of it within ${this.opts.timeoutMs / 1000} s` : 'the connection was closed'}`,
          isTimeout(err)
            ? { reason: 'no-answer', timeoutSeconds: this.opts.timeoutMs / 1000 }
            : undefined,
        );
      }
      if (!res.ok) {
        const message = isValid(ErrorBody, payload)
          ? payload.error
          : `HTTP ${res.status} ${res.statusText}`;
        const kind = kindForStatus(res.status);
        throw new DpeSimError(
          kind,
          res.status === 401 ? `authentication failed: ${message}` : message,
          {
            // the service's typed details (reason, field, allowed values...), as the local ones
            ...(isValid(ErrorBody, payload) && payload.errorObject ? payload.errorObject : {}),
            status: res.status,
          },
        );
      }
      try {
        return parseBody(schema, payload, 'response');
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        throw new DpeSimError('runtime', `the service's response does not match the spec: ${why}`);
      }
    }
  }

  /** Exponential backoff with jitter, Retry-After honoured: the same policy as the registry. */
  private backoff(attempt: number, retryAfter: string | null | undefined): number {
    return retryDelayMs(attempt, this.opts.backoffMs ?? 250, retryAfter);
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

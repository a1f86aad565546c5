/**
 * The national registry's client: one DPE's XML by number, over the platform's fetch (undici),
 * with a timeout per attempt, retries with exponential backoff and jitter on network errors,
 * 429 and 5xx (honouring Retry-After), a User-Agent naming dpe-sim, and the answer checked
 * before it is handed on.
 */
import { MAX_DPE_XML_BYTES } from '../contract/constants.js';
import { DpeSimError, xmlTooLarge } from '../contract/errors.js';
import { checkDpeDocument, rejectedAnswer } from './check.js';
import { setTimeout as realSleep } from 'node:timers/promises';
import { describeNetworkError, isRetryableStatus, isTimeout, retryDelayMs } from './retry.js';
import { USER_AGENT } from './user-agent.js';

/** The registry's address for one DPE, `{numero}` standing for the number. */
export const DEFAULT_REGISTRY_URL = 'https://observatoire-dpe-audit.ademe.fr/pub/dpe/{numero}/xml';

export interface RegistryClientOptions {
  /** a URL with `{numero}`, or a base to which `/<numero>/xml` is appended */
  url: string;
  /** per attempt */
  timeoutMs: number;
  /** extra attempts after the first */
  retries: number;
  /** first backoff delay; doubles each attempt */
  backoffMs: number;
  userAgent?: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * After the registry could not be reached at all (no connection, no DNS answer, no answer in
 * time, on every attempt), how long every other lookup fails at once rather than trying again:
 * a server then answers its other requests for unknown numbers in milliseconds, with
 * `Retry-After`, instead of each waiting out its own retries (60 at once: 43 s before).
 */
export const REGISTRY_COOLDOWN_MS = 10_000;

/** What to do when a DPE is in no local place and the registry cannot give it. */
export const REGISTRY_UNREACHABLE_HINT =
  'the DPE is neither in the DPE directory (--dpe-dir DIR) nor in the cache: give its XML file, put it in a --dpe-dir folder, or run `dpe-sim cache fetch` once the registry answers; --offline never asks the registry';

export interface RegistryDocument {
  dpeId: string;
  xml: string;
  url: string;
  attempts: number;
}

/** The address of one DPE: `{numero}` replaced, else `<base>/<numero>/xml`. */
export function registryUrlFor(template: string, dpeId: string): string {
  if (template.includes('{numero}'))
    return template.split('{numero}').join(encodeURIComponent(dpeId));
  return `${template.replace(/\/+$/, '')}/${encodeURIComponent(dpeId)}/xml`;
}

export class RegistryClient {
  /** until when (ms since epoch) the registry is taken as unreachable, and why */
  private unreachable: { until: number; cause: string; timedOut: boolean } | undefined;

  constructor(readonly opts: RegistryClientOptions) {}

  /** The failure every lookup gets at once while the registry is taken as unreachable. */
  private stillUnreachable(dpeId: string, url: string): DpeSimError | undefined {
    const down = this.unreachable;
    if (!down) return undefined;
    const left = down.until - Date.now();
    if (left <= 0) return undefined;
    const retryAfterSeconds = Math.max(1, Math.ceil(left / 1000));
    return new DpeSimError(
      'runtime',
      `cannot fetch DPE ${dpeId} from the registry ${url}: the registry did not answer the last lookup (${down.cause}); retry in ${retryAfterSeconds} s`,
      {
        reason: 'registry-unreachable',
        dpeId,
        registryUrl: url,
        cause: down.cause,
        attempts: 0,
        timedOut: down.timedOut,
        retryAfterSeconds,
        hint: REGISTRY_UNREACHABLE_HINT,
      },
    );
  }

  get description(): string {
    return registryUrlFor(this.opts.url, 'NUMERO').replace('NUMERO', '<numero>');
  }

  async fetchDpe(dpeId: string): Promise<RegistryDocument> {
    const url = registryUrlFor(this.opts.url, dpeId);
    const doFetch = this.opts.fetch ?? fetch;
    const wait = this.opts.sleep ?? realSleep;
    const maxAttempts = this.opts.retries + 1;
    const down = this.stillUnreachable(dpeId, url);
    if (down) throw down;
    let cause = '';
    let status: number | undefined;
    let timedOut = false;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let retryAfter: string | null = null;
      try {
        const res = await doFetch(url, {
          headers: {
            'user-agent': this.opts.userAgent ?? USER_AGENT,
            accept: 'application/xml, text/xml;q=0.9, */*;q=0.1',
          },
          redirect: 'follow',
          signal: AbortSignal.timeout(this.opts.timeoutMs),
        });
        status = res.status;
        if (res.status === 404 || res.status === 410) {
          await res.body?.cancel();
          throw new DpeSimError(
            'not-found',
            `DPE ${dpeId} is unknown to the registry (${url} answered HTTP ${res.status})`,
            { reason: 'unknown-dpe', dpeId, registryUrl: url, status: res.status },
          );
        }
        if (isRetryableStatus(res.status)) {
          await res.body?.cancel();
          cause = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
          retryAfter = res.headers.get('retry-after');
        } else if (!res.ok) {
          await res.body?.cancel();
          throw new DpeSimError(
            'runtime',
            `cannot fetch DPE ${dpeId} from the registry ${url}: HTTP ${res.status}`,
            { dpeId, registryUrl: url, status: res.status, attempts: attempt },
          );
        } else {
          // the body is read under the same timeout: a stalled transfer is a network failure
          const body = await readLimited(res, dpeId, url);
          const check = checkDpeDocument(dpeId, body, res.headers.get('content-type'));
          if (!check.ok) throw rejectedAnswer(dpeId, url, check);
          return { dpeId, xml: body, url, attempts: attempt };
        }
      } catch (err) {
        if (err instanceof DpeSimError) throw err;
        status = undefined;
        cause = describeNetworkError(err, this.opts.timeoutMs);
        timedOut = isTimeout(err);
      }
      if (attempt < maxAttempts) await wait(retryDelayMs(attempt, this.opts.backoffMs, retryAfter));
    }
    // no HTTP answer at all (no connection, no DNS answer, no answer in time): the registry is
    // unreachable for every number, not for this one only
    if (status === undefined) {
      this.unreachable = { until: Date.now() + REGISTRY_COOLDOWN_MS, cause, timedOut };
    }
    throw new DpeSimError(
      'runtime',
      `cannot fetch DPE ${dpeId} from the registry ${url}: ${cause} (after ${maxAttempts} attempt${maxAttempts > 1 ? 's' : ''})`,
      {
        reason: 'registry-unreachable',
        dpeId,
        registryUrl: url,
        cause,
        attempts: maxAttempts,
        timedOut,
        retryAfterSeconds: status === undefined ? REGISTRY_COOLDOWN_MS / 1000 : 5,
        hint: REGISTRY_UNREACHABLE_HINT,
        ...(status !== undefined ? { status } : {}),
      },
    );
  }
}

/**
 * The answer's body, refused (`too-large`, exit 2, never retried) once it passes the DPE XML
 * limit: at once from its Content-Length, else as soon as the bytes read pass it.
 */
async function readLimited(res: Response, dpeId: string, url: string): Promise<string> {
  const what = `the registry's answer for DPE ${dpeId} (${url})`;
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > MAX_DPE_XML_BYTES) {
    await res.body?.cancel();
    throw xmlTooLarge(what, declared, MAX_DPE_XML_BYTES);
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    // leaving the loop cancels the stream: the rest is never downloaded
    if (size > MAX_DPE_XML_BYTES) throw xmlTooLarge(what, size, MAX_DPE_XML_BYTES, true);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

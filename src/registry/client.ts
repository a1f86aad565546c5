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
import { isRetryableStatus, retryDelayMs } from './retry.js';
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
  constructor(readonly opts: RegistryClientOptions) {}

  get description(): string {
    return registryUrlFor(this.opts.url, 'NUMERO').replace('NUMERO', '<numero>');
  }

  async fetchDpe(dpeId: string): Promise<RegistryDocument> {
    const url = registryUrlFor(this.opts.url, dpeId);
    const doFetch = this.opts.fetch ?? fetch;
    const wait = this.opts.sleep ?? realSleep;
    const maxAttempts = this.opts.retries + 1;
    let cause = '';
    let status: number | undefined;
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
      }
      if (attempt < maxAttempts) await wait(retryDelayMs(attempt, this.opts.backoffMs, retryAfter));
    }
    throw new DpeSimError(
      'runtime',
      `cannot fetch DPE ${dpeId} from the registry ${url}: ${cause} (after ${maxAttempts} attempt${maxAttempts > 1 ? 's' : ''})`,
      {
        dpeId,
        registryUrl: url,
        cause,
        attempts: maxAttempts,
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

/**
 * When to try an HTTP request again, and how to name a failed one (the registry client and the
 * remote backend): exponential backoff with jitter, `Retry-After` (seconds or an HTTP date)
 * honoured. Pure, so the delays are tested without waiting.
 */

/**
 * The longest timeout a user may set, s: one day. Beyond 2^31 − 1 ms Node's timers fire at once
 * (a `TimeoutOverflowWarning`, the wait set to 1 ms), so a larger number would mean no wait.
 */
export const MAX_TIMEOUT_SECONDS = 86_400;

/** A timeout a user set, in seconds: a finite number above 0, at most MAX_TIMEOUT_SECONDS. */
export function isTimeoutSeconds(n: number): boolean {
  return Number.isFinite(n) && n > 0 && n <= MAX_TIMEOUT_SECONDS;
}

/** longest wait between two attempts, whatever the backoff or Retry-After say */
export const MAX_RETRY_DELAY_MS = 60_000;

/** HTTP statuses worth another attempt: too many requests, and server-side failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1): `base · 2^(attempt-1)`,
 * halved-to-full jitter, capped; a `Retry-After` header, when given and valid, wins over the
 * backoff when it asks for longer.
 */
export function retryDelayMs(
  attempt: number,
  baseMs: number,
  retryAfter: string | null | undefined,
  now: number = Date.now(),
  random: () => number = Math.random,
): number {
  const cap = Math.min(baseMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
  const backoff = cap / 2 + random() * (cap / 2);
  const asked = retryAfterMs(retryAfter, now);
  return asked === undefined ? backoff : Math.min(Math.max(asked, backoff), MAX_RETRY_DELAY_MS);
}

/** A `Retry-After` header in ms: delta-seconds or an HTTP date; undefined when absent or bad. */
export function retryAfterMs(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** A fetch that gave up waiting (its AbortSignal's timeout, or an abort). */
export function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}

/** What a failed fetch met, in a few words: "no answer within N s", a system code, or its message. */
export function describeNetworkError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (isTimeout(err)) return `no answer within ${timeoutMs / 1000} s`;
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    // (undici's code for a socket the other side closed before its answer says less than this)
    if (cause?.code === 'UND_ERR_SOCKET') return 'the connection was closed before an answer';
    if (cause?.code) return cause.code;
    return cause?.message ?? err.message;
  }
  return String(err);
}

/**
 * The one error type of dpe-sim. Each kind maps to a documented exit code (CLI) and an
 * HTTP status (server), so the two front doors report the same failure the same way.
 */
export type ErrorKind =
  | 'invalid-input' // exit 2, HTTP 400
  | 'not-found' // exit 2, HTTP 404
  | 'blocked' // exit 3, HTTP 422
  | 'auth' // exit 4, HTTP 401
  | 'token' // exit 4, HTTP 410 (token used or expired)
  | 'too-large' // exit 2, HTTP 413
  | 'runtime'; // exit 1, HTTP 500 (or 502 for an upstream failure)

export const EXIT_CODES = {
  ok: 0,
  runtime: 1,
  invalidInput: 2,
  blocked: 3,
  auth: 4,
} as const;

const EXIT_BY_KIND: Record<ErrorKind, number> = {
  'invalid-input': EXIT_CODES.invalidInput,
  'not-found': EXIT_CODES.invalidInput,
  'too-large': EXIT_CODES.invalidInput,
  blocked: EXIT_CODES.blocked,
  auth: EXIT_CODES.auth,
  token: EXIT_CODES.auth,
  runtime: EXIT_CODES.runtime,
};

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  'invalid-input': 400,
  'not-found': 404,
  'too-large': 413,
  blocked: 422,
  auth: 401,
  token: 410,
  runtime: 500,
};

export class DpeSimError extends Error {
  readonly kind: ErrorKind;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    kind: ErrorKind,
    message: string,
    details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DpeSimError';
    this.kind = kind;
    this.details = details;
  }

  get exitCode(): number {
    return EXIT_BY_KIND[this.kind];
  }

  get httpStatus(): number {
    return STATUS_BY_KIND[this.kind];
  }
}

export function invalidInput(message: string, details?: Record<string, unknown>): DpeSimError {
  return new DpeSimError('invalid-input', message, details);
}

export function kindForStatus(status: number): ErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not-found';
  if (status === 410) return 'token';
  if (status === 413) return 'too-large';
  if (status === 422) return 'blocked';
  if (status >= 400 && status < 500) return 'invalid-input';
  return 'runtime';
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

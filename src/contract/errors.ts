import { numberText } from './number-text.js';
import { formatBytes } from './constants.js';

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
  | 'busy' // exit 1, HTTP 503 with Retry-After (every engine thread busy, the queue full)
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
  busy: EXIT_CODES.runtime,
  blocked: EXIT_CODES.blocked,
  auth: EXIT_CODES.auth,
  token: EXIT_CODES.auth,
  runtime: EXIT_CODES.runtime,
};

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  'invalid-input': 400,
  'not-found': 404,
  'too-large': 413,
  busy: 503,
  blocked: 422,
  auth: 401,
  token: 410,
  runtime: 500,
};

/** Why a request was refused, when a caller may act on it (batch, the server, the CLI). */
export type ErrorReason =
  | 'unknown-reference' // a works referenceId the DPE does not have
  | 'unknown-key' // an editableKey not offered on that element
  | 'value-not-allowed' // an editableValue not offered (or not applicable) there
  | 'out-of-range' // an index (e.g. a recommended scenario) beyond what exists
  | 'no-works' // a recalculation asked with no works item
  | 'unknown-dpe' // no DPE with that number
  | 'registry-unreachable' // the DPE is in no local place and the registry cannot give it now
  | 'outside-directory' // a file of the DPE directory that leads outside it (a symbolic link)
  | 'blocked' // the DPE cannot be simulated (a `block` alert)
  | 'no-audit' // the remote service has no audit operation (a dpe-sim extension)
  | 'no-answer' // the remote service did not answer a computation in time (not sent again)
  | 'client-gone' // the server's client closed its connection before the answer
  // a DPE file the user named:
  | 'directory' // a directory, not a file
  | 'not-a-file' // a named pipe, a socket or a device: only regular files are read
  | 'unreadable' // cannot be read (permissions...)
  | 'empty' // an empty file
  | 'not-xml' // not an XML document
  | 'not-dpe' // XML, but not a DPE document
  | 'too-deep' // a JSON body nested deeper than the limit
  | 'control-character' // a text field with a control character (ESC, CR, LF, NUL, DEL, C1)
  | 'format-character' // a text field with a Unicode format character (bidi control, zero-width)
  | 'lone-surrogate' // a text field with half of a UTF-16 surrogate pair
  | 'duplicate-key' // a JSON body giving one key twice in an object
  | 'not-utf8' // a body whose bytes are not UTF-8
  // the store:
  | 'store-unavailable' // the database cannot be reached (HTTP 503, Retry-After)
  | 'disk-full' // no space left on the device
  | 'read-only'; // the store cannot be written

/**
 * What an error says beyond its message, as data: the field at fault (a JSON path such as
 * `params.editablesChanges[1].editableValue`), the refused value, the allowed values, the
 * unknown works references. Readers use these fields, never the message text. Serialized as
 * the API's `errorObject`.
 */
export interface ErrorDetails {
  reason?: ErrorReason;
  field?: string;
  value?: unknown;
  allowed?: string[];
  /** works referenceIds the DPE does not have */
  unknownReferences?: string[];
  dpeId?: string;
  [key: string]: unknown;
}

export class DpeSimError extends Error {
  readonly kind: ErrorKind;
  readonly details: ErrorDetails | undefined;

  constructor(
    kind: ErrorKind,
    message: string,
    details?: ErrorDetails,
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

export function invalidInput(message: string, details?: ErrorDetails): DpeSimError {
  return new DpeSimError('invalid-input', message, details);
}

/**
 * A DPE XML larger than the limit (MAX_DPE_XML_BYTES: exit 2, HTTP 413), refused before it is
 * parsed. `what` names it (`the file x.xml`, `stdin`, ...); `atLeast`: reading stopped there.
 */
export function xmlTooLarge(
  what: string,
  size: number,
  limit: number,
  atLeast = false,
): DpeSimError {
  const bytes = (n: number) => `${numberText(n)} bytes`;
  return new DpeSimError(
    'too-large',
    `${what} is ${atLeast ? 'at least ' : ''}${bytes(size)}: larger than the limit for a DPE XML, ${bytes(limit)} (${formatBytes(limit)})`,
    { size, limit },
  );
}

export function kindForStatus(status: number): ErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not-found';
  if (status === 410) return 'token';
  if (status === 413) return 'too-large';
  if (status === 422) return 'blocked';
  if (status === 503) return 'busy';
  if (status >= 400 && status < 500) return 'invalid-input';
  return 'runtime';
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Every error the server answers, as the contract's error body `{error, errorObject?}`:
 * DpeSimErrors keep their kind's status (400, 404, 410, 413, 422, ...); fastify's own errors
 * (body too large, malformed JSON, unsupported media type) keep theirs; anything else is a 500
 * that says nothing about the internals.
 */
import { numberText } from '../contract/number-text.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DpeSimError } from '../contract/errors.js';
import { TOKEN_MAX_LENGTH, type ErrorBody } from '../contract/schemas.js';
import { DEFAULT_LIMITS } from './limits.js';

const MAX_PARAM_LENGTH = DEFAULT_LIMITS.maxParamLength;

/** What a caller reads when the store cannot be written (where it is stays in the operator's log). */
export const STORE_FULL_TEXT =
  "the server's store cannot be written: no space left on its disk (the operator must free space on the disk of the server's data directory or database; the server's log names it)";
export const STORE_READ_ONLY_TEXT =
  "the server's store cannot be written: its file system or database is read-only (the server's log names it)";

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface HttpError {
  status: number;
  body: ErrorBody;
}

function fromDpeSimError(err: DpeSimError): HttpError {
  if (err.kind === 'not-found' && typeof err.details?.dpeId === 'string') {
    // the source's message names the server's directory: keep that on the server
    const dpeId = err.details.dpeId;
    return {
      status: 404,
      body: { error: `unknown dpeId '${dpeId}'`, errorObject: { reason: 'unknown-dpe', dpeId } },
    };
  }
  if (err.kind === 'too-large' && typeof err.details?.size === 'number') {
    // a DPE file of the server over the size limit: its path stays on the server
    const { size, limit } = err.details;
    return {
      status: 413,
      body: {
        error: `the DPE XML is ${numberText(size)} bytes: larger than the limit for a DPE XML, ${numberText(Number(limit))} bytes`,
        errorObject: { size, limit },
      },
    };
  }
  if (err.details?.reason === 'store-unavailable') {
    // the store's kind and when to retry; where it is (host, file) stays in the operator's log
    const { reason, store, retryAfterSeconds } = err.details;
    return {
      status: 503,
      body: { error: err.message, errorObject: { reason, store, retryAfterSeconds } },
    };
  }
  if (
    err.kind === 'runtime' &&
    (err.details?.reason === 'disk-full' || err.details?.reason === 'read-only')
  ) {
    const { reason, store, retryAfterSeconds } = err.details;
    return {
      // 507 Insufficient Storage: the server, not the request, lacks room
      status: reason === 'disk-full' ? 507 : 503,
      body: {
        error: `${reason === 'disk-full' ? STORE_FULL_TEXT : STORE_READ_ONLY_TEXT}; retry in ${String(retryAfterSeconds)} s`,
        errorObject: { reason, store, retryAfterSeconds },
      },
    };
  }
  if (err.details?.reason === 'registry-unreachable') {
    // the registry's address and the lookup's details stay in the operator's log
    const { dpeId, retryAfterSeconds, timedOut } = err.details;
    const cause = String(err.details.cause ?? 'no answer');
    return {
      status: timedOut === true ? 504 : 502,
      body: {
        error: `DPE ${String(dpeId)} is not on this server, and the registry cannot give it now (${cause}); retry in ${String(retryAfterSeconds)} s`,
        errorObject: { reason: 'registry-unreachable', dpeId, retryAfterSeconds },
      },
    };
  }
  if (
    (err.details?.reason === 'outside-directory' || err.details?.reason === 'not-a-file') &&
    typeof err.details.dpeId === 'string'
  ) {
    // a file of the server's DPE directory refused: what it is and where stay on the server
    const { reason, dpeId } = err.details;
    return {
      status: 404,
      body: {
        error: `DPE ${dpeId} cannot be read on this server: its file in the server's DPE directory is not a regular file inside that directory`,
        errorObject: { reason, dpeId },
      },
    };
  }
  if (err.details?.reason === 'client-gone')
    // nobody reads it; the access log shows nginx's "client closed request"
    return { status: 499, body: { error: err.message, errorObject: { reason: 'client-gone' } } };
  // a runtime failure's message may name files or internals: the operator's log gets it
  if (err.kind === 'runtime') return { status: 500, body: { error: 'internal server error' } };
  const body: ErrorBody = { error: err.message };
  if (err.details) body.errorObject = err.details;
  return { status: err.httpStatus, body };
}

function isFastifyError(err: unknown): err is FastifyError {
  return err instanceof Error && typeof (err as Partial<FastifyError>).statusCode === 'number';
}

function fromFastifyError(err: FastifyError): HttpError | undefined {
  const status = err.statusCode ?? 500;
  if (status === 413) {
    return {
      status,
      body: { error: `request body too large: the limit is ${BODY_LIMIT_BYTES} bytes (1 MiB)` },
    };
  }
  if (status === 414) {
    return {
      status,
      body: {
        error: `the URL path is too long: a path parameter has at most ${MAX_PARAM_LENGTH} characters (a login token at most ${TOKEN_MAX_LENGTH})`,
      },
    };
  }
  if (status === 415 && err.code === 'DPE_SIM_UNSUPPORTED_ENCODING') {
    const encoding = (err as FastifyError & { encoding?: string }).encoding ?? '';
    return {
      status,
      body: {
        error: err.message,
        errorObject: { reason: 'unsupported-encoding', encoding: encoding.slice(0, 40) },
      },
    };
  }
  if (status === 415 && err.code === 'DPE_SIM_UNSUPPORTED_CHARSET') {
    const charset = (err as FastifyError & { charset?: string }).charset ?? '';
    return { status, body: { error: err.message, errorObject: { charset } } };
  }
  if (status === 415) {
    return { status, body: { error: 'unsupported Content-Type: send application/json' } };
  }
  if (status >= 400 && status < 500) {
    const message =
      err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
        ? 'the body is not valid JSON'
        : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'the body is empty: send a JSON object'
          : err.message;
    return { status, body: { error: message } };
  }
  return undefined;
}

export function httpErrorOf(err: unknown): HttpError {
  if (err instanceof DpeSimError) return fromDpeSimError(err);
  if (isFastifyError(err)) {
    const known = fromFastifyError(err);
    if (known) return known;
  }
  return { status: 500, body: { error: 'internal server error' } };
}

/** Sends the error body; a 500 is reported to the operator through `log` (never to the caller). */
export function sendError(
  err: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  log: (line: string) => void,
): FastifyReply {
  const { status, body } = httpErrorOf(err);
  if (err instanceof DpeSimError && err.kind === 'busy') {
    const after = err.details?.retryAfterSeconds;
    void reply.header('retry-after', String(typeof after === 'number' ? after : 1));
  }
  const retryAfter = err instanceof DpeSimError ? err.details?.retryAfterSeconds : undefined;
  const reason = err instanceof DpeSimError ? err.details?.reason : undefined;
  if (err instanceof DpeSimError && (reason === 'disk-full' || reason === 'read-only')) {
    void reply.header('retry-after', String(typeof retryAfter === 'number' ? retryAfter : 30));
    // a write's failure: the operator's line says which store and what to free (the hint);
    // /ready's answer (busy) is not logged, a load balancer probes it every few seconds
    if (err.kind === 'runtime')
      log(
        `${request.method} ${request.routeOptions.url ?? '?'} ${status}: ${err.message}; ${String(err.details?.hint ?? '')}`,
      );
  } else if (err instanceof DpeSimError && err.details?.reason === 'registry-unreachable') {
    void reply.header('retry-after', String(typeof retryAfter === 'number' ? retryAfter : 5));
    log(`${request.method} ${request.routeOptions.url ?? '?'} ${status}: ${err.message}`);
  } else if (
    err instanceof DpeSimError &&
    (err.details?.reason === 'outside-directory' || err.details?.reason === 'not-a-file')
  ) {
    log(`${request.method} ${request.routeOptions.url ?? '?'} ${status}: ${err.message}`);
  } else if (err instanceof DpeSimError && err.details?.reason === 'store-unavailable') {
    const cause = err.cause instanceof Error ? err.cause.message : String(err.cause);
    log(
      `${request.method} ${request.routeOptions.url ?? '?'} 503: the store is unavailable (${cause})`,
    );
  } else if (err instanceof DpeSimError && err.details?.reason === 'client-gone') {
    log(`${request.method} ${request.routeOptions.url ?? '?'} 499: ${err.message}`);
  } else if (status >= 500 && status !== 503) {
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    log(`${request.method} ${request.routeOptions.url ?? '?'} failed: ${detail}`);
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

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
  if (err instanceof DpeSimError && err.details?.reason === 'store-unavailable') {
    const cause = err.cause instanceof Error ? err.cause.message : String(err.cause);
    log(
      `${request.method} ${request.routeOptions.url ?? '?'} 503: the store is unavailable (${cause})`,
    );
  } else if (status >= 500 && status !== 503) {
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    log(`${request.method} ${request.routeOptions.url ?? '?'} failed: ${detail}`);
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

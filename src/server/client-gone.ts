/**
 * A request whose client closes its connection before the answer: the work done for it is
 * dropped (an engine job leaves the queue or its thread stops, `RunOptions.signal`), nothing of
 * it is recorded, and the request ends with a `client-gone` error: status 499 (nginx's "client
 * closed request") in the access log and one line in the operator's log; nobody reads the body.
 */
import type { FastifyReply } from 'fastify';
import { DpeSimError } from '../contract/errors.js';

export function clientGone(): DpeSimError {
  return new DpeSimError(
    'runtime',
    'the client closed its connection before the answer: its computation was dropped',
    { reason: 'client-gone' },
  );
}

/** Runs `work` with a signal that aborts when the reply's connection closes before its end. */
export async function whileClientWaits<T>(
  reply: FastifyReply,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const gone = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) gone.abort(clientGone());
  };
  reply.raw.once('close', onClose);
  // gone already, before the handler ran (the close event is past): nothing to start
  if (reply.request.raw.socket?.destroyed) onClose();
  try {
    return await work(gone.signal);
  } catch (err) {
    throw gone.signal.aborted ? gone.signal.reason : err;
  } finally {
    reply.raw.off('close', onClose);
  }
}

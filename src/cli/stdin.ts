import { xmlTooLarge } from '../contract/errors.js';
import { MAX_INPUT_FILE_BYTES, tooLargeFile } from '../contract/input-file.js';

/**
 * Standard input, read whole (a DPE piped with `-`, a works file, a partner key), never more
 * than a limit: reading stops as soon as there is more, with the `too-large` error (exit 2),
 * whatever stdin is (a pipe, a file, /dev/zero). With `maxBytes` the text is a DPE XML (its
 * own message); otherwise the limit is that of every input file (10 MiB).
 */
export async function readStdin(maxBytes?: number): Promise<string> {
  const limit = maxBytes ?? MAX_INPUT_FILE_BYTES;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) {
      process.stdin.destroy();
      throw maxBytes !== undefined
        ? xmlTooLarge('stdin', size, limit, true)
        : tooLargeFile('the input', 'on stdin', size, limit, true);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

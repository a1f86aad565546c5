import { xmlTooLarge } from '../contract/errors.js';

/**
 * Standard input, read whole (a DPE piped with `-`, a works file, a partner key). With
 * `maxBytes`, reading stops as soon as there is more, with the `too-large` error (exit 2).
 */
export async function readStdin(maxBytes?: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (maxBytes !== undefined && size > maxBytes) {
      process.stdin.destroy();
      throw xmlTooLarge('stdin', size, maxBytes, true);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

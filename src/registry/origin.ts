/** Where a DPE's XML came from, as responses report it (`dpeSource`) and tables show it. */
import type { DpeSourceInfo } from '../contract/schemas.js';
import type { DpeText } from '../dpe/source.js';

/**
 * The `dpeSource` field of a response. The location is a path on this machine for `file` and
 * `cache` (left out when `withPaths` is false, as on a server), the registry's URL otherwise.
 */
export function dpeSourceOf(text: DpeText, withPaths: boolean): DpeSourceInfo {
  const origin = text.origin ?? 'file';
  return origin === 'registry' || withPaths ? { origin, location: text.file } : { origin };
}

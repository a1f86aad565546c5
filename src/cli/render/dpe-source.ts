/** Where a DPE's XML came from, as tables show it (one line). */
import type { DpeSourceInfo } from '../../contract/schemas.js';

const ORIGIN_LABEL: Record<DpeSourceInfo['origin'], string> = {
  file: 'file',
  cache: 'local cache',
  registry: 'national registry',
};

/** The one table line: `DPE XML: national registry (https://…)`. */
export function dpeSourceLine(info: DpeSourceInfo | undefined): string | undefined {
  if (!info) return undefined;
  return `DPE XML: ${ORIGIN_LABEL[info.origin]}${info.location ? ` (${info.location})` : ''}`;
}

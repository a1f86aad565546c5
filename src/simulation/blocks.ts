/**
 * DPEs dpe-sim refuses to simulate besides unreadable ones (README "Blocks"):
 * - `block.too-old`: established before the 3CL-2021 method came into force (1 July 2021,
 *   arrêtés of 31 March 2021), or written in an XML version older than the first 3CL-2021 one
 *   (`enum_version_id` below 1, "version du 1er juillet 2021"), which the engine does not read;
 * - `block.study-based`: built from an RT2012 / RE2020 thermal study
 *   (`enum_methode_application_dpe_log_id` 14–25): its figures come from the study's Th-BCE /
 *   RE2020 engine, not from a 3CL survey, and recomputing them with 3CL gives several times the
 *   registry's figures (653 against 177 kWh/m² on corpus 2144E0951019J), so works priced on top
 *   would be meaningless.
 */
import type { Warning } from '../contract/schemas.js';
import { STUDY_BASED_METHODS } from '../dpe/building.js';
import type { DpeFacts } from '../dpe/facts.js';
import { ALERT_IDS, block } from './alerts.js';

/** The 3CL-2021 method applies to DPEs established from this date on. */
export const METHOD_3CL_2021_SINCE = '2021-07-01';
/** The first XML version of 3CL-2021 DPEs (enum_version_id "1", 1 July 2021). */
export const FIRST_3CL_VERSION = 1;

/** The block for a DPE too old for the method, or undefined. */
export function tooOldBlock(f: DpeFacts): Warning | undefined {
  const version = f.versionId === undefined ? undefined : Number(f.versionId);
  const oldDate = f.date !== undefined && f.date < METHOD_3CL_2021_SINCE;
  const oldVersion =
    version !== undefined && Number.isFinite(version) && version < FIRST_3CL_VERSION;
  if (!oldDate && !oldVersion) return undefined;
  const why = oldDate
    ? `it was established on ${f.date}, before the 3CL-2021 method came into force on ${METHOD_3CL_2021_SINCE}`
    : `its XML version ${f.versionId} predates the first 3CL-2021 version (${FIRST_3CL_VERSION}, July 2021), which the engine does not read`;
  return block(
    ALERT_IDS.tooOld,
    'DPE too old',
    `This DPE cannot be simulated: ${why}. Only DPEs established with the 3CL-2021 method can be recomputed.`,
  );
}

/** The block for a DPE built from an RT2012 / RE2020 thermal study, or undefined. */
export function studyBasedBlock(f: DpeFacts, methodLabel: string | undefined): Warning | undefined {
  const id = f.methodeApplicationId;
  if (id === undefined || !STUDY_BASED_METHODS.has(id)) return undefined;
  return block(
    ALERT_IDS.studyBased,
    'DPE from a thermal study',
    `This DPE was produced from a regulatory thermal study (method ${id}: "${methodLabel ?? 'étude thermique réglementaire'}"); its figures come from the study's calculation, not from the 3CL method, so the engine cannot recompute them nor simulate works on it.`,
  );
}

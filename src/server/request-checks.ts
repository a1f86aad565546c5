/**
 * Checks the server makes before handing a request to the backend, so that a request the
 * backend would reject part-way writes nothing: the DPE named by `auth` exists, and every works
 * change of a `calc` is known for that DPE. (Schemas are checked earlier, by the validator.)
 */
import type { LocalServices } from '../backend/local.js';
import type { CalcRequest } from '../contract/schemas.js';
import { resolveChanges } from '../works/apply.js';

/** Throws `not-found` (404) when the DPE is not on this server. */
export async function checkDpeExists(services: LocalServices, dpeId: string): Promise<void> {
  await services.source.read(dpeId);
}

/**
 * Throws `invalid-input` (400) naming the allowed options when a change is unknown. A blocked
 * DPE passes here: the backend answers 422 for it before writing anything.
 */
export async function checkWorks(services: LocalServices, req: CalcRequest): Promise<void> {
  const changes = req.params?.editablesChanges ?? [];
  if (changes.length === 0) return;
  const { prep } = await services.prepared(req.dpeId);
  if (prep.ok) resolveChanges(prep.dpe, changes);
}

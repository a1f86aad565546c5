/**
 * What the login page shows once it has used its token: the user, their DPE with its classes
 * (before works, 2026 coefficient), and their last simulation from the history.
 */
import type { LocalServices } from '../backend/local.js';
import { DpeSimError } from '../contract/errors.js';
import type { DpeSummary, PageLoginResponse } from '../contract/schemas.js';
import { outcome } from '../simulation/calc.js';
import { engineFigures } from '../simulation/comparison.js';

export async function dpeSummary(
  services: LocalServices,
  dpeId: string,
): Promise<DpeSummary | null> {
  const prep = await services.prepared(dpeId).then(
    (p) => p.prep,
    (err: unknown) => {
      if (err instanceof DpeSimError && err.kind === 'not-found') return undefined;
      throw err;
    },
  );
  if (!prep) return null;
  if (!prep.ok) {
    return {
      dpeId,
      blocked: true,
      alert: prep.alert,
      surface: prep.facts?.surface ?? null,
      classes: null,
      epM2: null,
      gesM2: null,
    };
  }
  const o = outcome(prep.dpe, engineFigures(prep.dpe.base, 'activated'), 'activated', false);
  return {
    dpeId: prep.dpe.key,
    blocked: false,
    alert: null,
    surface: prep.dpe.facts.surface ?? null,
    classes: { dpe: o.classesBefore.dpe, energy: o.classesBefore.energy, ges: o.classesBefore.ges },
    epM2: Math.round(o.before.epM2),
    gesM2: Math.round(o.before.gesM2),
  };
}

/** Uses the token (once, whoever the partner) and gathers what the page shows. */
export async function pageLogin(
  services: LocalServices,
  partnerToken: string,
): Promise<PageLoginResponse> {
  const { record } = await services.store.consumeToken(partnerToken);
  const [last] = await services.store.history(record.partnerId, {
    customerId: record.user.customerId,
    userId: record.user.userId,
    ...(record.dpeId ? { dpeId: record.dpeId } : {}),
    limit: 1,
  });
  const dpeId = record.dpeId ?? last?.dpeId ?? null;
  return {
    user: record.user,
    showInit: record.showInit,
    dpe: dpeId ? await dpeSummary(services, dpeId) : null,
    lastSimulation: last ?? null,
  };
}

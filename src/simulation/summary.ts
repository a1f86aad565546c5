/**
 * What the login page shows of a DPE: its classes before works (2026 coefficient) and its
 * figures, or the block that stops it from being simulated.
 */
import type { DpeSummary } from '../contract/schemas.js';
import { outcome } from './calc.js';
import { engineFigures } from './comparison.js';
import type { Preparation } from './prepared.js';

export function dpeSummary(dpeId: string, prep: Preparation): DpeSummary {
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

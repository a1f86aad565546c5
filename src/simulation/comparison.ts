/**
 * Engine vs registry: the figures compared like with like (same electricity coefficient),
 * the gaps, the alert band, and the normalization that follows from them.
 */
import type { CoefMode } from '../contract/schemas.js';
import type { EngineFigures, EngineResult } from '../engine/engine.js';
import { convertEp, type DpeFacts } from '../dpe/facts.js';
import { COEF_2025, coefOf } from '../contract/constants.js';

/** Gap bands: up to 5% the figures agree; over 5% and up to 15% normalization is
 * recommended (confirm); over 15% results are normalized to the registry. */
export const CONFIRM_ABOVE = 5;
export const NORMALIZE_ABOVE = 15;

export type GapBand = 'agree' | 'confirm' | 'normalize' | 'unknown';

export interface RegistryInMode {
  ep: number | undefined;
  epM2: number;
  ges: number | undefined;
  gesM2: number;
  cout: number | undefined;
  /** true when the registry figures were converted from the other coefficient */
  converted: boolean;
}

export interface Comparison {
  coef: number;
  engine: EngineFigures;
  registry: RegistryInMode | undefined;
  deltaConso: number | undefined;
  deltaGES: number | undefined;
  /** the larger absolute gap, % */
  gap: number | undefined;
  band: GapBand;
}

/** The coefficient mode the registry computed this DPE in (2.3 before 2026, 1.9 from then on). */
export function registryMode(facts: DpeFacts): CoefMode {
  return facts.registryCoef === COEF_2025 ? 'deactivated' : 'activated';
}

export function engineFigures(result: EngineResult, mode: CoefMode): EngineFigures {
  return mode === 'activated' ? result.mode2026 : result.mode2025;
}

/** Signed percentage (a − b) / b × 100, rounded to 0.01. */
export function percentGap(a: number, b: number): number | undefined {
  if (b === 0) return undefined;
  return round2(((a - b) / b) * 100);
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * A registry total as its per-m² figure implies it, where the stored total contradicts that
 * figure times the area beyond the per-m² rounding (a unit slip: 2251E1368858K stores its GES
 * per m², 35.12, as the total; 2221E0006033X its final energy as the primary total): the
 * per-m² figure is what the registry's class reads. A whole per-m² figure n is floored from
 * [n, n + 1): its middle. Otherwise the total as stored.
 */
export function registryTotal(
  total: number | undefined,
  perM2: number | undefined,
  surface: number,
): number | undefined {
  if (total === undefined || perM2 === undefined || !(surface > 0)) return total;
  if (Math.abs(total / surface - perM2) <= 1) return total;
  return (Number.isInteger(perM2) ? perM2 + 0.5 : perM2) * surface;
}

/** The registry's figures in the requested coefficient mode. */
export function registryInMode(
  facts: DpeFacts,
  surface: number,
  mode: CoefMode,
): RegistryInMode | undefined {
  const r = facts.registry;
  if (r.epM2 === undefined || r.gesM2 === undefined) return undefined;
  const target = coefOf(mode);
  const ep = registryTotal(r.ep, r.epM2, surface);
  const ges = registryTotal(r.ges, r.gesM2, surface);
  if (facts.registryCoef === target) {
    return { ep, epM2: r.epM2, ges, gesM2: r.gesM2, cout: r.cout, converted: false };
  }
  // convert the total, then floor per m² as the registry does
  if (ep === undefined || r.ef === undefined) return undefined;
  const converted = convertEp(ep, r.ef, facts.registryCoef, target);
  return {
    ep: converted,
    epM2: Math.floor(converted / surface),
    ges,
    gesM2: r.gesM2,
    cout: r.cout,
    converted: true,
  };
}

export function compare(facts: DpeFacts, result: EngineResult, mode: CoefMode): Comparison {
  const engine = engineFigures(result, mode);
  const registry = registryInMode(facts, result.surface, mode);
  if (!registry) {
    return {
      coef: coefOf(mode),
      engine,
      registry,
      deltaConso: undefined,
      deltaGES: undefined,
      gap: undefined,
      band: 'unknown',
    };
  }
  const deltaConso = percentGap(engine.epM2, registry.epM2);
  const deltaGES = percentGap(engine.gesM2, registry.gesM2);
  const gaps = [deltaConso, deltaGES].filter((d): d is number => d !== undefined);
  const gap = gaps.length ? Math.max(...gaps.map(Math.abs)) : undefined;
  const band: GapBand =
    gap === undefined
      ? 'unknown'
      : gap > NORMALIZE_ABOVE
        ? 'normalize'
        : gap > CONFIRM_ABOVE
          ? 'confirm'
          : 'agree';
  return { coef: coefOf(mode), engine, registry, deltaConso, deltaGES, gap, band };
}

/** Normalization applies over 15%, or over 5% when the user accepted it. */
export function normalizationApplies(cmp: Comparison, force: boolean): boolean {
  return cmp.band === 'normalize' || (cmp.band === 'confirm' && force);
}

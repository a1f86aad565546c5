/**
 * A sanity line on scenario costs: a scenario whose cost per m² of living area (the dwelling's,
 * or the building's for a whole building) is above the ceiling of a deep renovation gets the
 * alert `warning.cost-per-m2`, with the figure and the source (README "Costs").
 */
import { ALERT_IDS } from '../contract/alert-ids.js';
import { numberText } from '../contract/number-text.js';
import type { AutoSolution, Warning } from '../contract/schemas.js';
import type { Scope } from '../dpe/building.js';
import { COST_CEILING } from '../contract/cost-ceiling.js';

export { COST_CEILING } from '../contract/cost-ceiling.js';

/** Euros per m² of the living area the DPE covers, rounded; undefined without an area. */
export function costPerM2(cout: number, scope: Scope): number | undefined {
  return scope.surface > 0 ? Math.round(cout / scope.surface) : undefined;
}

/**
 * A whole building's cost divided by its dwellings, rounded: an average, not a dwelling's own
 * share (a co-ownership's split of works is not in the DPE); undefined for one dwelling.
 */
export function costPerDwelling(cout: number, dwellings: number): number | undefined {
  return dwellings > 1 ? Math.round(cout / dwellings) : undefined;
}

/**
 * The area a cost per m² is on, in the words of `initial`'s alert and the audit's note: "the
 * dwelling's 28.3 m² of living area" (a whole building's: "the building's 985 m² …").
 */
export function ceilingAreaText(scope: Scope): string {
  const whose = scope.coverage === 'immeuble' ? "the building's" : "the dwelling's";
  return `${whose} ${numberText(scope.surface, 1)}\u00a0m² of living area`;
}

/** The alert of each scenario above the ceiling (none when every scenario is under it). */
export function ceilingWarnings(solutions: readonly AutoSolution[], scope: Scope): Warning[] {
  const over = solutions
    .map((sol, i) => ({ i, sol, m2: costPerM2(sol.cout, scope) }))
    .filter((x) => x.m2 !== undefined && x.m2 > COST_CEILING.eurPerM2);
  if (!over.length) return [];
  const list = over
    .map((x) => `scenario ${x.i + 1} (${x.sol.classe}): ${numberText(x.m2 as number)} €/m²`)
    .join(', ');
  return [
    {
      id: ALERT_IDS.costPerM2,
      type: 'warning',
      title: 'Cost per m² above a deep renovation’s',
      content: `${list} of ${ceilingAreaText(scope)}: above ${COST_CEILING.eurPerM2} €/m², the ceiling of a deep renovation (${COST_CEILING.source}). Check the works and their quantities before relying on the figure.`,
    },
  ];
}

/**
 * The cost per m² of living area above which a scenario is flagged (`warning.cost-per-m2`):
 * the ceiling of a deep renovation, with its source (README "Costs").
 *
 * EDF R&D's study of deep ("performante") renovation costs over the 2,300 dwellings of the
 * PHEBUS survey (800,000 simulated works packs): median 200–350 € per m² of living area by
 * dwelling type, starting and final class; costs over 500 €/m² are statistically rare.
 */
export const COST_CEILING = {
  eurPerM2: 500,
  source:
    'EDF R&D (2024), "Le prix de la rénovation performante" (HAL hal-04442398): median 200–350 €/m² of living area, over 500 €/m² statistically rare',
} as const;

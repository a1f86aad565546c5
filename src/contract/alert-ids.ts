/**
 * The ids of the alerts (`warnings`) dpe-sim raises: stable, documented in the README, matched
 * by scripts and by the CLI's rendering.
 */
export const ALERT_IDS = {
  malformed: 'block.malformed-xml',
  unsupportedModel: 'block.unsupported-model',
  engineFailed: 'block.engine-failure',
  tooOld: 'block.too-old',
  studyBased: 'block.study-based',
  gapConfirm: 'confirm.normalization',
  gapNormalized: 'warning.normalized',
  partDiffers: 'warning.engine-part-differs',
  gapForced: 'warning.normalization-forced',
  registryMissing: 'warning.registry-figures-missing',
  status: 'warning.registry-status',
  smallSurface: 'warning.small-surface',
  highAltitude: 'warning.high-altitude',
  coefConverted: 'warning.coefficient-converted',
  classChanges: 'warning.class-differs',
  costPerM2: 'warning.cost-per-m2',
  billRises: 'warning.bill-rises',
  inconsistent: 'warning.dpe-inconsistent',
  auditGate: 'block.audit-input',
} as const;

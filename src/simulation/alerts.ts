/**
 * The alerts (`warnings`) dpe-sim raises, with stable ids: scripts may match on `id`.
 */
import type { Warning } from '../contract/schemas.js';

export const ALERT_IDS = {
  malformed: 'block.malformed-xml',
  unsupportedModel: 'block.unsupported-model',
  engineFailed: 'block.engine-failure',
  tooOld: 'block.too-old',
  studyBased: 'block.study-based',
  gapConfirm: 'confirm.normalization',
  gapNormalized: 'warning.normalized',
  gapForced: 'warning.normalization-forced',
  registryMissing: 'warning.registry-figures-missing',
  status: 'warning.registry-status',
  smallSurface: 'warning.small-surface',
  highAltitude: 'warning.high-altitude',
  coefConverted: 'warning.coefficient-converted',
  classChanges: 'warning.class-differs',
} as const;

export function block(id: string, title: string, content: string): Warning {
  return { id, type: 'block', title, content };
}

export function confirm(id: string, title: string, content: string): Warning {
  return { id, type: 'confirm', title, content };
}

export function info(id: string, title: string, content: string): Warning {
  return { id, type: 'warning', title, content };
}

export function isBlocked(warnings: readonly Warning[]): boolean {
  return warnings.some((w) => w.type === 'block');
}

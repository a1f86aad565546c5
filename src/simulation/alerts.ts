/**
 * The alerts (`warnings`) dpe-sim raises, with stable ids: scripts may match on `id`.
 */
import { ALERT_IDS } from '../contract/alert-ids.js';
import type { Warning } from '../contract/schemas.js';

export { ALERT_IDS };

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

/**
 * Commands for daily tracking and scripts: `history`, `batch`.
 * (Registered from main.ts; actions load on demand.)
 */
import type { Command } from 'commander';

export function registerTrackingCommands(_program: Command): void {
  // filled by the history and batch work (issue 6)
}

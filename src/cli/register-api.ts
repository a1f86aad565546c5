/**
 * Commands of the partner API's server side: `serve`, `keys`, `config`.
 * (Registered from main.ts; actions load on demand.)
 */
import type { Command } from 'commander';

export function registerApiCommands(_program: Command): void {
  // filled by the partner-API work (issue 5)
}

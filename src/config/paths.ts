/**
 * Where dpe-sim keeps its files: the SQLite store under the user's data directory
 * (`--data-dir`, else `DPE_SIM_DATA_DIR`, else `$XDG_DATA_HOME/dpe-sim` or
 * `~/.local/share/dpe-sim`), the bundled sample DPEs in the package's `fixtures/`.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DPE_SIM_DATA_DIR) return path.resolve(env.DPE_SIM_DATA_DIR);
  const base = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'dpe-sim');
}

/** The package root (two levels above this file once built: dist/config/paths.js). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const BUNDLED_FIXTURES = path.join(PACKAGE_ROOT, 'fixtures');

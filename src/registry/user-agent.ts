/** The `User-Agent` of registry requests: dpe-sim, its version and where the project lives. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../config/paths.js';

/** Where a registry operator reads about the tool that calls it. */
export const PROJECT_URL = 'https://github.com/dpe-sim/dpe-sim';

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const USER_AGENT = `dpe-sim/${packageVersion()} (+${PROJECT_URL})`;

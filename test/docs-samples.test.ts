/**
 * The sample outputs in README.md and docs/ are what the commands print now: each block is run
 * again (scripts/docs-samples.mjs --check, in a 100-column pseudo-terminal) and must match.
 * After a change of output, `npm run docs:samples` writes them again.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const HAS_SCRIPT = existsSync('/usr/bin/script');
if (!HAS_SCRIPT)
  console.warn('*** docs samples test SKIPPED: /usr/bin/script (util-linux) not found ***');

describe('documentation samples', () => {
  it.skipIf(!HAS_SCRIPT)('every sample block matches what its command prints', () => {
    const r = spawnSync(
      process.execPath,
      [path.join(ROOT, 'scripts', 'docs-samples.mjs'), '--check'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^\d+ samples, 0 stale/);
    expect(r.status).toBe(0);
  });

  it('README is short, links its docs pages, and no page points at ../shared as if users had it', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const pages = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    for (const p of pages) expect(readme, `README links docs/${p}`).toContain(`](docs/${p}`);
    for (const p of ['README.md', ...pages.map((f) => `docs/${f}`)]) {
      const text = readFileSync(path.join(ROOT, p), 'utf8');
      expect(text, p).not.toMatch(/\.\.\/shared\/docs/);
    }
  });
});

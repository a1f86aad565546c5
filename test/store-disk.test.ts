/**
 * A full disk and a read-only file system under the SQLite store, on a small tmpfs of its own:
 * each is named as such with its own hint (a full disk was "disk I/O error" with a hint about
 * permissions). Mounting needs root on Linux: elsewhere the tests are skipped, visibly.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE, runCli, tempDir } from './helpers.js';

function canMount(): string | undefined {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not root (mounting a tmpfs needs root)';
  const probe = tempDir('dpe-sim-mount-probe-');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]);
  if (r.status !== 0) return `mount -t tmpfs failed: ${String(r.stderr).trim()}`;
  spawnSync('umount', [probe]);
  return undefined;
}

const WHY_NOT = canMount();
if (WHY_NOT) console.warn(`\n*** store-disk tests SKIPPED: ${WHY_NOT} ***\n`);

describe.skipIf(WHY_NOT !== undefined)('the SQLite store on a small tmpfs', () => {
  let mount: string;
  let dataDir: string;
  beforeAll(async () => {
    mount = tempDir('dpe-sim-tmpfs-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mount]);
    dataDir = path.join(mount, 'data');
    mkdirSync(dataDir);
    const first = await runCli(['pre', HOUSE], { dataDir });
    expect(first.code, first.stderr).toBe(0);
  });
  afterAll(() => {
    if (mount) spawnSync('umount', [mount]);
    if (mount) rmSync(mount, { recursive: true, force: true });
  });

  it('a full disk (ENOSPC): exit 1, "no space left on the device", a hint to free space', async () => {
    // fill the file system to its last block
    const filler = path.join(mount, 'filler');
    const block = Buffer.alloc(4096);
    let written = 0;
    try {
      for (;;) {
        writeFileSync(filler, block, { flag: 'a' });
        written++;
      }
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    expect(written).toBeGreaterThan(0);
    const r = await runCli(['calc', HOUSE, '--work', 'mur:0=ISOLATION:IMurITE37'], { dataDir });
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toContain(
      `error: the store ${path.join(dataDir, 'dpe-sim.sqlite')} cannot be written: no space left on the device`,
    );
    expect(lines).toContain(
      `hint: free some space on the disk of ${dataDir}, or choose another directory with --data-dir DIR`,
    );
    expect(r.stderr).not.toMatch(/disk I\/O error|permission/);
    rmSync(filler);
  });

  it('a read-only file system: exit 1, "it is read-only"; history still reads', async () => {
    execFileSync('mount', ['-o', 'remount,ro', mount]);
    try {
      const r = await runCli(['calc', HOUSE, '--work', 'mur:0=ISOLATION:IMurITE37'], { dataDir });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'error: the local store is read-only, and this command records its run\n',
      );
      expect(r.stderr).toContain(
        `hint: history and the other reading commands still work; to record, use a writable --data-dir DIR (or DPE_SIM_DATA_DIR): ${path.join(dataDir, 'dpe-sim.sqlite')} or its file system is read-only`,
      );
      const h = await runCli(['history', '--json'], { dataDir });
      expect(h.code, h.stderr).toBe(0);
      expect((JSON.parse(h.stdout) as { records: unknown[] }).records).toHaveLength(1);
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mount]);
    }
  });
});

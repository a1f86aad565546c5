/**
 * A full disk and a read-only file system under the SQLite store, on a small tmpfs of its own:
 * each is named as such with its own hint (a full disk was "disk I/O error" with a hint about
 * permissions). Mounting needs root on Linux: elsewhere the tests are skipped, visibly.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, HOUSE, runCli, tempDir } from './helpers.js';
import { IDENTITY, http, startTestServer, type TestServer } from './server-harness.js';
import { composeLocal } from '../src/compose.js';
import { DEFAULT_HISTORY_PATH } from '../src/config/keys.js';
import { startServer } from '../src/server/start.js';

interface ErrorAnswer {
  error: string;
  errorObject?: Record<string, unknown>;
}

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

describe.skipIf(WHY_NOT !== undefined)(
  'serve on a small tmpfs: /ready tracks whether the store can write',
  () => {
    let mount: string;
    let srv: TestServer;
    beforeAll(async () => {
      mount = tempDir('dpe-sim-tmpfs-serve-');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mount]);
      const dataDir = path.join(mount, 'data');
      mkdirSync(dataDir);
      srv = await startTestServer({ dataDir });
    });
    afterAll(async () => {
      await srv?.close();
      if (!mount) return;
      // a file the closed server's store left open can keep the tmpfs busy a moment: detach it
      // lazily then, and leave the empty mount point rather than fail the suite on cleanup
      if (spawnSync('umount', [mount]).status !== 0) spawnSync('umount', ['-l', mount]);
      try {
        rmSync(mount, { recursive: true, force: true });
      } catch {
        // EBUSY: still detaching; the folder is empty and in the system's temp dir
      }
    });

    const ready = () => http<ErrorAnswer>(`${srv.url}/ready`);
    const pre = () =>
      http<ErrorAnswer>(`${srv.url}/partners/dpe/pre`, {
        key: srv.keyA,
        body: { ...IDENTITY, dpeId: '0000E0000001H' },
      });

    it('a full disk: /ready 503 disk-full with Retry-After, a write 507 saying what to free; space freed: ready again', async () => {
      expect((await ready()).status).toBe(200);
      expect((await pre()).status).toBe(200);
      const filler = path.join(mount, 'filler');
      const block = Buffer.alloc(4096);
      try {
        for (;;) writeFileSync(filler, block, { flag: 'a' });
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
      }
      const full = await ready();
      expect(full.status).toBe(503);
      expect(full.headers.get('retry-after')).toBe('30');
      expect(full.body).toEqual({
        error:
          "the server's store cannot be written: no space left on its disk (the operator must free space on the disk of the server's data directory or database; the server's log names it); retry in 30 s",
        errorObject: { reason: 'disk-full', store: 'sqlite', retryAfterSeconds: 30 },
      });
      // SQLite may still find room in its WAL for a few rows: the first write that fails is a 507
      let write = await pre();
      for (let i = 0; i < 200 && write.status === 200; i++) write = await pre();
      expect(write.status).toBe(507);
      expect(write.headers.get('retry-after')).toBe('30');
      expect(write.body.errorObject).toEqual({
        reason: 'disk-full',
        store: 'sqlite',
        retryAfterSeconds: 30,
      });
      expect(JSON.stringify(write.body)).not.toContain(mount);
      rmSync(filler);
      expect((await ready()).status).toBe(200);
      expect((await pre()).status).toBe(200);
    });

    it('a read-only file system: /ready 503 read-only, a write 503 saying so', async () => {
      // a file system with the store open for writing cannot be remounted read-only: the server
      // stops, the file system is remounted, and a server starts on it (its store opens read-only)
      const keyA = srv.keyA;
      const dataDir = srv.dataDir;
      await srv.close();
      execFileSync('mount', ['-o', 'remount,ro', mount]);
      const services = await composeLocal({
        dataDir,
        dpeDir: FIXTURES,
        appUrl: 'http://127.0.0.1',
        offline: true,
        dpeLocations: false,
      });
      const ro = await startServer({
        services,
        historyPath: DEFAULT_HISTORY_PATH,
        host: '127.0.0.1',
        port: 0,
        errorLog: () => {},
      });
      try {
        const probe = await http<ErrorAnswer>(`${ro.url}/ready`);
        expect(probe.status).toBe(503);
        expect(probe.body.errorObject).toEqual({
          reason: 'read-only',
          store: 'sqlite',
          retryAfterSeconds: 30,
        });
        const write = await http<ErrorAnswer>(`${ro.url}/partners/dpe/pre`, {
          key: keyA,
          body: { ...IDENTITY, dpeId: '0000E0000001H' },
        });
        expect(write.status).toBe(503);
        expect(write.body.error).toBe(
          "the server's store cannot be written: its file system or database is read-only (the server's log names it); retry in 30 s",
        );
        // reading still works
        const history = await http(`${ro.url}${DEFAULT_HISTORY_PATH}`, { key: keyA });
        expect(history.status).toBe(200);
      } finally {
        await ro.close();
        await services.close();
        execFileSync('mount', ['-o', 'remount,rw', mount]);
      }
    });
  },
);

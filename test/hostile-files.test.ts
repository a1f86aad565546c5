/**
 * Files that are not files: a named pipe (FIFO), a device, a link to a system file. Only regular
 * files are read, never more than the limit, and a command reading its input still stops at
 * once on Ctrl-C or SIGTERM. The server's DPE directory may hold FIFOs without stalling the
 * requests for the other DPEs.
 */
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, HOUSE, runCli, tempDir } from './helpers.js';
import { http, IDENTITY, startTestServer, type TestServer } from './server-harness.js';
import { HANG_MS } from './hang.js';

const IS_WINDOWS = process.platform === 'win32';

function fifo(dir: string, name: string): string {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

describe.skipIf(IS_WINDOWS)('a DPE path that is not a regular file', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('dpe-sim-hostile-');
  });

  for (const command of ['pre', 'initial']) {
    it(`${command} on a FIFO: exit 2 at once, naming it a named pipe (it never waits for a writer)`, async () => {
      const file = fifo(dir, `${command}.xml`);
      const r = await runCli([command, file], {});
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toBe(
        `error: the DPE file ${file} is a named pipe (FIFO), not a regular file: only regular files are read`,
      );
    });
  }

  it('/dev/zero: exit 2, a character device, nothing read', async () => {
    const r = await runCli(['pre', '/dev/zero'], {});
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: the DPE file /dev/zero is a character device, not a regular file: only regular files are read',
    );
  });

  it('/dev/zero on stdin: reading stops past the 10 MiB limit (exit 2)', async () => {
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(`exec "${process.execPath}" "${BIN}" pre - < /dev/zero`, {
        shell: '/bin/sh',
        env: { ...process.env, DPE_SIM_DATA_DIR: tempDir(), DPE_SIM_OFFLINE: '1', NO_COLOR: '1' },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: stdin is at least [0-9\u202f]+ bytes: larger than the limit for a DPE XML, 10\u202f485\u202f760 bytes/,
    );
  });

  it('batch - with /dev/zero on stdin: exit 2 at the first line over 64 KiB (readline never holds it)', async () => {
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(`exec "${process.execPath}" "${BIN}" batch pre - < /dev/zero`, {
        shell: '/bin/sh',
        env: { ...process.env, DPE_SIM_DATA_DIR: tempDir(), DPE_SIM_OFFLINE: '1', NO_COLOR: '1' },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'the batch source on stdin has a line longer than 65536 characters: give one DPE number or path per line',
    );
  });

  it('a works file, a list of DPE numbers, a batch source that is a FIFO: exit 2 each', async () => {
    const pipe = fifo(dir, 'list.txt');
    const works = await runCli(['calc', HOUSE, '--works', pipe], {});
    expect(works.code).toBe(2);
    expect(works.stderr).toContain(`the works file ${pipe} is a named pipe (FIFO)`);
    const batch = await runCli(['batch', 'pre', pipe], {});
    expect(batch.code).toBe(2);
    expect(batch.stderr).toContain(`the batch source ${pipe} is a named pipe (FIFO)`);
  });

  it('a link to /etc/passwd: exit 2, and not a byte of the file in the message', async () => {
    const link = path.join(dir, 'passwd.xml');
    symlinkSync('/etc/passwd', link);
    const r = await runCli(['pre', link]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`error: ${link} is not XML (it does not start with '<')`);
    expect(r.stderr).not.toMatch(/root:|:x:0|\/bin\/(ba)?sh/);
    // nor as a works file (V8's JSON error quotes the text's beginning), nor as a list of numbers
    const works = await runCli(['calc', HOUSE, '--works', link]);
    expect(works.code).toBe(2);
    expect(works.stderr.split('\n')[0]).toBe(
      `error: the works file ${link} is not valid JSON: a syntax error`,
    );
    const ids = await runCli(['cache', 'fetch', link]);
    expect(`${ids.stdout}${ids.stderr}`).toContain(
      'line 1 (of the non-blank lines) is not a DPE number',
    );
    for (const out of [works.stderr, ids.stdout, ids.stderr])
      expect(out).not.toMatch(/root:|:x:0|\/bin\/(ba)?sh/);
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} while reading a stdin that never ends: exit ${code}`, async () => {
      const child = spawn(process.execPath, [BIN, 'pre', '-'], {
        env: { ...process.env, DPE_SIM_DATA_DIR: tempDir(), DPE_SIM_OFFLINE: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      // started and reading: 1 MiB written to the pipe (its buffer holds 64 KiB) is accepted
      // only as the command reads it, once its signal handlers are set (a fixed second was not
      // always enough at load 20: the signal then came first and Node's own handler ended it)
      await new Promise<void>((resolve) =>
        child.stdin.write(`<dpe>${' '.repeat(1 << 20)}`, () => resolve()),
      );
      child.kill(signal);
      const killer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
      const exitCode = await exited;
      clearTimeout(killer);
      expect(exitCode).toBe(code);
      // a signal that waited for the read would never exit (killed by the hang guard: exit code
      // null); how soon it exits (the stop grace is 800 ms) is no test's business on a busy
      // machine
    });
  }
});

describe.skipIf(IS_WINDOWS)('serve: FIFOs in the DPE directory', () => {
  let srv: TestServer;
  const FIFO_IDS = ['0000E0000101X', '0000E0000102X', '0000E0000103X', '0000E0000104X'];
  beforeAll(async () => {
    const dpeDir = tempDir('dpe-sim-fifo-dir-');
    copyFileSync(HOUSE, path.join(dpeDir, path.basename(HOUSE)));
    for (const id of FIFO_IDS) fifo(dpeDir, `${id}.xml`);
    // and one more FIFO under a name that is not a DPE number (only read for the index)
    fifo(dpeDir, 'zz-other.xml');
    mkdirSync(path.join(dpeDir, 'sub.xml'));
    writeFileSync(path.join(dpeDir, 'notes.txt'), 'x');
    srv = await startTestServer({ dpeDir });
  });
  afterAll(async () => srv?.close());

  it('twice as many requests for FIFO DPEs as libuv has file threads: 404 each, and a real DPE still answers', async () => {
    const answers = await Promise.all(
      [...FIFO_IDS, ...FIFO_IDS].map((dpeId) =>
        http<{ error: string }>(`${srv.url}/partners/dpe/pre`, {
          key: srv.keyA,
          body: { ...IDENTITY, dpeId },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(404));
    expect(answers[0]?.body.error).toBe(
      `DPE ${FIFO_IDS[0]} cannot be read on this server: its file in the server's DPE directory is not a regular file inside that directory`,
    );
    const ok = await http<{ maxCalculation: unknown }>(`${srv.url}/partners/dpe/pre`, {
      key: srv.keyA,
      body: { ...IDENTITY, dpeId: '0000E0000001H' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toHaveProperty('maxCalculation');
  });
});

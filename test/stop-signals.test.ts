/**
 * Ctrl-C (SIGINT) and SIGTERM stop every command that computes, with exit 130 or 143, and leave
 * nothing half done: no history row for a run stopped while computing, a batch output made of
 * whole lines that --resume completes. Behaviour tests: the signal is sent once the command is
 * under way (its store exists, its first lines are written, it listens), never timed.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { HistoryResponse } from '../src/contract/schemas.js';
import { HANG_MS } from './hang.js';
import { CORPUS, HAS_CORPUS, HOUSE, runCli, startCli, tempDir } from './helpers.js';
import { spawnServe } from './server-harness.js';

/** 1,510 m², 28 flats: `initial` takes seconds */
const BIG_DPE = '2535E0426429Q';

const SIGNALS = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const;

async function waitFor(check: () => boolean, what: string, timeoutMs = HANG_MS): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

async function historyRows(dataDir: string): Promise<HistoryResponse['records']> {
  const r = await runCli(['history', '--json', '--limit', '10000'], { dataDir });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as HistoryResponse).records;
}

function storeOf(dataDir: string): string {
  return path.join(dataDir, 'dpe-sim.sqlite');
}

interface Line {
  file: string | null;
  status: string;
}

function wholeLines(file: string): Line[] {
  const text = readFileSync(file, 'utf8');
  if (text === '') return [];
  expect(text.endsWith('\n'), 'the output ends on a whole line').toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
}

/**
 * Lines ended so far, while the batch still writes: a line of `initial` is tens of KB, written in
 * one call that a reader polling the file can catch half done (no assertion here: the lines are
 * checked whole once the batch has stopped).
 */
function endedLines(file: string): number {
  if (!existsSync(file)) return 0;
  const text = readFileSync(file, 'utf8');
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function copies(n: number): string {
  const dir = tempDir('dpe-sim-signal-batch-');
  for (let i = 0; i < n; i++)
    copyFileSync(HOUSE, path.join(dir, `house-${String(i).padStart(3, '0')}.xml`));
  return dir;
}

const COMMANDS: [string, string[]][] = [
  ['pre', ['pre', HOUSE]],
  ['initial', ['initial', HOUSE]],
  ['calc', ['calc', HOUSE, '--work', 'mur:0=ISOLATION:IMurITE37']],
];

describe('a single command stopped while it computes', () => {
  for (const [signal, code] of SIGNALS) {
    for (const [name, args] of COMMANDS) {
      it(`${name}: ${signal} → exit ${code}, no output, no history row`, async () => {
        const dataDir = tempDir();
        const { child, done } = startCli(args, { dataDir });
        // the store is opened before the engine is loaded and run: the command is under way
        await waitFor(() => existsSync(storeOf(dataDir)), 'the store');
        child.kill(signal);
        const r = await done;
        expect(r.code, r.stderr).toBe(code);
        expect(r.stdout).toBe('');
        expect(await historyRows(dataDir)).toEqual([]);
      });
    }
  }

  for (const [signal, code] of SIGNALS) {
    it(`audit --report: ${signal} → exit ${code}, no output, no report file, no history row`, async () => {
      const dataDir = tempDir();
      const report = path.join(tempDir('dpe-sim-signal-report-'), 'audit.html');
      const { child, done } = startCli(['audit', HOUSE, '--report', report], { dataDir });
      await waitFor(() => existsSync(storeOf(dataDir)), 'the store');
      child.kill(signal);
      const r = await done;
      expect(r.code, r.stderr).toBe(code);
      expect(r.stdout).toBe('');
      expect(existsSync(report)).toBe(false);
      expect(await historyRows(dataDir)).toEqual([]);
    });
  }

  it('the same commands left alone run to the end and record their runs (the test can fail)', async () => {
    const dataDir = tempDir();
    const r = await runCli(['initial', HOUSE], { dataDir });
    expect(r.code, r.stderr).toBe(0);
    expect((await historyRows(dataDir)).map((x) => x.operation)).toEqual(['initial']);
    const report = path.join(tempDir('dpe-sim-signal-report-'), 'audit.html');
    const a = await runCli(['audit', HOUSE, '--report', report], { dataDir });
    expect(a.code, a.stderr).toBe(0);
    expect(readFileSync(report, 'utf8')).toMatch(/<html/i);
    expect((await historyRows(dataDir)).map((x) => x.operation).sort()).toEqual([
      'audit',
      'initial',
    ]);
  });
});

/**
 * Items in the stopped batch: enough that two lines and a signal leave some unwritten, few enough
 * that the stop and the resume end well within the hang guard on a busy 2-core machine (16 took
 * longer than 900 s at load 8).
 */
const BATCH_ITEMS = 8;

describe('batch stopped by a signal', () => {
  for (const [signal, code] of SIGNALS) {
    it(`batch initial: ${signal} → exit ${code}, whole lines, one history row per line; --resume completes`, async () => {
      const dir = copies(BATCH_ITEMS);
      const dataDir = tempDir();
      const out = path.join(tempDir(), 'out.jsonl');
      const { child, done } = startCli(
        ['batch', 'initial', dir, '--out', out, '--concurrency', '2'],
        { dataDir },
      );
      await waitFor(() => endedLines(out) >= 2, 'two lines');
      child.kill(signal);
      const r = await done;
      expect(r.code, r.stderr).toBe(code);
      expect(r.stderr).toContain(`--resume ${out}`);
      const first = wholeLines(out);
      expect(first.length).toBeLessThan(BATCH_ITEMS);
      expect(first.every((l) => l.status === 'ok')).toBe(true);
      // a history row for every line written, none for the items stopped
      const rows = await historyRows(dataDir);
      expect(rows.filter((x) => x.operation === 'initial')).toHaveLength(first.length);

      const again = await runCli(['batch', 'initial', dir, '--resume', out], {
        dataDir,
      });
      expect(again.code, again.stderr).toBe(0);
      const all = wholeLines(out);
      expect(all).toHaveLength(BATCH_ITEMS);
      expect(new Set(all.map((l) => l.file)).size).toBe(BATCH_ITEMS);
    });
  }

  it.skipIf(!HAS_CORPUS)(
    'a second Ctrl-C exits at once (no summary), the output still whole lines',
    async () => {
      // the bundled house first (a line soon), then whole buildings: each computes for seconds,
      // far longer than the stop's grace
      const dir = tempDir('dpe-sim-signal-big-');
      const items = [HOUSE];
      for (let i = 0; i < 4; i++) {
        const copy = path.join(dir, `b${i}.xml`);
        copyFileSync(path.join(CORPUS, `${BIG_DPE}.xml`), copy);
        items.push(copy);
      }
      const list = path.join(dir, 'items.txt');
      writeFileSync(list, `${items.join('\n')}\n`);
      const dataDir = tempDir();
      const out = path.join(tempDir(), 'out.jsonl');
      const { child, done } = startCli(['batch', 'initial', list, '--out', out], { dataDir });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      await waitFor(() => endedLines(out) >= 1, 'the first line');
      child.kill('SIGINT');
      await waitFor(() => stderr.includes('Stopping:'), 'the first stop');
      child.kill('SIGINT');
      const r = await done;
      expect(r.code).toBe(130);
      expect(r.stderr).not.toContain('Interrupted:'); // the summary of a stop in steps
      const lines = wholeLines(out);
      expect(lines.map((l) => [l.file, l.status])).toEqual([[HOUSE, 'ok']]);
      expect(await historyRows(dataDir)).toHaveLength(1);
    },
  );
});

describe('serve stopped by a signal', () => {
  for (const [signal, code] of SIGNALS) {
    it(`${signal} → exit ${code}`, async () => {
      const dpeDir = tempDir();
      mkdirSync(dpeDir, { recursive: true });
      const serve = await spawnServe(['--data-dir', tempDir(), '--dpe-dir', dpeDir]);
      const exited = new Promise<number | null>((resolve) =>
        serve.child.once('exit', (c) => resolve(c)),
      );
      serve.child.kill(signal);
      expect(await exited).toBe(code);
      expect(serve.stderr()).toContain(`${signal}, stopping`);
    });
  }
});

import {
  copyFileSync,
  existsSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryResponse } from '../src/contract/schemas.js';
import { FLAT, HOUSE, STUDIO, runCli, startCli, tempDir } from './helpers.js';
import { HANG_MS } from './hang.js';

interface Line {
  dpeId: string;
  file: string | null;
  ok: boolean;
  status: 'ok' | 'blocked' | 'failed';
  exitCode: number;
  attempts: number;
  ms: number;
  result?: Record<string, unknown>;
  error?: { kind: string; message: string };
  skipped?: { referenceId: string; editableKey: string; editableValue: string; reason: string }[];
}

function parseLines(text: string): Line[] {
  if (text === '') return [];
  expect(text.endsWith('\n'), 'the output ends with a complete line').toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
}

function byKey(lines: Line[]): Map<string, Line> {
  return new Map(lines.map((l) => [l.file ?? l.dpeId, l]));
}

async function historyCount(dataDir: string, operation: string): Promise<number> {
  const r = await runCli(['history', '--json', '--limit', '10000'], { dataDir });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as HistoryResponse).records.filter((x) => x.operation === operation)
    .length;
}

async function waitForLines(file: string, n: number, timeoutMs = HANG_MS): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (existsSync(file) && readFileSync(file, 'utf8').split('\n').length > n) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${file} did not reach ${n} lines`);
}

/** A directory of `n` copies of the three fixtures (distinct files, so distinct items). */
function copies(n: number): string {
  const dir = tempDir('dpe-sim-batch-dir-');
  const fixtures = [HOUSE, FLAT, STUDIO];
  for (let i = 0; i < n; i++) {
    const src = fixtures[i % 3] as string;
    copyFileSync(src, path.join(dir, `${String(i).padStart(3, '0')}-${path.basename(src)}`));
  }
  return dir;
}

describe('dpe-sim batch (local backend)', () => {
  const work = tempDir('dpe-sim-batch-');
  const bad = path.join(work, 'bad.xml');
  writeFileSync(bad, '<dpe><administratif><numero_dpe>oops');

  it('gives the right line for good, blocked, unknown and malformed items, and exits 1', async () => {
    const dataDir = tempDir();
    const list = path.join(work, 'mixed.txt');
    writeFileSync(
      list,
      [
        '# the three fixtures, a broken file, an unknown and a malformed number',
        HOUSE,
        '',
        '0000E0000002F',
        `  ${STUDIO}  `,
        bad,
        '9999E9999999Z',
        'abc',
        '',
      ].join('\n'),
    );
    const out = path.join(work, 'mixed.jsonl');
    const r = await runCli(['batch', 'pre', list, '--out', out, '--concurrency', '2'], { dataDir });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/6 items in [\d.]+ s \([\d.]+ DPE\/s\): 3 ok, 1 blocked, 2 failed/);
    const lines = byKey(parseLines(readFileSync(out, 'utf8')));
    expect(lines.size).toBe(6);
    for (const l of lines.values()) {
      expect(Object.keys(l).slice(0, 7)).toEqual([
        'dpeId',
        'file',
        'ok',
        'status',
        'exitCode',
        'attempts',
        'ms',
      ]);
      expect(l.ms).toBeGreaterThanOrEqual(0);
    }
    expect(lines.get(HOUSE)).toMatchObject({
      dpeId: '0000E0000001H',
      ok: true,
      status: 'ok',
      exitCode: 0,
      attempts: 1,
    });
    expect(lines.get(HOUSE)?.result?.maxCalculation).toMatchObject({ consommationInitiale: 381 });
    expect(lines.get('0000E0000002F')).toMatchObject({
      file: null,
      ok: true,
      status: 'ok',
      exitCode: 0,
    });
    expect(lines.get(STUDIO)).toMatchObject({ dpeId: '0000E0000003T', status: 'ok' });
    const blocked = lines.get(bad);
    expect(blocked).toMatchObject({ ok: false, status: 'blocked', exitCode: 3 });
    expect((blocked?.result?.warnings as { type: string }[])[0]?.type).toBe('block');
    expect(lines.get('9999E9999999Z')).toMatchObject({
      ok: false,
      status: 'failed',
      exitCode: 2,
      error: { kind: 'not-found' },
    });
    expect(lines.get('abc')).toMatchObject({
      status: 'failed',
      exitCode: 2,
      error: { kind: 'invalid-input' },
    });
    // every run that got an answer is in the history, like a single `pre`; a blocked DPE too
    // (the spec: a valid pre request creates a login token; recorded as blocked)
    expect(await historyCount(dataDir, 'pre')).toBe(4);
  });

  it('keeps two files that carry the same DPE number apart', async () => {
    const dataDir = tempDir();
    const dir = tempDir('dpe-sim-batch-same-');
    const a = path.join(dir, 'a.xml');
    const b = path.join(dir, 'b.xml');
    copyFileSync(HOUSE, a);
    // the same number, a larger surface: other figures per m²; the same modification time
    writeFileSync(
      b,
      readFileSync(HOUSE, 'utf8').replace(
        '<surface_habitable_logement>95.4<',
        '<surface_habitable_logement>140<',
      ),
    );
    const when = new Date('2026-01-01T00:00:00Z');
    utimesSync(a, when, when);
    utimesSync(b, when, when);
    const out = path.join(dir, 'out.jsonl');
    const r = await runCli(['batch', 'pre', dir, '--out', out, '--concurrency', '1'], { dataDir });
    expect(r.code, r.stderr).toBe(0);
    const lines = byKey(parseLines(readFileSync(out, 'utf8')));
    for (const file of [a, b]) {
      const single = await runCli(['pre', file, '--json'], { dataDir });
      expect(single.code, single.stderr).toBe(0);
      const expected = (JSON.parse(single.stdout) as { maxCalculation: unknown }).maxCalculation;
      expect(lines.get(file)?.result?.maxCalculation, file).toEqual(expected);
    }
    expect(lines.get(a)?.result?.maxCalculation).not.toEqual(lines.get(b)?.result?.maxCalculation);
  });

  it('exits 0 when every item is ok or blocked; reads stdin; writes stdout', async () => {
    const r = await runCli(['batch', 'pre', '-'], { input: `${HOUSE}\n#\n${bad}\n` });
    expect(r.code, r.stderr).toBe(0);
    const lines = parseLines(r.stdout);
    expect(lines.map((l) => l.status).sort()).toEqual(['blocked', 'ok']);
    expect(r.stderr).toMatch(/1 ok, 1 blocked, 0 failed/);
  });

  it('a directory of links to XML files (a selection made with ln -s) runs each file they point to; a dangling link is its own failed line', async () => {
    const dir = tempDir('dpe-sim-batch-links-');
    symlinkSync(HOUSE, path.join(dir, 'house.xml'));
    symlinkSync(FLAT, path.join(dir, 'flat.xml'));
    symlinkSync(path.join(dir, 'gone.xml.orig'), path.join(dir, 'gone.xml'));
    const r = await runCli(['batch', 'pre', dir]);
    expect(r.code, r.stderr).toBe(1);
    const lines = byKey(parseLines(r.stdout));
    expect(lines.get(path.join(dir, 'house.xml'))?.status).toBe('ok');
    expect(lines.get(path.join(dir, 'flat.xml'))?.status).toBe('ok');
    expect(lines.get(path.join(dir, 'gone.xml'))?.status).toBe('failed');
    expect(r.stderr).toMatch(/3 items .*2 ok, 0 blocked, 1 failed/);
  });

  it('calc applies --works to every DPE and skips the changes a DPE has no element for', async () => {
    const dir = copies(3);
    const works = path.join(work, 'works.json');
    writeFileSync(
      works,
      JSON.stringify([
        { referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' },
        { referenceId: 'mur:42', editableKey: 'ISOLATION', editableValue: 'IMurITE37' },
      ]),
    );
    const dataDir = tempDir();
    const r = await runCli(['batch', 'calc', dir, '--works', works, '--scenario', 'walls'], {
      dataDir,
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = parseLines(r.stdout);
    expect(lines).toHaveLength(3);
    for (const l of lines) {
      expect(l.status).toBe('ok');
      expect(l.file?.startsWith(dir)).toBe(true);
      expect(l.skipped).toEqual([
        expect.objectContaining({
          referenceId: 'mur:42',
          editableKey: 'ISOLATION',
          reason: expect.stringMatching(/no element mur:42/) as unknown,
        }),
      ]);
      expect(l.result?.editableChanges).toEqual({
        editablesValues: [
          { referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' },
        ],
      });
    }
    const hist = await runCli(['history', '--json'], { dataDir });
    const recs = (JSON.parse(hist.stdout) as HistoryResponse).records;
    expect(recs.map((x) => [x.operation, x.scenario, x.works.length])).toEqual([
      ['calc', 'walls', 1],
      ['calc', 'walls', 1],
      ['calc', 'walls', 1],
    ]);

    const pre = await runCli(['batch', 'pre', dir, '--works', works]);
    expect(pre.code).toBe(2);
  });

  it('a batch killed with SIGKILL leaves every line it wrote intact; --resume finishes the rest', async () => {
    const dir = copies(60);
    const dataDir = tempDir();
    const out = path.join(work, 'killed.jsonl');
    const { child, done } = startCli(['batch', 'pre', dir, '--out', out, '--concurrency', '1'], {
      dataDir,
    });
    await waitForLines(out, 3);
    child.kill('SIGKILL');
    await done;
    const written = parseLines(readFileSync(out, 'utf8'));
    expect(written.length).toBeGreaterThanOrEqual(3);
    expect(written.length).toBeLessThan(60);
    expect(written.every((l) => l.status === 'ok')).toBe(true);
    // every line written was recorded (committed) before it was written
    expect(await historyCount(dataDir, 'pre')).toBeGreaterThanOrEqual(written.length);

    const r = await runCli(['batch', 'pre', dir, '--resume', out], { dataDir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${written.length} skipped (already done)`);
    const all = parseLines(readFileSync(out, 'utf8'));
    expect(all).toHaveLength(60);
    expect(new Set(all.map((l) => l.file)).size).toBe(60);
    const runs = await historyCount(dataDir, 'pre');
    expect(runs).toBeGreaterThanOrEqual(60);
    expect(runs).toBeLessThanOrEqual(62); // at most the items in flight at the kill were run twice
  });

  it('Ctrl-C stops cleanly: valid output, summary, exit 130; --resume redoes nothing', async () => {
    const dir = copies(60);
    const dataDir = tempDir();
    const out = path.join(work, 'interrupted.jsonl');
    const { child, done } = startCli(['batch', 'pre', dir, '--out', out, '--concurrency', '1'], {
      dataDir,
    });
    await waitForLines(out, 3);
    child.kill('SIGINT');
    const r = await done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/batch pre: \d+ items/);
    expect(r.stderr).toContain(`--resume ${out}`);
    const first = parseLines(readFileSync(out, 'utf8'));
    expect(first.length).toBeLessThan(60);
    expect(await historyCount(dataDir, 'pre')).toBe(first.length);

    const again = await runCli(['batch', 'pre', dir, '--resume', out], { dataDir });
    expect(again.code, again.stderr).toBe(0);
    const all = parseLines(readFileSync(out, 'utf8'));
    expect(all).toHaveLength(60);
    expect(new Set(all.map((l) => l.file)).size).toBe(60);
    expect(await historyCount(dataDir, 'pre')).toBe(60);
  });

  it('rejects bad usage with exit 2', async () => {
    for (const args of [
      ['batch', 'bogus', work],
      ['batch', 'pre', path.join(work, 'missing.txt')],
      ['batch', 'pre', work, '--concurrency', '0'],
      ['batch', 'pre', work, '--out', 'a.jsonl', '--resume', 'b.jsonl'],
    ]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
    }
  });

  it('a worker that runs out of memory: its item runs again in a fresh thread with more heap, with the same figures', async () => {
    const list = path.join(work, 'heap.txt');
    writeFileSync(list, `${HOUSE}\n${STUDIO}\n`);
    const run = async (heap: string | undefined) => {
      const out = path.join(work, `heap-${heap ?? 'usual'}.jsonl`);
      const r = await runCli(['batch', 'pre', list, '--out', out, '--concurrency', '1'], {
        dataDir: tempDir('dpe-sim-heap-'),
        env: heap ? { DPE_SIM_WORKER_HEAP_MB: heap } : {},
      });
      expect(r.code, r.stderr).toBe(0);
      const retried = `2 items took more than one attempt: jq -c 'select(.attempts > 1)' ${out}`;
      if (heap) expect(r.stderr).toContain(retried);
      else expect(r.stderr).not.toContain('more than one attempt');
      return byKey(parseLines(readFileSync(out, 'utf8')));
    };
    const usual = await run(undefined);
    // 16 MB is too small for the engine itself: every item dies once, then runs in 1 024 MB
    const tight = await run('16');
    for (const f of [HOUSE, STUDIO]) {
      expect(usual.get(f), f).toMatchObject({ status: 'ok', attempts: 1 });
      expect(tight.get(f), f).toMatchObject({ status: 'ok', attempts: 2 });
      const figures = (l: Line | undefined) =>
        JSON.stringify([l?.result?.maxCalculation ?? null, l?.result?.warnings ?? null]);
      expect(figures(tight.get(f)), f).toBe(figures(usual.get(f)));
      expect(usual.get(f)?.result?.maxCalculation, f).toMatchObject({
        consommationInitiale: expect.any(Number),
      });
    }
    // a heap size that is not one is refused before any work
    const bad = await runCli(['batch', 'pre', list], { env: { DPE_SIM_WORKER_HEAP_MB: '12x' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'DPE_SIM_WORKER_HEAP_MB must be a whole number of MB from 8 to 65536, not "12x"',
    );
    expect(bad.stdout).toBe('');
  });
});

describe('dpe-sim batch (remote backend)', () => {
  let active = 0;
  let maxActive = 0;
  const calls = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      active++;
      maxActive = Math.max(maxActive, active);
      setTimeout(() => {
        active--;
        const { dpeId } = JSON.parse(body) as { dpeId: string };
        const n = (calls.get(dpeId) ?? 0) + 1;
        calls.set(dpeId, n);
        res.setHeader('content-type', 'application/json');
        if (req.url !== '/partners/dpe/pre' || dpeId === '9999E9999999Z') {
          res.statusCode = 404;
          res.end(JSON.stringify({ error: `DPE ${dpeId} not found` }));
        } else if (dpeId === '0000E0000001H' && n === 1) {
          res.statusCode = 503;
          res.setHeader('retry-after', '0');
          res.end(JSON.stringify({ error: 'busy' }));
        } else {
          const m = {
            consommationInitiale: 100,
            consommationXML: 100,
            gesInitiale: 5,
            gesXML: 5,
            deltaConso: 0,
            deltaGES: 0,
          };
          res.end(
            JSON.stringify({
              url: 'http://app.example/login?t=x',
              maxCalculation: m,
              warnings: [],
            }),
          );
        }
      }, 50);
    });
  });
  let baseUrl = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('runs N requests at a time with the retries, one line per item', async () => {
    const ids = [
      '0000E0000001H',
      '0000E0000002F',
      '0000E0000003T',
      '1234E1234567A',
      '9999E9999999Z',
    ];
    const r = await runCli(['batch', 'pre', '-', '--concurrency', '2', '--retries', '2'], {
      input: [...ids, 'abc', HOUSE].join('\n'),
      env: {
        DPE_SIM_BASE_URL: baseUrl,
        DPE_SIM_PARTNER_KEY: 'dpsk_test',
        // remote mode invents no identity
        DPE_SIM_CUSTOMER_ID: 'acme',
        DPE_SIM_USER_ID: 'batch-user',
      },
    });
    expect(r.code, r.stderr).toBe(1);
    const lines = byKey(parseLines(r.stdout));
    expect(lines.size).toBe(7);
    expect(lines.get('0000E0000001H')).toMatchObject({ status: 'ok', attempts: 2 });
    expect(lines.get('0000E0000002F')).toMatchObject({ status: 'ok', attempts: 1 });
    expect(lines.get('9999E9999999Z')).toMatchObject({
      status: 'failed',
      exitCode: 2,
      attempts: 1,
      error: { kind: 'not-found' },
    });
    expect(lines.get('abc')).toMatchObject({ status: 'failed', exitCode: 2 });
    expect(lines.get(HOUSE)).toMatchObject({ status: 'failed', exitCode: 2 });
    expect(lines.get(HOUSE)?.error?.message).toMatch(/only with the local backend/);
    // the summary counts the item the 503 made try twice (output on stdout: no jq line)
    expect(r.stderr).toContain("1 item took more than one attempt (their lines' attempts)");
    expect(maxActive).toBe(2);
  });
});

describe('the batch output file', () => {
  it('--resume reads what is done and cuts a line left incomplete by a crash', async () => {
    const { doneItems, openSink } = await import('../src/batch/output.js');
    const file = path.join(tempDir(), 'out.jsonl');
    const ok = { dpeId: '0000E0000001H', file: '/a.xml', ok: true, status: 'ok' };
    const failed = { dpeId: '9999E9999999Z', file: null, ok: false, status: 'failed' };
    const blocked = { dpeId: '/b.xml', file: '/b.xml', ok: false, status: 'blocked' };
    writeFileSync(
      file,
      `${[ok, failed, blocked].map((l) => JSON.stringify(l)).join('\n')}\n{"dpeId":"0000E00`,
    );
    expect([...(await doneItems(file))].sort()).toEqual(['/a.xml', '/b.xml']);
    const sink = openSink(file, true, () => {});
    sink.write(JSON.stringify({ ...failed, status: 'ok' }));
    sink.close();
    const lines = parseLines(readFileSync(file, 'utf8'));
    expect(lines.map((l) => l.status)).toEqual(['ok', 'failed', 'blocked', 'ok']);
    expect(await doneItems(path.join(tempDir(), 'none.jsonl'))).toEqual(new Set());
  });
});

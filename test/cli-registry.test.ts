/**
 * A DPE number is enough: the built CLI and `dpe-sim serve` with an empty --dpe-dir, the DPEs
 * fetched from a stand-in registry on 127.0.0.1, cached, and used offline. Every failure path:
 * its exit code and its one-line message.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';
import { http, IDENTITY, spawnServe } from './server-harness.js';
import { deadBase, REG, renumbered, startStandIn, type StandIn } from './registry-standin.js';
import { HOUSE } from './helpers.js';

let reg: StandIn;
beforeAll(async () => {
  reg = await startStandIn({ slowMs: 3_000 });
});
afterAll(() => reg.close());

/** The environment of an online run against `base`, with short delays. */
function online(
  base: string,
  extra: Record<string, string> = {},
): Record<string, string | undefined> {
  return {
    DPE_SIM_OFFLINE: undefined,
    DPE_SIM_REGISTRY_URL: base,
    DPE_SIM_REGISTRY_BACKOFF_MS: '1',
    DPE_SIM_REGISTRY_TIMEOUT: '2',
    DPE_SIM_REGISTRY_RETRIES: '2',
    ...extra,
  };
}

const url = (base: string, numero: string) => `${base}/${numero}/xml`;
const cacheFile = (dataDir: string, numero: string) =>
  path.join(dataDir, 'cache', 'dpe', `${numero}.xml`);

describe('pre, initial, calc from a number alone', () => {
  it('fetches from the registry, then serves from the cache, also once the registry is gone', async () => {
    const own = await startStandIn();
    const dataDir = tempDir();
    const empty = tempDir();
    const env = online(own.base);
    const pre = await runCli(['--dpe-dir', empty, 'pre', REG.house], { dataDir, env });
    expect(pre.code).toBe(0);
    expect(pre.stdout).toContain('Primary energy (kWh/m²/yr)\t381');
    expect(pre.stdout).toContain(`DPE XML: national registry (${url(own.base, REG.house)})`);
    expect(own.hits.get(REG.house)).toBe(1);
    expect(existsSync(cacheFile(dataDir, REG.house))).toBe(true);
    await own.close();

    const initial = await runCli(['--dpe-dir', empty, 'initial', REG.house, '--json'], {
      dataDir,
      env,
    });
    expect(initial.code).toBe(0);
    const body = JSON.parse(initial.stdout) as { dpe: { id: string }; dpeSource: unknown };
    expect(body.dpe.id).toBe(REG.house);
    expect(body.dpeSource).toEqual({ origin: 'cache', location: cacheFile(dataDir, REG.house) });

    const calc = await runCli(
      ['--dpe-dir', empty, 'calc', REG.house, '--work', 'mur:0=ISOLATION:IMurITE37'],
      { dataDir, env },
    );
    expect(calc.code).toBe(0);
    expect(calc.stdout).toMatch(new RegExp(`DPE ${REG.house}: F (→ |\\(unchanged\\))`));
    expect(calc.stdout).toContain(`DPE XML: local cache (${cacheFile(dataDir, REG.house)})`);
  });

  it('offline: a cached number works, no request is made', async () => {
    const dataDir = tempDir();
    const fetched = await runCli(['--dpe-dir', tempDir(), 'pre', REG.flat, '--json'], {
      dataDir,
      env: online(reg.base),
    });
    expect(fetched.code).toBe(0);
    expect(JSON.parse(fetched.stdout).dpeSource).toEqual({
      origin: 'registry',
      location: url(reg.base, REG.flat),
    });
    const hits = reg.hits.get(REG.flat);
    const offline = await runCli(['--offline', '--dpe-dir', tempDir(), 'pre', REG.flat, '--json'], {
      dataDir,
      env: online(reg.base),
    });
    expect(offline.code).toBe(0);
    expect(JSON.parse(offline.stdout).dpeSource.origin).toBe('cache');
    expect(reg.hits.get(REG.flat)).toBe(hits);
  });
});

describe('failure paths: exit code and one line', () => {
  const fail = async (numero: string, extra: Record<string, string> = {}, base = reg.base) => {
    const dataDir = tempDir();
    const r = await runCli(['--dpe-dir', tempDir(), 'pre', numero], {
      dataDir,
      env: online(base, extra),
    });
    expect(r.stdout).toBe('');
    expect(r.stderr.endsWith('\n')).toBe(true);
    // one voice for errors: "error: what happened", then "hint: what to do"
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^error: /);
    expect(lines.slice(1).every((l) => l.startsWith('hint: '))).toBe(true);
    expect(existsSync(cacheFile(dataDir, numero))).toBe(false);
    return { code: r.code, line: lines[0] ?? '' };
  };

  it('404 and HTML page: exit 2 naming the number', async () => {
    expect(await fail(REG.unknown)).toEqual({
      code: 2,
      line: `error: DPE ${REG.unknown} is unknown to the registry (${url(reg.base, REG.unknown)} answered HTTP 404)`,
    });
    expect(await fail(REG.htmlPage)).toEqual({
      code: 2,
      line: `error: DPE ${REG.htmlPage} is unknown to the registry (${url(reg.base, REG.htmlPage)} answered an HTML page, not a DPE)`,
    });
  });

  it('5xx after the retries, a timeout, no registry: exit 1 naming the URL and the cause', async () => {
    expect(await fail(REG.down)).toEqual({
      code: 1,
      line: `error: cannot fetch DPE ${REG.down} from the registry ${url(reg.base, REG.down)}: HTTP 503 Service Unavailable (after 3 attempts)`,
    });
    expect(
      await fail(REG.slow, { DPE_SIM_REGISTRY_TIMEOUT: '0.3', DPE_SIM_REGISTRY_RETRIES: '0' }),
    ).toEqual({
      code: 1,
      line: `error: cannot fetch DPE ${REG.slow} from the registry ${url(reg.base, REG.slow)}: no answer within 0.3 s (after 1 attempt)`,
    });
    const dead = await deadBase();
    expect(await fail(REG.house, {}, dead)).toEqual({
      code: 1,
      line: `error: cannot fetch DPE ${REG.house} from the registry ${url(dead, REG.house)}: ECONNREFUSED (after 3 attempts)`,
    });
  });

  it('a truncated XML or another number: exit 1, nothing cached', async () => {
    const cut = await fail(REG.truncated);
    expect(cut.code).toBe(1);
    expect(cut.line).toMatch(
      new RegExp(
        `^error: the registry's answer for DPE ${REG.truncated} \\(.*\\) is not that DPE: malformed XML: .*; nothing was cached$`,
      ),
    );
    expect(await fail(REG.otherNumber)).toEqual({
      code: 1,
      line: `error: the registry's answer for DPE ${REG.otherNumber} (${url(reg.base, REG.otherNumber)}) is not that DPE: the document is DPE ${REG.house}, not ${REG.otherNumber}; nothing was cached`,
    });
  });

  it('offline and not cached: exit 2 saying how to fetch it', async () => {
    const r = await fail(REG.house, { DPE_SIM_OFFLINE: '1' });
    expect(r.code).toBe(2);
    expect(r.line).toMatch(
      new RegExp(
        `^error: DPE ${REG.house} not found in .*, and it is not cached \\(.*\\); offline mode \\(--offline or DPE_SIM_OFFLINE=1\\) asks no registry: fetch it first with \`dpe-sim cache fetch ${REG.house}\``,
      ),
    );
  });

  it('address precedence: --registry-url > DPE_SIM_REGISTRY_URL > profile registryUrl', async () => {
    const [a, b, c] = [await deadBase(), await deadBase(), await deadBase()];
    const dataDir = tempDir();
    const set = await runCli(['config', 'set', 'registryUrl', a], { dataDir });
    expect(set.code).toBe(0);
    const named = async (args: string[], env: Record<string, string | undefined>) => {
      const r = await runCli([...args, '--dpe-dir', tempDir(), 'pre', REG.house], {
        dataDir,
        env: { ...online('unused'), DPE_SIM_REGISTRY_RETRIES: '0', ...env },
      });
      expect(r.code).toBe(1);
      return /from the registry (\S+):/.exec(r.stderr)?.[1];
    };
    expect(await named([], { DPE_SIM_REGISTRY_URL: undefined })).toBe(url(a, REG.house));
    expect(await named([], { DPE_SIM_REGISTRY_URL: b })).toBe(url(b, REG.house));
    expect(await named(['--registry-url', c], { DPE_SIM_REGISTRY_URL: b })).toBe(url(c, REG.house));
  });
});

describe('dpe-sim cache', () => {
  it('fetch (per-number results, exit 1 if any failed), list, offline use, clear', async () => {
    const dataDir = tempDir();
    const ids = path.join(tempDir(), 'ids.txt');
    writeFileSync(ids, `# to fetch\n${REG.house}\n${REG.flat}\n\n${REG.unknown}\nnot-a-number\n`);
    const env = online(reg.base);
    const fetch = await runCli(['cache', 'fetch', ids, '--json'], { dataDir, env });
    expect(fetch.code).toBe(1);
    const lines = fetch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { dpeId: string });
    const by = new Map(lines.map((l) => [l.dpeId, l]));
    expect(lines).toHaveLength(4);
    expect(by.get(REG.house)).toEqual({
      dpeId: REG.house,
      ok: true,
      origin: 'registry',
      location: url(reg.base, REG.house),
    });
    expect(by.get(REG.unknown)).toMatchObject({
      ok: false,
      error: { kind: 'not-found', details: { status: 404 } },
    });
    // a line that is not a mistyped number is not echoed (the list may be any file)
    expect(by.get('(not shown)')).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid-input',
        message: expect.stringContaining('line 4 (of the non-blank lines)'),
      },
    });
    expect(fetch.stderr).toContain('2 fetched from the registry, 0 already cached, 2 failed');

    const again = await runCli(['cache', 'fetch', '-'], { dataDir, env, input: `${REG.house}\n` });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${REG.house}  already cached\n`);
    // numbers on the command line, not only a file of them (issue 38)
    const byNumber = await runCli(['cache', 'fetch', REG.house, REG.flat], { dataDir, env });
    expect(byNumber.code, byNumber.stderr).toBe(0);
    expect(byNumber.stdout.split('\n').sort()).toEqual(
      ['', `${REG.flat}  already cached`, `${REG.house}  already cached`].sort(),
    );

    const list = await runCli(['cache', 'list', '--json'], { dataDir });
    const summary = JSON.parse(list.stdout) as {
      count: number;
      bytes: number;
      oldest: { dpeId: string };
    };
    expect(summary.count).toBe(2);
    const size =
      readFileSync(cacheFile(dataDir, REG.house)).length +
      readFileSync(cacheFile(dataDir, REG.flat)).length;
    expect(summary.bytes).toBe(size);
    const human = await runCli(['cache', 'list'], { dataDir });
    expect(human.stdout).toMatch(
      new RegExp(
        `^2 DPEs cached in .*cache/dpe, .* KiB; oldest: 2535E04264(29Q|30A), cached \\d{4}-`,
      ),
    );

    // ahead of an offline run
    const offline = await runCli(['--offline', '--dpe-dir', tempDir(), 'pre', REG.flat, '--json'], {
      dataDir,
    });
    expect(offline.code).toBe(0);

    const clear = await runCli(['cache', 'clear'], { dataDir });
    expect(clear.code).toBe(0);
    expect(clear.stdout).toMatch(/^Removed 2 cached DPEs \(/);
    expect(JSON.parse((await runCli(['cache', 'list', '--json'], { dataDir })).stdout).count).toBe(
      0,
    );
  });

  it('fetch --concurrency is checked', async () => {
    const r = await runCli(['cache', 'fetch', '-', '--concurrency', '0'], { input: '' });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')[0]).toBe(
      "error: --concurrency must be an integer from 1 to 16 (got '0')",
    );
  });
});

describe('batch from numbers alone', () => {
  it('fetches apart from the workers, reports fetch failures as typed errors, --resume retries them', async () => {
    const own = await startStandIn();
    try {
      const dataDir = tempDir();
      const dir = tempDir();
      const ids = path.join(dir, 'ids.txt');
      const out = path.join(dir, 'out.jsonl');
      writeFileSync(ids, `${REG.house}\n${REG.unknown}\n${REG.down}\n`);
      const args = [
        '--dpe-dir',
        tempDir(),
        'batch',
        'pre',
        ids,
        '--concurrency',
        '1',
        '--fetch-concurrency',
        '2',
      ];
      const first = await runCli([...args, '--out', out], { dataDir, env: online(own.base) });
      expect(first.code).toBe(1);
      const read = () =>
        new Map(
          readFileSync(out, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { dpeId: string; status: string })
            .map((l) => [l.dpeId, l]),
        );
      const lines = read();
      expect(lines.get(REG.house)).toMatchObject({
        status: 'ok',
        result: { maxCalculation: { consommationInitiale: 381 }, dpeSource: { origin: 'cache' } },
      });
      expect(lines.get(REG.unknown)).toMatchObject({
        status: 'failed',
        exitCode: 2,
        error: { kind: 'not-found' },
      });
      expect(lines.get(REG.down)).toMatchObject({
        status: 'failed',
        exitCode: 1,
        error: { kind: 'runtime' },
      });

      // the registry is back for that number: --resume retries the failed items only
      own.failing.delete(REG.down);
      own.xml.set(REG.down, renumbered(HOUSE, REG.down));
      const houseHits = own.hits.get(REG.house);
      const resumed = await runCli([...args, '--resume', out], { dataDir, env: online(own.base) });
      expect(resumed.code).toBe(1); // the unknown number still fails
      expect(own.hits.get(REG.house)).toBe(houseHits);
      const all = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { dpeId: string; status: string });
      expect(all.filter((l) => l.dpeId === REG.down).map((l) => l.status)).toEqual([
        'failed',
        'ok',
      ]);
    } finally {
      await own.close();
    }
  });
});

describe('serve answers for any number the registry has', () => {
  it('pre on a number fetched from the stand-in; an unknown number is 404', async () => {
    const dataDir = tempDir();
    const created = await runCli(['keys', 'create', 'acme'], { dataDir });
    const key = created.stdout.trim();
    const serve = await spawnServe(
      ['--data-dir', dataDir, '--dpe-dir', tempDir()],
      online(reg.base),
    );
    try {
      expect(serve.stderr()).toContain(`then the registry ${url(reg.base, '<numero>')}`);
      const ok = await http<{
        maxCalculation: { consommationInitiale: number };
        dpeSource: unknown;
      }>(`${serve.url}/partners/dpe/pre`, { key, body: { ...IDENTITY, dpeId: REG.house } });
      expect(ok.status).toBe(200);
      expect(ok.body.maxCalculation.consommationInitiale).toBe(381);
      // the server shows the registry's URL, never its own paths
      expect(ok.body.dpeSource).toEqual({ origin: 'registry', location: url(reg.base, REG.house) });
      const again = await http<{ dpeSource: unknown }>(`${serve.url}/partners/dpe/pre`, {
        key,
        body: { ...IDENTITY, dpeId: REG.house },
      });
      expect(again.body.dpeSource).toEqual({ origin: 'cache' });
      const unknown = await http(`${serve.url}/partners/dpe/pre`, {
        key,
        body: { ...IDENTITY, dpeId: REG.unknown },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({
        error: `unknown dpeId '${REG.unknown}'`,
        errorObject: { reason: 'unknown-dpe', dpeId: REG.unknown },
      });
    } finally {
      await serve.stop();
    }
  });
});

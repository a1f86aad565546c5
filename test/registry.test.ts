/**
 * The registry client, the response check, the cache, the lookup chain and the prefetch, in
 * process, against a stand-in registry on 127.0.0.1 (never the real address).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DpeSimError } from '../src/contract/errors.js';
import { DirectoryDpeSource } from '../src/dpe/source.js';
import { DpeCache } from '../src/registry/cache.js';
import { ChainedDpeSource, openDpeSource } from '../src/registry/chained-source.js';
import { checkDpeDocument, rootElementName } from '../src/registry/check.js';
import {
  RegistryClient,
  registryUrlFor,
  DEFAULT_REGISTRY_URL,
  REGISTRY_UNREACHABLE_HINT,
} from '../src/registry/client.js';
import { prefetch } from '../src/registry/prefetch.js';
import { retryAfterMs, retryDelayMs } from '../src/registry/retry.js';
import { resolveRegistrySettings } from '../src/registry/settings.js';
import { USER_AGENT } from '../src/registry/user-agent.js';
import { prefetchingExecutor } from '../src/batch/prefetch.js';
import type { Executor } from '../src/batch/executors.js';
import type { ItemOutcome, SourceItem } from '../src/batch/item.js';
import { HOUSE, tempDir } from './helpers.js';
import { REG, deadBase, renumbered, startStandIn, type StandIn } from './registry-standin.js';

async function failure(p: Promise<unknown>): Promise<DpeSimError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DpeSimError) return err;
    throw err;
  }
  throw new Error('expected a DpeSimError, got a success');
}

describe('retry delays', () => {
  it('exponential backoff with jitter between half and all of base·2^(n-1)', () => {
    expect(retryDelayMs(1, 100, null, 0, () => 0)).toBe(50);
    expect(retryDelayMs(1, 100, null, 0, () => 1)).toBe(100);
    expect(retryDelayMs(3, 100, null, 0, () => 0)).toBe(200);
    expect(retryDelayMs(3, 100, null, 0, () => 1)).toBe(400);
    // capped at a minute
    expect(retryDelayMs(20, 100, null, 0, () => 1)).toBe(60_000);
  });

  it('Retry-After in seconds or as an HTTP date wins when it asks for longer', () => {
    expect(retryAfterMs('3')).toBe(3000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryDelayMs(1, 100, '3', now, () => 1)).toBe(3000);
    expect(retryDelayMs(1, 10_000, '1', now, () => 1)).toBe(10_000);
    expect(retryDelayMs(1, 100, '3600', now, () => 1)).toBe(60_000);
  });
});

describe('the response check', () => {
  const house = renumbered(HOUSE, REG.house);
  it('accepts the DPE asked for, and says why anything else is not it', () => {
    expect(checkDpeDocument(REG.house, house, 'application/xml')).toEqual({ ok: true });
    expect(checkDpeDocument(REG.house, '<!DOCTYPE html><html></html>', null)).toMatchObject({
      ok: false,
      reason: 'html',
    });
    expect(checkDpeDocument(REG.house, house, 'text/html')).toMatchObject({ reason: 'html' });
    expect(checkDpeDocument(REG.house, house.slice(0, 5000), null)).toMatchObject({
      reason: 'malformed-xml',
    });
    expect(
      checkDpeDocument(
        REG.house,
        '<?xml version="1.0"?><rset><numero_dpe>x</numero_dpe></rset>',
        null,
      ),
    ).toMatchObject({
      reason: 'not-a-dpe',
      detail: 'not a DPE document: the root element is <rset>, not <dpe>',
    });
    expect(checkDpeDocument(REG.flat, house, null)).toEqual({
      ok: false,
      reason: 'number-mismatch',
      detail: `the document is DPE ${REG.house}, not ${REG.flat}`,
      found: REG.house,
    });
    expect(rootElementName('\uFEFF<?xml version="1.0"?>\n<!-- c -->\n<dpe version="2">')).toBe(
      'dpe',
    );
  });

  it('registry addresses: {numero} replaced, or /<numero>/xml appended to a base', () => {
    expect(registryUrlFor(DEFAULT_REGISTRY_URL, REG.house)).toBe(
      `https://observatoire-dpe-audit.ademe.fr/pub/dpe/${REG.house}/xml`,
    );
    expect(registryUrlFor('http://h/pub/dpe/', REG.house)).toBe(
      `http://h/pub/dpe/${REG.house}/xml`,
    );
  });

  it('settings: defaults, offline from the environment, bad knobs refused', () => {
    const s = resolveRegistrySettings(
      { registryUrl: undefined, offline: undefined, dataDir: '/d' },
      {},
    );
    expect(s).toEqual({
      url: DEFAULT_REGISTRY_URL,
      offline: false,
      timeoutMs: 15_000,
      retries: 3,
      backoffMs: 500,
      cacheDir: path.join('/d', 'cache', 'dpe'),
    });
    expect(
      resolveRegistrySettings(
        { registryUrl: 'http://x', offline: undefined, dataDir: '/d' },
        { DPE_SIM_OFFLINE: '1' },
      ),
    ).toMatchObject({ url: 'http://x', offline: true });
    expect(() =>
      resolveRegistrySettings(
        { registryUrl: undefined, offline: false, dataDir: '/d' },
        { DPE_SIM_REGISTRY_RETRIES: 'many' },
      ),
    ).toThrow("DPE_SIM_REGISTRY_RETRIES must be an integer from 0 to 10 (got 'many')");
    expect(() =>
      resolveRegistrySettings(
        { registryUrl: undefined, offline: false, dataDir: '/d' },
        { DPE_SIM_REGISTRY_TIMEOUT: '3e6' },
      ),
    ).toThrow(
      "DPE_SIM_REGISTRY_TIMEOUT must be a number of seconds above 0, at most 86400 (a day) (got '3e6')",
    );
  });
});

describe('the registry client against a stand-in registry', () => {
  let reg: StandIn;
  const delays: number[] = [];
  const client = (over: Partial<ConstructorParameters<typeof RegistryClient>[0]> = {}) =>
    new RegistryClient({
      url: reg.base,
      timeoutMs: 2_000,
      retries: 2,
      backoffMs: 1,
      sleep: async (ms) => {
        delays.push(ms);
      },
      ...over,
    });
  beforeAll(async () => {
    reg = await startStandIn({ slowMs: 3_000 });
  });
  afterAll(() => reg.close());

  it('fetches a DPE, with a User-Agent naming dpe-sim, its version and the project URL', async () => {
    const doc = await client().fetchDpe(REG.house);
    expect(doc).toMatchObject({
      dpeId: REG.house,
      url: `${reg.base}/${REG.house}/xml`,
      attempts: 1,
    });
    expect(doc.xml).toContain(`<numero_dpe>${REG.house}</numero_dpe>`);
    expect(reg.userAgents.at(-1)).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/^dpe-sim\/0\.1\.0 \(\+https:\/\/\S+\)$/);
  });

  it('a 404 or an HTML page: not-found naming the number, not retried', async () => {
    const e404 = await failure(client().fetchDpe(REG.unknown));
    expect(e404.kind).toBe('not-found');
    expect(e404.message).toBe(
      `DPE ${REG.unknown} is unknown to the registry (${reg.base}/${REG.unknown}/xml answered HTTP 404)`,
    );
    expect(e404.details).toEqual({
      reason: 'unknown-dpe',
      dpeId: REG.unknown,
      registryUrl: `${reg.base}/${REG.unknown}/xml`,
      status: 404,
    });
    expect(reg.hits.get(REG.unknown)).toBe(1);
    const page = await failure(client().fetchDpe(REG.htmlPage));
    expect(page.kind).toBe('not-found');
    expect(page.details).toMatchObject({
      dpeId: REG.htmlPage,
      reason: 'unknown-dpe',
      answer: 'html',
    });
  });

  it('503 then success: retried after the Retry-After delay', async () => {
    delays.length = 0;
    const doc = await client().fetchDpe(REG.flaky);
    expect(doc.attempts).toBe(2);
    expect(delays).toEqual([3000]);
  });

  it('429 then success: Retry-After honoured', async () => {
    delays.length = 0;
    const doc = await client().fetchDpe(REG.limited);
    expect(doc.attempts).toBe(2);
    expect(delays).toEqual([7000]);
  });

  it('503 every time: runtime after the retries, naming the URL and the cause', async () => {
    delays.length = 0;
    const before = reg.hits.get(REG.down) ?? 0;
    const err = await failure(client().fetchDpe(REG.down));
    expect(err.kind).toBe('runtime');
    expect(err.message).toBe(
      `cannot fetch DPE ${REG.down} from the registry ${reg.base}/${REG.down}/xml: HTTP 503 Service Unavailable (after 3 attempts)`,
    );
    expect(err.details).toMatchObject({
      status: 503,
      attempts: 3,
      cause: 'HTTP 503 Service Unavailable',
    });
    expect((reg.hits.get(REG.down) ?? 0) - before).toBe(3);
    // backoff 1 ms doubled, with jitter
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeLessThanOrEqual(1);
    expect(delays[1]).toBeLessThanOrEqual(2);
  });

  it('a slow answer: timeout per attempt, then runtime', async () => {
    const err = await failure(client({ timeoutMs: 200, retries: 1 }).fetchDpe(REG.slow));
    expect(err.kind).toBe('runtime');
    expect(err.message).toBe(
      `cannot fetch DPE ${REG.slow} from the registry ${reg.base}/${REG.slow}/xml: no answer within 0.2 s (after 2 attempts)`,
    );
  });

  it('no registry at the address: runtime with the network cause', async () => {
    const base = await deadBase();
    const err = await failure(client({ url: base, retries: 1 }).fetchDpe(REG.house));
    expect(err.kind).toBe('runtime');
    expect(err.message).toBe(
      `cannot fetch DPE ${REG.house} from the registry ${base}/${REG.house}/xml: ECONNREFUSED (after 2 attempts)`,
    );
    expect(err.details).toEqual({
      reason: 'registry-unreachable',
      dpeId: REG.house,
      registryUrl: `${base}/${REG.house}/xml`,
      cause: 'ECONNREFUSED',
      attempts: 2,
      timedOut: false,
      retryAfterSeconds: 10,
      hint: REGISTRY_UNREACHABLE_HINT,
    });
    // the registry is unreachable for every number: the next lookups fail at once, asking nothing
    const again = client({ url: base, retries: 1 });
    await failure(again.fetchDpe(REG.house));
    const fast = await failure(again.fetchDpe(REG.flat));
    expect(fast.message).toMatch(
      new RegExp(
        `^cannot fetch DPE ${REG.flat} from the registry ${base}/${REG.flat}/xml: the registry did not answer the last lookup \\(ECONNREFUSED\\); retry in (10|9) s$`,
      ),
    );
    expect(fast.details).toMatchObject({ attempts: 0, reason: 'registry-unreachable' });
  });

  it('a truncated XML or another number: runtime, with the reason', async () => {
    const cut = await failure(client().fetchDpe(REG.truncated));
    expect(cut.kind).toBe('runtime');
    expect(cut.details).toMatchObject({ answer: 'malformed-xml' });
    expect(cut.message).toMatch(
      /^the registry's answer for DPE 2535E0000000T \(.*\) is not that DPE: malformed XML: .*; nothing was cached$/,
    );
    const other = await failure(client().fetchDpe(REG.otherNumber));
    expect(other.kind).toBe('runtime');
    expect(other.details).toMatchObject({ answer: 'number-mismatch', found: REG.house });
    expect(other.message).toContain(`the document is DPE ${REG.house}, not ${REG.otherNumber}`);
  });
});

describe('the cache and the lookup chain', () => {
  let reg: StandIn;
  beforeAll(async () => {
    reg = await startStandIn();
  });
  afterAll(() => reg.close());

  const settings = (dataDir: string, offline = false) =>
    resolveRegistrySettings(
      { registryUrl: reg.base, offline, dataDir },
      { DPE_SIM_REGISTRY_BACKOFF_MS: '1' },
    );

  it('directory first, then the cache, then the registry; the registry goes away and the cache still serves', async () => {
    const data = tempDir();
    const source = openDpeSource(path.dirname(HOUSE), settings(data));
    // in the directory: never asks the registry
    const local = await source.read('0000E0000001H');
    expect(local).toMatchObject({ origin: 'file', file: HOUSE });
    const first = await source.read(REG.house);
    expect(first).toMatchObject({
      origin: 'registry',
      file: `${reg.base}/${REG.house}/xml`,
      key: REG.house,
    });
    const cached = path.join(data, 'cache', 'dpe', `${REG.house}.xml`);
    expect(readFileSync(cached, 'utf8')).toBe(first.xml);
    expect(readdirSync(path.dirname(cached))).toEqual([`${REG.house}.xml`]); // no temp file left
    await reg.close();
    const again = await openDpeSource(path.dirname(HOUSE), settings(data)).read(REG.house);
    expect(again).toMatchObject({ origin: 'cache', file: cached, xml: first.xml });
    reg = await startStandIn();
  });

  it('concurrent reads of one number make one request', async () => {
    const data = tempDir();
    const source = openDpeSource(undefined, settings(data));
    const texts = await Promise.all([1, 2, 3, 4].map(() => source.read(REG.flat)));
    expect(texts.every((t) => t.origin === 'registry')).toBe(true);
    expect(reg.hits.get(REG.flat)).toBe(1);
  });

  it('a rejected answer is not cached', async () => {
    const data = tempDir();
    const source = openDpeSource(undefined, settings(data));
    expect((await failure(source.read(REG.otherNumber))).kind).toBe('runtime');
    expect(existsSync(path.join(data, 'cache', 'dpe', `${REG.otherNumber}.xml`))).toBe(false);
  });

  it('offline: no request; a number not cached is not-found, saying how to fetch it', async () => {
    const data = tempDir();
    const empty = tempDir();
    const before = reg.hits.get(REG.house) ?? 0;
    const source = openDpeSource(empty, settings(data, true));
    const err = await failure(source.read(REG.house));
    expect(err.kind).toBe('not-found');
    expect(err.message).toBe(
      `DPE ${REG.house} not found in ${empty}, and it is not cached (${path.join(data, 'cache', 'dpe')}); offline mode (--offline or DPE_SIM_OFFLINE=1) asks no registry: fetch it first with \`dpe-sim cache fetch ${REG.house}\` or run without --offline`,
    );
    expect(err.details).toMatchObject({ dpeId: REG.house, directory: empty, offline: true });
    expect(reg.hits.get(REG.house) ?? 0).toBe(before);
    // once cached, offline works
    await new DpeCache(path.join(data, 'cache', 'dpe')).write(
      REG.house,
      renumbered(HOUSE, REG.house),
    );
    expect((await source.read(REG.house)).origin).toBe('cache');
  });

  it('cache list and clear', async () => {
    const dir = path.join(tempDir(), 'cache', 'dpe');
    const cache = new DpeCache(dir);
    expect(await cache.list()).toEqual({
      directory: dir,
      count: 0,
      bytes: 0,
      oldest: null,
      entries: [],
    });
    await cache.write(REG.house, 'a'.repeat(10));
    await cache.write(REG.flat, 'b'.repeat(5));
    const list = await cache.list();
    expect(list).toMatchObject({ count: 2, bytes: 15 });
    expect(list.oldest?.dpeId).toBe(REG.house);
    expect(await cache.clear()).toEqual({ removed: 2, bytes: 15 });
    expect(await cache.read(REG.house)).toBeUndefined();
  });

  it('prefetch: bounded concurrency, one typed result per number', async () => {
    const slowReg = await startStandIn({ delayMs: 50 });
    try {
      const ids = Array.from({ length: 9 }, (_, i) => `2535E04264${String(40 + i)}K`);
      for (const id of ids) slowReg.xml.set(id, renumbered(HOUSE, id));
      const source = openDpeSource(
        undefined,
        resolveRegistrySettings(
          { registryUrl: slowReg.base, offline: false, dataDir: tempDir() },
          { DPE_SIM_REGISTRY_RETRIES: '0' },
        ),
      );
      const results = [];
      for await (const r of prefetch([...ids, REG.unknown], source, 3)) results.push(r);
      expect(results).toHaveLength(10);
      expect(slowReg.maxInFlight).toBe(3);
      expect(results.filter((r) => r.ok)).toHaveLength(9);
      expect(results.find((r) => !r.ok)).toMatchObject({
        dpeId: REG.unknown,
        ok: false,
        error: { kind: 'not-found', details: { dpeId: REG.unknown, status: 404 } },
      });
    } finally {
      await slowReg.close();
    }
  });

  it('batch prefetch: a number that cannot be had fails with its typed error and never reaches a worker', async () => {
    const ran: string[] = [];
    const inner: Executor = {
      capacity: 2,
      run: async (item: SourceItem): Promise<ItemOutcome> => {
        ran.push(item.ref);
        return { dpeId: item.ref, status: 'ok', exitCode: 0, attempts: 1, ms: 0 };
      },
      abort: async () => {},
      close: async () => {},
    };
    const source = new ChainedDpeSource(
      new DirectoryDpeSource(tempDir()),
      new DpeCache(path.join(tempDir(), 'cache')),
      new RegistryClient({ url: reg.base, timeoutMs: 2000, retries: 0, backoffMs: 1 }),
    );
    const ex = prefetchingExecutor(inner, async (id) => void (await source.read(id)), 4);
    expect(ex.capacity).toBe(6);
    const ok = await ex.run({ kind: 'id', ref: REG.house });
    const bad = await ex.run({ kind: 'id', ref: REG.down });
    expect(ok.status).toBe('ok');
    expect(bad).toMatchObject({
      dpeId: REG.down,
      status: 'failed',
      exitCode: 1,
      error: { kind: 'runtime' },
    });
    expect(bad.error?.message).toContain(`cannot fetch DPE ${REG.down} from the registry`);
    expect(ran).toEqual([REG.house]);
  });
});

/**
 * One contract suite, run twice with the same assertions: against the local backend in-process,
 * and against the remote backend talking over HTTP to `dpe-sim serve` on 127.0.0.1. The two
 * cannot drift apart without one of the runs failing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../src/backend/backend.js';
import { LocalBackend } from '../src/backend/local.js';
import { LocalServices } from '../src/backend/local-services.js';
import { RemoteBackend } from '../src/backend/remote.js';
import { DEFAULT_HISTORY_PATH } from '../src/config/keys.js';
import { DpeSimError } from '../src/contract/errors.js';
import {
  AuthResponse,
  CATEGORIES,
  CalcResponse,
  HistoryResponse,
  InitialResponse,
  PreResponse,
  RESULT_KEYS,
  TokenInfoResponse,
  TokenLoginResponse,
  type PartnerIdentity,
} from '../src/contract/schemas.js';
import { isValid } from '../src/contract/validate.js';
import { DirectoryDpeSource } from '../src/dpe/source.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { defaultCosts } from '../src/works/costs.js';
import { tempDir } from './helpers.js';
import { BLOCKED_ID, dpeDirWithBlocked, startTestServer } from './server-harness.js';
import { HANG_MS } from './hang.js';

const APP_URL = 'http://app.test';
const HOUSE_ID = '0000E0000001H';
const UNKNOWN_ID = '9999E9999999Z';
const WALL_WORK = { referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' };
const URL_RE = /^http:\/\/app\.test\/public\/partnerLogin\.html\?partnerToken=([A-Za-z0-9_-]{43})$/;

interface Harness {
  /** partner alpha */
  backend: Backend;
  /** partner beta: must never see alpha's data */
  other: Backend;
  close(): Promise<void>;
}

function who(userId: string, customerId = 'acme'): PartnerIdentity {
  return { customerId, userId, userName: `User ${userId}`, customerName: `Org ${customerId}` };
}

function tokenOf(url: string): string {
  const m = URL_RE.exec(url);
  if (!m) throw new Error(`not a login URL: ${url}`);
  return m[1] as string;
}

async function failure(p: Promise<unknown>): Promise<DpeSimError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DpeSimError) return err;
    throw err;
  }
  throw new Error('expected a DpeSimError, got a success');
}

function contractSuite(name: string, open: () => Promise<Harness>): void {
  describe(`contract: ${name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await open();
    });
    afterAll(async () => {
      await h?.close();
    });

    it('auth returns a fresh single-use login URL of the documented shape', async () => {
      const a = await h.backend.auth({ ...who('auth'), dpeId: HOUSE_ID, expireInMinutes: 30 });
      const b = await h.backend.auth(who('auth'));
      expect(isValid(AuthResponse, a)).toBe(true);
      expect(a.url).toMatch(URL_RE);
      expect(b.url).toMatch(URL_RE);
      expect(tokenOf(a.url)).not.toBe(tokenOf(b.url));
    });

    it('pre: figures, alerts and a login URL for 0000E0000001H', async () => {
      const body = await h.backend.pre({
        ...who('pre'),
        dpeId: HOUSE_ID,
        query: { coef2026: 'activated' },
      });
      expect(isValid(PreResponse, body)).toBe(true);
      expect(Object.keys(body).sort()).toEqual([
        'classes',
        'dpeSource',
        'maxCalculation',
        'url',
        'warnings',
      ]);
      expect(body.dpeSource?.origin).toBe('file');
      expect(body.url).toMatch(URL_RE);
      expect(body.maxCalculation).toEqual({
        consommationInitiale: 381,
        consommationXML: 390,
        gesInitiale: 84,
        gesXML: 86,
        deltaConso: -2.31,
        deltaGES: -2.33,
      });
      expect(body.warnings.map((w) => w.id)).toEqual(['warning.coefficient-converted']);
      const old = await h.backend.pre({
        ...who('pre'),
        dpeId: HOUSE_ID,
        query: { coef2026: 'deactivated' },
      });
      expect(old.maxCalculation.consommationXML).toBe(392);
    });

    it('pre on a blocked DPE answers with a block alert and a login token (the spec)', async () => {
      const body = await h.backend.pre({ ...who('pre'), dpeId: BLOCKED_ID });
      expect(isValid(PreResponse, body)).toBe(true);
      expect(body.warnings[0]?.type).toBe('block');
      expect(body.warnings[0]?.id).toBe('block.malformed-xml');
      expect(body.maxCalculation.consommationInitiale).toBeNull();
      // "POST /partners/dpe/pre | Request valid and partner key valid | Issued": a real token
      const login = await h.backend.tokenLogin({ partnerToken: tokenOf(body.url) });
      expect(isValid(TokenLoginResponse, login)).toBe(true);
    });

    it('initial: the DPE structure, the works options and the initial calculation', async () => {
      const body = await h.backend.initial({ ...who('initial'), dpeId: HOUSE_ID });
      expect(isValid(InitialResponse, body)).toBe(true);
      expect(body.dpe.id).toBe(HOUSE_ID);
      expect(Object.keys(body.dpe.items).sort()).toEqual([...CATEGORIES].sort());
      expect(body.dpe.infos.surface?.value).toBeGreaterThan(0);
      const wall = body.dpe.items.mur[0];
      expect(wall?.referenceId).toBe('mur:0');
      expect(Object.keys(wall?.editables.ISOLATION?.values ?? {})).toContain('IMurITE37');
      expect(Object.keys(body.calculation.result).sort()).toEqual([...RESULT_KEYS].sort());
      const ep = body.calculation.result.ep_conso_5_usages_m2;
      expect(ep.value).toBe(ep.VInit);
      expect(body.editableChanges.editablesValues).toEqual([]);
      expect(body.namedCalculation).toBe('default');
      expect(body.simulation.dpeId).toBe(HOUSE_ID);
      expect(body.simulation.initialGrade).toMatch(/^[A-G]$/);
      expect(Array.isArray(body.autoSolutions)).toBe(true);
      expect([0, 1]).toContain(body.sharingCost);
    });

    it('calc: wall insulation lowers the consumption; includeDPE and includeUser', async () => {
      const body = await h.backend.calc({
        ...who('calc'),
        dpeId: HOUSE_ID,
        params: { editablesChanges: [WALL_WORK] },
      });
      expect(isValid(CalcResponse, body)).toBe(true);
      const ep = body.calculation.result.ep_conso_5_usages_m2;
      expect(ep.VInit).toBe(381);
      expect(ep.value).toBeLessThan(ep.VInit);
      expect(body.editableChanges.editablesValues).toEqual([WALL_WORK]);
      expect(body.calculation.hints.coutTravaux).toBeGreaterThan(0);
      expect(body.calculation.hints.gainTotal).toBeGreaterThan(0);
      expect(body.calculation.errorMessage).toBeNull();
      expect(body.namedCalculation).toBe('default');
      expect(body.dpe).toBeUndefined();
      expect(body.user).toBeUndefined();
      const full = await h.backend.calc({
        ...who('calc'),
        dpeId: HOUSE_ID,
        query: { includeDPE: true, includeUser: true },
        params: { editablesChanges: [WALL_WORK], namedCalculation: 'walls' },
      });
      expect(isValid(CalcResponse, full)).toBe(true);
      expect(full.dpe?.id).toBe(HOUSE_ID);
      expect(full.user).toEqual(who('calc'));
      expect(full.namedCalculation).toBe('walls');
      expect(full.calculation.result.ep_conso_5_usages_m2.value).toBe(ep.value);
    });

    it('errors: unknown DPE, blocked DPE, unknown works', async () => {
      const unknown = await failure(h.backend.pre({ ...who('err'), dpeId: UNKNOWN_ID }));
      expect(unknown.kind).toBe('not-found');
      expect(unknown.message).toContain(UNKNOWN_ID);
      const blocked = await failure(h.backend.initial({ ...who('err'), dpeId: BLOCKED_ID }));
      expect(blocked.kind).toBe('blocked');
      expect(blocked.message).toContain('cannot be simulated');
      const blockedCalc = await failure(h.backend.calc({ ...who('err'), dpeId: BLOCKED_ID }));
      expect(blockedCalc.kind).toBe('blocked');
      const works = await failure(
        h.backend.calc({
          ...who('err'),
          dpeId: HOUSE_ID,
          params: { editablesChanges: [{ ...WALL_WORK, editableValue: 'NOPE' }] },
        }),
      );
      expect(works.kind).toBe('invalid-input');
      expect(works.message).toContain("editableValue 'NOPE' is not allowed for mur:0 ISOLATION");
      expect(works.message).toContain('IMurITE37');
      const ref = await failure(
        h.backend.calc({
          ...who('err'),
          dpeId: HOUSE_ID,
          params: { editablesChanges: [{ ...WALL_WORK, referenceId: 'mur:99' }] },
        }),
      );
      expect(ref.kind).toBe('invalid-input');
      expect(ref.message).toContain("unknown referenceId 'mur:99'");
    });

    it('history: the runs of a user, newest first, filtered', async () => {
      const me = who('hist', 'hist-co');
      await h.backend.pre({ ...me, dpeId: HOUSE_ID });
      await h.backend.initial({ ...me, dpeId: HOUSE_ID });
      await h.backend.calc({ ...me, dpeId: HOUSE_ID, params: { editablesChanges: [WALL_WORK] } });
      await h.backend.pre({ ...me, dpeId: '0000E0000002F' });
      const all = await h.backend.history({ customerId: me.customerId, userId: me.userId });
      expect(isValid(HistoryResponse, all)).toBe(true);
      expect((all.records ?? []).map((r) => `${r.operation} ${r.dpeId}`)).toEqual([
        'pre 0000E0000002F',
        `calc ${HOUSE_ID}`,
        `initial ${HOUSE_ID}`,
        `pre ${HOUSE_ID}`,
      ]);
      const calc = all.records?.[1];
      expect(calc?.works).toEqual([WALL_WORK]);
      expect(calc?.consoBefore).toBe(381);
      expect(calc?.consoAfter).toBeLessThan(381);
      expect(calc?.coutTravaux).toBeGreaterThan(0);
      const house = await h.backend.history({ customerId: me.customerId, dpeId: HOUSE_ID });
      expect((house.records ?? []).map((r) => r.operation)).toEqual(['calc', 'initial', 'pre']);
      const one = await h.backend.history({ customerId: me.customerId, limit: 1 });
      expect(one.records).toHaveLength(1);
      const since = await h.backend.history({
        customerId: me.customerId,
        since: new Date(Date.now() + 60_000).toISOString(),
      });
      expect(since.records).toEqual([]);
    });

    it('tokens: info does not consume; login consumes once; unknown tokens', async () => {
      const { url } = await h.backend.auth({ ...who('tok'), dpeId: HOUSE_ID, showInit: true });
      const token = tokenOf(url);
      for (let i = 0; i < 2; i++) {
        const info = await h.backend.tokenInfo({ partnerToken: token });
        expect(isValid(TokenInfoResponse, info)).toBe(true);
        expect(info).toMatchObject({
          valid: true,
          status: 'issued',
          customerId: 'acme',
          userId: 'tok',
          dpeId: HOUSE_ID,
          showInit: true,
        });
        expect(Date.parse(info.expiresAt ?? '')).toBeGreaterThan(Date.now());
      }
      const login = await h.backend.tokenLogin({ partnerToken: token });
      expect(isValid(TokenLoginResponse, login)).toBe(true);
      expect(login.user).toEqual(who('tok'));
      expect(login.dpeId).toBe(HOUSE_ID);
      expect(login.showInit).toBe(true);
      expect(login.sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await h.backend.tokenInfo({ partnerToken: token })).toMatchObject({
        valid: false,
        status: 'used',
      });
      const again = await failure(h.backend.tokenLogin({ partnerToken: token }));
      expect(again.kind).toBe('token');
      expect(again.message).toContain('already been used');
      expect((await failure(h.backend.tokenInfo({ partnerToken: 'no-such-token' }))).kind).toBe(
        'not-found',
      );
      expect((await failure(h.backend.tokenLogin({ partnerToken: 'no-such-token' }))).kind).toBe(
        'not-found',
      );
      const pre = await h.backend.pre({ ...who('tok'), dpeId: HOUSE_ID });
      expect((await h.backend.tokenLogin({ partnerToken: tokenOf(pre.url) })).user?.userId).toBe(
        'tok',
      );
    });

    it('partners are isolated: tokens, users and history of one are invisible to the other', async () => {
      const mine = who('iso', 'iso-co');
      const { url } = await h.backend.auth(mine);
      const token = tokenOf(url);
      await h.backend.pre({ ...mine, dpeId: HOUSE_ID });
      expect((await failure(h.other.tokenInfo({ partnerToken: token }))).kind).toBe('not-found');
      expect((await failure(h.other.tokenLogin({ partnerToken: token }))).kind).toBe('not-found');
      expect((await h.other.history({ customerId: 'iso-co' })).records).toEqual([]);
      expect((await h.other.history({})).records).toEqual([]);
      // the same customerId/userId at the other partner is another organisation and user
      await h.other.pre({ ...mine, customerName: 'Other org', dpeId: '0000E0000002F' });
      const theirs = await h.other.history({ customerId: 'iso-co' });
      expect((theirs.records ?? []).map((r) => r.dpeId)).toEqual(['0000E0000002F']);
      const ours = await h.backend.history({ customerId: 'iso-co' });
      expect((ours.records ?? []).map((r) => r.dpeId)).toEqual([HOUSE_ID]);
      // the token survived the other partner's attempts
      expect((await h.backend.tokenLogin({ partnerToken: token })).user).toEqual(mine);
    });
  });
}

contractSuite('local backend, in-process', async () => {
  const store = SqliteStore.open(tempDir());
  const services = new LocalServices({
    store,
    source: new DirectoryDpeSource(dpeDirWithBlocked()),
    costs: defaultCosts(),
    appUrl: APP_URL,
  });
  const keyA = await store.createPartnerKey('alpha');
  const keyB = await store.createPartnerKey('beta');
  const alpha = await store.partnerForKey(keyA);
  const beta = await store.partnerForKey(keyB);
  if (!alpha || !beta) throw new Error('partners not created');
  return {
    backend: new LocalBackend(services, alpha),
    other: new LocalBackend(services, beta),
    close: async () => store.close(),
  };
});

contractSuite('remote backend over HTTP to dpe-sim serve', async () => {
  const server = await startTestServer({ appUrl: APP_URL });
  const remote = (partnerKey: string) =>
    new RemoteBackend({
      baseUrl: server.url,
      partnerKey,
      // the remote client's wait: a hang guard, like the tests'
      timeoutMs: HANG_MS,
      retries: 0,
      historyPath: DEFAULT_HISTORY_PATH,
    });
  return {
    backend: remote(server.keyA),
    other: remote(server.keyB),
    close: () => server.close(),
  };
});

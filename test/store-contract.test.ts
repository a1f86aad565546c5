/**
 * One contract for every Store: the same tests against the embedded SQLite store and the
 * PostgreSQL store (a throw-away cluster, see pg-harness.ts). Two instances of a store on the
 * same data stand for two processes (two `serve`, batch workers).
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DpeSimError } from '../src/contract/errors.js';
import { openStore } from '../src/store/open.js';
import { PostgresStore } from '../src/store/postgres-store.js';
import { sha256, type Store } from '../src/store/store.js';
import { tempDir } from './helpers.js';
import { pgAvailable, startPg, type PgCluster } from './pg-harness.js';

const RUN_PG = pgAvailable('PostgreSQL store contract tests');

interface Subject {
  /** a new instance on the same data (another process) */
  open(): Promise<Store>;
  /** rows of a table, read behind the store's back */
  raw(table: string): Promise<Record<string, unknown>[]>;
  dispose(): Promise<void>;
}

type Factory = () => Promise<Subject>;

const sqlite: Factory = async () => {
  const dir = tempDir('dpe-sim-store-');
  return {
    open: () => openStore({ dataDir: dir }),
    async raw(table) {
      const db = new Database(path.join(dir, 'dpe-sim.sqlite'), { readonly: true });
      try {
        return db.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
      } finally {
        db.close();
      }
    },
    async dispose() {},
  };
};

let cluster: PgCluster | undefined;
const postgres: Factory = async () => {
  cluster ??= await startPg();
  const url = await cluster.createDatabase();
  return {
    open: () => openStore({ dataDir: tempDir(), storeUrl: url }),
    async raw(table) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(`SELECT * FROM ${table}`)).rows as Record<string, unknown>[];
      } finally {
        await client.end();
      }
    },
    async dispose() {},
  };
};

afterAll(async () => {
  await cluster?.stop();
});

const IDENTITY = {
  customerId: 'acme-42',
  userId: 'u-1',
  userName: 'Alice Martin',
  customerName: 'ACME Habitat',
};

async function rejection(p: Promise<unknown>): Promise<DpeSimError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DpeSimError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

const SUBJECTS: [string, Factory, boolean][] = [
  ['sqlite', sqlite, true],
  ['postgres', postgres, RUN_PG],
];

describe.each(SUBJECTS)('Store contract: %s', (name, factory, enabled) => {
  let subject: Subject;
  let a: Store;
  let b: Store;

  beforeAll(async () => {
    if (!enabled) return;
    subject = await factory();
    a = await subject.open();
    b = await subject.open();
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await subject?.dispose();
  });

  const test = it.skipIf(!enabled);

  test('partner keys: returned once, kept as hashes only, listed by hint, revoked, renewed', async () => {
    const key = await a.createPartnerKey('acme');
    expect(key).toMatch(/^dpsk_[A-Za-z0-9_-]{43}$/);
    const rows = await subject.raw('partners');
    const acme = rows.find((r) => r.name === 'acme');
    expect(acme?.key_hash).toBe(sha256(key));
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(JSON.stringify(rows)).not.toContain(key.slice(5));

    const partner = await b.partnerForKey(key);
    expect(partner?.name).toBe('acme');
    expect(typeof partner?.id).toBe('number');
    expect(await b.partnerForKey(`${key}x`)).toBeUndefined();

    expect((await rejection(b.createPartnerKey('acme'))).kind).toBe('invalid-input');
    expect((await rejection(a.createPartnerKey('local'))).kind).toBe('invalid-input');
    expect((await rejection(a.createPartnerKey('bad name'))).kind).toBe('invalid-input');

    await a.localPartner();
    const list = await b.listPartnerKeys();
    expect(list).toEqual([
      { name: 'acme', keyHint: key.slice(-4), createdAt: expect.any(String), revokedAt: null },
    ]);
    expect(Number.isNaN(Date.parse(list[0]?.createdAt ?? ''))).toBe(false);

    await b.revokePartnerKey('acme');
    expect(await a.partnerForKey(key)).toBeUndefined();
    expect((await rejection(a.revokePartnerKey('acme'))).kind).toBe('not-found');
    expect((await b.listPartnerKeys())[0]?.revokedAt).toEqual(expect.any(String));

    const renewed = await a.createPartnerKey('acme');
    expect(renewed).not.toBe(key);
    expect((await b.partnerForKey(renewed))?.id).toBe(partner?.id);
    expect(await b.partnerForKey(key)).toBeUndefined();
  });

  test('the local partner is one row, whoever asks first', async () => {
    const [x, y] = await Promise.all([a.localPartner(), b.localPartner()]);
    expect(x).toEqual(y);
    expect(x.name).toBe('local');
    expect((await subject.raw('partners')).filter((r) => r.name === 'local')).toHaveLength(1);
  });

  test('users: created once per partner, the user name updated, concurrent first uses agree', async () => {
    const local = await a.localPartner();
    const other = await a.partnerForKey(await b.createPartnerKey('users-q'));
    const refs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).ensureUser(local, IDENTITY)),
    );
    expect(new Set(refs.map((r) => r.ref)).size).toBe(1);
    expect(refs[0]).toEqual({ ref: expect.any(Number), partnerId: local.id, identity: IDENTITY });
    const renamed = await b.ensureUser(local, { ...IDENTITY, userName: 'Alice M.' });
    expect(renamed.ref).toBe(refs[0]?.ref);
    const users = await subject.raw('users');
    expect(users.filter((u) => u.user_id === 'u-1').map((u) => u.name)).toEqual(['Alice M.']);
    const elsewhere = await a.ensureUser(other!, IDENTITY);
    expect(elsewhere.ref).not.toBe(refs[0]?.ref);
    expect(elsewhere.partnerId).toBe(other?.id);
  });

  test('tokens: issued as a hash, looked at, used once, opening a session', async () => {
    const local = await a.localPartner();
    const user = await a.ensureUser(local, IDENTITY);
    const { token, expiresAt } = await a.issueToken(user, {
      dpeId: '0000E0000001H',
      showInit: true,
      expireInMinutes: 30,
    });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    const raw = await subject.raw('tokens');
    expect(raw.map((r) => r.token_hash)).toContain(sha256(token));
    expect(JSON.stringify(raw)).not.toContain(token);

    const info = await b.tokenInfo(token);
    expect(info).toEqual({
      status: 'issued',
      expiresAt,
      usedAt: null,
      user: IDENTITY,
      partnerId: local.id,
      userRef: user.ref,
      dpeId: '0000E0000001H',
      showInit: true,
    });
    const { record, sessionToken } = await b.consumeToken(token, local.id);
    expect(record).toEqual({ ...info, status: 'used', usedAt: expect.any(String) });
    expect((await a.tokenInfo(token))?.status).toBe('used');
    expect(await a.sessionUser(sessionToken)).toEqual({ ...user, dpeId: '0000E0000001H' });
    expect(JSON.stringify(await subject.raw('sessions'))).not.toContain(sessionToken);
    expect(await a.sessionUser('not-a-session')).toBeUndefined();

    const again = await rejection(a.consumeToken(token));
    expect(again.kind).toBe('token');
    expect(again.message).toBe('this login token has already been used');
    expect((await rejection(a.consumeToken('no-such-token'))).kind).toBe('not-found');
  });

  test('200 concurrent consumes of one token over two instances: exactly one succeeds', async () => {
    const user = await a.ensureUser(await a.localPartner(), IDENTITY);
    for (let round = 0; round < 3; round++) {
      const { token } = await a.issueToken(user, {});
      const outcomes = await Promise.allSettled(
        Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).consumeToken(token)),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(199);
      for (const err of lost) {
        expect(err).toBeInstanceOf(DpeSimError);
        expect((err as DpeSimError).kind).toBe('token');
      }
    }
    expect((await subject.raw('sessions')).length).toBeGreaterThanOrEqual(3);
  });

  test('expiry: an expired token is neither usable nor shown as issued; sessions end', async () => {
    const user = await a.ensureUser(await a.localPartner(), IDENTITY);
    const t0 = new Date('2030-01-01T10:00:00.000Z');
    const { token, expiresAt } = await a.issueToken(user, { expireInMinutes: 5 }, t0);
    expect(expiresAt).toBe('2030-01-01T10:05:00.000Z');
    const later = new Date(t0.getTime() + 5 * 60_000);
    expect((await b.tokenInfo(token, undefined, later))?.status).toBe('expired');
    const err = await rejection(b.consumeToken(token, undefined, later));
    expect(err.kind).toBe('token');
    expect(err.message).toBe('this login token has expired');
    const justBefore = new Date(later.getTime() - 1000);
    const { sessionToken } = await a.consumeToken(token, undefined, justBefore);
    expect(await b.sessionUser(sessionToken, justBefore)).toBeDefined();
    const after = new Date(justBefore.getTime() + 12 * 3_600_000 + 1000);
    expect(await b.sessionUser(sessionToken, after)).toBeUndefined();
  });

  test("partner isolation: another partner's token is unknown to it, and stays usable", async () => {
    const p = (await a.partnerForKey(await a.createPartnerKey('iso-p')))!;
    const q = (await a.partnerForKey(await a.createPartnerKey('iso-q')))!;
    const userP = await a.ensureUser(p, IDENTITY);
    const { token } = await a.issueToken(userP, {});
    expect(await b.tokenInfo(token, q.id)).toBeUndefined();
    expect((await rejection(b.consumeToken(token, q.id))).kind).toBe('not-found');
    expect((await b.tokenInfo(token, p.id))?.status).toBe('issued');
    expect((await b.consumeToken(token, p.id)).record.partnerId).toBe(p.id);
  });

  test('simulations: the latest of a user on a DPE', async () => {
    const user = await a.ensureUser(await a.localPartner(), { ...IDENTITY, userId: 'sim-user' });
    expect(await a.latestSimulation(user, '0000E0000002F')).toBeUndefined();
    const first = await a.createSimulation(user, '0000E0000002F');
    expect(first).toMatch(/^sim_[A-Za-z0-9_-]{16}$/);
    expect(await b.latestSimulation(user, '0000E0000002F')).toBe(first);
    const second = await b.createSimulation(user, '0000E0000002F');
    expect(await a.latestSimulation(user, '0000E0000002F')).toBe(second);
    expect(await a.latestSimulation(user, '0000E0000001H')).toBeUndefined();
  });

  test('runs and history: round trip, filters, newest first, one partner only', async () => {
    const p = (await a.partnerForKey(await a.createPartnerKey('hist-p')))!;
    const q = (await a.partnerForKey(await a.createPartnerKey('hist-q')))!;
    const alice = await a.ensureUser(p, IDENTITY);
    const bob = await a.ensureUser(p, { ...IDENTITY, customerId: 'other', userId: 'bob' });
    const stranger = await b.ensureUser(q, IDENTITY);
    const works = [{ referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' }];
    const at = (m: number) => new Date(Date.UTC(2030, 0, 1, 10, m));
    const id1 = await a.recordRun(
      {
        user: alice,
        dpeId: '0000E0000001H',
        operation: 'calc',
        simulationId: 'sim_x',
        scenario: 'walls',
        works,
        classBefore: 'E',
        classAfter: 'C',
        consoBefore: 381.5,
        consoAfter: 190.25,
        coutTravaux: 12000,
        coefMode: 'activated',
        normalized: true,
      },
      at(1),
    );
    expect(typeof id1).toBe('number');
    await b.recordRun(
      {
        user: bob,
        dpeId: '0000E0000002F',
        operation: 'pre',
        coefMode: 'deactivated',
        blocked: true,
      },
      at(2),
    );
    await a.recordRun(
      { user: alice, dpeId: '0000E0000002F', operation: 'initial', coefMode: 'activated' },
      at(3),
    );
    await b.recordRun(
      { user: stranger, dpeId: '0000E0000001H', operation: 'pre', coefMode: 'activated' },
      at(4),
    );

    const all = await b.history(p.id, {});
    expect(all.map((r) => r.at)).toEqual([at(3), at(2), at(1)].map((d) => d.toISOString()));
    expect(all[2]).toEqual({
      id: id1,
      at: at(1).toISOString(),
      customerId: 'acme-42',
      userId: 'u-1',
      dpeId: '0000E0000001H',
      operation: 'calc',
      scenario: 'walls',
      works,
      classBefore: 'E',
      classAfter: 'C',
      consoBefore: 381.5,
      consoAfter: 190.25,
      coutTravaux: 12000,
      coefMode: 'activated',
      normalized: true,
      blocked: false,
    });
    expect(all[1]).toMatchObject({ userId: 'bob', blocked: true, works: [], scenario: null });
    expect((await a.history(p.id, { userId: 'bob' })).map((r) => r.userId)).toEqual(['bob']);
    expect((await a.history(p.id, { customerId: 'acme-42' })).length).toBe(2);
    expect((await a.history(p.id, { dpeId: '0000E0000002F' })).map((r) => r.operation)).toEqual([
      'initial',
      'pre',
    ]);
    expect((await a.history(p.id, { since: at(2).toISOString() })).length).toBe(2);
    expect((await a.history(p.id, { limit: 1 })).map((r) => r.operation)).toEqual(['initial']);
    const theirs = await a.history(q.id, {});
    expect(theirs.map((r) => r.userId)).toEqual(['u-1']);
    expect(theirs[0]?.operation).toBe('pre');
  });

  test('an audit run (dpe-sim extension) is recorded and listed like a calc', async () => {
    const user = await a.ensureUser(await a.localPartner(), { ...IDENTITY, userId: 'auditor' });
    const works = [{ referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurITE37' }];
    const id = await a.recordRun({
      user,
      dpeId: '0000E0000001H',
      operation: 'audit',
      scenario: 'in one step',
      works,
      classBefore: 'F',
      classAfter: 'B',
      consoBefore: 381,
      consoAfter: 104.5,
      coutTravaux: 41_000,
      coefMode: 'activated',
    });
    const rows = await b.history(user.partnerId, { userId: 'auditor' });
    expect(rows).toMatchObject([
      {
        id,
        operation: 'audit',
        scenario: 'in one step',
        works,
        classAfter: 'B',
        consoAfter: 104.5,
      },
    ]);
  });

  test('what one instance committed survives a reopen', async () => {
    const user = await a.ensureUser(await a.localPartner(), { ...IDENTITY, userId: 'durable' });
    const runId = await a.recordRun({
      user,
      dpeId: '0000E0000003T',
      operation: 'pre',
      coefMode: 'activated',
    });
    const fresh = await subject.open();
    try {
      const rows = await fresh.history(user.partnerId, { userId: 'durable' });
      expect(rows.map((r) => r.id)).toEqual([runId]);
    } finally {
      await fresh.close();
    }
  });

  if (name === 'postgres') {
    test('concurrent first starts on an empty database migrate it once', async () => {
      const url = await (cluster as PgCluster).createDatabase();
      const stores = await Promise.all(Array.from({ length: 6 }, () => PostgresStore.open(url)));
      const keys = await Promise.all(stores.map((s, i) => s.createPartnerKey(`m${i}`)));
      expect(new Set(keys).size).toBe(6);
      for (const s of stores) await s.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const res = await client.query('SELECT component, version FROM dpe_sim_migrations');
        expect(res.rows).toEqual([{ component: 'store', version: 1 }]);
      } finally {
        await client.end();
      }
    });

    test('an unreachable database is a runtime error naming the store, without the password', async () => {
      const err = await rejection(
        openStore({ dataDir: tempDir(), storeUrl: 'postgres://u:secret@127.0.0.1:1/x' }),
      );
      expect(err.kind).toBe('runtime');
      expect(err.message).toContain('cannot open the store postgres://u:***@127.0.0.1:1/x');
      expect(err.message).not.toContain('secret');
    });
  }
});

describe('store selection', () => {
  it('refuses a URL that is not PostgreSQL', async () => {
    const err = await rejection(openStore({ dataDir: tempDir(), storeUrl: 'mysql://x/y' }));
    expect(err.kind).toBe('invalid-input');
  });
});

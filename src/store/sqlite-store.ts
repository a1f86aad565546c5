/**
 * The embedded store (the default): one SQLite file
 * (better-sqlite3, WAL) holding partners and their keys, organisations and users (created on
 * first use, per partner), login tokens (single use), simulations and the history of runs.
 * Every write is a committed transaction before the caller reports success.
 */
import { timingSafeEqual } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DpeSimError } from '../contract/errors.js';
import { osCode, osReason } from '../contract/os-errors.js';
import { storeFailure } from './store-errors.js';
import type {
  EditableChange,
  HistoryRecord,
  HistoryRequest,
  PartnerIdentity,
  CoefMode,
} from '../contract/schemas.js';
import { MIGRATIONS } from './schema.js';
import {
  DEFAULT_TOKEN_MINUTES,
  LOCAL_PARTNER,
  SESSION_HOURS,
  randomSecret,
  sha256,
  type IssueTokenOptions,
  type Partner,
  type PartnerKeyInfo,
  type RunInput,
  type Store,
  type TokenRecord,
  type UserRef,
} from './store.js';

const DATA_DIR_HINT =
  'choose a directory you can write with --data-dir DIR or DPE_SIM_DATA_DIR, or fix its permissions';

/** The hint for a data directory the system refused: a full disk and a read-only file system
 * are not a matter of permissions. */
function dataDirHint(err: unknown): string {
  const code = osCode(err);
  if (code === 'ENOSPC')
    return 'free some space on that disk, or choose another directory with --data-dir DIR or DPE_SIM_DATA_DIR';
  if (code === 'EROFS')
    return 'its file system is mounted read-only: choose a writable directory with --data-dir DIR or DPE_SIM_DATA_DIR';
  return DATA_DIR_HINT;
}

function nowIso(now: Date = new Date()): string {
  return now.toISOString();
}

interface RunRow {
  id: number;
  at: string;
  customer_id: string;
  user_id: string;
  dpe_id: string;
  operation: 'pre' | 'initial' | 'calc' | 'audit';
  scenario: string | null;
  works: string;
  class_before: string | null;
  class_after: string | null;
  conso_before: number | null;
  conso_after: number | null;
  cout_travaux: number | null;
  coef_mode: CoefMode;
  normalized: number;
  blocked: number;
}

export class SqliteStore implements Store {
  private constructor(
    private readonly db: Database.Database,
    readonly location: string,
    /** opened read-only (the file or its directory is not writable): reads work, writes fail */
    readonly readOnly = false,
  ) {}

  /**
   * Opens (and creates or migrates) the store in `dataDir`. A store that exists but that this
   * user cannot write (the file or its directory) opens read-only: history and the other
   * reading commands work, a write fails with SQLITE_READONLY.
   */
  static open(dataDir: string): SqliteStore {
    const file = path.join(dataDir, 'dpe-sim.sqlite');
    if (existsSync(file) && !writable(file, dataDir)) return SqliteStore.openReadOnly(file);
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (err) {
      throw new DpeSimError(
        'runtime',
        `the data directory ${dataDir} cannot be created: ${osReason(err)}`,
        { path: dataDir, hint: dataDirHint(err) },
        { cause: err },
      );
    }
    try {
      accessSync(dataDir, constants.W_OK);
    } catch (err) {
      throw new DpeSimError(
        'runtime',
        `the data directory ${dataDir} cannot be written: ${osReason(err)}`,
        { path: dataDir, hint: dataDirHint(err) },
        { cause: err },
      );
    }
    try {
      const db = new Database(file);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      const store = new SqliteStore(db, file);
      store.migrate();
      return store;
    } catch (err) {
      if (err instanceof DpeSimError) throw err;
      // a full disk, a read-only file system: said as such, with their own hint
      const named = storeFailure(err, 'sqlite', file);
      if (named !== err) throw named;
      throw new DpeSimError(
        'runtime',
        `cannot open the store ${file}: ${osReason(err)}`,
        { path: file, hint: DATA_DIR_HINT },
        { cause: err },
      );
    }
  }

  private static openReadOnly(file: string): SqliteStore {
    try {
      const db = openReadOnlyDb(file);
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version !== MIGRATIONS.length) {
        db.close();
        throw new DpeSimError(
          'runtime',
          `the store ${file} is read-only and needs an upgrade (schema ${version}, this dpe-sim: ${MIGRATIONS.length})`,
          { path: file },
        );
      }
      return new SqliteStore(db, file, true);
    } catch (err) {
      if (err instanceof DpeSimError) throw err;
      throw new DpeSimError(
        'runtime',
        `cannot open the read-only store ${file}: ${osReason(err)}`,
        { path: file },
        { cause: err },
      );
    }
  }

  /**
   * Applies the migrations not yet applied. Two processes opening a new store at once (two
   * commands, two batch workers) must not both migrate: the version is read and the migrations
   * run inside one IMMEDIATE transaction, so the second waits (busy_timeout) and finds nothing
   * left to do.
   */
  private migrate(): void {
    const current = () => this.db.pragma('user_version', { simple: true }) as number;
    if (current() === MIGRATIONS.length) return;
    this.db
      .transaction(() => {
        const version = current();
        if (version > MIGRATIONS.length) {
          throw new DpeSimError(
            'runtime',
            `the store ${this.location} was written by a newer dpe-sim (schema ${version}); upgrade dpe-sim`,
          );
        }
        for (let i = version; i < MIGRATIONS.length; i++) {
          this.db.exec(MIGRATIONS[i] as string);
          this.db.pragma(`user_version = ${i + 1}`);
        }
      })
      .immediate();
  }

  async close(): Promise<void> {
    this.db.close();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  // ------------------------------------------------------------ partners and keys

  /** The partner the local CLI acts as (no key). */
  async localPartner(): Promise<Partner> {
    return this.ensurePartner(LOCAL_PARTNER);
  }

  private ensurePartner(name: string): Partner {
    if (this.readOnly) {
      const found = this.db.prepare('SELECT id, name FROM partners WHERE name = ?').get(name) as
        Partner | undefined;
      // nothing recorded yet: no row can match this partner
      return found ?? { id: -1, name };
    }
    this.db
      .prepare('INSERT OR IGNORE INTO partners (name, created_at) VALUES (?, ?)')
      .run(name, nowIso());
    return this.db.prepare('SELECT id, name FROM partners WHERE name = ?').get(name) as Partner;
  }

  /** Creates a partner with a new key; the key is returned once and only its hash is kept. */
  async createPartnerKey(name: string): Promise<string> {
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(name) || name === LOCAL_PARTNER) {
      throw new DpeSimError(
        'invalid-input',
        `invalid partner name '${name}': use 1 to 64 letters, digits, '.', '_' or '-' (and not '${LOCAL_PARTNER}')`,
      );
    }
    const key = `dpsk_${randomSecret(32)}`;
    const existing = this.db.prepare('SELECT revoked_at FROM partners WHERE name = ?').get(name) as
      { revoked_at: string | null } | undefined;
    if (existing && existing.revoked_at === null) {
      throw new DpeSimError(
        'invalid-input',
        `a partner named '${name}' already has a key; revoke it first (dpe-sim keys revoke ${name})`,
      );
    }
    this.db.transaction(() => {
      if (existing) {
        this.db
          .prepare(
            'UPDATE partners SET key_hash = ?, key_hint = ?, revoked_at = NULL, created_at = ? WHERE name = ?',
          )
          .run(sha256(key), key.slice(-4), nowIso(), name);
      } else {
        this.db
          .prepare(
            'INSERT INTO partners (name, key_hash, key_hint, created_at) VALUES (?, ?, ?, ?)',
          )
          .run(name, sha256(key), key.slice(-4), nowIso());
      }
    })();
    return key;
  }

  async listPartnerKeys(): Promise<PartnerKeyInfo[]> {
    return (
      this.db
        .prepare(
          'SELECT name, key_hint, created_at, revoked_at FROM partners WHERE name != ? ORDER BY name',
        )
        .all(LOCAL_PARTNER) as {
        name: string;
        key_hint: string | null;
        created_at: string;
        revoked_at: string | null;
      }[]
    ).map((r) => ({
      name: r.name,
      keyHint: r.key_hint,
      createdAt: r.created_at,
      revokedAt: r.revoked_at,
    }));
  }

  async revokePartnerKey(name: string): Promise<void> {
    const res = this.db
      .prepare(
        'UPDATE partners SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL AND key_hash IS NOT NULL',
      )
      .run(nowIso(), name);
    if (res.changes === 0) {
      throw new DpeSimError('not-found', `no active partner key named '${name}'`);
    }
  }

  /** The partner a key belongs to, or undefined (unknown, revoked). Constant-time comparison. */
  async partnerForKey(key: string): Promise<Partner | undefined> {
    const hash = sha256(key);
    const row = this.db
      .prepare('SELECT id, name, key_hash FROM partners WHERE key_hash = ? AND revoked_at IS NULL')
      .get(hash) as { id: number; name: string; key_hash: string } | undefined;
    if (!row) return undefined;
    const a = Buffer.from(row.key_hash, 'hex');
    const b = Buffer.from(hash, 'hex');
    if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
    return { id: row.id, name: row.name };
  }

  // ------------------------------------------------------------ organisations and users

  /** Creates the organisation and the user on first use; later calls update nothing but names. */
  async ensureUser(partner: Partner, identity: PartnerIdentity): Promise<UserRef> {
    const now = nowIso();
    const ref = this.db.transaction(() => {
      this.db
        .prepare(
          'INSERT OR IGNORE INTO organisations (partner_id, customer_id, name, created_at) VALUES (?, ?, ?, ?)',
        )
        .run(partner.id, identity.customerId, identity.customerName, now);
      const org = this.db
        .prepare('SELECT id FROM organisations WHERE partner_id = ? AND customer_id = ?')
        .get(partner.id, identity.customerId) as { id: number };
      this.db
        .prepare(
          `INSERT INTO users (organisation_id, user_id, name, created_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (organisation_id, user_id) DO UPDATE SET name = excluded.name`,
        )
        .run(org.id, identity.userId, identity.userName, now);
      const user = this.db
        .prepare('SELECT id FROM users WHERE organisation_id = ? AND user_id = ?')
        .get(org.id, identity.userId) as { id: number };
      return user.id;
    })();
    return { ref, partnerId: partner.id, identity };
  }

  private identityOf(userRef: number): { partnerId: number; identity: PartnerIdentity } {
    const row = this.db
      .prepare(
        `SELECT o.partner_id, o.customer_id, o.name AS customer_name, u.user_id, u.name AS user_name
         FROM users u JOIN organisations o ON o.id = u.organisation_id WHERE u.id = ?`,
      )
      .get(userRef) as {
      partner_id: number;
      customer_id: string;
      customer_name: string;
      user_id: string;
      user_name: string;
    };
    return {
      partnerId: row.partner_id,
      identity: {
        customerId: row.customer_id,
        customerName: row.customer_name,
        userId: row.user_id,
        userName: row.user_name,
      },
    };
  }

  // ------------------------------------------------------------ login tokens

  /** Issues a single-use login token (256 random bits, URL-safe); only its hash is stored. */
  async issueToken(
    user: UserRef,
    opts: IssueTokenOptions,
    now: Date = new Date(),
  ): Promise<{ token: string; expiresAt: string }> {
    const minutes = opts.expireInMinutes ?? DEFAULT_TOKEN_MINUTES;
    const token = randomSecret(32);
    const expiresAt = new Date(now.getTime() + minutes * 60_000).toISOString();
    this.db
      .prepare(
        'INSERT INTO tokens (token_hash, user_ref, dpe_id, show_init, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        sha256(token),
        user.ref,
        opts.dpeId ?? null,
        opts.showInit ? 1 : 0,
        nowIso(now),
        expiresAt,
      );
    return { token, expiresAt };
  }

  /** Looks at a token without using it. `partnerId` restricts it to one partner's tokens. */
  async tokenInfo(
    token: string,
    partnerId?: number,
    now: Date = new Date(),
  ): Promise<TokenRecord | undefined> {
    const row = this.db
      .prepare(
        'SELECT user_ref, dpe_id, show_init, expires_at, used_at FROM tokens WHERE token_hash = ?',
      )
      .get(sha256(token)) as
      | {
          user_ref: number;
          dpe_id: string | null;
          show_init: number;
          expires_at: string;
          used_at: string | null;
        }
      | undefined;
    if (!row) return undefined;
    const { partnerId: owner, identity } = this.identityOf(row.user_ref);
    if (partnerId !== undefined && owner !== partnerId) return undefined;
    const status = row.used_at ? 'used' : row.expires_at <= nowIso(now) ? 'expired' : 'issued';
    return {
      status,
      expiresAt: row.expires_at,
      usedAt: row.used_at,
      user: identity,
      partnerId: owner,
      userRef: row.user_ref,
      dpeId: row.dpe_id,
      showInit: row.show_init === 1,
    };
  }

  /**
   * Uses a token: atomic (one UPDATE guarded on `used_at IS NULL`), so of two concurrent logins
   * with the same token exactly one succeeds. Opens a session and returns its secret.
   */
  async consumeToken(
    token: string,
    partnerId?: number,
    now: Date = new Date(),
  ): Promise<{ record: TokenRecord; sessionToken: string }> {
    const hash = sha256(token);
    const at = nowIso(now);
    const info = await this.tokenInfo(token, partnerId, now);
    if (!info) throw new DpeSimError('not-found', 'unknown login token');
    const res = this.db
      .prepare(
        'UPDATE tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
      )
      .run(at, hash, at);
    if (res.changes !== 1) {
      const again = await this.tokenInfo(token, partnerId, now);
      const why = again?.status === 'expired' ? 'has expired' : 'has already been used';
      throw new DpeSimError('token', `this login token ${why}`);
    }
    const sessionToken = randomSecret(32);
    this.db
      .prepare(
        'INSERT INTO sessions (session_hash, user_ref, dpe_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(
        sha256(sessionToken),
        info.userRef,
        info.dpeId,
        at,
        new Date(now.getTime() + SESSION_HOURS * 3_600_000).toISOString(),
      );
    return { record: { ...info, status: 'used', usedAt: at }, sessionToken };
  }

  /** The user of a live session (the login page), or undefined. */
  async sessionUser(
    sessionToken: string,
    now: Date = new Date(),
  ): Promise<(UserRef & { dpeId: string | null }) | undefined> {
    const row = this.db
      .prepare('SELECT user_ref, dpe_id FROM sessions WHERE session_hash = ? AND expires_at > ?')
      .get(sha256(sessionToken), nowIso(now)) as
      { user_ref: number; dpe_id: string | null } | undefined;
    if (!row) return undefined;
    const { partnerId, identity } = this.identityOf(row.user_ref);
    return { ref: row.user_ref, partnerId, identity, dpeId: row.dpe_id };
  }

  // ------------------------------------------------------------ simulations and history

  async createSimulation(user: UserRef, dpeId: string): Promise<string> {
    const id = `sim_${randomSecret(12)}`;
    this.db
      .prepare('INSERT INTO simulations (id, user_ref, dpe_id, created_at) VALUES (?, ?, ?, ?)')
      .run(id, user.ref, dpeId, nowIso());
    return id;
  }

  /** The latest simulation of this user on this DPE, if any. */
  async latestSimulation(user: UserRef, dpeId: string): Promise<string | undefined> {
    const row = this.db
      .prepare(
        'SELECT id FROM simulations WHERE user_ref = ? AND dpe_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
      )
      .get(user.ref, dpeId) as { id: string } | undefined;
    return row?.id;
  }

  /** Records a run; committed before returning. */
  async recordRun(run: RunInput, now: Date = new Date()): Promise<number> {
    const res = this.db
      .prepare(
        `INSERT INTO runs (at, user_ref, dpe_id, operation, simulation_id, scenario, works, class_before,
          class_after, conso_before, conso_after, cout_travaux, coef_mode, normalized, blocked)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        nowIso(now),
        run.user.ref,
        run.dpeId,
        run.operation,
        run.simulationId ?? null,
        run.scenario ?? null,
        JSON.stringify(run.works ?? []),
        run.classBefore ?? null,
        run.classAfter ?? null,
        run.consoBefore ?? null,
        run.consoAfter ?? null,
        run.coutTravaux ?? null,
        run.coefMode,
        run.normalized ? 1 : 0,
        run.blocked ? 1 : 0,
      );
    return Number(res.lastInsertRowid);
  }

  /** One partner's runs, newest first, filtered. */
  async history(partnerId: number, q: HistoryRequest): Promise<HistoryRecord[]> {
    const where = ['o.partner_id = ?'];
    const args: (string | number)[] = [partnerId];
    if (q.customerId) {
      where.push('o.customer_id = ?');
      args.push(q.customerId);
    }
    if (q.userId) {
      where.push('u.user_id = ?');
      args.push(q.userId);
    }
    if (q.dpeId) {
      where.push('r.dpe_id = ?');
      args.push(q.dpeId);
    }
    if (q.since) {
      where.push('r.at >= ?');
      args.push(q.since);
    }
    if (q.until) {
      where.push('r.at <= ?');
      args.push(q.until);
    }
    const rows = this.db
      .prepare(
        `SELECT r.id, r.at, o.customer_id, u.user_id, r.dpe_id, r.operation, r.scenario, r.works,
                r.class_before, r.class_after, r.conso_before, r.conso_after, r.cout_travaux,
                r.coef_mode, r.normalized, r.blocked
         FROM runs r JOIN users u ON u.id = r.user_ref JOIN organisations o ON o.id = u.organisation_id
         WHERE ${where.join(' AND ')}
         ORDER BY r.at DESC, r.id DESC LIMIT ?`,
      )
      .all(...args, q.limit ?? 100) as RunRow[];
    return rows.map((r) => ({
      id: r.id,
      at: r.at,
      customerId: r.customer_id,
      userId: r.user_id,
      dpeId: r.dpe_id,
      operation: r.operation,
      scenario: r.scenario,
      works: JSON.parse(r.works) as EditableChange[],
      classBefore: r.class_before,
      classAfter: r.class_after,
      consoBefore: r.conso_before,
      consoAfter: r.conso_after,
      coutTravaux: r.cout_travaux,
      coefMode: r.coef_mode,
      normalized: r.normalized === 1,
      blocked: r.blocked === 1,
    }));
  }
}

/** The store file and its directory (WAL needs its -wal and -shm files) can be written. */
function writable(file: string, dir: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A read-only connection. SQLite reads a WAL store only where it can create the -shm file; in a
 * directory this user cannot write, the store is read from a copy of its bytes instead (as last
 * checkpointed; dpe-sim checkpoints on close), marked as a rollback-journal database.
 */
function openReadOnlyDb(file: string): Database.Database {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('user_version', { simple: true }); // opening is lazy: this reads the file
    return db;
  } catch {
    const bytes = readFileSync(file);
    // file format bytes 18 and 19: 2 = WAL, 1 = legacy; an in-memory copy cannot use WAL
    if (bytes.length > 19) bytes.fill(1, 18, 20);
    return new Database(bytes, { readonly: true });
  }
}

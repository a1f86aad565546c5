/**
 * The shared store: one PostgreSQL database for several `serve` instances and batch workers
 * (driver: `pg`). The same guarantees as the SQLite store: a login token is used once under
 * concurrency across every instance (one conditional `UPDATE … RETURNING`), partner keys and
 * tokens are kept as hashes, one partner never reads another's rows, and every write is
 * committed (autocommit, synchronous_commit) before its promise resolves.
 */
import { timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { DpeSimError, errorMessage } from '../contract/errors.js';
import type {
  CoefMode,
  EditableChange,
  HistoryRecord,
  HistoryRequest,
  PartnerIdentity,
} from '../contract/schemas.js';
import { migrate, openPool, redactUrl } from './pg-migrate.js';
import { PG_MIGRATIONS } from './pg-schema.js';
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

function iso(d: Date | null): string | null {
  return d === null ? null : d.toISOString();
}

/** The owner and identity columns selected with a user (see IDENTITY_JOIN). */
interface IdentityRow {
  partner_id: number;
  customer_id: string;
  customer_name: string;
  user_id: string;
  user_name: string;
}

const IDENTITY_COLUMNS = `o.partner_id, o.customer_id, o.name AS customer_name, u.user_id, u.name AS user_name`;

function identityOf(row: IdentityRow): PartnerIdentity {
  return {
    customerId: row.customer_id,
    customerName: row.customer_name,
    userId: row.user_id,
    userName: row.user_name,
  };
}

interface TokenRow extends IdentityRow {
  user_ref: number;
  dpe_id: string | null;
  show_init: boolean;
  expires_at: Date;
  used_at: Date | null;
}

interface RunRow {
  id: number;
  at: Date;
  customer_id: string;
  user_id: string;
  dpe_id: string;
  operation: 'pre' | 'initial' | 'calc' | 'audit';
  scenario: string | null;
  works: EditableChange[];
  class_before: string | null;
  class_after: string | null;
  conso_before: number | null;
  conso_after: number | null;
  cout_travaux: number | null;
  coef_mode: CoefMode;
  normalized: boolean;
  blocked: boolean;
}

export interface PostgresStoreOptions {
  /** connections in this process's pool (default 10) */
  poolSize?: number;
}

export class PostgresStore implements Store {
  private constructor(
    private readonly pool: pg.Pool,
    readonly location: string,
  ) {}

  /** Connects to `url` and applies the migrations not yet applied (under an advisory lock). */
  static async open(url: string, opts: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const location = redactUrl(url);
    const pool = openPool(url, opts.poolSize ?? 10);
    // an idle client that loses its server must not crash the process; the next query reports it
    pool.on('error', () => {});
    try {
      await migrate(pool, 'store', PG_MIGRATIONS, location);
    } catch (err) {
      await pool.end().catch(() => {});
      if (err instanceof DpeSimError) throw err;
      throw new DpeSimError(
        'runtime',
        `cannot open the store ${location}: ${errorMessage(err)}`,
        { store: location },
        { cause: err },
      );
    }
    return new PostgresStore(pool, location);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async ping(): Promise<void> {
    await this.rows('SELECT 1', []);
  }

  private async rows<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query<R>(text, values)).rows;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new DpeSimError(
        'runtime',
        `store ${this.location}: ${errorMessage(err)}`,
        { store: this.location, ...(typeof code === 'string' ? { pgCode: code } : {}) },
        { cause: err },
      );
    }
  }

  // ------------------------------------------------------------ partners and keys

  async localPartner(): Promise<Partner> {
    const [row] = await this.rows<Partner>(
      `INSERT INTO partners (name, created_at) VALUES ($1, now())
       ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id, name`,
      [LOCAL_PARTNER],
    );
    return row as Partner;
  }

  async createPartnerKey(name: string): Promise<string> {
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(name) || name === LOCAL_PARTNER) {
      throw new DpeSimError(
        'invalid-input',
        `invalid partner name '${name}': use 1 to 64 letters, digits, '.', '_' or '-' (and not '${LOCAL_PARTNER}')`,
      );
    }
    const key = `dpsk_${randomSecret(32)}`;
    // one statement: a new partner, or a new key for a partner whose key was revoked
    const created = await this.rows<{ id: number }>(
      `INSERT INTO partners (name, key_hash, key_hint, created_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (name) DO UPDATE
         SET key_hash = excluded.key_hash, key_hint = excluded.key_hint, revoked_at = NULL,
             created_at = excluded.created_at
         WHERE partners.revoked_at IS NOT NULL
       RETURNING id`,
      [name, sha256(key), key.slice(-4)],
    );
    if (created.length === 0) {
      throw new DpeSimError(
        'invalid-input',
        `a partner named '${name}' already has a key; revoke it first (dpe-sim keys revoke ${name})`,
      );
    }
    return key;
  }

  async listPartnerKeys(): Promise<PartnerKeyInfo[]> {
    const rows = await this.rows<{
      name: string;
      key_hint: string | null;
      created_at: Date;
      revoked_at: Date | null;
    }>(
      'SELECT name, key_hint, created_at, revoked_at FROM partners WHERE name <> $1 ORDER BY name',
      [LOCAL_PARTNER],
    );
    return rows.map((r) => ({
      name: r.name,
      keyHint: r.key_hint,
      createdAt: r.created_at.toISOString(),
      revokedAt: iso(r.revoked_at),
    }));
  }

  async revokePartnerKey(name: string): Promise<void> {
    const rows = await this.rows(
      `UPDATE partners SET revoked_at = now()
       WHERE name = $1 AND revoked_at IS NULL AND key_hash IS NOT NULL RETURNING id`,
      [name],
    );
    if (rows.length === 0)
      throw new DpeSimError('not-found', `no active partner key named '${name}'`);
  }

  async partnerForKey(key: string): Promise<Partner | undefined> {
    const hash = sha256(key);
    const [row] = await this.rows<{ id: number; name: string; key_hash: string }>(
      'SELECT id, name, key_hash FROM partners WHERE key_hash = $1 AND revoked_at IS NULL',
      [hash],
    );
    if (!row) return undefined;
    const a = Buffer.from(row.key_hash, 'hex');
    const b = Buffer.from(hash, 'hex');
    if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
    return { id: row.id, name: row.name };
  }

  // ------------------------------------------------------------ organisations and users

  async ensureUser(partner: Partner, identity: PartnerIdentity): Promise<UserRef> {
    // one statement, safe under concurrency: the organisation is created once (its name kept),
    // the user is created once (its name updated)
    const [row] = await this.rows<{ id: number }>(
      `WITH org AS (
         INSERT INTO organisations (partner_id, customer_id, name, created_at)
         VALUES ($1, $2, $3, now())
         ON CONFLICT (partner_id, customer_id) DO UPDATE SET partner_id = excluded.partner_id
         RETURNING id)
       INSERT INTO users (organisation_id, user_id, name, created_at)
       SELECT id, $4, $5, now() FROM org
       ON CONFLICT (organisation_id, user_id) DO UPDATE SET name = excluded.name
       RETURNING id`,
      [partner.id, identity.customerId, identity.customerName, identity.userId, identity.userName],
    );
    return { ref: (row as { id: number }).id, partnerId: partner.id, identity };
  }

  // ------------------------------------------------------------ login tokens

  async issueToken(
    user: UserRef,
    opts: IssueTokenOptions,
    now: Date = new Date(),
  ): Promise<{ token: string; expiresAt: string }> {
    const minutes = opts.expireInMinutes ?? DEFAULT_TOKEN_MINUTES;
    const token = randomSecret(32);
    const expiresAt = new Date(now.getTime() + minutes * 60_000);
    await this.rows(
      `INSERT INTO tokens (token_hash, user_ref, dpe_id, show_init, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [sha256(token), user.ref, opts.dpeId ?? null, Boolean(opts.showInit), now, expiresAt],
    );
    return { token, expiresAt: expiresAt.toISOString() };
  }

  private record(row: TokenRow, now: Date): TokenRecord {
    const status = row.used_at ? 'used' : row.expires_at <= now ? 'expired' : 'issued';
    return {
      status,
      expiresAt: row.expires_at.toISOString(),
      usedAt: iso(row.used_at),
      user: identityOf(row),
      partnerId: row.partner_id,
      userRef: row.user_ref,
      dpeId: row.dpe_id,
      showInit: row.show_init,
    };
  }

  async tokenInfo(
    token: string,
    partnerId?: number,
    now: Date = new Date(),
  ): Promise<TokenRecord | undefined> {
    const [row] = await this.rows<TokenRow>(
      `SELECT t.user_ref, t.dpe_id, t.show_init, t.expires_at, t.used_at, ${IDENTITY_COLUMNS}
       FROM tokens t JOIN users u ON u.id = t.user_ref
         JOIN organisations o ON o.id = u.organisation_id
       WHERE t.token_hash = $1 AND ($2::bigint IS NULL OR o.partner_id = $2::bigint)`,
      [sha256(token), partnerId ?? null],
    );
    return row ? this.record(row, now) : undefined;
  }

  /**
   * Uses a token with ONE statement: a conditional UPDATE (unused, unexpired, this partner's)
   * whose RETURNING feeds the session INSERT. Concurrent logins on any instance serialize on
   * the token's row; the losers re-check `used_at IS NULL`, find it set, and update nothing.
   */
  async consumeToken(
    token: string,
    partnerId?: number,
    now: Date = new Date(),
  ): Promise<{ record: TokenRecord; sessionToken: string }> {
    const sessionToken = randomSecret(32);
    const sessionExpires = new Date(now.getTime() + SESSION_HOURS * 3_600_000);
    const [row] = await this.rows<TokenRow>(
      `WITH used AS (
         UPDATE tokens t SET used_at = $3
         FROM users u JOIN organisations o ON o.id = u.organisation_id
         WHERE t.token_hash = $1 AND t.used_at IS NULL AND t.expires_at > $3
           AND u.id = t.user_ref AND ($2::bigint IS NULL OR o.partner_id = $2::bigint)
         RETURNING t.user_ref, t.dpe_id, t.show_init, t.expires_at, t.used_at, ${IDENTITY_COLUMNS}
       ), session AS (
         INSERT INTO sessions (session_hash, user_ref, dpe_id, created_at, expires_at)
         SELECT $4::text, user_ref, dpe_id, $3::timestamptz, $5::timestamptz FROM used
       )
       SELECT * FROM used`,
      [sha256(token), partnerId ?? null, now, sha256(sessionToken), sessionExpires],
    );
    if (row) return { record: this.record(row, now), sessionToken };
    const info = await this.tokenInfo(token, partnerId, now);
    if (!info) throw new DpeSimError('not-found', 'unknown login token');
    const why = info.status === 'expired' ? 'has expired' : 'has already been used';
    throw new DpeSimError('token', `this login token ${why}`);
  }

  async sessionUser(
    sessionToken: string,
    now: Date = new Date(),
  ): Promise<(UserRef & { dpeId: string | null }) | undefined> {
    const [row] = await this.rows<IdentityRow & { user_ref: number; dpe_id: string | null }>(
      `SELECT s.user_ref, s.dpe_id, ${IDENTITY_COLUMNS}
       FROM sessions s JOIN users u ON u.id = s.user_ref
         JOIN organisations o ON o.id = u.organisation_id
       WHERE s.session_hash = $1 AND s.expires_at > $2`,
      [sha256(sessionToken), now],
    );
    if (!row) return undefined;
    return {
      ref: row.user_ref,
      partnerId: row.partner_id,
      identity: identityOf(row),
      dpeId: row.dpe_id,
    };
  }

  // ------------------------------------------------------------ simulations and history

  async createSimulation(user: UserRef, dpeId: string): Promise<string> {
    const id = `sim_${randomSecret(12)}`;
    await this.rows(
      'INSERT INTO simulations (id, user_ref, dpe_id, created_at) VALUES ($1, $2, $3, now())',
      [id, user.ref, dpeId],
    );
    return id;
  }

  async latestSimulation(user: UserRef, dpeId: string): Promise<string | undefined> {
    const [row] = await this.rows<{ id: string }>(
      `SELECT id FROM simulations WHERE user_ref = $1 AND dpe_id = $2
       ORDER BY created_at DESC, seq DESC LIMIT 1`,
      [user.ref, dpeId],
    );
    return row?.id;
  }

  async recordRun(run: RunInput, now: Date = new Date()): Promise<number> {
    const [row] = await this.rows<{ id: number }>(
      `INSERT INTO runs (at, user_ref, dpe_id, operation, simulation_id, scenario, works,
         class_before, class_after, conso_before, conso_after, cout_travaux, coef_mode,
         normalized, blocked)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
      [
        now,
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
        Boolean(run.normalized),
        Boolean(run.blocked),
      ],
    );
    return (row as { id: number }).id;
  }

  async history(partnerId: number, q: HistoryRequest): Promise<HistoryRecord[]> {
    const where = ['o.partner_id = $1'];
    const args: unknown[] = [partnerId];
    const add = (clause: string, value: unknown) => {
      args.push(value);
      where.push(clause.replace('?', `$${args.length}`));
    };
    if (q.customerId) add('o.customer_id = ?', q.customerId);
    if (q.userId) add('u.user_id = ?', q.userId);
    if (q.dpeId) add('r.dpe_id = ?', q.dpeId);
    if (q.since) {
      const since = new Date(q.since);
      if (Number.isNaN(since.getTime())) {
        throw new DpeSimError(
          'invalid-input',
          `since '${q.since}' is not an ISO date or date-time`,
        );
      }
      add('r.at >= ?', since);
    }
    args.push(q.limit ?? 100);
    const rows = await this.rows<RunRow>(
      `SELECT r.id, r.at, o.customer_id, u.user_id, r.dpe_id, r.operation, r.scenario, r.works,
              r.class_before, r.class_after, r.conso_before, r.conso_after, r.cout_travaux,
              r.coef_mode, r.normalized, r.blocked
       FROM runs r JOIN users u ON u.id = r.user_ref JOIN organisations o ON o.id = u.organisation_id
       WHERE ${where.join(' AND ')}
       ORDER BY r.at DESC, r.id DESC LIMIT $${args.length}`,
      args,
    );
    return rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      customerId: r.customer_id,
      userId: r.user_id,
      dpeId: r.dpe_id,
      operation: r.operation,
      scenario: r.scenario,
      works: r.works,
      classBefore: r.class_before,
      classAfter: r.class_after,
      consoBefore: r.conso_before,
      consoAfter: r.conso_after,
      coutTravaux: r.cout_travaux,
      coefMode: r.coef_mode,
      normalized: r.normalized,
      blocked: r.blocked,
    }));
  }
}

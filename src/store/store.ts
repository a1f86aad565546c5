/**
 * The store: the only place besides the config and the DPE cache that writes state. One
 * interface, two implementations: SQLite embedded (default, `sqlite-store.ts`) and PostgreSQL
 * (several servers or workers sharing one database). Every write is committed before the
 * promise resolves.
 */
import { createHash, randomBytes } from 'node:crypto';
import type {
  CoefMode,
  EditableChange,
  HistoryRecord,
  HistoryRequest,
  PartnerIdentity,
} from '../contract/schemas.js';

export const LOCAL_PARTNER = 'local';
export const DEFAULT_TOKEN_MINUTES = 10;
/** How long a session opened by a login token lasts, hours (both stores). */
export const SESSION_HOURS = 12;

export interface Partner {
  id: number;
  name: string;
}

export interface PartnerKeyInfo {
  name: string;
  keyHint: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface UserRef {
  ref: number;
  partnerId: number;
  identity: PartnerIdentity;
}

export interface TokenRecord {
  status: 'issued' | 'used' | 'expired';
  expiresAt: string;
  usedAt: string | null;
  user: PartnerIdentity;
  partnerId: number;
  userRef: number;
  dpeId: string | null;
  showInit: boolean;
}

export interface RunInput {
  user: UserRef;
  dpeId: string;
  operation: 'pre' | 'initial' | 'calc' | 'audit';
  simulationId?: string | null;
  scenario?: string | null;
  works?: EditableChange[];
  classBefore?: string | null;
  classAfter?: string | null;
  consoBefore?: number | null;
  consoAfter?: number | null;
  coutTravaux?: number | null;
  coefMode: CoefMode;
  normalized?: boolean;
  blocked?: boolean;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A URL-safe random secret of `bytes` bytes (256 bits by default). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export interface IssueTokenOptions {
  dpeId?: string | undefined;
  showInit?: boolean | undefined;
  expireInMinutes?: number | undefined;
}

export interface Store {
  /** where the data lives, for messages (a file path, or a database URL without password) */
  readonly location: string;
  close(): Promise<void>;
  /** Asks the database for nothing (`SELECT 1`): resolves when it answers, for /ready. */
  ping(): Promise<void>;

  /** The partner the local CLI acts as (no key). */
  localPartner(): Promise<Partner>;
  /** Creates a partner with a new key; the key is returned once and only its hash is kept. */
  createPartnerKey(name: string): Promise<string>;
  listPartnerKeys(): Promise<PartnerKeyInfo[]>;
  revokePartnerKey(name: string): Promise<void>;
  /** The partner a key belongs to, or undefined (unknown, revoked). */
  partnerForKey(key: string): Promise<Partner | undefined>;

  /** Creates the organisation and the user on first use; later calls update nothing but names. */
  ensureUser(partner: Partner, identity: PartnerIdentity): Promise<UserRef>;

  /** Issues a single-use login token (256 random bits); only its hash is stored. */
  issueToken(
    user: UserRef,
    opts: IssueTokenOptions,
    now?: Date,
  ): Promise<{ token: string; expiresAt: string }>;
  /** Looks at a token without using it. `partnerId` restricts it to one partner's tokens. */
  tokenInfo(token: string, partnerId?: number, now?: Date): Promise<TokenRecord | undefined>;
  /**
   * Uses a token atomically (one conditional update), so of concurrent logins with the same
   * token exactly one succeeds. Opens a session and returns its secret.
   */
  consumeToken(
    token: string,
    partnerId?: number,
    now?: Date,
  ): Promise<{ record: TokenRecord; sessionToken: string }>;
  /** The user of a live session (the login page), or undefined. */
  sessionUser(
    sessionToken: string,
    now?: Date,
  ): Promise<(UserRef & { dpeId: string | null }) | undefined>;

  createSimulation(user: UserRef, dpeId: string): Promise<string>;
  /** The latest simulation of this user on this DPE, if any. */
  latestSimulation(user: UserRef, dpeId: string): Promise<string | undefined>;
  /** Records a run; committed before the promise resolves. */
  recordRun(run: RunInput, now?: Date): Promise<number>;
  /** One partner's runs, newest first, filtered. */
  history(partnerId: number, q: HistoryRequest): Promise<HistoryRecord[]>;
}

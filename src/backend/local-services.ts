/**
 * What every local request shares: the store, where DPEs come from, the cost table, the engine
 * and the cache of prepared DPEs. Built once by the composition root (`compose.ts`); a
 * `LocalBackend` is these services seen by one partner (the CLI's own, or a server caller's).
 * The front doors reach the domain only through here and through `LocalBackend`.
 */
import { DpeSimError } from '../contract/errors.js';
import type { DpeSourceInfo, PageLoginResponse, PartnerIdentity } from '../contract/schemas.js';
import { checkDpeText } from '../dpe/sniff.js';
import {
  checkXmlSize,
  keyForText,
  readDpeFile,
  type DpeSource,
  type DpeText,
} from '../dpe/source.js';
import { loadEngine, type Engine } from '../engine/engine.js';
import { dpeSourceOf } from '../registry/origin.js';
import type { Partner, PartnerKeyInfo, Store } from '../store/store.js';
import type { CostTable } from '../works/costs.js';
import type { EngineJob, JobResult } from './engine-jobs.js';
import { InProcessEngine, type EngineRunner } from './engine-runner.js';

export type { Partner, PartnerKeyInfo };
/** How long a workbench session lasts, hours. */
export { SESSION_HOURS } from '../store/store.js';
import type { DpeInput, RunOptions } from './backend.js';

export interface LocalServicesOptions {
  store: Store;
  source: DpeSource;
  /** the user-facing application in login URLs (a server may set it once it listens) */
  appUrl: string;
  costs: CostTable;
  /** memory for prepared DPEs, bytes (estimated from the XML's length; default 128 MiB) */
  cacheBytes?: number;
  /** where the engine work runs (default: in this thread, with a cache of `cacheBytes`) */
  engine?: EngineRunner;
  /** responses name the DPE file's path (`dpeSource.location`); false on a server (default true) */
  dpeLocations?: boolean;
}

/** A DPE file held by its key until released (a batch item). */
export interface HeldDpe {
  dpeId: string;
  release(): void;
}

export class LocalServices {
  readonly store: Store;
  readonly costs: CostTable;
  private appUrlValue: string;
  private readonly source: DpeSource;
  /** documents named by path or piped on stdin, by key; they win over the source */
  private readonly docs = new Map<string, DpeText>();
  private serial = 0;
  private readonly runner: EngineRunner;
  private readonly dpeLocations: boolean;

  constructor(opts: LocalServicesOptions) {
    this.dpeLocations = opts.dpeLocations ?? true;
    this.store = opts.store;
    this.source = opts.source;
    this.appUrlValue = opts.appUrl;
    this.costs = opts.costs;
    this.runner = opts.engine ?? new InProcessEngine(opts.costs, opts.cacheBytes);
  }

  get appUrl(): string {
    return this.appUrlValue;
  }

  /** Sets the login pages' URL once it is known (a server listening on port 0). */
  useAppUrl(url: string): void {
    this.appUrlValue = url;
  }

  /** Where DPEs are looked up and where the store lives, for banners and messages. */
  describe(): { dpes: string; store: string } {
    return { dpes: this.source.description, store: this.store.location };
  }

  /** The engine in this thread (tests count its runs; requests use `compute`). */
  engine(): Promise<Engine> {
    return loadEngine();
  }

  /** Loads the engine now rather than on the first request. */
  warmUp(): Promise<void> {
    return this.runner.warmUp();
  }

  private read(dpeId: string): Promise<DpeText> {
    const doc = this.docs.get(dpeId);
    return doc ? Promise.resolve(doc) : this.source.read(dpeId);
  }

  /** Throws `not-found` (reason `unknown-dpe`) when no DPE has that number. */
  async checkExists(dpeId: string): Promise<void> {
    await this.read(dpeId);
  }

  /** The DPE's text and where it came from; `not-found` when there is none. */
  async readDpe(dpeId: string): Promise<{ doc: DpeText; dpeSource: DpeSourceInfo }> {
    const doc = await this.read(dpeId);
    return { doc, dpeSource: dpeSourceOf(doc, this.dpeLocations) };
  }

  /**
   * Runs a job on a DPE where the engine is (this thread or the engine pool): the DPE is parsed
   * and run once per version, later jobs on it hit the cache of the thread that holds it.
   */
  compute<J extends EngineJob>(doc: DpeText, job: J, opts: RunOptions = {}): Promise<JobResult<J>> {
    return this.runner.run(doc, job, opts);
  }

  private async readInput(input: DpeInput): Promise<DpeText> {
    if ('path' in input) return readDpeFile(input.path);
    checkXmlSize(input.text, input.name === '-' ? 'stdin' : input.name);
    // empty, not XML, or XML but not a DPE: each its own invalid-input
    checkDpeText(input.text, input.name);
    return {
      key: keyForText(input.text, input.name),
      file: input.name,
      xml: input.text,
      version: 0,
    };
  }

  /** Makes a DPE file (or stdin's text) known by its key; returns the key. */
  async openDpe(input: DpeInput): Promise<string> {
    const doc = await this.readInput(input);
    this.docs.set(doc.key, doc);
    return doc.key;
  }

  /**
   * Holds a DPE file until released. Its version is made unique, so the prepared-DPE cache
   * serves it only while held (two files of a batch may carry the same number).
   */
  async holdDpe(input: DpeInput): Promise<HeldDpe> {
    const doc = { ...(await this.readInput(input)), version: -++this.serial };
    this.docs.set(doc.key, doc);
    return {
      dpeId: doc.key,
      release: () => {
        if (this.docs.get(doc.key) === doc) this.docs.delete(doc.key);
      },
    };
  }

  // ---------------------------------------------------------------- partners

  /** The partner the local CLI and batch act as (no key). */
  localPartner(): Promise<Partner> {
    return this.store.localPartner();
  }

  partnerForKey(key: string): Promise<Partner | undefined> {
    return this.store.partnerForKey(key);
  }

  createPartnerKey(name: string): Promise<string> {
    return this.store.createPartnerKey(name);
  }

  listPartnerKeys(): Promise<PartnerKeyInfo[]> {
    return this.store.listPartnerKeys();
  }

  revokePartnerKey(name: string): Promise<void> {
    return this.store.revokePartnerKey(name);
  }

  // ---------------------------------------------------------------- the login page

  /**
   * Uses the token (once, whoever the partner) and gathers what the login page shows, with the
   * secret of the session it opened (the workbench's cookie).
   */
  async pageLogin(
    partnerToken: string,
  ): Promise<{ body: PageLoginResponse; sessionToken: string }> {
    const { record, sessionToken } = await this.store.consumeToken(partnerToken);
    const [last] = await this.store.history(record.partnerId, {
      customerId: record.user.customerId,
      userId: record.user.userId,
      ...(record.dpeId ? { dpeId: record.dpeId } : {}),
      limit: 1,
    });
    const dpeId = record.dpeId ?? last?.dpeId ?? null;
    let dpe: PageLoginResponse['dpe'] = null;
    if (dpeId) {
      const found = await this.read(dpeId).catch((err: unknown) => {
        if (err instanceof DpeSimError && err.kind === 'not-found') return undefined;
        throw err;
      });
      dpe = found ? await this.compute(found, { kind: 'summary' }) : null;
    }
    return {
      body: { user: record.user, showInit: record.showInit, dpe, lastSimulation: last ?? null },
      sessionToken,
    };
  }

  /**
   * The user of a live workbench session (opened by `pageLogin`), as the partner that issued
   * its token, or undefined (unknown or expired).
   */
  async sessionUser(
    sessionToken: string,
  ): Promise<{ partner: Partner; user: PartnerIdentity; dpeId: string | null } | undefined> {
    const found = await this.store.sessionUser(sessionToken);
    if (!found) return undefined;
    return {
      partner: { id: found.partnerId, name: `partner ${found.partnerId}` },
      user: found.identity,
      dpeId: found.dpeId,
    };
  }

  async close(): Promise<void> {
    try {
      await this.runner.close();
    } finally {
      await this.store.close();
    }
  }
}

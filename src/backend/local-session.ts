/**
 * One request through the local backend, from validation to result: the options read once, the
 * prepared DPE (read, parsed and run once, or from the cache), the works resolved once into
 * typed changes, and the writes, made only after every check passed. Nothing parses, resolves or
 * runs the engine twice for the same request, and a refused request writes nothing.
 */
import { DpeSimError } from '../contract/errors.js';
import type {
  CoefMode,
  DpeSourceInfo,
  EditableChange,
  PartnerIdentity,
  SimulationQuery,
} from '../contract/schemas.js';
import type { Engine } from '../engine/engine.js';
import type { Preparation, PreparedDpe } from '../simulation/prepared.js';
import type { Partner, RunInput, UserRef } from '../store/store.js';
import { resolveChanges, type Resolved } from '../works/apply.js';
import type { LocalServices } from './local-services.js';

/** The options pre, initial and calc share, wherever the request put them. */
export interface SimulationOptions {
  coef: CoefMode;
  forceNormalization: boolean;
  expireInMinutes: number | undefined;
}

interface OptionCarrier {
  query?: SimulationQuery | undefined;
  forceNormalization?: boolean | undefined;
  expireInMinutes?: number | undefined;
}

/** Reads the options from `query`, or from the top level where the spec leaves them. */
export function simulationOptions(req: OptionCarrier): SimulationOptions {
  return {
    coef: req.query?.coef2026 ?? 'activated',
    forceNormalization: req.query?.forceNormalization ?? req.forceNormalization ?? false,
    expireInMinutes: req.query?.expireInMinutes ?? req.expireInMinutes,
  };
}

export function identityOf(req: PartnerIdentity): PartnerIdentity {
  return {
    customerId: req.customerId,
    userId: req.userId,
    userName: req.userName,
    customerName: req.customerName,
  };
}

export class Session {
  private userRef: UserRef | undefined;

  private constructor(
    private readonly services: LocalServices,
    private readonly partner: Partner,
    readonly identity: PartnerIdentity,
    readonly options: SimulationOptions,
    readonly engine: Engine,
    readonly preparation: Preparation,
    /** where the DPE's XML came from, for the response */
    readonly dpeSource: DpeSourceInfo,
  ) {}

  /** Opens a session on a DPE: `not-found` when there is none (nothing written). */
  static async open(
    services: LocalServices,
    partner: Partner,
    req: PartnerIdentity & OptionCarrier & { dpeId: string },
  ): Promise<Session> {
    const { engine, prep, dpeSource } = await services.prepared(req.dpeId);
    return new Session(
      services,
      partner,
      identityOf(req),
      simulationOptions(req),
      engine,
      prep,
      dpeSource,
    );
  }

  get dpeId(): string {
    return this.preparation.ok ? this.preparation.dpe.key : this.preparation.key;
  }

  /** The DPE ready for simulation, or `blocked` (422 / exit 3) with its alert. */
  ready(): PreparedDpe {
    const prep = this.preparation;
    if (prep.ok) return prep.dpe;
    throw new DpeSimError('blocked', `DPE ${prep.key} cannot be simulated: ${prep.alert.content}`, {
      reason: 'blocked',
      dpeId: prep.key,
      warnings: [prep.alert],
    });
  }

  /** Checks every works change against the DPE (typed `invalid-input` errors), once. */
  resolve(changes: readonly EditableChange[]): Resolved[] {
    return resolveChanges(this.ready(), changes);
  }

  /** The user (created on first use): call only once every check has passed. */
  async user(): Promise<UserRef> {
    this.userRef ??= await this.services.store.ensureUser(this.partner, this.identity);
    return this.userRef;
  }

  async record(run: Omit<RunInput, 'user' | 'dpeId' | 'coefMode'>): Promise<void> {
    await this.services.store.recordRun({
      ...run,
      user: await this.user(),
      dpeId: this.dpeId,
      coefMode: this.options.coef,
    });
  }
}

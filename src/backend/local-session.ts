/**
 * One request through the local backend, from validation to result: the options read once, the
 * prepared DPE (read, parsed and run once, or from the cache), the works resolved once into
 * typed changes, and the writes, made only after every check passed. Nothing parses, resolves or
 * runs the engine twice for the same request, and a refused request writes nothing.
 */
import type {
  CoefMode,
  DpeSourceInfo,
  PartnerIdentity,
  SimulationQuery,
} from '../contract/schemas.js';
import { DpeSimError } from '../contract/errors.js';
import type { DpeText } from '../dpe/source.js';
import type { Partner, RunInput, UserRef } from '../store/store.js';
import type { EngineJob, JobResult } from './engine-jobs.js';
import type { LocalServices } from './local-services.js';
import type { RunOptions } from './backend.js';

/** The options pre, initial and calc share, wherever the request put them. */
export interface SimulationOptions {
  coef: CoefMode;
  forceNormalization: boolean;
  expireInMinutes: number | undefined;
}

interface OptionCarrier {
  query?: SimulationQuery | undefined;
  coef2026?: CoefMode | undefined;
  forceNormalization?: boolean | undefined;
  expireInMinutes?: number | undefined;
}

/**
 * Reads one option from `query` or from the top level (the spec leaves the placement open):
 * the same in pre, initial and calc; given in both places with different values, a 400.
 */
function option<K extends keyof SimulationQuery & keyof OptionCarrier>(
  req: OptionCarrier,
  key: K,
): SimulationQuery[K] {
  const inQuery = req.query?.[key];
  const top = req[key] as SimulationQuery[K];
  if (inQuery !== undefined && top !== undefined && inQuery !== top) {
    throw new DpeSimError(
      'invalid-input',
      `'${key}' is given twice with different values: 'query.${key}' = ${JSON.stringify(inQuery)} and '${key}' = ${JSON.stringify(top)}; give it once (either place is read)`,
      { field: `query.${key}`, value: inQuery, allowed: [JSON.stringify(top)] },
    );
  }
  return inQuery ?? top;
}

/** Reads the options from `query` or from the top level, wherever the request put them. */
export function simulationOptions(req: OptionCarrier): SimulationOptions {
  return {
    coef: option(req, 'coef2026') ?? 'activated',
    forceNormalization: option(req, 'forceNormalization') ?? false,
    expireInMinutes: option(req, 'expireInMinutes'),
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
    /** the DPE's text, as read once for this request */
    private readonly doc: DpeText,
    /** where the DPE's XML came from, for the response */
    readonly dpeSource: DpeSourceInfo,
  ) {}

  /** Opens a session on a DPE: `not-found` when there is none (nothing written). */
  static async open(
    services: LocalServices,
    partner: Partner,
    req: PartnerIdentity & OptionCarrier & { dpeId: string },
  ): Promise<Session> {
    const { doc, dpeSource } = await services.readDpe(req.dpeId);
    return new Session(services, partner, identityOf(req), simulationOptions(req), doc, dpeSource);
  }

  get dpeId(): string {
    return this.doc.key;
  }

  /**
   * The request's engine work (prepare once, check, run), where the engine is. A DPE that
   * cannot be simulated (`blocked`) or works it does not offer fail here, typed, before any
   * write.
   */
  compute<J extends EngineJob>(job: J, opts: RunOptions = {}): Promise<JobResult<J>> {
    return this.services.compute(this.doc, job, opts);
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

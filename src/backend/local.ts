/**
 * The local backend: the partner API computed in-process with the bundled engine, state in the
 * SQLite store. `LocalServices` is shared (store, DPE source, engine, cache of prepared DPEs);
 * a `LocalBackend` is those services seen by one partner (the CLI's own, or a server caller's).
 */
import { DpeSimError } from '../contract/errors.js';
import type {
  AuthRequest,
  AuthResponse,
  CalcRequest,
  CalcResponse,
  CoefMode,
  EditableChange,
  HistoryRequest,
  HistoryResponse,
  InitialRequest,
  InitialResponse,
  PartnerIdentity,
  PreRequest,
  PreResponse,
  TokenInfoResponse,
  TokenLoginResponse,
} from '../contract/schemas.js';
import type { DpeSource } from '../dpe/source.js';
import { loadEngine, type Engine } from '../engine/engine.js';
import { calculate, outcome } from '../simulation/calc.js';
import { engineFigures } from '../simulation/comparison.js';
import { initialSimulation } from '../simulation/initial.js';
import { preAnalysis } from '../simulation/pre.js';
import { prepare, type Preparation, type PreparedDpe } from '../simulation/prepared.js';
import { resolveChanges } from '../works/apply.js';
import type { CostTable } from '../works/costs.js';
import type { Partner, RunInput, Store, UserRef } from '../store/store.js';
import { loginUrl, type Backend } from './backend.js';

export interface LocalServicesOptions {
  store: Store;
  source: DpeSource;
  appUrl: string;
  costs: CostTable;
  /** how many prepared DPEs to keep in memory */
  cacheSize?: number;
}

export class LocalServices {
  readonly store: Store;
  readonly source: DpeSource;
  readonly appUrl: string;
  readonly costs: CostTable;
  private readonly cache = new Map<string, { version: number; prep: Preparation }>();
  private readonly cacheSize: number;

  constructor(opts: LocalServicesOptions) {
    this.store = opts.store;
    this.source = opts.source;
    this.appUrl = opts.appUrl;
    this.costs = opts.costs;
    this.cacheSize = opts.cacheSize ?? 64;
  }

  engine(): Promise<Engine> {
    return loadEngine();
  }

  /** Reads, parses and runs the baseline once per DPE version; later calls hit the cache. */
  async prepared(dpeId: string): Promise<{ engine: Engine; prep: Preparation }> {
    const text = await this.source.read(dpeId);
    const engine = await this.engine();
    const hit = this.cache.get(text.key);
    if (hit && hit.version === text.version && text.version !== 0) {
      // refresh recency
      this.cache.delete(text.key);
      this.cache.set(text.key, hit);
      return { engine, prep: hit.prep };
    }
    const prep = prepare(engine, text);
    this.cache.set(text.key, { version: text.version, prep });
    while (this.cache.size > this.cacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
    return { engine, prep };
  }

  for(partner: Partner): LocalBackend {
    return new LocalBackend(this, partner);
  }
}

function identityOf(req: PartnerIdentity): PartnerIdentity {
  return {
    customerId: req.customerId,
    userId: req.userId,
    userName: req.userName,
    customerName: req.customerName,
  };
}

function readyOrThrow(prep: Preparation): PreparedDpe {
  if (prep.ok) return prep.dpe;
  throw new DpeSimError('blocked', `DPE ${prep.key} cannot be simulated: ${prep.alert.content}`, {
    warnings: [prep.alert],
  });
}

export class LocalBackend implements Backend {
  readonly kind = 'local' as const;

  constructor(
    private readonly services: LocalServices,
    readonly partner: Partner,
  ) {}

  private user(req: PartnerIdentity): UserRef {
    return this.services.store.ensureUser(this.partner, identityOf(req));
  }

  async auth(req: AuthRequest): Promise<AuthResponse> {
    const user = this.user(req);
    const { token } = this.services.store.issueToken(user, {
      dpeId: req.dpeId,
      showInit: req.showInit,
      expireInMinutes: req.expireInMinutes,
    });
    return { url: loginUrl(this.services.appUrl, token) };
  }

  async pre(req: PreRequest): Promise<PreResponse> {
    const coef: CoefMode = req.query?.coef2026 ?? 'activated';
    const { prep } = await this.services.prepared(req.dpeId);
    const analysis = preAnalysis(prep, {
      coef,
      forceNormalization: req.query?.forceNormalization ?? false,
    });
    // a blocked DPE issues no login token and leaves no trace in history (issue 14)
    if (analysis.blocked) {
      return {
        url: this.services.appUrl,
        maxCalculation: analysis.maxCalculation,
        warnings: analysis.warnings,
      };
    }
    const user = this.user(req);
    const dpeId = prep.ok ? prep.dpe.key : prep.key;
    const baseline = prep.ok
      ? outcome(
          prep.dpe,
          engineFigures(prep.dpe.base, coef),
          coef,
          req.query?.forceNormalization ?? false,
        )
      : undefined;
    const { token } = this.services.store.issueToken(user, {
      dpeId: req.dpeId,
      expireInMinutes: req.query?.expireInMinutes,
    });
    this.services.store.recordRun({
      user,
      dpeId,
      operation: 'pre',
      coefMode: coef,
      classBefore: baseline?.classesBefore.dpe ?? null,
      consoBefore: baseline?.before.epM2 ?? null,
      normalized: baseline?.normalization.applied ?? false,
      blocked: analysis.blocked,
    });
    return {
      url: loginUrl(this.services.appUrl, token),
      maxCalculation: analysis.maxCalculation,
      warnings: analysis.warnings,
      ...(analysis.classes ? { classes: analysis.classes } : {}),
    };
  }

  async initial(req: InitialRequest): Promise<InitialResponse> {
    const coef: CoefMode = req.query?.coef2026 ?? 'activated';
    const force = req.query?.forceNormalization ?? req.forceNormalization ?? false;
    const { engine, prep } = await this.services.prepared(req.dpeId);
    const dpe = readyOrThrow(prep);
    const user = this.user(req);
    const simulationId = this.services.store.createSimulation(user, dpe.key);
    const body = initialSimulation(engine, dpe, {
      coef,
      forceNormalization: force,
      simulationId,
      costs: this.services.costs,
    });
    this.services.store.recordRun(
      simulationRun(
        { user, dpeId: dpe.key, operation: 'initial', simulationId, coef },
        body,
        [],
        0,
      ),
    );
    return body;
  }

  async calc(req: CalcRequest): Promise<CalcResponse> {
    const coef: CoefMode = req.query?.coef2026 ?? 'activated';
    const { engine, prep } = await this.services.prepared(req.dpeId);
    const dpe = readyOrThrow(prep);
    const changes = req.params?.editablesChanges ?? [];
    // invalid works are rejected before anything is written
    resolveChanges(dpe, changes);
    const user = this.user(req);
    const simulationId =
      this.services.store.latestSimulation(user, dpe.key) ??
      this.services.store.createSimulation(user, dpe.key);
    const body = calculate(engine, dpe, changes, {
      coef,
      forceNormalization: req.query?.forceNormalization ?? false,
      simulationId,
      scenario: req.params?.namedCalculation ?? 'default',
      includeDpe: req.query?.includeDPE ?? false,
      costs: this.services.costs,
    });
    if (req.query?.includeUser) body.user = identityOf(req);
    this.services.store.recordRun(
      simulationRun(
        { user, dpeId: dpe.key, operation: 'calc', simulationId, coef },
        body,
        changes,
        body.calculation.hints.coutTravaux,
      ),
    );
    return body;
  }

  async history(req: HistoryRequest): Promise<HistoryResponse> {
    return { records: this.services.store.history(this.partner.id, req) };
  }

  async tokenInfo(token: string): Promise<TokenInfoResponse> {
    const info = this.services.store.tokenInfo(token, this.partner.id);
    if (!info) throw new DpeSimError('not-found', 'unknown login token');
    return {
      valid: info.status === 'issued',
      status: info.status,
      expiresAt: info.expiresAt,
      customerId: info.user.customerId,
      userId: info.user.userId,
      dpeId: info.dpeId,
      showInit: info.showInit,
    };
  }

  async tokenLogin(token: string): Promise<TokenLoginResponse> {
    const { record, sessionToken } = this.services.store.consumeToken(token, this.partner.id);
    return { sessionToken, user: record.user, dpeId: record.dpeId, showInit: record.showInit };
  }

  async close(): Promise<void> {
    // the services (store) are closed by whoever opened them
  }
}

/** The history record of an initial simulation or a recalculation: classes and consumption. */
function simulationRun(
  who: {
    user: UserRef;
    dpeId: string;
    operation: 'initial' | 'calc';
    simulationId: string;
    coef: CoefMode;
  },
  body: Pick<CalcResponse, 'namedCalculation' | 'simulation' | 'calculation'>,
  works: EditableChange[],
  coutTravaux: number,
): RunInput {
  const conso = body.calculation.result.ep_conso_5_usages_m2;
  return {
    user: who.user,
    dpeId: who.dpeId,
    operation: who.operation,
    simulationId: who.simulationId,
    scenario: body.namedCalculation,
    works,
    coefMode: who.coef,
    classBefore: body.simulation.initialGrade,
    classAfter: body.simulation.currentGrade,
    consoBefore: conso.VInit,
    consoAfter: conso.value,
    coutTravaux,
    normalized: body.calculation.normalization.applied,
  };
}

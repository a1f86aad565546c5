/**
 * The local backend: the partner API computed in-process with the bundled engine, for one
 * partner. Every check that needs the domain (the DPE exists, it is not blocked, the works are
 * known, a scenario index is in range) is made here, before anything is written, so the CLI,
 * the server and batch refuse the same requests with the same typed errors.
 */
import type { AuditRequest, AuditResponse } from '../contract/audit.js';
import { impossibleDate } from '../contract/text.js';
import { DpeSimError } from '../contract/errors.js';
import type {
  AuthRequest,
  AuthResponse,
  AutoSolution,
  CalcRequest,
  CalcResponse,
  EditableChange,
  HistoryRequest,
  HistoryResponse,
  InitialRequest,
  InitialResponse,
  PreRequest,
  PreResponse,
  TokenInfoResponse,
  TokenLoginResponse,
  TokenParams,
} from '../contract/schemas.js';
import type { Partner } from '../store/store.js';
import { loginUrl, pickScenario, type Backend, type DpeInput, type RunOptions } from './backend.js';
import type { LocalServices } from './local-services.js';
import { identityOf, Session } from './local-session.js';

export class LocalBackend implements Backend {
  readonly kind = 'local' as const;

  constructor(
    private readonly services: LocalServices,
    readonly partner: Partner,
  ) {}

  private open(req: Parameters<typeof Session.open>[2]): Promise<Session> {
    return Session.open(this.services, this.partner, req);
  }

  openDpe(input: DpeInput): Promise<string> {
    return this.services.openDpe(input);
  }

  async auth(req: AuthRequest): Promise<AuthResponse> {
    if (req.dpeId !== undefined) await this.services.checkExists(req.dpeId);
    const user = await this.services.store.ensureUser(this.partner, identityOf(req));
    const { token } = await this.services.store.issueToken(user, {
      dpeId: req.dpeId,
      showInit: req.showInit,
      expireInMinutes: req.expireInMinutes,
    });
    return { url: loginUrl(this.services.appUrl, token) };
  }

  async pre(req: PreRequest, opts: RunOptions = {}): Promise<PreResponse> {
    const session = await this.open(req);
    const { coef, forceNormalization, expireInMinutes } = session.options;
    const analysis = await session.compute({ kind: 'pre', coef, forceNormalization }, opts);
    // the spec: a valid request creates a login token, whatever the analysis found; a blocked
    // DPE's pre is recorded as such (the user can log in, initial and calc refuse the DPE)
    const baseline = analysis.blocked ? undefined : analysis.baseline;
    const { token } = await this.services.store.issueToken(await session.user(), {
      dpeId: req.dpeId,
      expireInMinutes,
    });
    await session.record({
      operation: 'pre',
      classBefore: baseline?.classBefore ?? null,
      consoBefore: baseline?.consoBefore ?? null,
      normalized: baseline?.normalized ?? false,
      blocked: analysis.blocked,
    });
    // the analysis's fields as they are: a new response field needs no change here
    return {
      url: loginUrl(this.services.appUrl, token),
      ...analysis.body,
      dpeSource: session.dpeSource,
    };
  }

  /**
   * The pre-analysis as `pre` computes it (engine against registry, alerts, potential gains),
   * with no login token issued and nothing recorded: the workbench shows it to a user already
   * signed in. `url` is the app's address.
   */
  async previewPre(req: PreRequest, opts: RunOptions = {}): Promise<PreResponse> {
    const session = await this.open(req);
    const { coef, forceNormalization } = session.options;
    const analysis = await session.compute({ kind: 'pre', coef, forceNormalization }, opts);
    return { url: this.services.appUrl, ...analysis.body, dpeSource: session.dpeSource };
  }

  /** The initial simulation, computed with a pending simulation id and nothing written. */
  private async computeInitial(
    req: InitialRequest,
    opts: RunOptions = {},
  ): Promise<{ session: Session; body: InitialResponse }> {
    const session = await this.open(req);
    const body = await session.compute(
      {
        kind: 'initial',
        coef: session.options.coef,
        forceNormalization: session.options.forceNormalization,
      },
      opts,
    );
    return { session, body: { ...body, dpeSource: session.dpeSource } };
  }

  async initial(req: InitialRequest, opts: RunOptions = {}): Promise<InitialResponse> {
    const { session, body } = await this.computeInitial(req, opts);
    const simulationId = await this.services.store.createSimulation(
      await session.user(),
      session.dpeId,
    );
    body.simulation.simulationId = simulationId;
    await session.record(simulationRun('initial', simulationId, body, [], 0));
    return body;
  }

  /** The energy audit: computed where the engine is, recorded in the history (a dpe-sim extension). */
  async audit(req: AuditRequest, opts: RunOptions = {}): Promise<AuditResponse> {
    const session = await this.open(req);
    const body = await session.compute(
      {
        kind: 'audit',
        coef: session.options.coef,
        forceNormalization: session.options.forceNormalization,
        ...(req.engineFigures ? { engineFigures: true } : {}),
      },
      opts,
    );
    // recorded in the history as its path in one step (the works, classes, cost)
    const single = body.proposals.find((p) => p.kind === 'single');
    const last = single?.steps[single.steps.length - 1];
    await session.record({
      operation: 'audit',
      scenario: single ? single.title : null,
      works: (single?.steps ?? []).flatMap((s) =>
        s.works.map((w) => ({
          referenceId: w.referenceId,
          editableKey: w.editableKey,
          editableValue: w.editableValue,
        })),
      ),
      classBefore: body.initial.classe,
      classAfter: last?.after.classe ?? null,
      consoBefore: body.initial.epM2,
      consoAfter: last?.after.epM2 ?? null,
      coutTravaux: single?.cost ?? null,
      normalized: body.normalized,
      blocked: false,
    });
    return { ...body, dpeSource: session.dpeSource };
  }

  async recommendedScenario(req: InitialRequest, n: number): Promise<AutoSolution> {
    const { body } = await this.computeInitial(req);
    return pickScenario(body.autoSolutions, n);
  }

  /** A recalculation, computed with a pending simulation id and nothing written. */
  private async computeCalc(
    req: CalcRequest,
    opts: RunOptions = {},
  ): Promise<{ session: Session; body: CalcResponse; works: EditableChange[] }> {
    const session = await this.open(req);
    const { body, works } = await session.compute(
      {
        kind: 'calc',
        coef: session.options.coef,
        forceNormalization: session.options.forceNormalization,
        changes: req.params?.editablesChanges ?? [],
        scenario: req.params?.namedCalculation ?? 'default',
        includeDpe: req.query?.includeDPE ?? false,
      },
      opts,
    );
    if (req.query?.includeUser) body.user = identityOf(req);
    body.dpeSource = session.dpeSource;
    return { session, body, works };
  }

  async calc(req: CalcRequest, opts: RunOptions = {}): Promise<CalcResponse> {
    const { session, body, works } = await this.computeCalc(req, opts);
    const user = await session.user();
    const simulationId =
      (await this.services.store.latestSimulation(user, session.dpeId)) ??
      (await this.services.store.createSimulation(user, session.dpeId));
    body.simulation.simulationId = simulationId;
    await session.record(
      simulationRun('calc', simulationId, body, works, body.calculation.hints.coutTravaux),
    );
    return body;
  }

  async previewInitial(req: InitialRequest, opts: RunOptions = {}): Promise<InitialResponse> {
    return (await this.computeInitial(req, opts)).body;
  }

  async previewCalc(req: CalcRequest, opts: RunOptions = {}): Promise<CalcResponse> {
    return (await this.computeCalc(req, opts)).body;
  }

  async history(req: HistoryRequest): Promise<HistoryResponse> {
    const q: HistoryRequest = { ...req };
    // the store compares ISO strings: both bounds as full UTC date-times, or a 400
    if (req.since !== undefined) q.since = isoInstant('since', req.since);
    if (req.until !== undefined) q.until = isoInstant('until', req.until);
    return { records: await this.services.store.history(this.partner.id, q) };
  }

  async tokenInfo(req: TokenParams): Promise<TokenInfoResponse> {
    const info = await this.services.store.tokenInfo(req.partnerToken, this.partner.id);
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

  async tokenLogin(req: TokenParams): Promise<TokenLoginResponse> {
    const { record, sessionToken } = await this.services.store.consumeToken(
      req.partnerToken,
      this.partner.id,
    );
    return { sessionToken, user: record.user, dpeId: record.dpeId, showInit: record.showInit };
  }

  async close(): Promise<void> {
    // the services (store) are closed by whoever opened them
  }
}

/** The history record of an initial simulation or a recalculation: classes and consumption. */
function simulationRun(
  operation: 'initial' | 'calc',
  simulationId: string,
  body: Pick<CalcResponse, 'namedCalculation' | 'simulation' | 'calculation'>,
  works: EditableChange[],
  coutTravaux: number,
) {
  const conso = body.calculation.result.ep_conso_5_usages_m2;
  return {
    operation,
    simulationId,
    scenario: body.namedCalculation,
    works,
    classBefore: body.simulation.initialGrade,
    classAfter: body.simulation.currentGrade,
    consoBefore: conso.VInit,
    consoAfter: conso.value,
    coutTravaux,
    normalized: body.calculation.normalization.applied,
  };
}

/** A history bound as a UTC date-time, or `invalid-input` naming the field (e.g. 2025-13-45). */
function isoInstant(field: 'since' | 'until', value: string): string {
  const impossible = impossibleDate(value);
  if (impossible) {
    throw new DpeSimError('invalid-input', `'${field}' is not a date: '${value}': ${impossible}`, {
      field,
      value,
    });
  }
  const t = Date.parse(value);
  if (Number.isNaN(t)) {
    throw new DpeSimError(
      'invalid-input',
      `'${field}' is not a date: '${value}' (use an ISO 8601 date or date-time, e.g. 2025-01-31T08:00:00Z)`,
      { field, value },
    );
  }
  return new Date(t).toISOString();
}

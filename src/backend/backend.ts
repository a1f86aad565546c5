/**
 * The one door to the domain. The CLI, the server and batch call a Backend and nothing else of
 * the domain. Two implementations: LocalBackend (in-process, the bundled engine and the store)
 * and RemoteBackend (HTTP to a partner service, or to `dpe-sim serve`). The seven partner
 * operations and their bodies are the contract's (`contract/operations.ts`).
 */
import { DpeSimError } from '../contract/errors.js';
import type { PartnerApi } from '../contract/operations.js';
import type { AuditRequest, AuditResponse } from '../contract/audit.js';
import type { CalcRequest, InitialRequest, PreRequest } from '../contract/schemas.js';
import type {
  SpecAutoSolution,
  SpecCalcResponse,
  SpecInitialResponse,
  SpecPreResponse,
} from '../contract/spec-responses.js';
import type { JobOptions } from './engine-runner.js';

/** A DPE the user names by path (`-`: the text read from stdin), rather than by number. */
export type DpeInput = { path: string } | { text: string; name: string };

/**
 * How the caller follows a long run (the local backend only): its progress, and a signal that
 * the caller is gone (the server's client closed its connection), on which the engine work is
 * dropped and nothing is recorded.
 */
export type RunOptions = JobOptions;

export interface Backend extends PartnerApi {
  readonly kind: 'local' | 'remote';
  /** The partner operations that compute, with progress reported on the way (local only). */
  pre(req: PreRequest, opts?: RunOptions): Promise<SpecPreResponse>;
  initial(req: InitialRequest, opts?: RunOptions): Promise<SpecInitialResponse>;
  calc(req: CalcRequest, opts?: RunOptions): Promise<SpecCalcResponse>;
  /**
   * The energy audit (a dpe-sim extension: the spec has no audit operation). Local: computed
   * here, recorded in the history (operation `audit`). Remote: `POST /dpe-sim/audit`, which only a dpe-sim server answers;
   * another service gets a clear `invalid-input` (reason `no-audit`).
   */
  audit(req: AuditRequest, opts?: RunOptions): Promise<AuditResponse>;
  /**
   * Makes a DPE file known to the backend and returns the dpeId to call the operations with.
   * The remote service knows DPEs by registry number only: it refuses with `invalid-input`.
   */
  openDpe(input: DpeInput): Promise<string>;
  /**
   * The n-th (1-based) recommended works scenario of the initial simulation. Locally, nothing is
   * recorded (the scenario's run stays in the run cache for the calc that follows); a remote
   * service answers it with an `initial` call. `invalid-input` (reason `out-of-range`) when
   * there are fewer scenarios.
   */
  recommendedScenario(req: InitialRequest, n: number): Promise<SpecAutoSolution>;
  /**
   * `initial` and `calc` computed for a preview (`calc -i` while the user picks works): the same
   * checks and figures, but the local backend records nothing; a remote service is simply called
   * (what it records is its own business).
   */
  previewInitial(req: InitialRequest): Promise<SpecInitialResponse>;
  previewCalc(req: CalcRequest): Promise<SpecCalcResponse>;
  close(): Promise<void>;
}

export function loginUrl(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/public/partnerLogin.html?partnerToken=${encodeURIComponent(token)}`;
}

/** The n-th (1-based) scenario, or `invalid-input` with the range. */
export function pickScenario<S>(solutions: readonly S[], n: number): S {
  const picked = Number.isInteger(n) && n >= 1 ? solutions[n - 1] : undefined;
  if (picked) return picked;
  const count = solutions.length;
  throw new DpeSimError(
    'invalid-input',
    `scenario ${n} does not exist: this DPE has ${count} recommended scenario${count === 1 ? '' : 's'}`,
    {
      reason: 'out-of-range',
      field: 'scenarioFrom',
      value: n,
      allowed: solutions.map((_, i) => String(i + 1)),
    },
  );
}

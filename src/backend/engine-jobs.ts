/**
 * The engine work of one local request, as data: what to compute (a job) on which DPE text, and
 * what comes back. A job runs wherever the engine is (this thread, or a thread of the engine
 * pool), on a DPE prepared once and kept in that thread's cache. Every check that needs the
 * prepared DPE (blocked, unknown works) is made here and fails with a typed error before the
 * caller writes anything.
 */
import type { AuditResponse } from '../contract/audit.js';
import { DpeSimError, type ErrorDetails, type ErrorKind } from '../contract/errors.js';
import type { OnProgress } from '../contract/progress.js';
import type {
  CalcResponse,
  CoefMode,
  DpeSummary,
  EditableChange,
  InitialResponse,
} from '../contract/schemas.js';
import type { Engine } from '../engine/engine.js';
import { outcome } from '../simulation/calc.js';
import { engineFigures } from '../simulation/comparison.js';
import { auditDpe } from '../simulation/audit/index.js';
import { packageVersion } from '../config/version.js';
import { initialSimulation } from '../simulation/initial.js';
import type { Preparation, PreparedDpe } from '../simulation/prepared.js';
import { preAnalysis, type PreBody } from '../simulation/pre.js';
import { calculate } from '../simulation/recalculation.js';
import { dpeSummary } from '../simulation/summary.js';
import { runsAsData, seedRuns, type RunData } from '../simulation/runs.js';
import { optionChanges } from '../simulation/structure.js';
import { resolveChanges } from '../works/apply.js';
import type { CostTable } from '../works/costs.js';

/** Stands for the simulation id until the simulation is recorded (after every check). */
export const PENDING_SIMULATION = 'sim_pending';

interface Coef {
  coef: CoefMode;
  forceNormalization: boolean;
}

export type EngineJob =
  | ({ kind: 'pre' } & Coef)
  | ({
      kind: 'initial';
      /** works runs already made on this DPE in another thread (see `options`) */
      seed?: RunData[];
    } & Coef)
  /** part `part` of `parts` of the DPE's works options, one engine run each, as data */
  | { kind: 'options'; part: number; parts: number }
  | ({
      kind: 'calc';
      changes: EditableChange[];
      scenario: string;
      includeDpe: boolean;
    } & Coef)
  | { kind: 'summary' }
  | ({
      kind: 'audit';
      /** works runs already made on this DPE in another thread (as `initial`) */
      seed?: RunData[];
      /** the gate failed: the engine's own figures under a banner instead of a block */
      engineFigures?: boolean;
    } & Coef);

export interface PreResult {
  /** the response's fields the analysis computes (all but the login URL and the DPE's source) */
  body: PreBody;
  blocked: boolean;
  /** the baseline's figures, for the history (none when blocked) */
  baseline: { classBefore: string; consoBefore: number; normalized: boolean } | undefined;
}

export interface CalcResult {
  body: CalcResponse;
  /** the works that were applied, as resolved (for the history) */
  works: EditableChange[];
}

export interface JobResults {
  pre: PreResult;
  initial: InitialResponse;
  options: RunData[];
  calc: CalcResult;
  summary: DpeSummary;
  audit: AuditResponse;
}

export type JobResult<J extends EngineJob> = JobResults[J['kind']];

/** The DPE ready for simulation, or `blocked` (422 / exit 3) with its alert. */
function ready(prep: Preparation): PreparedDpe {
  if (prep.ok) return prep.dpe;
  throw new DpeSimError('blocked', `DPE ${prep.key} cannot be simulated: ${prep.alert.content}`, {
    reason: 'blocked',
    dpeId: prep.key,
    warnings: [prep.alert],
  });
}

/** Runs a job on a prepared DPE (in the thread that holds the engine). */
export function runJob(
  engine: Engine,
  prep: Preparation,
  job: EngineJob,
  costs: CostTable,
  onProgress?: OnProgress,
): JobResults[EngineJob['kind']] {
  switch (job.kind) {
    case 'pre': {
      const { coef, forceNormalization } = job;
      const analysis = preAnalysis(prep, { coef, forceNormalization });
      const base = prep.ok
        ? outcome(prep.dpe, engineFigures(prep.dpe.base, coef), coef, forceNormalization)
        : undefined;
      const result: PreResult = {
        body: analysis.body,
        blocked: analysis.blocked,
        baseline: base
          ? {
              classBefore: base.classesBefore.dpe,
              consoBefore: base.before.epM2,
              normalized: base.normalization.applied,
            }
          : undefined,
      };
      return result;
    }
    case 'options': {
      const dpe = ready(prep);
      const mine = optionChanges(dpe)
        .filter((_, i) => i % job.parts === job.part)
        .map((c) => [c]);
      let done = 0;
      const tick = () => onProgress?.({ step: 'options', done: ++done, total: mine.length });
      onProgress?.({ step: 'options', done, total: mine.length });
      return runsAsData(engine, dpe, mine, costs, tick);
    }
    case 'initial':
      if (job.seed) seedRuns(ready(prep), job.seed);
      return initialSimulation(engine, ready(prep), {
        coef: job.coef,
        forceNormalization: job.forceNormalization,
        simulationId: PENDING_SIMULATION,
        costs,
        ...(onProgress ? { onProgress } : {}),
      });
    case 'calc': {
      const dpe = ready(prep);
      const resolved = resolveChanges(dpe, job.changes);
      const body = calculate(engine, dpe, resolved, {
        coef: job.coef,
        forceNormalization: job.forceNormalization,
        simulationId: PENDING_SIMULATION,
        scenario: job.scenario,
        includeDpe: job.includeDpe,
        costs,
      });
      const result: CalcResult = { body, works: resolved.map((r) => r.change) };
      return result;
    }
    case 'summary':
      return dpeSummary(prep.ok ? prep.dpe.key : prep.key, prep);
    case 'audit':
      if (job.seed) seedRuns(ready(prep), job.seed);
      return auditDpe(engine, ready(prep), {
        coef: job.coef,
        forceNormalization: job.forceNormalization,
        costs,
        version: packageVersion(),
        ...(job.engineFigures ? { engineFigures: true } : {}),
      });
  }
}

// ---------------------------------------------------------------- across threads

/** A job's outcome as it crosses from a pool thread (errors lose their class on the way). */
export type WireOutcome<R> =
  | { ok: true; value: R }
  | { ok: false; error: { kind: ErrorKind | 'unknown'; message: string; details?: ErrorDetails } };

export function toWire<R>(run: () => R): WireOutcome<R> {
  try {
    return { ok: true, value: run() };
  } catch (err) {
    if (err instanceof DpeSimError)
      return {
        ok: false,
        error: {
          kind: err.kind,
          message: err.message,
          ...(err.details ? { details: err.details } : {}),
        },
      };
    return {
      ok: false,
      error: { kind: 'unknown', message: err instanceof Error ? err.message : String(err) },
    };
  }
}

export function fromWire<R>(outcome: WireOutcome<R>): R {
  if (outcome.ok) return outcome.value;
  const { kind, message, details } = outcome.error;
  if (kind === 'unknown') throw new Error(message);
  throw new DpeSimError(kind, message, details);
}

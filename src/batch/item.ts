/**
 * One batch item: what it is (a DPE number, a DPE file, or a line that is neither), how it is
 * run against a Backend (the same calls as the single commands), and its outcome as the line
 * written to the batch output.
 */
import { DpeSimError, EXIT_CODES, errorMessage } from '../contract/errors.js';
import { DPE_ID_PATTERN, DPE_ID_REGEX } from '../contract/constants.js';
import type { CoefMode, EditableChange, PartnerIdentity } from '../contract/schemas.js';
import type { Backend } from '../backend/backend.js';

export const BATCH_OPERATIONS = ['pre', 'initial', 'calc', 'audit'] as const;
export type BatchOperation = (typeof BATCH_OPERATIONS)[number];

export type ItemStatus = 'ok' | 'blocked' | 'failed';

/** An item of the source: a registry number, a path to an XML file, or an unusable line. */
export interface SourceItem {
  kind: 'id' | 'path' | 'invalid';
  /** the DPE number, the path, or the line as written */
  ref: string;
}

/** What every item of one batch shares (sent once to each worker). */
export interface BatchSettings {
  operation: BatchOperation;
  identity: PartnerIdentity;
  coef: CoefMode;
  forceNormalization: boolean;
  /** calc only: applied to every DPE */
  works: EditableChange[];
  scenario: string;
}

/** A change of the works file left out for one DPE, and why. */
export interface SkippedChange extends EditableChange {
  reason: string;
}

export interface ItemError {
  kind: string;
  message: string;
}

/** The outcome of one item; `resultJson` is the response body, serialized where it was made. */
export interface ItemOutcome {
  dpeId: string;
  status: ItemStatus;
  exitCode: number;
  attempts: number;
  ms: number;
  resultJson?: string;
  error?: ItemError;
  skipped?: SkippedChange[];
}

/** Classifies a source line the way the single commands read their DPE argument. */
export function classifyLine(text: string): SourceItem {
  if (DPE_ID_REGEX.test(text)) return { kind: 'id', ref: text };
  if (text !== '-' && (text.includes('/') || text.includes('\\') || /\.xml$/i.test(text)))
    return { kind: 'path', ref: text };
  return { kind: 'invalid', ref: text };
}

/** The key an item is known by in an output file (for --resume): its file, else its dpeId. */
export function resumeKey(item: SourceItem): string {
  return item.ref;
}

export function invalidLineOutcome(item: SourceItem): ItemOutcome {
  return failure(
    item.ref,
    new DpeSimError(
      'invalid-input',
      `'${item.ref}' is not a DPE number (expected the pattern ${DPE_ID_PATTERN}) nor a path to a DPE XML file`,
    ),
    0,
    0,
  );
}

export function failure(dpeId: string, err: unknown, attempts: number, ms: number): ItemOutcome {
  const known = err instanceof DpeSimError;
  const exitCode = known ? err.exitCode : EXIT_CODES.runtime;
  return {
    dpeId,
    status: known && err.kind === 'blocked' ? 'blocked' : 'failed',
    exitCode,
    attempts,
    ms,
    error: { kind: known ? err.kind : 'runtime', message: errorMessage(err) },
  };
}

interface Runner {
  backend: Backend;
  /** attempts made by the backend's last call (remote retries), 1 for the local backend */
  attempts(): number;
}

/**
 * Runs one operation on one DPE. For calc, works whose referenceId the DPE lacks are left out
 * and reported as `skipped`: the backend refuses them with the typed reason `unknown-reference`
 * and the references it does not know, and the item is run again without them.
 */
export async function executeItem(
  runner: Runner,
  settings: BatchSettings,
  dpeId: string,
): Promise<ItemOutcome> {
  const started = performance.now();
  let attempts = 0;
  const elapsed = () => Math.round(performance.now() - started);
  const { backend } = runner;
  const identity = settings.identity;
  const query = {
    coef2026: settings.coef,
    ...(settings.forceNormalization ? { forceNormalization: true } : {}),
  };
  try {
    if (settings.operation === 'pre') {
      const body = await backend.pre({ ...identity, dpeId, query });
      attempts += runner.attempts();
      const blocked = body.warnings.some((w) => w.type === 'block');
      return {
        dpeId,
        status: blocked ? 'blocked' : 'ok',
        exitCode: blocked ? EXIT_CODES.blocked : EXIT_CODES.ok,
        attempts,
        ms: elapsed(),
        resultJson: JSON.stringify(body),
      };
    }
    if (settings.operation === 'initial') {
      const body = await backend.initial({ ...identity, dpeId, query });
      attempts += runner.attempts();
      return ok(dpeId, attempts, elapsed(), JSON.stringify(body));
    }
    if (settings.operation === 'audit') {
      const body = await backend.audit({ ...identity, dpeId, query });
      attempts += runner.attempts();
      return ok(dpeId, attempts, elapsed(), JSON.stringify(body));
    }
    const skipped: SkippedChange[] = [];
    let changes = settings.works;
    for (;;) {
      try {
        const body = await backend.calc({
          ...identity,
          dpeId,
          query,
          params: { editablesChanges: changes, namedCalculation: settings.scenario },
        });
        attempts += runner.attempts();
        return {
          ...ok(dpeId, attempts, elapsed(), JSON.stringify(body)),
          ...(skipped.length ? { skipped } : {}),
        };
      } catch (err) {
        attempts += runner.attempts();
        const unknown = unknownReferences(err);
        const dropped = changes.filter((c) => unknown.includes(c.referenceId));
        if (dropped.length === 0) throw err;
        for (const c of dropped)
          skipped.push({ ...c, reason: `this DPE has no element ${c.referenceId}` });
        changes = changes.filter((c) => !unknown.includes(c.referenceId));
      }
    }
  } catch (err) {
    return failure(dpeId, err, Math.max(attempts, runner.attempts()), elapsed());
  }
}

/** The works references an error says the DPE does not have (typed details, never the text). */
function unknownReferences(err: unknown): string[] {
  if (!(err instanceof DpeSimError) || err.details?.reason !== 'unknown-reference') return [];
  return err.details.unknownReferences ?? [];
}

function ok(dpeId: string, attempts: number, ms: number, resultJson: string): ItemOutcome {
  return { dpeId, status: 'ok', exitCode: EXIT_CODES.ok, attempts, ms, resultJson };
}

/** The output line of an item (without the trailing newline). */
export function outcomeLine(file: string | null, o: ItemOutcome): string {
  const head = JSON.stringify({
    dpeId: o.dpeId,
    file,
    ok: o.status === 'ok',
    status: o.status,
    exitCode: o.exitCode,
    attempts: o.attempts,
    ms: o.ms,
    ...(o.skipped ? { skipped: o.skipped } : {}),
    ...(o.error ? { error: o.error } : {}),
  });
  if (o.resultJson === undefined) return head;
  return `${head.slice(0, -1)},"result":${o.resultJson}}`;
}

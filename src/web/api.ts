/**
 * The workbench's calls to its server: JSON over `fetch`, same origin (the session cookie goes
 * with them; the browser adds the Origin header the server checks on every POST). Paths are
 * relative to the page (`/public/partnerLogin.html`).
 */
import type { AuditResponse } from '../contract/audit.js';
import type {
  CalcResponse,
  EditableChange,
  HistoryRecord,
  InitialResponse,
  PartnerIdentity,
  PreResponse,
} from '../contract/schemas.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** the error body's `errorObject` (typed data: a reason, the alerts), when it has one */
    readonly detail?: unknown,
  ) {
    super(message);
  }
}

/** Whether an error is the audit's input gate refusing the DPE's figures (`block.audit-input`). */
export function isAuditGate(e: unknown): boolean {
  if (!(e instanceof ApiError) || e.status !== 422) return false;
  const warnings = (e.detail as { warnings?: { id?: string }[] } | undefined)?.warnings;
  return Array.isArray(warnings) && warnings.some((w) => w.id === 'block.audit-input');
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { accept: 'application/json', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json().catch(() => null)) as {
    error?: string;
    errorObject?: unknown;
  } | null;
  if (!res.ok)
    throw new ApiError(res.status, json?.error ?? `HTTP ${res.status}`, json?.errorObject);
  return json as T;
}

export interface SessionInfo {
  signedIn: true;
  user: PartnerIdentity;
  dpeId: string | null;
  lastSimulation: HistoryRecord | null;
}
export type SessionAnswer =
  SessionInfo | { signedIn: false; reason: 'none' | 'used' | 'expired' | 'unknown'; error: string };

const API = 'api/workbench';

/** What every operation's body carries: the session's user and DPE. */
export interface Who extends PartnerIdentity {
  dpeId: string;
}

export const api = {
  login: (partnerToken: string) => call<SessionAnswer>('POST', `${API}/login`, { partnerToken }),
  session: () => call<SessionAnswer>('GET', `${API}/session`),
  pre: (who: Who) => call<PreResponse>('POST', `${API}/pre`, who),
  initial: (who: Who) => call<InitialResponse>('POST', `${API}/initial`, who),
  preview: (who: Who, works: EditableChange[]) =>
    call<CalcResponse>('POST', `${API}/preview`, { ...who, params: { editablesChanges: works } }),
  calc: (who: Who, works: EditableChange[], scenario?: string) =>
    call<CalcResponse>('POST', `${API}/calc`, {
      ...who,
      params: { editablesChanges: works, ...(scenario ? { namedCalculation: scenario } : {}) },
    }),
  /** the audit; `engineFigures`: on the engine's own figures, under a banner, when the gate fails */
  audit: (who: Who, engineFigures = false) =>
    call<AuditResponse>('POST', `${API}/audit`, engineFigures ? { ...who, engineFigures } : who),
  history: () => call<{ records: HistoryRecord[] }>('GET', `${API}/history`),
  reportUrl: (engineFigures = false) =>
    `${API}/audit-report.html${engineFigures ? '?engineFigures=1' : ''}`,
  reportPdfUrl: (engineFigures = false) =>
    `${API}/audit-report.pdf${engineFigures ? '?engineFigures=1' : ''}`,
};

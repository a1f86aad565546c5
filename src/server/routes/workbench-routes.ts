/**
 * The workbench's routes (`/public/api/workbench/...`): what the page behind the login URL
 * calls once its token made a session (`session-cookie.ts`). Each route is a partner operation
 * on the LocalBackend of the partner that issued the token, with the contract's own request
 * schema: the same validation, computation and records as `/partners/...`, nothing computed
 * here. The body names the session's user (and its DPE, when the token named one): a body for
 * anyone else is refused (403), as is a state-changing request from another origin.
 *
 *   POST login              the login token used once: the session cookie set (or why not)
 *   GET  session            who is signed in, the token's DPE, the last simulation
 *   POST pre                the pre-analysis (LocalBackend.previewPre: no token, nothing recorded)
 *   POST initial            the initial simulation, nothing recorded (previewInitial)
 *   POST preview            a recalculation while works are picked, nothing recorded (previewCalc)
 *   POST calc               the recalculation, recorded in the history (calc)
 *   POST audit              the energy audit (audit)
 *   GET  history            the user's calculations (history, this user only)
 *   GET  audit-report.html  the audit as the CLI's printable HTML report, as a download
 *                           (?engineFigures=1: on the engine's own figures, as `audit --engine-figures`)
 *   GET  audit-report.pdf   the same report as the CLI's PDF (`audit --pdf`), as a download
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { RunOptions } from '../../backend/backend.js';
import { LocalBackend } from '../../backend/local.js';
import type { LocalServices } from '../../backend/local-services.js';
import { AuditRequest } from '../../contract/audit.js';
import { DpeSimError } from '../../contract/errors.js';
import {
  CalcRequest,
  InitialRequest,
  PageLoginRequest,
  PreRequest,
  type PartnerIdentity,
} from '../../contract/schemas.js';
import { whileClientWaits } from '../client-gone.js';
import { crossSiteReason, sessionCookie, setSessionCookie } from '../session-cookie.js';

export const WORKBENCH_API = '/public/api/workbench';

interface WorkbenchSession {
  backend: LocalBackend;
  user: PartnerIdentity;
  dpeId: string | null;
}

/** The known routes, for 405 answers (OpenAPI form). */
export const WORKBENCH_ROUTES = [
  { method: 'POST', path: `${WORKBENCH_API}/login` },
  { method: 'GET', path: `${WORKBENCH_API}/session` },
  { method: 'POST', path: `${WORKBENCH_API}/pre` },
  { method: 'POST', path: `${WORKBENCH_API}/initial` },
  { method: 'POST', path: `${WORKBENCH_API}/preview` },
  { method: 'POST', path: `${WORKBENCH_API}/calc` },
  { method: 'POST', path: `${WORKBENCH_API}/audit` },
  { method: 'GET', path: `${WORKBENCH_API}/history` },
  { method: 'GET', path: `${WORKBENCH_API}/audit-report.html` },
  { method: 'GET', path: `${WORKBENCH_API}/audit-report.pdf` },
] as const;

type Body = PartnerIdentity & { dpeId: string };

/** `?engineFigures=1` on a report's URL: the audit on the engine's own figures (the gate's banner). */
function engineFiguresOf(req: FastifyRequest): { engineFigures?: true } {
  const q = req.query as Record<string, unknown> | undefined;
  return q?.engineFigures === '1' ? { engineFigures: true } : {};
}

/** 403 with the contract's error body. */
function forbidden(reply: FastifyReply, error: string): FastifyReply {
  return reply.code(403).type('application/json; charset=utf-8').send({ error });
}

/** Why this body may not be run for this session, or undefined. */
function notTheSessions(s: WorkbenchSession, body: Body): string | undefined {
  const u = s.user;
  if (body.customerId !== u.customerId || body.userId !== u.userId) {
    return 'this session belongs to another user';
  }
  if (s.dpeId !== null && body.dpeId !== s.dpeId) {
    return `this session is on DPE ${s.dpeId}, not ${body.dpeId}`;
  }
  return undefined;
}

/** Who is signed in, the session's DPE (else that of the last run) and the last run. */
async function sessionBody(s: WorkbenchSession) {
  const [last] = (
    await s.backend.history({
      customerId: s.user.customerId,
      userId: s.user.userId,
      ...(s.dpeId ? { dpeId: s.dpeId } : {}),
      limit: 1,
    })
  ).records;
  return {
    signedIn: true,
    user: s.user,
    dpeId: s.dpeId ?? last?.dpeId ?? null,
    lastSimulation: last ?? null,
  };
}

export function workbenchRoutes(deps: { services: LocalServices }) {
  const sessions = new WeakMap<FastifyRequest, WorkbenchSession>();
  const sessionOf = (req: FastifyRequest): WorkbenchSession => {
    const s = sessions.get(req);
    if (!s) throw new Error('workbench request without a session');
    return s;
  };

  return async (scope: FastifyInstance): Promise<void> => {
    scope.addHook('onRequest', async (req, reply) => {
      reply.header('cache-control', 'no-store');
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        const why = crossSiteReason(req, true);
        if (why) return forbidden(reply, why);
      }
      // the login opens the session; asking for the session answers whether there is one
      const path = req.url.split('?')[0];
      if (path === `${WORKBENCH_API}/login`) return;
      const secret = sessionCookie(req);
      const found = secret ? await deps.services.sessionUser(secret) : undefined;
      if (!found) {
        if (path === `${WORKBENCH_API}/session`) return;
        throw new DpeSimError(
          'auth',
          'no open session (it expired, or this browser never signed in): open a new login link',
        );
      }
      sessions.set(req, {
        backend: new LocalBackend(deps.services, found.partner),
        user: found.user,
        dpeId: found.dpeId,
      });
    });

    /**
     * The token used once: the session cookie set, or why not (used, expired, unknown) as a 200
     * the page shows (a 4xx would be logged in the browser's console as a failed resource).
     */
    scope.post(
      `${WORKBENCH_API}/login`,
      { schema: { body: PageLoginRequest } },
      async (req, reply) => {
        try {
          const { sessionToken } = await deps.services.pageLogin(
            (req.body as PageLoginRequest).partnerToken,
          );
          setSessionCookie(req, reply, sessionToken);
          const found = await deps.services.sessionUser(sessionToken);
          if (!found) throw new Error('the new session is not found');
          const s = { backend: new LocalBackend(deps.services, found.partner), ...found };
          return await sessionBody(s);
        } catch (err) {
          if (err instanceof DpeSimError && (err.kind === 'token' || err.kind === 'not-found')) {
            const reason =
              err.kind === 'not-found'
                ? 'unknown'
                : /expired/.test(err.message)
                  ? 'expired'
                  : 'used';
            return { signedIn: false, reason, error: err.message };
          }
          throw err;
        }
      },
    );

    scope.get(`${WORKBENCH_API}/session`, async (req) => {
      const s = sessions.get(req);
      if (!s) return { signedIn: false, reason: 'none', error: 'no open session' };
      return sessionBody(s);
    });

    const post = <B extends Body>(
      name: string,
      schema: TSchema,
      run: (backend: LocalBackend, body: B, opts: RunOptions) => Promise<unknown>,
    ) =>
      scope.post(`${WORKBENCH_API}/${name}`, { schema: { body: schema } }, async (req, reply) => {
        const s = sessionOf(req);
        // validated against the operation's schema before the handler runs
        const body = req.body as B;
        const why = notTheSessions(s, body);
        if (why) return forbidden(reply, why);
        // a page closed or reloaded meanwhile: its engine work is dropped
        return whileClientWaits(reply, (signal) => run(s.backend, body, { signal }));
      });
    post<PreRequest>('pre', PreRequest, (b, body, o) => b.previewPre(body, o));
    post<InitialRequest>('initial', InitialRequest, (b, body, o) => b.previewInitial(body, o));
    post<CalcRequest>('preview', CalcRequest, (b, body, o) => b.previewCalc(body, o));
    post<CalcRequest>('calc', CalcRequest, (b, body, o) => b.calc(body, o));
    post<AuditRequest>('audit', AuditRequest, (b, body, o) => b.audit(body, o));

    scope.get(`${WORKBENCH_API}/history`, async (req) => {
      const s = sessionOf(req);
      return s.backend.history({ customerId: s.user.customerId, userId: s.user.userId, limit: 50 });
    });

    /**
     * The session's audit for a report download; a download the browser cancels (or a page
     * closed) meanwhile drops its engine work.
     */
    const reportAudit = async (req: FastifyRequest, reply: FastifyReply) => {
      const s = sessionOf(req);
      const dpeId = s.dpeId;
      if (dpeId === null) throw new DpeSimError('not-found', 'this session has no DPE');
      const body = await whileClientWaits(reply, (signal) =>
        s.backend.audit({ ...s.user, dpeId, ...engineFiguresOf(req) }, { signal }),
      );
      return { dpeId, body };
    };

    scope.get(`${WORKBENCH_API}/audit-report.html`, async (req, reply) => {
      const { dpeId, body } = await reportAudit(req, reply);
      const { auditReportHtml } = await import('../../cli/render/audit-report.js');
      return reply
        .headers({
          'content-type': 'text/html; charset=utf-8',
          'content-disposition': `attachment; filename="audit-${dpeId.replace(/[^A-Za-z0-9._-]/g, '_')}.html"`,
          'x-content-type-options': 'nosniff',
          // the report is self-contained: its own style and SVG, no script
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        })
        .send(auditReportHtml(body));
    });

    scope.get(`${WORKBENCH_API}/audit-report.pdf`, async (req, reply) => {
      const { dpeId, body } = await reportAudit(req, reply);
      const { auditReportPdf } = await import('../../cli/render/audit-pdf.js');
      return reply
        .headers({
          'content-type': 'application/pdf',
          'content-disposition': `attachment; filename="audit-${dpeId.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`,
          'x-content-type-options': 'nosniff',
        })
        .send(await auditReportPdf(body));
    });
  };
}

/**
 * A stand-in for a partner service written from the spec alone
 * (`../shared/spec/partner-dpe-simulation-service.md`), not from dpe-sim's responses: every
 * response carries exactly the fields the spec names for its operation, with plausible values,
 * and nothing whose name the spec leaves "not shown" (no simulation id, no grades, no error
 * message field, no option values or costs, no sharing cost). The history operation, of which
 * the spec shows nothing, answers an empty object.
 *
 * It checks what the spec says a request must carry: the partner key in `Authorization` (401),
 * the required body fields and the `dpeId` pattern (400, `{error}`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const STANDIN_KEY = 'spec-standin-partner-key';
export const STANDIN_APP_URL = 'https://app.partner.example';
const DPE_ID = /^[0-9]{4}E[0-9]{7}[A-Z]$/;

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface SpecStandin {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export interface StandinOptions {
  /** fields the stand-in adds to every success body (a service's own extras) */
  extra?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/** `calculation.result`: the nine keys, each `{value, VInit, title}` (spec, Resources). */
function result(before: number[], after: number[]): Json {
  const keys: [string, string][] = [
    ['classe_bilan_dpe', 'Classe DPE'],
    ['classe_conso_c', 'Classe consommation'],
    ['classe_emission_ges', 'Classe GES'],
    ['ep_conso_5_usages', 'Consommation totale'],
    ['ep_conso_5_usages_m2', 'Consommation au m²'],
    ['emission_ges_5_usages', 'Émissions totales'],
    ['emission_ges_5_usages_m2', 'Émissions au m²'],
    ['perte_surface_m2', 'Surface perdue'],
    ['cout_5_usages', 'Coût'],
  ];
  return Object.fromEntries(
    keys.map(([k, title], i) => [k, { value: after[i], VInit: before[i], title }]),
  );
}

const BEFORE = [6, 6, 5, 31_900, 330, 6_200, 64, 0, 3_100];
const AFTER_WORKS = [4, 4, 4, 19_000, 196, 3_800, 39, 0.4, 2_000];

/** `calculation.hints`: the seven named numbers (spec, Hints). */
function hints(works: boolean): Json {
  return works
    ? {
        economieAnnuelle: 1_100,
        gainTotal: 12_900,
        gainM2: 134,
        gainGESM2: 25,
        perteSurfaceTotal: 0.4,
        coutTravaux: 18_500,
        retourSurInvestissementAnnees: 16.8,
      }
    : {
        economieAnnuelle: 0,
        gainTotal: 0,
        gainM2: 0,
        gainGESM2: 0,
        perteSurfaceTotal: 0,
        coutTravaux: 0,
        retourSurInvestissementAnnees: 0,
      };
}

/** The DPE structure (spec, DPE structure): elements with `editables` entries of `type` only. */
function dpe(dpeId: string): Json {
  const element = (type: string, referenceId: string, description: string, key?: string) => ({
    type,
    referenceId,
    description,
    editables: key ? { [key]: { type: 'enum' } } : {},
  });
  return {
    id: dpeId,
    infos: {
      ref: { value: dpeId },
      surface: { value: 96.5 },
      type_bien: { value: 'maison' },
      zone_climatique: { value: 'H1A' },
    },
    items: {
      mur: [element('Mur en pierre', 'mur:0', 'Mur nord, pierre de taille', 'ISOLATION')],
      baie_vitree: [element('Fenêtre', 'baie_vitree:0', 'Fenêtres simple vitrage', 'FENETRE')],
      plancher_bas: [element('Plancher', 'plancher_bas:0', 'Plancher sur vide sanitaire')],
      plancher_haut: [element('Combles', 'plancher_haut:0', 'Combles perdus', 'ISOLATION')],
      installation_chauffage: [
        element('Chaudière', 'installation_chauffage:0', 'Chaudière fioul', 'ReplaceGEN'),
      ],
      installation_ecs: [element('Ballon', 'installation_ecs:0', 'Ballon électrique')],
      ventilation: [element('Ventilation', 'ventilation:0', 'Ventilation naturelle')],
      porte: [],
    },
    warnings: [],
  };
}

const WALL = { referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurCC14' };

function initialBody(dpeId: string): Json {
  return {
    dpe: dpe(dpeId),
    simulation: { dpeId },
    calculation: { result: result(BEFORE, BEFORE), hints: hints(false) },
    editableChanges: { editablesValues: [] },
    namedCalculation: 'default',
    namedCalculationTitle: 'Calcul initial',
    deltaCosts: { margin: 0.2, delta: 0, source: 'barème partenaire' },
    autoSolutions: [
      {
        result: { classe_bilan_dpe: { value: 4, VInit: 6, title: 'Classe DPE' } },
        editables: [WALL],
        cout: 18_500,
      },
    ],
  };
}

function calcBody(dpeId: string, body: Json): Json {
  const params = (body.params ?? {}) as Json;
  const query = (body.query ?? {}) as Json;
  const changes = Array.isArray(params.editablesChanges) ? params.editablesChanges : [];
  const works = changes.length > 0;
  return {
    calculation: {
      result: result(BEFORE, works ? AFTER_WORKS : BEFORE),
      hints: hints(works),
    },
    editableChanges: { editablesValues: changes },
    namedCalculation: 'default',
    namedCalculationTitle: 'Calcul avec travaux',
    simulation: { dpeId },
    ...(query.includeDPE === true ? { dpe: dpe(dpeId) } : {}),
  };
}

function loginUrl(): string {
  return `${STANDIN_APP_URL}/public/partnerLogin.html?partnerToken=tok${Date.now().toString(36)}`;
}

const IDENTITY = ['customerId', 'userId', 'userName', 'customerName'] as const;

/** 400 `{error}` naming the first required field missing, or the pattern broken. */
function requestError(body: Json, needsDpe: boolean): string | undefined {
  for (const f of IDENTITY) if (typeof body[f] !== 'string') return `${f} is required`;
  for (const f of ['customerId', 'userId'] as const)
    if (String(body[f]).includes(':')) return `${f} must not contain ':'`;
  if (needsDpe && typeof body.dpeId !== 'string') return 'dpeId is required';
  if (body.dpeId !== undefined && !DPE_ID.test(String(body.dpeId)))
    return 'dpeId does not match ^[0-9]{4}E[0-9]{7}[A-Z]$';
  return undefined;
}

export async function startSpecStandin(opts: StandinOptions = {}): Promise<SpecStandin> {
  const seen: SeenRequest[] = [];
  const send = (res: ServerResponse, status: number, body: Json) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status === 200 ? { ...body, ...opts.extra } : body));
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      let body: Json;
      try {
        body = text ? (JSON.parse(text) as Json) : {};
      } catch {
        send(res, 400, { error: 'invalid JSON' });
        return;
      }
      seen.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
      // the spec leaves the header's format open: the raw key, or with a scheme prefix
      const key = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      if (key !== STANDIN_KEY) {
        send(res, 401, { error: 'invalid partner key' });
        return;
      }
      const route = `${req.method} ${path}`;
      const needsDpe = route !== 'POST /partners/user/auth';
      if (req.method === 'POST') {
        const problem = requestError(body, needsDpe);
        if (problem) {
          send(res, 400, { error: problem });
          return;
        }
      }
      const dpeId = String(body.dpeId ?? '');
      switch (route) {
        case 'POST /partners/user/auth':
          send(res, 200, { url: loginUrl() });
          return;
        case 'POST /partners/dpe/pre':
          send(res, 200, {
            url: loginUrl(),
            maxCalculation: {
              consommationInitiale: 330,
              consommationXML: 318,
              gesInitiale: 64,
              gesXML: 61,
              deltaConso: 3.8,
              deltaGES: 4.9,
            },
            warnings: [
              {
                id: 'w-ventilation',
                type: 'warning',
                title: 'Ventilation',
                content: 'La ventilation naturelle limite les gains des travaux d’isolation.',
              },
            ],
          });
          return;
        case 'POST /partners/dpe/initial':
          send(res, 200, initialBody(dpeId));
          return;
        case 'POST /partners/dpe/calc':
          send(res, 200, calcBody(dpeId, body));
          return;
        default:
          if (req.method === 'GET' && path.startsWith('/partners/tracking/')) {
            send(res, 200, {});
            return;
          }
          send(res, 404, { error: 'not found' });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

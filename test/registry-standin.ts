/**
 * A stand-in for the national DPE registry, on 127.0.0.1 (tests never call the real address).
 * It serves `/pub/dpe/<numero>/xml` the way the registry does, plus the failures a client must
 * survive, each on its own number.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FLAT, HOUSE } from './helpers.js';

/** Numbers and what the stand-in does with them. */
export const REG = {
  /** the bundled house, renumbered */
  house: '2535E0426429Q',
  /** the bundled flat, renumbered */
  flat: '2535E0426430A',
  /** HTTP 404 with an HTML page */
  unknown: '2535E0000404N',
  /** HTTP 200 with an HTML page (what the registry answers for an unknown number) */
  htmlPage: '2535E0000200H',
  /** answers after `slowMs` */
  slow: '2535E0000000S',
  /** 503 (Retry-After: 3) once, then the house */
  flaky: '2535E0000503F',
  /** 503 every time */
  down: '2535E0000503D',
  /** 429 (Retry-After: 7) once, then the flat */
  limited: '2535E0000429L',
  /** 200 with the first half of the XML */
  truncated: '2535E0000000T',
  /** 200 with the house's XML still numbered as the house */
  otherNumber: '2535E0000000M',
} as const;

export function renumbered(file: string, numero: string): string {
  return readFileSync(file, 'utf8').replace(
    /<numero_dpe>[^<]*<\/numero_dpe>/,
    `<numero_dpe>${numero}</numero_dpe>`,
  );
}

export interface StandIn {
  /** base address to give dpe-sim (`/<numero>/xml` is appended) */
  base: string;
  /** requests per number */
  hits: Map<string, number>;
  userAgents: string[];
  /** most requests in progress at the same time */
  maxInFlight: number;
  /** numbers that answer with XML (tests may add some) */
  xml: Map<string, string>;
  /** numbers answering 503 until removed */
  failing: Set<string>;
  close(): Promise<void>;
}

export async function startStandIn(
  opts: { slowMs?: number; delayMs?: number } = {},
): Promise<StandIn> {
  const xml = new Map<string, string>([
    [REG.house, renumbered(HOUSE, REG.house)],
    [REG.flat, renumbered(FLAT, REG.flat)],
  ]);
  const failing = new Set<string>([REG.down]);
  const hits = new Map<string, number>();
  const userAgents: string[] = [];
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    userAgents.push(req.headers['user-agent'] ?? '');
    const m = /^\/pub\/dpe\/([^/]+)\/xml$/.exec(req.url ?? '');
    const numero = m?.[1] ?? '';
    const n = (hits.get(numero) ?? 0) + 1;
    hits.set(numero, n);
    const send = (
      status: number,
      type: string,
      body: string,
      headers: Record<string, string> = {},
    ) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    const html = (status: number) =>
      send(
        status,
        'text/html; charset=utf-8',
        '<!DOCTYPE html><html><body>DPE introuvable</body></html>',
      );
    const answer = () => {
      if (failing.has(numero)) return send(503, 'text/plain', 'maintenance');
      const doc = xml.get(numero);
      if (doc) return send(200, 'application/xml', doc);
      switch (numero) {
        case REG.htmlPage:
          return html(200);
        case REG.flaky:
          return n === 1
            ? send(503, 'text/plain', 'busy', { 'retry-after': '3' })
            : send(200, 'application/xml', renumbered(HOUSE, REG.flaky));
        case REG.limited:
          return n === 1
            ? send(429, 'text/plain', 'slow down', { 'retry-after': '7' })
            : send(200, 'application/xml', renumbered(FLAT, REG.limited));
        case REG.truncated: {
          const full = renumbered(HOUSE, REG.truncated);
          return send(200, 'application/xml', full.slice(0, Math.floor(full.length / 2)));
        }
        case REG.otherNumber:
          return send(200, 'application/xml', renumbered(HOUSE, REG.house));
        case REG.slow:
          return setTimeout(
            () => send(200, 'application/xml', renumbered(HOUSE, REG.slow)),
            opts.slowMs ?? 5_000,
          );
        default:
          return html(404);
      }
    };
    if (opts.delayMs) setTimeout(answer, opts.delayMs);
    else answer();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/pub/dpe`,
    hits,
    userAgents,
    get maxInFlight() {
      return state.maxInFlight;
    },
    xml,
    failing,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An address where nothing listens (a port just given back, on DEAD_HOST). */
export async function deadBase(): Promise<string> {
  // on 127.0.0.2, where no test listens: a port freed on 127.0.0.1 may be taken by another test's
  // stand-in while this one still counts on nothing answering there (a CI run saw the registry
  // "unreachable" answer a fake partner service's 400 and 401)
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, DEAD_HOST, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://${DEAD_HOST}:${port}/pub/dpe`;
}

/** A loopback address no test server listens on (they all listen on 127.0.0.1). */
const DEAD_HOST = '127.0.0.2';

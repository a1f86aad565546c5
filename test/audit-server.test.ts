/**
 * The audit as a dpe-sim extension over HTTP: `POST /dpe-sim/audit` on `dpe-sim serve` (marked
 * `x-dpe-sim-extension` in the OpenAPI), the remote backend calling it (`--backend remote`), and
 * a service that is not dpe-sim (the spec stand-in): a clear error, exit 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditResponse } from '../src/contract/audit.js';
import { runCli } from './helpers.js';
import { http, IDENTITY, startTestServer, type TestServer } from './server-harness.js';
import { startSpecStandin, STANDIN_KEY, type SpecStandin } from './spec-standin.js';

describe('POST /dpe-sim/audit', () => {
  let s: TestServer;
  let standin: SpecStandin;
  beforeAll(async () => {
    s = await startTestServer();
    standin = await startSpecStandin();
  });
  afterAll(async () => {
    await s?.close();
    await standin?.close();
  });

  it('answers the audit, documented as an extension', async () => {
    const res = await http<AuditResponse>(`${s.url}/dpe-sim/audit`, {
      method: 'POST',
      key: s.keyA,
      body: { ...IDENTITY, dpeId: '0000E0000001H' },
    });
    expect(res.status).toBe(200);
    expect(res.body.dpeId).toBe('0000E0000001H');
    expect(res.body.targetClass).toBe('C');
    expect(res.body.proposals.map((p) => p.kind)).toEqual(['steps', 'single']);
    expect(res.body.ok).toBe(true);
    // recorded in the history: the path in one step's classes and cost
    const h = await http<{
      records: { operation: string; classBefore: string; coutTravaux: number }[];
    }>(`${s.url}/partners/tracking/history?dpeId=0000E0000001H`, { key: s.keyA });
    expect(h.status).toBe(200);
    const single = res.body.proposals.find((p) => p.kind === 'single');
    expect(h.body.records.find((r) => r.operation === 'audit')).toMatchObject({
      classBefore: 'F',
      coutTravaux: single?.cost,
    });
    const doc = await http<{ paths: Record<string, { post: Record<string, unknown> }> }>(
      `${s.url}/openapi.json`,
    );
    const op = doc.body.paths['/dpe-sim/audit']?.post;
    expect(op?.['x-dpe-sim-extension']).toBe(true);
    expect(String(op?.description)).toContain('Not in the partner spec');
    const noKey = await http(`${s.url}/dpe-sim/audit`, {
      method: 'POST',
      key: null,
      body: { ...IDENTITY, dpeId: '0000E0000001H' },
    });
    expect(noKey.status).toBe(401);
  });

  it('--backend remote: a dpe-sim server answers it; another service gets a clear error', async () => {
    const remote = (url: string, key: string) =>
      runCli(
        [
          '--backend',
          'remote',
          '--base-url',
          url,
          '--partner-key-file',
          '-',
          'audit',
          '0000E0000001H',
          '--json',
        ],
        {
          input: `${key}\n`,
          env: { DPE_SIM_CUSTOMER_ID: 'acme', DPE_SIM_USER_ID: 'alice' },
        },
      );
    const ok = await remote(s.url, s.keyA);
    expect(ok.code, ok.stderr).toBe(0);
    const body = JSON.parse(ok.stdout) as AuditResponse;
    expect(body.proposals).toHaveLength(2);
    const other = await remote(standin.url, STANDIN_KEY);
    expect(other.code).toBe(2);
    expect(other.stdout).toBe('');
    expect(other.stderr).toContain('has no audit operation');
    expect(other.stderr).toContain('dpe-sim extension');
  });
});

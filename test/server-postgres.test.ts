/**
 * Several `dpe-sim serve` instances behind one load balancer share one PostgreSQL store
 * (`--store postgres://…`): a token issued by one is used on the other, used once only however
 * the logins are spread, and the history written through one is read through the other.
 * The real bin, as child processes, against a throw-away cluster (pg-harness.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_PATH } from '../src/config/keys.js';
import { runCli, tempDir } from './helpers.js';
import { pgAvailable, startPg, type PgCluster } from './pg-harness.js';
import { IDENTITY, http, spawnServe, type ServeProcess } from './server-harness.js';

const RUN_PG = pgAvailable('two serve instances on one PostgreSQL store');
const HOUSE_ID = '0000E0000001H';

function tokenOf(body: unknown): string {
  const url = (body as { url: string }).url;
  const token = new URL(url).searchParams.get('partnerToken');
  if (!token) throw new Error(`no token in ${url}`);
  return token;
}

describe.skipIf(!RUN_PG)('two serve instances on one PostgreSQL database', () => {
  let cluster: PgCluster;
  let url: string;
  let key: string;
  let one: ServeProcess;
  let two: ServeProcess;

  beforeAll(async () => {
    cluster = await startPg();
    url = await cluster.createDatabase();
    const created = await runCli(['--store', url, 'keys', 'create', 'acme']);
    expect(created.code, created.stderr).toBe(0);
    key = created.stdout.trim();
    // each instance has its own (empty) data directory: all they share is the database
    [one, two] = await Promise.all([
      spawnServe(['--store', url, '--data-dir', tempDir()]),
      spawnServe(['--data-dir', tempDir()], { DPE_SIM_STORE_URL: url }),
    ]);
  });

  afterAll(async () => {
    await one?.stop();
    await two?.stop();
    await cluster?.stop();
  });

  it('both say they use the database and see the key made by `keys create --store`', () => {
    for (const s of [one, two]) {
      expect(s.stderr()).toContain(`store ${url}`);
      expect(s.stderr()).toContain('1 active partner key');
    }
  });

  it('200 concurrent logins with one token, split across both: exactly one 200', async () => {
    for (let round = 0; round < 2; round++) {
      const auth = await http(`${(round ? two : one).url}/partners/user/auth`, {
        body: IDENTITY,
        key,
      });
      expect(auth.status).toBe(200);
      const token = tokenOf(auth.body);
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => {
          const srv = i % 2 ? one : two;
          return i % 4 < 2
            ? http(`${srv.url}/partners/tokenLogin/${token}`, { key })
            : http(`${srv.url}/public/api/login`, { body: { partnerToken: token } });
        }),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 410)).toHaveLength(199);
    }
  });

  it('a token issued by one instance is looked at and used on the other', async () => {
    const auth = await http(`${one.url}/partners/user/auth`, {
      body: { ...IDENTITY, dpeId: HOUSE_ID },
      key,
    });
    const token = tokenOf(auth.body);
    const seen = await http<{ status: string }>(`${two.url}/partners/token/${token}`, { key });
    expect(seen.status).toBe(200);
    expect(seen.body.status).toBe('issued');
    const login = await http(`${two.url}/partners/tokenLogin/${token}`, { key });
    expect(login.status).toBe(200);
    const again = await http(`${one.url}/partners/tokenLogin/${token}`, { key });
    expect(again.status).toBe(410);
  });

  it('history written through one instance is read through the other', async () => {
    const pre = await runCli(
      ['--backend', 'remote', '--base-url', one.url, '--partner-key-file', '-', 'pre', HOUSE_ID],
      { input: `${key}\n`, env: { DPE_SIM_USER_ID: 'via-one', DPE_SIM_CUSTOMER_ID: 'acme-42' } },
    );
    expect(pre.code, pre.stderr).toBe(0);
    const read = await http<{ records: { userId: string; dpeId: string; operation: string }[] }>(
      `${two.url}${DEFAULT_HISTORY_PATH}?userId=via-one`,
      { key },
    );
    expect(read.status).toBe(200);
    expect(read.body.records).toEqual([
      expect.objectContaining({ userId: 'via-one', dpeId: HOUSE_ID, operation: 'pre' }),
    ]);
  });

  it('the CLI commands use the same store: a local run is in `history --store`', async () => {
    const env = { DPE_SIM_STORE_URL: url, DPE_SIM_USER_ID: 'cli-user' };
    const pre = await runCli(['pre', HOUSE_ID, '--json'], { env });
    expect(pre.code, pre.stderr).toBe(0);
    // another data directory, the URL as a flag this time
    const hist = await runCli(['--store', url, 'history', '--user-id', 'cli-user', '--json']);
    expect(hist.code, hist.stderr).toBe(0);
    const body = JSON.parse(hist.stdout) as { records: { dpeId: string; operation: string }[] };
    expect(body.records.map((r) => [r.dpeId, r.operation])).toEqual([[HOUSE_ID, 'pre']]);
  });
});

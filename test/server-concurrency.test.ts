/**
 * Login tokens are single use even under concurrency: of simultaneous logins with the same
 * token exactly one succeeds (200) and the others get 410, within one server and across two
 * server processes sharing the same store.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';
import {
  IDENTITY,
  http,
  spawnServe,
  startTestServer,
  type ServeProcess,
  type TestServer,
} from './server-harness.js';

function tokenOf(body: unknown): string {
  const url = (body as { url: string }).url;
  const token = new URL(url).searchParams.get('partnerToken');
  if (!token) throw new Error(`no token in ${url}`);
  return token;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('concurrent logins with one token', () => {
  let s: TestServer;

  it('two concurrent tokenLogin requests: exactly one 200, the other 410', async () => {
    s = await startTestServer();
    cleanups.push(() => s.close());
    const auth = await http(`${s.url}/partners/user/auth`, { body: IDENTITY, key: s.keyA });
    const token = tokenOf(auth.body);
    const [a, b] = await Promise.all([
      http(`${s.url}/partners/tokenLogin/${token}`, { key: s.keyA }),
      http(`${s.url}/partners/tokenLogin/${token}`, { key: s.keyA }),
    ]);
    expect([a?.status, b?.status].sort()).toEqual([200, 410]);
  });

  it('twenty concurrent logins, partner API and login page mixed: exactly one 200', async () => {
    for (let round = 0; round < 5; round++) {
      const auth = await http(`${s.url}/partners/user/auth`, { body: IDENTITY, key: s.keyA });
      const token = tokenOf(auth.body);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2
            ? http(`${s.url}/partners/tokenLogin/${token}`, { key: s.keyA })
            : http(`${s.url}/public/api/login`, { body: { partnerToken: token } }),
        ),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((x) => x === 200)).toHaveLength(1);
      expect(statuses.filter((x) => x === 410)).toHaveLength(19);
    }
  });
});

describe('two server processes on one store', () => {
  it('each token is used exactly once whichever server the logins reach', async () => {
    const dataDir = tempDir('dpe-sim-shared-');
    const created = await runCli(['keys', 'create', 'acme'], { dataDir });
    const key = created.stdout.trim();
    const servers: ServeProcess[] = await Promise.all([
      spawnServe(['--data-dir', dataDir]),
      spawnServe(['--data-dir', dataDir]),
    ]);
    for (const p of servers) cleanups.push(() => p.stop());
    const [one, two] = servers as [ServeProcess, ServeProcess];
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) {
      const auth = await http(`${(i % 2 ? one : two).url}/partners/user/auth`, {
        body: IDENTITY,
        key,
      });
      expect(auth.status).toBe(200);
      tokens.push(tokenOf(auth.body));
    }
    const results = await Promise.all(
      tokens.map(async (token) => {
        const answers = await Promise.all(
          [one, two, one, two].map((srv) =>
            http(`${srv.url}/partners/tokenLogin/${token}`, { key }),
          ),
        );
        return answers.map((a) => a.status).sort();
      }),
    );
    for (const statuses of results) expect(statuses).toEqual([200, 410, 410, 410]);
  });
});

/**
 * End to end, as a partner engineer would do it: `dpe-sim serve` as a child process, a key from
 * `dpe-sim keys create` on the same data directory, then `dpe-sim --backend remote` commands
 * against it, checking what the user sees (stdout, stderr, exit codes 0/2/3/4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANG_MS } from './hang.js';
import { runCli, tempDir } from './helpers.js';
import { BLOCKED_ID, dpeDirWithBlocked, spawnServe, type ServeProcess } from './server-harness.js';

const HOUSE_ID = '0000E0000001H';
const KEY_RE = /^dpsk_[A-Za-z0-9_-]{43}$/;

let dataDir: string;
let dpeDir: string;
let serve: ServeProcess;
let key: string;

beforeAll(async () => {
  dataDir = tempDir('dpe-sim-e2e-');
  dpeDir = dpeDirWithBlocked();
  const created = await runCli(['keys', 'create', 'acme'], { dataDir });
  expect(created.code).toBe(0);
  key = created.stdout.trim();
  serve = await spawnServe(['--data-dir', dataDir, '--dpe-dir', dpeDir]);
});

afterAll(async () => {
  await serve?.stop();
});

/** A CLI run against the server, the key on stdin (`--partner-key-file -`). */
function remote(args: string[], partnerKey: string = key) {
  return runCli(
    ['--backend', 'remote', '--base-url', serve.url, '--partner-key-file', '-', ...args],
    {
      input: `${partnerKey}\n`,
      dataDir: tempDir(),
      // remote mode invents no identity; the client's wait is a hang guard like the run's
      env: {
        DPE_SIM_CUSTOMER_ID: 'local',
        DPE_SIM_USER_ID: 'e2e-user',
        DPE_SIM_TIMEOUT: String(HANG_MS / 1000),
      },
    },
  );
}

describe('dpe-sim keys', () => {
  it('create prints the key once on stdout and nothing else; list shows its last 4 characters', async () => {
    expect(key).toMatch(KEY_RE);
    const list = await runCli(['keys', 'list'], { dataDir });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('acme');
    expect(list.stdout).toContain(`…${key.slice(-4)}`);
    expect(list.stdout).not.toContain(key);
    const json = await runCli(['keys', 'list', '--json'], { dataDir });
    const keys = JSON.parse(json.stdout) as { name: string; keyHint: string; revokedAt: null }[];
    expect(keys).toEqual([
      expect.objectContaining({ name: 'acme', keyHint: key.slice(-4), revokedAt: null }),
    ]);
  });

  it('the server says where it listens and stops cleanly on SIGTERM (exit 143)', async () => {
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(serve.stderr()).toContain('1 active partner key');
    expect(serve.stderr()).not.toContain(key);
    const other = await spawnServe(['--data-dir', tempDir()]);
    expect(other.stderr()).toContain('create one: dpe-sim keys create NAME');
    expect(await other.stop()).toBe(143);
    expect(other.stderr()).toContain('SIGTERM, stopping');
  });
});

describe('dpe-sim --backend remote against dpe-sim serve', () => {
  it('pre: the table and a login URL pointing at the server (exit 0)', async () => {
    const r = await remote(['pre', HOUSE_ID]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Pre-analysis of DPE ${HOUSE_ID}`);
    expect(r.stdout).toContain('Primary energy (kWh/m²/yr)\t381\t390\t−2.3\u00a0%');
    expect(r.stdout).toContain(`Login URL: ${serve.url}/public/partnerLogin.html?partnerToken=`);
    const json = await remote(['pre', HOUSE_ID, '--json']);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout) as { maxCalculation: { consommationInitiale: number } };
    expect(body.maxCalculation.consommationInitiale).toBe(381);
  });

  it('initial then calc with a works item (exit 0)', async () => {
    const init = await remote(['initial', HOUSE_ID, '--json']);
    expect(init.code, init.stderr).toBe(0);
    const ib = JSON.parse(init.stdout) as { simulation: { dpeId: string } };
    expect(ib.simulation.dpeId).toBe(HOUSE_ID);
    const human = await remote(['initial', HOUSE_ID]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('mur:0');
    const calc = await remote(['calc', HOUSE_ID, '--work', 'mur:0=ISOLATION:IMurITE37', '--json']);
    expect(calc.code, calc.stderr).toBe(0);
    const cb = JSON.parse(calc.stdout) as {
      calculation: { result: { ep_conso_5_usages_m2: { value: number; VInit: number } } };
    };
    const ep = cb.calculation.result.ep_conso_5_usages_m2;
    expect(ep.value).toBeLessThan(ep.VInit);
  }); // a backstop: three remote runs, each within 175 s

  it('auth prints the login URL (exit 0)', async () => {
    const r = await remote(['auth', '--dpe-id', HOUSE_ID]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(
      new RegExp(
        `^${serve.url.replace(/[.:/]/g, '\\$&')}/public/partnerLogin\\.html\\?partnerToken=[A-Za-z0-9_-]{43}$`,
      ),
    );
  });

  it('invalid works or an unknown DPE: exit 2 with the server message', async () => {
    const works = await remote(['calc', HOUSE_ID, '--work', 'mur:0=ISOLATION:IMurXXL']);
    expect(works.code).toBe(2);
    expect(works.stdout).toBe('');
    expect(works.stderr).toContain(
      "error: editableValue 'IMurXXL' is not allowed for mur:0 ISOLATION; allowed on mur:0: ISOLATION (IMurITE37",
    );
    const unknown = await remote(['pre', '9999E9999999Z']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown dpeId '9999E9999999Z'");
    expect(unknown.stderr).not.toContain(dpeDir);
  });

  it('a blocked DPE: exit 3 (pre shows the block alert, initial gets 422)', async () => {
    const pre = await remote(['pre', BLOCKED_ID]);
    expect(pre.code).toBe(3);
    expect(pre.stdout).toContain('block');
    const init = await remote(['initial', BLOCKED_ID]);
    expect(init.code).toBe(3);
    expect(init.stderr).toContain(`DPE ${BLOCKED_ID} cannot be simulated`);
  });

  it('a wrong or revoked key: exit 4, and the key is never echoed', async () => {
    const wrong = await remote(['pre', HOUSE_ID], 'dpsk_wrong');
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('authentication failed: invalid or missing partner key');
    expect(wrong.stderr).not.toContain('dpsk_wrong');
    const created = await runCli(['keys', 'create', 'temp'], { dataDir });
    const temp = created.stdout.trim();
    expect((await remote(['auth'], temp)).code).toBe(0);
    const revoked = await runCli(['keys', 'revoke', 'temp'], { dataDir });
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe('');
    const after = await remote(['auth'], temp);
    expect(after.code).toBe(4);
    expect(after.stderr).not.toContain(temp);
  });

  it('the key and base URL from the environment or from a profile', async () => {
    const env = await runCli(['pre', HOUSE_ID, '--json'], {
      env: {
        DPE_SIM_BASE_URL: serve.url,
        DPE_SIM_PARTNER_KEY: key,
        DPE_SIM_CUSTOMER_ID: 'acme',
        DPE_SIM_USER_ID: 'env-user',
      },
    });
    expect(env.code, env.stderr).toBe(0);
    const home = tempDir();
    expect(
      (await runCli(['--profile', 'dev', 'config', 'set', 'baseUrl', serve.url], { dataDir: home }))
        .code,
    ).toBe(0);
    const setKey = await runCli(['--profile', 'dev', 'config', 'set', 'partnerKey'], {
      dataDir: home,
      input: `${key}\n`,
    });
    expect(setKey.code).toBe(0);
    expect(setKey.stderr).toContain(`partnerKey = …${key.slice(-4)}`);
    expect(setKey.stderr).not.toContain(key);
    expect((await runCli(['config', 'use', 'dev'], { dataDir: home })).code).toBe(0);
    // remote mode invents no identity: without one, exit 2 naming it; then from the profile
    const noIdentity = await runCli(['auth'], { dataDir: home });
    expect(noIdentity.code).toBe(2);
    expect(noIdentity.stderr).toContain('missing: customerId');
    for (const [k, v] of [
      ['customerId', 'acme'],
      ['userId', 'profile-user'],
    ])
      expect(
        (await runCli(['config', 'set', k as string, v as string], { dataDir: home })).code,
      ).toBe(0);
    const viaProfile = await runCli(['auth'], { dataDir: home });
    expect(viaProfile.code, viaProfile.stderr).toBe(0);
    expect(viaProfile.stdout).toContain(`${serve.url}/public/partnerLogin.html?partnerToken=`);
    const list = await runCli(['config', 'list'], { dataDir: home });
    expect(list.stdout).toContain(`partnerKey=…${key.slice(-4)}`);
    expect(list.stdout + list.stderr).not.toContain(key);
    // a flag beats the profile
    const local = await runCli(['--backend', 'local', 'auth'], { dataDir: home });
    expect(local.stdout).toContain('http://127.0.0.1:8787/public/partnerLogin.html');
  });
});

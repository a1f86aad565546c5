/**
 * Remote mode against a service that honours the spec and nothing more (test/spec-standin.ts):
 * auth, pre, initial, calc and history, as tables and with --json, through the built CLI.
 * `--json` prints exactly what the service sent; tables mark what it did not give.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir } from './helpers.js';
import { STANDIN_KEY, startSpecStandin, type SpecStandin } from './spec-standin.js';

const DPE = '2345E0123456A';
const WHO = ['--customer-id', 'acme-co', '--user-id', 'alice'];

let standin: SpecStandin;
let extras: SpecStandin;
beforeAll(async () => {
  standin = await startSpecStandin();
  extras = await startSpecStandin({ extra: { vendorTrace: { id: 'v-1', tags: ['x'] } } });
});
afterAll(async () => {
  await standin.close();
  await extras.close();
});

function remote(base: string, args: string[], env: Record<string, string> = {}) {
  return runCli(['--backend', 'remote', '--base-url', base, '--partner-key-file', '-', ...args], {
    input: `${STANDIN_KEY}\n`,
    env,
  });
}

/** The body the stand-in sent for the last request on `path`, re-read from its own log. */
function lastSeen(s: SpecStandin, path: string) {
  const hit = [...s.seen].reverse().find((r) => r.path === path);
  if (!hit) throw new Error(`no request on ${path}`);
  return hit;
}

describe('remote mode against a spec-only service', () => {
  it('auth: the login URL, table and --json', async () => {
    const t = await remote(standin.url, ['auth', ...WHO]);
    expect(t.stderr).toContain('Single-use login link for alice (acme-co/alice)');
    expect(t.code).toBe(0);
    expect(t.stdout).toContain(
      'https://app.partner.example/public/partnerLogin.html?partnerToken=',
    );
    const j = await remote(standin.url, ['auth', ...WHO, '--json']);
    expect(j.code).toBe(0);
    expect(Object.keys(JSON.parse(j.stdout))).toEqual(['url']);
    // the names default to the ids: the spec requires all four identity fields
    expect(lastSeen(standin, '/partners/user/auth').body).toMatchObject({
      customerId: 'acme-co',
      userId: 'alice',
      userName: 'alice',
      customerName: 'acme-co',
    });
  });

  it('pre: figures, alerts and URL; --json is the body as sent', async () => {
    const t = await remote(standin.url, ['pre', DPE, ...WHO]);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('330');
    expect(t.stdout).toMatch(/\+3\.8\s%/); // one number format: a decimal point
    expect(t.stdout).toContain('Ventilation');
    const j = await remote(standin.url, ['pre', DPE, ...WHO, '--json']);
    expect(j.code).toBe(0);
    const body = JSON.parse(j.stdout) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['maxCalculation', 'url', 'warnings']);
    expect(body.maxCalculation).toEqual({
      consommationInitiale: 330,
      consommationXML: 318,
      gesInitiale: 64,
      gesXML: 61,
      deltaConso: 3.8,
      deltaGES: 4.9,
    });
  });

  it('initial: the table marks what the service did not give', async () => {
    const t = await remote(standin.url, ['initial', DPE, ...WHO, '--all']);
    expect(t.stderr).toBe('');
    expect(t.code).toBe(0);
    expect(t.stdout).toContain(`DPE ${DPE}: class F`);
    expect(t.stdout).toContain('(simulation not given by the service)');
    expect(t.stdout).toContain('ISOLATION: option values not given by the service');
    expect(t.stdout).toContain('Registry works packs: not given by the service.');
    expect(t.stdout).toContain('Sharing cost: – (not given by the service)');
    expect(t.stdout).toContain('mur:0 ISOLATION:IMurCC14'); // the scenario's works
    expect(t.stdout).toMatch(/^1\tD\t/m); // target class from result.classe_bilan_dpe
  });

  it('initial --json: exactly the spec-named fields the service sent', async () => {
    const j = await remote(standin.url, ['initial', DPE, ...WHO, '--json']);
    expect(j.code).toBe(0);
    const body = JSON.parse(j.stdout) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      [
        'autoSolutions',
        'calculation',
        'deltaCosts',
        'dpe',
        'editableChanges',
        'namedCalculation',
        'namedCalculationTitle',
        'simulation',
      ].sort(),
    );
    expect(body.simulation).toEqual({ dpeId: DPE });
    expect(body).not.toHaveProperty('registryPacks');
    expect(body).not.toHaveProperty('sharingCost');
  });

  it('calc with works: table and --json; the works go in params.editablesChanges', async () => {
    const t = await remote(standin.url, [
      'calc',
      DPE,
      ...WHO,
      '--work',
      'mur:0=ISOLATION:IMurCC14',
    ]);
    expect(t.stderr).toBe('');
    expect(t.code).toBe(0);
    expect(t.stdout).toContain(`DPE ${DPE}: F → D`); // grades from classe_bilan_dpe
    expect(t.stdout).toMatch(/18\s500\s€/);
    expect(t.stdout).toContain('To the next class\t– (not given by the service)');
    expect(lastSeen(standin, '/partners/dpe/calc').body).toMatchObject({
      params: {
        editablesChanges: [
          { referenceId: 'mur:0', editableKey: 'ISOLATION', editableValue: 'IMurCC14' },
        ],
      },
    });
    const j = await remote(standin.url, [
      'calc',
      DPE,
      ...WHO,
      '--work',
      'mur:0=ISOLATION:IMurCC14',
      '--include-dpe',
      '--json',
    ]);
    expect(j.code).toBe(0);
    const body = JSON.parse(j.stdout) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      [
        'calculation',
        'dpe',
        'editableChanges',
        'namedCalculation',
        'namedCalculationTitle',
        'simulation',
      ].sort(),
    );
  });

  it('calc --scenario-from 1 takes the works of the service’s first scenario', async () => {
    const t = await remote(standin.url, ['calc', DPE, ...WHO, '--scenario-from', '1']);
    expect(t.stderr).toBe('');
    expect(t.code).toBe(0);
    expect(lastSeen(standin, '/partners/dpe/calc').body).toMatchObject({
      params: { editablesChanges: [{ referenceId: 'mur:0' }], namedCalculation: 'auto-D' },
    });
  });

  it('history: the service gives no records (the spec shows none): said, not a crash', async () => {
    const t = await remote(standin.url, ['history']);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('The service gave no run records');
    const j = await remote(standin.url, ['history', '--json']);
    expect(j.code).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({});
  });

  it('fields the service adds pass through --json unchanged', async () => {
    for (const cmd of [
      ['pre', DPE],
      ['initial', DPE],
      ['calc', DPE, '--work', 'mur:0=ISOLATION:IMurITE37'],
      ['auth'],
    ]) {
      const j = await remote(extras.url, [...cmd, ...WHO, '--json']);
      expect(j.code).toBe(0);
      expect(JSON.parse(j.stdout).vendorTrace).toEqual({ id: 'v-1', tags: ['x'] });
    }
  });

  it('no identity given: exit 2 naming what is missing, nothing sent', async () => {
    const before = standin.seen.length;
    const r = await remote(standin.url, ['pre', DPE]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('missing: customerId (--customer-id ID, DPE_SIM_CUSTOMER_ID');
    expect(r.stderr).toContain('and userId (--user-id ID, DPE_SIM_USER_ID');
    const half = await remote(standin.url, ['calc', DPE, '--work', 'mur:0=ISOLATION:X'], {
      DPE_SIM_CUSTOMER_ID: 'acme-co',
    });
    expect(half.code).toBe(2);
    expect(half.stderr).toContain('missing: userId');
    expect(half.stderr).not.toContain('customerId (');
    expect(standin.seen.length).toBe(before);
    // environment is enough
    const env = await remote(standin.url, ['pre', DPE, '--json'], {
      DPE_SIM_CUSTOMER_ID: 'acme-co',
      DPE_SIM_USER_ID: 'bob',
    });
    expect(env.code).toBe(0);
    expect(lastSeen(standin, '/partners/dpe/pre').body).toMatchObject({ userId: 'bob' });
  });

  it('a wrong key: exit 4', async () => {
    const r = await runCli(
      [
        '--backend',
        'remote',
        '--base-url',
        standin.url,
        '--partner-key-file',
        '-',
        'pre',
        DPE,
        ...WHO,
      ],
      { input: 'wrong-key\n' },
    );
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('authentication failed: invalid partner key');
  });
});

const HAS_SCRIPT = existsSync('/usr/bin/script');
describe.skipIf(!HAS_SCRIPT)('calc -i against a service that gives no option values', () => {
  it('exit 2: works must be given with --work', async () => {
    const dir = tempDir();
    const keyFile = `${dir}/key`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(keyFile, STANDIN_KEY);
    const args = [
      BIN,
      '--backend',
      'remote',
      '--base-url',
      standin.url,
      '--partner-key-file',
      keyFile,
      'calc',
      DPE,
      ...WHO,
      '-i',
    ];
    const command = [process.execPath, ...args].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: {
        ...process.env,
        DPE_SIM_DATA_DIR: dir,
        DPE_SIM_CONFIG_DIR: `${dir}/config`,
        CI: '',
        NO_COLOR: '1',
        TERM: 'xterm',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code).toBe(2);
    // on a terminal the error is wrapped at its width (issue 38): read it as one paragraph
    const text = screen.replace(/\r?\n {2}/g, ' ');
    expect(text).toContain('the service gives no works option values');
    expect(text).toContain('--work <referenceId>=<editableKey>:<editableValue>');
  });
});

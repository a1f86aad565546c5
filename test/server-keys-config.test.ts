/**
 * The commands around the server: `keys` (create, list, revoke), `config` (set, get, list,
 * unset, use, --profile) and `serve`'s own flag checks, run as a user would.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_SECONDS } from '../src/config/config.js';
import { SETTING_KEYS } from '../src/config/keys.js';
import { runCli, tempDir } from './helpers.js';

describe('dpe-sim keys', () => {
  it('create refuses a duplicate or invalid name (exit 2); revoke then create again', async () => {
    const dataDir = tempDir();
    const first = await runCli(['keys', 'create', 'acme'], { dataDir });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^dpsk_[A-Za-z0-9_-]{43}\n$/);
    expect(first.stderr).toContain('shown only this once');
    const dup = await runCli(['keys', 'create', 'acme'], { dataDir });
    expect(dup.code).toBe(2);
    expect(dup.stdout).toBe('');
    expect(dup.stderr).toContain("a partner named 'acme' already has a key");
    for (const bad of ['a b', 'local', 'x'.repeat(65)]) {
      const r = await runCli(['keys', 'create', bad], { dataDir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('invalid partner name');
    }
    expect((await runCli(['keys', 'revoke', 'nobody'], { dataDir })).code).toBe(2);
    expect((await runCli(['keys', 'revoke', 'acme'], { dataDir })).code).toBe(0);
    expect((await runCli(['keys', 'revoke', 'acme'], { dataDir })).code).toBe(2);
    const list = await runCli(['keys', 'list', '--json'], { dataDir });
    const [info] = JSON.parse(list.stdout) as { revokedAt: string | null }[];
    expect(info?.revokedAt).toMatch(/^\d{4}-/);
    const json = await runCli(['keys', 'create', 'acme', '--json'], { dataDir });
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout) as { name: string; key: string };
    expect(body.name).toBe('acme');
    expect(body.key).not.toBe(first.stdout.trim());
  });

  it('list with no keys says how to create one', async () => {
    const r = await runCli(['keys', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('dpe-sim keys create NAME');
    expect(JSON.parse((await runCli(['keys', 'list', '--json'])).stdout)).toEqual([]);
  });
});

describe('dpe-sim config', () => {
  it('set, get, list, unset in the active profile; the partner key masked', async () => {
    const dataDir = tempDir();
    const cli = (args: string[], input?: string) =>
      runCli(['config', ...args], { dataDir, ...(input !== undefined ? { input } : {}) });
    expect((await cli(['set', 'baseUrl', 'https://partner.example.test'])).code).toBe(0);
    const set = await cli(['set', 'partnerKey', 'dpsk_secret_value_WXYZ']);
    expect(set.code).toBe(0);
    expect(set.stderr).toContain("partnerKey = …WXYZ in profile 'default'");
    expect(set.stderr + set.stdout).not.toContain('secret');
    const get = await cli(['get', 'baseUrl']);
    expect(get.stdout).toBe('https://partner.example.test\n');
    const key = await cli(['get', 'partnerKey']);
    expect(key.stdout).toBe('…WXYZ\n');
    const list = await cli(['list']);
    expect(list.stdout).toBe('baseUrl=https://partner.example.test\npartnerKey=…WXYZ\n');
    expect(list.stderr).toContain("Profile 'default' (active)");
    const json = await runCli(['--json', 'config', 'list'], { dataDir });
    expect(JSON.parse(json.stdout)).toEqual({
      baseUrl: 'https://partner.example.test',
      partnerKey: '…WXYZ',
    });
    expect((await cli(['unset', 'partnerKey'])).code).toBe(0);
    const gone = await cli(['get', 'partnerKey']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("partnerKey is not set in profile 'default'");
    const fromStdin = await cli(['set', 'partnerKey'], 'dpsk_from_stdin_ABCD\n');
    expect(fromStdin.code).toBe(0);
    expect((await cli(['get', 'partnerKey'])).stdout).toBe('…ABCD\n');
  });

  it('profiles: --profile, DPE_SIM_PROFILE and config use', async () => {
    const dataDir = tempDir();
    const run = (args: string[], env: Record<string, string> = {}) =>
      runCli(args, { dataDir, env });
    expect((await run(['--profile', 'staging', 'config', 'set', 'userId', 'bob'])).code).toBe(0);
    expect((await run(['config', 'get', 'userId'])).code).toBe(1);
    expect((await run(['--profile', 'staging', 'config', 'get', 'userId'])).stdout).toBe('bob\n');
    expect((await run(['config', 'get', 'userId'], { DPE_SIM_PROFILE: 'staging' })).stdout).toBe(
      'bob\n',
    );
    const use = await run(['config', 'use', 'staging']);
    expect(use.code).toBe(0);
    expect(use.stderr).toContain('Active profile: staging');
    expect((await run(['config', 'get', 'userId'])).stdout).toBe('bob\n');
    const list = await run(['--profile', 'default', 'config', 'list']);
    expect(list.stdout).toBe('(no settings)\n');
    expect(list.stderr).toContain('other profiles: staging');
    // the profile's identity is used by commands, a flag wins over it
    const auth = await run(['auth', '--json']);
    expect(auth.code).toBe(0);
    expect((await run(['config', 'use', 'bad name'])).code).toBe(2);
  });

  it('unknown keys and invalid values exit 2 naming what is allowed', async () => {
    const dataDir = tempDir();
    const unknown = await runCli(['config', 'set', 'colour', 'blue'], { dataDir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      `unknown setting 'colour': use one of ${SETTING_KEYS.join(', ')}`,
    );
    for (const [k, v, why] of [
      ['baseUrl', 'nope', "'nope' is not a URL"],
      ['backend', 'cloud', "use 'local' or 'remote'"],
      ['retries', 'many', 'an integer from 0 to 10'],
      // (beyond 2^31 − 1 ms Node's timers fire at once: no wait at all)
      ['timeout', '3000000', 'a number of seconds above 0, at most 86400 (a day)'],
      ['timeout', 'Infinity', 'a number of seconds above 0, at most 86400 (a day)'],
      ['timeout', '0', 'a number of seconds above 0, at most 86400 (a day)'],
      ['customerId', 'a:b', "must not contain ':'"],
      ['historyPath', 'history', "a path starting with '/'"],
    ] as const) {
      const r = await runCli(['config', 'set', k, v], { dataDir });
      expect(r.code, k).toBe(2);
      expect(r.stderr).toContain(why);
    }
    expect((await runCli(['config', 'get', 'nope'], { dataDir })).code).toBe(2);
    // a setting mistyped (case, a letter): the one meant, and the command to run (issue 38)
    const near = await runCli(['config', 'set', 'dpedir', '/tmp'], { dataDir });
    expect(near.code).toBe(2);
    expect(near.stderr).toMatch(
      /^error: unknown setting 'dpedir'; did you mean 'dpeDir'\?\nhint: dpe-sim config set dpeDir VALUE \(the settings: backend, /,
    );
    const get = await runCli(['config', 'get', 'baseurl'], { dataDir });
    expect(get.stderr).toContain("did you mean 'baseUrl'?\nhint: dpe-sim config get baseUrl (");
  });

  it('--help lists every setting', async () => {
    const r = await runCli(['config', '--help']);
    for (const k of SETTING_KEYS) expect(r.stdout).toContain(k);
  });

  it("--help says the remote timeout's default the client uses", async () => {
    // (written in the flag's help: --help loads no config module, test/cli-startup.test.ts)
    const help = (await runCli(['--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(
      `--timeout <seconds> seconds to wait for a remote answer (default ${DEFAULT_TIMEOUT_SECONDS});`,
    );
  });
});

describe('dpe-sim serve flags', () => {
  it('a bad port, a missing DPE directory or a busy port exit 2', async () => {
    const port = await runCli(['serve', '--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be an integer from 0 to 65535');
    const dir = await runCli(['--dpe-dir', '/nonexistent/dpes', 'serve', '--port', '0']);
    expect(dir.code).toBe(2);
    expect(dir.stderr).toContain('the DPE directory /nonexistent/dpes does not exist');
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const taken = (busy.address() as AddressInfo).port;
    try {
      const r = await runCli(['serve', '--port', String(taken)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${taken}: EADDRINUSE`);
      // the hint names the flag that changes it (issue 38)
      expect(r.stderr).toMatch(
        new RegExp(
          `\\nhint: port ${taken} is taken by another program: choose another with --port \\(e\\.g\\. dpe-sim serve --port \\d+; --port 0 takes a free one\\)`,
        ),
      );
    } finally {
      busy.close();
    }
  });

  it('serve --help documents the flags and the example', async () => {
    const r = await runCli(['serve', '--help']);
    expect(r.stdout).toContain('--port');
    expect(r.stdout).toContain('--history-path');
    expect(r.stdout).toContain('dpe-sim keys create acme');
  });
});

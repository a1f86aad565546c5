/**
 * The config file: read by every command without conf (issue 26: conf loads a JSON schema
 * validator, a tenth of a second), written with conf, at conf's own path; a file that is not
 * JSON is a clear error (exit 2) and stays as it was.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOUSE, ROOT, runCli, tempDir } from './helpers.js';

describe('the config file', () => {
  it('is where conf keeps it for dpe-sim when no directory is given', () => {
    const xdg = tempDir();
    const script = `
      const { ConfigStore } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist/config/config.js')).href)});
      const { default: Conf } = await import('conf');
      const mine = new ConfigStore().file;
      const confs = new Conf({ projectName: 'dpe-sim', projectSuffix: '' }).path;
      console.log(JSON.stringify({ mine, confs }));`;
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: xdg };
    delete env.DPE_SIM_CONFIG_DIR;
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
      }),
    ) as { mine: string; confs: string };
    expect(out.mine).toBe(path.join(xdg, 'dpe-sim', 'config.json'));
    expect(out.mine).toBe(out.confs);
  });

  it('set, get, list, unset and use go through the file', async () => {
    const home = tempDir();
    expect(
      (await runCli(['config', 'set', 'appUrl', 'https://app.example'], { dataDir: home })).code,
    ).toBe(0);
    const file = path.join(home, 'config', 'config.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profiles: { default: { appUrl: 'https://app.example' } },
    });
    const get = await runCli(['config', 'get', 'appUrl'], { dataDir: home });
    expect(get.stdout.trim()).toBe('https://app.example');
    expect((await runCli(['config', 'use', 'audit'], { dataDir: home })).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).currentProfile).toBe('audit');
    // the active profile has no appUrl: the default login address
    const list = await runCli(['config', 'list', '--json'], { dataDir: home });
    expect(JSON.parse(list.stdout)).toEqual({});
    expect(list.stderr).toContain("Profile 'audit' (active); other profiles: default");
    const unset = await runCli(['config', 'unset', 'appUrl', '--profile', 'default'], {
      dataDir: home,
    });
    expect(unset.stderr).toContain("Removed appUrl from profile 'default'");
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({});
  });

  it('a config file that is not JSON: exit 2 naming the file, and the file is left as it was', async () => {
    const home = tempDir();
    mkdirSync(path.join(home, 'config'), { recursive: true });
    const file = path.join(home, 'config', 'config.json');
    const broken = '{"profiles": {"default": {"appUrl": "https://app.example"}\n';
    writeFileSync(file, broken);
    for (const args of [
      ['pre', HOUSE],
      ['config', 'set', 'baseUrl', 'https://partner.example'],
    ]) {
      const r = await runCli(args, { dataDir: home });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`the config file ${file} is not valid JSON`);
      expect(r.stderr).toContain('fix it, or move it away');
      expect(r.stderr).toContain(`hint: open ${file} in an editor`);
    }
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });
});

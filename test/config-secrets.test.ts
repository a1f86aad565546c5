/**
 * The config file that holds a partner key: written 0600 in a directory created 0700, and
 * `config` warns when it finds either looser.
 */
import { chmodSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

const mode = (p: string) => statSync(p).mode & 0o777;

describe('config file permissions', () => {
  it('partnerKey is stored 0600 in a 0700 directory; a looser file or directory is warned about', async () => {
    const home = tempDir();
    const dir = path.join(home, 'config');
    const set = await runCli(['config', 'set', 'partnerKey'], {
      dataDir: home,
      input: 'dpsk_secret_value_9876\n',
    });
    expect(set.code).toBe(0);
    expect(set.stderr).not.toContain('warning');
    const file = path.join(dir, 'config.json');
    expect(mode(file)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);

    chmodSync(file, 0o644);
    chmodSync(dir, 0o755);
    const list = await runCli(['config', 'list'], { dataDir: home });
    expect(list.code).toBe(0);
    expect(list.stderr).toContain(
      `warning: ${file} holds a partner key and is mode 0644: others may read it. Fix: chmod 600 ${file}`,
    );
    expect(list.stderr).toContain(`warning: the config directory ${dir} is mode 0755`);
    expect(list.stderr).not.toContain('dpsk_secret_value_9876');

    // setting the key again tightens the file
    await runCli(['config', 'set', 'partnerKey'], { dataDir: home, input: 'dpsk_other_1111\n' });
    expect(mode(file)).toBe(0o600);
  });

  it('no warning for a loose file that holds no key', async () => {
    const home = tempDir();
    await runCli(['config', 'set', 'baseUrl', 'https://partner.example'], { dataDir: home });
    chmodSync(path.join(home, 'config', 'config.json'), 0o644);
    const list = await runCli(['config', 'list'], { dataDir: home });
    expect(list.stderr).not.toContain('warning');
  });
});

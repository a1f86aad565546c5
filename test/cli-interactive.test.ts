/**
 * `dpe-sim calc -i` driven as a user would: the real command in a pseudo-terminal (util-linux
 * `script`), keys sent when the prompts appear.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN, HOUSE, runCli, tempDir } from './helpers.js';

const HAS_SCRIPT = existsSync('/usr/bin/script');
if (!HAS_SCRIPT)
  console.warn('*** interactive test SKIPPED: /usr/bin/script (util-linux) not found ***');

const DOWN = '\x1b[B';
const ENTER = '\r';

interface Step {
  /** text to wait for on the screen (since the previous step) */
  waitFor: string;
  keys: string;
}

function drive(
  args: string[],
  steps: Step[],
  timeoutMs = 90_000,
  dataDir = tempDir(),
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args]
    .map((a) => `'${a.replace(/'/g, "'\\''")}'`)
    .join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: {
      ...process.env,
      DPE_SIM_DATA_DIR: dataDir,
      DPE_SIM_CONFIG_DIR: `${dataDir}/config`,
      CI: '',
      NO_COLOR: '1',
      TERM: 'xterm',
      COLUMNS: '200',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let seen = 0;
  let step = 0;
  const pump = () => {
    while (step < steps.length) {
      const s = steps[step] as Step;
      const at = screen.indexOf(s.waitFor, seen);
      if (at < 0) return;
      seen = at + s.waitFor.length;
      step++;
      setTimeout(() => child.stdin.write(s.keys), 150);
    }
  };
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
    pump();
  });
  child.stderr.on('data', (d: Buffer) => (screen += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

describe.skipIf(!HAS_SCRIPT)('dpe-sim calc -i', () => {
  it('picks works through the prompts, shows the running result, and prints the reproducing command', async () => {
    const dataDir = tempDir();
    const { code, screen } = await drive(
      ['calc', HOUSE, '-i'],
      [
        { waitFor: 'What next?', keys: ENTER }, // Add works
        { waitFor: 'Category', keys: ENTER }, // Walls
        { waitFor: 'Element', keys: ENTER }, // mur:0
        { waitFor: 'Works option', keys: ENTER }, // first option (ITE R3.7)
        { waitFor: 'What next?', keys: ENTER }, // Add works
        { waitFor: 'Category', keys: ENTER },
        { waitFor: 'Element', keys: DOWN + ENTER }, // mur:1
        { waitFor: 'Works option', keys: ENTER },
        { waitFor: 'What next?', keys: DOWN + ENTER }, // Remove works
        { waitFor: 'Remove which works?', keys: DOWN + ENTER }, // the mur:1 item
        { waitFor: 'What next?', keys: DOWN + DOWN + ENTER }, // Finish and compute
        { waitFor: 'Compute the DPE with these 1 works?', keys: ENTER },
      ],
      90_000,
      dataDir,
    );
    expect(screen).toContain('Now: class F');
    expect(screen).toMatch(/works 4,307 €, 1 item/);
    expect(screen).toMatch(/works 7,950 €, 2 items/);
    expect(screen).toContain('To reproduce:');
    expect(screen).toContain(`dpe-sim calc ${HOUSE} --work mur:0=ISOLATION:IMurITE37`);
    expect(screen).not.toContain('mur:1=ISOLATION');
    expect(screen).toContain('Primary energy (kWh/m²/yr)');
    expect(code).toBe(0);
    // the running figures are previews: only the calculation the user confirmed is recorded
    const history = await runCli(['history', '--json'], { dataDir });
    const runs = (
      JSON.parse(history.stdout) as { records: { operation: string; works: unknown[] }[] }
    ).records;
    expect(runs.map((r) => [r.operation, r.works.length])).toEqual([['calc', 1]]);
  });
});

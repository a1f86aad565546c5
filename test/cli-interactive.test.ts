/**
 * `dpe-sim calc -i` driven as a user would: the real command in an 80×24 pseudo-terminal
 * (util-linux `script`), keys sent when the prompts appear.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { drivePty, HOUSE, runCli, tempDir } from './helpers.js';
import { DEFAULT_COSTS } from '../src/works/costs.js';

const HAS_SCRIPT = existsSync('/usr/bin/script');
if (!HAS_SCRIPT)
  console.warn('*** interactive test SKIPPED: /usr/bin/script (util-linux) not found ***');

const DOWN = '\x1b[B';
const UP = '\x1b[A';
const ENTER = '\r';
const CTRL_C = '\x03';

const drive = drivePty;

describe.skipIf(!HAS_SCRIPT)('dpe-sim calc -i (80×24 pseudo-terminal)', () => {
  it('adds, removes, goes back with the answer kept, and "keep all" computes', async () => {
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
        { waitFor: 'Works option', keys: UP + ENTER }, // ← back (the last choice)
        { waitFor: 'Element', keys: ENTER }, // the cursor is still on mur:1
        { waitFor: 'Works option', keys: ENTER },
        { waitFor: 'What next?', keys: DOWN + ENTER }, // Remove works
        { waitFor: 'Remove which works?', keys: ENTER }, // the mur:0 item
        { waitFor: 'What next?', keys: DOWN + DOWN + ENTER }, // Keep all 1 works and compute
      ],
      dataDir,
    );
    expect(screen).toContain('← back');
    expect(screen).toContain('Now: class F');
    // every figure with its unit
    // mur:1 with external insulation: 27.26 m² × the ITE figure per m²
    const cost = Math.round(27.26 * DEFAULT_COSTS.ite.eur);
    const euros = `${Math.floor(cost / 1000)}\u202f${String(cost % 1000).padStart(3, '0')}\u00a0€`;
    expect(screen).toContain(`works ${euros}, 1\u00a0item`);
    expect(screen).toMatch(
      new RegExp(`cost ${euros}; saves [\\d\u202f]+\u00a0kWh/yr of primary energy`),
    );
    expect(screen).toMatch(/\d+(,\d)?\u00a0kWh\/m²\/yr \(was 381\u00a0kWh\/m²\/yr\)/);
    expect(screen).toContain('Keep all 1 works and compute');
    expect(screen).toContain('To reproduce:');
    expect(screen).toContain(`dpe-sim calc ${HOUSE} --work mur:1=ISOLATION:`);
    expect(screen).not.toContain('--work mur:0=');
    expect(screen).toContain('Primary energy (kWh/m²/yr)');
    expect(code).toBe(0);
    // only the calculation the user confirmed is recorded: not the previews, not the initial
    const history = await runCli(['history', '--json'], { dataDir });
    const runs = (
      JSON.parse(history.stdout) as { records: { operation: string; works: unknown[] }[] }
    ).records;
    expect(runs.map((r) => [r.operation, r.works.length])).toEqual([['calc', 1]]);
  });

  it('skips a step with a single answer and says so', async () => {
    // Heating: the house has one heating installation
    const { code, screen } = await drive(
      ['calc', HOUSE, '-i'],
      [
        { waitFor: 'What next?', keys: ENTER },
        // Walls, Windows, Floors, Roofs and ceilings, Heating (the floor's one option, left out
        // while it added 299 kWh/yr, saves 804 since issue 35)
        { waitFor: 'Category', keys: DOWN.repeat(4) + ENTER }, // Heating
        { waitFor: 'Works option', keys: ENTER },
        { waitFor: 'What next?', keys: DOWN + DOWN + ENTER }, // Keep all
      ],
    );
    expect(screen).toContain(
      'Only one element of this kind offers works: installation_chauffage:0',
    );
    expect(screen).not.toMatch(/\? Element/);
    expect(screen).toContain('Floors (1)');
    expect(screen).toContain('--work installation_chauffage:0=ReplaceGEN:');
    expect(code).toBe(0);
  });

  it('Ctrl-C exits 130, computes and records no calculation', async () => {
    const dataDir = tempDir();
    const { code, screen } = await drive(
      ['calc', HOUSE, '-i'],
      [
        { waitFor: 'What next?', keys: ENTER },
        { waitFor: 'Category', keys: CTRL_C },
      ],
      dataDir,
    );
    expect(screen).toContain('Cancelled (Ctrl-C): nothing computed.');
    expect(code).toBe(130);
    const h = await runCli(['history', '--json'], { dataDir });
    // the figures shown while picking are previews: nothing at all is recorded
    expect((JSON.parse(h.stdout) as { records: unknown[] }).records).toEqual([]);
  });
});

describe('dpe-sim calc -i without a terminal', () => {
  it('says stdin is not a terminal and exits 2', async () => {
    const r = await runCli(['calc', HOUSE, '-i']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: -i/--interactive needs a terminal: stdin is not a terminal');
    expect(r.stderr).toMatch(/^hint: .*--work/m);
    expect(r.stdout).toBe('');
  });
});

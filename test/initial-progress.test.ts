/**
 * A long `initial` reports its progress (works options, then target classes), the scenario
 * search stops at its budget (change sets) with scenarios the engine ran, and the CLI draws progress on
 * stderr for a person at a terminal only.
 */
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Progress } from '../src/contract/progress.js';
import { classIndex, type ClassLetter } from '../src/contract/classes.js';
import { readDpeFile } from '../src/dpe/source.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { progressLine } from '../src/cli/progress.js';
import { initialSimulation } from '../src/simulation/initial.js';
import { prepare, type PreparedDpe } from '../src/simulation/prepared.js';
import { searchScenarios } from '../src/simulation/scenarios.js';
import { defaultCosts } from '../src/works/costs.js';
import { BIN, CORPUS, HOUSE, runCli, tempDir } from './helpers.js';

let engine: Engine;
let house: PreparedDpe;

beforeAll(async () => {
  engine = await loadEngine();
  const prep = prepare(engine, await readDpeFile(HOUSE));
  if (!prep.ok) throw new Error('fixture blocked');
  house = prep.dpe;
});

describe('initial progress', () => {
  it('counts every works option, then every target class', () => {
    const seen: Progress[] = [];
    const body = initialSimulation(engine, house, {
      coef: 'activated',
      forceNormalization: false,
      simulationId: 'progress',
      costs: defaultCosts(),
      onProgress: (p) => seen.push({ ...p }),
    });
    const options = seen.filter((p) => p.step === 'options');
    // every option is run, those left out as harmful too (none on the house since issue 35:
    // its floor insulated from underneath saves 804 kWh/yr where it added 299)
    const leftOut = body.dpe.optionsLeftOut?.length ?? 0;
    expect(leftOut).toBe(0);
    const offered =
      leftOut +
      Object.values(body.dpe.items)
        .flat()
        .reduce(
          (n, el) =>
            n + Object.values(el.editables).reduce((m, e) => m + Object.keys(e.values).length, 0),
          0,
        );
    expect(offered).toBeGreaterThan(10);
    expect(options[0]).toEqual({ step: 'options', done: 0, total: offered });
    expect(options.at(-1)).toEqual({ step: 'options', done: offered, total: offered });
    expect(options.map((p) => p.done)).toEqual([...Array(offered + 1).keys()]);
    const targets = 'ABCDEFG'.indexOf(body.simulation.initialGrade);
    const scenarios = seen.filter((p) => p.step === 'scenarios');
    expect(scenarios.at(-1)).toEqual({ step: 'scenarios', done: targets, total: targets });
    // options come first, then scenarios
    expect(seen.findIndex((p) => p.step === 'scenarios')).toBe(options.length);
  });
});

describe('scenario search budget (change sets, never time)', () => {
  const opts = {
    coef: 'activated' as const,
    forceNormalization: false,
    costs: defaultCosts(),
  };

  it('with no budget still gives scenarios the engine ran, reaching their class', () => {
    // (no budget for the heuristic, the proofs, nor the predicted search across thresholds: that
    // one, given the runs a full search spends elsewhere, could find what the full search's
    // later passes find (E for 3,300 € on this house, where the full search stopped at 3,346 €
    // before the swap pass); a budget cut that helps is not a test of the budget; nor for the
    // second and last cut searches and the closing round, proofs on their own budgets)
    const cut = searchScenarios(engine, house, {
      ...opts,
      runBudget: 0,
      proofBudget: 0,
      crossingBudget: 0,
      secondCutBudget: 0,
      lastCutBudget: 0,
      closeBudget: 0,
    });
    expect(cut.solutions.length).toBeGreaterThan(0);
    for (const s of cut.solutions) {
      expect(s.result.classe_bilan_dpe.value).toBeLessThanOrEqual(
        classIndex(s.classe as ClassLetter),
      );
      expect(s.exact).toBe(false);
    }
    const full = searchScenarios(engine, house, opts);
    // with the budget to search, no scenario is costlier than the one found without
    for (const s of full.solutions) {
      const hurried = cut.solutions.find((c) => c.classe === s.classe);
      if (hurried) expect(s.cout).toBeLessThanOrEqual(hurried.cout);
    }
    // the same input, the same answer
    expect(searchScenarios(engine, house, opts).solutions).toEqual(full.solutions);
  });
});

describe('progress line', () => {
  const tty = { isTTY: true };
  const sink = () => {
    const out: string[] = [];
    return { out, stream: { isTTY: true, write: (t: string) => out.push(t) } };
  };

  it('draws on a terminal and erases its line when done', () => {
    const { out, stream } = sink();
    const line = progressLine('initial', { json: false, delayMs: 0, stdout: tty, stderr: stream });
    line.onProgress?.({ step: 'options', done: 0, total: 3 });
    line.onProgress?.({ step: 'options', done: 3, total: 3 });
    line.done();
    expect(out).toEqual([
      '\r\x1b[2Kinitial: works options 0/3',
      '\r\x1b[2Kinitial: works options 3/3',
      '\r\x1b[2K',
    ]);
  });

  it('draws nothing with --json, or when stdout or stderr is not a terminal', () => {
    for (const [json, stdout, stderrTty] of [
      [true, tty, true],
      [false, { isTTY: false }, true],
      [false, tty, false],
    ] as const) {
      const { out, stream } = sink();
      const line = progressLine('initial', {
        json,
        delayMs: 0,
        stdout,
        stderr: { ...stream, isTTY: stderrTty },
      });
      expect(line.onProgress).toBeUndefined();
      line.done();
      expect(out).toEqual([]);
    }
  });

  it('waits for the delay and redraws at most once per interval', () => {
    const { out, stream } = sink();
    const line = progressLine('initial', {
      json: false,
      delayMs: 60_000,
      stdout: tty,
      stderr: stream,
    });
    line.onProgress?.({ step: 'options', done: 1, total: 3 });
    line.done();
    expect(out).toEqual([]);
    const quick = sink();
    const often = progressLine('initial', {
      json: false,
      delayMs: 0,
      intervalMs: 60_000,
      stdout: tty,
      stderr: quick.stream,
    });
    for (let i = 0; i <= 5; i++) often.onProgress?.({ step: 'options', done: i, total: 5 });
    // the first, and the last (always drawn)
    expect(quick.out).toEqual([
      '\r\x1b[2Kinitial: works options 0/5',
      '\r\x1b[2Kinitial: works options 5/5',
    ]);
  });
});

const ERASE = '\r\x1b[2K';
const HAS_SCRIPT = existsSync('/usr/bin/script');
if (!HAS_SCRIPT) console.warn('*** terminal progress test SKIPPED: /usr/bin/script not found ***');

/** Runs the CLI in a pseudo-terminal (util-linux `script`): stdout and stderr both a TTY. */
function inTerminal(args: string[]): Promise<string> {
  const dataDir = tempDir();
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: {
        ...process.env,
        DPE_SIM_DATA_DIR: dataDir,
        DPE_SIM_CONFIG_DIR: path.join(dataDir, 'config'),
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

describe('dpe-sim initial progress on stderr', () => {
  it.skipIf(!HAS_SCRIPT)(
    'shows the step and count on a terminal, erased before the result',
    async () => {
      // the corpus's largest DPE takes seconds; the house about one (nothing is drawn before
      // 500 ms, so a much faster machine could draw nothing for the house)
      const big = path.join(CORPUS, '2535E0426429Q.xml');
      const out = await inTerminal(['initial', existsSync(big) ? big : HOUSE]);
      // after the first 500 ms: the works options (split among the engine threads, they may be
      // done by then on a fast machine) or the target classes
      expect(out).toMatch(
        new RegExp(
          `${ERASE.replace('[', '\\[')}initial: (works options|scenarios \\(target classes\\)) \\d+/\\d+`,
        ),
      );
      // the last thing written with the erase sequence is the erase itself, then the result
      const after = out.slice(out.lastIndexOf(ERASE) + ERASE.length);
      expect(after).not.toMatch(/^initial: /);
      expect(after.length).toBeGreaterThan(100);
    },
  );

  it.skipIf(!HAS_SCRIPT)('shows nothing with --json on a terminal', async () => {
    const out = await inTerminal(['initial', HOUSE, '--json']);
    expect(out).not.toContain('works options');
    expect(JSON.parse(out.replace(/\r\n/g, '\n')).autoSolutions).toBeDefined();
  });

  it('shows nothing when stdout and stderr are pipes', async () => {
    const r = await runCli(['initial', HOUSE]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('works options');
    expect(r.stdout).not.toContain('\x1b[2K');
  });
});

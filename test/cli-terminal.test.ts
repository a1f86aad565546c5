/**
 * The terminal experience: every line of pre, initial, calc and history fits an 80- and a
 * 100-column pseudo-terminal (URLs aside), on a house and on a whole building, with every alert
 * id whole; tab-separated rows off a TTY; one voice for errors, each with its exit code.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { BIN, CORPUS, HAS_CORPUS, HOUSE, runCli, STUDIO, tempDir } from './helpers.js';

const HAS_SCRIPT = existsSync('/usr/bin/script');
if (!HAS_SCRIPT) console.warn('*** terminal width tests SKIPPED: /usr/bin/script not found ***');
const BUILDING = path.join(CORPUS, '2535E0426429Q.xml');
if (!HAS_CORPUS) console.warn('*** whole-building width test SKIPPED: ../shared/corpus absent ***');

const sh = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;

/** Runs the built bin in a pseudo-terminal of `cols` columns; returns what it printed. */
function inPty(
  args: string[],
  cols: number,
  dataDir: string,
): Promise<{ code: number | null; screen: string }> {
  const command = `stty cols ${cols} rows 50; exec ${[process.execPath, BIN, ...args].map(sh).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: {
      ...process.env,
      DPE_SIM_DATA_DIR: dataDir,
      DPE_SIM_CONFIG_DIR: `${dataDir}/config`,
      FORCE_COLOR: '1',
      NO_COLOR: undefined,
      TERM: 'xterm-256color',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.setEncoding('utf8'); // a character split across two chunks stays whole
  child.stdout.on('data', (d: string) => (screen += d));
  child.stdin.end();
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, screen })));
}

function widest(screen: string): { width: number; line: string } {
  let best = { width: 0, line: '' };
  for (const raw of screen.split('\n')) {
    // what the terminal shows: a carriage return (a progress line redrawn) starts the line again
    const line = stripVTControlCharacters(raw).replace(/\r$/, '').split('\r').at(-1) ?? '';
    if (/https?:\/\//.test(line)) continue; // URLs aside
    const w = stringWidth(line);
    if (w > best.width) best = { width: w, line };
  }
  return best;
}

const ALERT_ID = /\b(block|confirm|warning)\.[a-z]+(-[a-z]+)*/g;

async function checkFits(dpe: string, dataDir: string): Promise<void> {
  const id = path.basename(dpe, '.xml');
  const pre = await runCli(['pre', dpe, '--json'], { dataDir });
  const ids = (JSON.parse(pre.stdout) as { warnings: { id: string }[] }).warnings.map((w) => w.id);
  for (const cols of [80, 100]) {
    for (const args of [
      ['pre', dpe],
      ['initial', dpe],
      ['calc', dpe, '--work', 'baie_vitree:0=FENETRE:PVC'],
      ['history'],
      ['history', id],
    ]) {
      const { code, screen } = await inPty(args, cols, dataDir);
      expect(code, `${args.join(' ')}\n${screen}`).toBe(0);
      const w = widest(screen);
      expect(w.width, `${args[0]} at ${cols} columns: ${w.line}`).toBeLessThanOrEqual(cols);
      if (args[0] === 'pre') {
        const shown = stripVTControlCharacters(screen).match(ALERT_ID) ?? [];
        for (const alert of ids) expect(shown).toContain(alert);
        expect(screen).toContain('DPE label');
      }
    }
  }
}

describe.skipIf(!HAS_SCRIPT)('output fits the terminal', () => {
  it('on a house, at 80 and 100 columns', async () => {
    await checkFits(HOUSE, tempDir());
  });

  it('the audit of the studio, at 80 and 100 columns: within the width, the lines under a proposal indented under it', async () => {
    const dir = tempDir();
    for (const cols of [80, 100]) {
      const { code, screen } = await inPty(['audit', STUDIO], cols, dir);
      expect(code, screen).toBe(0);
      const w = widest(screen);
      expect(w.width, `audit at ${cols} columns: ${w.line}`).toBeLessThanOrEqual(cols);
      const lines = stripVTControlCharacters(screen).split(/\r?\n/);
      // (before, a wrapped line lost its indentation in a terminal: "After:" and "Aids" sat at
      // the left margin under the step's table)
      const starts = (text: string) => lines.filter((l) => l.trimStart().startsWith(text));
      for (const l of starts('After: class')) expect(l, `${cols}`).toMatch(/^ {4}After: /);
      for (const l of starts('Aids (informative')) expect(l, `${cols}`).toMatch(/^ {2}Aids /);
      const same = starts('One step, with the same works');
      expect(same, `${cols}`).toHaveLength(1);
      expect(same[0]).toMatch(/^ {2}One step/);
      expect(starts('After: class').length, `${cols}`).toBe(2);
    }
  });

  it.skipIf(!HAS_CORPUS)('on a whole building (2535E0426429Q), at 80 and 100 columns', async () => {
    await checkFits(BUILDING, tempDir());
  });

  it('initial on the bundled house fits a screen: at most 60 lines at 100 columns', async () => {
    const { code, screen } = await inPty(['initial', HOUSE], 100, tempDir());
    expect(code).toBe(0);
    const lines = stripVTControlCharacters(screen).replace(/\r\n/g, '\n').trimEnd().split('\n');
    expect(lines.length, lines.join('\n')).toBeLessThanOrEqual(60);
    const text = lines.join('\n');
    expect(text).toMatch(/Now: class\s*F\s*—/);
    for (const part of ['DPE label', 'Best options', 'Recommended scenarios'])
      expect(text).toContain(part);
    // nothing unchanged shown as news: no "F → F", no table of zeros
    expect(text).not.toMatch(/F → F|Works cost\s*│\s*0\u00a0€/);
  });

  // two walls split by the diagnostician ("Mur 1 Nord, Sud, Est, Ouest (p1)", "(p2)") read alike
  // once the table cut their names ("mur:0 Mur 1 Nord, S…"): the cut keeps the part
  it.skipIf(!HAS_CORPUS)(
    "initial's best options at 80 columns: a split wall's cut name keeps its part (2213E0696993Z)",
    async () => {
      const { code, screen } = await inPty(
        ['initial', path.join(CORPUS, '2213E0696993Z.xml')],
        80,
        tempDir(),
      );
      expect(code).toBe(0);
      const lines = stripVTControlCharacters(screen).replace(/\r\n/g, '\n').split('\n');
      const at = lines.findIndex((l) => l.startsWith('Best options'));
      const rows = lines.slice(at).filter((l) => /^│ [a-z_]+:\d+/.test(l));
      const walls = rows.filter((l) => l.startsWith('│ mur:')).map((l) => l.split('│')[1]?.trim());
      expect(walls, rows.join('\n')).toEqual([
        'mur:0 Mur 1 No… (p1)',
        'mur:1 Mur 1 No… (p2)',
        'mur:2 Mur 2 Est',
      ]);
      // an id with no room for its name stays whole, without "…"
      expect(rows.map((l) => l.split('│')[1]?.trim())).toContain('installation_ecs:0');
      expect(widest(screen).width, widest(screen).line).toBeLessThanOrEqual(80);
    },
  );

  // issue 38: a corpus house was 86 lines at 100 columns; the packs' table is one line now
  // (--show packs), the scenarios' numbered rows have no rules between them, an option's row
  // holds on one line (its element's name cut to what is left)
  it.skipIf(!HAS_CORPUS)(
    'initial on a corpus house, a flat and a building: at most 60 lines at 100 columns, each line within 80 at 80',
    async () => {
      const counts: string[] = [];
      for (const id of ['2187E0982782R', '2221E0006033X', '2535E0426429Q']) {
        const dpe = path.join(CORPUS, `${id}.xml`);
        const dataDir = tempDir();
        for (const cols of [100, 80]) {
          const { code, screen } = await inPty(['initial', dpe], cols, dataDir);
          expect(code).toBe(0);
          const lines = stripVTControlCharacters(screen)
            .replace(/\r\n/g, '\n')
            .trimEnd()
            .split('\n');
          counts.push(`${id} ${cols}: ${lines.length}`);
          if (cols === 100) expect(lines.length, lines.join('\n')).toBeLessThanOrEqual(60);
          expect(widest(screen).width, widest(screen).line).toBeLessThanOrEqual(cols);
          const text = lines.join('\n');
          expect(text).toContain('Recommended scenarios');
          expect(text).toMatch(/works packs? of the diagnostician's: --show packs compares/);
          // each of the five best options on one line
          const rows = lines.filter((l) => /^│ [a-z_]+:\d+/.test(l));
          expect(rows.length, text).toBeGreaterThanOrEqual(5);
          // a whole building's scenarios: each cost also per dwelling, a house's never
          const scenarios = lines.filter((l) => /^│ \d+ │/.test(l)).length;
          const perDwelling = (text.match(/\d\s€\/dwelling/g) ?? []).length;
          expect(perDwelling, text).toBe(id === '2535E0426429Q' ? scenarios : 0);
          // a house's scenarios that fit two air/air heat pumps: one line names them all at a
          // glance (each scenario's note with --all)
          const pumps =
            /Scenarios 2 \(E\), 3 \(D\) and 5 \(B\): heat pumps of one kind on several heating installations of one dwelling, priced as an appliance each; whether one serves them all is the auditor’s call \(--all says what one would cost\)/;
          if (id === '2187E0982782R') expect(text.replace(/\n {2}/g, ' '), text).toMatch(pumps);
          else expect(text).not.toMatch(/heat pumps of one kind/);
        }
      }
      console.log(`initial, lines at 100 and 80 columns: ${counts.join('; ')}`);
    },
  );

  it('the serve banner and an error are wrapped at the terminal width, words whole', async () => {
    const dataDir = tempDir();
    // an offline miss: the error names the folder, the cache and the way out in one paragraph
    const miss = await inPty(
      ['--offline', '--dpe-dir', dataDir, 'pre', '9999E9999999Z'],
      60,
      dataDir,
    );
    expect(miss.code).toBe(2);
    const shown = stripVTControlCharacters(miss.screen).replace(/\r\n/g, '\n');
    expect(widest(miss.screen).width, shown).toBeLessThanOrEqual(60);
    expect(shown).toMatch(/^error: DPE 9999E9999999Z not found in/m);
    expect(shown.split('\n').filter((l) => l.startsWith('  ')).length).toBeGreaterThan(1);
    expect(shown.replace(/\n {2}/g, ' ')).toContain('dpe-sim cache fetch 9999E9999999Z');
    // the banner, read until it is whole, then the server stopped
    const command = `stty cols 60 rows 50; exec ${[process.execPath, BIN, 'serve', '--port', '0'].map(sh).join(' ')}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...process.env, DPE_SIM_DATA_DIR: dataDir, DPE_SIM_CONFIG_DIR: `${dataDir}/config` },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let screen = '';
    child.stdout.setEncoding('utf8');
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d: string) => {
        screen += d;
        if (screen.includes('openapi.json')) resolve();
      });
      child.on('close', () => resolve());
    });
    process.kill(-(child.pid as number), 'SIGTERM');
    const banner = stripVTControlCharacters(screen).replace(/\r\n/g, '\n');
    expect(banner).toMatch(/^dpe-sim serve: listening on http:\/\/127\.0\.0\.1:\d+$/m);
    // the lines without a URL fit; a URL is never cut
    expect(widest(screen).width, banner).toBeLessThanOrEqual(60);
    expect(banner).toMatch(/^ {4}\S/m);
    expect(banner).toMatch(/http:\/\/127\.0\.0\.1:\d+\/openapi\.json/);
  });

  it('--wide shows every column at its natural width', async () => {
    const dataDir = tempDir();
    const narrow = await inPty(['initial', HOUSE], 80, dataDir);
    const wide = await inPty(['initial', HOUSE, '--wide'], 80, dataDir);
    // no table row holds the GES-after column
    expect(
      stripVTControlCharacters(narrow.screen)
        .split('\n')
        .filter((l) => l.startsWith('│') && l.includes('CO2e')),
    ).toEqual([]);
    // the narrow table says what it left out, and how to see it
    expect(stripVTControlCharacters(narrow.screen).replace(/\s+/g, ' ')).toContain(
      '(column left out to fit 80 columns: kg CO2e/m²/yr after; --wide shows every column)',
    );
    expect(stripVTControlCharacters(wide.screen)).toContain('kg CO2e/m²/yr after');
    expect(widest(wide.screen).width).toBeGreaterThan(80);
  });
});

describe('output off a terminal and without colour', () => {
  it('tables are tab-separated lines; the label is plain, letters and values printed', async () => {
    const r = await runCli(['pre', HOUSE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Primary energy (kWh/m²/yr)\t381\t390\t−2.3\u00a0%');
    expect(r.stdout).toMatch(
      /^warning\tRegistry figures converted \/ warning\.coefficient-converted\t/m,
    );
    expect(r.stdout).not.toContain('│');
    expect(r.stdout).toMatch(
      /^ {3}F ██████ +330–420 \| 70–100 +◀ engine F: 381\u00a0\|\u00a084 +◀ registry F: 390\u00a0\|\u00a086$/m,
    );
    expect(r.stdout).not.toContain('\x1b[');
  });
});

describe('one voice for errors', () => {
  const dir = tempDir('dpe-sim-errors-');
  const cases: [string, () => string, RegExp, number][] = [
    [
      'a directory',
      () => {
        const d = path.join(dir, 'dir.xml');
        mkdirSync(d);
        return d;
      },
      /error: .*dir\.xml is a directory, not a DPE XML file/,
      2,
    ],
    [
      'an empty file',
      () => {
        const f = path.join(dir, 'empty.xml');
        writeFileSync(f, '');
        return f;
      },
      /error: .*empty\.xml is empty/,
      2,
    ],
    [
      'a file that is not XML',
      () => {
        const f = path.join(dir, 'text.xml');
        writeFileSync(f, 'hello, world');
        return f;
      },
      /error: .*text\.xml is not XML \(it does not start with '<'\)$/,
      2,
    ],
    [
      'XML that is not a DPE',
      () => {
        const f = path.join(dir, 'page.xml');
        writeFileSync(f, '<?xml version="1.0"?>\n<html><body/></html>');
        return f;
      },
      /error: .*page\.xml is XML but not a DPE: its root element is <html>, a DPE's is <dpe>/,
      2,
    ],
    ['a missing file', () => path.join(dir, 'nope.xml'), /error: no such file: .*nope\.xml/, 2],
  ];
  for (const [what, make, message, code] of cases) {
    it(`${what}: exit ${code}, "error:" then "hint:", no errno, no undefined, no stack`, async () => {
      const r = await runCli(['pre', make()]);
      expect(r.code).toBe(code);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines[0]).toMatch(message);
      expect(lines[1]).toMatch(/^hint: /);
      expect(lines).toHaveLength(2);
      // the temp dir's random suffix could spell an errno ("…XEACCB"): left out
      expect(r.stderr.replaceAll(dir, '<dir>')).not.toMatch(/E[A-Z]{3,}|undefined| {4}at /);
      expect(r.stdout).toBe('');
    });
  }

  it('an empty DPE on stdin: exit 2', async () => {
    const r = await runCli(['pre', '-'], { input: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: the standard input is empty\nhint: /);
  });

  it('--debug adds the cause chain', async () => {
    const d = path.join(dir, 'debug-dir.xml');
    mkdirSync(d);
    const r = await runCli(['pre', d, '--debug']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*is a directory/);
    expect(r.stderr).toMatch(
      /caused by: DpeSimError: the DPE file .*debug-dir\.xml is a directory/,
    );
  });

  it('a data directory that is a file: exit 1, names the path and why', async () => {
    const file = path.join(dir, 'not-a-dir');
    writeFileSync(file, 'x');
    const r = await runCli(['--data-dir', path.join(file, 'sub'), 'pre', HOUSE]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `error: the data directory ${path.join(file, 'sub')} cannot be created: a part of the path is a file, not a directory`,
    );
    expect(r.stderr).toMatch(/^hint: .*--data-dir DIR/m);
    expect(r.stderr).not.toMatch(/ENOTDIR|EEXIST/);
  });

  it('bad command lines, commander errors included: "error:" then "hint:" naming a real command', async () => {
    const commands = new Set([
      'pre',
      'auth',
      'initial',
      'calc',
      'history',
      'batch',
      'serve',
      'keys',
      'config',
      'cache',
      'completion',
      'audit',
      'queue',
    ]);
    const bad: [string[], RegExp][] = [
      [
        ['pre', '--jsn', HOUSE],
        /^error: unknown option '--jsn'\nhint: did you mean --json\? dpe-sim pre --help/,
      ],
      [['prx'], /^error: unknown command 'prx'\nhint: did you mean pre\? dpe-sim --help/],
      // a command's option given before the command's name (global options' values between)
      [
        ['--offline', '--backend', 'local', '--work', 'mur:0=ISOLATION:IMurITE37', 'calc', HOUSE],
        /^error: unknown option '--work'\nhint: --work is an option of dpe-sim calc: give it after the command's name \(dpe-sim calc … --work\)/,
      ],
      [['pre'], /^error: missing required argument 'dpe'\nhint: dpe-sim pre --help/],
      [
        ['calc', HOUSE, '--coef', '2024'],
        /^error: option '--coef <mode>' argument '2024' is invalid.*\nhint: dpe-sim calc --help/,
      ],
      [['calc', HOUSE], /^error: calc needs at least one works item\nhint: .*dpe-sim initial /],
      [
        ['pre', 'nosuchthing'],
        /^error: 'nosuchthing' is not a DPE number.*\nhint: .*dpe-sim pre --help/,
      ],
      [['calc', HOUSE, '--work', 'mur:0=NOPE:X'], /^error: .*\nhint: /],
    ];
    for (const [args, message] of bad) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).not.toContain('<command>');
      const named = [...lines[1]!.matchAll(/dpe-sim ([a-z-]+)/g)].map((m) => m[1]!);
      for (const c of named)
        if (!c.startsWith('-')) expect(commands, `${args.join(' ')}: ${lines[1]}`).toContain(c);
      expect(r.stdout).toBe('');
    }
  });

  it('a directory named without ./ is a directory, not a malformed DPE number', async () => {
    mkdirSync(path.join(dir, 'dpe'));
    const r = await runCli(['pre', 'dpe'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: dpe is a directory, not a DPE XML file\nhint: /);
  });

  /** Whether another user can reach the checkout (a clone in a 0700 directory cannot be run). */
  const otherUserCanRun = (() => {
    for (let d = path.dirname(BIN); ; d = path.dirname(d)) {
      if ((statSync(d).mode & 0o001) === 0) return false;
      if (d === path.dirname(d)) return (statSync(BIN).mode & 0o004) !== 0;
    }
  })();
  if (!otherUserCanRun)
    console.warn(
      '*** read-only store test SKIPPED: another user cannot reach this checkout (a directory on its path is not world-searchable) ***',
    );
  const asNobody = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv') && otherUserCanRun;
  it.skipIf(!asNobody)('a read-only store still serves history (run as another user)', async () => {
    const dataDir = tempDir();
    chmodSync(dataDir, 0o755);
    expect((await runCli(['pre', HOUSE, '--json'], { dataDir })).code).toBe(0);
    const configDir = tempDir();
    chmodSync(configDir, 0o777);
    const nobody = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(
          'setpriv',
          ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, ...args],
          {
            env: {
              PATH: process.env.PATH,
              HOME: '/tmp',
              NO_COLOR: '1',
              DPE_SIM_DATA_DIR: dataDir,
              DPE_SIM_CONFIG_DIR: configDir,
            },
          },
        );
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('close', (code) => resolve({ code, out, err }));
      });
    const h = await nobody(['history', '--json']);
    expect(h.code, h.err).toBe(0);
    expect(
      (JSON.parse(h.out) as { records: { operation: string }[] }).records.map((x) => x.operation),
    ).toEqual(['pre']);
    const w = await nobody(['pre', HOUSE]);
    expect(w.code).toBe(1);
    expect(w.err).toContain(
      'error: the local store is read-only, and this command records its run',
    );
  });
});

describe('dpe-sim completion', () => {
  const HAS_BASH = existsSync('/bin/bash');
  it.skipIf(!HAS_BASH)('bash: completes commands, flags and their choices', async () => {
    const r = await runCli(['completion', 'bash']);
    expect(r.code).toBe(0);
    const script = path.join(tempDir(), 'dpe-sim.bash');
    writeFileSync(script, r.stdout);
    const complete = (words: string[]) =>
      new Promise<string>((resolve) => {
        const cmd = `source ${sh(script)}; COMP_WORDS=(${words.map(sh).join(' ')}); COMP_CWORD=${words.length - 1}; _dpe_sim; echo "\${COMPREPLY[*]}"`;
        const child = spawn('bash', ['-c', cmd]);
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.on('close', () => resolve(out.trim()));
      });
    expect(await complete(['dpe-sim', 'cal'])).toBe('calc');
    expect((await complete(['dpe-sim', 'calc', '--sc'])).split(' ')).toEqual([
      '--scenario',
      '--scenario-from',
    ]);
    expect(await complete(['dpe-sim', 'pre', '--coef', ''])).toBe('2026 2025');
    expect(await complete(['dpe-sim', 'batch', ''])).toBe('pre initial calc audit status results');
  });

  it('zsh and fish scripts name every command; another shell is refused (exit 2)', async () => {
    for (const shell of ['zsh', 'fish']) {
      const r = await runCli(['completion', shell]);
      expect(r.code).toBe(0);
      for (const c of ['pre', 'initial', 'calc', 'history', 'batch', 'completion'])
        expect(r.stdout).toContain(c);
    }
    const bad = await runCli(['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Allowed choices are bash, zsh, fish');
  });
});

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HANG_MS } from './hang.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(ROOT, 'bin', 'dpe-sim.js');
export const FIXTURES = path.join(ROOT, 'fixtures');
export const HOUSE = path.join(FIXTURES, '0000E0000001H.xml');
export const FLAT = path.join(FIXTURES, '0000E0000002F.xml');
export const STUDIO = path.join(FIXTURES, '0000E0000003T.xml');
export const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
export const HAS_CORPUS = existsSync(CORPUS);

export function tempDir(prefix = 'dpe-sim-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  dataDir?: string;
  timeoutMs?: number;
  /** the working directory (default: this one) */
  cwd?: string;
}

/**
 * Starts the built `bin/dpe-sim.js` as a user would, with its own data and config dirs, and
 * returns the child (to signal it) and its result. The child is killed after `timeoutMs`.
 */
export function startCli(
  args: string[],
  opts: CliOptions = {},
): { child: ChildProcessWithoutNullStreams; done: Promise<CliResult> } {
  const dataDir = opts.dataDir ?? tempDir();
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      ...process.env,
      DPE_SIM_DATA_DIR: dataDir,
      DPE_SIM_CONFIG_DIR: path.join(dataDir, 'config'),
      NO_COLOR: '1',
      FORCE_COLOR: undefined,
      DPE_SIM_DPE_DIR: undefined,
      DPE_SIM_BASE_URL: undefined,
      DPE_SIM_PARTNER_KEY: undefined,
      DPE_SIM_PROFILE: undefined,
      DPE_SIM_BACKEND: undefined,
      // no test ever reaches the real registry: tests that want one name a stand-in and go online
      DPE_SIM_OFFLINE: '1',
      DPE_SIM_REGISTRY_URL: undefined,
      ...opts.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? HANG_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const commas = commaNumbers(args, opts, stdout, stderr);
      if (commas.length)
        reject(
          new Error(
            `dpe-sim ${args.join(' ')} wrote a number with a comma (one number format: '.' decimals, U+202F groups):\n${commas.join('\n')}`,
          ),
        );
      else resolve({ code, stdout, stderr });
    });
  });
  // a child may stop reading its input before the end (too large): that is its answer, not ours
  child.stdin.on('error', () => {});
  child.stdin.end(opts.input ?? '');
  return { child, done };
}

/** "1,28" or "36,353": a digit, a comma, a digit (a list "3, 4" has a space). */
const COMMA_NUMBER = /\d,\d/;

/**
 * Every CLI output of the test suite, checked for a number written with a comma (issue 25: one
 * number format): the human lines of stdout and stderr, not JSON lines nor CSV exports, and not
 * when the test's own arguments or input hold such a number (an echo of what the user typed).
 */
function commaNumbers(args: string[], opts: CliOptions, stdout: string, stderr: string): string[] {
  const machine = args.some((a) => a === '--json' || a === '--format' || a === 'completion');
  if (machine || args.some((a) => COMMA_NUMBER.test(a)) || COMMA_NUMBER.test(opts.input ?? ''))
    return [];
  const hits: string[] = [];
  for (const line of `${stdout}\n${stderr}`.split('\n')) {
    const t = line.trim();
    if (t.startsWith('{') || t.startsWith('[') || t.startsWith('"')) continue;
    if (COMMA_NUMBER.test(line)) hits.push(line);
  }
  return hits;
}

/** Runs the built `bin/dpe-sim.js` as a user would, with its own data and config dirs. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return startCli(args, opts).done;
}

/** A step of a pseudo-terminal session: keys sent once `waitFor` appears (after the last step's). */
export interface PtyStep {
  waitFor: string;
  keys: string;
}

/**
 * Runs the built bin in an 80×24 pseudo-terminal (util-linux `script`) with its own data and
 * config dirs, sending each step's keys once its text appears; the screen and the exit code.
 */
export function drivePty(
  args: string[],
  steps: PtyStep[],
  dataDir = tempDir(),
  timeoutMs = HANG_MS,
): Promise<{ code: number | null; screen: string }> {
  const sh = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;
  const command = `stty cols 80 rows 24; exec ${[process.execPath, BIN, ...args].map(sh).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: {
      ...process.env,
      DPE_SIM_DATA_DIR: dataDir,
      DPE_SIM_CONFIG_DIR: `${dataDir}/config`,
      CI: '',
      NO_COLOR: '1',
      TERM: 'xterm',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let seen = 0;
  let step = 0;
  const pump = () => {
    while (step < steps.length) {
      const s = steps[step] as PtyStep;
      const at = screen.indexOf(s.waitFor, seen);
      if (at < 0) return;
      seen = at + s.waitFor.length;
      step++;
      setTimeout(() => child.stdin.write(s.keys), 200);
    }
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    screen += d;
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

/**
 * The prototypes other than Object's and Array's in `v` (an own `__proto__` key of a copied input
 * sets one), by path; each is then made Object's (frozen objects are left as they are), so that
 * util's strict equality, which compares prototypes by identity, compares the rest.
 */
export function ownPrototypes(
  v: unknown,
  at = '$',
  into: [string, unknown][] = [],
): [string, unknown][] {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return into;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== Array.prototype) {
    into.push([at, proto]);
    Object.setPrototypeOf(v, Object.prototype);
  }
  for (const k of Object.keys(v)) ownPrototypes(v[k as keyof typeof v], `${at}.${k}`, into);
  return into;
}

/**
 * A throw-away PostgreSQL cluster for the tests: `initdb` + `pg_ctl` under a temporary
 * directory, on a free port of 127.0.0.1, stopped and removed afterwards. `initdb` refuses to
 * run as root, so as root the cluster is made and run by the `postgres` user (`runuser`) in a
 * directory it owns.
 *
 * Where the binaries are absent the tests that need them are skipped with a visible message;
 * in CI (CI=true, or DPE_SIM_REQUIRE_PG=1 as .ci/run sets) they fail instead, so a missing PostgreSQL is never a silent green.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

function findBinDir(): string | undefined {
  const onPath = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  const candidates: string[] = [];
  if (onPath.status === 0 && onPath.stdout.trim())
    candidates.push(path.dirname(onPath.stdout.trim()));
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const v of readdirSync(debian).sort((a, b) => Number(b) - Number(a)))
      candidates.push(path.join(debian, v, 'bin'));
  }
  return candidates.find(
    (dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')),
  );
}

const BIN_DIR = findBinDir();
const IS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;
const IN_CI =
  process.env.DPE_SIM_REQUIRE_PG === '1' ||
  Boolean(process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0');
const HAS_RUNUSER = !IS_ROOT || spawnSync('id', ['postgres']).status === 0;

/** PostgreSQL can be started here. */
export const HAS_PG = BIN_DIR !== undefined && HAS_RUNUSER;

/**
 * Call at the top of a test file that needs PostgreSQL: warns visibly when the tests will be
 * skipped, throws in CI. Returns whether they run.
 */
export function pgAvailable(what: string): boolean {
  if (HAS_PG) return true;
  const why =
    BIN_DIR === undefined
      ? 'initdb/pg_ctl not found (PATH, /usr/lib/postgresql/*/bin)'
      : 'running as root and there is no `postgres` user to run initdb as';
  if (IN_CI) throw new Error(`${what} need PostgreSQL and CI=true: ${why}`);
  console.warn(`\n*** ${what} SKIPPED: ${why} ***\n`);
  return false;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary, as the `postgres` user when we are root. */
function pgRun(bin: string, args: string[]): void {
  const exe = path.join(BIN_DIR as string, bin);
  const [cmd, argv] = IS_ROOT ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
  execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], cwd: os.tmpdir() });
}

export interface PgCluster {
  port: number;
  /** a URL to a new empty database of this cluster */
  createDatabase(name?: string): Promise<string>;
  /** stops the server (fast shutdown: connections cut), keeping its data, to start it again */
  halt(): void;
  /** starts the halted server again, on the same port */
  restart(): void;
  stop(): Promise<void>;
}

let dbSerial = 0;

/** Starts a throw-away cluster (fsync off: it is thrown away, nothing needs to survive). */
export async function startPg(): Promise<PgCluster> {
  if (!HAS_PG) throw new Error('PostgreSQL binaries not available');
  const root = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-pg-'));
  if (IS_ROOT) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(root, uid, gid);
  }
  const data = path.join(root, 'data');
  pgRun('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  let port = 0;
  const start = () =>
    pgRun('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(root, 'log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      'start',
    ]);
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      start();
      break;
    } catch (err) {
      if (attempt >= 2) {
        rmSync(root, { recursive: true, force: true });
        throw err;
      }
    }
  }
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    async createDatabase(name = `t${process.pid}_${++dbSerial}`) {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    halt() {
      pgRun('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    restart() {
      start();
    },
    async stop() {
      try {
        pgRun('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

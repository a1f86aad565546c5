// Distributed batch throughput: `dpe-sim batch pre` on the PostgreSQL queue drained by 1 and by
// 2 `dpe-sim worker` processes (all the cores between them), as a ratio to the local batch on
// the same items, and what each item costs the database (transactions, rows written).
//
//   npm run build && node bench/queue.mjs [items]
//
// PostgreSQL: DPE_SIM_BENCH_PG_URL (an empty database), else a throw-away cluster started with
// initdb + pg_ctl (as the `postgres` user when run as root); skipped when neither is available.
// Uses the built dist/.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'dpe-sim.js');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
const FIXTURES = path.join(ROOT, 'fixtures');

function pgBinDir() {
  const dirs = [];
  const which = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) dirs.push(path.dirname(which.stdout.trim()));
  if (existsSync('/usr/lib/postgresql'))
    for (const v of readdirSync('/usr/lib/postgresql')) dirs.push(`/usr/lib/postgresql/${v}/bin`);
  return dirs.find((d) => existsSync(path.join(d, 'initdb')));
}

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function throwAwayCluster() {
  const bin = pgBinDir();
  if (!bin) return undefined;
  const root = process.getuid?.() === 0;
  const run = (exe, args) =>
    execFileSync(
      root ? 'runuser' : path.join(bin, exe),
      root ? ['-u', 'postgres', '--', path.join(bin, exe), ...args] : args,
      { stdio: 'ignore', cwd: os.tmpdir() },
    );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-pg-'));
  if (root) {
    const id = (f) => Number(execFileSync('id', [f, 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, id('-u'), id('-g'));
  }
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  const port = await freePort();
  // durable settings (fsync on): the figures are those of a real database
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function cli(args, env, tmp) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        ...process.env,
        DPE_SIM_DATA_DIR: path.join(tmp, 'data'),
        DPE_SIM_CONFIG_DIR: path.join(tmp, 'config'),
        NO_COLOR: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function startWorker(url, threads, tmp) {
  const child = spawn(
    process.execPath,
    [BIN, 'worker', '--queue', url, '--store', url, '--concurrency', String(threads)],
    {
      env: {
        ...process.env,
        DPE_SIM_DATA_DIR: path.join(tmp, 'w'),
        DPE_SIM_CONFIG_DIR: path.join(tmp, 'wc'),
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  const ready = new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      if (/waiting for batch items/.test(err)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`worker exited ${code}: ${err}`)));
  });
  ready.catch(() => {});
  return { child, ready };
}

async function dbCounters(sql) {
  const r = await sql.query(
    'SELECT xact_commit, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database WHERE datname = current_database()',
  );
  return Object.fromEntries(Object.entries(r.rows[0]).map(([k, v]) => [k, Number(v)]));
}

async function queuedRun(url, sql, listFile, processes, threads, tmp) {
  const workers = Array.from({ length: processes }, () => startWorker(url, threads, tmp));
  await Promise.all(workers.map((w) => w.ready));
  const before = await dbCounters(sql);
  const started = performance.now();
  const name = `bench-${processes}p-${Date.now()}`;
  const q = await cli(['batch', 'pre', listFile, '--queue', url, '--run', name], {}, tmp);
  if (q.code !== 0) throw new Error(q.stderr);
  const total = Number(/: (\d+) items/.exec(q.stderr)?.[1]);
  for (;;) {
    const r = await sql.query(
      'SELECT count(*)::int AS n FROM dpe_sim_batch_results WHERE run = $1',
      [name],
    );
    if (r.rows[0].n >= total) break;
    await sleep(100);
  }
  const seconds = (performance.now() - started) / 1000;
  await sleep(1200); // pg_stat_database is updated about every second
  const after = await dbCounters(sql);
  for (const w of workers) w.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => new Promise((r) => w.child.once('exit', r))));
  const per = (k) => (after[k] - before[k]) / total;
  return {
    total,
    seconds,
    rate: total / seconds,
    commits: per('xact_commit'),
    inserted: per('tup_inserted'),
    updated: per('tup_updated'),
    deleted: per('tup_deleted'),
  };
}

export async function runQueueBench({ items = 600 } = {}) {
  let cluster;
  let url = process.env.DPE_SIM_BENCH_PG_URL;
  if (!url) {
    cluster = await throwAwayCluster();
    if (!cluster) {
      console.log('queue bench SKIPPED: no PostgreSQL (DPE_SIM_BENCH_PG_URL, or initdb/pg_ctl)');
      return undefined;
    }
    url = cluster.url;
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-bench-q-'));
  const sql = new pg.Client({ connectionString: url });
  try {
    await sql.connect();
    const source = existsSync(CORPUS) ? CORPUS : FIXTURES;
    const distinct = readdirSync(source)
      .filter((f) => f.endsWith('.xml'))
      .sort()
      .map((f) => path.join(source, f));
    const files = Array.from({ length: items }, (_, i) => distinct[i % distinct.length]);
    const listFile = path.join(tmp, 'list.txt');
    writeFileSync(listFile, `${files.join('\n')}\n`);
    const cores = os.availableParallelism();
    console.log(
      `queue bench: ${items} items (${distinct.length} files of ${path.relative(process.cwd(), source) || source}), ${cores} cores, load average ${os.loadavg()[0].toFixed(2)}; indicative on a shared machine`,
    );

    const localStart = performance.now();
    const local = await cli(
      ['batch', 'pre', listFile, '--out', path.join(tmp, 'local.jsonl')],
      {},
      tmp,
    );
    const localWall = (performance.now() - localStart) / 1000;
    const m = /in ([\d.]+) s \(([\d.]+) DPE\/s\)/.exec(local.stderr);
    const localRate = m ? Number(m[2]) : items / localWall;
    console.log(
      `  local batch (${cores} threads, SQLite store):     ${localRate.toFixed(1)} items/s`,
    );

    const results = {};
    for (const processes of [1, 2]) {
      const threads = Math.max(1, Math.floor(cores / processes));
      const r = await queuedRun(url, sql, listFile, processes, threads, tmp);
      results[processes] = r;
      console.log(
        `  queue, ${processes} worker process${processes > 1 ? 'es' : ''} × ${threads} thread${threads > 1 ? 's' : ''} (PostgreSQL store): ${r.rate.toFixed(1)} items/s = ${(r.rate / localRate).toFixed(2)}× local` +
          ` (enqueue to last line ${r.seconds.toFixed(1)} s; per item: ${r.commits.toFixed(1)} commits, ${r.inserted.toFixed(1)} rows inserted, ${r.updated.toFixed(1)} updated, ${r.deleted.toFixed(1)} deleted)`,
      );
    }
    console.log(`  load average after: ${os.loadavg()[0].toFixed(2)}`);
    return { localRate, results };
  } finally {
    await sql.end().catch(() => {});
    cluster?.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const n = process.argv[2] ? Number(process.argv[2]) : undefined;
  await runQueueBench(n ? { items: n } : {});
}

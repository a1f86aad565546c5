// `dpe-sim serve` in its own process for the benches (soak, hostile): started on a free port from
// the built bin, its resident set read from /proc.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'bin',
  'dpe-sim.js',
);

/**
 * Runs `dpe-sim ARGS serve --port 0` (global flags in `args`, the environment merged with
 * `env`); resolves with its URL once it listens, the child, its stderr so far and a stop (SIGTERM).
 */
export function startServe(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, 'serve', '--port', '0'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m)
        resolve({
          url: m[1],
          child,
          stderr: () => err,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
    });
    child.on('exit', (code) => reject(new Error(`dpe-sim serve exited (${code}): ${err}`)));
  });
}

/** The resident set of a process, MB (Linux: /proc; elsewhere undefined). */
export function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** graphile-worker's logger, on stderr: warnings and errors only, unless verbose. */
import { Logger } from 'graphile-worker';

export function quietLogger(verbose: boolean): Logger {
  return new Logger(() => (level, message) => {
    if (verbose || level === 'error' || level === 'warning')
      process.stderr.write(`dpe-sim worker: [${level}] ${message}\n`);
  });
}

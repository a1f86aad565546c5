import os from 'node:os';
import { DpeSimError, EXIT_CODES } from '../../contract/errors.js';
import type { Command } from 'commander';
import { run } from '../command-kit.js';
import type { Context } from '../context.js';
import { examples } from '../flags.js';

export interface WorkerFlags {
  concurrency?: string;
}

/** `dpe-sim worker --queue URL [--concurrency N]`: runs queued batch items until SIGINT/SIGTERM. */
export async function workerCommand(ctx: Context, flags: WorkerFlags): Promise<number> {
  const threads =
    flags.concurrency === undefined ? os.availableParallelism() : Number(flags.concurrency);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) {
    throw new DpeSimError(
      'invalid-input',
      `--concurrency must be an integer from 1 to 64 (got '${flags.concurrency}')`,
    );
  }
  const { startQueueWorker } = await import('../../queue/worker.js');
  const s = ctx.settings;
  const log = (line: string) => ctx.out.note(line);
  const worker = await startQueueWorker({
    queueUrl: s.queueUrl,
    local: ctx.localConfig,
    threads,
    verbose: Boolean(ctx.opts.verbose),
    log,
  });
  log(
    `dpe-sim worker ${worker.id}: ${threads} engine thread${threads === 1 ? '' : 's'}, DPEs from ${s.dpeDir}, store ${s.storeUrl ? 'shared' : s.dataDir}; waiting for batch items (Ctrl-C to stop)`,
  );
  const onSignal = (signal: NodeJS.Signals) => {
    log(`dpe-sim worker ${worker.id}: ${signal}, finishing the running items`);
    void worker.stop();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await worker.done;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return EXIT_CODES.ok;
}

export function register(program: Command): void {
  program
    .command('worker')
    .description('run the items of queued batch runs (batch --queue), until Ctrl-C')
    .option('--queue <url>', 'the PostgreSQL queue (also DPE_SIM_QUEUE_URL, profile queueUrl)')
    .option('--concurrency <n>', 'engine threads (default: the number of cores)')
    .addHelpText(
      'after',
      examples(
        'dpe-sim worker --queue postgres://user:pw@db:5432/dpesim --store postgres://user:pw@db:5432/dpesim',
      ),
    )
    .action(run(workerCommand));
}

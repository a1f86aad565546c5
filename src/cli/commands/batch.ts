import os from 'node:os';
import { DpeSimError, EXIT_CODES } from '../../contract/errors.js';
import type { EditableChange } from '../../contract/schemas.js';
import { parseReferenceId } from '../../dpe/elements.js';
import {
  BATCH_OPERATIONS,
  type BatchOperation,
  type BatchSettings,
} from '../../tracking/batch-item.js';
import { localExecutor, remoteExecutor, type Executor } from '../../tracking/batch-executors.js';
import { doneItems, openSink } from '../../tracking/batch-output.js';
import { Progress, emptyTally, summaryText } from '../../tracking/batch-progress.js';
import { runBatch } from '../../tracking/batch-runner.js';
import { openSource } from '../../tracking/batch-source.js';
import type { Context } from '../context.js';
import { checkIdentity, coefOption } from '../options.js';
import { readWorksFile } from '../works-input.js';

export interface BatchFlags {
  works?: string;
  scenario?: string;
  coef?: string;
  forceNormalization?: boolean;
  concurrency?: string;
  out?: string;
  resume?: string;
  run?: string;
  wait?: boolean;
  chunk?: string;
}

const EXIT_INTERRUPTED = 130;
const DEFAULT_REMOTE_CONCURRENCY = 4;
const MAX_CONCURRENCY = 64;

function concurrencyOption(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > MAX_CONCURRENCY) {
    throw new DpeSimError(
      'invalid-input',
      `--concurrency must be an integer from 1 to ${MAX_CONCURRENCY} (got '${value}')`,
    );
  }
  return n;
}

async function worksOption(
  operation: BatchOperation,
  file: string | undefined,
  source: string,
): Promise<EditableChange[]> {
  if (file === undefined) return [];
  if (operation !== 'calc')
    throw new DpeSimError('invalid-input', `--works applies to 'batch calc' only`);
  if (file === '-' && source === '-')
    throw new DpeSimError('invalid-input', 'the source and --works cannot both be stdin');
  const works = await readWorksFile(file);
  for (const c of works) {
    if (!parseReferenceId(c.referenceId)) {
      throw new DpeSimError(
        'invalid-input',
        `the works file ${file} has referenceId '${c.referenceId}': expected <category>:<index> with a category among mur, baie_vitree, plancher_bas, plancher_haut, installation_chauffage, installation_ecs, ventilation, porte`,
      );
    }
  }
  return works;
}

export async function batchCommand(
  ctx: Context,
  operationArg: string,
  sourceArg: string,
  flags: BatchFlags,
): Promise<number> {
  if (operationArg === 'status' || operationArg === 'results') {
    const q = await import('./batch-queue.js');
    return operationArg === 'status'
      ? q.statusCommand(ctx, sourceArg)
      : q.resultsCommand(ctx, sourceArg, flags);
  }
  if (!(BATCH_OPERATIONS as readonly string[]).includes(operationArg)) {
    throw new DpeSimError(
      'invalid-input',
      `unknown batch operation '${operationArg}': use ${BATCH_OPERATIONS.join(', ')}`,
    );
  }
  const operation = operationArg as BatchOperation;
  const scenario = flags.scenario ?? 'default';
  if (scenario.trim() === '' || scenario.length > 100)
    throw new DpeSimError('invalid-input', '--scenario must be 1 to 100 characters');
  const settings: BatchSettings = {
    operation,
    identity: checkIdentity(ctx.identity),
    coef: coefOption(flags.coef),
    forceNormalization: Boolean(flags.forceNormalization),
    works: await worksOption(operation, flags.works, sourceArg),
    scenario,
  };
  if (ctx.settings.queueUrl !== undefined)
    return (await import('./batch-queue.js')).enqueueCommand(ctx, settings, sourceArg, flags);
  const remote = ctx.settings.backend === 'remote';
  const concurrency = concurrencyOption(
    flags.concurrency,
    remote ? DEFAULT_REMOTE_CONCURRENCY : os.availableParallelism(),
  );
  if (flags.resume !== undefined && flags.out !== undefined && flags.out !== flags.resume) {
    throw new DpeSimError(
      'invalid-input',
      '--resume FILE appends to FILE: leave out --out, or give the same file',
    );
  }
  const outFile = flags.resume ?? flags.out;
  const source = await openSource(sourceArg);
  const done = flags.resume !== undefined ? await doneItems(flags.resume) : undefined;

  // opens the store (and migrates it) once before the workers do; checks the remote settings
  await ctx.backend();
  const executor = await makeExecutor(ctx, settings, concurrency);

  const tally = emptyTally();
  const progress = new Progress(tally, Boolean(process.stderr.isTTY));
  const stdoutIsTerminal = Boolean(process.stdout.isTTY);
  let result;
  const sink = openSink(outFile, flags.resume !== undefined, () => {
    if (stdoutIsTerminal) progress.clear();
  });
  try {
    result = await runBatch({ source, executor, sink, progress, tally, ...(done ? { done } : {}) });
  } finally {
    await executor.close();
    sink.close();
  }
  ctx.out.note(
    summaryText(operation, result.tally, result.seconds, sink.description, result.interrupted),
  );
  if (result.interrupted) return EXIT_INTERRUPTED;
  return result.tally.failed > 0 ? EXIT_CODES.runtime : EXIT_CODES.ok;
}

async function makeExecutor(
  ctx: Context,
  settings: BatchSettings,
  concurrency: number,
): Promise<Executor> {
  const s = ctx.settings;
  if (s.backend === 'remote') {
    const { RemoteBackend } = await import('../../backend/remote.js');
    const lanes = Array.from(
      { length: concurrency },
      () =>
        new RemoteBackend({
          baseUrl: s.baseUrl ?? '',
          partnerKey: s.partnerKey ?? '',
          timeoutMs: s.timeout * 1000,
          retries: s.retries,
          historyPath: s.historyPath,
        }),
    );
    return remoteExecutor(lanes, settings);
  }
  return localExecutor(
    {
      dataDir: s.dataDir,
      storeUrl: s.storeUrl,
      dpeDir: s.dpeDir,
      appUrl: s.appUrl,
      costs: s.costs,
      settings,
    },
    concurrency,
  );
}

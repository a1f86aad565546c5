import { hasControlChar } from '../../contract/text.js';
import os from 'node:os';
import { DpeSimError, EXIT_CODES } from '../../contract/errors.js';
import type { EditableChange } from '../../contract/schemas.js';
import { REFERENCE_ID_REGEX } from '../../contract/constants.js';
import type { BatchOperation, BatchSettings } from '../../batch/item.js';
import type { Executor } from '../../batch/executors.js';
import { Argument, Option, type Command } from 'commander';
import { run } from '../command-kit.js';
import { exitCodeFor } from '../../process/stop-signals.js';
import type { Context } from '../context.js';
import { identityFlags, type IdentityFlags } from '../flags.js';
import { checkIdentity, coefOption } from '../options.js';

export interface BatchFlags extends IdentityFlags {
  works?: string;
  scenario?: string;
  coef?: string;
  forceNormalization?: boolean;
  concurrency?: string;
  out?: string;
  resume?: string;
  fetchConcurrency?: string;
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
  const { readWorksFile } = await import('../works-input.js');
  const works = await readWorksFile(file);
  for (const c of works) {
    if (!REFERENCE_ID_REGEX.test(c.referenceId)) {
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
  // loaded here, not with the command's flags: `dpe-sim --help` loads none of them
  const [{ BATCH_OPERATIONS }, { doneItems, openSink }, { Progress, emptyTally, summaryText }] =
    await Promise.all([
      import('../../batch/item.js'),
      import('../../batch/output.js'),
      import('../../batch/progress.js'),
    ]);
  const [{ runBatch }, { openSource }] = await Promise.all([
    import('../../batch/runner.js'),
    import('../../batch/source.js'),
  ]);
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
  if (hasControlChar(scenario))
    throw new DpeSimError(
      'invalid-input',
      '--scenario must not contain control characters (NUL, CR, LF, tab, ESC...)',
      { field: 'scenario', reason: 'control-character' },
    );
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

  // Locally, the workers start first: they load the engine while this thread opens (and
  // migrates) the store, reads the earlier output and the items; a worker opens the store on
  // its first item, handed over only once the store is ready. Remotely, the settings are
  // checked first.
  const local = ctx.settings.backend !== 'remote';
  // no more engine threads than items: a 1-item batch loads the engine once, not once per core
  const threads = local
    ? Math.max(1, Math.min(concurrency, (await source.countUpTo(concurrency)) ?? concurrency))
    : concurrency;
  let executor = local
    ? await makeExecutor(ctx, settings, threads, flags.fetchConcurrency)
    : undefined;
  let done: Set<string> | undefined;
  try {
    await ctx.backend();
    executor ??= await makeExecutor(ctx, settings, concurrency, flags.fetchConcurrency);
    done = flags.resume !== undefined ? await doneItems(flags.resume) : undefined;
  } catch (err) {
    await executor?.close();
    throw err;
  }

  const tally = emptyTally();
  const progress = new Progress(tally, Boolean(process.stderr.isTTY));
  const stdoutIsTerminal = Boolean(process.stdout.isTTY);
  let result;
  let sink;
  try {
    sink = openSink(outFile, flags.resume !== undefined, () => {
      if (stdoutIsTerminal) progress.clear();
    });
  } catch (err) {
    await executor.close();
    throw err;
  }
  try {
    result = await runBatch({ source, executor, sink, progress, tally, ...(done ? { done } : {}) });
  } finally {
    await executor.close();
    sink.close();
  }
  ctx.out.note(
    summaryText(operation, result.tally, result.seconds, sink.description, result.interrupted),
  );
  if (result.interrupted) return result.signal ? exitCodeFor(result.signal) : EXIT_INTERRUPTED;
  return result.tally.failed > 0 ? EXIT_CODES.runtime : EXIT_CODES.ok;
}

async function makeExecutor(
  ctx: Context,
  settings: BatchSettings,
  concurrency: number,
  fetchConcurrencyFlag: string | undefined,
): Promise<Executor> {
  const { localExecutor, remoteExecutor } = await import('../../batch/executors.js');
  if (ctx.settings.backend === 'remote') {
    const { composeRemoteBackend } = await import('../../compose.js');
    const config = ctx.remoteConfig;
    const lanes = await Promise.all(
      Array.from({ length: concurrency }, async () => (await composeRemoteBackend(config)).backend),
    );
    return remoteExecutor(lanes, settings);
  }
  const [
    { composeDpeCache },
    { prefetchingExecutor, DEFAULT_FETCH_CONCURRENCY },
    { fetchConcurrencyOption },
  ] = await Promise.all([
    import('../../compose.js'),
    import('../../batch/prefetch.js'),
    import('./cache.js'),
  ]);
  const fetchConcurrency = fetchConcurrencyOption(
    fetchConcurrencyFlag,
    '--fetch-concurrency',
    DEFAULT_FETCH_CONCURRENCY,
  );
  const workers = localExecutor({ local: ctx.localConfig, settings }, concurrency);
  const cache = await composeDpeCache(ctx.localConfig);
  return prefetchingExecutor(workers, cache.fetcher(fetchConcurrency), fetchConcurrency);
}

export function register(program: Command): void {
  identityFlags(
    program
      .command('batch')
      .addArgument(
        new Argument(
          '<operation>',
          'what to run on each DPE (status, results: of a queued run)',
        ).choices(['pre', 'initial', 'calc', 'audit', 'status', 'results']),
      )
      .argument(
        '<source>',
        'a file of DPE numbers or XML paths, one per line (- for stdin; # comments), or a directory of XML files; the run name for status and results',
      )
      .description('run pre, initial, calc or audit over many DPEs: one JSON line per DPE'),
  )
    .addOption(
      new Option('--coef <mode>', 'electricity coefficient: 2026 (1.9) or 2025 (2.3)')
        .choices(['2026', '2025'])
        .default('2026'),
    )
    .option(
      '--force-normalization',
      'accept normalization to the registry for gaps between 5\u00a0% and 15\u00a0%',
    )
    .option(
      '--works <file>',
      'calc: JSON array of {referenceId, editableKey, editableValue} applied to every DPE (works on elements a DPE lacks are skipped)',
    )
    .option('--scenario <name>', 'calc: name of the calculation scenario', 'default')
    .option(
      '--concurrency <n>',
      'items at once (default: the number of cores locally, 4 against a remote service)',
    )
    .option(
      '--fetch-concurrency <n>',
      'local: DPE numbers fetched from the registry at once, apart from the engine workers (default 4)',
    )
    .option('--queue <url>', 'enqueue a run on this PostgreSQL queue for `dpe-sim worker`s')
    .option('--run <name>', 'queue: the run name (default: generated, printed on stdout)')
    .option('--wait', 'queue: wait for the run to finish and write its lines like a local batch')
    .option('--chunk <n>', 'queue: items per job (default 10)')
    .option('--out <file>', 'write the JSON lines to FILE instead of stdout')
    .option(
      '--resume <file>',
      'skip the items already ok or blocked in FILE, append the others to it',
    )
    .addHelpText(
      'after',
      `
Each line: {dpeId, file, ok, status, exitCode, attempts, ms, result | error}; status is ok,
blocked (exitCode 3) or failed (exitCode 2 invalid or unknown DPE, 1 runtime failure).
Exit 0 when every item is ok or blocked, 1 when any failed, 130 when stopped by Ctrl-C
(SIGINT), 143 by SIGTERM: running items get 0.4 s to finish, the rest is left to --resume.

Examples:
  dpe-sim batch pre ids.txt --out pre.jsonl
  ls dpe/*.xml | dpe-sim batch initial - > initial.jsonl
  dpe-sim batch calc ./dpe --works works.json --out calc.jsonl
  dpe-sim batch audit ./dpe --out audit.jsonl   (result: the audit, docs/audit.md)
  dpe-sim batch pre ids.txt --resume pre.jsonl

On many machines (a PostgreSQL queue, workers started anywhere with dpe-sim worker):
  dpe-sim batch pre ids.txt --queue postgres://host/db --run march
  dpe-sim batch status march --queue postgres://host/db
  dpe-sim batch results march --queue postgres://host/db --out pre.jsonl`,
    )
    .action(run(batchCommand));
}

/**
 * Commands for daily tracking and scripts: `history`, `batch`.
 * (Registered from main.ts; actions load on demand.)
 */
import { Argument, Option, type Command } from 'commander';
import { identityOptions, run } from './command-kit.js';

export function registerTrackingCommands(program: Command): void {
  program
    .command('history')
    .argument('[dpe]', "a DPE number (or file): that dwelling's history, with a consumption chart")
    .description('the runs recorded by pre, initial, calc and batch, newest first')
    .option('--limit <n>', 'at most this many runs (default 50; --export: 10000)')
    .option('--since <when>', 'runs since an ISO date or date-time, or a duration back (7d, 12h)')
    .option('--dpe-id <id>', 'runs on this DPE')
    .option('--customer-id <id>', 'runs of this customer')
    .option('--user-id <id>', 'runs of this user')
    .option('--export <file>', 'write the runs to FILE: .csv (CSV) or .jsonl (JSON Lines)')
    .addHelpText(
      'after',
      '\nExamples:\n  dpe-sim history\n  dpe-sim history 0000E0000001H\n  dpe-sim history --since 7d --user-id alice --json\n  dpe-sim history --export runs.csv',
    )
    .action(run(async () => (await import('./commands/history.js')).historyCommand));

  identityOptions(
    program
      .command('batch')
      .addArgument(
        new Argument(
          '<operation>',
          'what to run on each DPE (status, results: of a queued run)',
        ).choices(['pre', 'initial', 'calc', 'status', 'results']),
      )
      .argument(
        '<source>',
        'a file of DPE numbers or XML paths, one per line (- for stdin; # comments), or a directory of XML files; the run name for status and results',
      )
      .description('run pre, initial or calc over many DPEs: one JSON line per DPE'),
  )
    .addOption(
      new Option('--coef <mode>', 'electricity coefficient: 2026 (1.9) or 2025 (2.3)')
        .choices(['2026', '2025'])
        .default('2026'),
    )
    .option('--force-normalization', 'accept normalization to the registry for gaps of 5% to 15%')
    .option(
      '--works <file>',
      'calc: JSON array of {referenceId, editableKey, editableValue} applied to every DPE (works on elements a DPE lacks are skipped)',
    )
    .option('--scenario <name>', 'calc: name of the calculation scenario', 'default')
    .option(
      '--concurrency <n>',
      'items at once (default: the number of cores locally, 4 against a remote service)',
    )
    .option('--out <file>', 'write the JSON lines to FILE instead of stdout')
    .option(
      '--resume <file>',
      'skip the items already ok or blocked in FILE, append the others to it',
    )
    .option('--queue <url>', 'enqueue a run on this PostgreSQL queue for `dpe-sim worker`s')
    .option('--run <name>', 'queue: the run name (default: generated, printed on stdout)')
    .option('--wait', 'queue: wait for the run to finish and write its lines like a local batch')
    .option('--chunk <n>', 'queue: items per job (default 10)')
    .addHelpText(
      'after',
      `
Each line: {dpeId, file, ok, status, exitCode, attempts, ms, result | error}; status is ok,
blocked (exitCode 3) or failed (exitCode 2 invalid or unknown DPE, 1 runtime failure).
Exit 0 when every item is ok or blocked, 1 when any failed, 130 when interrupted.

Examples:
  dpe-sim batch pre ids.txt --out pre.jsonl
  ls dpe/*.xml | dpe-sim batch initial - > initial.jsonl
  dpe-sim batch calc ./dpe --works works.json --out calc.jsonl
  dpe-sim batch pre ids.txt --resume pre.jsonl

On many machines (a PostgreSQL queue, workers started anywhere with dpe-sim worker):
  dpe-sim batch pre ids.txt --queue postgres://host/db --run march
  dpe-sim batch status march --queue postgres://host/db
  dpe-sim batch results march --queue postgres://host/db --out pre.jsonl`,
    )
    .action(run(async () => (await import('./commands/batch.js')).batchCommand));

  program
    .command('worker')
    .description('run the items of queued batch runs (batch --queue), until Ctrl-C')
    .option('--queue <url>', 'the PostgreSQL queue (also DPE_SIM_QUEUE_URL, profile queueUrl)')
    .option('--concurrency <n>', 'engine threads (default: the number of cores)')
    .addHelpText(
      'after',
      '\nExample:\n  dpe-sim worker --queue postgres://user:pw@db:5432/dpesim --store postgres://user:pw@db:5432/dpesim',
    )
    .action(run(async () => (await import('./commands/worker.js')).workerCommand));
}

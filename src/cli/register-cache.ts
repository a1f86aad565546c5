/**
 * The `cache` command: the local cache of registry DPEs (`<data-dir>/cache/dpe`). Its actions
 * load on demand (src/cli/commands/cache.ts).
 */
import type { Command } from 'commander';
import { run } from './command-kit.js';

const load = async () => import('./commands/cache.js');

export function registerCacheCommands(program: Command): void {
  const cache = program
    .command('cache')
    .description('DPEs fetched from the national registry, kept in <data-dir>/cache/dpe');
  cache
    .command('list')
    .description('how many DPEs are cached, their size, the oldest (--json: every entry)')
    .addHelpText('after', '\nExample:\n  dpe-sim cache list --json')
    .action(run(async () => (await load()).cacheListCommand));
  cache
    .command('fetch')
    .argument('<file>', 'DPE numbers, one a line (# comments, blank lines ignored; - for stdin)')
    .option('--concurrency <n>', 'registry requests at once (1 to 16)', '4')
    .description(
      'fetch DPEs into the cache ahead of time (e.g. for a batch run --offline); one result line per number; exit 1 if any failed',
    )
    .addHelpText(
      'after',
      '\nExample:\n  dpe-sim cache fetch ids.txt && dpe-sim --offline batch pre ids.txt',
    )
    .action(run(async () => (await load()).cacheFetchCommand));
  cache
    .command('clear')
    .description('remove every cached DPE (they are fetched again when needed)')
    .addHelpText('after', '\nExample:\n  dpe-sim cache clear')
    .action(run(async () => (await load()).cacheClearCommand));
}

/** `dpe-sim cache list | fetch NUMBER|FILE... | clear`: the local cache of registry DPEs. */
import { existsSync } from 'node:fs';
import { dateTime } from '../format.js';
import { readInputFile } from '../../contract/input-file.js';
import { DpeSimError, EXIT_CODES } from '../../contract/errors.js';
import { DPE_ID_PATTERN, DPE_ID_REGEX } from '../../contract/constants.js';
import type { Command } from 'commander';
import type { CacheSummary, DpeCacheAdmin, PrefetchResult } from '../../backend/dpe-cache.js';
import { run } from '../command-kit.js';
import type { Context } from '../context.js';
import { examples } from '../flags.js';
import { readStdin } from '../stdin.js';

/** The DPE cache of this data directory (--data-dir). */
async function dpeCache(ctx: Context): Promise<DpeCacheAdmin> {
  const { composeDpeCache } = await import('../../compose.js');
  return composeDpeCache(ctx.localConfig);
}

const MAX_FETCH_CONCURRENCY = 16;

export function fetchConcurrencyOption(
  value: string | undefined,
  flag: string,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > MAX_FETCH_CONCURRENCY) {
    throw new DpeSimError(
      'invalid-input',
      `${flag} must be an integer from 1 to ${MAX_FETCH_CONCURRENCY} (got '${value}')`,
      { flag, value },
    );
  }
  return n;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function summaryText(s: CacheSummary): string {
  const head = `${s.count} DPE${s.count === 1 ? '' : 's'} cached in ${s.directory}, ${size(s.bytes)}`;
  return s.oldest
    ? `${head}; oldest: ${s.oldest.dpeId}, cached ${dateTime(s.oldest.cachedAt)}`
    : head;
}

export async function cacheListCommand(ctx: Context): Promise<number> {
  const summary = await (await dpeCache(ctx)).list();
  ctx.out.result(summary, () => summaryText(summary));
  return EXIT_CODES.ok;
}

export async function cacheClearCommand(ctx: Context): Promise<number> {
  const cache = await dpeCache(ctx);
  const cleared = await cache.clear();
  ctx.out.result(
    { directory: cache.dir, ...cleared },
    () =>
      `Removed ${cleared.removed} cached DPE${cleared.removed === 1 ? '' : 's'} (${size(cleared.bytes)}) from ${cache.dir}`,
  );
  return EXIT_CODES.ok;
}

async function readIds(file: string): Promise<string[]> {
  let text: string;
  try {
    text =
      file === '-'
        ? await readStdin()
        : (await readInputFile(file, { what: 'the list of DPE numbers' })).text;
  } catch (err) {
    if (err instanceof DpeSimError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new DpeSimError(
      'invalid-input',
      `cannot read the list of DPE numbers ${file}: ${code ?? String(err)}`,
      {
        file,
        ...(code ? { code } : {}),
      },
    );
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function resultLine(r: PrefetchResult): string {
  if (!r.ok) return `${r.dpeId}  failed  ${r.error.message}`;
  return r.origin === 'registry'
    ? `${r.dpeId}  fetched  ${r.location}`
    : `${r.dpeId}  already cached`;
}

export interface CacheFetchFlags {
  concurrency?: string;
}

/**
 * The numbers to fetch: each argument a DPE number (`cache fetch 2375E0000000X`) or a file of
 * numbers, one a line (`-`: stdin). A number-shaped argument is a file when such a file exists.
 */
async function idsOf(args: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const arg of args) {
    if (DPE_ID_REGEX.test(arg) && !existsSync(arg)) ids.push(arg);
    else ids.push(...(await readIds(arg)));
  }
  return ids;
}

export async function cacheFetchCommand(
  ctx: Context,
  args: string[],
  flags: CacheFetchFlags,
): Promise<number> {
  const concurrency = fetchConcurrencyOption(flags.concurrency, '--concurrency', 4);
  const cache = await dpeCache(ctx);
  const ids = await idsOf(args);
  const invalid = ids.filter((id) => !DPE_ID_REGEX.test(id));
  const tally = { fetched: 0, cached: 0, failed: 0 };
  const emit = (r: PrefetchResult) => {
    if (!r.ok) tally.failed++;
    else if (r.origin === 'registry') tally.fetched++;
    else tally.cached++;
    process.stdout.write(`${ctx.out.json ? JSON.stringify(r) : resultLine(r)}\n`);
  };
  for (const id of invalid) {
    // a mistyped number is shown; any other line is not (the file may be anything a path led
    // to, /etc/passwd included: its lines are never printed)
    const shown = /^[0-9A-Za-z]{1,20}$/.test(id) ? id : undefined;
    emit({
      dpeId: shown ?? '(not shown)',
      ok: false,
      error: {
        kind: 'invalid-input',
        message: `${shown ? `'${shown}'` : `line ${ids.indexOf(id) + 1} (of the non-blank lines)`} is not a DPE number (expected the pattern ${DPE_ID_PATTERN})`,
      },
    });
  }
  const valid = [...new Set(ids.filter((id) => DPE_ID_REGEX.test(id)))];
  // the cache and the registry only: the point is to fill the cache
  for await (const r of cache.fetch(valid, concurrency)) emit(r);
  ctx.out.note(
    `${tally.fetched} fetched from the registry, ${tally.cached} already cached, ${tally.failed} failed (cache: ${cache.dir})`,
  );
  return tally.failed > 0 ? EXIT_CODES.runtime : EXIT_CODES.ok;
}

export function register(program: Command): void {
  const cache = program
    .command('cache')
    .description('DPEs fetched from the national registry, kept in <data-dir>/cache/dpe');
  cache
    .command('list')
    .description('how many DPEs are cached, their size, the oldest (--json: every entry)')
    .addHelpText('after', examples('dpe-sim cache list --json'))
    .action(run(cacheListCommand));
  cache
    .command('fetch')
    .argument(
      '<numbers-or-files...>',
      'DPE numbers, or files of DPE numbers one a line (# comments, blank lines ignored; - for stdin)',
    )
    .option('--concurrency <n>', 'registry requests at once (1 to 16)', '4')
    .description(
      'fetch DPEs into the cache ahead of time (e.g. for a batch run --offline); one result line per number; exit 1 if any failed',
    )
    .addHelpText(
      'after',
      examples(
        'dpe-sim cache fetch 2375E0000000X 2375E0000001Y',
        'dpe-sim cache fetch ids.txt && dpe-sim --offline batch pre ids.txt',
      ),
    )
    .action(run(cacheFetchCommand));
  cache
    .command('clear')
    .description('remove every cached DPE (they are fetched again when needed)')
    .addHelpText('after', examples('dpe-sim cache clear'))
    .action(run(cacheClearCommand));
}

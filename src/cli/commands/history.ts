import { DpeSimError } from '../../contract/errors.js';
import { NO_COLON_PATTERN } from '../../contract/constants.js';
import { hasControlChar, impossibleDate } from '../../contract/text.js';
import type { HistoryRequest } from '../../contract/schemas.js';
import type { Command } from 'commander';
import { run } from '../command-kit.js';
import type { Context } from '../context.js';
import { dpeIdOption } from '../options.js';

export interface HistoryFlags {
  limit?: string;
  since?: string;
  dpeId?: string;
  customerId?: string;
  userId?: string;
  export?: string;
}

export const DEFAULT_LIMIT = 50;
/** the contract's maximum, used by --export when no --limit is given */
export const MAX_LIMIT = 10_000;

function limitOption(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > MAX_LIMIT)
    throw new DpeSimError(
      'invalid-input',
      `--limit must be an integer from 1 to ${MAX_LIMIT} (got '${value}')`,
    );
  return n;
}

const RELATIVE_RE = /^(\d+)\s*(m|h|d|w)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** `--since`: an ISO date or date-time, or a duration back from now (30m, 12h, 7d, 2w). */
export function sinceOption(value: string | undefined, now = Date.now()): string | undefined {
  if (value === undefined) return undefined;
  const rel = RELATIVE_RE.exec(value.trim());
  if (rel) {
    const unit = rel[2] as keyof typeof UNIT_MS;
    return new Date(now - Number(rel[1]) * UNIT_MS[unit]).toISOString();
  }
  const impossible = impossibleDate(value);
  if (impossible)
    throw new DpeSimError('invalid-input', `--since '${value}' is not a date: ${impossible}`);
  const t = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(t))
    throw new DpeSimError(
      'invalid-input',
      `--since '${value}' is not a date: use an ISO date (2025-01-31), a date-time (2025-01-31T08:00:00Z) or a duration (30m, 12h, 7d, 2w)`,
    );
  return new Date(t).toISOString();
}

function idFilter(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value === '' || !new RegExp(NO_COLON_PATTERN).test(value))
    throw new DpeSimError('invalid-input', `--${flag} must be non-empty, without ':'`);
  if (hasControlChar(value))
    throw new DpeSimError(
      'invalid-input',
      `--${flag} must not contain control characters (NUL, CR, LF, tab, ESC...)`,
      { field: flag, reason: 'control-character' },
    );
  return value;
}

export async function historyCommand(
  ctx: Context,
  dpeArg: string | undefined,
  flags: HistoryFlags,
): Promise<void> {
  const filterDpe = dpeIdOption(flags.dpeId);
  const dpeId = dpeArg !== undefined ? await ctx.dpeArg(dpeArg) : filterDpe;
  if (filterDpe !== undefined && dpeId !== filterDpe)
    throw new DpeSimError('invalid-input', `give the DPE once: ${dpeArg} or --dpe-id ${filterDpe}`);
  const req: HistoryRequest = {
    limit: limitOption(flags.limit, flags.export !== undefined ? MAX_LIMIT : DEFAULT_LIMIT),
  };
  const since = sinceOption(flags.since);
  const customerId = idFilter('customer-id', flags.customerId);
  const userId = idFilter('user-id', flags.userId);
  if (dpeId !== undefined) req.dpeId = dpeId;
  if (since !== undefined) req.since = since;
  if (customerId !== undefined) req.customerId = customerId;
  if (userId !== undefined) req.userId = userId;

  const backend = await ctx.backend();
  const body = await backend.history(req);
  if (body.records === undefined) {
    // the spec shows nothing of the history operation: a service may answer without records
    ctx.out.result(body, () => 'The service gave no run records (no `records` in its answer).');
    if (flags.export !== undefined)
      throw new DpeSimError(
        'runtime',
        `nothing written to ${flags.export}: the service's history answer has no records`,
      );
    return;
  }
  const records = body.records;
  // loaded here, not with the command's flags: `dpe-sim --help` loads none of them
  const [{ consumptionPoints, renderChart }, { writeExport }, { HISTORY_HEAD, historyRow }] =
    await Promise.all([
      import('../history/chart.js'),
      import('../history/history-export.js'),
      import('../history/history-view.js'),
    ]);
  const [{ table, terminalWidth }, { wrap }] = await Promise.all([
    import('../render/table.js'),
    import('../render/text.js'),
  ]);

  if (flags.export !== undefined) {
    const format = writeExport(flags.export, records);
    ctx.out.note(
      `Wrote ${records.length} record${records.length === 1 ? '' : 's'} to ${flags.export} (${format === 'csv' ? 'CSV' : 'JSON Lines'}).`,
    );
    if (ctx.out.json) ctx.out.result(body, () => '');
    return;
  }

  const style = ctx.out.style;
  ctx.out.result(body, () => {
    if (records.length === 0) {
      return dpeId
        ? `No runs recorded for DPE ${dpeId}.`
        : 'No runs recorded (with these filters).';
    }
    const parts = [
      dpeId ? `History of DPE ${dpeId} (newest first)` : 'Runs (newest first)',
      table(
        HISTORY_HEAD,
        records.map((r) => historyRow(r, style)),
        // narrow terminals: coefficient, normalized, user, scenario, works count go first
        { keep: [2, 6, 8], drop: [9, 10, 1, 4, 5] },
      ),
    ];
    const points = dpeId ? consumptionPoints(records) : [];
    if (dpeId && points.length > 0) {
      const cols = terminalWidth() ?? 100;
      parts.push(
        '',
        wrap(
          `Consumption of DPE ${dpeId} over time, kWh/m²/yr of primary energy, from its pre and initial runs (letters: the DPE class at that date; dotted lines: class thresholds)`,
        ),
        renderChart(points, {
          maxPoints: Math.max(4, Math.floor((cols - 10) / 6)),
          classLetter: (l) => style.classLetter(l),
        }),
      );
    } else if (dpeId) {
      parts.push(
        wrap(
          style.c.dim(
            "No chart: it plots the dwelling's own figures (pre, initial) over time, once they span two days; calc runs are works hypotheses, shown above as before → after.",
          ),
        ),
      );
    }
    return parts.join('\n');
  });
  if (!ctx.out.json) {
    if (records.length === req.limit)
      ctx.out.note(`Showing the latest ${records.length} runs; --limit N shows more.`);
    if (records.length === 0)
      ctx.out.note('Runs are recorded by dpe-sim pre, initial, calc, audit and batch.');
    else if (!dpeId && records[0])
      ctx.out.note(`Next: dpe-sim history ${records[0].dpeId} (that dwelling's consumption chart)`);
  }
}

export function register(program: Command): void {
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
    .action(run(historyCommand));
}

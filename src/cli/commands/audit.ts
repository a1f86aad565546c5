import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { DpeSimError } from '../../contract/errors.js';
import { osReason } from '../../contract/os-errors.js';
import type { Context } from '../context.js';
import { checkIdentity, coefOption } from '../options.js';
import { run } from '../command-kit.js';
import { DPE_ARGUMENT_HELP, examples, simulationFlags, type SimulationFlags } from '../flags.js';

export interface AuditFlags extends SimulationFlags {
  report?: string;
  pdf?: string;
  engineFigures?: boolean;
}

export async function auditCommand(ctx: Context, dpeArg: string, flags: AuditFlags): Promise<void> {
  const coef = coefOption(flags.coef);
  const identity = checkIdentity(ctx.identity);
  const { dpeId, backend } = await ctx.computing(dpeArg);
  // loaded here, not at start-up: `--help` loads no renderer
  const { progressLine } = await import('../progress.js');
  const progress = progressLine('audit', { json: ctx.out.json });
  const body = await backend
    .audit(
      {
        ...identity,
        dpeId,
        ...(flags.engineFigures ? { engineFigures: true } : {}),
        query: {
          coef2026: coef,
          ...(flags.forceNormalization ? { forceNormalization: true } : {}),
        },
      },
      progress.onProgress ? { onProgress: progress.onProgress } : {},
    )
    .finally(() => progress.done());
  if (flags.report) {
    const { auditReportHtml } = await import('../render/audit-report.js');
    try {
      await writeFile(flags.report, auditReportHtml(body));
    } catch (err) {
      throw new DpeSimError('runtime', `cannot write the report ${flags.report}: ${osReason(err)}`);
    }
    ctx.out.note(`report written to ${flags.report}`);
  }
  if (flags.pdf) {
    const { auditReportPdf } = await import('../render/audit-pdf.js');
    try {
      await writeFile(flags.pdf, await auditReportPdf(body));
    } catch (err) {
      throw new DpeSimError('runtime', `cannot write the PDF ${flags.pdf}: ${osReason(err)}`);
    }
    ctx.out.note(`PDF written to ${flags.pdf}`);
  }
  await ctx.out.present(body, async () =>
    (await import('../render/audit.js')).renderAudit(body, dpeArg, ctx.out.style),
  );
}

export function register(program: Command): void {
  simulationFlags(
    program
      .command('audit')
      .argument('<dpe>', DPE_ARGUMENT_HELP)
      .description(
        'energy audit: the heat-loss breakdown and two works paths (in steps, in one step) reaching a "rénovation performante", every rule checked (a dpe-sim extension; docs/audit.md)',
      ),
  )
    .option('--report <file>', 'also write a self-contained, printable HTML report')
    .option('--pdf <file>', 'also write the report as a PDF (A4)')
    .option(
      '--engine-figures',
      "when the input gate fails (engine and registry over 30 % apart, impossible figures), audit on the engine's own figures under a banner instead of stopping (exit 3)",
    )
    .addHelpText(
      'after',
      examples(
        'dpe-sim audit fixtures/0000E0000001H.xml',
        'dpe-sim audit 2535E0426429Q --report audit.html',
        'dpe-sim audit fixtures/0000E0000002F.xml --json',
      ),
    )
    .action(run(auditCommand));
}

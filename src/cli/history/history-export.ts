/**
 * `dpe-sim history --export FILE`: CSV (`.csv`) or JSON Lines (`.jsonl`, `.ndjson`), written to
 * a temporary file renamed into place, so an interrupted export never leaves half a file.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { DpeSimError } from '../../contract/errors.js';
import type { HistoryRecord } from '../../contract/schemas.js';
import { csvHeader, csvRow, jsonLine } from './history-view.js';

export type ExportFormat = 'csv' | 'jsonl';

export function exportFormat(file: string): ExportFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  throw new DpeSimError(
    'invalid-input',
    `--export ${file}: the format comes from the extension: .csv (CSV) or .jsonl (JSON Lines)`,
  );
}

export function exportLines(records: readonly HistoryRecord[], format: ExportFormat): string[] {
  return format === 'csv' ? [csvHeader(), ...records.map(csvRow)] : records.map(jsonLine);
}

export function writeExport(file: string, records: readonly HistoryRecord[]): ExportFormat {
  const format = exportFormat(file);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    const fd = openSync(tmp, 'w');
    try {
      for (const line of exportLines(records, format)) writeSync(fd, `${line}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new DpeSimError(
      'runtime',
      `cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  return format;
}

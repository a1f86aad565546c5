/** Tables for humans (cli-table3), one style for every command. */
import Table from 'cli-table3';

export function table(head: string[], rows: (string | number)[][], colWidths?: number[]): string {
  const t = new Table({
    head,
    style: { head: [], border: [] },
    wordWrap: true,
    ...(colWidths ? { colWidths } : {}),
  });
  for (const r of rows) t.push(r.map((x) => String(x)));
  return t.toString();
}

export function num(x: number | null | undefined, digits = 0): string {
  if (x === null || x === undefined) return '–';
  return x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function signedPercent(x: number | null | undefined): string {
  if (x === null || x === undefined) return '–';
  return `${x > 0 ? '+' : ''}${x.toFixed(1)}%`;
}

export function euros(x: number | null | undefined): string {
  if (x === null || x === undefined) return '–';
  return `${Math.round(x).toLocaleString('en-US')} €`;
}

/** A saving as the user reads it: "−1,234 kWh/yr" saved, "+56 kWh/yr" when it costs energy. */
export function saving(gain: number, unit: string): string {
  return `${gain >= 0 ? '−' : '+'}${num(Math.abs(gain))} ${unit}`;
}

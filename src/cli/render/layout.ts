/**
 * The layout every table of this process follows: the terminal's width and `--wide`. Kept apart
 * from the table renderer (cli-table3, string-width), so that the Output of a command sets it
 * without loading them: `--json` never renders a table.
 */
export interface TableLayout {
  /** terminal width; undefined when stdout is not a TTY (tab-separated output) */
  width: number | undefined;
  /** every column at its natural width (--wide) */
  wide: boolean;
}

let wideFlag = false;

/** `--wide` for every table of this process (set once by the Output of the command). */
export function setWide(wide: boolean): void {
  wideFlag = wide;
}

/** The width the output is laid out for: the TTY's columns, 80 when it reports none. */
export function terminalWidth(): number | undefined {
  if (!process.stdout.isTTY) return undefined;
  return process.stdout.columns > 0 ? process.stdout.columns : 80;
}

export function terminalLayout(): TableLayout {
  return { width: terminalWidth(), wide: wideFlag };
}

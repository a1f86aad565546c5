/**
 * Colour for humans: class letters in the DPE label's colours, alerts by type. Colour only
 * when stdout is a TTY and neither NO_COLOR, TERM=dumb nor --no-color says otherwise
 * (FORCE_COLOR forces it).
 */
import { Chalk, type ChalkInstance } from 'chalk';

export function colourEnabled(
  opts: { color?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (opts.color === false) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false')
    return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return Boolean(process.stdout.isTTY);
}

export interface Style {
  c: ChalkInstance;
  /** colour is on (bars and letters in the label's colours) */
  enabled: boolean;
  classLetter(letter: string): string;
  /** `text` on the class's colour (the energy label's bars); the text as is without colour */
  classBar(letter: string, text: string): string;
  alertType(type: string): string;
}

/** The official DPE label colours, A (dark green) to G (red): [background, text]. */
export const CLASS_COLOURS: Record<string, [string, string]> = {
  A: ['#009C6D', '#FFFFFF'],
  B: ['#52B153', '#FFFFFF'],
  C: ['#78BD76', '#000000'],
  D: ['#F4E70F', '#000000'],
  E: ['#F0B50F', '#000000'],
  F: ['#EB8235', '#000000'],
  G: ['#D7221F', '#FFFFFF'],
};

export function makeStyle(enabled: boolean): Style {
  const c = new Chalk({ level: enabled ? 3 : 0 });
  return {
    c,
    enabled,
    classBar(letter, text) {
      const colours = CLASS_COLOURS[letter];
      if (!colours || !enabled) return text;
      return c.bgHex(colours[0]).hex(colours[1]).bold(text);
    },
    classLetter(letter) {
      const colours = CLASS_COLOURS[letter];
      if (!colours || !enabled) return letter;
      return c.bgHex(colours[0]).hex(colours[1]).bold(` ${letter} `);
    },
    alertType(type) {
      if (type === 'block') return c.red.bold(type);
      if (type === 'confirm') return c.yellow.bold(type);
      return c.cyan(type);
    },
  };
}

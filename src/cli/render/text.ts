/** Running text for people, wrapped at spaces to the terminal width or `width` (never inside a
 * word, so a URL or a path stays whole); as is when stdout is not a TTY (`width` undefined). */
import wrapAnsi from 'wrap-ansi';
import { terminalWidth } from './table.js';

export function wrap(
  text: string,
  indent = '',
  width: number | undefined = terminalWidth(),
): string {
  if (width === undefined) return text;
  return wrapAnsi(text, width - indent.length, { hard: false, trim: true })
    .split('\n')
    .map((l, i) => (i === 0 ? l : indent + l))
    .join('\n');
}

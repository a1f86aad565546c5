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
  // (the first line keeps its own leading spaces, which wrap-ansi's trim would drop: the caller's
  // indentation of a line under a heading; every line fits the width with its indentation)
  const lead = /^ */.exec(text)?.[0] ?? '';
  return wrapAnsi(text.slice(lead.length), width - Math.max(indent.length, lead.length), {
    hard: false,
    trim: true,
  })
    .split('\n')
    .map((l, i) => (i === 0 ? lead + l : indent + l))
    .join('\n');
}

/**
 * Free text in and out: a text field refuses control characters (they could rewrite a terminal
 * or a spreadsheet line when shown), text shown on a terminal or written to CSV is cleaned of
 * them anyway (older records, a remote service's answers), and dates are real calendar dates.
 */
import { stripVTControlCharacters } from 'node:util';

/** C0 (NUL to US: tab, CR, LF, ESC...), DEL and C1 (U+0080 to U+009F). */
// eslint-disable-next-line no-control-regex
const CONTROL_CHAR = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;

export function hasControlChar(text: string): boolean {
  return CONTROL_CHAR.test(text);
}

/** A Unicode format character (category Cf): bidi controls (U+202E), zero-width ones, BOM... */
const FORMAT_CHAR = /\p{Cf}/u;
/** half of a UTF-16 pair without its other half */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a text could show one thing and mean another, or undefined: a lone surrogate (half of a
 * UTF-16 pair: not Unicode text; stored, it is replaced or refused depending on the reader) or a
 * format character (a right-to-left override shows `Alice` for `ecilA`; a zero-width space makes
 * two names that look the same differ).
 */
export function ambiguousText(
  text: string,
): { reason: 'lone-surrogate' | 'format-character'; codePoint: string } | undefined {
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return { reason: 'lone-surrogate', codePoint: codePointName(lone[0]) };
  const m = FORMAT_CHAR.exec(text);
  if (m) return { reason: 'format-character', codePoint: codePointName(m[0]) };
  return undefined;
}

function codePointName(c: string): string {
  return `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The sentence for `ambiguousText`'s finding on a field (`at`: 'userName', --user-name). */
export function ambiguousTextMessage(
  at: string,
  found: { reason: 'lone-surrogate' | 'format-character'; codePoint: string },
): string {
  return found.reason === 'lone-surrogate'
    ? `${at} holds a lone surrogate (${found.codePoint}, half of a UTF-16 pair): it is not Unicode text`
    : `${at} must not contain format characters (${found.codePoint}: bidi controls such as U+202E, zero-width characters, U+FEFF): they make a text show other than it is`;
}

/**
 * The text without terminal control sequences (ESC [ … m, OSC …) nor any other control
 * character: tab, CR and LF become a space, the rest is dropped.
 */
export function terminalText(text: string): string {
  if (!CONTROL_CHAR.test(text)) return text;
  return stripVTControlCharacters(text)
    .replace(/[\t\r\n]/g, ' ')
    .replace(CONTROL_CHARS, '');
}

/**
 * An ISO date or date-time whose date part is not in the calendar (2025-02-30, 2025-13-01), or
 * whose time is out of range (25:00): the reason, or undefined when it is a real one. `Date.parse`
 * alone accepts 2025-02-30 as 2 March.
 */
export function impossibleDate(value: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return `there is no month ${m[2]}`;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) return `${m[1]}-${m[2]} has no day ${m[3]} (it has ${days} days)`;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59))
    return `there is no time ${m[4]}:${m[5]}${m[6] !== undefined ? `:${m[6]}` : ''}`;
  return undefined;
}

/**
 * Why a text is not JSON, without a word of it: V8's message quotes the text's beginning
 * (`Unexpected token 'r', "root:x:0:0"... is not valid JSON`), and the text may be any file a
 * path led to. Only the position is kept, when the message gives one.
 */
export function jsonSyntaxReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/Unexpected end of JSON input/i.test(message)) return 'it ends too early';
  const at = /at position (\d+)(?: \(line (\d+) column (\d+)\))?/.exec(message);
  if (at?.[2] !== undefined) return `a syntax error at line ${at[2]}, column ${at[3]}`;
  if (at) return `a syntax error at character ${Number(at[1]) + 1}`;
  return 'a syntax error';
}

/**
 * A first look at a document a user names (a path or stdin), before it is parsed: an empty
 * file, a file that is not XML at all, and XML whose root element is not `<dpe>` are input
 * mistakes (exit 2), each with its own message. XML that starts as a DPE but does not parse is
 * left to the parser: that DPE is blocked (`block.malformed-xml`, exit 3), as the API reports it.
 */
import { DpeSimError } from '../contract/errors.js';

const HINT = 'give a DPE XML file of the registry (its root element is <dpe>), or a DPE number';

/** The name of the first element, after the XML declaration, comments and a doctype. */
export function rootElement(xml: string): string | undefined {
  const rest = xml
    .replace(/^\uFEFF/, '')
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^>]*>/gi, '')
    .trimStart();
  return /^<([A-Za-z_][\w.:-]*)/.exec(rest)?.[1];
}

/** Throws an invalid-input DpeSimError when `xml`, read from `source`, cannot be a DPE. */
export function checkDpeText(xml: string, source: string): void {
  const name = source === '-' ? 'the standard input' : source;
  const text = xml.replace(/^\uFEFF/, '');
  if (text.trim() === '') {
    throw new DpeSimError('invalid-input', `${name} is empty`, {
      file: source,
      reason: 'empty',
      hint: HINT,
    });
  }
  if (!text.trimStart().startsWith('<')) {
    // never a word of the content: the path may be a link to any file (/etc/passwd...)
    throw new DpeSimError('invalid-input', `${name} is not XML (it does not start with '<')`, {
      file: source,
      reason: 'not-xml',
      hint: HINT,
    });
  }
  const root = rootElement(text);
  if (root !== undefined && root !== 'dpe') {
    // the root element's name only (an XML name: no control characters, no spaces), kept short
    if (root.length > 40) {
      throw new DpeSimError(
        'invalid-input',
        `${name} is XML but not a DPE: its root element is not <dpe>`,
        {
          file: source,
          reason: 'not-dpe',
          hint: HINT,
        },
      );
    }
    throw new DpeSimError(
      'invalid-input',
      `${name} is XML but not a DPE: its root element is <${root}>, a DPE's is <dpe>`,
      { file: source, reason: 'not-dpe', root, hint: HINT },
    );
  }
}

/**
 * Checked before kept: a registry answer counts as a DPE only if it parses as XML, its root is
 * a `<dpe>` document, and the `<numero_dpe>` inside is the number asked for. An HTML page (what
 * the registry answers for an unknown number) is "unknown to the registry".
 */
import { DpeSimError } from '../contract/errors.js';
import { describeFault, xmlSyntaxFault } from '../dpe/xml.js';

/** Why an answer is not the DPE asked for. */
export type RejectReason = 'html' | 'malformed-xml' | 'not-a-dpe' | 'number-mismatch';

export type CheckResult =
  { ok: true } | { ok: false; reason: RejectReason; detail: string; found?: string };

const HTML_START = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!doctype\s+html|<html[\s>])/i;
const NUMERO_RE = /<numero_dpe>\s*([^<\s]*)\s*<\/numero_dpe>/;

/** The name of the root element, past the prolog, comments and doctype. */
export function rootElementName(xml: string): string | undefined {
  const rest = xml.replace(/^\uFEFF/, '');
  const re = /\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)/iy;
  let pos = 0;
  for (;;) {
    re.lastIndex = pos;
    const m = re.exec(rest);
    if (!m || m[0].length === 0) break;
    pos = re.lastIndex;
  }
  return /^\s*<([A-Za-z_][\w.:-]*)/.exec(rest.slice(pos))?.[1];
}

export function checkDpeDocument(
  dpeId: string,
  body: string,
  contentType: string | null,
): CheckResult {
  if ((contentType ?? '').toLowerCase().includes('html') || HTML_START.test(body)) {
    return { ok: false, reason: 'html', detail: 'an HTML page, not an XML document' };
  }
  const fault = xmlSyntaxFault(body);
  if (fault) return { ok: false, reason: 'malformed-xml', detail: describeFault(fault) };
  const root = rootElementName(body);
  if (root !== 'dpe') {
    return {
      ok: false,
      reason: 'not-a-dpe',
      detail: `not a DPE document: the root element is <${root ?? '?'}>, not <dpe>`,
    };
  }
  const found = NUMERO_RE.exec(body)?.[1];
  if (found !== dpeId) {
    return {
      ok: false,
      reason: 'number-mismatch',
      detail: found
        ? `the document is DPE ${found}, not ${dpeId}`
        : 'the document has no <numero_dpe>',
      ...(found ? { found } : {}),
    };
  }
  return { ok: true };
}

/** The error for an answer that is not the DPE asked for (exit 2 for HTML, else exit 1). */
export function rejectedAnswer(
  dpeId: string,
  url: string,
  result: Extract<CheckResult, { ok: false }>,
): DpeSimError {
  const details = {
    dpeId,
    registryUrl: url,
    /** what was wrong with the registry's answer */
    answer: result.reason,
    ...(result.found ? { found: result.found } : {}),
  };
  if (result.reason === 'html') {
    return new DpeSimError(
      'not-found',
      `DPE ${dpeId} is unknown to the registry (${url} answered an HTML page, not a DPE)`,
      { ...details, reason: 'unknown-dpe' },
    );
  }
  return new DpeSimError(
    'runtime',
    `the registry's answer for DPE ${dpeId} (${url}) is not that DPE: ${result.detail}; nothing was cached`,
    details,
  );
}

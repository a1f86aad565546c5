/**
 * DPE XML → plain object, in exactly the shape the engine's own parser (fast-xml-parser with
 * the engine's options) produces: collections always arrays, `enum_*` ids kept as strings,
 * other numeric texts as numbers, "true"/"false" as booleans, repeated tags as arrays,
 * attributes ignored, empty elements as "" — so the engine adapter runs on it without parsing
 * again (test/xml.test.ts proves the equality on the fixtures and the corpus).
 *
 * One pass with saxes, a strict (well-formedness checking) streaming parser: the check and the
 * build are the same walk, about 5× faster than validating then parsing with fast-xml-parser.
 * Malformed XML is reported with the parser's reason and position.
 */
import { SaxesParser } from 'saxes';
import { DpeSimError } from '../contract/errors.js';
import type { RawDpe } from './raw.js';

/** Elements that are lists in the engine's model, even with a single child. */
const COLLECTIONS = new Set([
  'mur',
  'plancher_bas',
  'plancher_haut',
  'baie_vitree',
  'porte',
  'pont_thermique',
  'ventilation',
  'installation_ecs',
  'generateur_ecs',
  'climatisation',
  'installation_chauffage',
  'generateur_chauffage',
  'emetteur_chauffage',
  'sortie_par_energie',
]);

export class MalformedDpeError extends DpeSimError {
  constructor(message: string) {
    super('blocked', message);
    this.name = 'MalformedDpeError';
  }
}

/** Where and why a text is not well-formed XML. */
export interface XmlSyntaxFault {
  reason: string;
  line: number;
  column: number;
}

class XmlSyntaxError extends Error {
  constructor(readonly fault: XmlSyntaxFault) {
    super(fault.reason);
  }
}

/** saxes, with its errors as data (reason, line, column) rather than a formatted message. */
class StrictParser extends SaxesParser<{ position: true }> {
  override makeError(message: string): Error {
    return new XmlSyntaxError({
      reason: message.replace(/\.$/, ''),
      line: this.line,
      column: this.column,
    });
  }
}

/** The text without its byte-order mark, if any. */
function withoutBom(xml: string): string {
  return xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
}

/** A leaf's text as the engine's parser gives it. */
function leafValue(tag: string, raw: string): unknown {
  const text = raw.trim();
  if (text === '' || tag.startsWith('enum_')) return text;
  const n = Number(text);
  if (!Number.isNaN(n)) return n;
  if (text === 'true') return true;
  if (text === 'false') return false;
  return text;
}

type Obj = Record<string, unknown>;

interface Open {
  tag: string;
  /** the element's children, once it has one */
  obj: Obj | undefined;
  text: string;
}

function attach(parent: Open, tag: string, value: unknown): void {
  const obj = (parent.obj ??= {});
  const prev = obj[tag];
  if (prev === undefined) obj[tag] = COLLECTIONS.has(tag) ? [value] : value;
  else if (Array.isArray(prev)) prev.push(value);
  else obj[tag] = [prev, value];
}

/** The document as the engine's parser shapes it; throws XmlSyntaxError. */
function build(xml: string): Obj {
  const parser = new StrictParser({ position: true });
  const root: Open = { tag: '', obj: {}, text: '' };
  const stack: Open[] = [root];
  let top = root;
  parser.on('opentag', (node) => {
    top = { tag: node.name, obj: undefined, text: '' };
    stack.push(top);
  });
  const onText = (t: string) => {
    top.text += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const done = stack.pop() as Open;
    top = stack[stack.length - 1] as Open;
    let value: unknown;
    if (done.obj === undefined) value = leafValue(done.tag, done.text);
    else {
      value = done.obj;
      const text = leafValue(done.tag, done.text);
      if (text !== '') done.obj['#text'] = text;
    }
    attach(top, done.tag, value);
  });
  parser.write(withoutBom(xml)).close();
  return root.obj as Obj;
}

/** Why `xml` is not well-formed, or undefined when it is. */
export function xmlSyntaxFault(xml: string): XmlSyntaxFault | undefined {
  try {
    const parser = new StrictParser({ position: true });
    parser.write(withoutBom(xml)).close();
    return undefined;
  } catch (err) {
    if (err instanceof XmlSyntaxError) return err.fault;
    throw err;
  }
}

/** "malformed XML: <reason> (line L, column C)" */
export function describeFault(fault: XmlSyntaxFault): string {
  return `malformed XML: ${fault.reason} (line ${fault.line}, column ${fault.column})`;
}

/** Parses DPE XML text. Throws MalformedDpeError (kind `blocked`) with the reason. */
export function parseDpeXml(xml: string): RawDpe {
  if (xml.trim() === '') throw new MalformedDpeError('malformed XML: the document is empty');
  let doc: Obj;
  try {
    doc = build(xml);
  } catch (err) {
    if (err instanceof XmlSyntaxError) throw new MalformedDpeError(describeFault(err.fault));
    throw err;
  }
  const dpe = doc.dpe;
  if (!dpe || typeof dpe !== 'object' || Array.isArray(dpe)) {
    throw new MalformedDpeError('not a DPE document: the root element <dpe> is missing or empty');
  }
  return dpe as RawDpe;
}

const NUMERO_RE = /<numero_dpe>\s*([^<\s]+)\s*<\/numero_dpe>/;

/** The registry number written in the XML, without parsing the whole document. */
export function peekDpeNumber(xml: string): string | undefined {
  return NUMERO_RE.exec(xml.slice(0, 4096))?.[1];
}

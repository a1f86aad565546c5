/**
 * DPE XML → plain object, in exactly the shape the engine's own parser produces
 * (collections always arrays, `enum_*` ids kept as strings, other numeric texts as numbers),
 * so the engine adapter can run on it without parsing again. Malformed XML is reported with
 * the parser's reason and position.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DpeSimError } from '../contract/errors.js';
import type { RawDpe } from './raw.js';

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

const parser = new XMLParser({
  isArray: (name) => COLLECTIONS.has(name),
  tagValueProcessor: (tagName, val) => {
    // enum ids stay strings (the engine looks them up as keys)
    if (tagName.startsWith('enum_')) return null;
    if (Number.isNaN(Number(val))) return val;
    return Number(val);
  },
});

export class MalformedDpeError extends DpeSimError {
  constructor(message: string) {
    super('blocked', message);
    this.name = 'MalformedDpeError';
  }
}

/** Parses DPE XML text. Throws MalformedDpeError (kind `blocked`) with the reason. */
export function parseDpeXml(xml: string): RawDpe {
  if (xml.trim() === '') throw new MalformedDpeError('malformed XML: the document is empty');
  const check = XMLValidator.validate(xml);
  if (check !== true) {
    const { msg, line, col } = check.err;
    const at = [line !== undefined && `line ${line}`, col !== undefined && `column ${col}`]
      .filter(Boolean)
      .join(', ');
    throw new MalformedDpeError(`malformed XML: ${msg}${at ? ` (${at})` : ''}`);
  }
  const doc = parser.parse(xml) as { dpe?: unknown };
  const dpe = doc.dpe;
  if (!dpe || typeof dpe !== 'object') {
    throw new MalformedDpeError('not a DPE document: the root element <dpe> is missing or empty');
  }
  return dpe as RawDpe;
}

const NUMERO_RE = /<numero_dpe>\s*([^<\s]+)\s*<\/numero_dpe>/;

/** The registry number written in the XML, without parsing the whole document. */
export function peekDpeNumber(xml: string): string | undefined {
  return NUMERO_RE.exec(xml.slice(0, 4096))?.[1];
}

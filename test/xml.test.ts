/**
 * dpe-sim's one-pass XML reader (saxes) against the engine's own parser (fast-xml-parser with
 * the engine's options): the same object on every fixture and corpus DPE, so the engine sees
 * exactly what it would have parsed itself; malformed documents refused with reason and place.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { xmlParser } from '@open3cl/engine/utils.js';
import { parseDpeXml, xmlSyntaxFault } from '../src/dpe/xml.js';
import { checkDpeDocument } from '../src/registry/check.js';
import { CORPUS, FIXTURES, HAS_CORPUS, HOUSE } from './helpers.js';

const engineParse = (xml: string): unknown =>
  (xmlParser as { parse(x: string): { dpe: unknown } }).parse(xml).dpe;

const xmlIn = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .map((f) => path.join(dir, f));

describe('parseDpeXml gives the engine parser’s object', () => {
  it.each(xmlIn(FIXTURES))('fixture %s', (file) => {
    const xml = readFileSync(file, 'utf8');
    expect(parseDpeXml(xml)).toStrictEqual(engineParse(xml));
  });

  it('shapes: collections as arrays, enum ids as strings, numbers, booleans, repeats, empties', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<dpe version="2.4"><logement>
  <mur><donnee_entree><enum_type_adjacence_id>1</enum_type_adjacence_id><surface_paroi_opaque> 12.5 </surface_paroi_opaque><description>Mur &apos;nord&apos; &lt;p1&gt;</description><reference xsi:nil="true"></reference></donnee_entree></mur>
  <flag>true</flag><code>007</code><note>1,5</note><x>a</x><x>b</x><empty/>
</logement></dpe>`;
    const dpe = parseDpeXml(xml) as unknown as {
      logement: Record<string, unknown> & { mur: { donnee_entree: Record<string, unknown> }[] };
    };
    expect(dpe).toStrictEqual(engineParse(xml));
    expect(dpe.logement.mur).toHaveLength(1);
    expect(dpe.logement.mur[0]?.donnee_entree).toStrictEqual({
      enum_type_adjacence_id: '1',
      surface_paroi_opaque: 12.5,
      description: "Mur 'nord' <p1>",
      reference: '',
    });
    expect(dpe.logement).toMatchObject({
      flag: true,
      code: 7,
      note: '1,5',
      x: ['a', 'b'],
      empty: '',
    });
  });
});

describe.skipIf(!HAS_CORPUS)('parseDpeXml on the corpus', () => {
  it('every corpus DPE gives the engine parser’s object', () => {
    const files = xmlIn(CORPUS);
    const differ = files.filter((f) => {
      const xml = readFileSync(f, 'utf8');
      try {
        expect(parseDpeXml(xml)).toStrictEqual(engineParse(xml));
        return false;
      } catch {
        return true;
      }
    });
    expect(files.length).toBeGreaterThan(100);
    expect(differ).toEqual([]);
  });
});
if (!HAS_CORPUS)
  console.warn(`corpus not found at ${CORPUS}: parser equality on the corpus skipped`);

describe('malformed XML', () => {
  const cases: [string, string, RegExp][] = [
    [
      'a truncated document',
      readFileSync(HOUSE, 'utf8').slice(0, 2000),
      /^malformed XML: unclosed tag: \w+ \(line \d+, column \d+\)$/,
    ],
    [
      'a wrong closing tag',
      '<dpe>\n<a>1</b></dpe>',
      /^malformed XML: unexpected close tag \(line 2, column 8\)$/,
    ],
    [
      'an undefined entity',
      '<dpe><a>&nbsp;</a></dpe>',
      /^malformed XML: undefined entity \(line 1, column 14\)$/,
    ],
    [
      'text outside the root',
      'not xml at all',
      /^malformed XML: text data outside of root node \(line 1, column \d+\)$/,
    ],
  ];
  it.each(cases)('%s is refused with the reason and the place', (_name, xml, message) => {
    expect(() => parseDpeXml(xml)).toThrow(message);
    expect(xmlSyntaxFault(xml)).toMatchObject({
      line: expect.any(Number),
      column: expect.any(Number),
    });
    expect(checkDpeDocument('0000E0000001H', xml, 'application/xml')).toMatchObject({
      ok: false,
      reason: 'malformed-xml',
    });
  });

  it('an empty document and a document that is not a DPE', () => {
    expect(() => parseDpeXml('  \n')).toThrow('malformed XML: the document is empty');
    expect(() => parseDpeXml('<dpe></dpe>')).toThrow(/^not a DPE document/);
    expect(() => parseDpeXml('<audit><a>1</a></audit>')).toThrow(/^not a DPE document/);
    expect(xmlSyntaxFault(readFileSync(HOUSE, 'utf8'))).toBeUndefined();
  });
});

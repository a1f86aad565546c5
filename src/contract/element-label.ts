/**
 * An element of the dwelling as a person reads it, one way everywhere (an audit's reasons, the
 * terminal's tables, the HTML report, the PDF): the diagnostician's own name for it, taken from
 * the DPE's description up to its " - " before the make-up ("Plancher  2 - Dalle béton non
 * isolée…" → "Plancher 2"), then the element's id (what `calc --works` takes) and, in a sentence,
 * its area. The JSON keeps the whole description.
 */
import { numberText } from './number-text.js';

/**
 * The diagnostician's name for an element: its description up to the first " - ", white space
 * collapsed, `max` characters at most, "…" added where cut: at a word when one ends in the last
 * third (a sentence), or at `max` (`atWord` false: a table cell keeps "Porte-fenêtre 1…" rather
 * than "Porte-fenêtre…"), a split element's part kept ("Mur 1 Nord… (p2)"); empty without a
 * description.
 */
export function elementNameOf(description: string, max = 32, atWord = true): string {
  const text = description.replace(/\s+/g, ' ').trim();
  const cut = text.indexOf(' - ');
  const name = (cut > 0 ? text.slice(0, cut) : text).trim();
  if (name.length <= max) return name;
  if (max < 2) return '';
  // the part of a split element ("Mur 1 Nord, Sud, Ouest (p2)", 105 corpus walls) is what tells it
  // from its siblings: kept at the end of a cut name ("Mur 1 Nord… (p2)"), where a cut lost it
  const part = / \([^()]{1,4}\)$/.exec(name)?.[0] ?? '';
  if (part && max - part.length >= 6)
    return `${shortened(name.slice(0, -part.length), max - part.length, atWord)}${part}`;
  return shortened(name, max, atWord);
}

/** `name` in `max` characters, "…" ending it (it is longer than `max`). */
function shortened(name: string, max: number, atWord: boolean): string {
  const head = name.slice(0, Math.max(1, max - 1));
  const space = atWord ? head.lastIndexOf(' ') : -1;
  const kept = space >= Math.floor((2 * max) / 3) ? head.slice(0, space) : head;
  // "Mur 1 Nord…", not "Mur 1 Nord,…"
  return `${kept.replace(/[\s,;:]+$/, '') || kept}…`;
}

/**
 * An element in a sentence: "Plancher 2 (plancher_bas:1, 10.8 m²)", the name first (what a signer
 * finds in the DPE), then its id and area; the id alone (with its area) without a description.
 */
export function elementLabel(referenceId: string, description: string, area?: number): string {
  const name = elementNameOf(description);
  const areaText = area !== undefined && area > 0 ? `${numberText(area, 1)} m²` : '';
  if (!name) return areaText ? `${referenceId} (${areaText})` : referenceId;
  return `${name} (${[referenceId, areaText].filter(Boolean).join(', ')})`;
}

/**
 * An element in a table cell: "mur:0 Mur 1 Nord", the id then the name, `max` characters in all
 * at most; the id alone when the name would have no room.
 */
export function elementCell(referenceId: string, description: string, max: number): string {
  const room = max - referenceId.length - 1;
  const name = room >= 4 ? elementNameOf(description, room, false) : '';
  return name ? `${referenceId} ${name}` : referenceId;
}

/** An audit works line's `element` ("mur:0 — Mur 1 Nord - Mur en blocs…") in its two parts. */
export function splitElement(element: string): { referenceId: string; description: string } {
  const at = element.indexOf(' — ');
  return at < 0
    ? { referenceId: element.trim(), description: '' }
    : { referenceId: element.slice(0, at).trim(), description: element.slice(at + 3).trim() };
}

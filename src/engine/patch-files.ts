/**
 * The code of the engine patches: real JavaScript files in `patches/` next to this module
 * (`memo/<file>.js`, the memo patches of source-patches.ts; `corrections/<id>.js`, the helpers of
 * the corrections of corrections.ts), each appended to one engine module. Read from
 * src/engine/patches/ when running from the sources, from dist/engine/patches/ when built
 * (scripts/bundle-engine.mjs copies them there: they ship in the package with dist/).
 */
import { existsSync, readFileSync } from 'node:fs';

const PATCHES = new URL('./patches/', import.meta.url);

/**
 * The directive comments at the top of a patch file, for eslint only (`/* global … *\/`: the
 * names of the engine module the file reads; `/* eslint … *\/`: the names the anchors call):
 * left out of the text appended.
 */
const DIRECTIVES = /^(?:\/\*\s*(?:global|eslint)\s[^*]*\*\/\n)+/;

/**
 * The text a patch file appends to its engine module: a new line, then the file without its
 * directive comments. An optional file that does not exist appends nothing ('').
 */
export function patchFileText(
  kind: 'memo' | 'corrections',
  name: string,
  optional = false,
): string {
  const url = new URL(`${kind}/${name}.js`, PATCHES);
  if (optional && !existsSync(url)) return '';
  return `\n${readFileSync(url, 'utf8').replace(DIRECTIVES, '')}`;
}

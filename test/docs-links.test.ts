/**
 * Every relative link of README.md and docs/*.md leads to a file of the repository (issue 38:
 * two pages linked to docs/docs/…). Web links are not followed (no network in tests); an anchor
 * is checked against the headings of the page it points to.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const PAGES = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1] as string)));
}

/** [text](target) outside code blocks and inline code. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^()\s]+)\)/g)].map((m) => m[1] as string);
}

describe('links in README.md and docs/', () => {
  it(`every relative link resolves (${PAGES.length} pages)`, () => {
    const dead: string[] = [];
    let count = 0;
    for (const page of PAGES) {
      const from = path.join(ROOT, page);
      for (const link of linksOf(readFileSync(from, 'utf8'))) {
        if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
        count++;
        const [target = '', hash] = link.split('#');
        const file = target === '' ? from : path.resolve(path.dirname(from), target);
        if (!existsSync(file)) dead.push(`${page}: ${link} (no ${path.relative(ROOT, file)})`);
        else if (hash && file.endsWith('.md') && !anchorsOf(file).has(hash))
          dead.push(`${page}: ${link} (no heading #${hash})`);
      }
    }
    expect(dead).toEqual([]);
    expect(count).toBeGreaterThan(40);
  });
});

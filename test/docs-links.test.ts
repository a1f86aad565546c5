/**
 * Every relative link of README.md and docs/*.md leads to a file of the repository (issue 38:
 * two pages linked to docs/docs/…). Web links are not followed (no network in tests); an anchor
 * is checked against the headings of the page it points to. And what the README links to and
 * what the output names (`docs/bills.md` in a bill's source) ships in the npm package.
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

/** Whether the package ships a file: it is, or lies under, an entry of package.json "files". */
function shipped(file: string): boolean {
  const files = (
    JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      files: string[];
    }
  ).files;
  return files.some((entry) => file === entry || file.startsWith(`${entry}/`));
}

describe('what a user reads ships in the package', () => {
  it('every file the README links to, and every docs page the source names', () => {
    const named = new Set<string>();
    for (const link of linksOf(readFileSync(path.join(ROOT, 'README.md'), 'utf8')))
      if (!/^[a-z]+:/i.test(link)) named.add(link.split('#')[0] as string);
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
      );
    for (const file of walk(path.join(ROOT, 'src')))
      for (const m of readFileSync(file, 'utf8').matchAll(/docs\/[a-z-]+\.md/g)) named.add(m[0]);
    // (the audit's bill source names it: src/simulation/audit/content.ts)
    expect(named).toContain('docs/bills.md');
    expect([...named].filter((f) => !shipped(f))).toEqual([]);
  });
});

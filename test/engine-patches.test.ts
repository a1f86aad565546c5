/**
 * The engine patches as code (src/engine/patches/, docs/engine.md "Engine patches as code"): the
 * module-load hook applies every memo patch and every correction to the pinned engine, none
 * skipped (a memo patch whose anchor is not found, or whose marker text another file's code
 * already holds, would be skipped silently); every file in patches/ is some patch's code, and
 * what it appends is the file without its eslint directive lines.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sourcePatches, sourcePatchHooks } from '../src/engine/source-patches.js';
import { ROOT, tempDir } from './helpers.js';

const run = promisify(execFile);
const PATCHES = path.join(ROOT, 'src', 'engine', 'patches');

describe('engine patches as code', () => {
  it('the module-load hook applies every patch to the pinned engine, in order, none skipped', async () => {
    const patches = sourcePatches();
    const dir = tempDir();
    writeFileSync(path.join(dir, 'hooks.mjs'), sourcePatchHooks(patches));
    const modules = [...new Set(patches.map((p) => p.suffix))];
    // each module as the hook makes it, in a process of its own (the hook is a module)
    const script = `import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const { load } = await import(pathToFileURL(${JSON.stringify(path.join(dir, 'hooks.mjs'))}).href);
const out = {};
for (const suffix of ${JSON.stringify(modules)}) {
  const url = pathToFileURL(${JSON.stringify(path.join(ROOT, 'node_modules'))} + suffix).href;
  const source = readFileSync(new URL(url), 'utf8');
  out[suffix] = (await load(url, {}, async () => ({ source, format: 'module' }))).source;
}
console.log(JSON.stringify(out));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    const hooked = JSON.parse(stdout) as Record<string, string>;
    for (const suffix of modules) {
      let expected = readFileSync(path.join(ROOT, 'node_modules', suffix), 'utf8');
      for (const p of patches.filter((q) => q.suffix === suffix)) {
        for (const [from, to] of p.replace) {
          const at = expected.indexOf(from);
          expect(at, `${p.marker}: ${from.slice(0, 40)}`).toBeGreaterThanOrEqual(0);
          expect(expected.indexOf(from, at + from.length), p.marker).toBe(-1);
          expected = expected.slice(0, at) + to + expected.slice(at + from.length);
        }
        expected += p.append;
      }
      expect(hooked[suffix] === expected, suffix).toBe(true);
    }
    expect(modules.length).toBeGreaterThanOrEqual(15);
  });

  it('every file in src/engine/patches/ is the code of one patch, appended without its directives', () => {
    const patches = sourcePatches();
    const files = readdirSync(PATCHES, { recursive: true })
      .map((f) => String(f).split(path.sep).join('/'))
      .filter((f) => f.endsWith('.js'))
      .sort();
    const used = patches.flatMap((p) => (p.file ? [p.file] : [])).sort();
    expect(used).toEqual(files);
    for (const p of patches.filter((q) => q.file)) {
      const text = readFileSync(path.join(PATCHES, p.file as string), 'utf8');
      expect(p.append.startsWith('\n'), p.file).toBe(true);
      expect(p.append).not.toMatch(/^\/\* (global|eslint) /m);
      // the file's code, whole, after its directive lines
      const code = text.replace(/^(\/\* (global|eslint) [^\n]*\n)+/, '');
      expect(p.append.startsWith(`\n${code}`), p.file).toBe(true);
    }
  });
});

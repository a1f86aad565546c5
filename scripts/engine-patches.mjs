// Writes each correction of src/engine/corrections.ts (its anchors, and its helpers in
// src/engine/patches/corrections/<id>.js) as a plain unified diff against the
// engine's published sources (node_modules/@open3cl/engine, pinned 1.4.6; the package's modules
// are the repository's src/ files), in patches/open3cl/<id>.diff, so that it can be proposed to
// the engine's project as is (`git apply -p1` from the engine's repository root, or `patch -p1`),
// beside its patches/open3cl/<id>.README.md (fault, method section, DPEs, before/after).
//   node scripts/engine-patches.mjs           writes the diffs
//   node scripts/engine-patches.mjs --check   exits 1 when a diff differs from the corrections
// Run after `npm run build` (it imports dist/engine/corrections.js, which reads
// dist/engine/patches/corrections/).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENGINE = path.join(ROOT, 'node_modules', '@open3cl', 'engine');
const OUT = path.join(ROOT, 'patches', 'open3cl');
const { CORRECTIONS, correctionAppend } = await import(
  pathToFileURL(path.join(ROOT, 'dist', 'engine', 'corrections.js')).href
);
const check = process.argv.includes('--check');

const work = mkdtempSync(path.join(tmpdir(), 'engine-patches-'));
let stale = 0;
mkdirSync(OUT, { recursive: true });
for (const c of CORRECTIONS) {
  const original = readFileSync(path.join(ENGINE, c.module), 'utf8');
  let source = original;
  for (const [from, to] of c.replace) {
    const at = source.indexOf(from);
    if (at < 0 || source.indexOf(from, at + from.length) >= 0)
      throw new Error(`${c.id}: "${from}" is not found exactly once in ${c.module}`);
    source = source.slice(0, at) + to + source.slice(at + from.length);
  }
  source += correctionAppend(c);
  const a = path.join(work, `${c.id}.orig.js`);
  const b = path.join(work, `${c.id}.js`);
  writeFileSync(a, original);
  writeFileSync(b, source);
  const r = spawnSync(
    'diff',
    ['-u', '--label', `a/src/${c.module}`, '--label', `b/src/${c.module}`, a, b],
    { encoding: 'utf8' },
  );
  if (r.status !== 1) throw new Error(`${c.id}: diff failed (${r.stderr || r.status})`);
  const diff = r.stdout;
  const file = path.join(OUT, `${c.id}.diff`);
  if (check) {
    if (!existsSync(file) || readFileSync(file, 'utf8') !== diff) {
      console.log(`stale: patches/open3cl/${c.id}.diff`);
      stale++;
    }
    if (!existsSync(path.join(OUT, `${c.id}.README.md`))) {
      console.log(`missing: patches/open3cl/${c.id}.README.md`);
      stale++;
    }
  } else {
    writeFileSync(file, diff);
    console.log(`wrote patches/open3cl/${c.id}.diff`);
  }
}
if (check) {
  console.log(`${CORRECTIONS.length} corrections, ${stale} stale`);
  process.exit(stale ? 1 : 0);
}

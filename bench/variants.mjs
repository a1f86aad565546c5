// Distinct DPE inputs for benchmarks: N variants of the corpus DPEs that no cache can answer.
// Variant i is corpus file i mod n (files sorted), with:
// - its own registry number, 9999E<i, 7 digits><last letter of the original> (no two alike, and
//   none in the registry's range), so that nothing keyed by DPE number answers;
// - every wall, window and door area (surface_paroi_opaque, surface_paroi_totale,
//   surface_totale_baie, surface_porte) scaled by a factor of its own in [0.9, 1.1) (i × the
//   golden ratio, mod 1: no two variants share one), so that nothing keyed by content answers
//   and the engine's figures differ;
// - orientations (enum_orientation_id 1–4: S, N, E, W) turned by i mod 4 quarter steps.
// The living area and everything else stay as they are: variants are as valid for the engine as
// their originals (`--check` runs the bare engine on both and compares failures).
//
//   node bench/variants.mjs N [OUT_DIR] [--check]
//
// Writes OUT_DIR/<registry number>.xml (a new temp dir by default) and a list file OUT_DIR/list.txt;
// prints the directory. As a module: `writeVariants(n, { outDir, corpus })` → file paths.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'dpe');
const GOLDEN = (Math.sqrt(5) - 1) / 2;
const AREAS = [
  'surface_paroi_opaque',
  'surface_paroi_totale',
  'surface_totale_baie',
  'surface_porte',
];

export function corpusFiles(dir = existsSync(CORPUS) ? CORPUS : path.join(ROOT, 'fixtures')) {
  return readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.xml'))
    .sort()
    .map((f) => path.join(dir, f));
}

/** The scale factor of variant i: distinct for every i, in [0.9, 1.1). */
export function scaleOf(i) {
  return 0.9 + 0.2 * (((i + 1) * GOLDEN) % 1);
}

/** Variant i of one DPE's XML text. */
export function variantXml(xml, i) {
  const factor = scaleOf(i);
  const turn = i % 4;
  let out = xml.replace(
    /<numero_dpe>\s*([0-9]{4}E[0-9]{7}([A-Z]))?[^<]*<\/numero_dpe>/,
    (_m, _n, letter) =>
      `<numero_dpe>9999E${String(i).padStart(7, '0')}${letter ?? 'X'}</numero_dpe>`,
  );
  for (const tag of AREAS) {
    out = out.replace(new RegExp(`<${tag}>\\s*([0-9.eE+-]+)\\s*</${tag}>`, 'g'), (m, v) => {
      const x = Number(v);
      return Number.isFinite(x) ? `<${tag}>${(x * factor).toFixed(4)}</${tag}>` : m;
    });
  }
  if (turn) {
    out = out.replace(/<enum_orientation_id>\s*([1-4])\s*<\/enum_orientation_id>/g, (_m, v) => {
      const o = ((Number(v) - 1 + turn) % 4) + 1;
      return `<enum_orientation_id>${o}</enum_orientation_id>`;
    });
  }
  return out;
}

/** Writes n variants (of `files`, in turn) to outDir; returns their paths (and list.txt). */
export function writeVariants(n, { outDir, files = corpusFiles() } = {}) {
  const dir = outDir ?? mkdtempSync(path.join(os.tmpdir(), 'dpe-sim-variants-'));
  mkdirSync(dir, { recursive: true });
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const paths = [];
  for (let i = 0; i < n; i++) {
    const xml = variantXml(texts[i % texts.length], i);
    const number = /<numero_dpe>([^<]*)<\/numero_dpe>/.exec(xml)?.[1];
    const file = path.join(dir, `${number ?? `9999E${String(i).padStart(7, '0')}X`}.xml`);
    writeFileSync(file, xml);
    paths.push(file);
  }
  writeFileSync(path.join(dir, 'list.txt'), `${paths.join('\n')}\n`);
  return { dir, paths, list: path.join(dir, 'list.txt') };
}

/** Runs the bare engine on a list file; returns its JSON report. */
export function bareEngine(listOrFile) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bench', 'bare-engine.mjs'), listOrFile], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`bare-engine.mjs exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const n = Number(args[0]);
  if (!Number.isInteger(n) || n <= 0) {
    process.stderr.write('usage: node bench/variants.mjs N [OUT_DIR] [--check]\n');
    process.exit(2);
  }
  const outDir = args[1] && !args[1].startsWith('--') ? args[1] : undefined;
  const { dir, paths, list } = writeVariants(n, { outDir });
  console.log(dir);
  if (args.includes('--check')) {
    const files = corpusFiles();
    const originals = path.join(dir, 'originals.txt');
    writeFileSync(originals, paths.map((_, i) => files[i % files.length]).join('\n'));
    const a = bareEngine(originals);
    const b = bareEngine(list);
    const distinct = new Set(Object.values(b.figures).map((f) => JSON.stringify(f))).size;
    console.log(
      `bare engine: originals ${a.failed}/${a.items} failed, variants ${b.failed}/${b.items} failed; ` +
        `${distinct} distinct figure triples among ${b.items} variants`,
    );
  }
}

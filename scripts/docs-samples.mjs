#!/usr/bin/env node
// Writes the sample outputs shown in README.md and docs/*.md from the built CLI, so that they
// cannot go stale:
//   npm run docs:samples            rewrites every sample block in place
//   node scripts/docs-samples.mjs --check   exits 1 and prints the first difference when a
//                                   block differs from what the command prints now (test/docs-samples.test.ts)
// A sample block is written in a page as
//   <!-- sample: pre fixtures/0000E0000001H.xml -->
//
//   ```text
//   …what `dpe-sim pre fixtures/0000E0000001H.xml` prints…
//   ```
//
//   <!-- /sample -->
// (`<!-- sample: initial X | from Recommended scenarios -->` keeps the screen from the first line
// that starts with that text; `<!-- sample: audit X --json | json a,b.c,d.0 -->` keeps these
// fields of the JSON printed, each under its path). Each command runs in a 100-column pseudo-terminal (util-linux `script`), without colour, in a
// fresh data directory, from the project root; volatile values (login tokens, simulation ids)
// are masked and the progress line is dropped, so that a sample is a function of the code.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'dpe-sim.js');
const COLUMNS = 100;
const check = process.argv.includes('--check');

const BLOCK = /<!-- sample: (.+?) -->\n\n?```text\n([\s\S]*?)```\n\n?<!-- \/sample -->/g;
const quote = (a) => `'${a.replace(/'/g, "'\\''")}'`;

/** What a user sees on a 100-column terminal for `dpe-sim <args>`. */
export function screenOf(args) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dpe-sim-sample-'));
  try {
    const argv = args.split(' ').filter(Boolean);
    const command = `stty cols ${COLUMNS} rows 50; exec ${[process.execPath, BIN, ...argv].map(quote).join(' ')}`;
    const r = spawnSync('script', ['-qfec', command, '/dev/null'], {
      cwd: ROOT,
      encoding: 'utf8',
      input: '',
      env: {
        ...process.env,
        DPE_SIM_DATA_DIR: dataDir,
        DPE_SIM_CONFIG_DIR: path.join(dataDir, 'config'),
        NO_COLOR: '1',
        FORCE_COLOR: undefined,
        TERM: 'xterm-256color',
      },
    });
    if (r.error) throw r.error;
    return clean(r.stdout);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function clean(raw) {
  return (
    raw
      .split('\n')
      // a progress line is redrawn with a carriage return: what stays on screen is its last part
      .map((l) => stripVTControlCharacters(l.replace(/\r$/, '')).split('\r').at(-1) ?? '')
      .map((l) => l.replace(/(partnerToken=)[\w-]+/g, '$1…').replace(/\bsim_[\w-]+/g, 'sim_…'))
      .map((l) => l.replace(/\s+$/, ''))
      .join('\n')
      .replace(/\n+$/, '\n')
  );
}

function pages() {
  const docs = path.join(ROOT, 'docs');
  return [
    path.join(ROOT, 'README.md'),
    ...readdirSync(docs)
      .filter((f) => f.endsWith('.md'))
      .map((f) => path.join(docs, f)),
  ];
}

/** The fields of a JSON output, each under its dotted path (`proposals.1.steps.0`). */
function pickJson(text, paths) {
  const doc = JSON.parse(text);
  const out = {};
  for (const p of paths) out[p] = p.split('.').reduce((v, k) => v?.[k], doc) ?? null;
  return `${JSON.stringify(out, null, 2)}\n`;
}

let stale = 0;
let blocks = 0;
for (const file of pages()) {
  const text = readFileSync(file, 'utf8');
  const updated = text.replace(BLOCK, (_m, args, old) => {
    blocks++;
    // `initial X | from Recommended scenarios`: the screen from the first line that starts so
    const [head, fields] = args.split(' | json ');
    const [command, from] = head.split(' | from ');
    let now = screenOf(command);
    if (fields) now = pickJson(now, fields.split(','));
    if (from)
      now = now.slice(
        Math.max(0, now.search(new RegExp(`^${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'))),
      );
    if (now !== old) {
      stale++;
      if (check) {
        const a = old.split('\n');
        const b = now.split('\n');
        const i = a.findIndex((l, k) => l !== b[k]);
        console.error(
          `${path.relative(ROOT, file)}: sample "dpe-sim ${args}" differs from what it prints now, at line ${i + 1}:\n` +
            `  in the page: ${JSON.stringify(a[i])}\n  printed:     ${JSON.stringify(b[i])}`,
        );
      }
    }
    return `<!-- sample: ${args} -->\n\n\`\`\`text\n${now}\`\`\`\n\n<!-- /sample -->`;
  });
  if (!check && updated !== text) writeFileSync(file, updated);
}
if (check) {
  console.log(`${blocks} samples, ${stale} stale`);
  process.exit(stale ? 1 : 0);
} else {
  console.log(`${blocks} samples written, ${stale} changed (npm run docs:samples)`);
}

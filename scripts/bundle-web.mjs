// The workbench's browser files (issue 37): src/web/main.tsx (Preact) bundled and minified
// into dist/web/workbench.js, src/web/workbench.css and its icon copied beside it. The server serves
// them at /public/workbench.js and /public/workbench.css (src/server/login-page.ts): one
// script, one style sheet, nothing inline and nothing from elsewhere. Prints the shipped size
// gzipped and fails above 100 KB. Run by `npm run build`.
import { build } from 'esbuild';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'web');
const LIMIT = 100 * 1024;

await mkdir(OUT, { recursive: true });
await build({
  entryPoints: [path.join(ROOT, 'src', 'web', 'main.tsx')],
  outfile: path.join(OUT, 'workbench.js'),
  absWorkingDir: ROOT,
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: path.join(ROOT, 'tsconfig.web.json'),
  legalComments: 'none',
  logLevel: 'warning',
});
for (const name of ['workbench.css', 'workbench.svg']) {
  await copyFile(path.join(ROOT, 'src', 'web', name), path.join(OUT, name));
}

let total = 0;
for (const name of ['workbench.js', 'workbench.css']) {
  total += gzipSync(await readFile(path.join(OUT, name))).length;
}
if (total > LIMIT) {
  console.error(`dist/web: ${(total / 1024).toFixed(1)} KB gzipped, over the 100 KB budget`);
  process.exit(1);
}
if (process.env.DPE_SIM_WEB_SIZE) console.log(`dist/web: ${(total / 1024).toFixed(1)} KB gzipped`);

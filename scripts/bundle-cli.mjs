// The CLI bundle: dist/cli/main.js (the command line), dist/backend/engine-worker.js (an engine
// thread) and dist/batch/worker.js (a batch thread) with everything they import, dpe-sim's own
// modules and its pure-JavaScript dependencies, as a few ES modules in dist/bundle/ (issue 26).
// Loading ~240 modules one by one (resolution, a file open and a compile each, the CommonJS
// lexer for commander and its kind) was most of a command's start-up; a bundle is a handful of
// files. Code splitting keeps every `await import(…)` of the sources a chunk of its own, so a
// command still loads only what it runs (`--help` loads no engine, schema, store or renderer:
// test/cli-startup.test.ts reads dist/bundle/inputs.json to check it).
//
// Each module keeps its own `import.meta.url` (rewritten to the URL of its file in dist/), so
// the paths it computes from it (the engine bundle, the worker entries, fixtures/) are the same
// bundled or not. Left outside: the native module (better-sqlite3), the packages that start
// their own workers or load files by path (piscina, the server's and the queue's), the engine
// (dist/engine/open3cl.bundle.js, built by bundle-engine.mjs, loaded at run time). Run after
// `tsc` (npm run build).
import { build } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const OUT = path.join(DIST, 'bundle');

/** `import.meta.url` of a module of dist/ stays its own file's URL inside the bundle. */
/** @type {import('esbuild').Plugin} */
const ownImportMetaUrl = {
  name: 'dpe-sim-own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.c?js$/ }, async (args) => {
      if (!args.path.startsWith(DIST + path.sep)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const rel = path.relative(OUT, args.path).split(path.sep).join('/');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(rel)}, import.meta.url).href`,
        ),
        loader: 'js',
      };
    });
  },
};

await rm(OUT, { recursive: true, force: true });
const result = await build({
  entryPoints: {
    cli: path.join(DIST, 'cli', 'main.js'),
    'engine-worker': path.join(DIST, 'backend', 'engine-worker.js'),
    'batch-worker': path.join(DIST, 'batch', 'worker.js'),
  },
  absWorkingDir: ROOT,
  outdir: OUT,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'eof',
  metafile: true,
  external: [
    'better-sqlite3',
    'piscina',
    '@open3cl/engine',
    '@open3cl/engine/*',
    'fastify',
    '@fastify/*',
    'pg',
    'graphile-worker',
    'playwright-core',
    // reads its standard fonts' metrics (AFM files) from its own folder at run time
    'pdfkit',
    'esbuild',
  ],
  // CommonJS dependencies (commander, cli-table3, …) require Node's own modules
  banner: {
    js: "import { createRequire as __dpeSimCreateRequire } from 'node:module'; const require = __dpeSimCreateRequire(import.meta.url);",
  },
  plugins: [ownImportMetaUrl],
});

// what each output file holds (dist-relative paths), for the start-up test
const inputs = {};
for (const [out, meta] of Object.entries(result.metafile.outputs)) {
  inputs[path.basename(out)] = Object.keys(meta.inputs).map((p) =>
    path.relative(ROOT, path.resolve(ROOT, p)).split(path.sep).join('/'),
  );
}
await writeFile(path.join(OUT, 'inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);

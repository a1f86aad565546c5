// The engine bundle: dist/engine/open3cl-modules.js (the engine modules the adapter uses) and
// everything it imports (the engine, lodash, winston; mathjs replaced, see below) in one ES module,
// dist/engine/open3cl.bundle.js, with the memo patches of src/engine/source-patches.ts applied
// to the engine's sources as they are read, then the corrections of src/engine/corrections.ts
// (their code: src/engine/patches/, copied to dist/engine/patches/ first, which the module-load
// hook of dist/ reads too; a file there that no patch uses stops the build). One file loads in
// ~0.27 s where the 1,700 modules
// take ~0.65 s, in every process and every worker thread. Run after `tsc` (npm run build).
// Fails when a patch does not apply: the bundle then would lose the table memo or a correction silently.
import { build, transform } from 'esbuild';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist', 'engine');
// the patches' code, beside dist/engine/source-patches.js which reads it
const PATCH_FILES = path.join(DIST, 'patches');
await rm(PATCH_FILES, { recursive: true, force: true });
await cp(path.join(ROOT, 'src', 'engine', 'patches'), PATCH_FILES, { recursive: true });
const { sourcePatches } = await import(pathToFileURL(path.join(DIST, 'source-patches.js')).href);
const SOURCE_PATCHES = sourcePatches();
const used = new Set(SOURCE_PATCHES.map((p) => p.file).filter(Boolean));
const unused = (await readdir(PATCH_FILES, { recursive: true }))
  .map((f) => f.split(path.sep).join('/'))
  .filter((f) => f.endsWith('.js') && !used.has(f));
if (unused.length) {
  console.error(`engine bundle: patch files no patch uses: ${unused.join(', ')}`);
  process.exit(1);
}

const applied = new Set();
/** @type {import('esbuild').Plugin} */
const patches = {
  name: 'dpe-sim-engine-patches',
  setup(b) {
    b.onLoad({ filter: /[\\/]@open3cl[\\/]engine[\\/].*\.js$/ }, async (args) => {
      const file = args.path.split(path.sep).join('/');
      const mine = SOURCE_PATCHES.filter((p) => file.endsWith(p.suffix));
      if (!mine.length) return undefined;
      let source = await readFile(args.path, 'utf8');
      for (const patch of mine) {
        for (const [from, to] of patch.replace) {
          const at = source.indexOf(from);
          if (at < 0 || source.indexOf(from, at + from.length) >= 0)
            throw new Error(
              `engine ${patch.correction ? 'correction' : 'patch'} ${patch.marker} (${patch.suffix}): "${from}" is not found exactly once`,
            );
          source = source.slice(0, at) + to + source.slice(at + from.length);
        }
        source += patch.append;
        applied.add(patch.marker);
      }
      return { contents: source, loader: 'js' };
    });
  },
};

// The engine's one use of mathjs (evaluate() of its boiler table's formulas) goes to
// dist/engine/formula.js, our evaluator of that grammar: mathjs's typed functions took most of
// the bundle's load time. test/formula.test.ts proves the two equal on every formula.
/** @type {import('esbuild').Plugin} */
const noMathjs = {
  name: 'dpe-sim-formula-for-mathjs',
  setup(b) {
    b.onResolve({ filter: /^mathjs$/ }, () => ({ path: path.join(DIST, 'formula.js') }));
  },
};

// The engine's logger: winston, silenced by dpe-sim as soon as the engine loads (engine.ts), so
// the bundle gets dist/engine/silent-logger.js instead, a logger that writes nothing without
// winston's streams (about 350 KB and a quarter of the bundle's load time).
/** @type {import('esbuild').Plugin} */
const silentLogger = {
  name: 'dpe-sim-silent-logger',
  setup(b) {
    b.onResolve({ filter: /^winston$/ }, () => ({ path: path.join(DIST, 'silent-logger.js') }));
  },
};

// The engine's tables (tv.js: 2.7 MB of one object literal) as JSON.parse of one string: V8
// reads JSON several times faster than the same object written as JavaScript, and the tables
// are pure data (checked here: objects, arrays, strings, finite numbers; no -0).
const TABLES = /[\\/]@open3cl[\\/]engine[\\/]tv\.js$/;
/** @type {import('esbuild').Plugin} */
const tablesAsJson = {
  name: 'dpe-sim-tables-as-json',
  setup(b) {
    b.onLoad({ filter: TABLES }, async (args) => {
      const mod = await import(pathToFileURL(args.path).href);
      const exports = Object.keys(mod).sort().join(',');
      if (exports !== 'default,tvs' || mod.default !== mod.tvs)
        throw new Error(`engine tables ${args.path}: unexpected exports ${exports}`);
      assertData(mod.tvs, 'tvs');
      const json = JSON.stringify(mod.tvs);
      return {
        contents: `export const tvs = JSON.parse(${JSON.stringify(json)});\nexport default tvs;\n`,
        loader: 'js',
      };
    });
  },
};

/** Throws unless `v` survives JSON as itself. */
function assertData(v, at) {
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || Object.is(v, -0)) throw new Error(`engine tables: ${at} is ${v}`);
    return;
  }
  if (Array.isArray(v)) {
    v.forEach((x, i) => assertData(x, `${at}[${i}]`));
    return;
  }
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    for (const [k, x] of Object.entries(v)) assertData(x, `${at}.${k}`);
    return;
  }
  throw new Error(`engine tables: ${at} is not data (${typeof v})`);
}

const BANNER =
  "import { createRequire as __dpeSimCreateRequire } from 'node:module'; const require = __dpeSimCreateRequire(import.meta.url);";

await build({
  entryPoints: [path.join(DIST, 'open3cl-modules.js')],
  outfile: path.join(DIST, 'open3cl.bundle.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'eof',
  // CommonJS dependencies (winston) require Node's own modules: give the bundle a `require`
  banner: { js: BANNER },
  plugins: [patches, noMathjs, silentLogger, tablesAsJson],
});
const missing = SOURCE_PATCHES.filter((p) => !applied.has(p.marker)).map(
  (p) => `${p.marker} (${p.suffix})`,
);
if (missing.length) {
  console.error(`engine bundle: patches not applied: ${missing.join(', ')}`);
  process.exit(1);
}

// The same bundle as a script: esbuild's conversion to a function expression (its exports
// returned; its imports of Node's modules `require` calls) inside a strict function, which
// the adapter compiles with `vm.Script` and V8's code cache (src/engine/engine.ts; Node 20 has no
// code cache for ES modules). The cache itself is made after the CLI bundle
// (scripts/engine-code-cache.mjs): it is V8's compiled code for this very text.
const esm = await readFile(path.join(DIST, 'open3cl.bundle.js'), 'utf8');
if (!esm.startsWith(BANNER)) {
  console.error('engine bundle: the banner is not where the script conversion expects it');
  process.exit(1);
}
const { code } = await transform(esm.slice(BANNER.length), {
  format: 'iife',
  globalName: '__dpeSimEngine',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'eof',
  define: {
    'import.meta.url': '__dpeSimMetaUrl',
    'import.meta.resolve': '__dpeSimMetaResolve',
  },
});
await writeFile(
  path.join(DIST, 'open3cl.bundle.script.js'),
  `(function (require, __dpeSimMetaUrl, __dpeSimMetaResolve) {'use strict';\n${code}\nreturn __dpeSimEngine;\n})`,
);
// a cache made for an earlier text would be rejected: made again by engine-code-cache.mjs
await rm(path.join(DIST, 'open3cl.bundle.cache'), { force: true });

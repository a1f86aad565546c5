// V8's code cache for the engine script (dist/engine/open3cl.bundle.script.js, made by
// bundle-engine.mjs): the engine is loaded from the script, run on the bundled sample DPEs (so
// that the cache holds the functions a run compiles, not only the script's top level), and the
// cache is written to dist/engine/open3cl.bundle.cache, which src/engine/engine.ts gives V8
// when it compiles the script. Made with the flags the engine runs with (the adapter sets them
// before loading): V8 rejects a cache made under other flags or by another version, and the
// adapter then compiles as without it. Run after `tsc` and bundle-engine.mjs (npm run build).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
const { loadEngine, engineCodeCache } = await dist('engine/engine.js');
const { readDpeFile } = await dist('dpe/source.js');
const { prepare } = await dist('simulation/prepared.js');

const engine = await loadEngine();
for (const f of ['0000E0000001H.xml', '0000E0000002F.xml', '0000E0000003T.xml']) {
  const prep = prepare(engine, await readDpeFile(path.join(ROOT, 'fixtures', f)));
  if (!prep.ok) throw new Error(`engine code cache: the sample ${f} does not run`);
}
const data = engineCodeCache();
if (!data) throw new Error('engine code cache: the engine was not loaded from its script');
await writeFile(path.join(ROOT, 'dist', 'engine', 'open3cl.bundle.cache'), data);

/**
 * The commands that only print (`--help`, `--version`, a command's help, `completion`) load
 * nothing of the engine, the schemas (TypeBox: 373 modules), the store or the renderers: the
 * built bin is run with a module hook that lists every ES module it loads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './helpers.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('dpe-sim-startup-');
  writeFileSync(
    path.join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.DPE_SIM_TEST_LOADED, url + '\\n');
  return next(url, context);
}
`,
  );
  writeFileSync(
    path.join(dir, 'register.mjs'),
    `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});
`,
  );
});

async function loadedBy(args: string[]): Promise<string[]> {
  const list = path.join(dir, `${args.join('_').replace(/\W/g, '')}.txt`);
  writeFileSync(list, '');
  const r = await runCli(args, {
    env: {
      NODE_OPTIONS: `--import ${pathToFileURL(path.join(dir, 'register.mjs')).href}`,
      DPE_SIM_TEST_LOADED: list,
    },
  });
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(list, 'utf8').split('\n').filter(Boolean);
}

/**
 * The modules of dpe-sim and of its dependencies in what a process loaded: a file of the CLI
 * bundle (dist/bundle/, scripts/bundle-cli.mjs) stands for the modules it holds
 * (dist/bundle/inputs.json, written by the build), any other file for itself.
 */
function modulesIn(loaded: string[]): string[] {
  const inputs = JSON.parse(
    readFileSync(path.join(ROOT, 'dist', 'bundle', 'inputs.json'), 'utf8'),
  ) as Record<string, string[]>;
  return loaded.flatMap((u) => {
    const m = /\/dist\/bundle\/([^/]+\.js)$/.exec(u);
    if (!m) return [u];
    const held = inputs[m[1] as string];
    if (!held) throw new Error(`${u} is not in dist/bundle/inputs.json`);
    return held.map((p) => `/${p}`);
  });
}

describe('start-up of the commands that only print', () => {
  for (const args of [['--help'], ['--version'], ['pre', '--help'], ['completion', 'bash']]) {
    it(`dpe-sim ${args.join(' ')} loads no engine, schema, store or renderer`, async () => {
      const loaded = await loadedBy(args);
      // the bundle: a handful of files, not one per module
      expect(loaded.some((u) => u.endsWith('/dist/bundle/cli.js'))).toBe(true);
      expect(loaded.filter((u) => u.includes('/dist/bundle/')).length).toBeLessThan(20);
      const modules = modulesIn(loaded);
      // the hook sees the CLI's own modules: the list is real
      expect(modules.some((u) => u.endsWith('/dist/cli/main.js'))).toBe(true);
      expect(modules.some((u) => u.endsWith('/dist/cli/commands/pre.js'))).toBe(true);
      const heavy = modules.filter((u) =>
        /\/node_modules\/(typebox|@open3cl|better-sqlite3|fastify|cli-table3|conf|ajv)\/|\/dist\/(engine|contract\/schemas|contract\/classes|store|backend|simulation|cli\/render)\//.test(
          u,
        ),
      );
      expect(heavy).toEqual([]);
      expect(modules.length).toBeLessThan(60);
    });
  }

  it('dpe-sim pre loads its engine thread from the bundle: one file for the thread, not ~100 modules', async () => {
    const loaded = await loadedBy([
      'pre',
      path.join(ROOT, 'fixtures', '0000E0000001H.xml'),
      '--json',
    ]);
    expect(loaded.some((u) => u.endsWith('/dist/bundle/engine-worker.js'))).toBe(true);
    const modules = modulesIn(loaded);
    expect(modules.some((u) => u.endsWith('/dist/simulation/pre.js'))).toBe(true);
    // the configuration is read without conf and its JSON schema validator
    expect(modules.filter((u) => /\/node_modules\/(conf|ajv)\//.test(u))).toEqual([]);
    // nothing of dist/ is loaded as an ES module of its own (the worker entry is required): the
    // engine is compiled from its script form with V8's code cache (src/engine/engine.ts)
    const dist = `${pathToFileURL(ROOT).href}/dist/`;
    const ownFiles = loaded.filter((u) => u.startsWith(dist) && !u.startsWith(`${dist}bundle/`));
    expect(ownFiles).toEqual([]);
  });
});

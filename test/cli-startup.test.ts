/**
 * The commands that only print (`--help`, `--version`, a command's help, `completion`) load
 * nothing of the engine, the schemas (TypeBox: 373 modules), the store or the renderers: the
 * built bin is run with a module hook that lists every ES module it loads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

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

describe('start-up of the commands that only print', () => {
  for (const args of [['--help'], ['--version'], ['pre', '--help'], ['completion', 'bash']]) {
    it(`dpe-sim ${args.join(' ')} loads no engine, schema, store or renderer`, async () => {
      const loaded = await loadedBy(args);
      // the hook sees the CLI's own modules: the list is real
      expect(loaded.some((u) => u.endsWith('/dist/cli/main.js'))).toBe(true);
      const heavy = loaded.filter((u) =>
        /\/node_modules\/(typebox|@open3cl|better-sqlite3|fastify|cli-table3)\/|\/dist\/(engine|contract\/schemas|contract\/classes|store|backend|simulation|cli\/render)\//.test(
          u,
        ),
      );
      expect(heavy).toEqual([]);
      expect(loaded.length).toBeLessThan(60);
    });
  }
});

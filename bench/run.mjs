// `npm run bench`: every benchmark of the project, one after the other.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const benches = [
  ['cli.mjs', 'runCliBench'],
  ['initial.mjs', 'runInitialBench'],
  ['audit.mjs', 'runAuditBench'],
  ['server.mjs', 'runServerBench'],
  ['hostile.mjs', 'runHostileBench'],
  ['workbench.mjs', 'runWorkbenchBench'],
  ['batch.mjs', 'runBatchBench'],
  ['costs.mjs', 'runCostsBench'],
  ['search.mjs', 'runSearchBench'],
  ['probe.mjs', 'runProbeBench'],
  ['queue.mjs', 'runQueueBench'],
  // 10 minutes: RSS and p99 under mixed load (not in CI)
  ['soak.mjs', 'runSoakBench'],
];
for (const [file, fn] of benches) {
  const full = path.join(HERE, file);
  if (!existsSync(full)) continue;
  console.log(`\n== ${file}`);
  const mod = await import(pathToFileURL(full).href);
  const result = await mod[fn]();
  // a bench that returns its figures and formats them apart (server.mjs) is printed here
  if (typeof mod.formatBench === 'function') console.log(mod.formatBench(result).text);
}

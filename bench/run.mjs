// `npm run bench`: every benchmark of the project, one after the other.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const benches = [
  ['cli.mjs', 'runCliBench'],
  ['initial.mjs', 'runInitialBench'],
  ['server.mjs', 'runServerBench'],
  ['batch.mjs', 'runBatchBench'],
  ['costs.mjs', 'runCostsBench'],
  ['queue.mjs', 'runQueueBench'],
];
for (const [file, fn] of benches) {
  const full = path.join(HERE, file);
  if (!existsSync(full)) continue;
  console.log(`\n== ${file}`);
  const mod = await import(pathToFileURL(full).href);
  await mod[fn]();
}

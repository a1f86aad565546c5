// The engine as shipped, without dpe-sim: `@open3cl/engine`'s own parser and `calcul_3cl`, in
// bug-for-bug mode as dpe-sim runs it, nothing memoised. The reference that the benchmarks and
// test/engine.test.ts compare dpe-sim with; run it in its own process so that nothing of
// dpe-sim is loaded beside it.
//
//   node bench/bare-engine.mjs FILE.xml | LIST   (LIST: a file of XML paths, one per line)
//
// Prints one JSON object: {items, failed, seconds, cpuSeconds, figures}, the times over the
// loop only (after the import); figures: path → [ep 1.9, ep 2.3, GES] (kWh, kg CO2e / yr), or
// null when the engine gives no result.
//   node bench/bare-engine.mjs --corrections LIST   the same with dpe-sim's corrections of the
//   engine (src/engine/corrections.ts and patches/corrections/, from dist/) and nothing else: the reference for
//   test/engine.test.ts, which proves the memo patches change no figure
import { readFileSync } from 'node:fs';
import { register } from 'node:module';

//   node bench/bare-engine.mjs --correction ID LIST   the bare engine with that one correction
//   (and those it needs, corrections.ts `needs`)
//   (npm run fidelity names the correction that moves a DPE away from the registry)
//   node bench/bare-engine.mjs --steps LIST   also prints steps: path → the XML's intermediate
//   figures against the bare engine's (src/simulation/fidelity.ts stepGaps; npm run fidelity
//   shows, for a DPE moved away, which steps dpe-sim's corrections move and which way)
const corrections = process.argv.includes('--corrections');
const one = process.argv[process.argv.indexOf('--correction') + 1];
const only = process.argv.includes('--correction') ? one : undefined;
const stepGaps = process.argv.includes('--steps')
  ? (await import('../dist/simulation/fidelity.js')).stepGaps
  : undefined;
if (corrections || only) {
  const { sourcePatches, sourcePatchHooks } = await import('../dist/engine/source-patches.js');
  const { CORRECTIONS } = await import('../dist/engine/corrections.js');
  // one correction with those it reads (its `needs`: logiciel-dpe-kept's software)
  const wanted = only && [only, ...(CORRECTIONS.find((c) => c.id === only)?.needs ?? [])];
  const picked = sourcePatches().filter(
    (p) =>
      p.correction && (!wanted || wanted.some((id) => p.marker === `dpe-sim correction ${id}`)),
  );
  if (only && picked.length !== wanted.length) {
    process.stderr.write(`bare-engine: no correction ${only}\n`);
    process.exit(2);
  }
  register(`data:text/javascript,${encodeURIComponent(sourcePatchHooks(picked))}`);
}
const { calcul_3cl } = await import('@open3cl/engine');
const { set_bug_for_bug_compat, xmlParser } = await import('@open3cl/engine/utils.js');
const { logger } = await import('@open3cl/engine/core/util/logger/log-service.js');

logger.silent = true;
const write = process.stdout.write.bind(process.stdout);
for (const k of ['log', 'warn', 'error', 'info', 'debug']) console[k] = () => {};
set_bug_for_bug_compat();

const arg = process.argv.slice(2).find((a) => !a.startsWith('--') && a !== only);
if (!arg) {
  process.stderr.write('usage: node bench/bare-engine.mjs FILE.xml | LIST\n');
  process.exit(2);
}
const files = arg.endsWith('.xml') ? [arg] : readFileSync(arg, 'utf8').split('\n').filter(Boolean);
const figures = {};
const steps = {};
let failed = 0;
const cpu = process.cpuUsage();
const started = performance.now();
for (const file of files) {
  try {
    const xml = readFileSync(file, 'utf8');
    const out = calcul_3cl(xmlParser.parse(xml).dpe);
    const s = out?.logement?.sortie;
    if (stepGaps && s) steps[file] = stepGaps(xmlParser.parse(xml).dpe, out);
    figures[file] = s
      ? [
          s.ep_conso.ep_conso_5_usages,
          s.ep_conso.coeff_2_3_ep_conso_5_usages,
          s.emission_ges.emission_ges_5_usages,
        ]
      : null;
  } catch {
    figures[file] = null;
  }
  if (figures[file] === null) failed++;
}
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
write(
  JSON.stringify({
    items: files.length,
    failed,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    figures,
    ...(stepGaps ? { steps } : {}),
  }),
);

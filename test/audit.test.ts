/**
 * The energy audit (`dpe-sim audit`): the loss breakdown against the engine's own total; the
 * rules of the regulatory audit on fixtures where each binds (a house in F: class C is the
 * target, natural ventilation goes with the first envelope works; a flat in E: class B; a studio
 * in D: the first step must reach B; a flat whose windows and door are already good: only one
 * insulation item can take works, and the path in steps says so); every step replayed with
 * `calc --works` gives the class and the cost the audit claims; the command at 80 and 100 columns
 * and `batch audit`. On the corpus (when present): every DPE of class D to G gets both proposals
 * or names the rule it cannot meet and why.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditResponse, AuditStep } from '../src/contract/audit.js';
import { numberText } from '../src/contract/number-text.js';
import { classIndex, type ClassLetter } from '../src/contract/classes.js';
import { readDpeFile } from '../src/dpe/source.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { auditDpe } from '../src/simulation/audit/index.js';
import { prepare, type PreparedDpe } from '../src/simulation/prepared.js';
import { defaultCosts } from '../src/works/costs.js';
import { BIN, CORPUS, FLAT, HAS_CORPUS, HOUSE, runCli, STUDIO, tempDir } from './helpers.js';
import { preparedFile } from './corpus-engine.js';

const HAS_SCRIPT = existsSync('/usr/bin/script');
if (!HAS_SCRIPT)
  console.warn('*** audit terminal width test SKIPPED: /usr/bin/script not found ***');
const sh = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;

/** Runs the built bin in a pseudo-terminal of `cols` columns (as cli-terminal.test.ts). */
function inPty(
  args: string[],
  cols: number,
  dataDir: string,
): Promise<{ code: number | null; screen: string }> {
  const command = `stty cols ${cols} rows 50; exec ${[process.execPath, BIN, ...args].map(sh).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: {
      ...process.env,
      DPE_SIM_DATA_DIR: dataDir,
      DPE_SIM_CONFIG_DIR: `${dataDir}/config`,
      FORCE_COLOR: '1',
      NO_COLOR: undefined,
      TERM: 'xterm-256color',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (screen += d));
  child.stdin.end();
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, screen })));
}

function widest(screen: string): { width: number; line: string } {
  let best = { width: 0, line: '' };
  for (const raw of screen.split('\n')) {
    const line = stripVTControlCharacters(raw).replace(/\r$/, '').split('\r').at(-1) ?? '';
    const w = stringWidth(line);
    if (w > best.width) best = { width: w, line };
  }
  return best;
}

let engine: Engine;
const costs = defaultCosts();

const prep = (file: string) => preparedFile(engine, file);

function audit(p: PreparedDpe): AuditResponse {
  return auditDpe(engine, p, { coef: 'activated', forceNormalization: false, costs, version: 't' });
}

const rule = (a: AuditResponse, kind: 'steps' | 'single', id: string) => {
  const r = a.proposals.find((p) => p.kind === kind)?.rules.find((x) => x.id === id);
  if (!r) throw new Error(`no rule ${id} in ${kind}`);
  return r;
};
const proposal = (a: AuditResponse, kind: 'steps' | 'single') => {
  const p = a.proposals.find((x) => x.kind === kind);
  if (!p) throw new Error(`no ${kind} proposal`);
  return p;
};
const better = (a: ClassLetter, b: ClassLetter) => classIndex(a) <= classIndex(b);

/** FLAT with every window at Uw 1.2 and an insulated door: only its walls can take works. */
function flatWithGoodOpenings(): string {
  const xml = readFileSync(FLAT, 'utf8')
    .replace(
      /<enum_methode_saisie_perf_vitrage_id>1<\/enum_methode_saisie_perf_vitrage_id>/g,
      '<enum_methode_saisie_perf_vitrage_id>13</enum_methode_saisie_perf_vitrage_id><uw_saisi>1.2</uw_saisi>',
    )
    .replace(
      /<enum_type_porte_id>1<\/enum_type_porte_id>/g,
      '<enum_type_porte_id>13</enum_type_porte_id>',
    )
    .replace(/0000E0000002F/g, '0000E0000009W');
  const file = path.join(tempDir('dpe-sim-audit-'), '0000E0000009W.xml');
  writeFileSync(file, xml);
  return file;
}

beforeAll(async () => {
  engine = await loadEngine();
});

describe('loss breakdown', () => {
  it('the items sum to the engine’s total, shares to 100 %', async () => {
    for (const file of [HOUSE, FLAT, STUDIO]) {
      const p = await prep(file);
      const a = audit(p);
      const dep = (p.base.output.logement?.sortie as Record<string, Record<string, number>>)
        .deperdition as Record<string, number>;
      expect(a.losses.total).toBeCloseTo(dep.deperdition_enveloppe as number, 1);
      const sum = a.losses.items.reduce((s, i) => s + i.wk, 0);
      expect(Math.abs(sum - a.losses.total)).toBeLessThan(0.05);
      const shares = a.losses.items.reduce((s, i) => s + i.share, 0);
      expect(Math.abs(shares - 100)).toBeLessThan(0.35);
      expect(a.losses.items.map((i) => i.key)).toEqual([
        'walls',
        'roof',
        'floor',
        'windows',
        'doors',
        'thermalBridges',
        'airRenewal',
      ]);
    }
    // the house: walls 215.91 W/K of 469.12
    const h = audit(await prep(HOUSE));
    expect(h.losses.items[0]).toMatchObject({ key: 'walls', wk: 215.91, share: 46 });
  });
});

describe('the rules', () => {
  it('a house in F: target C, first step +2 classes with two insulation items and the ventilation', async () => {
    const a = audit(await prep(HOUSE));
    expect(a.initial.classe).toBe('F');
    expect(a.targetClass).toBe('C');
    expect(a.ok).toBe(true);
    const steps = proposal(a, 'steps');
    expect(steps.steps.length).toBe(2);
    const s1 = steps.steps[0] as AuditResponse['proposals'][number]['steps'][number];
    expect(s1.gain).toBeGreaterThanOrEqual(2);
    expect(rule(a, 'steps', 'first-step-gain')).toMatchObject({
      pass: true,
      figure: 'F → D: 2 classes',
    });
    const insulation = new Set(
      s1.works.map((w) => w.item).filter((i) => i !== 'ventilation' && i !== 'heatingHotWater'),
    );
    expect(insulation.size).toBeGreaterThanOrEqual(2);
    // natural ventilation: the VMC comes with the first envelope works, in both proposals
    expect(s1.works.some((w) => w.item === 'ventilation')).toBe(true);
    expect(proposal(a, 'single').steps[0]?.works.some((w) => w.item === 'ventilation')).toBe(true);
    expect(rule(a, 'steps', 'ventilation').pass).toBe(true);
    expect(rule(a, 'steps', 'ventilation').figure).toMatch(/naturelle.*step 1/);
    // final class C from F, and every item treated or said not to need works
    for (const kind of ['steps', 'single'] as const) {
      const p = proposal(a, kind);
      const last = p.steps[p.steps.length - 1];
      expect(better(last?.after.classe as ClassLetter, 'C')).toBe(true);
      expect(p.items.map((i) => i.status)).not.toContain('missing');
      for (const i of p.items)
        if (i.status === 'not-needed') expect(i.reason, i.key).toMatch(/\w/);
        else expect(i.step, i.key).toBeGreaterThanOrEqual(1);
    }
    // cumulative costs add up, the one step costs the sum of its works
    expect(steps.steps[1]?.cumulativeCost).toBeCloseTo(steps.cost, 0);
    const single = proposal(a, 'single');
    expect(single.cost).toBeCloseTo(
      single.steps[0]?.works.reduce((s, w) => s + w.cost, 0) ?? -1,
      0,
    );
  });

  it('a flat in E: target B; a studio in D: the first step itself must reach B', async () => {
    const flat = audit(await prep(FLAT));
    expect([flat.initial.classe, flat.targetClass]).toEqual(['E', 'B']);
    expect(proposal(flat, 'steps').steps[0]?.after.classe).toBe('C');
    const studio = audit(await prep(STUDIO));
    expect([studio.initial.classe, studio.targetClass]).toEqual(['D', 'B']);
    const s1 = proposal(studio, 'steps').steps[0];
    expect(better(s1?.after.classe as ClassLetter, 'B')).toBe(true);
    expect(studio.ok).toBe(true);
  });

  it('two proposals that are one path say so (the studio: one step D → A); the house’s two paths do not', async () => {
    const studio = audit(await prep(STUDIO));
    const works = (kind: 'steps' | 'single') =>
      proposal(studio, kind)
        .steps.flatMap((st) => st.works.map((w) => `${w.referenceId}|${w.editableValue}`))
        .sort();
    expect(proposal(studio, 'steps').steps).toHaveLength(1);
    expect(works('steps')).toEqual(works('single'));
    expect(proposal(studio, 'steps').samePath).toBe(
      'One step, with the same works as the path in one step: the two proposals are one path.',
    );
    expect(proposal(studio, 'single').samePath ?? null).toBeNull();
    const house = audit(await prep(HOUSE));
    expect(proposal(house, 'steps').steps).toHaveLength(2);
    // (its path in steps, chosen step by step, is no split of the path in one step's works)
    expect(proposal(house, 'steps').samePath).toBeNull();
    // the house's path in steps costs no more than its path in one step: no dearer note
    expect(proposal(house, 'steps').cost).toBeLessThanOrEqual(proposal(house, 'single').cost);
    expect(proposal(house, 'steps').dearerNote).toBeUndefined();
    // the built bin prints it under the path in steps' heading, once
    const dir = tempDir('dpe-sim-audit-cli-');
    const res = await runCli(['audit', STUDIO], { dataDir: dir });
    expect(res.code).toBe(0);
    const lines = stripVTControlCharacters(res.stdout).split('\n');
    const at = lines.findIndex((l) => l.startsWith('Path in steps:'));
    expect(lines[at + 1]?.trim()).toBe(
      'One step, with the same works as the path in one step: the two proposals are one path.',
    );
    expect(res.stdout.split('the two proposals are one path').length - 1).toBe(1);
  });

  it('only one insulation item can take works: the path in steps fails that rule and says why', async () => {
    const a = audit(await prep(flatWithGoodOpenings()));
    const windows = a.items.find((i) => i.key === 'windowsDoors');
    expect(windows?.needed).toBe(false);
    expect(windows?.reason).toMatch(/already at the level \(Uw 1\.2/);
    const r = rule(a, 'steps', 'first-step-insulation');
    expect(r.pass).toBe(false);
    expect(r.why).toMatch(
      /only 1 insulation item can take works from the catalogue at the aids’ levels \(walls\)/,
    );
    expect(a.ok).toBe(false);
    expect(a.blockedBy).toContain('first-step-insulation');
    // the one-step path has no such rule
    expect(proposal(a, 'single').rules.map((x) => x.id)).not.toContain('first-step-insulation');
  });

  it('the rule of two insulation items names the m² and the cost of each item step 1 treats', async () => {
    const a = audit(await prep(HOUSE));
    const s1 = proposal(a, 'steps').steps[0];
    const r = rule(a, 'steps', 'first-step-insulation');
    expect(r.pass).toBe(true);
    const named = [
      ...r.figure.matchAll(/([a-z ]+) \(([\d.\u202f]+)\u00a0m², ([\d\u202f]+)\u00a0€\)/g),
    ];
    expect(named.length).toBeGreaterThanOrEqual(2);
    const labels: Record<string, string> = {
      walls: 'walls',
      roof: 'roof',
      'low floors': 'lowFloors',
    };
    for (const [, label, m2, eur] of named) {
      const key = labels[(label as string).replace(/^:? */, '').trim()];
      expect(key, r.figure).toBeDefined();
      const lines = s1?.works.filter((w) => w.item === key) ?? [];
      const area = lines.reduce((t, w) => t + w.quantity, 0);
      const cost = lines.reduce((t, w) => t + w.cost, 0);
      expect(Number((m2 as string).replace(/\u202f/g, ''))).toBeCloseTo(area, 1);
      expect(Number((eur as string).replace(/\u202f/g, ''))).toBe(Math.round(cost));
    }
  });
});

describe('dpe-sim audit (the built CLI)', () => {
  it.skipIf(!HAS_CORPUS)(
    'the bills at today’s prices are checked against the DPE’s own: its bill and the engine’s at the prices of its date (2287E0793758O: 9 759 €/yr at those of 2021-07-01)',
    async () => {
      const dir = tempDir('dpe-sim-audit-bill-');
      const file = path.join(CORPUS, '2287E0793758O.xml');
      const xml = readFileSync(file, 'utf8');
      const registry = Number(/<cout_5_usages>([^<]+)</.exec(xml)?.[1]);
      expect(registry).toBe(9759);
      const json = await runCli(['audit', file, '--json'], { dataDir: dir });
      expect(json.code, json.stderr).toBe(0);
      const a = JSON.parse(json.stdout) as AuditResponse;
      expect(a.prices?.date).toBe('2024-07-01');
      expect(a.prices?.dpe?.date).toBe('2021-07-01');
      expect(a.prices?.dpe?.registry).toBe(registry);
      // the engine's consumption at the DPE's prices: the registry's to 0.1 %
      expect(Math.abs((a.prices?.dpe?.engine ?? 0) / registry - 1)).toBeLessThan(0.001);
      // today's prices are dearer: the audit's bill is not the DPE's, and says why
      expect(a.initial.bill).toBeGreaterThan(registry * 1.2);
      const out = await runCli(['audit', file], { dataDir: dir });
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout.replace(/\s+/g, ' ')).toContain(
        "The DPE's own bill, 9 759 €/yr, is at the prices in force at its date (since 2021-07-01); the engine's consumption before works at those prices: 9 759 €/yr.",
      );
      // within 5 %: no breakdown by use
      expect(a.prices?.dpe?.byUse).toBeUndefined();
      expect(out.stdout).not.toContain('By use');
    },
  );

  it.skipIf(!HAS_CORPUS)(
    'bills more than 5 % apart show each use, the DPE’s beside the engine’s, and where the DPE’s uses do not add up to its total (2264E0573852T: cooling 255 € against 16 €)',
    async () => {
      const dir = tempDir('dpe-sim-audit-bill-uses-');
      const file = path.join(CORPUS, '2264E0573852T.xml');
      const xml = readFileSync(file, 'utf8');
      const cout = xml.slice(xml.indexOf('<cout>'), xml.indexOf('</cout>'));
      const of = (tag: string) => Number(new RegExp(`<${tag}>([^<]+)<`).exec(cout)?.[1]);
      const json = await runCli(['audit', file, '--json'], { dataDir: dir });
      expect(json.code, json.stderr).toBe(0);
      const d = (JSON.parse(json.stdout) as AuditResponse).prices?.dpe;
      expect(d?.registry).toBe(of('cout_5_usages'));
      expect(Math.abs((d?.engine ?? 0) / (d?.registry ?? 1) - 1)).toBeGreaterThan(0.05);
      // the DPE's own per-use costs, as its XML gives them
      expect(d?.byUse?.map((u) => [u.use, u.registry])).toEqual([
        ['ch', of('cout_ch')],
        ['ecs', of('cout_ecs')],
        ['fr', of('cout_fr')],
        ['eclairage', of('cout_eclairage')],
        ['auxiliaire', of('cout_total_auxiliaire')],
      ]);
      const fr = d?.byUse?.find((u) => u.use === 'fr');
      expect(fr?.registry).toBeGreaterThan(10 * (fr?.engine ?? Infinity));
      const out = await runCli(['audit', file], { dataDir: dir });
      expect(out.code, out.stderr).toBe(0);
      // (the page's thin spaces, as the whitespace-folded text reads them)
      const r = (x: number) => Math.round(x).toLocaleString('en-US').replace(/,/g, ' ');
      expect(out.stdout.replace(/\s+/g, ' ')).toContain(
        `By use, the DPE's and the engine's (€/yr): ${d?.byUse
          ?.map(
            (u) =>
              `${{ ch: 'heating', ecs: 'hot water', fr: 'cooling', eclairage: 'lighting', auxiliaire: 'auxiliaries' }[u.use]} ${r(u.registry)} and ${r(u.engine)}`,
          )
          .join(
            ', ',
          )}; the DPE's uses add up to ${r((d?.byUse ?? []).reduce((t, u) => t + u.registry, 0))} €/yr, not its total.`,
      );
    },
  );

  it('a water heater’s line says the volume it is priced and simulated with (the bundled house, no tank: 3CL tables, 200 L; the bundled flat’s 100 L tank: 100 L, on outdoor air)', async () => {
    const dir = tempDir('dpe-sim-audit-volume-');
    const json = await runCli(['audit', HOUSE, '--json'], { dataDir: dir });
    expect(json.code, json.stderr).toBe(0);
    const heaters = (JSON.parse(json.stdout) as AuditResponse).proposals
      .flatMap((p) => p.steps.flatMap((s) => s.works))
      .filter((w) => w.editableValue === 'CET');
    expect(heaters.length).toBeGreaterThan(0);
    for (const w of heaters) expect(w.performance).toMatch(/, 200 L, at the 3CL tables/);
    const out = await runCli(['audit', HOUSE], { dataDir: dir });
    expect(out.code, out.stderr).toBe(0);
    // piped output: tab-separated cells
    expect(out.stdout).toMatch(
      /\tChauffe-eau thermodynamique sur air ambiant, dans le local non chauffé de l’ancien générateur\t3CL tables, 200\u00a0L\t1\u00a0unit\t/,
    );
    // a generator without a volume: the tables alone
    expect(out.stdout).toMatch(/\tChaudière gaz à condensation\t3CL tables\t/);
    // the bundled flat's 100 L electric tank: its water heater is 100 L, like for like, and on
    // outdoor air (no unheated room of its own for one on ambient air, its tank in the heated
    // volume)
    const flat = await runCli(['audit', FLAT], { dataDir: dir });
    expect(flat.code, flat.stderr).toBe(0);
    expect(flat.stdout).toMatch(
      /\tChauffe-eau thermodynamique sur air extérieur\t3CL tables, 100\u00a0L\t1\u00a0unit\t3\u202f400\u00a0€/,
    );
    expect(flat.stdout).not.toContain('sur air ambiant');
    // the electricity coefficient the classes are at, said under the page as in the report
    expect(out.stdout).toContain('electricity coefficient 1.9 (mode 2026; --coef 2025 for 2.3)');
    const old = await runCli(['audit', HOUSE, '--coef', '2025'], { dataDir: dir });
    expect(old.code, old.stderr).toBe(0);
    expect(old.stdout).toContain('electricity coefficient 2.3 (mode 2025)');
  });

  it('each step replayed with calc --works gives the class and the cost the audit claims', async () => {
    const dir = tempDir('dpe-sim-audit-cli-');
    const res = await runCli(['audit', HOUSE, '--json'], { dataDir: dir });
    expect(res.code, res.stderr).toBe(0);
    const a = JSON.parse(res.stdout) as AuditResponse;
    for (const p of a.proposals) {
      const works: { referenceId: string; editableKey: string; editableValue: string }[] = [];
      for (const step of p.steps) {
        works.push(
          ...step.works.map((w) => ({
            referenceId: w.referenceId,
            editableKey: w.editableKey,
            editableValue: w.editableValue,
          })),
        );
        const file = path.join(dir, `works-${p.kind}-${step.n}.json`);
        writeFileSync(file, JSON.stringify(works));
        const calc = await runCli(['calc', HOUSE, '--works', file, '--json'], {
          dataDir: dir,
        });
        expect(calc.code, calc.stderr).toBe(0);
        const body = JSON.parse(calc.stdout) as {
          simulation: { currentGrade: string };
          calculation: {
            hints: { coutTravaux: number };
            result: { ep_conso_5_usages_m2: { value: number }; cout_5_usages: { value: number } };
          };
        };
        expect(body.simulation.currentGrade, `${p.kind} step ${step.n}`).toBe(step.after.classe);
        expect(body.calculation.hints.coutTravaux).toBeCloseTo(step.cumulativeCost, 0);
        expect(body.calculation.result.ep_conso_5_usages_m2.value).toBeCloseTo(step.after.epM2, 1);
        expect(Math.round(body.calculation.result.cout_5_usages.value)).toBe(step.after.bill);
        // calc's screen adds up as the audit does: the saving is the bills' difference as shown
        const screen = await runCli(['calc', HOUSE, '--works', file], { dataDir: dir });
        expect(screen.code, screen.stderr).toBe(0);
        const digits = (x: string | undefined) => Number((x ?? '').replace(/\D/g, ''));
        const bills = /^Energy cost[^\t]*\t([^\t]+)\t([^\t]+)$/m.exec(screen.stdout);
        const saved = /^Annual saving \(energy bill\)\t([^\t]+)$/m.exec(screen.stdout);
        expect(digits(bills?.[1])).toBe(a.initial.bill);
        expect(digits(bills?.[2])).toBe(step.after.bill);
        expect(digits(saved?.[1]), screen.stdout).toBe(a.initial.bill - step.after.bill);
        // the energy saved is primary energy, and says so: before less after, to the rounding
        const ep = /^Primary energy \(kWh\/yr\)\t([^\t]+)\t([^\t]+)$/m.exec(screen.stdout);
        const epSaved = /^Primary energy saved\t([^(]+)\(/m.exec(screen.stdout);
        expect(epSaved, screen.stdout).not.toBeNull();
        expect(
          Math.abs(digits(epSaved?.[1]) - (digits(ep?.[1]) - digits(ep?.[2]))),
        ).toBeLessThanOrEqual(1);
      }
    }
  });

  it.skipIf(!HAS_SCRIPT)(
    'fits 80 and 100 columns: the bars, every step, the rules; --report writes the HTML',
    async () => {
      const dir = tempDir('dpe-sim-audit-cli-');
      const report = path.join(dir, 'audit.html');
      for (const cols of [80, 100]) {
        const args = ['audit', HOUSE, ...(cols === 100 ? ['--report', report] : [])];
        const { code, screen } = await inPty(args, cols, dir);
        expect(code, screen).toBe(0);
        const w = widest(screen);
        expect(w.width, `${cols} columns: ${w.line}`).toBeLessThanOrEqual(cols);
        const text = stripVTControlCharacters(screen);
        expect(text).toMatch(/Heat losses: 469.1\sW\/K/);
        expect(text).toMatch(/Walls\s+█+\s+46\s%\s+215.9\sW\/K/);
        // the shares and the W/K each in a column of their own, right-aligned
        const bars = text
          .split('\n')
          .filter((l) => /^ {2}\S.*[█▏ ] +[\d.]+\s%\s+[\d.]+\sW\/K/.test(l));
        expect(bars.length, text).toBe(7);
        expect(new Set(bars.map((l) => l.indexOf('%'))).size, bars.join('\n')).toBe(1);
        expect(new Set(bars.map((l) => l.indexOf('W/K'))).size, bars.join('\n')).toBe(1);
        expect(text).toMatch(/Path in steps: .*every rule met/);
        expect(text).toMatch(/Path in one step: .*every rule met/);
        expect(text).toContain('Step 2:');
      }
      const html = readFileSync(report, 'utf8');
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
      expect(html).toContain('does not replace');
    },
  );

  it.skipIf(!HAS_SCRIPT || !HAS_CORPUS)(
    'a DPE the input gate stops (2262E1839422L): exit 3 naming the figure, with --engine-figures the banner; a whole building (2535E0426429Q) and a generated flat (2463E3164679Z) audited; in 80 and 100 columns',
    async () => {
      const dir = tempDir('dpe-sim-audit-cli-');
      for (const cols of [80, 100]) {
        // the input gate stops it (engine and registry 34 % apart): on the engine's own figures
        const { code, screen } = await inPty(
          ['audit', path.join(CORPUS, '2262E1839422L.xml'), '--engine-figures'],
          cols,
          dir,
        );
        expect(code, screen).toBe(0);
        const w = widest(screen);
        expect(w.width, `${cols} columns: ${w.line}`).toBeLessThanOrEqual(cols);
        const text = stripVTControlCharacters(screen);
        expect(text).toMatch(/The\s+engine's\s+own\s+figures,\s+not\s+the\s+registry's/);
        expect(text).toMatch(/Target:\s+class\s+C:\s+the\s+dwelling\s+is\s+in\s+G/);
        // a whole building of 28 flats whose installations agree with the registry: audited
        const building = await inPty(['audit', path.join(CORPUS, '2535E0426429Q.xml')], cols, dir);
        expect(building.code, building.screen).toBe(0);
        const bw = widest(building.screen);
        expect(bw.width, `${cols} columns: ${bw.line}`).toBeLessThanOrEqual(cols);
        const btext = stripVTControlCharacters(building.screen);
        expect(btext).toMatch(/whole\s+building/);
        expect(btext).not.toMatch(/engine's\s+own\s+figures/);
        expect(btext).toMatch(/Target:\s+class\s+B:\s+the\s+building\s+is\s+in\s+D/);
        expect(btext).toMatch(/one\s+step\s*│\s*1\s*│\s*B\s*│/);
        // each path's six items, with their why, as the report and the PDF show them
        expect(btext).toMatch(/Item\s*│\s*After this path\s*│\s*Why not \/ note/);
        // the roof under its lofts insulated from below (IPlafondR6); the low floors worked on
        // less than half their area say what was done before what cannot be
        expect(btext).toMatch(/Roof\s*│\s*treated in step 1\s*│/);
        expect(btext).toMatch(/Low floors\s*│\s*cannot be treated\s*│\s*works on 99\.7 of/);
        // each path's cost, and the same shared by its 28 dwellings
        const digits = (x: string) => Number(x.replace(/\D/g, ''));
        for (const title of ['Path in steps', 'Path in one step']) {
          const m = new RegExp(
            `${title}:\\s+([\\d\\s]+)€\\s+\\(([\\d\\s]+)€\\s+per\\s+dwelling\\)`,
          ).exec(btext);
          expect(m, `${title} at ${cols} columns`).not.toBeNull();
          expect(digits(m?.[2] ?? '')).toBe(Math.round(digits(m?.[1] ?? '') / 28));
        }
        // a flat generated from building data: its works at its share, the building's amount
        // beside each, within the columns (the cost cell wraps before "(share of …)")
        const flat = await inPty(['audit', path.join(CORPUS, '2463E3164679Z.xml')], cols, dir);
        expect(flat.code, flat.screen).toBe(0);
        const fw = widest(flat.screen);
        expect(fw.width, `${cols} columns: ${fw.line}`).toBeLessThanOrEqual(cols);
        expect(stripVTControlCharacters(flat.screen)).toMatch(/\(share\s+of/);
      }
      const stopped = await runCli(['audit', path.join(CORPUS, '2262E1839422L.xml')], {
        dataDir: dir,
      });
      expect(stopped.code).toBe(3);
      expect(stopped.stderr).toMatch(/primary energy 550 vs 410 kWh\/m²\/yr \(\+34 %\)/);
    },
  );

  it('batch audit writes one JSON line per DPE', async () => {
    const dir = tempDir('dpe-sim-audit-batch-');
    const list = path.join(dir, 'list.txt');
    writeFileSync(list, `${HOUSE}\n${FLAT}\n`);
    const res = await runCli(['batch', 'audit', list, '--concurrency', '1'], {
      dataDir: dir,
    });
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      expect(l.ok).toBe(true);
      expect(l.result.proposals).toHaveLength(2);
      expect(typeof l.result.ok).toBe('boolean');
    }
  });
});

if (!HAS_CORPUS) console.warn(`\n⚠ audit corpus test SKIPPED: no corpus at ${CORPUS}\n`);

describe.skipIf(!HAS_CORPUS)('the corpus', () => {
  it('figures scaled to the registry say so beside the figures before works, in the terminal and the report (2293E1394343F: emissions −28.9 %); figures that are not, nothing (2262E0004883G)', async () => {
    const dir = tempDir('dpe-sim-audit-scaled-');
    const said =
      'Figures scaled to the registry’s: the engine and the registry are apart on this DPE (`dpe-sim pre` says by how much and where), so each figure here is the engine’s scaled to the DPE’s own, and indicative only.';
    const dpe = path.join(CORPUS, '2293E1394343F.xml');
    const json = await runCli(['audit', dpe, '--json'], { dataDir: dir });
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as AuditResponse).normalized).toBe(true);
    const report = path.join(dir, 'scaled.html');
    const screen = await runCli(['audit', dpe, '--report', report], { dataDir: dir });
    expect(screen.code, screen.stderr).toBe(0);
    const lines = screen.stdout.replace(/\s+/g, ' ');
    expect(lines).toContain(said);
    // beside the figures before works, before the bills' paragraph
    expect(lines.indexOf(said)).toBeLessThan(lines.indexOf('Bills at'));
    expect(readFileSync(report, 'utf8').replace(/\s+/g, ' ')).toContain(
      `<p class="banner" id="audit-normalized">${said}</p>`,
    );
    const plain = path.join(CORPUS, '2262E0004883G.xml');
    const other = await runCli(['audit', plain, '--json'], { dataDir: dir });
    expect((JSON.parse(other.stdout) as AuditResponse).normalized).toBe(false);
    expect((await runCli(['audit', plain], { dataDir: dir })).stdout).not.toContain(
      'Figures scaled to the registry',
    );
  });

  it('a step whose works lose a summer-comfort criterion says so and why (2238E0097309E: walls lined inside, heavy thermal mass lost, good → average), in --json, the terminal and the report; a step that loses none says nothing', async () => {
    const dir = tempDir('dpe-sim-audit-comfort-');
    const dpe = path.join(CORPUS, '2238E0097309E.xml');
    const json = await runCli(['audit', dpe, '--json'], { dataDir: dir });
    expect(json.code, json.stderr).toBe(0);
    const a = JSON.parse(json.stdout) as AuditResponse;
    const heavy = (sc: AuditResponse['summerComfort']) =>
      sc?.criteria.find((c) => c.label === 'heavy thermal mass')?.met;
    expect(a.summerComfort?.indicator).toBe('good');
    expect(heavy(a.summerComfort)).toBe(true);
    const why =
      'heavy thermal mass lost with these works: the 3CL’s inertia counts a wall, a low floor or a ceiling as heavy only when it is uninsulated, insulated outside only or of an unknown insulation type, and after these works some are filed as insulated on their inside';
    let said = 0;
    for (const p of a.proposals)
      p.steps.forEach((st, i) => {
        const before = i === 0 ? a.summerComfort : p.steps[i - 1]?.summerComfort;
        const lost = heavy(before) === true && heavy(st.summerComfort) === false;
        expect(st.summerComfort?.lost, `${p.kind} ${st.n}`).toBe(lost ? why : undefined);
        if (lost) {
          said++;
          // the step lines walls inside
          expect(
            st.works.some((w) => w.referenceId.startsWith('mur:') && /ITI/.test(w.editableValue)),
          ).toBe(true);
          expect(st.summerComfort?.indicator).toBe('average');
        }
      });
    expect(said).toBe(2);
    const report = path.join(dir, 'comfort.html');
    const screen = await runCli(['audit', dpe, '--report', report], { dataDir: dir });
    expect(screen.code, screen.stderr).toBe(0);
    const text = screen.stdout.replace(/\s+/g, ' ');
    expect(text.split(`summer comfort average (${why})`).length - 1).toBe(2);
    expect(readFileSync(report, 'utf8').replace(/\s+/g, ' ').split(why).length - 1).toBe(2);
  });

  it('the DPE’s own label beside today’s class: 2362E0595026C, D in its DPE (2.3), C at 1.9 and no proposal; under --coef 2025 nothing to say; 2475E0919281Z, a small flat whose class limits changed', async () => {
    const dir = tempDir('dpe-sim-audit-label-');
    const dpe = path.join(CORPUS, '2362E0595026C.xml');
    const xml = readFileSync(dpe, 'utf8');
    expect(/<classe_bilan_dpe>([^<]+)</.exec(xml)?.[1]).toBe('D');
    const res = await runCli(['audit', dpe, '--json'], { dataDir: dir });
    expect(res.code, res.stderr).toBe(0);
    const a = JSON.parse(res.stdout) as AuditResponse;
    expect(a.dpeLabel).toEqual({
      classe: 'D',
      epM2: 181,
      gesM2: 22,
      coef: 2.3,
      date: '2023-02-16',
      atItsRules: 'D',
      limitsChanged: false,
    });
    expect(a.initial.classe).toBe('C');
    expect(a.auditApplies).toBe(false);
    const screen = (await runCli(['audit', dpe], { dataDir: dir })).stdout.replace(/\s+/g, ' ');
    expect(screen).toContain(
      "The DPE's own label: class D, 181 kWh/m²/yr, 22 kg CO2e/m²/yr, with electricity at 2.3 and the class limits of its date (2023-02-16), as this audit's figures give under those rules; today's rules (electricity at 1.9 since 2026-01-01) put the dwelling in C.",
    );
    expect(screen).toContain('this DPE is in C, no proposal is made');
    // at the DPE's own coefficient: its class, the audit applies, nothing to explain
    const old = await runCli(['audit', dpe, '--coef', '2025', '--json'], { dataDir: dir });
    const o = JSON.parse(old.stdout) as AuditResponse;
    expect(o.initial.classe).toBe('D');
    expect(o.auditApplies).toBe(true);
    const oldScreen = await runCli(['audit', dpe, '--coef', '2025'], { dataDir: dir });
    expect(oldScreen.stdout).not.toContain("The DPE's own label");
    // a 14.35 m² flat of 2024-03-13: the class limits of small dwellings changed on 2024-07-01
    const small = await runCli(['audit', path.join(CORPUS, '2475E0919281Z.xml'), '--json'], {
      dataDir: dir,
    });
    const sm = JSON.parse(small.stdout) as AuditResponse;
    expect(sm.dpeLabel).toMatchObject({ classe: 'D', atItsRules: 'D', limitsChanged: true });
    expect(sm.initial.classe).toBe('C');
  });

  it('summer comfort: the roof criterion reads the ceilings under a roof; the DPE’s own indicator is said beside (2375E4029206L); a flat under another is not marked down (the bundled flat)', async () => {
    const dir = tempDir('dpe-sim-audit-comfort-');
    const dpe = path.join(CORPUS, '2375E4029206L.xml');
    const xml = readFileSync(dpe, 'utf8');
    // its XML: both ceilings bare (9.2 m² under rampants, 12 m² under an unheated space), roof
    // criterion 0, and yet the indicator "bon" (3)
    expect(/<isolation_toiture>([^<]+)</.exec(xml)?.[1]).toBe('0');
    expect(/<enum_indicateur_confort_ete_id>([^<]+)</.exec(xml)?.[1]).toBe('3');
    const res = await runCli(['audit', dpe, '--json'], { dataDir: dir });
    expect(res.code, res.stderr).toBe(0);
    const a = JSON.parse(res.stdout) as AuditResponse;
    expect(a.summerComfort).toMatchObject({ indicator: 'insufficient', dpe: 'good' });
    expect(a.summerComfort?.criteria[0]).toEqual({ label: 'roof insulated', met: false });
    // step 1 insulates the ceilings: the criterion is met after it
    const step1 = a.proposals[0]?.steps[0];
    expect(step1?.works.some((w) => w.referenceId.startsWith('plancher_haut:'))).toBe(true);
    expect(step1?.summerComfort?.criteria[0]).toEqual({ label: 'roof insulated', met: true });
    const screen = await runCli(['audit', dpe], { dataDir: dir });
    expect(screen.code).toBe(0);
    expect(screen.stdout.replace(/\s+/g, ' ')).toContain(
      'Summer comfort before works: insufficient (the DPE states good): roof insulated no,',
    );
    // the bundled flat: a heated space above, the criterion counted met and said so
    const flat = await runCli(['audit', FLAT, '--json'], { dataDir: dir });
    expect(flat.code, flat.stderr).toBe(0);
    const f = JSON.parse(flat.stdout) as AuditResponse;
    expect(f.summerComfort?.criteria[0]).toEqual({
      label: 'roof insulated (no roof: a heated space above)',
      met: true,
    });
    expect(f.summerComfort?.dpe).toBe(f.summerComfort?.indicator);
    // a roof insulated on most of its area meets the criterion (as the registry's software); its
    // bare part, which the page then insulates, is said (2125E0981916Z: 70 m² bare, uph 1.2)
    const part = await runCli(['audit', path.join(CORPUS, '2125E0981916Z.xml'), '--json'], {
      dataDir: dir,
    });
    const p = JSON.parse(part.stdout) as AuditResponse;
    expect(p.summerComfort?.criteria[0]).toEqual({
      label: 'roof insulated (70 of 156\u00a0m² bare)',
      met: true,
    });
    expect(
      p.proposals[0]?.steps.some((st) => st.works.some((w) => w.referenceId === 'plancher_haut:0')),
    ).toBe(true);
  });

  it('a door line says how many doors its price counts (2535E0426429Q: 22 doors of 39.2 m², 33 000 €), in --json, the terminal and the report', async () => {
    const dir = tempDir('dpe-sim-audit-doors-');
    const dpe = path.join(CORPUS, '2535E0426429Q.xml');
    const report = path.join(dir, 'audit.html');
    const res = await runCli(['audit', dpe, '--json', '--report', report], { dataDir: dir });
    expect(res.code, res.stderr).toBe(0);
    const a = JSON.parse(res.stdout) as AuditResponse;
    const door = a.proposals[0]?.steps
      .flatMap((s) => s.works)
      .find((w) => w.referenceId === 'porte:0');
    // the XML's porte:0: surface_porte 39.16, nb_porte 22; doors are priced by the door
    expect(door).toMatchObject({ quantity: 39.16, unit: 'm²', doors: 22 });
    expect(door?.cost).toBe(22 * 1500);
    // (the figures' spaces are no-break ones: read as spaces)
    const spaced = (t: string) => t.replace(/[\u00a0\u202f]/g, ' ');
    expect(spaced(door?.costDetail ?? '')).toBe('22 × 1 500 €');
    expect(spaced(readFileSync(report, 'utf8'))).toContain('39.2 m² (22 doors)');
    const screen = await runCli(['audit', dpe], { dataDir: dir });
    expect(screen.code).toBe(0);
    expect(spaced(screen.stdout)).toMatch(/porte:0\b.*39\.2 m² \(22 doors\)\t33 000 €/);
    // one door: no count
    expect(spaced(screen.stdout)).toMatch(/porte:2\b.*\t1\.8 m²\t1 500 €/);
  });

  it('every DPE of class D to G gets both proposals, or names the failing rule and why', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(CORPUS).filter((f) => f.endsWith('.xml'));
    let audited = 0;
    for (const f of files.slice(0, Number(process.env.DPE_SIM_AUDIT_CORPUS_LIMIT ?? 40))) {
      const p = prepare(engine, await readDpeFile(path.join(CORPUS, f)));
      if (!p.ok) continue;
      let a: AuditResponse;
      try {
        a = audit(p.dpe);
      } catch (err) {
        // the input gate stops it, naming the figure (test/audit-rules.test.ts)
        expect(String(err)).toMatch(/the audit's input gate failed: .*: no \(/);
        continue;
      }
      if (!a.auditApplies) continue;
      audited++;
      expect(a.proposals).toHaveLength(2);
      for (const pr of a.proposals)
        for (const r of pr.rules)
          if (!r.pass) expect(r.why, `${f} ${pr.kind} ${r.id}`).toMatch(/\w/);
      expect(a.ok).toBe(a.blockedBy.length === 0);
    }
    expect(audited).toBeGreaterThan(10);
  });
});

describe.skipIf(!HAS_CORPUS)('a path in steps of one step', () => {
  // its rules are the path in one step's and step 1's: the path in one step's answer serves when
  // cheaper (before: 2262E0004883G 21,115 € for step 1 alone until its heaters filed under the
  // registry's default type were read as convectors, 2378E0897918K 8,120 € for C, each
  // against the path in one step's answer for the same class; 2593E3377930D and 2321E1081706Z
  // were these cases until their collective hot water could be replaced: the first's path in
  // steps is now two steps, the second reaches B)
  it('is never dearer than the path in one step reaching its class: 2287E0429850C (B reached by step 1), 2378E0897918K (B out of reach)', async () => {
    for (const [id, reached] of [
      ['2287E0429850C', 'B'],
      ['2378E0897918K', 'C'],
    ] as const) {
      const a = audit(await prep(path.join(CORPUS, `${id}.xml`)));
      const steps = proposal(a, 'steps');
      const single = proposal(a, 'single');
      expect(steps.steps, id).toHaveLength(1);
      expect(steps.steps[0]?.after.classe, id).toBe(reached);
      expect(single.steps[0]?.after.classe, id).toBe(reached);
      expect(steps.cost, id).toBe(single.cost);
      expect(steps.steps[0]?.exact, id).toBe(single.steps[0]?.exact);
      expect(steps.steps[0]?.lowerBound, id).toBe(single.steps[0]?.lowerBound);
      // step 1's own rules hold on it, and the final class fails only where it is out of reach
      expect(rule(a, 'steps', 'first-step-gain').pass, id).toBe(true);
      expect(rule(a, 'steps', 'first-step-insulation').pass, id).toBe(true);
      expect(
        steps.rules.filter((r) => !r.pass).map((r) => r.id),
        id,
      ).toEqual(reached === 'B' ? [] : ['final-class']);
    }
  });
});

describe('the final pass in the audit (drops and swaps on the answers left unproved)', () => {
  // (the split pass off: 2364E0984413P's path in steps is, with it, the path in one step's works
  // split in two, below)
  const opts = {
    coef: 'activated' as const,
    forceNormalization: false,
    costs,
    version: 't',
    splitPass: false,
  };
  const total = (a: AuditResponse, kind: 'steps' | 'single') =>
    proposal(a, kind).steps.reduce((s, st) => s + st.cost, 0);
  it.skipIf(!HAS_CORPUS)(
    '2242E0243971E and 2364E0984413P: the path in steps cheaper in all than without it (step 1 cheaper), every rule still met, the same classes',
    async () => {
      for (const [id, before, after] of [
        // (50,111 → 50,012 before a window cost at least 350 €: its two 0.45 m² windows; 50,113
        // → 50,104 before its log stove could be replaced by a pellet stove, 4,800 €; 2287E1490206A
        // 42,346 → 42,332 until then, since 42,202 with or without the pass)
        ['2242E0243971E', 54_913, 54_904],
        // (2364E0984413P 69,099 → 68,989 until its uninsulated floors were judged on their own U)
        ['2364E0984413P', 73_691, 73_581],
      ] as const) {
        const p = await prep(path.join(CORPUS, `${id}.xml`));
        const without = auditDpe(engine, p, { ...opts, finalPass: false });
        const withIt = auditDpe(engine, p, opts);
        expect(total(without, 'steps'), id).toBe(before);
        expect(total(withIt, 'steps'), id).toBe(after);
        const a = proposal(without, 'steps').steps;
        const b = proposal(withIt, 'steps').steps;
        expect(b[0]?.cost, id).toBeLessThan(a[0]?.cost as number);
        expect(b[0]?.exact, id).toBe(false);
        expect(
          b.map((s) => s.after.classe),
          id,
        ).toEqual(a.map((s) => s.after.classe));
        expect(
          proposal(withIt, 'steps').rules.filter((r) => !r.pass),
          id,
        ).toEqual([]);
        // the path in one step never dearer than the path in steps, nor than without the pass
        expect(total(withIt, 'single'), id).toBeLessThanOrEqual(total(withIt, 'steps'));
        expect(total(withIt, 'single'), id).toBeLessThanOrEqual(total(without, 'single'));
      }
    },
  );
  it('never makes a path dearer: the bundled house and flat', async () => {
    for (const file of [HOUSE, FLAT]) {
      const p = await prep(file);
      const without = auditDpe(engine, p, { ...opts, finalPass: false });
      const withIt = auditDpe(engine, p, opts);
      for (const kind of ['steps', 'single'] as const)
        expect(total(withIt, kind), `${file} ${kind}`).toBeLessThanOrEqual(total(without, kind));
    }
  });
});

describe.skipIf(!HAS_CORPUS)(
  'the path in one step’s works split in two as the path in steps',
  () => {
    const opts = { coef: 'activated' as const, forceNormalization: false, costs, version: 't' };
    const total = (a: AuditResponse, kind: 'steps' | 'single') =>
      proposal(a, kind).steps.reduce((s, st) => s + st.cost, 0);
    const works = (ss: readonly AuditStep[]) =>
      ss
        .flatMap((st) => st.works.map((w) => `${w.referenceId}=${w.editableValue}`))
        .sort()
        .join(';');
    it('2459E1831723H (a building of 3 flats) and 2287E1490206A (a house): cheaper in all than the path chosen step by step, the path in one step’s works, every rule met, each step gaining its classes, and it says so', async () => {
      for (const id of ['2459E1831723H', '2287E1490206A']) {
        const p = await prep(path.join(CORPUS, `${id}.xml`));
        const without = auditDpe(engine, p, { ...opts, splitPass: false });
        const withIt = auditDpe(engine, p, opts);
        const steps = proposal(withIt, 'steps');
        const single = proposal(withIt, 'single');
        // chosen step by step, the path costs more than the path in one step's works
        expect(total(without, 'steps'), id).toBeGreaterThan(total(without, 'single'));
        expect(total(withIt, 'steps'), id).toBeLessThan(total(without, 'steps'));
        // the same works as the path in one step, in two steps, for the same total
        expect(steps.steps.length, id).toBe(2);
        expect(works(steps.steps), id).toBe(works(single.steps));
        expect(total(withIt, 'steps'), id).toBe(total(withIt, 'single'));
        expect(
          steps.rules.filter((r) => !r.pass).map((r) => r.id),
          id,
        ).toEqual([]);
        const [s1, s2] = steps.steps as [AuditStep, AuditStep];
        expect(
          classIndex(s1.before.classe) - classIndex(s1.after.classe),
          id,
        ).toBeGreaterThanOrEqual(2);
        expect(classIndex(s2.after.classe), id).toBeLessThan(classIndex(s1.after.classe));
        // step 1 the cheapest part by kind meeting a first step's rules: on 2459E1831723H for the
        // pair the step-by-step path's step 1 was proved for, so bounded by that proof ("at most
        // N % above": N the least whole percent covering the cost); on 2287E1490206A for another
        // pair, not proved
        const stepwise = Math.round(total(without, 'steps'));
        const saved = stepwise - Math.round(total(withIt, 'steps'));
        expect(steps.samePath, id).toContain(
          `Two steps, with the same works as the path in one step: step 1 is the cheapest part of them, taken by kind of element`,
        );
        expect(steps.samePath, id).toContain(
          `The path costs what the path in one step costs, proved the cheapest for the final class, ${numberText(saved)}\u00a0€ less than the path chosen step by step (the cheapest step 1 first, ${numberText(stepwise)}\u00a0€ in all).`,
        );
        expect(s1.exact, id).toBe(false);
        if (id === '2459E1831723H') {
          const lb = s1.lowerBound as number;
          const n = s1.maxAbovePercent as number;
          expect(lb, id).toBeGreaterThan(0);
          expect(s1.cost, id).toBeLessThanOrEqual(lb * (1 + n / 100));
          expect(s1.cost, id).toBeGreaterThan(lb * (1 + (n - 1) / 100));
          expect(steps.samePath, id).toContain(
            `Step 1 alone (${numberText(Math.round(s1.cost))}\u00a0€) costs at most ${n}\u00a0% more than the cheapest first step for the same pair of insulation items.`,
          );
        } else {
          expect(s1.maxAbovePercent, id).toBeNull();
          expect(steps.samePath, id).not.toContain('Step 1 alone');
        }
        expect(steps.dearerNote, id).toBeUndefined();
        expect(single.steps[0]?.exact, id).toBe(true);
      }
    });
  },
);

describe.skipIf(!HAS_CORPUS)('the exchange pass in the audit (AUDIT_EXCHANGE_RUNS)', () => {
  // (2491E3206857H until the proofs' master branched dearest first: its proof now finds the
  // exchange's answer itself, 25,449 €; 2593E3377930D until its collective hot water could be
  // replaced: its answer is now proved without the pass)
  it('2262E0020943Y: the path in one step cheaper than without it, every rule still met, its class reached', async () => {
    const p = await prep(path.join(CORPUS, '2262E0020943Y.xml'));
    // (the final pass off in both: the exchange pass alone; 21,279 € without it, 21,243 € with it)
    const opts = {
      coef: 'activated' as const,
      forceNormalization: false,
      costs,
      version: 't',
      finalPass: false,
    };
    const single = (a: AuditResponse) => a.proposals.find((x) => x.kind === 'single');
    const without = single(auditDpe(engine, p, { ...opts, exchangeRuns: 0 }));
    const withIt = single(auditDpe(engine, p, opts));
    const cost = (x: typeof withIt) => x?.steps.reduce((s, st) => s + st.cost, 0) ?? NaN;
    expect(without?.steps[0]?.exact).toBe(false);
    expect(cost(withIt)).toBeLessThan(cost(without));
    // the proof's bound stands; the rules the audit checks all hold, the class is reached
    expect(withIt?.steps[0]?.lowerBound).toBe(without?.steps[0]?.lowerBound);
    expect(withIt?.rules.filter((r) => !r.pass).map((r) => r.id)).toEqual([]);
    expect(classIndex(withIt?.steps.at(-1)?.after.classe as ClassLetter)).toBeLessThanOrEqual(
      classIndex('B'),
    );
  });
});

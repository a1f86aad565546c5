import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, FLAT, HOUSE, runCli, tempDir } from './helpers.js';

const URL_RE =
  /^http:\/\/127\.0\.0\.1:8787\/public\/partnerLogin\.html\?partnerToken=([A-Za-z0-9_-]{43,})$/;

describe('dpe-sim --help', () => {
  it('lists the commands and the exit codes', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const cmd of ['pre', 'auth', 'initial', 'calc']) expect(r.stdout).toContain(cmd);
    expect(r.stdout).toContain('3  the DPE is blocked');
  });

  it('rejects an unknown option with exit 2', async () => {
    const r = await runCli(['pre', HOUSE, '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option/);
  });
});

describe('dpe-sim pre', () => {
  it('prints the comparison table, the alerts and the login URL', async () => {
    const r = await runCli(['pre', HOUSE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Pre-analysis of DPE 0000E0000001H');
    // off a terminal: tab-separated rows, one number format (a decimal point)
    expect(r.stdout).toContain('Primary energy (kWh/m²/yr)\t381\t390\t−2.3\u00a0%');
    expect(r.stdout).toMatch(
      /Login URL: http:\/\/127\.0\.0\.1:8787\/public\/partnerLogin\.html\?partnerToken=/,
    );
    expect(r.stderr).toContain('Next: dpe-sim initial');
  });

  it('--json prints exactly the response body', async () => {
    const r = await runCli(['pre', HOUSE, '--json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as {
      url: string;
      maxCalculation: Record<string, number>;
      warnings: { id: string; type: string }[];
      dpeSource: { origin: string; location?: string };
    };
    // the spec's three fields, plus dpe-sim's own optional dpeSource (where the XML came from)
    expect(Object.keys(body).sort()).toEqual([
      'classes',
      'dpeSource',
      'maxCalculation',
      'url',
      'warnings',
    ]);
    expect(body.dpeSource).toEqual({ origin: 'file', location: HOUSE });
    expect(body.url).toMatch(URL_RE);
    const m = body.maxCalculation;
    expect(m.consommationInitiale).toBe(381);
    expect(m.gesInitiale).toBe(84);
    expect(m.gesXML).toBe(86);
    // registry 392 kWh/m² at 2.3 converted to 1.9 on the total, then floored per m²
    expect(m.consommationXML).toBe(390);
    expect(m.deltaConso).toBeCloseTo(((381 - 390) / 390) * 100, 2);
    expect(m.deltaGES).toBeCloseTo(((84 - 86) / 86) * 100, 2);
    expect(body.warnings.map((w) => w.id)).toContain('warning.coefficient-converted');
    expect(body.warnings.some((w) => w.type === 'block' || w.type === 'confirm')).toBe(false);
  });

  it('--coef 2025 compares with the registry figures as they are', async () => {
    const r = await runCli(['pre', HOUSE, '--json', '--coef', '2025']);
    const m = (JSON.parse(r.stdout) as { maxCalculation: Record<string, number> }).maxCalculation;
    expect(m.consommationXML).toBe(392);
    // 382 before rg-qp0-pcs (the gas boiler's standby losses in PCS, as the method and the
    // registry have them)
    expect(m.consommationInitiale).toBe(383);
  });

  it('asks to confirm normalization for a gap between 5% and 15%', async () => {
    const r = await runCli(['pre', FLAT, '--json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as {
      maxCalculation: Record<string, number>;
      warnings: { id: string; type: string; content: string }[];
    };
    // percentages one way, tables and alert texts alike (issue 38): "−7.6 %", never "-7.6%"
    const text = body.warnings.find((w) => w.type === 'confirm')?.content ?? '';
    expect(text).toMatch(
      /differ by consumption [+−]\d+(\.\d)?\u00a0%, emissions [+−]\d+(\.\d)?\u00a0% \(over 5\u00a0% and at most 15\u00a0%\)/,
    );
    expect(text).not.toMatch(/\d%/);
    const gap = Math.max(
      Math.abs(body.maxCalculation.deltaConso ?? 0),
      Math.abs(body.maxCalculation.deltaGES ?? 0),
    );
    expect(gap).toBeGreaterThan(5);
    expect(gap).toBeLessThanOrEqual(15);
    expect(body.warnings.find((w) => w.type === 'confirm')?.id).toBe('confirm.normalization');
    const forced = await runCli(['pre', FLAT, '--json', '--force-normalization']);
    const fb = JSON.parse(forced.stdout) as { warnings: { id: string; type: string }[] };
    expect(fb.warnings.some((w) => w.type === 'confirm')).toBe(false);
    expect(fb.warnings.map((w) => w.id)).toContain('warning.normalization-forced');
  });

  it('finds a DPE by number in --dpe-dir, by file name or by <numero_dpe>', async () => {
    const dir = tempDir();
    copyFileSync(HOUSE, path.join(dir, 'renamed.xml'));
    const r = await runCli(['pre', '0000E0000001H', '--dpe-dir', dir, '--json']);
    expect(r.code).toBe(0);
    expect(
      (JSON.parse(r.stdout) as { maxCalculation: { consommationInitiale: number } }).maxCalculation
        .consommationInitiale,
    ).toBe(381);
    // the bundled fixtures are searched after --dpe-dir (the README's lookup order, issue 38)
    const env = await runCli(['pre', '0000E0000002F', '--json'], { env: { DPE_SIM_DPE_DIR: dir } });
    expect(env.code, env.stderr).toBe(0);
    expect((JSON.parse(env.stdout) as { dpeSource: { location: string } }).dpeSource.location).toBe(
      path.join(FIXTURES, '0000E0000002F.xml'),
    );
    const flag = await runCli(['pre', '0000E0000001H', '--dpe-dir', tempDir(), '--json']);
    expect(flag.code, flag.stderr).toBe(0);
    expect(
      (JSON.parse(flag.stdout) as { dpeSource: { location: string } }).dpeSource.location,
    ).toBe(HOUSE);
    const unknown = await runCli(['pre', '9999E9999999Z', '--json'], {
      env: { DPE_SIM_DPE_DIR: dir },
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`DPE 9999E9999999Z not found in ${dir}`);
  });

  it('reads a DPE from stdin', async () => {
    const { readFileSync } = await import('node:fs');
    const r = await runCli(['pre', '-', '--json'], { input: readFileSync(HOUSE, 'utf8') });
    expect(r.code).toBe(0);
    expect(
      (JSON.parse(r.stdout) as { maxCalculation: { gesXML: number } }).maxCalculation.gesXML,
    ).toBe(86);
  });

  it('a malformed number exits 2 quoting the pattern', async () => {
    const r = await runCli(['pre', '12345']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('^[0-9]{4}E[0-9]{7}[A-Z]$');
    expect(r.stdout).toBe('');
  });

  it('an unknown number exits 2 naming the directory searched', async () => {
    const r = await runCli(['pre', '9999E9999999Z']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/DPE 9999E9999999Z not found in .*fixtures/);
  });

  it('malformed XML gives a block alert with the parser reason and exit 3', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'broken.xml');
    writeFileSync(file, '<dpe><numero_dpe>0000E0000009X</numero_dpe><logement></dpe>');
    const r = await runCli(['pre', file, '--json']);
    expect(r.code).toBe(3);
    const body = JSON.parse(r.stdout) as {
      warnings: { id: string; type: string; content: string }[];
      maxCalculation: Record<string, unknown>;
    };
    expect(body.warnings[0]?.type).toBe('block');
    expect(body.warnings[0]?.id).toBe('block.malformed-xml');
    expect(body.warnings[0]?.content).toMatch(/malformed XML: .*line 1/);
    expect(body.maxCalculation.consommationInitiale).toBeNull();
  });

  it('a DPE of another model is blocked (exit 3)', async () => {
    const { readFileSync } = await import('node:fs');
    const dir = tempDir();
    const file = path.join(dir, 'rt2012.xml');
    writeFileSync(
      file,
      readFileSync(HOUSE, 'utf8').replace(
        '<enum_modele_dpe_id>1</enum_modele_dpe_id>',
        '<enum_modele_dpe_id>2</enum_modele_dpe_id>',
      ),
    );
    const r = await runCli(['pre', file]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('Not a 3CL-2021 dwelling DPE');
    expect(r.stdout).toContain('rt2012');
  });

  it('rejects identities with ":" and bad --expire values (exit 2)', async () => {
    expect((await runCli(['pre', HOUSE, '--customer-id', 'a:b'])).code).toBe(2);
    expect((await runCli(['pre', HOUSE, '--user-id', 'x:y'])).code).toBe(2);
    for (const bad of ['0', '-3', '1.5', 'ten']) {
      const r = await runCli(['pre', HOUSE, '--expire', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--expire must be an integer');
    }
  });
});

describe('inputs the 3CL tables do not know', () => {
  // the bundled house with one input changed, as a slip or another version of the tables makes it
  const mutated = (dir: string, name: string, tag: string, nth: number, value: string) => {
    const xml = readFileSync(HOUSE, 'utf8');
    const re = new RegExp(`<${tag}>[^<]*</${tag}>`, 'g');
    let i = 0;
    const out = xml.replace(re, (m) => (i++ === nth ? `<${tag}>${value}</${tag}>` : m));
    expect(i, `${tag} occurrences`).toBeGreaterThan(nth);
    const file = path.join(dir, name);
    writeFileSync(file, out);
    return file;
  };

  it('one the engine turns into NaN: block.engine-failure names it (exit 3)', async () => {
    const dir = tempDir('dpe-sim-enum-');
    // the sixth orientation of the XML: after the five walls', the first window's
    const file = mutated(dir, 'orientation.xml', 'enum_orientation_id', 5, 'abc');
    const r = await runCli(['pre', file, '--json'], { dataDir: dir });
    expect(r.code).toBe(3);
    const body = JSON.parse(r.stdout) as { warnings: { id: string; content: string }[] };
    const block = body.warnings.find((w) => w.id === 'block.engine-failure');
    expect(block?.content).toMatch(
      /non-numeric ep \(NaN\).*baie_vitree\[0\] enum_orientation_id "abc" \(not a value of the 3CL table orientation\)/,
    );
  });

  // the bundled house without one input (its first occurrence): pre's exit code and alert
  const without = async (tag: string) => {
    const dir = tempDir('dpe-sim-enum-');
    const xml = readFileSync(HOUSE, 'utf8');
    const cut = xml.replace(new RegExp(`<${tag}>[^<]*</${tag}>`), '');
    expect(cut, tag).not.toBe(xml);
    const file = path.join(dir, `no-${tag}.xml`);
    writeFileSync(file, cut);
    const r = await runCli(['pre', file, '--json'], { dataDir: dir });
    const body = JSON.parse(r.stdout) as { warnings: { id: string; content: string }[] };
    const alert = (id: string) => body.warnings.find((w) => w.id === id)?.content;
    return { dir, file, code: r.code, alert };
  };

  it.each([
    [
      'surface_habitable_logement',
      "the XML does not give surface_habitable_logement (the dwelling's living area)",
    ],
    ['hsp', 'the XML does not give hsp (the ceiling height)'],
    [
      'enum_type_generateur_ch_id',
      'inputs its elements lack: installation_chauffage[0] generateur_chauffage[0] enum_type_generateur_ch_id',
    ],
  ])('a DPE without %s: block.engine-failure names it (exit 3)', async (tag, text) => {
    const r = await without(tag);
    expect(r.code).toBe(3);
    expect(r.alert('block.engine-failure')).toContain(text);
  });

  it('a wall without its area, which the engine computes as 0 m² silently: pre names it', async () => {
    // the house's first wall: its opaque area is the XML's first surface_paroi_opaque
    const r = await without('surface_paroi_opaque');
    expect(r.code).toBe(0);
    expect(r.alert('warning.dpe-inconsistent')).toContain(
      "the XML does not give wall 0's area (surface_paroi_opaque), which the 3CL method reads: the engine's figures without it are not the method's (XML: mur[0] surface_paroi_opaque)",
    );
  });

  it('a DPE without its construction period, which the engine computes silently: pre says so, the audit’s gate stops', async () => {
    const r = await without('enum_periode_construction_id');
    expect(r.code).toBe(0);
    expect(r.alert('warning.dpe-inconsistent')).toContain(
      'the XML does not give the construction period (enum_periode_construction_id), which the 3CL method reads',
    );
    const clean = await runCli(['pre', HOUSE, '--json'], { dataDir: r.dir });
    expect(clean.stdout).not.toContain('the XML does not give');
    const audit = await runCli(['audit', r.file], { dataDir: r.dir });
    expect(audit.code).toBe(3);
    expect(audit.stderr).toContain(
      'input gate failed: inputs the method reads are given: no (enum_periode_construction_id',
    );
  });

  it('one the engine computes silently: pre says the figures are not the method’s, the audit’s gate stops', async () => {
    const dir = tempDir('dpe-sim-enum-');
    // the hot-water generator's energy: 99 is no energy of the method
    const file = mutated(dir, 'energy.xml', 'enum_type_energie_id', 0, '99');
    const pre = await runCli(['pre', file, '--json'], { dataDir: dir });
    expect(pre.code, pre.stderr).toBe(0);
    const body = JSON.parse(pre.stdout) as { warnings: { id: string; content: string }[] };
    const alert = body.warnings.find((w) => w.id === 'warning.dpe-inconsistent');
    expect(alert?.content).toMatch(
      /the input enum_type_energie_id is "99", not a value of the 3CL table type_energie.*\(XML: installation_ecs\[0\] generateur_ecs\[0\] enum_type_energie_id\)/,
    );
    // the untouched house has no such alert
    const clean = await runCli(['pre', HOUSE, '--json'], { dataDir: dir });
    expect(clean.stdout).not.toContain('not a value of the 3CL table');
    const audit = await runCli(['audit', file], { dataDir: dir });
    expect(audit.code).toBe(3);
    expect(audit.stderr).toMatch(
      /input gate failed: inputs are values of the 3CL tables: no \(installation_ecs\[0\] generateur_ecs\[0\]\.enum_type_energie_id/,
    );
  });
});

describe('dpe-sim auth', () => {
  it('issues a fresh single-use token URL each time', async () => {
    const dataDir = tempDir();
    const a = await runCli(['auth', '--json', '--dpe-id', '0000E0000001H', '--expire', '30'], {
      dataDir,
    });
    const b = await runCli(['auth'], { dataDir });
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    const urlA = (JSON.parse(a.stdout) as { url: string }).url;
    expect(urlA).toMatch(URL_RE);
    expect(b.stdout.trim()).toMatch(URL_RE);
    expect(b.stdout.trim()).not.toBe(urlA);
  });

  it('uses the configured app URL', async () => {
    const r = await runCli(['auth', '--app-url', 'https://app.example.test']);
    expect(r.stdout.trim()).toMatch(
      /^https:\/\/app\.example\.test\/public\/partnerLogin\.html\?partnerToken=/,
    );
  });

  it('rejects a bad --dpe-id and --expire', async () => {
    expect((await runCli(['auth', '--dpe-id', 'nope'])).code).toBe(2);
    expect((await runCli(['auth', '--expire', '0'])).code).toBe(2);
  });
});

describe('a new data directory opened by several commands at once', () => {
  it('migrates once: every command succeeds', async () => {
    const dataDir = tempDir();
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => runCli(['auth', '--json'], { dataDir })),
    );
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(runs.map(() => [0, '']));
  });
});

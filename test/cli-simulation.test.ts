import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CalcResponse, InitialResponse } from '../src/contract/schemas.js';
import { DEFAULT_COSTS } from '../src/works/costs.js';
import { FLAT, HOUSE, runCli, tempDir } from './helpers.js';

const WORKS = [
  '--work',
  'mur:0=ISOLATION:IMurITE37',
  '--work',
  'plancher_haut:0=ISOLATION:IComblesR7',
  '--work',
  'installation_chauffage:0=ReplaceGEN:PACAirEauECS',
];

describe('dpe-sim initial', () => {
  it('returns the DPE structure with works options, and the initial calculation', async () => {
    const r = await runCli(['initial', HOUSE, '--json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as InitialResponse;
    expect(body.dpe.id).toBe('0000E0000001H');
    expect(Object.keys(body.dpe.infos)).toEqual([
      'ref',
      'surface',
      'type_bien',
      'zone_climatique',
      'annee_construction',
      'classe_altitude',
      'energie_chauffage',
      'nombre_niveaux',
    ]);
    expect(body.dpe.infos.surface?.value).toBe(95.4);
    expect(body.dpe.items.mur).toHaveLength(5);
    const wall = body.dpe.items.mur[0];
    expect(wall?.referenceId).toBe('mur:0');
    const ite = wall?.editables.ISOLATION?.options.IMurITE37;
    expect(ite?.gainTotal).toBeGreaterThan(1000);
    // per m² of the wall's own area: 27.26 m² × the ITE figure (201 €/m²: 158 € of 2015, indexed)
    expect(DEFAULT_COSTS.ite.eur).toBe(201);
    expect(ite?.cout).toBe(Math.round(27.26 * DEFAULT_COSTS.ite.eur));
    expect(ite?.euroParKwh).toBeCloseTo((ite?.cout ?? 0) / (ite?.gainTotal ?? 1), 2);
    // the wall onto the garage offers no external insulation
    expect(Object.keys(body.dpe.items.mur[4]?.editables.ISOLATION?.values ?? {})).not.toContain(
      'IMurITE37',
    );
    expect(body.simulation.initialGrade).toBe('F');
    for (const v of Object.values(body.calculation.result)) expect(v.value).toBe(v.VInit);
    expect(body.calculation.errorMessage).toBeNull();
    expect(body.editableChanges.editablesValues).toEqual([]);
    expect(body.deltaCosts.margin).toBeGreaterThan(0);
    expect(body.dpe.thresholds.dpe.A).toBe(70);
  });

  it('shows the tables as tab-separated rows off a terminal', async () => {
    const r = await runCli(['initial', HOUSE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('DPE 0000E0000001H: class F');
    // by default: the best option of each element by € per kWh/yr saved, five of them
    expect(r.stdout).toMatch(/^Best options by € per primary kWh\/yr saved/m);
    // ITI R 3.0 priced by its R: 91 €/m² at R 3.7 − 0.7 × 7 €/m² per m²·K/W = 86 €/m²
    expect(r.stdout).toMatch(/^mur:3 Mur 4 Ouest\tISOLATION:IMurITI30\t819\u00a0€\t/m);
    expect(r.stdout).not.toContain('ISOLATION:IMurITE37'); // every option: --all
    expect(r.stdout).toContain(`More: dpe-sim initial ${HOUSE} --all`);
    const all = await runCli(['initial', HOUSE, '--all']);
    expect(all.stdout).toContain('ISOLATION:IMurITE37');
    expect(all.stdout).toMatch(/^Living area\t95.4\u00a0m²$/m);
    const bad = await runCli(['initial', HOUSE, '--show', 'options,nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown section nope; the sections are label, summary/);
    // the scenarios: the house is F (banned from 2028); reaching E postpones the ban to 2034,
    // D and better lift it
    expect(r.stdout).toContain('Recommended scenarios');
    expect(r.stdout).toMatch(/^1\tE\t.*\tfrom 2034 \(postponed\)$/m);
    expect(r.stdout).toMatch(/^2\tD\t.*\tnone \(lifted\)$/m);
    // what to run next, one line: a scenario's works, works of one's own, or a pick
    expect(r.stdout).toContain(
      `Next: dpe-sim calc ${HOUSE} --scenario-from 1 (a scenario's works), --work <referenceId>=<KEY>:<VALUE>, or -i to pick`,
    );
  });

  it('the packs: a line on the default screen, the comparison with --show packs', async () => {
    const r = await runCli(['initial', HOUSE, '--show', 'packs']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("The XML carries no works packs of the diagnostician's to compare.");
  });
});

describe('dpe-sim calc', () => {
  it('refuses a recalculation with no works: exit 2, a hint naming the ways to give works, nothing recorded', async () => {
    const dataDir = tempDir();
    const r = await runCli(['calc', HOUSE], { dataDir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: calc needs at least one works item\nhint: .*--work REF=KEY:VALUE.*--works FILE.*-i.*--scenario-from 1/,
    );
    expect(r.stdout).toBe('');
    const h = await runCli(['history', '--json'], { dataDir });
    expect(JSON.parse(h.stdout)).toMatchObject({ records: [] });
  });

  it("lists the works it applies, and --scenario-from lists the scenario's works", async () => {
    const dataDir = tempDir();
    const init = JSON.parse((await runCli(['initial', HOUSE, '--json'], { dataDir })).stdout) as {
      autoSolutions: {
        editables: { referenceId: string; editableKey: string; editableValue: string }[];
      }[];
    };
    const r = await runCli(['calc', HOUSE, '--scenario-from', '1'], { dataDir });
    expect(r.code).toBe(0);
    const works = init.autoSolutions[0]!.editables.map(
      (w) => `${w.referenceId}=${w.editableKey}:${w.editableValue}`,
    );
    expect(works.length).toBeGreaterThan(0);
    expect(r.stdout).toContain(`Works: ${works.join(', ')}`);
    expect(r.stdout).toContain(
      `To reproduce: dpe-sim calc ${HOUSE} ${works.map((w) => `--work ${w}`).join(' ')}`,
    );
  });

  it('recomputes with works; hints follow from the results', async () => {
    const r = await runCli(['calc', HOUSE, '--json', ...WORKS, '--scenario', 'renovation']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as CalcResponse;
    const res = body.calculation.result;
    const h = body.calculation.hints;
    expect(res.ep_conso_5_usages_m2.value).toBeLessThan(res.ep_conso_5_usages_m2.VInit);
    expect(res.classe_bilan_dpe.value).toBeLessThan(res.classe_bilan_dpe.VInit);
    expect(body.simulation.currentGrade).not.toBe(body.simulation.initialGrade);
    expect(body.namedCalculation).toBe('renovation');
    expect(body.editableChanges.editablesValues).toHaveLength(3);
    expect(h.gainTotal).toBeCloseTo(res.ep_conso_5_usages.VInit - res.ep_conso_5_usages.value, 1);
    expect(h.gainM2).toBeCloseTo(
      res.ep_conso_5_usages_m2.VInit - res.ep_conso_5_usages_m2.value,
      1,
    );
    expect(h.gainGESM2).toBeCloseTo(
      res.emission_ges_5_usages_m2.VInit - res.emission_ges_5_usages_m2.value,
      1,
    );
    expect(h.economieAnnuelle).toBeCloseTo(res.cout_5_usages.VInit - res.cout_5_usages.value, 1);
    expect(h.coutTravaux).toBe(
      Math.round(27.26 * DEFAULT_COSTS.ite.eur) +
        Math.round(95.4 * DEFAULT_COSTS.combles.eur) +
        DEFAULT_COSTS.pac_air_eau_ecs.eur,
    );
    expect(h.retourSurInvestissementAnnees).toBeCloseTo(h.coutTravaux / h.economieAnnuelle, 1);
    // next class threshold: the official class after works (worse of energy and GES), and the
    // energy limit of the better one
    const limits = [70, 110, 180, 250, 330, 420];
    const cls = res.classe_bilan_dpe.value;
    expect(body.calculation.classeSuivante).toBe('ABCDEFG'[cls - 2]);
    expect(body.calculation.freinClasseSuivante).toMatch(/^(energie|ges|energie\+ges)$/);
    // the spec: every field of hints is a number (null where a figure does not exist)
    for (const [k, v] of Object.entries(h)) expect([k, typeof v], k).toEqual([k, 'number']);
    const limit = limits[cls - 2] as number;
    expect(h.resteClasseSuivanteM2).toBeCloseTo(
      Math.max(0, res.ep_conso_5_usages_m2.value - limit),
      1,
    );
    expect(h.margeClasseSuivantePourcent).toBeCloseTo((h.resteClasseSuivanteM2 / limit) * 100, 1);
  });

  it('internal insulation loses floor area', async () => {
    const body = JSON.parse(
      (await runCli(['calc', HOUSE, '--json', '--work', 'mur:0=ISOLATION:IMurITI37'])).stdout,
    ) as CalcResponse;
    // 27.26 m² of wall / 2.5 m height × (3.7 × 0.035 + 0.013) m
    expect(body.calculation.result.perte_surface_m2.value).toBeCloseTo((27.26 / 2.5) * 0.143, 1);
    expect(body.calculation.hints.perteSurfaceTotal).toBe(
      body.calculation.result.perte_surface_m2.value,
    );
  });

  it('the same change twice is the change once', async () => {
    const once = JSON.parse(
      (await runCli(['calc', HOUSE, '--json', '--work', 'mur:0=ISOLATION:IMurITE37'])).stdout,
    ) as CalcResponse;
    const twice = JSON.parse(
      (
        await runCli([
          'calc',
          HOUSE,
          '--json',
          '--work',
          'mur:0=ISOLATION:IMurITE37',
          '--work',
          'mur:0=ISOLATION:IMurITE37',
        ])
      ).stdout,
    ) as CalcResponse;
    expect(twice.calculation.result).toEqual(once.calculation.result);
  });

  it('reads works from a JSON file and from stdin', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'works.json');
    const works = [
      { referenceId: 'ventilation:0', editableKey: 'VMC', editableValue: 'VMCHygroB' },
    ];
    writeFileSync(file, JSON.stringify(works));
    const a = JSON.parse(
      (await runCli(['calc', HOUSE, '--json', '--works', file])).stdout,
    ) as CalcResponse;
    const b = JSON.parse(
      (await runCli(['calc', HOUSE, '--json', '--works', '-'], { input: JSON.stringify(works) }))
        .stdout,
    ) as CalcResponse;
    expect(a.editableChanges.editablesValues).toEqual(works);
    expect(b.calculation.result).toEqual(a.calculation.result);
    expect(a.calculation.result.ep_conso_5_usages.value).toBeLessThan(
      a.calculation.result.ep_conso_5_usages.VInit,
    );
  });

  it('rejects invalid works before computing, listing what is allowed (exit 2)', async () => {
    const badRef = await runCli(['calc', HOUSE, '--work', 'mur:9=ISOLATION:IMurITE37']);
    expect(badRef.code).toBe(2);
    expect(badRef.stderr).toContain('this DPE has mur:0, mur:1, mur:2, mur:3, mur:4');
    const badKey = await runCli(['calc', HOUSE, '--work', 'mur:0=FENETRE:PVC']);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain(
      'allowed on mur:0: ISOLATION (IMurITE37, IMurITE45, IMurITI30, IMurITI37)',
    );
    const badValue = await runCli(['calc', HOUSE, '--work', 'mur:4=ISOLATION:IMurITE37']);
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toContain('external insulation only on walls facing the outside');
    const badSyntax = await runCli(['calc', HOUSE, '--work', 'mur0-ISOLATION']);
    expect(badSyntax.code).toBe(2);
    const badJson = await runCli(['calc', HOUSE, '--works', '-'], {
      input: '[{"referenceId": "mur:0"}]',
    });
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain("missing required field '[0].editableKey'");
  });

  it('normalizes to the registry when accepted, with VInit equal to the registry figure', async () => {
    const plain = JSON.parse(
      (await runCli(['calc', FLAT, '--json', '--work', 'ventilation:0=VMC:VMCHygroB'])).stdout,
    ) as CalcResponse;
    expect(plain.calculation.normalization.applied).toBe(false);
    const pre = JSON.parse((await runCli(['pre', FLAT, '--json'])).stdout) as {
      maxCalculation: { consommationXML: number; gesXML: number };
    };
    const forced = JSON.parse(
      (
        await runCli([
          'calc',
          FLAT,
          '--json',
          '--force-normalization',
          '--work',
          'ventilation:0=VMC:VMCHygroB',
        ])
      ).stdout,
    ) as CalcResponse;
    const r = forced.calculation.result;
    expect(forced.calculation.normalization.applied).toBe(true);
    expect(r.ep_conso_5_usages_m2.VInit).toBe(pre.maxCalculation.consommationXML);
    expect(r.emission_ges_5_usages_m2.VInit).toBe(pre.maxCalculation.gesXML);
    expect(r.ep_conso_5_usages_m2.value).toBeLessThan(r.ep_conso_5_usages_m2.VInit);
    // the bill: the engine's × the registry's over the engine's at the DPE's date prices; the
    // flat's DPE (2025) was priced with today's table, so its bill is the registry's own
    const factor = forced.calculation.normalization.billFactor as number;
    const p = plain.calculation.result.cout_5_usages;
    expect(factor).toBeCloseTo(1462.2265 / p.VInit, 3);
    expect(r.cout_5_usages.VInit).toBeCloseTo(1462.23, 1);
    expect(r.cout_5_usages.value).toBeCloseTo(p.value * factor, 0);
  });

  it('-i without a terminal fails with exit 2 and a clear message', async () => {
    const r = await runCli(['calc', HOUSE, '-i']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-i/--interactive needs a terminal');
  });

  it('--include-dpe and --include-user add the DPE and the user', async () => {
    const body = JSON.parse(
      (
        await runCli([
          'calc',
          HOUSE,
          '--json',
          '--include-dpe',
          '--include-user',
          '--work',
          'ventilation:0=VMC:VMCHygroB',
          '--user-name',
          'Alice',
        ])
      ).stdout,
    ) as CalcResponse;
    expect(body.dpe?.items.mur).toHaveLength(5);
    expect(body.user?.userName).toBe('Alice');
  });
});

describe('refused requests write nothing (local CLI)', () => {
  const records = async (dataDir: string) =>
    (
      JSON.parse((await runCli(['history', '--json'], { dataDir })).stdout) as {
        records: { operation: string; scenario: string | null }[];
      }
    ).records;

  it('calc --scenario-from N records exactly one calc run, and nothing when N is out of range', async () => {
    const dataDir = tempDir();
    const bad = await runCli(['calc', HOUSE, '--scenario-from', '99'], { dataDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /scenario 99 does not exist: this DPE has \d+ recommended scenarios?/,
    );
    expect(await records(dataDir)).toEqual([]);

    const ok = await runCli(['calc', HOUSE, '--scenario-from', '1', '--json'], { dataDir });
    expect(ok.code).toBe(0);
    const body = JSON.parse(ok.stdout) as CalcResponse;
    expect(body.editableChanges.editablesValues.length).toBeGreaterThan(0);
    const runs = await records(dataDir);
    expect(runs.map((r) => r.operation)).toEqual(['calc']);
    expect(runs[0]?.scenario).toBe(body.namedCalculation);
  });

  it('an option is named for the element it is fitted to: a French window’s new window is a "Porte-fenêtre", a glazed door’s new door an insulated glazed door (the bundled house, its door made glazed), simulated like for like at the same U', async () => {
    const dir = tempDir();
    const glazed = path.join(dir, 'house-glazed-door.xml');
    const xml = readFileSync(HOUSE, 'utf8');
    // the house's door: "porte simple en bois porte opaque pleine" (1) → "… avec double vitrage" (4)
    expect(xml.match(/<enum_type_porte_id>1<\/enum_type_porte_id>/g)?.length).toBe(1);
    writeFileSync(
      glazed,
      xml.replace(
        '<enum_type_porte_id>1</enum_type_porte_id>',
        '<enum_type_porte_id>4</enum_type_porte_id>',
      ),
    );
    const labels = async (file: string) => {
      const r = await runCli(['initial', file, '--json'], { dataDir: dir });
      expect(r.code, r.stderr).toBe(0);
      const items = (JSON.parse(r.stdout) as InitialResponse).dpe.items;
      return {
        windows: (items.baie_vitree ?? []).map((b) => b.editables.FENETRE?.values?.PVC),
        door: items.porte?.[0]?.editables.PORTE?.values?.PorteIsolee,
      };
    };
    const own = await labels(HOUSE);
    // baie_vitree:3 is the house's one French window (enum_type_baie_id 7)
    expect(own.windows).toEqual([
      'Fenêtre double vitrage PVC (Uw 1.3)',
      'Fenêtre double vitrage PVC (Uw 1.3)',
      'Fenêtre double vitrage PVC (Uw 1.3)',
      'Porte-fenêtre double vitrage PVC (Uw 1.3)',
      'Fenêtre double vitrage PVC (Uw 1.3)',
      'Fenêtre double vitrage PVC (Uw 1.3)',
    ]);
    expect(own.door).toBe('Porte pleine isolée (U 1.5)');
    expect((await labels(glazed)).door).toBe('Porte isolée avec double vitrage (U 1.5)');
    // either door replaced, the house is the same: an insulated door of the 3CL table's U 1.5
    const after = async (file: string) => {
      const r = await runCli(['calc', file, '-w', 'porte:0=PORTE:PorteIsolee', '--json'], {
        dataDir: dir,
      });
      expect(r.code, r.stderr).toBe(0);
      const res = (JSON.parse(r.stdout) as CalcResponse).calculation.result;
      return [res.ep_conso_5_usages?.value, res.ep_conso_5_usages?.VInit];
    };
    const [opaqueAfter, opaqueBefore] = await after(HOUSE);
    const [glazedAfter, glazedBefore] = await after(glazed);
    expect(glazedAfter).toBe(opaqueAfter);
    expect(glazedBefore).not.toBe(opaqueBefore);
  });

  it('auth for a DPE that does not exist exits 2 and issues no token', async () => {
    const dataDir = tempDir();
    const r = await runCli(['auth', '--dpe-id', '9999E9999999Z'], { dataDir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('9999E9999999Z');
    expect(r.stdout).toBe('');
  });
});

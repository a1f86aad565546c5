/**
 * Corrections of known faults of the bundled 3CL engine (@open3cl/engine 1.4.6), applied to its
 * sources as they load, like the memo patches (source-patches.ts), but changing results: each one
 * makes the engine agree with the registry's software where the engine parts from it. Unlike a
 * memo patch, a correction that no longer applies stops the build (scripts/bundle-engine.mjs)
 * and the module-load hook (an error, not a silent skip).
 *
 * Each correction names the section of the 3CL method it follows and the upstream issue, has a
 * test on a corpus DPE that shows the fault (test/fidelity-corrections.test.ts), and the same
 * change as a plain diff against the engine's published sources in patches/open3cl/<id>.diff
 * (written by scripts/engine-patches.mjs, checked by the test), with its README.
 * docs/fidelity.md has the dashboard before and after, correction by correction.
 */
/** A patch to one engine module (source-patches.ts applies them: the memos, then the corrections). */
export interface SourcePatch {
  /** the module's URL ends with this */
  suffix: string;
  /** exact texts replaced, each once; the patch is skipped unless every one is found */
  replace: [string, string][];
  /** appended to the module */
  append: string;
  /** the marker that shows the patch is already there */
  marker: string;
  /**
   * A correction of the engine's result (src/engine/corrections.ts), not a memo: it must apply
   * (the module-load hook throws, the bundle build fails, when one of its texts is not found).
   */
  correction?: boolean;
}

export interface Correction {
  /** stable id: the name of patches/open3cl/<id>.diff */
  id: string;
  /** the engine module, relative to the package root (src/<module> in the engine's repository) */
  module: string;
  /** one line: what was wrong */
  fault: string;
  /** the section of the 3CL method (arrêté du 31 mars 2021, annexe 1) it follows */
  section: string;
  /** the upstream issue(s), e.g. Open3CL/engine#8 */
  upstream: string;
  /** exact texts replaced, each found exactly once */
  replace: [string, string][];
  /** appended to the module (helpers) */
  append: string;
}

export const CORRECTIONS: Correction[] = [
  {
    id: 'q4pa-conv-declared',
    module: '4_ventilation.js',
    fault:
      'bug-for-bug mode says it uses the Q4Pa,conv row the DPE declares (tv_q4pa_conv_id) when the ' +
      'engine would pick another, but then looks the row up again with its own criteria',
    section:
      '§4 (renouvellement d’air, Hperm: Q4Pa,conv by period, kind of dwelling, insulated surfaces, joints)',
    upstream:
      'Open3CL/engine#8 and jzck/Open3CL#60, #293 (the criteria recomputed in default mode)',
    replace: [
      [
        `  if (bug_for_bug_compat && de.tv_q4pa_conv_id) {
    const rowQ4paConv = tv('q4pa_conv', {`,
        `  let declaredQ4paConv;
  if (bug_for_bug_compat && de.tv_q4pa_conv_id) {
    const rowQ4paConv = (declaredQ4paConv = tv('q4pa_conv', {`,
      ],
      [
        `      tv_q4pa_conv_id: de.tv_q4pa_conv_id
    });`,
        `      tv_q4pa_conv_id: de.tv_q4pa_conv_id
    }));`,
      ],
      [
        `  const row = tv('q4pa_conv', matcher);`,
        `  // bug-for-bug: the row the DPE declares, as the messages above say, when it is one of this
  // dwelling's period and kind (a row of another period or kind is a stale id: look it up)
  const row = q4paConvRowFits(declaredQ4paConv, matcher)
    ? declaredQ4paConv
    : tv('q4pa_conv', matcher);`,
      ],
    ],
    append: `
function q4paConvRowFits(row, matcher) {
  if (!row) return false;
  const has = (list, id) => String(list ?? '').split('|').includes(String(id));
  return (
    has(row.enum_periode_construction_id, matcher.enum_periode_construction_id) &&
    has(row.enum_methode_application_dpe_log_id, matcher.enum_methode_application_dpe_log_id)
  );
}
`,
  },
  {
    id: 'ecs-tracage-auxiliaries',
    module: 'conso.js',
    fault:
      'the consumption of the auxiliaries of hot-water distribution is fixed at 0: a collective ' +
      'installation with a heat-traced network (traçage) pays no electricity for its tracing cable',
    section:
      '§15 (consommation des auxiliaires de distribution d’ECS): with traçage, 0.14 × the ' +
      'installation’s hot-water need, apportioned to the dwelling as its hot-water consumption',
    upstream: 'Open3CL/engine#157 (building), #158 (flat), PR #179',
    replace: [
      [
        `    return acc.concat(generateur_ecs);`,
        `    // §15: traçage of a collective network: 0.14 × the installation's need (kWh), carried by
    // its first generator and apportioned like its consumption
    const tracage =
      String(ecs.donnee_entree.enum_type_installation_id) !== '1' &&
      String(ecs.donnee_entree.enum_bouclage_reseau_ecs_id) === '3';
    generateur_ecs.forEach((value, i) => {
      (value.donnee_utilisateur = value.donnee_utilisateur || {}).conso_auxiliaire_distribution_ecs =
        tracage && i === 0 ? 0.14 * (Number(ecs.donnee_intermediaire?.besoin_ecs) || 0) : 0;
    });
    return acc.concat(generateur_ecs);`,
      ],
      [
        `  ret.auxiliaire_distribution_ecs = 0;`,
        `  ret.auxiliaire_distribution_ecs = gen_ecs.reduce((acc, gen_ecs) => {
    const conso = gen_ecs.donnee_utilisateur?.conso_auxiliaire_distribution_ecs || 0;
    return (
      acc +
      getConso(coef, 'électricité auxiliaire', conso) *
        (gen_ecs.donnee_entree.cle_repartition_ecs || prorataECS)
    );
  }, 0);`,
      ],
    ],
    append: '',
  },
  {
    id: 'reseau-chaleur-tv-id',
    module: 'conso.js',
    fault:
      'a district-heating network named by its id in the 2020 list (tv_reseau_chaleur_id, the ' +
      'first XML versions) gets the default factor of "other networks" (0.385 kg CO2e/kWh)',
    section:
      'emission factors (arrêté du 31 mars 2021, annexe 1 and the networks’ CO2 contents): the ' +
      'network’s own content in the list the DPE names',
    upstream: 'none found (Open3CL/engine reads identifiant_reseau_chaleur only)',
    replace: [
      [
        `    } else {
      // Prendre la valeur pour "AUTRES RESEAUX DE CHALEUR"
      return 0.385;
    }`,
        `    } else if (gen_ch.donnee_entree.tv_reseau_chaleur_id) {
      // DPE of the first XML versions: the network by its id in the 2020 list, its CO2 content
      const row = tv('reseau_chaleur_2020', {
        tv_reseau_chaleur_id: gen_ch.donnee_entree.tv_reseau_chaleur_id
      });
      if (row) return Number(row.contenu_co2);
      return 0.385;
    } else {
      // Prendre la valeur pour "AUTRES RESEAUX DE CHALEUR"
      return 0.385;
    }`,
      ],
    ],
    append: '',
  },
];
/** The marker a corrected module carries (idempotence of the module-load hook). */
export function correctionMarker(c: Correction): string {
  return `dpe-sim correction ${c.id}`;
}

export function correctionPatch(c: Correction): SourcePatch {
  return {
    suffix: `/@open3cl/engine/${c.module}`,
    replace: c.replace,
    append: `${c.append}// ${correctionMarker(c)}\n`,
    marker: correctionMarker(c),
    correction: true,
  };
}

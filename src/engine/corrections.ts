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
 *
 * A correction is its anchors here (the exact texts it replaces in the engine module, each found
 * exactly once: the hunks of its diff) and, when it needs helpers, the real JavaScript file
 * `patches/corrections/<id>.js` next to this module (linted and formatted like the rest, in the
 * engine's own style: no trailing commas), appended to the module. How to add one:
 * docs/engine.md, "Engine patches as code".
 */
import { patchFileText } from './patch-files.js';

/** A patch to one engine module (source-patches.ts applies them: the memos, then the corrections). */
export interface SourcePatch {
  /** the module's URL ends with this */
  suffix: string;
  /** exact texts replaced, each once; the patch is skipped unless every one is found */
  replace: [string, string][];
  /** appended to the module (the patch file's code) */
  append: string;
  /** the patch file, relative to patches/ (the build checks that every file there is used) */
  file?: string;
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
  /**
   * the corrections it reads (logiciel-dpe-kept's software): applied with it when it is run
   * alone (`bench/bare-engine.mjs --correction`, the dashboard's "moved by"); its diff is
   * proposed with theirs
   */
  needs?: string[];
  /**
   * exact texts replaced, each found exactly once; helpers they call go in
   * patches/corrections/<id>.js (appended to the module, optional)
   */
  replace: [string, string][];
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
        tracage && i === 0
          ? 0.14 * (Number(ecs.donnee_intermediaire?.besoin_ecs) || 0)
          : value.donnee_utilisateur.conso_auxiliaire_distribution_ecs || 0;
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
  },
  {
    id: 'mur-doublage-declared',
    module: '3.2.1_mur.js',
    fault:
      'a wall with a doublage (lining): some DPE software caps the bare U0 at 2.5 before adding ' +
      'the lining’s resistance, some leave the lining out of U0 when the insulation is unknown; ' +
      'the engine detects the first reading in bug-for-bug mode but keeps its own (walls up to ' +
      '17% more losses than the DPE), and misses the second',
    section:
      '§3.2.1 (Umur0 = 1 / (1 / Umur_nu + Rdoublage), Rdoublage 0.1 or 0.21 m².K/W; Umur ≤ 2.5)',
    upstream:
      'none found: the engine’s own message (checkDoublageWithMinUmur0, "Certains DPE minorent ' +
      'Umur0 à 2.5 avant d’appliquer le doublage"); Open3CL/engine#146 and PR #174 on the ' +
      'doublage with an insulation are another case',
    replace: [
      [
        `    di.umur0 = umur0Doublage;
  }`,
        `    // bug-for-bug: the reading of the doublage the DPE's stored Umur0 / Umur shows
    di.umur0 = bug_for_bug_compat
      ? doublageAsDeclared(type_doublage, di.umur0, umur0Doublage, umur0_avant, umur_avant)
      : umur0Doublage;
  }`,
      ],
    ],
  },
  {
    id: 'deperdition-ecart-declare',
    module: '3_deperdition.js',
    fault:
      'where the DPE declares a total of wall (thermal-bridge) losses that is not the sum of its ' +
      'elements, the engine keeps that total while every element equals the declared one and ' +
      'drops it as soon as one changes: a works simulation credits (or charges) the whole ' +
      'difference to the first works that touch a wall (a bridge), up to half the envelope’s ' +
      'losses on the corpus (2221E0006033X: bridges declared 20.1 W/K, their sum 79.1)',
    section:
      '§3 (déperditions: DP = Σ b × U × A + Σ l × k; the totals are the sums of the elements)',
    upstream:
      'none found (the engine’s own message, "Le total déclaré est conservé"): a works ' +
      'simulation’s concern, the caller passes the difference the DPE as it is kept',
    replace: [
      [
        `  return calculatedDeperditionPT;
}`,
        `  // a works simulation: the difference the unchanged DPE kept (ecartTotalDeclare)
  return sameValues
    ? calculatedDeperditionPT
    : calculatedDeperditionPT + ecartTotalDeclare(dpe, 'pont_thermique');
}`,
      ],
      [
        `  return calculatedDeperditionMur;
}`,
        `  // a works simulation: the difference the unchanged DPE kept (ecartTotalDeclare)
  return sameValues
    ? calculatedDeperditionMur
    : calculatedDeperditionMur + ecartTotalDeclare(dpe, 'mur');
}`,
      ],
    ],
  },
  {
    id: 'pont-thermique-declared',
    module: '3.4_pont_thermique.js',
    fault:
      'bug-for-bug mode looks every tabulated thermal bridge up again with its own criteria ' +
      '(insulation of the wall and floor, kind of fitting) even when the DPE declares its row ' +
      '(tv_pont_thermique_id) and the stored k is that row’s',
    section:
      '§3.4 (ponts thermiques: k by kind of junction, insulation, fitting; × 0.5 for a ' +
      'junction the dwelling does not close)',
    upstream: 'none found (the engine reads tv_pont_thermique_id only for an unmatched bridge)',
    replace: [
      [
        `  const row = tv('pont_thermique', matcher);`,
        `  // bug-for-bug: the row the DPE declares when its stored k is that row's
  const row = (bug_for_bug_compat && declaredPontThermiqueRow(de, pt_di)) || tv('pont_thermique', matcher);`,
      ],
    ],
  },
  {
    id: 'plancher-bas-ue-declared',
    module: '3.2.2_plancher_bas.js',
    fault:
      'bug-for-bug mode recomputes the Ue of a floor on the ground, a crawl space or an ' +
      'unheated basement (2S/P of all such floors, interpolation on Upb) over the Ue the DPE ' +
      'declares among its inputs, which is the figure the DPE used',
    section: '§3.2.2 (plancher bas: Ue by 2S/P and Upb, tables for ground, crawl space, basement)',
    upstream: 'jzck/Open3CL#46 (2187E0982591I: the floor losses differ from the DPE’s)',
    replace: [
      [
        `function tv_ue(di, de, du, pc_id, pb_list) {
`,
        `function tv_ue(di, de, du, pc_id, pb_list) {
  // bug-for-bug: the Ue the DPE declares (donnee_entree.ue) is the one it computed with
  const ueDeclared = Number(de.ue);
`,
      ],
      [
        `  de.ue = ue;
}
`,
        `  // unless it is the engine's own Ue rounded (to 3 decimals in some XMLs): then the engine's
  // unrounded figure is the DPE's
  de.ue =
    bug_for_bug_compat && ueDeclared > 0 && Math.abs(ueDeclared - ue) >= 0.0005 ? ueDeclared : ue;
}
`,
      ],
    ],
  },
  {
    id: 'plancher-haut-uph-declared',
    module: '3.2.3_plancher_haut.js',
    fault:
      'a roof of unknown insulation (table by period): the engine takes min(Uph_tab, Uph0) ' +
      'where the DPE’s software kept the roof uninsulated, its stored Uph equal to its Uph0 ' +
      'and above the row it declares (2475E3702442Q: 1.2 where the engine has 0.75)',
    section:
      '§3.2.3 (plancher haut: Uph = min(Uph_tab, Uph0) when the insulation is unknown; Uph0 ' +
      'by kind of roof)',
    upstream: 'none found (the engine reads the stored uph0 only, never the stored uph)',
    replace: [
      [
        `  di.uph0 = ph.donnee_intermediaire?.uph0;
`,
        `  di.uph0 = ph.donnee_intermediaire?.uph0;
  const uphStored = ph.donnee_intermediaire?.uph;
`,
      ],
      [
        `      tv_uph(di, de, du, de.enum_periode_isolation_id || pc_id, zc, effetJoule);
      calc_uph0(di, de, du);
      di.uph = Math.min(di.uph, di.uph0);`,
        `      tv_uph(di, de, du, de.enum_periode_isolation_id || pc_id, zc, effetJoule);
      calc_uph0(di, de, du);
      // bug-for-bug: the uninsulated reading the DPE's stored Uph shows
      di.uph = uphAsDeclared(Math.min(di.uph, di.uph0), di.uph0, uphStored);`,
      ],
    ],
  },
  {
    id: 'dh19-h2d-legacy',
    module: 'engine.js',
    fault:
      'the degree-hours at 19 °C of zone H2d (December) were corrected in the method’s table ' +
      '(15 639.4 → 9 533, below 400 m); the engine ships both tables (dh19, dh19_legacy) but ' +
      'computes every DPE with the corrected one, where the registry’s software of 2023 used ' +
      'the earlier one: the conventional heating need of those DPEs is 12.5% below the registry’s',
    section:
      '§6 and §9 (besoin de chauffage: DH19 by month, zone and altitude, table of the ' +
      'sollicitations extérieures)',
    upstream: 'Open3CL/engine#110 (commit 13507b3, "update dh19 for 2hd zone": dh19_legacy kept)',
    replace: [
      [
        `  const besoin_ch = calc_besoin_ch(
    ilpa,`,
        `  // bug-for-bug: a DPE established before the corrected table computes with the earlier one
  const besoin_ch = withDh19AsEstablished(dateDpe, () => calc_besoin_ch(
    ilpa,`,
      ],
      [
        `    dpe.logement.caracteristique_generale.nombre_appartement
  );
  apport_et_besoin = { ...apport_et_besoin, ...besoin_ch };`,
        `    dpe.logement.caracteristique_generale.nombre_appartement
  ));
  apport_et_besoin = { ...apport_et_besoin, ...besoin_ch };`,
      ],
    ],
  },
  {
    id: 'pv-generated-flat-share',
    module: 'engine.js',
    fault:
      'a flat generated from building data (DPE appartement généré à partir des données DPE ' +
      'immeuble) gets the whole building’s photovoltaic production against its own ' +
      'consumption, where its figures are the building’s at the flat’s share of the surface: ' +
      'its self-consumed electricity is several times the registry’s (2324E4500479J: 725 kWh ' +
      'where the registry has 221, its auxiliaries 36% below)',
    section:
      '§16.2 (production d’électricité photovoltaïque: Ppv, Tcv = Ppv / Celec,tot, Tap) and the ' +
      'flats generated from a building’s DPE (the building’s figures at the flat’s share of ' +
      'the habitable surface)',
    upstream: 'none found',
    replace: [
      [
        `  const production_electricite = productionENR.calculateEnr(
    dpe.logement.production_elec_enr,
    conso,
    Sh,
    th,
    zc_id,
    false
  );`,
        `  // a flat generated from a building's DPE: the building's production at the flat's share
  const production_electricite = withPvShareOfFlat(dpe.logement, () => productionENR.calculateEnr(
    dpe.logement.production_elec_enr,
    conso,
    Sh,
    th,
    zc_id,
    false
  ));`,
      ],
      [
        `  productionENR.calculateEnr(dpe.logement.production_elec_enr, conso2_3, Sh, th, zc_id, true);`,
        `  withPvShareOfFlat(dpe.logement, () =>
    productionENR.calculateEnr(dpe.logement.production_elec_enr, conso2_3, Sh, th, zc_id, true)
  );`,
      ],
    ],
  },
  {
    id: 'ventilation-cle-flat-scale',
    module: 'conso.js',
    fault:
      'the auxiliaries of a ventilation whose surface_ventile is the flat’s own are multiplied ' +
      'by cle_repartition_ventilation again: the engine computes them on surface_ventile ' +
      '(5_conso_ventilation.js) and reads a surface other than Sh as the building’s ' +
      '(4_ventilation.js), but applies the key to both (2463E3164679Z: 15.86 kWh where the ' +
      'XML has 252.945, its own donnee_intermediaire)',
    section:
      '§5 (consommation des auxiliaires de ventilation: Pvent on the ventilated surface; a ' +
      'collective system’s figure at the building’s scale is given to the flat by its key)',
    upstream: 'none found',
    replace: [
      [
        `    if (vt.donnee_entree.cle_repartition_ventilation) {
      conso *= vt.donnee_entree.cle_repartition_ventilation;
    }`,
        `    // the key gives the flat its share of a building-scale figure only
    if (vt.donnee_entree.cle_repartition_ventilation && !ventilationAtFlatScale(vt, Sh)) {
      conso *= vt.donnee_entree.cle_repartition_ventilation;
    }`,
      ],
    ],
  },
  {
    id: 'circulateur-generated-flat',
    module: '9_generateur_ch.js',
    fault:
      'a flat generated from building data computes the heating circulator on the building’s ' +
      'surface and losses but with the flat’s heated surface: the flow is the flat’s share ' +
      'and the power falls to the 30 W floor of a whole circulator, for each flat ' +
      '(2378E0897918K: 173.76 kWh/yr where the building’s circulator at the flat’s share ' +
      'gives 43.5; 2342E2213002E: 221.4 where the registry counts 127.2); an individual ' +
      'installation stands for rdim circulators, one per dwelling (2335E4488024T: 21 of ' +
      '30 W at the flat’s share, 145.33, the registry’s)',
    section:
      '§15.2.1 (puissance des circulateurs: Lem, ΔPem, Pnc = GV × (20 − Tbase), at least ' +
      '30 W) and the flats generated from a building’s DPE (the building’s figures at the ' +
      'flat’s share of the habitable surface; an individual installation is rdim identical ' +
      'ones)',
    upstream: 'none found',
    replace: [
      [
        `    conso_aux_distribution_ch(em_ch, de, di, du, Sh, zc_id, ca_id, ilpa, GV);`,
        `    // a flat generated from a building's DPE: the building's circulator(s) at the flat's share
    // (an individual installation: rdim circulators of an average dwelling)
    const circulateur = circulateurOfGeneratedFlat(dpe, de, Sh, GV);
    conso_aux_distribution_ch(
      em_ch,
      circulateur.de,
      di,
      du,
      circulateur.Sh,
      zc_id,
      ca_id,
      ilpa,
      circulateur.GV
    );
    di.conso_auxiliaire_distribution_ch *= circulateur.share;`,
      ],
    ],
  },
  {
    id: 'cout-gpl',
    module: 'conso.js',
    fault:
      'LPG (enum_type_energie_id 13, "gpl") has no price in coef_cout: getConso returns the ' +
      'consumption itself, 1 € per kWh, so an LPG-heated house gets a bill 5–7 times the ' +
      'registry’s (2287E1043883T: heating 34 273 € where the XML has 4 902.81 €)',
    section:
      'annexe 7 of the arrêté du 31 mars 2021 (prix des énergies: propane 0.14305 €/kWh), the ' +
      'price the registry gives LPG (16 corpus DPEs of 2021–2023, each at 0.14305 €/kWh)',
    upstream: 'none found (jzck/Open3CL#232 added LPG’s emission factor, not its price)',
    replace: [['  butane: 0.20027,\n', '  butane: 0.20027,\n  gpl: 0.14305,\n']],
  },
  {
    id: 'confort-ete-toiture',
    module: '2021_04_13_confort_ete.js',
    fault:
      'the summer-comfort criterion "isolation de la toiture" looks only at roofs onto the ' +
      'outside: a bare ceiling under a lost attic counts as an insulated roof (2287E1018120W, ' +
      '"isolation_toiture" 1 where the XML has 0), and one part of unknown insulation makes the ' +
      'whole roof bare, whatever its U (2287E1956426O, 0 where the XML has 1)',
    section:
      'annexe 1 (indicateur de confort d’été: isolation de la toiture, for the dwellings under a ' +
      'roof), the criterion the registry’s software computes on every heat-losing roof',
    upstream: 'none found (Open3CL/engine test/open3cl-sorties-confort-ete.spec.js compares it)',
    replace: [
      [
        `  const isolation_toiture = ph.reduce((acc, ph) => {
    const de = ph.donnee_entree;
    const du = ph.donnee_utilisateur;
    const type_adjacence = requestInput(de, du, 'type_adjacence');
    if (type_adjacence === 'extérieur') {
      const type_isolation = requestInput(de, du, 'type_isolation');
      if (type_isolation === 'inconnu' || type_isolation === 'non isolé') return 0;
    }
    return acc;
  }, 1);`,
        `  // every heat-losing roof, by area (patches/corrections/confort-ete-toiture.js)
  const isolation_toiture = toitureIsolee(ph);`,
      ],
    ],
  },
  {
    id: 'qp0-virtualised-ch',
    module: '13.2_generateur_combustion_ch.js',
    fault:
      'bug-for-bug mode reads a combustion generator’s standby losses below 1 as kW and ' +
      'multiplies them by 1 000, also for a collective boiler virtualised in a flat, whose ' +
      'table qp0 is the flat’s share of the boiler’s and legitimately below 1 W (2475E0919281Z, ' +
      'ratio_virtualisation 0.0019: a new condensing boiler room 0.49 → 487 W of standby losses, ' +
      'efficiency 0.89 → 0.40, the works doubling the flat’s heating)',
    section:
      '§13.2.1 (générateurs à combustion: QP0 by Pn, 0.3% of Pn for a condensing boiler) and ' +
      '§17.2.1 (DPE à l’appartement, usages collectifs: the collective generator virtualised at ' +
      'the flat’s share)',
    upstream: 'none found (the engine’s own message: "Passage de la valeur en W")',
    replace: [
      [
        `    if (di.qp0 < 1) {
      di.qp0 *= 1000;`,
        `    // a virtualised collective generator's qp0 is the dwelling's share: the unit is judged
    // on the whole generator's
    if (di.qp0 / (Number(de.ratio_virtualisation) || 1) < 1) {
      di.qp0 *= 1000;`,
      ],
    ],
  },
  {
    id: 'rg-qp0-pcs',
    module: '13.2_generateur_combustion_ch.js',
    fault:
      'a combustion generator’s efficiency Rg,pcs divides by 0.45 × QP0 in PCI while every ' +
      'other term is in PCS (QPx() takes qp0 × k): its efficiency comes out 0.04–1.8% above ' +
      'the XML’s stored rendement_generation, more the larger its Cdimref (2187E0982591I, a ' +
      'standard oil boiler: 0.7492 where the XML has 0.7456)',
    section:
      '§13.2.1.2 (générateurs à combustion: Rg,pcs = Pmfou / (Pmcons + 0.45 QP0 + Pveil), the ' +
      'losses converted to PCS by k: 1.11 gas, 1.07 oil, 1.08 wood, 1.09 LPG, 1.04 coal)',
    upstream: 'none found in Open3CL/engine’s threads',
    replace: [
      [
        `  const QP0 = di.qp0 / 1000;`,
        `  // QP0 in PCS, like the losses QPx() adds to Pmcons (qp0 × k): Rg is computed on PCS
  const QP0 = (di.qp0 * k) / 1000;`,
      ],
    ],
  },
  {
    id: 'charbon-k-liciel',
    module: '13.2_generateur_combustion_ch.js',
    needs: ['logiciel-dpe-kept'],
    fault:
      'the registry’s figures of LICIEL’s DPEs (usr_logiciel_id 26615) compute a coal-fired ' +
      'heating generator’s efficiency with a PCS/PCI ratio k of 1, where the engine takes the ' +
      'method’s 1.04 (2359E2800645M: stored efficiency 0.763, heating 48 910.15 kWh/yr; the ' +
      'engine 0.7621 and 48 969.36, with k 1 0.7630 and 48 910.07)',
    section:
      '§13.2.1.2 (générateurs à combustion: Rg = Rg,pcs × k, Rpn, Rpint and QP0 converted to PCS ' +
      'with k, 1.04 for coal)',
    upstream: 'none found',
    replace: [
      [
        `  const type_energie = enums.type_energie[de.enum_type_energie_id];
  const k = K[type_energie];`,
        `  const type_energie = enums.type_energie[de.enum_type_energie_id];
  // bug-for-bug: coal's k as the DPE's software took it (patches/corrections/charbon-k-liciel.js)
  const k = pcsRatio(type_energie, di);`,
      ],
      [
        `export function calc_generateur_combustion_ch(dpe, di, de, du) {
`,
        `export function calc_generateur_combustion_ch(dpe, di, de, du) {
  coalKOf.set(di, coalPcsRatio(dpe.administratif?.diagnostiqueur));
`,
      ],
      [
        `  const type_energie = requestInput(de, du, 'type_energie');
  const k = K[type_energie];`,
        `  const type_energie = requestInput(de, du, 'type_energie');
  const k = pcsRatio(type_energie, di);`,
      ],
    ],
  },
  {
    id: 'qp0-air-chaud',
    module: '13.2_generateur_combustion_ch.js',
    fault:
      'a warm-air generator’s table QP0, Pn × (1.75 − 0.55 log Pn) in % of Pn, is divided by 100 ' +
      'inside QPx() on every call (di.qp0 = di.qp0 / 100), about twenty times per run: its ' +
      'standby losses fall to 0 and its efficiency comes out 2% above the XML’s stored ' +
      'rendement_generation (2574E0561248M: 0.8318 where the XML has 0.8157, qp0 190.73 W)',
    section:
      '§13.2.1.2 (générateurs à combustion, Rg,pcs) with the table of §13.2.1 for the ' +
      'générateurs d’air chaud (QP0 = Pn × (1.75 − 0.55 log Pn) %, Rpn, Rpint)',
    upstream: 'none found in Open3CL/engine’s threads',
    replace: [
      [
        `    // Change QP0 to be in decimal
    di.qp0 = di.qp0 / 100;
    qp0 = (di.qp0 * k) / 1000;
`,
        `    // di.qp0 is in W: calc_generateur_combustion_ch() turns the table's percentage into W once
`,
      ],
      [
        `  // La puissance de la veilleuse est à prendre en compte seulement si elle est présente dans l'installation`,
        `  // A warm-air generator's table QP0, Pn × (1.75 − 0.55 log Pn), is a percentage of Pn: in W
  // once (tv_generateur_combustion() sets it again before every call); a typed qp0 (methods 4
  // and 5) is in W already
  if (
    enums.type_generateur_ch[de.enum_type_generateur_ch_id]?.includes('générateur à air chaud') &&
    ![4, 5].includes(parseInt(de.enum_methode_saisie_carac_sys_id))
  ) {
    di.qp0 = di.qp0 / 100;
  }

  // La puissance de la veilleuse est à prendre en compte seulement si elle est présente dans l'installation`,
      ],
    ],
  },
  {
    id: 'stockage-ecs-production-volume',
    module: '9_besoin_ch.js',
    fault:
      'bug-for-bug mode recovers no storage losses from a hot-water tank whose generator says ' +
      'position_volume_chauffe 0 while the tank says it is in the heated volume ' +
      '(position_volume_chauffe_stockage 1) or, when it says nothing, its installation declares ' +
      'the production in the habitable volume (tv_rendement_distribution_ecs 1 or 2): the ' +
      'registry recovers them ' +
      '(2387E1742056P: 250.79 kWh/yr of pertes_stockage_ecs_recup, the engine 0, its heating ' +
      'need +0.96%)',
    section:
      '§9.1.1 (besoin de chauffage: pertes de stockage d’ECS récupérées, 0.48 × Qgw × Nref / ' +
      '8760 for a tank in the heated volume) and §11 (rendement de distribution d’ECS: ' +
      'production en volume habitable or hors volume habitable)',
    upstream: 'none found',
    replace: [
      [
        `        if (
          gen_ecs.donnee_entree.position_volume_chauffe_stockage === 0 ||
          gen_ecs.donnee_entree.position_volume_chauffe === 0
        ) {`,
        `        if (
          gen_ecs.donnee_entree.position_volume_chauffe_stockage === 0 ||
          (gen_ecs.donnee_entree.position_volume_chauffe === 0 &&
            !stockageInHeatedVolume(instal_ecs, gen_ecs))
        ) {`,
      ],
    ],
  },
  {
    id: 'stockage-ecs-collectif',
    module: '9_besoin_ch.js',
    fault:
      'the engine recovers no storage losses from the tank of a collective hot-water ' +
      'installation, where the registry does (2235E0705773N: 125.8 kWh/yr of ' +
      'pertes_stockage_ecs_recup, the engine 0; 2375E2295619A: 1 587.7)',
    section:
      '§9.1.1 (pertes de stockage d’ECS récupérées) and §17.2.1.1 (DPE à l’appartement, ' +
      'usages collectifs), as the registry’s software applies them',
    upstream: 'none found',
    replace: [
      [
        `    if (Number.parseInt(instal_ecs.donnee_entree.enum_type_installation_id) !== 1) {`,
        `    // bug-for-bug: the registry recovers a collective tank's losses too
    if (
      Number.parseInt(instal_ecs.donnee_entree.enum_type_installation_id) !== 1 &&
      !bug_for_bug_compat
    ) {`,
      ],
    ],
  },
  {
    id: 'qp0-virtualised-ecs',
    module: '14_generateur_ecs.js',
    fault:
      'the same unit guess on a hot-water combustion generator: a collective boiler virtualised ' +
      'in a flat gets 1 000 times its standby losses (2475E0919281Z after a new boiler room: ' +
      'the flat’s hot water 947 → 1 940 kWh/yr)',
    section: '§14 (génération d’ECS, générateurs à combustion: QP0) and §17.2.1',
    upstream: 'none found (the engine’s own message: "Passage de la valeur en W")',
    replace: [
      [
        `      if (di.qp0 < 1) {
        di.qp0 *= 1000;`,
        `      // a virtualised collective generator's qp0 is the dwelling's share: the unit is judged
      // on the whole generator's
      if (di.qp0 / (Number(de.ratio_virtualisation) || 1) < 1) {
        di.qp0 *= 1000;`,
      ],
    ],
  },
  {
    id: 'aux-generation-ch-share',
    module: '9_conso_ch.js',
    fault:
      'a generator that covers a share of its installation’s need (an insert or stove in ' +
      'appoint, a boiler in relève of a heat pump: 0.75 / 0.25, 0.8 / 0.2) consumes generator ' +
      'auxiliaries for the whole need: 4/3 of the XML’s conso_auxiliaire_generation_ch on the ' +
      'boiler of a boiler + wood-stove house (2287E0722622O: 93.30 kWh/yr where the XML has ' +
      '69.98), 5 times on a boiler in relève of a heat pump (2464E1799476F: 76.33 against 15.04)',
    section:
      '§15.1 (consommation des auxiliaires de génération: Paux,g × the need the generator covers ' +
      '/ Pn) with §9 (installations with several generators: the need shared 0.75 / 0.25, ' +
      '0.8 / 0.2, … as their consumption is)',
    upstream: 'none found (Open3CL/engine#28 is the cascade of non-combustion generators)',
    replace: [
      [
        `      di.conso_ch = conso_ch;
      di.conso_ch_depensier = conso_ch_dep;`,
        `      di.conso_ch = conso_ch;
      di.conso_ch_depensier = conso_ch_dep;
      // §15.1: the generator's auxiliaries run for the share of the need it covers, like its
      // consumption (conso_aux_gen() was given the whole need; it is linear in the need)
      di.conso_auxiliaire_generation_ch *= coef;
      di.conso_auxiliaire_generation_ch_depensier *= coef;`,
      ],
    ],
  },
  {
    id: 'aux-generation-ch-surface',
    module: '15_conso_aux.js',
    fault:
      'the generator auxiliaries of an installation that heats part of the dwelling are prorated ' +
      'to its heated surface twice: calc_chauffage() already gives the generator its ' +
      'installation’s need (× Sc / Sh) and conso_aux_gen() multiplies by Sc / Sh again ' +
      '(2303E4293288R, half the house: 12.53 kWh/yr where the XML has 25.05; 2368E3397674M: 7.91 ' +
      'against 17.70)',
    section:
      '§15.1 (consommation des auxiliaires de génération: Paux,g × the need of the installation ' +
      'the generator covers / Pn) and §9 (the need of an installation: the dwelling’s at the ' +
      'share of its heated surface)',
    upstream: 'none found',
    replace: [
      [
        `  if (type === 'ch') {
    const Sc = de.surface_chauffee || Sh;
    ratio = Sc / Sh;
  }`,
        `  // (the need given is the installation's, already prorated to its heated surface by
  // calc_chauffage(): not again, ratio stays 1)`,
      ],
    ],
  },
  {
    id: 'circulateur-appoint-share',
    module: '9_chauffage.js',
    fault:
      'the heating circulator of a boiler with a wood insert or stove in appoint is sized for ' +
      'half the heated surface’s flow (1 / the number of generators) where the boiler covers ' +
      '0.75 of the need and the stove has no water network: its distribution auxiliaries are ' +
      '0.760 of the XML’s on the 9 such DPEs (2387E0112514X: 199.29 kWh/yr where the XML has ' +
      '262.13, 1.5^0.676 = 1.315); a collective base with individual appoints without a water ' +
      'network is sized for half the flow too (2268E0739293A: 190.05 where the XML has 269.14), ' +
      'and so is a hybrid heat pump, one appliance on one water network (2459E0028946S, outside ' +
      'the corpus: 157.29, the 30 W floor, where the XML has 212.17, 40.5 W on the whole flow)',
    section:
      '§15.2.1 (puissance des circulateurs: Qvemnom from Pnc at the share of the need the ' +
      'network carries) with §9 (insert or stove in appoint: 0.75 / 0.25), §9.8 (collective ' +
      'base + individual appoint: the base’s network carries the whole surface’s flow) and ' +
      '§9.1.4.3 (pompes à chaleur hybrides: both parts on the same emitters)',
    upstream: 'none found',
    replace: [
      [
        `    (gen.donnee_utilisateur = gen.donnee_utilisateur || {}).nbGenerateurCascade = gen_ch.length;`,
        `    (gen.donnee_utilisateur = gen.donnee_utilisateur || {}).nbGenerateurCascade =
      circulateurCascade(gen_ch, cfg_id, _pos);`,
      ],
    ],
  },
  {
    id: 'aux-generation-virtualised',
    module: '15_conso_aux.js',
    fault:
      'the generator auxiliaries of a collective generator virtualised in a flat scale its ' +
      'fixed power G by the flat’s ratio (rv × (G + H × Pn / rv) × B / Pn): the flat of a ' +
      '23.9 kW collective oil boiler gets 11.25 kWh/yr where the XML has 15.29 ' +
      '(2387E0112951S, rv 0.23051; its hot water 1.79 against 2.44)',
    section:
      '§15.1 (consommation des auxiliaires de génération: Paux,g = G + H × Pn of the ' +
      'generator, × the need / Pn) and §17.2.1 (DPE à l’appartement, usages collectifs: the ' +
      'flat’s share of the collective generator)',
    upstream: 'Open3CL/engine#5 (closed: the collective auxiliaries), jzck/Open3CL#286',
    replace: [
      [
        `    ((de.ratio_virtualisation || 1) * (Paux_g_ch * besoinAppart * ratio)) / pe || 0;`,
        `    // the whole generator's Paux,g for the dwelling's need over the whole generator's Pn
    ((g + h * (pe / 1000)) * besoinAppart * ratio) / pe || 0;`,
      ],
    ],
  },
  {
    id: 'ecs-installations-surface',
    module: 'engine.js',
    fault:
      'a house or flat with more than two hot-water installations gives each of them half the ' +
      'dwelling’s hot-water need (§11.4’s rule for two systems), so the need is counted 1.5 ' +
      'times or more; the registry gives each installation the share of the habitable surface ' +
      'it declares (2242E0243971E: three installations of 73.67 m² in a house of 221 m², each ' +
      '617.96 kWh/yr in the XML where the engine had 926.93, its hot water +24%)',
    section:
      '§11.4 (plusieurs systèmes d’ECS: the need shared between the systems; the method ' +
      'writes the rule for two, each on half) with the surface each installation declares ' +
      '(installation_ecs surface_habitable)',
    upstream: 'none found',
    replace: [
      [
        `    if (!isImmeubleSystemEcsIndividuels) {
      becs /= 2;
      becs_dep /= 2;
    }`,
        `    // more than two installations declaring surfaces that make the dwelling's: each at its
    // share of the surface (ecsShareOf below), not half each
    if (!isImmeubleSystemEcsIndividuels && !ecsSharesBySurface(ecs, th, Sh)) {
      becs /= 2;
      becs_dep /= 2;
    }`,
      ],
      [
        `      ecs,
      becs,
      becs_dep,
      GV,`,
        `      ecs,
      becs * ecsShareOf(ecs),
      becs_dep * ecsShareOf(ecs),
      GV,`,
      ],
    ],
  },
  {
    id: 'emetteurs-generateur-unique',
    module: '9_conso_ch.js',
    fault:
      'an electric generator alone in a simple installation with several emitters heats only ' +
      'the first of them: the engine pairs electric generators with emitters by position ' +
      '(several direct-electric generators, one emitter each) and takes emitter [0] at its share ' +
      'of the surface, dropping the rest (2535E0426429Q: one Joule generator, emitters on 156.01 ' +
      'and 598.93 m², 17 064 kWh/yr where the XML has 95 428: the bill off by 2×)',
    section:
      '§9.1.3 (installation avec plusieurs émissions pour un même générateur: the part of the ' +
      'consumption each emitter treats, prorated to the surfaces)',
    upstream: 'Open3CL/engine#71 (its whole building, where the two installations part)',
    replace: [
      [
        `        undefined,
        _pos,
        cfg_ch
      );`,
        `        undefined,
        // one generator serves all its emitters (§9.1.3): no pairing by position
        gen_ch_list && gen_ch_list.length === 1 ? undefined : _pos,
        cfg_ch
      );`,
      ],
    ],
  },
  {
    id: 'base-appoint-scop',
    module: '9_conso_ch.js',
    fault:
      'a heat pump at the base of a collective base + appoint installation is taken with a ' +
      'generation efficiency of 1: the heat pump has no rendement_generation, only its SCOP ' +
      '(rg), so its consumption is its SCOP times too high (2259E1264915X, a ground-source heat ' +
      'pump of SCOP 2.4 with Joule appoint: 4 016 kWh/yr, heating +79 % on the XML; 2235E0705773N, ' +
      'an air-to-air heat pump of SCOP 2.3: +78 %)',
    section:
      '§9.8 (installation de chauffage collectif avec base + appoint: Cch,base = Bch,base × Int × ' +
      'Ich,base, Ich the inverse of the generation, emission, distribution and regulation ' +
      'efficiencies) with §12.4 (a heat pump’s generation efficiency is its SCOP)',
    upstream: 'none found (Open3CL/engine#71 and its PR #81 wrote §9.8)',
    replace: [
      [
        `    const Ich = 1 / (gen.donnee_intermediaire.rendement_generation || 1);`,
        `    // a heat pump's generation efficiency is its SCOP (rg): it has no rendement_generation
    const Ich =
      1 / (gen.donnee_intermediaire.rendement_generation || gen.donnee_intermediaire.rg || 1);`,
      ],
    ],
  },
  {
    id: 'besoin-ch-installation-share',
    module: '9_chauffage.js',
    fault:
      'an installation that heats part of the dwelling stores the whole dwelling’s heating need ' +
      'as its own (besoin_ch) while computing its consumption on its share: every installation ' +
      'of a DPE with several shows twice its need or more (2535E0426429Q: 180 237 kWh/yr for each ' +
      'of two installations, the XML 90 210 and 90 099), so a comparison with the XML parts at a ' +
      'step that is not the fault; and its spendthrift (dépensier) consumption is computed on the ' +
      'whole need (2535E0426429Q: 318 564 kWh/yr of gas where the XML has 159 461). The ' +
      'conventional consumption, the class and the bill do not change',
    section:
      '§9 (the need of an installation: the dwelling’s at the share of the surface it heats)',
    upstream: 'Open3CL/engine#71',
    replace: [
      [
        `  if (de.surface_chauffee !== Sh) {
    bch *= de.surface_chauffee / Sh;
  }`,
        `  if (de.surface_chauffee !== Sh) {
    bch *= de.surface_chauffee / Sh;
    bch_dep *= de.surface_chauffee / Sh;
  }
  // the installation's own need, the share its consumption is computed on
  di.besoin_ch = bch;
  di.besoin_ch_depensier = bch_dep;`,
      ],
    ],
  },
  {
    id: 'ecs-immeuble-surface',
    module: '11_ecs.js',
    fault:
      'a whole building whose individual hot-water installations each describe one flat of a ' +
      'type (surface_habitable for one, rdim flats of it) gives every installation 1 / the ' +
      'number of flats of the building’s need, whatever the flat’s size: a 20 m² studio with a ' +
      '40 L tank gets a 54 m² flat’s need (2535E0426429Q: 1 503 kWh/yr where the XML has 686; ' +
      '2459E1831723H: its three flats of 44.86, 34.85 and 40.64 m² a third each)',
    section:
      '§11 (besoin d’ECS: Nadeq from the surface) with the building DPE’s installations, each ' +
      'for rdim identical dwellings: the flat’s share of the building’s surface',
    upstream: 'none found',
    replace: [
      [
        `    if (nombreAppartements) {
      di.ratio_besoin_ecs = 1 / nombreAppartements;`,
        `    if (ecsBuildingShare(dpe, ecs, surfaceImmeuble) > 0) {
      // one flat of the installation's type, at its share of the building's surface
      di.ratio_besoin_ecs = ecsBuildingShare(dpe, ecs, surfaceImmeuble);
    } else if (nombreAppartements) {
      di.ratio_besoin_ecs = 1 / nombreAppartements;`,
      ],
    ],
  },
  {
    id: 'pv-autoconsommation-auxiliaires',
    module: '16.2_production_enr.js',
    fault:
      'the photovoltaic self-consumption of the auxiliaries: the engine weighs the generators’ ' +
      'auxiliaries like heating (0.02) and hot water (0.05) and the distribution’s at 0.05, where ' +
      'the registry’s DPEs weigh the distribution’s at 0.1 and count no generator auxiliary ' +
      '(2359E2800645M: 20.47 kWh/yr self-consumed where the XML has 37.73)',
    section:
      '§16.2 (production d’électricité: Tap = 1 / (1 / Tcv + 1 / Tapl), Tapl the sum of each ' +
      'use’s limit rate Tapl,pi × its share of the electricity)',
    upstream: 'none found',
    replace: [
      [
        `import { mois_liste, tv } from './utils.js';`,
        `import { bug_for_bug_compat, mois_liste, tv } from './utils.js';`,
      ],
      [
        `    if (auxiliaireGenerationCh) {`,
        `    // bug-for-bug: the registry's DPEs count no self-consumption for generator auxiliaries
    if (auxiliaireGenerationCh && !bug_for_bug_compat) {`,
      ],
      [
        `    if (auxiliaireGenerationEcs) {`,
        `    if (auxiliaireGenerationEcs && !bug_for_bug_compat) {`,
      ],
      [
        `(this.#taplpi.auxiliaire_distribution * auxiliaireDistributionEcs)`,
        `// bug-for-bug: the registry's DPEs weigh the distribution's auxiliaries at 0.1
        ((bug_for_bug_compat ? 0.1 : this.#taplpi.auxiliaire_distribution) *
          auxiliaireDistributionEcs)`,
      ],
      [
        `(this.#taplpi.auxiliaire_distribution * auxiliaireDistributionCh)`,
        `((bug_for_bug_compat ? 0.1 : this.#taplpi.auxiliaire_distribution) *
          auxiliaireDistributionCh)`,
      ],
    ],
  },
  {
    id: 'pv-autoconsommation-ges',
    module: '16.2_production_enr.js',
    fault:
      'the photovoltaic self-consumption lowers the final and primary energy but not the ' +
      'emissions: the self-consumed electricity is counted as bought from the grid ' +
      '(2303E4293288R: 2 213.6 kg CO2e/yr where the XML has 2 191.6)',
    section:
      '§16.2 (production d’électricité: the self-consumed electricity is taken off each use’s ' +
      'consumption) with the emission factors of electricity by use',
    upstream: 'Open3CL/engine#23 (the same for primary energy, fixed in 1.4.6)',
    replace: [
      [
        `      this.updateEPConso(productionElectricite, conso, Sh, use_coeff_ch_elec_2_3);`,
        `      this.updateEPConso(productionElectricite, conso, Sh, use_coeff_ch_elec_2_3);

      // and the emissions (patches/corrections/pv-autoconsommation-ges.js)
      pvSelfConsumedGes(productionElectricite, conso, Sh);`,
      ],
    ],
  },
  {
    id: 'pv-surface-declared',
    module: '16.2_production_enr.js',
    fault:
      'photovoltaic panels described with a surface and a number of modules that disagree ' +
      '(surface_totale_capteurs ≠ 1.6 m² × nombre_module): the engine always takes the modules, ' +
      'where some DPE software took the surface (2444E3207594V: 1 m² and 14 modules, the XML ' +
      'produces 239.5 kWh/yr, the engine 5 207.5)',
    section:
      '§16.2 (production d’électricité: Ppv = Σ k × Sc × r × Epv × C, Sc the panels’ surface, ' +
      '1.6 m² per module)',
    upstream: 'none found',
    replace: [
      [
        `  getPpv(productionElecEnr, zc_id) {
    const ePvValues = tvs.e_pv;`,
        `  getPpv(productionElecEnr, zc_id, reading) {
    // bug-for-bug: the panels' surface or their modules, whichever the DPE's stored production
    // shows (patches/corrections/pv-surface-declared.js)
    if (reading === undefined)
      reading = pvSurfaceReading(productionElecEnr, (r) =>
        this.getPpv(productionElecEnr, zc_id, r)
      );
    const ePvValues = tvs.e_pv;`,
      ],
      [
        `      const Scapteur = 1.6 * panneaux_pv.nombre_module || panneaux_pv.surface_totale_capteurs;`,
        `      const Scapteur = pvScapteur(panneaux_pv, reading);`,
      ],
    ],
  },
  {
    id: 'aux-distribution-air-chaud',
    module: '9_generateur_ch.js',
    fault:
      'a warm-air generator (type 50–52) or a wood stove with a boiler (48, 49) never gets its ' +
      'distribution auxiliaries: hasConsoForAuxDistribution() looks the id up with includes() ' +
      'in a list of numbers, and the id is a string (2463E2639384I: 0 kWh/yr where the XML has ' +
      '326.00)',
    section:
      '§15.2 (consommation des auxiliaires de distribution de chauffage: every generator with ' +
      'a distribution network, its circulator Pcircem × Nref19)',
    upstream: 'none found',
    replace: [
      [
        `    [48, 49, 50, 51, 52].includes(enum_type_generateur_ch_id) ||`,
        `    [48, 49, 50, 51, 52].includes(Number.parseInt(enum_type_generateur_ch_id)) ||`,
      ],
    ],
  },
  {
    id: 'aux-generation-bois-ventilateur',
    module: '13.2_generateur_combustion.js',
    fault:
      'a wood boiler whose fan (ventilateur / dispositif de circulation d’air) the DPE declares ' +
      'gets no generator auxiliaries: the engine looks for that technical sheet among the ' +
      'hot-water system’s (category 8) for a heating generator too, where the DPE files it ' +
      'under the heating system (category 7) (2287E1956426O: 0 kWh/yr where the XML has 486.93)',
    section:
      '§15.1 (consommation des auxiliaires de génération: a wood boiler assisted by a fan, ' +
      'G = 73.3 W, H = 10.5 W/kW, Pn capped at 70 kW)',
    upstream: 'none found',
    replace: [
      [
        `  addInfosFromFichesTechniques(dpe, de);`,
        `  addInfosFromFichesTechniques(dpe, de, type);`,
      ],
      [
        `function addInfosFromFichesTechniques(dpe, de) {`,
        `function addInfosFromFichesTechniques(dpe, de, type) {`,
      ],
      [
        `    '8',
    'Présence ventilateur / dispositif circulation air dans circuit combustion',`,
        `    // a heating generator's sheet is among the heating system's (7), a hot-water one's (8)
    type === 'ch' ? '7' : '8',
    'Présence ventilateur / dispositif circulation air dans circuit combustion',`,
      ],
    ],
  },
  {
    id: 'ventilation-post-2012-type',
    module: '5_conso_ventilation.js',
    fault:
      'a ventilation whose type names its installation before 2013 (“vmc sf auto réglable de ' +
      '2001 à 2012”, “… avant 2013”) but whose ventilation_post_2012 flag says after gets the ' +
      'Pvent of a system installed after 2012 (2513E1166911W: 0.25 Wh/m³ where the XML has ' +
      '0.46, 152.9 kWh/yr against 281.3; 2287E0552632M: 35 W against 65, 306.6 against 569.4)',
    section:
      '§5 (consommation des auxiliaires de ventilation: Pvent,moy by type of system and its ' +
      'installation before or after 2012)',
    upstream: 'none found',
    replace: [
      [
        `  if (tv === undefined || post_2012 === undefined) return;`,
        `  if (tv === undefined || post_2012 === undefined) return;

  // a system whose type names a period before 2013 was installed before 2013, whatever the flag
  if (/avant|à 2000|à 2012/.test(tv)) post_2012 = 0;`,
      ],
    ],
  },
  {
    id: 'ecs-bouclage-auxiliaries',
    module: '11_ecs.js',
    fault:
      'the consumption of the auxiliaries of hot-water distribution is fixed at 0: a collective ' +
      'installation with a looped network (bouclage) pays nothing for its loop’s circulator ' +
      '(2387E0112951S: 0 kWh/yr where the XML has 39.61, the building’s 171.84 at the flat’s ' +
      '34 / 147.5 m²)',
    section:
      '§15 (consommation des auxiliaires de distribution d’ECS, réseau bouclé: the loop’s ' +
      'circulator month by month, Pcirb at least 20 W, (5 Pcirb + 19 × 20) × Njj Wh, at the ' +
      'building’s scale, the flat’s share of its surface)',
    upstream: 'Open3CL/engine#157 (building), #158 (flat), PR #179',
    replace: [
      [
        `  ecs.donnee_intermediaire = di;
  ecs.donnee_utilisateur = du;`,
        `  ecs.donnee_intermediaire = di;
  ecs.donnee_utilisateur = du;

  // §15: a looped collective network's circulator, carried by the first generator
  // (patches/corrections/ecs-bouclage-auxiliaries.js)
  const bouclage = ecsBouclageAuxiliaries(dpe, ecs, di, surfaceImmeuble);
  if (bouclage > 0)
    (gen_ecs_list[0].donnee_utilisateur =
      gen_ecs_list[0].donnee_utilisateur || {}).conso_auxiliaire_distribution_ecs = bouclage;`,
      ],
    ],
  },
  {
    id: 'base-appoint-dh14-nul',
    module: '9_conso_ch.js',
    fault:
      'a collective base + appoint installation (§9.8) gives the appoint the whole need of a ' +
      'month without degree-hours below 14 °C (DH14 = 0: ratioDh taken as 0), where no hour of ' +
      'that month is below the base’s temperature t (< 14 °C) either and the base covers it ' +
      '(2206E1133029I, a whole building: October’s 3 799 kWh on its electric convectors, ' +
      '3 834 kWh/yr where the XML has 0)',
    section:
      '§9.8 (installation de chauffage collectif avec base + appoint: Bch,base,j = Bch,j × (1 − ' +
      'DHt,j / DH14,j), DHt,j ≤ DH14,j since t < 14 °C)',
    upstream: 'none found (§9.8 came with Open3CL/engine PR #81)',
    replace: [
      [
        `        let ratioDh = dh14j > 0 ? 1 - dhtj / dh14j : 0;`,
        `        // a month with no degree-hours below 14 °C has none below t < 14 °C: the base covers
        // its need (§9.8)
        let ratioDh = dh14j > 0 ? 1 - dhtj / dh14j : 1;`,
      ],
    ],
  },
  {
    id: 'pac-hybride-coef',
    module: '9_conso_ch.js',
    fault:
      'each part of a hybrid heat pump (generator types 145–170) in an installation with a ' +
      'boiler in relève of a heat pump takes its share of the need twice: the climate zone’s ' +
      '(getProrataGenerateur: 0.8 / 0.2 in H1, 0.83 / 0.17 in H2, 0.88 / 0.12 in H3) and the ' +
      'configuration’s 0.8 / 0.2 again (2595E0377407M: heating 1 915 kWh/yr where the XML has ' +
      '3 432.85, class A where the registry has B)',
    section:
      '§9.1.4.3 (les pompes à chaleur hybrides: Cch = coefficient of the zone × Bch × Int × Ich ' +
      'for each part)',
    upstream: 'Open3CL/engine#88 (closed, released after 1.4.6)',
    replace: [
      [
        `  const coef = coef_ch(de.fch || 0.5)[cfg_ch][_pos] || 1;`,
        `  // §9.1.4.3: a hybrid heat pump's part has its zone's share of the need already
  // (getProrataGenerateur): the configuration's is not applied again
  // (patches/corrections/pac-hybride-coef.js)
  const coef = isPacHybride(de) ? 1 : coef_ch(de.fch || 0.5)[cfg_ch][_pos] || 1;`,
      ],
    ],
  },
  {
    id: 'ets-baie-interieure',
    module: '6.2_surface_sud_equivalente.js',
    fault:
      'a solarised buffer space (veranda, closed loggia) with no window between it and the ' +
      'dwelling gives the dwelling its indirect solar gains anyway: Sse_ver is added to the ' +
      'south-equivalent area when no window has the adjacency 10 (2213E0033125P: 104.22 m² ' +
      'where the XML has its outside windows’ 43.30; heating need −9.1% on the XML)',
    section:
      '§6.3 (espaces tampons solarisés: Sse_ver = Ssd + Ssind × bver, the gains of the windows ' +
      'that separate the dwelling from the buffer space)',
    upstream: 'Open3CL/engine#140, PR #173',
    replace: [
      [
        `  if (!ets) {
    return baiesAdjExt.reduce(`,
        `  // §6.3: a buffer space's gains enter through the windows between it and the dwelling: none
  // without such a window (Open3CL/engine#140)
  if (!ets || baiesAdjVeranda.length === 0) {
    return baiesAdjExt.reduce(`,
      ],
    ],
  },
  {
    id: 'materiaux-anciens-criteria',
    module: 'engine.js',
    needs: ['logiciel-dpe-kept'],
    fault:
      'the registry’s figures of two softwares’ DPEs of 2021–2023 (usr_logiciel_id 3752 before ' +
      'its version 5, 22570 in its versions of 2022, 3.0.0.x) take ilpa (the Nref and DH tables of a ' +
      'heavy building of old materials) from the method’s criteria, heavy inertia and more ' +
      'than half the walls of old materials, where the engine takes the flag ' +
      'batiment_materiaux_anciens they write: internal gains 9.5% below the registry’s on ' +
      'their 12 DPEs of 287 where flag and criteria disagree (2262E2687773I: 938 955 Wh where ' +
      'the XML has 1 037 273), the recovered hot-water losses and circulator hours with them',
    section:
      '§6.1 and §18 (apports gratuits, Nref19 and DH19: the rows of a building of heavy ' +
      'inertia built of old materials), §15 (circulators: Nref19)',
    upstream:
      'Open3CL/engine#149 (the engine reads the flag alone since; the issue quotes the ' +
      'method’s two criteria)',
    replace: [
      [
        `  const ilpa = logement.meteo.batiment_materiaux_anciens === 1 ? '1' : '0';`,
        `  // bug-for-bug: ilpa as the DPE's software computed it, from the method's criteria for
  // some (patches/corrections/materiaux-anciens-criteria.js; the software as logiciel-dpe-kept
  // keeps it)
  const ilpa = ilpaAsComputed(
    logement,
    inertie_id,
    dpe.administratif.diagnostiqueur.logiciel_dpe
  );`,
      ],
    ],
  },
  {
    id: 'logiciel-dpe-kept',
    module: 'engine.js',
    fault:
      'the engine replaces administratif.diagnostiqueur, the software and version that computed ' +
      'the DPE, with its own name before computing: no later step can compute a figure as that ' +
      'software did (cet-air-ambiant-liciel and materiaux-anciens-criteria read it)',
    section: 'none (the registry’s figures are each software’s reading of the method)',
    upstream: 'none found',
    replace: [
      [
        `  dpe.administratif.diagnostiqueur = { version_moteur_calcul: \`Open3CL \${getVersion()}\` };`,
        `  // the DPE's software kept, not enumerable (the output's diagnostiqueur is the engine's), for
  // the corrections that compute as it did (patches/corrections/logiciel-dpe-kept.js)
  dpe.administratif.diagnostiqueur = withLogicielDpe(
    { version_moteur_calcul: \`Open3CL \${getVersion()}\` },
    dpe.administratif.diagnostiqueur
  );`,
      ],
    ],
  },
  {
    id: 'cet-air-ambiant-liciel',
    module: '14_generateur_ecs.js',
    needs: ['logiciel-dpe-kept'],
    fault:
      'the registry’s figures of LICIEL’s DPEs (usr_logiciel_id 26615) give a thermodynamic water ' +
      'heater on ambient air, in zones H1 and H2, the COP of the table’s next rows (2.3, 2.5, 2.8 ' +
      'by period: both the H3 row and the extracted-air row of its period), where the engine ' +
      'takes the table’s (2.0, 2.2, 2.5): its two DPEs of 287 then give every figure the XML’s ' +
      '(2432E0658897O: hot water +12%, class C for the registry’s B)',
    section: '§14.3 (génération d’ECS, chauffe-eau thermodynamiques: COP by zone, air and period)',
    upstream: 'none found',
    replace: [
      [
        `    scopOrCop(di, de, du, zc_id, null, 'ecs');`,
        `    // the row the DPE declares (none on a water heater that works add)
    const tvScopDeclared = de.tv_scop_id;
    scopOrCop(di, de, du, zc_id, null, 'ecs');
    // bug-for-bug: the COP the DPE's software used (patches/corrections/cet-air-ambiant-liciel.js)
    copAsComputed(di, de, type_generateur_id, zc_id, dpe.administratif.diagnostiqueur, tvScopDeclared);`,
      ],
    ],
  },
  {
    id: 'ujn-declared',
    module: '3.3_baie_vitree.js',
    fault:
      'bug-for-bug mode looks the Ujn of a window with a closure up in the ΔR column of the ' +
      'closure declared, where some DPEs (3752’s versions 1.1 to 3.0) stored, and the registry ' +
      'counted, the Ujn of another column for the same Uw (2238E0097309E: window losses 49.7 W/K ' +
      'against the XML’s 54.2)',
    section: '§3.3.3 (coefficients Ujn des fenêtres: by Uw and ΔR of the closure)',
    upstream: 'none found',
    replace: [
      [
        `      tv_ujn(di, de, du);
`,
        `      tv_ujn(di, de, du);
      // bug-for-bug: the Ujn the DPE stored when it is the table's for this Uw in another ΔR
      // column (patches/corrections/ujn-declared.js)
      const declaredUjn = bug_for_bug_compat && ujnAsDeclared(di, bv.donnee_intermediaire);
      if (declaredUjn) {
        di.ujn = Number(declaredUjn.ujn);
        de.tv_ujn_id = Number(declaredUjn.tv_ujn_id);
      }
`,
      ],
    ],
  },
  {
    id: 'temp-fonc-declared',
    module: '13.2_generateur_combustion_ch.js',
    fault:
      'bug-for-bug mode reads a combustion generator’s operating temperatures (temp_fonc_30, ' +
      'temp_fonc_100) at the period of installation of emitters that declare none, taken from ' +
      'the year of construction, where the DPE stored, and its registry computed with, the ' +
      'tables’ pair of another period (2287E0281128A, a house of 1948: 52.5 / 70 °C stored, the ' +
      'engine 55.5 / 80, its boiler’s efficiency 0.785 against the XML’s 0.795)',
    section:
      '§13.2.1 (générateurs à combustion: températures de fonctionnement à 30% et 100% de charge ' +
      'by type of generator, distribution temperature and period of the emitters)',
    upstream: 'none found',
    replace: [
      [
        `import { bug_for_bug_compat, requestInput, requestInputID, tv } from './utils.js';
`,
        `import { bug_for_bug_compat, requestInput, requestInputID, tv } from './utils.js';
import tvs from './tv.js';
`,
      ],
      [
        `export function tv_temp_fonc_30_100(di, de, du, em_ch, ac) {
`,
        `export function tv_temp_fonc_30_100(di, de, du, em_ch, ac) {
  // the pair the DPE stored, before the table's raise it
  const tempFoncStored = [di.temp_fonc_30, di.temp_fonc_100];
`,
      ],
      [
        `      console.error('!! pas de valeur forfaitaire trouvée pour temp_fonc_100 !!');
    }
  }
}
`,
        `      console.error('!! pas de valeur forfaitaire trouvée pour temp_fonc_100 !!');
    }
  }
  // bug-for-bug: the stored pair when it is the tables' at another period of the emitters, which
  // none declares (patches/corrections/temp-fonc-declared.js)
  if (bug_for_bug_compat) tempFoncAsDeclared(di, de, em_ch, tempFoncStored);
}
`,
      ],
    ],
  },
];
/** The marker a corrected module carries (idempotence of the module-load hook). */
export function correctionMarker(c: Correction): string {
  return `dpe-sim correction ${c.id}`;
}

/** The helpers a correction appends to its module: patches/corrections/<id>.js, or '' when it has none. */
export function correctionAppend(c: Correction): string {
  return patchFileText('corrections', c.id, true);
}

export function correctionPatch(c: Correction): SourcePatch {
  const append = correctionAppend(c);
  return {
    suffix: `/@open3cl/engine/${c.module}`,
    replace: c.replace,
    append: `${append}// ${correctionMarker(c)}\n`,
    marker: correctionMarker(c),
    correction: true,
    ...(append ? { file: `corrections/${c.id}.js` } : {}),
  };
}

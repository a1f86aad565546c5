/**
 * The memo patches of the engine's own modules, applied as they load (scripts/bundle-engine.mjs at
 * build time, the module-load hook of `sourcePatchHooks` when running from the sources). Each
 * patch caches a pure function of its arguments over the engine's constant tables; results are
 * the very values the unpatched code computes (checked on the whole corpus by
 * test/engine.test.ts and the figures snapshot).
 *
 * A patch's code is a real JavaScript file, `patches/memo/<file>.js` next to this module (linted
 * and formatted like the rest; its header says what it does and what it was measured at),
 * appended to the engine module; here are only its anchors: the module, the exact texts
 * replaced in it (each found once: mostly a call into the appended code) and the marker export
 * that shows it applied. A memo patch whose text is not found (an engine other than the pinned
 * version) leaves the module as it is, and the module then lacks its `__dpeSim…` marker, which
 * `loadEngine` reports as `tableMemo: false`; the bundle build fails instead. The corrections of
 * engine faults (corrections.ts, patches/corrections/) are applied after them. docs/engine.md
 * ("Engine patches as code") says how to add one.
 *
 * Measured on the largest corpus DPE (2535E0426429Q, 62 windows, `initial`: 464 engine runs),
 * before these patches: the Ug-values scan of `tv_uw` was 1.5 s of 5.8 s of engine time and
 * `cleanReference` (thermal bridges matching walls and windows by reference) 0.35 s.
 */
import { CORRECTIONS, correctionPatch, type SourcePatch } from './corrections.js';
import { patchFileText } from './patch-files.js';

export type { SourcePatch };

/** A memo patch as declared: its code is patches/memo/<file>.js. */
interface MemoPatch {
  /** the engine module, relative to the package root */
  module: string;
  /** patches/memo/<file>.js, appended to the module */
  file: string;
  /** exact texts replaced, each once; the patch is skipped unless every one is found */
  replace: [string, string][];
  /** the export of the appended file that shows the patch is there */
  marker: string;
}

/** `3.3_baie_vitree.js`, `tv_uw`: the Ug values of the Uw table (ug-values.js) */
const UG_VALUES_FROM = 'const ugValues = tvs.uw';
const UG_VALUES_TO =
  'const ugValues = __dpeSimUgValues(enum_type_baie_id, enum_type_materiaux_menuiserie_id, () => tvs.uw';
const UG_VALUES_END_FROM = '.map((row) => parseFloat(row.ug));';
const UG_VALUES_END_TO = '.map((row) => parseFloat(row.ug)));';

/** `utils.js`, `requestInputID` / `requestInput`: the enum's name and ids (enum-ids.js) */
const ENUM_NAME_ID_FROM =
  'export function requestInputID(de, du, field, type) {\n  // enums\n  const enum_name = `enum_${field}_id`;';
const ENUM_NAME_ID_TO =
  'export function requestInputID(de, du, field, type) {\n  // enums\n  const enum_name = __dpeSimEnumName(field);';
const ENUM_NAME_FROM = '    // enums\n    const enum_name = `enum_${field}_id`;';
const ENUM_NAME_TO = '    // enums\n    const enum_name = __dpeSimEnumName(field);';
const ENUM_IDS_FROM_ID =
  '\n  else du[enum_name] = Object.keys(enums[field]);\n  return de[enum_name];';
const ENUM_IDS_TO_ID = '\n  else du[enum_name] = __dpeSimEnumIds(field);\n  return de[enum_name];';
const ENUM_IDS_FROM =
  '    else du[enum_name] = Object.keys(enums[field]);\n    return enums[field][de[enum_name]];';
const ENUM_IDS_TO =
  '    else du[enum_name] = __dpeSimEnumIds(field);\n    return enums[field][de[enum_name]];';

/** `3.1_b.js`, `b()`: the adjacency ids written once, the bounds' texts (b-bounds.js) */
const B_ADJACENCE_FROM = '  du.enum_type_adjacence_id = Object.keys(enums.type_adjacence);\n';
const B_BOUND_FORMATS: [string, string][] = [
  [
    "'≤ ' +\n              ranges[0]\n                .toLocaleString(undefined, {",
    "'≤ ' +\n              __dpeSimBound(ranges[0], {",
  ],
  [
    'matcher.aiu_aue_min =\n              ranges[0]\n                .toLocaleString(undefined, {',
    'matcher.aiu_aue_min =\n              __dpeSimBound(ranges[0], {',
  ],
  [
    "'≤ ' +\n            ranges[1]\n              .toLocaleString(undefined, {",
    "'≤ ' +\n            __dpeSimBound(ranges[1], {",
  ],
];

/** `3.4_pont_thermique.js`, `tv_k`: the window of a wall search looked for once (bridge-search.js) */
const PT_WALL_SEARCH_FROM = '  let mur = mur_list.find((mur, murIndex) => {';
const PT_WALL_SEARCH_TO =
  '  let __dpeSimBvPtKnown = false;\n  let __dpeSimBvPt;\n  let mur = mur_list.find((mur, murIndex) => {';
const PT_WINDOW_FROM =
  '      const bvPt = bv_list.find((bv) => bv.donnee_entree.reference === de.reference_1);';
const PT_WINDOW_TO =
  '      const bvPt = __dpeSimBvPtKnown\n        ? __dpeSimBvPt\n        : ((__dpeSimBvPtKnown = true),\n          (__dpeSimBvPt = bv_list.find((bv) => bv.donnee_entree.reference === de.reference_1)));';
/** the references compared, each cleaned once (bridge-search.js) */
const PT_REF_MUR_FROM =
  '      compareReferences(mur.donnee_entree.reference, de.reference_1) ||\n      compareReferences(mur.donnee_entree.reference, de.reference_2)';
const PT_REF_MUR_TO = '      __dpeSimRefOf(mur.donnee_entree.reference, de)';
const PT_REF_PLANCHER_FROM =
  '          compareReferences(plancher.donnee_entree.reference, de.reference_1) ||\n          compareReferences(plancher.donnee_entree.reference, de.reference_2)';
const PT_REF_PLANCHER_TO = '          __dpeSimRefOf(plancher.donnee_entree.reference, de)';
const PT_REF_MEN_FROM =
  '          compareReferences(men.donnee_entree.reference, de.reference_1) ||\n          compareReferences(men.donnee_entree.reference, de.reference_2)';
const PT_REF_MEN_TO = '          __dpeSimRefOf(men.donnee_entree.reference, de)';

/** `3_deperdition.js`, `calc_deperdition`: the declared copies (declared-copies.js) */
const DECLARED_MURS_FROM = '  const declaredMurs = structuredClone(mur_list);';
const DECLARED_MURS_TO = '  const declaredMurs = __dpeSimDeclaredMurs(mur_list);';
const DECLARED_PT_FROM = '  const declaredPontsThermiques = structuredClone(pt_list);';
const DECLARED_PT_TO = '  const declaredPontsThermiques = __dpeSimDeclaredPts(pt_list);';

/** `6.2_surface_sud_equivalente.js`, `getSsd`: the table key's text (ssd-oi.js) */
const SSD_KEY_FROM = '  let oi = `${orientation} ${inclinaison}`;';
const SSD_KEY_TO = '  let oi = __dpeSimOi(orientation, inclinaison);';

/** `3.3_baie_vitree.js`, `tv_uw`: `getRange` of the Ug values (ug-range.js) */
const UG_RANGE_FROM = '[ug1, ug2] = getRange(di.ug, ugValues);';
const UG_RANGE_TO =
  '[ug1, ug2] = __dpeSimUgRange(enum_type_baie_id, enum_type_materiaux_menuiserie_id, di.ug, ugValues);';

/** `9_generateur_ch.js`, `14_generateur_ecs.js`: the types common to heating and hot water, once (generateur-ch-ecs.js, generateur-ecs-ch.js) */
const GEN_CH_LIST_FROM =
  '    const generateurs_ch_ecs = Object.keys(generateur_ch).reduce((acc, key) => {';
const GEN_CH_LIST_TO =
  '    const generateurs_ch_ecs = __dpeSimChEcs ??= Object.keys(generateur_ch).reduce((acc, key) => {';
const GEN_CH_IDS_FROM =
  "    type_generateur = requestInputID(de, du, 'type_generateur_ch', Object.keys(generateurs_ch_ecs));";
const GEN_CH_IDS_TO =
  "    type_generateur = requestInputID(de, du, 'type_generateur_ch', __dpeSimChEcsIds ??= Object.keys(generateurs_ch_ecs));";
const GEN_ECS_LIST_FROM =
  '    const generateurs_ch_ecs = Object.keys(generateur_ecs).reduce((acc, key) => {';
const GEN_ECS_LIST_TO =
  '    const generateurs_ch_ecs = __dpeSimEcsCh ??= Object.keys(generateur_ecs).reduce((acc, key) => {';
const GEN_ECS_IDS_FROM = "      'type_generateur_ecs',\n      Object.keys(generateurs_ch_ecs)\n";
const GEN_ECS_IDS_TO =
  "      'type_generateur_ecs',\n      __dpeSimEcsChIds ??= Object.keys(generateurs_ch_ecs)\n";

/** `engine.js`, `calcul_3cl`: a window's joint sheet, once per run and labels (joint-sheet.js) */
const JOINT_LOOP_FROM =
  '  bv_list.forEach((baieVitree) => {\n    const donneeEntree = baieVitree.donnee_entree;\n';
const JOINT_LOOP_TO =
  '  const __dpeSimJointSheets = new Map();\n  bv_list.forEach((baieVitree) => {\n    const donneeEntree = baieVitree.donnee_entree;\n';
const JOINT_SHEET_FROM = "      const ficheTechnique = getFicheTechnique(dpe, '4', 'joint', [";
const JOINT_SHEET_TO =
  '      const ficheTechnique = __dpeSimJointSheet(__dpeSimJointSheets, dpe, [';

/** `dpe-sanitizer.service.js`, `execute`: the walk in plain loops (sanitizer.js) */
const SANITIZE_FROM = `    return ObjectUtil.deepObjectTransform(
      dpe,
      (key) => key,
      (val, key) => {
        if (this.#needTransform(key, val)) {
          return [val];
        }

        if (this.#isEnum(key)) {
          return val?.toString();
        }

        if (this.#isUndefinedVal(val)) {
          return '';
        }

        if (this.#isEmptyArray(val)) {
          return val;
        }

        if (Number.isNaN(Number(val))) {
          return val;
        }
        return Number(val);
      }
    );`;
const SANITIZE_TO = '    return __dpeSimSanitizeDoc(dpe);';

/** `list.forEach((el) => call)` of calc_deperdition, through the kit's `each` under `memo` */
function eachThroughMemo(list: string, el: string, call: string, memo: string): [string, string] {
  const loop = `${list}.forEach((${el}) => ${call});`;
  return [
    `  ${loop}`,
    `  if (__dpeSimKit === undefined) ${loop}\n` +
      `  else __dpeSimKit.each(${memo}, ${list}, __dpeSimKey, (${el}) => ${call});`,
  ];
}
const MUR = eachThroughMemo(
  'mur_list',
  'mur',
  'calc_mur(mur, zc, pc, effetJoule)',
  '__dpeSimMemoMur',
);
/** `3_deperdition.js`, `calc_deperdition` through the element memo (element-memo.js, its kit in sanitizer.js) */
const ELEMENT_MEMO_REPLACE: [string, string][] = [
  [
    MUR[0],
    '  const __dpeSimKit = __dpeSimSanitizerModule.__dpeSimElementMemoKit;\n' +
      '  const __dpeSimKey = __dpeSimKit?.key(zc, pc, effetJoule);\n' +
      MUR[1],
  ],
  eachThroughMemo('ph_list', 'ph', 'calc_ph(ph, zc, pc, effetJoule)', '__dpeSimMemoPh'),
  eachThroughMemo('bv_list', 'bv', 'calc_bv(bv, zc)', '__dpeSimMemoBv'),
  eachThroughMemo('porte_list', 'porte', 'calc_porte(porte, zc)', '__dpeSimMemoPorte'),
  [
    '  pt_list.forEach((pt) => calc_pont_thermique(pt, pc, logement));',
    '  if (__dpeSimKit === undefined) pt_list.forEach((pt) => calc_pont_thermique(pt, pc, logement));\n' +
      '  else __dpeSimEachBridge(__dpeSimKit, pt_list, logement, __dpeSimKit.key(pc), (pt) => calc_pont_thermique(pt, pc, logement));',
  ],
];

/** `conso.js`, `calc_conso_pond`: the prefixed copy (conso-keys.js) */
const CONSO_KEYS_FROM =
  '  Object.keys(ret).forEach((key) => {\n    ret[`${prefix}_${key}`] = ret[key];\n    delete ret[key];\n  });\n  return ret;';
const CONSO_KEYS_TO = '  return __dpeSimPrefixedCopy(prefix, ret);';
/** `conso.js`, `getGesCoeffForGenerateur`: each date text's year (conso-keys.js) */
const CONSO_YEAR_REPLACE: [string, string][] = [
  [
    'anneeDpe = new Date(gen_ch.donnee_entree.date_arrete_reseau_chaleur).getFullYear() - 1;',
    'anneeDpe = __dpeSimYearOf(gen_ch.donnee_entree.date_arrete_reseau_chaleur) - 1;',
  ],
  ['anneeDpe = new Date(dateDpe).getFullYear() - 1;', 'anneeDpe = __dpeSimYearOf(dateDpe) - 1;'],
];

/** `ficheTechnique.js`, `getFicheTechnique`: the same search in loops, lowered texts kept (fiche-technique.js) */
const FICHE_FROM =
  '  /** @type {FicheTechniqueItem[]} */\n  let fichesTechniques = dpe.fiche_technique_collection?.fiche_technique || [];';
const FICHE_TO =
  '  return __dpeSimFiche(dpe, categoryFicheTechiqueId, description, classifications, field);\n' +
  FICHE_FROM;

/** The memo patches, in the order applied (several may touch one module). */
const MEMO_PATCHES: MemoPatch[] = [
  {
    module: 'utils.js',
    replace: [],
    file: 'tv-memo',
    marker: '__dpeSimTvMemo',
  },
  {
    module: '3.3_baie_vitree.js',
    replace: [
      [UG_VALUES_FROM, UG_VALUES_TO],
      [UG_VALUES_END_FROM, UG_VALUES_END_TO],
    ],
    file: 'ug-values',
    marker: '__dpeSimUgMemo',
  },
  {
    module: 'utils.js',
    replace: [
      [ENUM_NAME_ID_FROM, ENUM_NAME_ID_TO],
      [ENUM_NAME_FROM, ENUM_NAME_TO],
      [ENUM_IDS_FROM_ID, ENUM_IDS_TO_ID],
      [ENUM_IDS_FROM, ENUM_IDS_TO],
    ],
    file: 'enum-ids',
    marker: '__dpeSimEnumIds',
  },
  {
    module: '3.1_b.js',
    replace: [[B_ADJACENCE_FROM, ''], ...B_BOUND_FORMATS],
    file: 'b-bounds',
    marker: '__dpeSimBAdjacence',
  },
  {
    module: '3.4_pont_thermique.js',
    replace: [
      [PT_WALL_SEARCH_FROM, PT_WALL_SEARCH_TO],
      [PT_WINDOW_FROM, PT_WINDOW_TO],
      [PT_REF_MUR_FROM, PT_REF_MUR_TO],
      [PT_REF_PLANCHER_FROM, PT_REF_PLANCHER_TO],
      [PT_REF_MEN_FROM, PT_REF_MEN_TO],
    ],
    file: 'bridge-search',
    marker: '__dpeSimBvPtOnce',
  },
  {
    module: '3_deperdition.js',
    replace: [
      [DECLARED_MURS_FROM, DECLARED_MURS_TO],
      [DECLARED_PT_FROM, DECLARED_PT_TO],
    ],
    file: 'declared-copies',
    marker: '__dpeSimDeclaredCopies',
  },
  {
    module: 'engine.js',
    replace: [
      [JOINT_LOOP_FROM, JOINT_LOOP_TO],
      [JOINT_SHEET_FROM, JOINT_SHEET_TO],
    ],
    file: 'joint-sheet',
    marker: '__dpeSimJointSheet',
  },
  {
    module: '9_generateur_ch.js',
    replace: [
      [GEN_CH_LIST_FROM, GEN_CH_LIST_TO],
      [GEN_CH_IDS_FROM, GEN_CH_IDS_TO],
    ],
    file: 'generateur-ch-ecs',
    marker: '__dpeSimChEcs',
  },
  {
    module: '14_generateur_ecs.js',
    replace: [
      [GEN_ECS_LIST_FROM, GEN_ECS_LIST_TO],
      [GEN_ECS_IDS_FROM, GEN_ECS_IDS_TO],
    ],
    file: 'generateur-ecs-ch',
    marker: '__dpeSimEcsCh',
  },
  {
    module: '6.2_surface_sud_equivalente.js',
    replace: [[SSD_KEY_FROM, SSD_KEY_TO]],
    file: 'ssd-oi',
    marker: '__dpeSimOiOn',
  },
  {
    module: '6.2_surface_sud_equivalente.js',
    replace: [],
    file: 'sse-month',
    marker: '__dpeSimSseMonth',
  },
  {
    module: 'conso.js',
    replace: [[CONSO_KEYS_FROM, CONSO_KEYS_TO], ...CONSO_YEAR_REPLACE],
    file: 'conso-keys',
    marker: '__dpeSimConsoKeys',
  },
  {
    module: '3.3_baie_vitree.js',
    replace: [[UG_RANGE_FROM, UG_RANGE_TO]],
    file: 'ug-range',
    marker: '__dpeSimUgRange',
  },
  {
    module: 'ficheTechnique.js',
    replace: [[FICHE_FROM, FICHE_TO]],
    file: 'fiche-technique',
    marker: '__dpeSimFicheOn',
  },
  {
    module: 'dpe-sanitizer.service.js',
    replace: [[SANITIZE_FROM, SANITIZE_TO]],
    file: 'sanitizer',
    marker: '__dpeSimSanitizer',
  },
  {
    module: '3_deperdition.js',
    replace: ELEMENT_MEMO_REPLACE,
    file: 'element-memo',
    marker: '__dpeSimElementMemo',
  },
];

let all: SourcePatch[] | undefined;
/**
 * Every patch, in the order applied: the memos first, then the corrections (several may touch
 * one module); their code read from patches/ once, when first asked (only the build and the
 * module-load hook ask: a run from the bundle never reads them).
 */
export function sourcePatches(): SourcePatch[] {
  all ??= [
    ...MEMO_PATCHES.map((p): SourcePatch => ({
      suffix: `/@open3cl/engine/${p.module}`,
      replace: p.replace,
      append: patchFileText('memo', p.file),
      marker: p.marker,
      file: `memo/${p.file}.js`,
    })),
    ...CORRECTIONS.map(correctionPatch),
  ];
  return all;
}

/**
 * The module-load hook (a `data:` URL module for `module.register`) that applies `patches` (all of
 * them by default; `bench/bare-engine.mjs --corrections` applies the corrections alone). A memo
 * patch that does not apply is skipped; a correction that does not apply throws.
 */
export function sourcePatchHooks(patches: readonly SourcePatch[] = sourcePatches()): string {
  return `
const PATCHES = ${JSON.stringify(patches)};
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (result.source == null) return result;
  const mine = PATCHES.filter((p) => url.endsWith(p.suffix));
  if (!mine.length) return result;
  let source = typeof result.source === 'string' ? result.source : new TextDecoder().decode(result.source);
  for (const patch of mine) {
    if (source.includes(patch.marker)) continue;
    let patched = source;
    let ok = true;
    for (const [from, to] of patch.replace) {
      const at = patched.indexOf(from);
      if (at < 0 || patched.indexOf(from, at + from.length) >= 0) {
        if (patch.correction)
          throw new Error('engine correction ' + patch.marker + ': "' + from.slice(0, 60) + '" is not found exactly once in ' + patch.suffix);
        ok = false;
        break;
      }
      patched = patched.slice(0, at) + to + patched.slice(at + from.length);
    }
    if (ok) source = patched + patch.append;
  }
  return { ...result, source };
}
`;
}

/* global bug_for_bug_compat */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(ilpaAsComputed)$" }] */

/**
 * The software whose engine derived ilpa (the Nref and DH tables of a heavy building of old
 * materials) from the method's criteria rather than from the flag batiment_materiaux_anciens it
 * writes: usr_logiciel_id 3752 before its version 5, and 22570 in its versions of 2022. On the
 * 287 registry DPEs measured, their 12 DPEs whose flag and criteria disagree all have the
 * criteria's gains in the XML (every other software's, the flag's).
 */
function derivesIlpaFromCriteria(who) {
  const id = who?.usr_logiciel_id;
  const version = who?.version_logiciel ?? '';
  if (id === '3752') {
    const major = /(\d+)\./.exec(version);
    return major !== null && Number(major[1]) < 5;
  }
  // 22570's versions of 2022 are a bare number (3.0.0.6, 3.0.0.8); those of 2023 on, written
  // "WinDpeV3 v.3.0.0.16", were not seen on the criteria and keep the flag
  return id === '22570' && /^3\.0\.0\.\d+$/.test(version);
}

/**
 * The share of the walls' area (all walls, opaque surface) that the DPE declares of old
 * materials (paroi_ancienne = 1).
 */
function oldWallsShare(logement) {
  let all = 0;
  let old = 0;
  for (const mur of logement.enveloppe?.mur_collection?.mur || []) {
    const de = mur.donnee_entree || {};
    const area = Number(de.surface_paroi_opaque ?? de.surface_paroi_totale) || 0;
    all += area;
    if (Number(de.paroi_ancienne) === 1) old += area;
  }
  return all > 0 ? old / all : 0;
}

/**
 * ilpa ('1': a building of heavy inertia built of old materials) as the DPE's software computed
 * it. The engine reads the flag batiment_materiaux_anciens (Open3CL/engine#149); in bug-for-bug
 * mode, a DPE of a software that applied the method's criteria instead (heavy or very heavy
 * inertia, enum_classe_inertie_id 1 or 2, and more than half the walls of old materials) is
 * computed with them: its internal and solar gains, recovered losses and circulator hours are
 * then the registry's. `logiciel`: the software that computed the DPE ({ usr_logiciel_id,
 * version_logiciel }), the `logiciel_dpe` that logiciel-dpe-kept keeps on the engine's
 * administratif.diagnostiqueur (undefined without it: the flag).
 */
function ilpaAsComputed(logement, inertieId, logiciel) {
  const flag = logement.meteo.batiment_materiaux_anciens === 1 ? '1' : '0';
  if (!bug_for_bug_compat || !derivesIlpaFromCriteria(logiciel)) return flag;
  const heavy = ['1', '2'].includes(String(inertieId));
  return heavy && oldWallsShare(logement) > 0.5 ? '1' : '0';
}

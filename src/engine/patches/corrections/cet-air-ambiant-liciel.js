/* global bug_for_bug_compat */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(copAsComputed)$" }] */

/**
 * The COP LICIEL's registry figures give a thermodynamic water heater on ambient air (on an
 * unheated room, enum_type_generateur_ecs_id 1, 2, 3: before 2010, 2010-2014, after 2014) in
 * zones H1 and H2: the table's next rows, 2.3, 2.5, 2.8, which are both the zone-H3 rows of
 * the same air and period (tv_scop 74-76) and the extracted-air rows of zones H1-H2 (77-79),
 * where the table gives 2.0, 2.2, 2.5 (71-73). Seen on its two such DPEs of the 287 measured
 * (2368E3397674M, 2432E0658897O: every figure the XML's with it); LICIEL's water heater on
 * outside air (2528E1249844E) and another software's on ambient air (15257: 2316E1073443Z,
 * 2464E1550878T) have the table's COP. Zone H3 is left to the table: its two readings differ
 * there (2.8 or 2.9 after 2014) and no DPE shows which.
 */
const COP_AIR_AMBIANT_LICIEL = { 1: 2.3, 2: 2.5, 3: 2.8 };

/**
 * In bug-for-bug mode, a LICIEL DPE's (electric) water heater on ambient air, its COP from the table
 * (not typed from its documentation, enum_methode_saisie_carac_sys_id 6), gets the COP its
 * software used. `diagnostiqueur`: the engine's, carrying the DPE's software (logiciel-dpe-kept).
 * `tvScopDeclared`: the tv_scop_id the DPE declares for it, before the engine writes its own: only
 * the DPE's own water heaters are read as its software did; one that works add (no tv_scop_id) is
 * a new appliance, computed with the method's table.
 */
function copAsComputed(di, de, typeGenerateurId, zcId, diagnostiqueur, tvScopDeclared) {
  if (!bug_for_bug_compat || String(de.enum_methode_saisie_carac_sys_id) === '6') return;
  if (tvScopDeclared === undefined || tvScopDeclared === null || tvScopDeclared === '') return;
  if (diagnostiqueur?.logiciel_dpe?.usr_logiciel_id !== '26615') return;
  const cop = COP_AIR_AMBIANT_LICIEL[String(typeGenerateurId)];
  // a water heater is electric: a district-heating generator typed 1 (2159E1018555M) is not one
  if (String(de.enum_type_energie_id) !== '1') return;
  if (cop === undefined || String(zcId) === '8' || di.cop === undefined) return;
  di.cop = cop;
  di.rg = cop;
  di.rg_dep = cop;
}

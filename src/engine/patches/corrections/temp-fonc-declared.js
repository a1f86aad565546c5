/* global tvs, requestInput, requestInputID */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(tempFoncAsDeclared)$" }] */

/** Whether a temp_fonc row is the tables' for this generator type and distribution temperature. */
function tempFoncRowFor(row, type, temp) {
  return (
    String(row.enum_temp_distribution_ch_id) === temp &&
    String(row.enum_type_generateur_ch_id ?? type)
      .split('|')
      .includes(type)
  );
}

/**
 * In bug-for-bug mode, a combustion generator's operating temperatures at 30% and 100% load as the
 * DPE stored them, when none of its installation's emitters declares its period of installation
 * (the engine then takes it from the year of construction) and the stored pair is the tables'
 * pair for the generator's type and the emitters' highest distribution temperature at one period:
 * the period its software had, which the XML does not carry (2287E0281128A: a house of 1948, high
 * temperature, stored 52.5 / 70 °C, the 1981-2000 rows, where the engine reads 55.5 / 80). The
 * periods are tried in the tables' order (before 1981, 1981-2000, after 2000). A generator that
 * works install has no stored temperatures: it gets the engine's.
 */
function tempFoncAsDeclared(di, de, em_ch, stored) {
  const [s30, s100] = stored.map(Number);
  if (!(s30 > 0) || !(s100 > 0)) return;
  if (s30 === Number(di.temp_fonc_30) && s100 === Number(di.temp_fonc_100)) return;
  const ems = Array.isArray(em_ch) ? em_ch : [em_ch];
  if (ems.length === 0) return;
  const temps = [];
  for (const em of ems) {
    const emDe = em.donnee_entree ?? {};
    const emDu = em.donnee_utilisateur ?? {};
    if (requestInput(emDe, emDu, 'periode_installation_emetteur')) return;
    temps.push(Number(requestInputID(emDe, emDu, 'temp_distribution_ch')));
  }
  const temp = String(Math.max(...temps.filter((t) => t >= 2 && t <= 4)));
  if (temp === '-Infinity') return;
  const type = String(de.enum_type_generateur_ch_id);
  for (const row30 of tvs.temp_fonc_30) {
    if (!tempFoncRowFor(row30, type, temp) || Number(row30.temp_fonc_30) !== s30) continue;
    const periode = String(row30.periode_emetteurs).toLowerCase();
    const row100 = tvs.temp_fonc_100.find(
      (row) =>
        tempFoncRowFor(row, type, temp) &&
        String(row.periode_emetteurs).toLowerCase() === periode &&
        Number(row.temp_fonc_100) === s100
    );
    if (row100) {
      di.temp_fonc_30 = s30;
      di.temp_fonc_100 = s100;
      de.tv_temp_fonc_30_id = row30.tv_temp_fonc_30_id;
      de.tv_temp_fonc_100_id = row100.tv_temp_fonc_100_id;
      return;
    }
  }
}

/* global tvs, enums, calc_sse_j:writable, __dpeSimOi */
/**
 * Appended to `6.2_surface_sud_equivalente.js` after ssd-oi.js (marker `__dpeSimSseMonth`),
 * `calc_sse_j` (a month's south-equivalent glazed area, every window's solar factor and
 * shading): a run asks it for each month four times with the same windows (the cooling need, the
 * solar gains, the south-equivalent area, the heating need), nothing writing into the windows
 * between (they are computed with the envelope, before). The first answer for a window list,
 * veranda and month is kept for the later calls with that same list: a run's list is a new array
 * (the engine's sanitized copy), so nothing is kept from one run to the next. 8.7% of engine time
 * on 2535E0426429Q (62 windows), three quarters saved. Without a veranda (the common case) a
 * run's first call also reads once what `getSsd` reads of each window onto the outside (the table
 * key of its orientation and tilt, its area, solar factor and shading factors), and each month's
 * answer is the same sum in the same order of the same products, `surface × c1 × sw × fe1 × fe2`,
 * read from those. A list holding anything else than plain windows with their intermediate
 * values is computed as before.
 */
{
  const compute = calc_sse_j;
  const memo = new WeakMap();
  /** a run's list → { zc, row }: what getSsd reads of each window onto the outside, or null */
  const outsideRows = new WeakMap();
  const isObject = (v) => v !== null && typeof v === 'object';
  function outsideRow(bv_list, zc) {
    const kept = outsideRows.get(bv_list);
    if (kept !== undefined && Object.is(kept.zc, zc)) return kept.row;
    const c1z = tvs.c1[zc];
    let row = isObject(c1z) ? { c1z, oi: [], surface: [], sw: [], fe1: [], fe2: [] } : null;
    for (let i = 0; row !== null && i < bv_list.length; i++) {
      if (!(i in bv_list)) continue;
      const bv = bv_list[i];
      const de = isObject(bv) ? bv.donnee_entree : undefined;
      const di = isObject(bv) ? bv.donnee_intermediaire : undefined;
      if (!isObject(de) || !isObject(di)) row = null;
      else if (de.enum_type_adjacence_id === '1') {
        // getSsd's reads, in its order
        const orientation = enums.orientation[de.enum_orientation_id];
        const inclinaison = enums.inclinaison_vitrage[de.enum_inclinaison_vitrage_id ?? 3];
        let oi = __dpeSimOi(orientation, inclinaison);
        if (orientation === 'horizontal' || inclinaison === 'horizontal') oi = 'horizontal';
        row.oi.push(oi);
        row.surface.push(de.surface_totale_baie);
        row.sw.push(di.sw);
        row.fe1.push(di.fe1 ?? 1);
        row.fe2.push(di.fe2 ?? 1);
      }
    }
    outsideRows.set(bv_list, { zc, row });
    return row;
  }
  /** compute(bv_list, ets, ca, zc, mois) without a veranda, from the windows' reads */
  function outsideSum(bv_list, ets, ca, zc, mois) {
    const row = outsideRow(bv_list, zc);
    if (row === null) return compute(bv_list, ets, ca, zc, mois);
    const c1m = row.c1z[mois];
    const { oi, surface, sw, fe1, fe2 } = row;
    let acc = 0;
    for (let i = 0; i < oi.length; i++)
      acc = acc + surface[i] * c1m[oi[i]] * sw[i] * fe1[i] * fe2[i];
    return acc;
  }
  calc_sse_j = function calc_sse_j(bv_list, ets, ca, zc, mois) {
    if (
      !Array.isArray(bv_list) ||
      typeof mois !== 'string' ||
      (typeof zc !== 'string' && typeof zc !== 'number')
    )
      return compute(bv_list, ets, ca, zc, mois);
    let byEts = memo.get(bv_list);
    if (byEts === undefined) {
      byEts = new Map();
      memo.set(bv_list, byEts);
    }
    // by zone, then month (a Map's keys: 1 and '1' apart)
    let byZone = byEts.get(ets);
    if (byZone === undefined) {
      byZone = new Map();
      byEts.set(ets, byZone);
    }
    let byMonth = byZone.get(zc);
    if (byMonth === undefined) {
      byMonth = new Map();
      byZone.set(zc, byMonth);
    }
    let v = byMonth.get(mois);
    if (v === undefined) {
      v = ets ? compute(bv_list, ets, ca, zc, mois) : outsideSum(bv_list, ets, ca, zc, mois);
      byMonth.set(mois, v);
    }
    return v;
  };
}
export const __dpeSimSseMonth = true;

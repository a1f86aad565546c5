/* global tvs */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(ujnAsDeclared)$" }] */

/**
 * In bug-for-bug mode, the Ujn of a window with a closure as the DPE stored it, when the DPE's
 * stored Uw is the engine's (the same window) and its stored Ujn is the Ujn table's for that Uw
 * in another ΔR column (§3.3.3, tv ujn: 0.08, 0.15, 0.19, 0.25; the lowest such column): the
 * reading of the closure its software made (3752's versions 1.1 to 3.0 store, on some windows,
 * the Ujn of a column one or two below the closure they declare: 2238E0097309E's six windows,
 * declared closure 7, ΔR 0.25, stored Ujn the ΔR 0.15 column's; the registry's window losses are
 * those). Otherwise the engine's Ujn. A window that works replace has another Uw than the stored
 * one: it gets the engine's. The Uw is read as the engine's tv_ujn reads it (two significant
 * digits, an integer as is).
 */
function ujnAsDeclared(di, stored) {
  const ujn = Number(stored?.ujn);
  const uw = Number(stored?.uw);
  if (!Number.isFinite(ujn) || !Number.isFinite(uw) || !Number.isFinite(Number(di.uw)))
    return undefined;
  if (Math.abs(uw - Number(di.uw)) >= 0.0005 || Math.abs(ujn - Number(di.ujn)) < 1e-6)
    return undefined;
  const uwKey = Number.isInteger(di.uw) ? String(Number(di.uw)) : Number(di.uw).toPrecision(2);
  const rows = tvs.ujn.filter(
    (row) => String(row.uw) === uwKey && Math.abs(Number(row.ujn) - ujn) < 1e-6
  );
  rows.sort((a, b) => Number(a.deltar) - Number(b.deltar));
  return rows[0];
}

/* global bug_for_bug_compat */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(uphAsDeclared)$" }] */
/**
 * The Uph of a roof of unknown insulation as the DPE computed it: in bug-for-bug mode, the
 * Uph0 (the roof read as uninsulated) when the DPE's stored Uph is its Uph0 and above the
 * table's; the engine's min(Uph_tab, Uph0) otherwise.
 */
function uphAsDeclared(uph, uph0, uphStored) {
  if (!bug_for_bug_compat || uphStored === undefined || uphStored === null || uphStored === '')
    return uph;
  const stored = Number(uphStored);
  if (Number(uph0).toFixed(3) === stored.toFixed(3) && stored > uph + 0.001) return uph0;
  return uph;
}

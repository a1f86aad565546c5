/* global getFicheTechnique */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimJointSheet)$" }] */
/**
 * Appended to `engine.js` (marker `__dpeSimJointSheet`), `calcul_3cl`: for each window that does
 * not say whether it has joints, the DPE's technical sheets are searched (category 4, "joint",
 * the window's four labels), each sheet's text lowered on each search: 3% of a run on
 * 2535E0426429Q's 62 windows. Within one run (the same document, whose sheets nothing writes)
 * the answer for the same four labels is the same sheet: kept for the run (the anchors make the
 * run's Map).
 */
/** getFicheTechnique(dpe, '4', 'joint', labels), kept in memo (one run) per labels */
function __dpeSimJointSheet(memo, dpe, labels) {
  if (!labels.every((l) => l === undefined || typeof l === 'string'))
    return getFicheTechnique(dpe, '4', 'joint', labels);
  const key = labels.map((l) => (l === undefined ? '\u0000' : '\u0001' + l)).join('\u0002');
  if (memo.has(key)) return memo.get(key);
  const sheet = getFicheTechnique(dpe, '4', 'joint', labels);
  memo.set(key, sheet);
  return sheet;
}
export const __dpeSimJointSheetOn = true;

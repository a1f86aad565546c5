/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimFiche)$" }] */
import * as __dpeSimSanitizerModule from './dpe-sanitizer.service.js';
/**
 * Appended to `ficheTechnique.js` (marker `__dpeSimFicheOn`), `getFicheTechnique` (a run asks it
 * for the facades, the ventilation, the heat counting, each generator, each hot-water storage
 * and each window's joints): the engine builds the list of the matching sheets' rows with
 * `reduce` and `concat`, then `filter`s all of it, lowering every text it compares at every call
 * (216 ms of a 4.4 s profile of `initial 2287E0793758O`'s engine thread). The anchor has it
 * return `__dpeSimFiche(…)`:
 * - the same search in plain loops, step for step, giving the same row: the sheets in order,
 *   those of the category (and, with classifications, only those of which one row holds each
 *   classification: a text row containing it, case ignored, or a row equal to it), their rows in
 *   order (a row list that is not an array counts as one row, as `concat` adds it), the first
 *   truthy row whose `field` is truthy and contains the description, case ignored; else null. The
 *   sheets after the one found are still read as the engine reads them (a matching sheet without
 *   a row collection, or a null row where a classification is looked for, throws the same
 *   TypeError). Lowered texts are kept (up to 4,096), not made again;
 * - in a works run, the document's sheets are the sanitizer's new copy of the original's frozen
 *   sheets (the works copy shares them; the engine writes nothing into them): the answer to a
 *   question is then a function of that source, so where its row was found (or null) is kept per
 *   source and question (primitive arguments only), and the row at that place in this run's copy
 *   is given. The sanitizer notes each copy's source (`__dpeSimSheetSourceOf`, sanitizer.js).
 */
const __dpeSimLowered = new Map();
/** a copy of text that keeps nothing else alive (src/dpe/raw.ts `ownString`) */
function __dpeSimOwn(text) {
  return text.length < 13 ? text : JSON.parse(JSON.stringify(text));
}
/** text.toLowerCase(), kept */
function __dpeSimLower(text) {
  let low = __dpeSimLowered.get(text);
  if (low === undefined) {
    low = text.toLowerCase();
    if (__dpeSimLowered.size >= 4096) __dpeSimLowered.clear();
    // (copies of their own: a text of the XML can be a slice of the whole document, which the
    // entry would keep alive long after its DPE; `toLowerCase` may return the text itself)
    __dpeSimLowered.set(__dpeSimOwn(text), __dpeSimOwn(low));
  }
  return low;
}
/** whether one of rows holds classification (the engine's `some` callback) */
function __dpeSimHolds(rows, classification) {
  for (let j = 0; j < rows.length; j++) {
    if (!(j in rows)) continue;
    const row = rows[j];
    const valeur = row?.valeur;
    if (typeof valeur === 'string') {
      if (__dpeSimLower(row.valeur).indexOf(__dpeSimLower(classification.toString())) !== -1)
        return true;
    } else if (row.valeur === classification) return true;
  }
  return false;
}
/** the search: the row found and where (its sheet's index, its index in that sheet's rows), or null */
function __dpeSimFicheSearch(dpe, categoryFicheTechiqueId, description, classifications, field) {
  let fiches = dpe.fiche_technique_collection?.fiche_technique || [];
  if (!Array.isArray(fiches)) fiches = [fiches];
  classifications = classifications.filter((classification) => classification);
  let found = null;
  let lowered;
  for (let i = 0; i < fiches.length; i++) {
    if (!(i in fiches)) continue;
    const fiche = fiches[i];
    if (!fiche || fiche.enum_categorie_fiche_technique_id !== categoryFicheTechiqueId) continue;
    if (classifications.length) {
      let rows = fiche.sous_fiche_technique_collection.sous_fiche_technique;
      if (!Array.isArray(rows)) rows = [rows];
      let all = true;
      for (let c = 0; all && c < classifications.length; c++)
        all = __dpeSimHolds(rows, classifications[c]);
      if (!all) continue;
    }
    const rows = fiche.sous_fiche_technique_collection.sous_fiche_technique;
    if (found !== null) continue;
    const list = Array.isArray(rows) ? rows : [rows];
    for (let j = 0; j < list.length; j++) {
      if (!(j in list)) continue;
      const row = list[j];
      if (!row || !row[field]) continue;
      lowered ??= __dpeSimLower(description);
      if (__dpeSimLower(row[field].toString()).indexOf(lowered) !== -1) {
        found = { row, at: [i, j] };
        break;
      }
    }
  }
  return found;
}
/** frozen sheets (the sanitizer's source of a run's copy) → question → where its row is, or null */
const __dpeSimFicheAnswers = new WeakMap();
/** a question as text (the type of each classification kept), or undefined when not all primitives */
function __dpeSimQuestion(categoryFicheTechiqueId, description, classifications, field) {
  if (
    typeof categoryFicheTechiqueId !== 'string' ||
    typeof description !== 'string' ||
    typeof field !== 'string' ||
    !Array.isArray(classifications)
  )
    return undefined;
  let key = categoryFicheTechiqueId + '\u0000' + field + '\u0000' + description;
  for (let c = 0; c < classifications.length; c++) {
    if (!(c in classifications)) return undefined;
    const v = classifications[c];
    const t = v === null ? 'null' : typeof v;
    if (t !== 'string' && t !== 'number' && t !== 'boolean' && t !== 'undefined' && t !== 'null')
      return undefined;
    key += '\u0000' + t + ':' + String(v);
  }
  return key;
}
/**
 * getFicheTechnique(dpe, categoryFicheTechiqueId, description, classifications, field). When the
 * document's sheets are the sanitizer's copy of a frozen object (a works run: the original's
 * sheets, which nothing writes into, copied anew at every run), the answer depends on that
 * source and the question only: where the row was found (or null) is kept per source, and the
 * row at that place in this run's copy is given (the same search, the same copy, the same place).
 */
function __dpeSimFiche(dpe, categoryFicheTechiqueId, description, classifications, field) {
  const sheets = dpe.fiche_technique_collection;
  const source =
    sheets !== null && typeof sheets === 'object'
      ? __dpeSimSanitizerModule.__dpeSimSheetSourceOf?.(sheets)
      : undefined;
  const key =
    source === undefined
      ? undefined
      : __dpeSimQuestion(categoryFicheTechiqueId, description, classifications, field);
  let answers;
  if (key !== undefined) {
    answers = __dpeSimFicheAnswers.get(source);
    if (answers === undefined) {
      answers = new Map();
      __dpeSimFicheAnswers.set(source, answers);
    }
    const at = answers.get(key);
    if (at === null) return null;
    if (at !== undefined) {
      const fiches = sheets.fiche_technique;
      const fiche = (Array.isArray(fiches) ? fiches : [fiches])[at[0]];
      const rows = fiche.sous_fiche_technique_collection.sous_fiche_technique;
      return (Array.isArray(rows) ? rows : [rows])[at[1]];
    }
  }
  const found = __dpeSimFicheSearch(
    dpe,
    categoryFicheTechiqueId,
    description,
    classifications,
    field,
  );
  if (answers !== undefined) answers.set(key, found === null ? null : found.at);
  return found === null ? null : found.row;
}
export const __dpeSimFicheOn = true;

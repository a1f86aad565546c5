/* global tv:writable, cleanReference:writable, tvColumnIDs:writable */
/**
 * Appended to `utils.js` (marker `__dpeSimTvMemo`). `tv(table, matcher)` scans every row of a
 * table and matches each criterion with a regular expression (or `eval`) on every call: about 40%
 * of a run. The module's exported function declarations are rebound (importers see the new
 * binding) to memoised wrappers that return what the scan returns (the same row object).
 * `cleanReference` (lower case, accents and spaces removed) runs twice per wall × thermal bridge
 * pair; its cache is cleared past 20,000 strings so that a long batch stays bounded.
 * `tvColumnIDs(table, field)` (the distinct ids of a column) is computed once per pair; each call
 * gets its own copy.
 */
{
  const scan = tv;
  // a trie: table, then per criterion (in the matcher's order) its name and its value (strings
  // and numbers as themselves, other values as type and text): no key text is built per call
  const node = () => ({ keys: new Map(), done: false, row: undefined });
  const tables = new Map();
  tv = function tv(filePath, matcher) {
    const table = String(filePath);
    let at = tables.get(table);
    if (at === undefined) {
      at = node();
      tables.set(table, at);
    }
    for (const k in matcher) {
      const v = matcher[k];
      let values = at.keys.get(k);
      if (values === undefined) {
        values = { s: new Map(), n: new Map(), o: new Map() };
        at.keys.set(k, values);
      }
      let map, key;
      if (typeof v === 'string') {
        map = values.s;
        key = v;
      } else if (typeof v === 'number') {
        map = values.n;
        key = v;
      } else {
        map = values.o;
        key = typeof v + '\u0002' + String(v);
      }
      let next = map.get(key);
      if (next === undefined) {
        next = node();
        map.set(key, next);
      }
      at = next;
    }
    if (at.done) return at.row;
    const row = scan(filePath, matcher);
    at.done = true;
    at.row = row;
    return row;
  };
}
{
  const clean = cleanReference;
  const memo = new Map();
  // a copy of text that keeps nothing else alive (src/dpe/raw.ts `ownString`)
  const own = (text) =>
    typeof text !== 'string' || text.length < 13 ? text : JSON.parse(JSON.stringify(text));
  cleanReference = function cleanReference(reference) {
    if (typeof reference !== 'string') return clean(reference);
    let v = memo.get(reference);
    if (v === undefined) {
      if (memo.size >= 20000) memo.clear();
      v = clean(reference);
      // (copies of their own: a reference read from the XML can be a slice of the whole document,
      // which the entry would keep alive long after its DPE; the cleaned text may be the same)
      memo.set(own(reference), own(v));
    }
    return v;
  };
}
{
  const columnIds = tvColumnIDs;
  const memo = new Map();
  tvColumnIDs = function tvColumnIDs(filePath, field) {
    const key = String(filePath) + '\u0001' + String(field);
    let ids = memo.get(key);
    if (ids === undefined) {
      ids = columnIds(filePath, field);
      memo.set(key, ids);
    }
    return ids.slice();
  };
}
export const __dpeSimTvMemo = true;

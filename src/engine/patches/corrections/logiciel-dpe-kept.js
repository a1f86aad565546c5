/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(withLogicielDpe)$" }] */

/**
 * The engine's own administratif.diagnostiqueur, carrying (not enumerable: the output is the
 * same) the software and version that computed the DPE, `logiciel_dpe`, read by the corrections
 * that compute a figure as that software did: `{ usr_logiciel_id, version_logiciel }`, both
 * strings, trimmed ('' when the DPE does not say), so that every correction compares them the
 * same way (the XML's id is read as a number or a string, depending on the parser). `saisi`: the
 * DPE's diagnostiqueur, or the engine's of an earlier run on the same object (its `logiciel_dpe`
 * is kept; with the default sanitizer, which rebuilds the DPE from its enumerable keys, an output
 * run again has lost it).
 */
function withLogicielDpe(engine, saisi) {
  const logiciel = saisi?.logiciel_dpe ?? {
    usr_logiciel_id: String(saisi?.usr_logiciel_id ?? '').trim(),
    version_logiciel: String(saisi?.version_logiciel ?? '').trim()
  };
  Object.defineProperty(engine, 'logiciel_dpe', { value: logiciel, enumerable: false });
  return engine;
}

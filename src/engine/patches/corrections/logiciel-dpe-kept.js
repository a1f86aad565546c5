/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(withLogicielDpe)$" }] */

/**
 * The engine's own administratif.diagnostiqueur, carrying (not enumerable: the output is the
 * same) the software and version that computed the DPE, `logiciel_dpe`, read by the corrections
 * that compute a figure as that software did. `saisi`: the DPE's diagnostiqueur, or the engine's
 * of an earlier run on the same object (its `logiciel_dpe` is kept; with the default sanitizer,
 * which rebuilds the DPE from its enumerable keys, an output run again has lost it).
 */
function withLogicielDpe(engine, saisi) {
  const logiciel = saisi?.logiciel_dpe ?? {
    usr_logiciel_id: saisi?.usr_logiciel_id,
    version_logiciel: saisi?.version_logiciel
  };
  Object.defineProperty(engine, 'logiciel_dpe', { value: logiciel, enumerable: false });
  return engine;
}

/* global bug_for_bug_compat */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(withDh19AsEstablished)$" }] */
import dpeSimTvs from './tv.js';

/**
 * Runs fn with the DH19 table the DPE's software used: in bug-for-bug mode, the earlier table
 * (dh19_legacy, zone H2d's December) for a DPE established before 2024-07-01 (the 2024 revision
 * of the method; the corpus has H2d DPEs of 2023 on the earlier table and of 2026 on the
 * corrected one), the engine's table otherwise. Synchronous: the table is restored after.
 */
function withDh19AsEstablished(dateDpe, fn) {
  if (!bug_for_bug_compat || !dpeSimTvs.dh19_legacy || !(String(dateDpe) < '2024-07-01'))
    return fn();
  const dh19 = dpeSimTvs.dh19;
  dpeSimTvs.dh19 = dpeSimTvs.dh19_legacy;
  try {
    return fn();
  } finally {
    dpeSimTvs.dh19 = dh19;
  }
}

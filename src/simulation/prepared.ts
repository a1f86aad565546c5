/**
 * A DPE made ready for simulation: parsed once, checked, run once through the engine with no
 * works (the baseline). Every pre / initial / calc starts from here; the local backend caches it.
 */
import type { Thresholds, Warning } from '../contract/schemas.js';
import { thresholdsFor, today, type ClassSite } from '../contract/classes.js';
import { factsOf, MODELE_3CL_LOGEMENT, type DpeFacts } from '../dpe/facts.js';
import type { RawDpe } from '../dpe/raw.js';
import { resolveDefaultGenerators, type ResolvedDefault } from '../dpe/default-generators.js';
import type { DpeText } from '../dpe/source.js';
import { missingElementInputs, missingInputs, missingInputText } from '../dpe/required.js';
import { parseDpeXml } from '../dpe/xml.js';
import {
  EngineFailure,
  type Engine,
  type EngineResult,
  type UnknownEnum,
} from '../engine/engine.js';
import { DpeSimError } from '../contract/errors.js';
import { ALERT_IDS, block } from './alerts.js';
import { studyBasedBlock, tooOldBlock } from './blocks.js';

export interface PreparedDpe {
  key: string;
  file: string;
  raw: RawDpe;
  facts: DpeFacts;
  site: ClassSite;
  /** engine run with no works */
  base: EngineResult;
  /** thresholds in force at the DPE's date (to compare with the registry) */
  registryThresholds: Thresholds;
  /** thresholds in force today (for simulations) */
  thresholds: Thresholds;
  /** inputs whose `enum_…_id` the engine's tables do not know (consistency.ts names them) */
  unknownEnums: readonly UnknownEnum[];
  /** generators filed under the registry's default type, now of the type the engine computed */
  resolvedDefaults?: readonly ResolvedDefault[];
}

/** "baie_vitree[3] enum_orientation_id "abc" (table orientation)", for a message. */
export function unknownEnumText(u: UnknownEnum): string {
  return `${u.where ? `${u.where} ` : ''}${u.key} "${u.value}" (not a value of the 3CL table ${u.table})`;
}

export type Preparation =
  | { ok: true; dpe: PreparedDpe }
  | { ok: false; key: string; file: string; alert: Warning; facts: DpeFacts | undefined };

/** "; what: a, b, c, d, e and 2 more", or nothing for an empty list */
function firstFive(what: string, items: readonly string[]): string {
  if (!items.length) return '';
  const more = items.length > 5 ? ` and ${items.length - 5} more` : '';
  return `; ${what}: ${items.slice(0, 5).join(', ')}${more}`;
}

export function prepare(engine: Engine, text: DpeText): Preparation {
  const blocked = (alert: Warning, facts?: DpeFacts): Preparation => ({
    ok: false,
    key: text.key,
    file: text.file,
    alert,
    facts,
  });
  let raw: RawDpe;
  try {
    raw = parseDpeXml(text.xml);
  } catch (err) {
    if (err instanceof DpeSimError) {
      return blocked(block(ALERT_IDS.malformed, 'Unreadable DPE XML', err.message));
    }
    throw err;
  }
  const facts = factsOf(raw);
  const old = tooOldBlock(facts);
  if (old) return blocked(old, facts);
  if (facts.modeleId !== MODELE_3CL_LOGEMENT) {
    const label =
      engine.enumLabel('modele_dpe', facts.modeleId) ?? `id ${facts.modeleId ?? 'missing'}`;
    return blocked(
      block(
        ALERT_IDS.unsupportedModel,
        'Not a 3CL-2021 dwelling DPE',
        `This DPE uses the model "${label}"; only "dpe 3cl 2021 méthode logement" DPEs can be simulated.`,
      ),
      facts,
    );
  }
  const study = studyBasedBlock(
    facts,
    engine.enumLabel('methode_application_dpe_log', facts.methodeApplicationId),
  );
  if (study) return blocked(study, facts);
  const unknownEnums = engine.unknownEnums(raw);
  let base: EngineResult;
  try {
    base = engine.run(raw);
  } catch (err) {
    if (err instanceof EngineFailure) {
      // the likely cause, named: the inputs the method reads that the XML does not give, and
      // those the engine's tables do not know
      const missing = missingInputs(raw);
      const cause =
        (missing.length
          ? `; the XML does not give ${missing.map(missingInputText).join(' nor ')}`
          : '') +
        firstFive('inputs its elements lack', missingElementInputs(raw)) +
        firstFive("the XML's inputs the engine cannot read", unknownEnums.map(unknownEnumText));
      return blocked(
        block(
          ALERT_IDS.engineFailed,
          'The engine cannot compute this DPE',
          `${err.message}${cause}`,
        ),
        facts,
      );
    }
    throw err;
  }
  // the type the engine computed for a generator filed under the registry's default type
  const resolvedDefaults = resolveDefaultGenerators(raw, base.output, (use, inputs) =>
    engine.generatorRow(use, inputs),
  );
  const site: ClassSite = {
    surface: base.surface,
    zone: (engine.enumLabel('zone_climatique', facts.zoneId) ?? '').toLowerCase(),
    altitudeId: facts.altitudeId ?? '1',
  };
  const lookup = engine.smallSurfaceLimits.bind(engine);
  return {
    ok: true,
    dpe: {
      key: text.key,
      file: text.file,
      raw,
      facts,
      site,
      base,
      registryThresholds: thresholdsFor(site, facts.date ?? today(), lookup),
      thresholds: thresholdsFor(site, today(), lookup),
      unknownEnums,
      ...(resolvedDefaults.length ? { resolvedDefaults } : {}),
    },
  };
}

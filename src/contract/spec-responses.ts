/**
 * What the remote backend requires of a response: the fields the spec
 * (`../shared/spec/partner-dpe-simulation-service.md`) names for each operation, with the spec's
 * types. Everything else is optional on read: the fields whose names the spec leaves "not shown"
 * (the simulation id, the grades, the error message, the option values and costs, the sharing
 * cost...) and dpe-sim's own additions (registry packs, the DPE's source, normalization). When
 * present, those are typed as dpe-sim names them. Unknown fields pass (no
 * `additionalProperties: false`), so `--json` prints whatever the service sent, unchanged.
 *
 * One tolerance beyond the spec's letter: a figure the spec calls a number may be `null` where
 * it does not exist (dpe-sim's own server sends `retourSurInvestissementAnnees: null` when
 * nothing is saved, and null registry figures when the XML has none), since JSON has no NaN.
 */
import Type from 'typebox';
import { CATEGORIES, type Category } from './constants.js';
import {
  Coef2026Schema,
  DpeSourceInfo,
  HistoryRecord,
  NextClassFields,
  NextClassHintFields,
  Normalization,
  PartnerIdentity,
  RegistryPack,
  RESULT_KEYS,
  ScenarioItem,
  Thresholds,
  TokenInfoResponse,
  TokenLoginResponse,
  Warning,
  WorksOption,
  type ResultKey,
} from './schemas.js';

const NumberOrNull = Type.Union([Type.Number(), Type.Null()]);

/** An alert: the spec names all four fields, so the contract's own schema is the read schema. */
export const SpecWarning = Warning;
export type SpecWarning = Type.Static<typeof SpecWarning>;

export const SpecEditableChange = Type.Object({
  referenceId: Type.String(),
  editableKey: Type.String(),
  editableValue: Type.String(),
});
export type SpecEditableChange = Type.Static<typeof SpecEditableChange>;

export const SpecAuthResponse = Type.Object({ url: Type.String({ format: 'uri' }) });
export type SpecAuthResponse = Type.Static<typeof SpecAuthResponse>;

/** The spec shows no payload for the two token operations: any object is read. */
export const SpecTokenInfoResponse = Type.Partial(TokenInfoResponse);
export type SpecTokenInfoResponse = Type.Static<typeof SpecTokenInfoResponse>;
export const SpecTokenLoginResponse = Type.Partial(TokenLoginResponse);
export type SpecTokenLoginResponse = Type.Static<typeof SpecTokenLoginResponse>;

export const SpecMaxCalculation = Type.Object({
  consommationInitiale: NumberOrNull,
  consommationXML: NumberOrNull,
  gesInitiale: NumberOrNull,
  gesXML: NumberOrNull,
  deltaConso: NumberOrNull,
  deltaGES: NumberOrNull,
});

export const SpecPreResponse = Type.Object({
  url: Type.String({ format: 'uri' }),
  maxCalculation: SpecMaxCalculation,
  warnings: Type.Array(SpecWarning),
  dpeSource: Type.Optional(DpeSourceInfo),
});
export type SpecPreResponse = Type.Static<typeof SpecPreResponse>;

// ---------------------------------------------------------------- the DPE structure

/** An `editables` entry: `type` is named; the values map and the costs are not. */
export const SpecEditable = Type.Object({
  type: Type.String(),
  values: Type.Optional(Type.Record(Type.String(), Type.String())),
  options: Type.Optional(Type.Record(Type.String(), WorksOption)),
});
export type SpecEditable = Type.Static<typeof SpecEditable>;

export const SpecDpeElement = Type.Object({
  type: Type.String(),
  referenceId: Type.String(),
  description: Type.String(),
  etat: Type.Optional(Type.String()),
  editables: Type.Record(Type.String(), SpecEditable),
});
export type SpecDpeElement = Type.Static<typeof SpecDpeElement>;

/** An `infos` entry: "an object with a `value`" (its type is not stated). */
export const SpecInfoEntry = Type.Object({
  value: Type.Unknown(),
  label: Type.Optional(Type.String()),
  unit: Type.Optional(Type.String()),
});
export type SpecInfoEntry = Type.Static<typeof SpecInfoEntry>;

export const SPEC_INFO_KEYS = ['ref', 'surface', 'type_bien', 'zone_climatique'] as const;

export const SpecDpeStructure = Type.Object({
  id: Type.String(),
  infos: Type.Object(
    Object.fromEntries(SPEC_INFO_KEYS.map((k) => [k, SpecInfoEntry])) as Record<
      (typeof SPEC_INFO_KEYS)[number],
      typeof SpecInfoEntry
    >,
  ),
  items: Type.Object(
    Object.fromEntries(CATEGORIES.map((c) => [c, Type.Array(SpecDpeElement)])) as Record<
      Category,
      ReturnType<typeof Type.Array<typeof SpecDpeElement>>
    >,
  ),
  warnings: Type.Array(SpecWarning),
  thresholds: Type.Optional(Thresholds),
});
export type SpecDpeStructure = Type.Static<typeof SpecDpeStructure>;

// ---------------------------------------------------------------- calculation

export const SpecResultValue = Type.Object({
  value: Type.Number(),
  VInit: Type.Number(),
  title: Type.String(),
});

export const SpecCalculationResult = Type.Object(
  Object.fromEntries(RESULT_KEYS.map((k) => [k, SpecResultValue])) as Record<
    ResultKey,
    typeof SpecResultValue
  >,
);

export const SpecHints = Type.Object({
  economieAnnuelle: Type.Number(),
  gainTotal: Type.Number(),
  gainM2: Type.Number(),
  gainGESM2: Type.Number(),
  perteSurfaceTotal: Type.Number(),
  coutTravaux: Type.Number(),
  retourSurInvestissementAnnees: NumberOrNull,
  resteClasseSuivanteM2: Type.Optional(Type.Number()),
  margeClasseSuivantePourcent: Type.Optional(Type.Number()),
  ...NextClassHintFields,
});
export type SpecHints = Type.Static<typeof SpecHints>;

export const SpecCalculation = Type.Object({
  result: SpecCalculationResult,
  hints: SpecHints,
  ...NextClassFields,
  errorMessage: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  normalization: Type.Optional(Normalization),
  coefMode: Type.Optional(Coef2026Schema),
});
export type SpecCalculation = Type.Static<typeof SpecCalculation>;

export const SpecSimulationMeta = Type.Object({
  dpeId: Type.String(),
  simulationId: Type.Optional(Type.String()),
  initialGrade: Type.Optional(Type.String()),
  currentGrade: Type.Optional(Type.String()),
});

export const SpecAutoSolution = Type.Object({
  /** "the targeted DPE class": its type is not stated (dpe-sim sends a result value) */
  result: Type.Object({ classe_bilan_dpe: Type.Unknown() }),
  editables: Type.Array(SpecEditableChange),
  cout: Type.Number(),
  classe: Type.Optional(Type.String()),
  consoApres: Type.Optional(Type.Number()),
  gesApres: Type.Optional(Type.Number()),
  euroParKwh: Type.Optional(NumberOrNull),
  items: Type.Optional(Type.Array(ScenarioItem)),
  interdictionLocation: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  sortInterdiction: Type.Optional(Type.Boolean()),
});
export type SpecAutoSolution = Type.Static<typeof SpecAutoSolution>;

const SpecEditableChanges = Type.Object({ editablesValues: Type.Array(SpecEditableChange) });

const SpecSimulationCommon = {
  simulation: SpecSimulationMeta,
  calculation: SpecCalculation,
  editableChanges: SpecEditableChanges,
  namedCalculation: Type.String(),
  namedCalculationTitle: Type.String(),
};

export const SpecInitialResponse = Type.Object({
  dpe: SpecDpeStructure,
  ...SpecSimulationCommon,
  deltaCosts: Type.Object({ margin: Type.Number(), delta: Type.Number(), source: Type.String() }),
  autoSolutions: Type.Array(SpecAutoSolution),
  registryPacks: Type.Optional(Type.Array(RegistryPack)),
  sharingCost: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  dpeSource: Type.Optional(DpeSourceInfo),
  warnings: Type.Optional(Type.Array(SpecWarning)),
});
export type SpecInitialResponse = Type.Static<typeof SpecInitialResponse>;

export const SpecCalcResponse = Type.Object({
  ...SpecSimulationCommon,
  dpe: Type.Optional(SpecDpeStructure),
  user: Type.Optional(PartnerIdentity),
  dpeSource: Type.Optional(DpeSourceInfo),
  warnings: Type.Optional(Type.Array(SpecWarning)),
});
export type SpecCalcResponse = Type.Static<typeof SpecCalcResponse>;

/** The spec shows nothing of the history operation: dpe-sim's `records`, when given. */
export const SpecHistoryResponse = Type.Object({
  records: Type.Optional(Type.Array(HistoryRecord)),
});
export type SpecHistoryResponse = Type.Static<typeof SpecHistoryResponse>;

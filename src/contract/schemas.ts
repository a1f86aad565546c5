/**
 * The partner API as data: every request and response body of
 * `../shared/spec/partner-dpe-simulation-service.md`, as JSON Schema built with TypeBox.
 * The TypeScript types, the server's validation, the remote client's response checks and
 * the OpenAPI document all come from here. Names the spec leaves "not shown" are chosen
 * here once (see README, "Choices where the spec is silent").
 */
import Type from 'typebox';
import {
  CATEGORIES,
  COEF_MODES,
  DPE_ID_PATTERN,
  DPE_ID_REGEX,
  EXPIRE_MAX_MINUTES,
  IDENTITY_MAX_LENGTH,
  NO_COLON_PATTERN,
  type Category,
} from './constants.js';

export {
  CATEGORIES,
  COEF_MODES,
  DPE_ID_PATTERN,
  DPE_ID_REGEX,
  EXPIRE_MAX_MINUTES,
  IDENTITY_MAX_LENGTH,
  NO_COLON_PATTERN,
  type Category,
};
export type CoefMode = (typeof COEF_MODES)[number];

export const WARNING_TYPES = ['block', 'confirm', 'warning'] as const;

// ---------------------------------------------------------------- shared pieces

export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    errorObject: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { $id: 'ErrorBody' },
);
export type ErrorBody = Type.Static<typeof ErrorBody>;

export const Warning = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('block'), Type.Literal('confirm'), Type.Literal('warning')]),
  title: Type.String(),
  content: Type.String(),
});
export type Warning = Type.Static<typeof Warning>;

/** Request objects refuse unknown fields (400 naming the field and, when close, the right one). */
const STRICT = { additionalProperties: false } as const;

/** No control characters (C0, DEL, C1) in identity fields; ids also refuse ':'. */
export const NO_CONTROL_PATTERN = '^[^\\u0000-\\u001f\\u007f-\\u009f]+$';
export const ID_PATTERN = '^[^:\\u0000-\\u001f\\u007f-\\u009f]+$';

export const EditableChange = Type.Object(
  {
    referenceId: Type.String({ pattern: '^[a-z_]+:[0-9]+$', maxLength: 64 }),
    editableKey: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_PATTERN }),
    editableValue: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_PATTERN }),
  },
  STRICT,
);
export type EditableChange = Type.Static<typeof EditableChange>;

const Identity = {
  customerId: Type.String({ minLength: 1, maxLength: IDENTITY_MAX_LENGTH, pattern: ID_PATTERN }),
  userId: Type.String({ minLength: 1, maxLength: IDENTITY_MAX_LENGTH, pattern: ID_PATTERN }),
  userName: Type.String({
    minLength: 1,
    maxLength: IDENTITY_MAX_LENGTH,
    pattern: NO_CONTROL_PATTERN,
  }),
  customerName: Type.String({
    minLength: 1,
    maxLength: IDENTITY_MAX_LENGTH,
    pattern: NO_CONTROL_PATTERN,
  }),
};
export const PartnerIdentity = Type.Object(Identity);
export type PartnerIdentity = Type.Static<typeof PartnerIdentity>;

const DpeId = Type.String({ pattern: DPE_ID_PATTERN });
const ExpireInMinutes = Type.Integer({ minimum: 1, maximum: EXPIRE_MAX_MINUTES });
const Coef2026 = Type.Union([Type.Literal('activated'), Type.Literal('deactivated')]);
export const Coef2026Schema = Coef2026;

const SimulationOptionFields = {
  coef2026: Type.Optional(Coef2026),
  forceNormalization: Type.Optional(Type.Boolean()),
  expireInMinutes: Type.Optional(ExpireInMinutes),
};

/**
 * The options pre, initial and calc share. The spec puts them in `query` for pre and leaves
 * their placement open for initial (its example has two at the top level): every one of the three
 * operations reads each option in `query` or at the top level; both with different values: 400.
 */
export const SimulationQuery = Type.Object(SimulationOptionFields, STRICT);
export type SimulationQuery = Type.Static<typeof SimulationQuery>;

// ---------------------------------------------------------------- authentication

export const AuthRequest = Type.Object(
  {
    ...Identity,
    dpeId: Type.Optional(DpeId),
    showInit: Type.Optional(Type.Boolean()),
    expireInMinutes: Type.Optional(ExpireInMinutes),
  },
  STRICT,
);
export type AuthRequest = Type.Static<typeof AuthRequest>;

export const AuthResponse = Type.Object({ url: Type.String({ format: 'uri' }) });
export type AuthResponse = Type.Static<typeof AuthResponse>;

/** GET /partners/token/{partnerToken}: looks at a token without consuming it. */
export const TokenInfoResponse = Type.Object({
  valid: Type.Boolean(),
  status: Type.Union([Type.Literal('issued'), Type.Literal('used'), Type.Literal('expired')]),
  expiresAt: Type.String(),
  customerId: Type.String(),
  userId: Type.String(),
  dpeId: Type.Union([Type.String(), Type.Null()]),
  showInit: Type.Boolean(),
});
export type TokenInfoResponse = Type.Static<typeof TokenInfoResponse>;

/** GET /partners/tokenLogin/{partnerToken}: consumes the token (single use) and opens a session. */
export const TokenLoginResponse = Type.Object({
  sessionToken: Type.String(),
  user: PartnerIdentity,
  dpeId: Type.Union([Type.String(), Type.Null()]),
  showInit: Type.Boolean(),
});
export type TokenLoginResponse = Type.Static<typeof TokenLoginResponse>;

// ---------------------------------------------------------------- pre-analysis

export const PreRequest = Type.Object(
  {
    ...Identity,
    dpeId: DpeId,
    query: Type.Optional(SimulationQuery),
    ...SimulationOptionFields,
  },
  STRICT,
);
export type PreRequest = Type.Static<typeof PreRequest>;

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export const MaxCalculation = Type.Object({
  consommationInitiale: NullableNumber,
  consommationXML: NullableNumber,
  gesInitiale: NullableNumber,
  gesXML: NullableNumber,
  deltaConso: NullableNumber,
  deltaGES: NullableNumber,
});
export type MaxCalculation = Type.Static<typeof MaxCalculation>;

/**
 * dpe-sim's own addition, not named by the partner spec: where the DPE's XML came from
 * (`file`, the local `cache`, or the national `registry`) and, where it may be shown, its
 * path or URL.
 */
export const DpeSourceInfo = Type.Object({
  origin: Type.Union([Type.Literal('file'), Type.Literal('cache'), Type.Literal('registry')]),
  location: Type.Optional(Type.String()),
});
export type DpeSourceInfo = Type.Static<typeof DpeSourceInfo>;

export const ClassLimits = Type.Object({
  A: Type.Number(),
  B: Type.Number(),
  C: Type.Number(),
  D: Type.Number(),
  E: Type.Number(),
  F: Type.Number(),
});
export type ClassLimits = Type.Static<typeof ClassLimits>;

/** Upper bounds of each class: a value strictly below `A` is class A, and so on; G above F. */
export const Thresholds = Type.Object({
  dpe: ClassLimits,
  ges: ClassLimits,
  smallSurface: Type.Boolean(),
  highAltitude: Type.Boolean(),
});
export type Thresholds = Type.Static<typeof Thresholds>;

/** One line of the classes table of `pre` (dpe-sim). */
export const ClassesRow = Type.Object({
  source: Type.Union([
    Type.Literal('registry'),
    Type.Literal('engine-registry-rules'),
    Type.Literal('engine-today'),
  ]),
  epM2: Type.Number(),
  gesM2: Type.Number(),
  energie: Type.String(),
  ges: Type.String(),
  /** the official class: the worse of energy and GES */
  officielle: Type.String(),
  /** which thresholds: the registry's (DPE date) or today's */
  seuils: Type.Union([Type.Literal('registry'), Type.Literal('today')]),
});
export type ClassesRow = Type.Static<typeof ClassesRow>;

export const ClassesTable = Type.Object({
  rows: Type.Array(ClassesRow),
  registryCoef: Type.Number(),
  registryDate: Type.Union([Type.String(), Type.Null()]),
  thresholdsRegistry: Thresholds,
  thresholdsToday: Thresholds,
});
export type ClassesTable = Type.Static<typeof ClassesTable>;

export const PreResponse = Type.Object({
  url: Type.String({ format: 'uri' }),
  maxCalculation: MaxCalculation,
  warnings: Type.Array(Warning),
  dpeSource: Type.Optional(DpeSourceInfo),
  /** energy, GES and official classes side by side (dpe-sim; absent on a blocked DPE) */
  classes: Type.Optional(ClassesTable),
});
export type PreResponse = Type.Static<typeof PreResponse>;

// ---------------------------------------------------------------- the DPE structure

export const WorksOption = Type.Object({
  /** Energy saved, kWh of primary energy per year (engine run with this option alone). */
  gainTotal: Type.Number(),
  /** Greenhouse-gas emissions avoided, kg CO2e/m²/yr. */
  gainGESM2: Type.Number(),
  /** Estimated cost of the works, euros (incl. VAT). */
  cout: Type.Number(),
  /** How the cost was obtained, e.g. "28 × 4 770 €" or "180 kW × 1 379 €/kW" (dpe-sim). */
  coutDetail: Type.Optional(Type.String()),
  /**
   * The whole building's amount, euros, when `cout` is this DPE's share of it (a generated flat's
   * envelope, a flat's collective works); absent otherwise (dpe-sim).
   */
  coutBatiment: Type.Optional(Type.Number()),
  /**
   * A whole building's option priced per dwelling on an installation whose DPE says another
   * number of dwellings than the engine simulates with it: the dwellings priced, those the
   * engine simulates, whose consumption `gainTotal` measures; `coutDetail` says so (dpe-sim).
   */
  logementsChiffres: Type.Optional(Type.Number()),
  /**
   * ... and the dwellings the DPE's installation says it serves (its `nombre_logement`, else its
   * area's share of the building's dwellings) (dpe-sim).
   */
  logementsDpe: Type.Optional(Type.Number()),
  /** Cost per kWh saved in a year, €/kWh; null when nothing is saved. */
  euroParKwh: NullableNumber,
});
export type WorksOption = Type.Static<typeof WorksOption>;

export const Editable = Type.Object({
  type: Type.Literal('enum'),
  values: Type.Record(Type.String(), Type.String()),
  options: Type.Record(Type.String(), WorksOption),
});
export type Editable = Type.Static<typeof Editable>;

export const DpeElement = Type.Object({
  type: Type.String(),
  referenceId: Type.String(),
  description: Type.String(),
  /** current state in a few words (U value, area, adjacency) */
  etat: Type.String(),
  editables: Type.Record(Type.String(), Editable),
});
export type DpeElement = Type.Static<typeof DpeElement>;

export const InfoEntry = Type.Object({
  value: Type.Union([Type.String(), Type.Number(), Type.Null()]),
  label: Type.String(),
  unit: Type.Optional(Type.String()),
});
export type InfoEntry = Type.Static<typeof InfoEntry>;

export const INFO_KEYS = [
  'ref',
  'surface',
  'type_bien',
  'zone_climatique',
  'annee_construction',
  'classe_altitude',
  'energie_chauffage',
  'nombre_niveaux',
] as const;
export type InfoKey = (typeof INFO_KEYS)[number];

/**
 * A works option left out of the options and the scenarios: alone, it makes primary energy or
 * emissions worse and neither better (dpe-sim).
 */
export const OptionLeftOut = Type.Object({
  referenceId: Type.String(),
  editableKey: Type.String(),
  editableValue: Type.String(),
  label: Type.String(),
  cout: Type.Number(),
  /** primary energy saved alone, kWh/yr (negative: consumed) */
  gainTotal: Type.Number(),
  /** emissions avoided alone, kg CO2e/yr (negative: emitted) */
  gainGES: Type.Number(),
  /** `more-energy`, `more-ges` or `more-energy-and-ges` */
  reason: Type.Union([
    Type.Literal('more-energy'),
    Type.Literal('more-ges'),
    Type.Literal('more-energy-and-ges'),
  ]),
});
export type OptionLeftOut = Type.Static<typeof OptionLeftOut>;

/**
 * What the DPE covers, as costing sees it (dpe-sim): a house, a flat, a flat generated from its
 * building's DPE (its envelope is the building's: envelope works are priced at `envelopeShare`),
 * or a whole building (individual systems priced for every dwelling they stand for).
 */
export const ScopeInfo = Type.Object({
  kind: Type.Union([
    Type.Literal('maison'),
    Type.Literal('appartement'),
    Type.Literal('appartement-genere'),
    Type.Literal('immeuble'),
  ]),
  /** dwellings the DPE covers (1 for a house or a flat) */
  dwellings: Type.Integer(),
  /** dwellings of the building */
  buildingDwellings: Type.Integer(),
  /** living area the DPE covers, m² */
  surface: Type.Number(),
  /**
   * living area of the building, m²; null when the DPE does not give it (a flat's method-2 DPE)
   * or gives a unit slip (`buildingAreaSlip`) or the flat's own area where the building has more
   * (`buildingAreaCopied`) or too small for its flats (`buildingAreaTooSmall`): collective works
   * sized by the building are then not offered
   */
  buildingSurface: Type.Union([Type.Number(), Type.Null()]),
  /** surface / buildingSurface: the share of collective works a flat pays; null when unknown */
  share: Type.Union([Type.Number(), Type.Null()]),
  /** the share of envelope works the DPE pays (a generated flat's `share`, else 1; null: unknown) */
  envelopeShare: Type.Union([Type.Number(), Type.Null()]),
  heating: Type.Union([
    Type.Literal('individuel'),
    Type.Literal('collectif'),
    Type.Literal('mixte'),
  ]),
  hotWater: Type.Union([
    Type.Literal('individuel'),
    Type.Literal('collectif'),
    Type.Literal('mixte'),
  ]),
});
export type ScopeInfo = Type.Static<typeof ScopeInfo>;

export const DpeStructure = Type.Object({
  id: Type.String(),
  infos: Type.Object(
    Object.fromEntries(INFO_KEYS.map((k) => [k, InfoEntry])) as Record<InfoKey, typeof InfoEntry>,
  ),
  items: Type.Object(
    Object.fromEntries(CATEGORIES.map((c) => [c, Type.Array(DpeElement)])) as Record<
      Category,
      ReturnType<typeof Type.Array<typeof DpeElement>>
    >,
  ),
  warnings: Type.Array(Warning),
  thresholds: Thresholds,
  /** what the DPE covers, as costing sees it (dpe-sim) */
  scope: Type.Optional(ScopeInfo),
  /** options not offered because they make things worse (dpe-sim; absent: none) */
  optionsLeftOut: Type.Optional(Type.Array(OptionLeftOut)),
});
export type DpeStructure = Type.Static<typeof DpeStructure>;

// ---------------------------------------------------------------- calculation

export const RESULT_KEYS = [
  'classe_bilan_dpe',
  'classe_conso_c',
  'classe_emission_ges',
  'ep_conso_5_usages',
  'ep_conso_5_usages_m2',
  'emission_ges_5_usages',
  'emission_ges_5_usages_m2',
  'perte_surface_m2',
  'cout_5_usages',
] as const;
export type ResultKey = (typeof RESULT_KEYS)[number];

export const ResultValue = Type.Object({
  value: Type.Number(),
  VInit: Type.Number(),
  title: Type.String(),
});
export type ResultValue = Type.Static<typeof ResultValue>;

export const CalculationResult = Type.Object(
  Object.fromEntries(RESULT_KEYS.map((k) => [k, ResultValue])) as Record<
    ResultKey,
    typeof ResultValue
  >,
);
export type CalculationResult = Type.Static<typeof CalculationResult>;

/**
 * dpe-sim's own next-class fields, following the official class (optional on read). They sit in
 * `calculation` beside `hints`, not in it: the spec says every field of `hints` is a number
 * (issue 38); `resteGESClasseSuivanteM2`, a number, stays in `hints`.
 */
export const NextClassFields = {
  /** The next better official class, null in A (dpe-sim). */
  classeSuivante: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** What holds the official class back: energy, GES or both; null in A (dpe-sim). */
  freinClasseSuivante: Type.Optional(
    Type.Union([
      Type.Literal('energie'),
      Type.Literal('ges'),
      Type.Literal('energie+ges'),
      Type.Null(),
    ]),
  ),
};

/** dpe-sim's own numeric next-class hint (optional on read). */
export const NextClassHintFields = {
  /** kg CO2e/m²/yr still to avoid to reach that class; 0 when GES already allows it (dpe-sim). */
  resteGESClasseSuivanteM2: Type.Optional(Type.Number()),
};

export const Hints = Type.Object({
  economieAnnuelle: Type.Number(),
  gainTotal: Type.Number(),
  gainM2: Type.Number(),
  gainGESM2: Type.Number(),
  perteSurfaceTotal: Type.Number(),
  coutTravaux: Type.Number(),
  retourSurInvestissementAnnees: NullableNumber,
  /**
   * kWh/m²/yr of primary energy still to save to fall below the energy threshold of the next
   * better OFFICIAL class (worse of energy and GES); 0 in A or when energy already allows it.
   */
  resteClasseSuivanteM2: Type.Number(),
  /** The same gap as a percentage of that threshold: (value − threshold) / threshold × 100 (0 in A). */
  margeClasseSuivantePourcent: Type.Number(),
  ...NextClassHintFields,
});
export type Hints = Type.Static<typeof Hints>;

export const Normalization = Type.Object({
  applied: Type.Boolean(),
  /** factor applied to consumption values (registry / engine), 1 when not applied */
  consoFactor: Type.Number(),
  /** factor applied to emission values, 1 when not applied */
  gesFactor: Type.Number(),
  /**
   * applied: the factor on the bills (`cout_5_usages`), the registry's bill over the engine's,
   * both at the prices in force at the DPE's date, so that the bills stay at today's prices;
   * absent when the DPE gives no bill (dpe-sim)
   */
  billFactor: Type.Optional(Type.Number()),
  reason: Type.String(),
});
export type Normalization = Type.Static<typeof Normalization>;

export const Calculation = Type.Object({
  result: CalculationResult,
  hints: Hints,
  ...NextClassFields,
  errorMessage: Type.Union([Type.String(), Type.Null()]),
  normalization: Normalization,
  coefMode: Coef2026,
  /**
   * the thresholds the classes and `hints` (the distance to the next class) use: this dwelling's
   * (small surface, high altitude); a screen draws its label with them (dpe-sim)
   */
  thresholds: Type.Optional(Thresholds),
});
export type Calculation = Type.Static<typeof Calculation>;

export const SimulationMeta = Type.Object({
  dpeId: Type.String(),
  simulationId: Type.String(),
  /** Official class letter before works (A–G) */
  initialGrade: Type.String(),
  /** Official class letter after the works of this calculation (A–G) */
  currentGrade: Type.String(),
});
export type SimulationMeta = Type.Static<typeof SimulationMeta>;

export const DeltaCosts = Type.Object({
  /** half-width of the cost range as a fraction of each estimate: low = cost × (1 − margin) */
  margin: Type.Number(),
  /** adjustment applied to every default figure, percent (0 = the published figures) */
  delta: Type.Number(),
  source: Type.String(),
});
export type DeltaCosts = Type.Static<typeof DeltaCosts>;

export const ScenarioItem = Type.Object({
  referenceId: Type.String(),
  editableKey: Type.String(),
  editableValue: Type.String(),
  label: Type.String(),
  cout: Type.Number(),
  /** How the cost was obtained, e.g. "28 × 4 770 €" (dpe-sim). */
  coutDetail: Type.Optional(Type.String()),
  /** The whole building's amount when `cout` is this DPE's share of it (dpe-sim). */
  coutBatiment: Type.Optional(Type.Number()),
  /** kWh/yr saved by this item alone on the initial dwelling */
  gainTotal: Type.Number(),
});
export type ScenarioItem = Type.Static<typeof ScenarioItem>;

export const RegistryPack = Type.Object({
  description: Type.String(),
  coutMin: NullableNumber,
  coutMax: NullableNumber,
  consoApres: NullableNumber,
  /** kg CO2e/m²/yr after works, as the pack gives it (dpe-sim) */
  gesApres: Type.Optional(NullableNumber),
  /** official class after works: worse of energy and GES, with the DPE's own thresholds */
  classeApres: Type.Union([Type.String(), Type.Null()]),
  /** true when the pack's maximum cost is under 1,000 €: a placeholder, not an estimate (dpe-sim) */
  coutPlaceholder: Type.Optional(Type.Boolean()),
  /**
   * cost of dpe-sim's cheapest scenario reaching the same class, euros, or null; null too when the
   * pack gains no class (`sansGainDeClasse`) (dpe-sim)
   */
  coutScenario: Type.Optional(NullableNumber),
  /**
   * the works of that scenario (null with `coutScenario`): run them with `calc` at the
   * coefficient `registryCoef` to see the class the pack is compared at (dpe-sim)
   */
  editablesScenario: Type.Optional(Type.Union([Type.Array(EditableChange), Type.Null()])),
  /**
   * a flat generated from its building's DPE, with a pack costing more per m² of the flat than a
   * deep renovation's ceiling (500 €/m²: it can only be the building's): `coutScenario` is then
   * the scenario at the building's scale (its cost ÷ the flat's share) and this the flat's own
   * cost (dpe-sim)
   */
  coutScenarioLogement: Type.Optional(Type.Number()),
  /**
   * the DPE's official class as the registry gives it: its own letter, otherwise worse-of from its
   * figures with the thresholds at its date; null when unknown (dpe-sim)
   */
  classeAvant: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /**
   * true when the pack's class after works is no better than `classeAvant`: nothing to compare
   * with dpe-sim's scenarios (dpe-sim)
   */
  sansGainDeClasse: Type.Optional(Type.Boolean()),
  /**
   * the electricity coefficient the pack's figures were computed with (the registry's: 2.3 before
   * 2026); `classeApres` and `coutScenario` are in that frame, dpe-sim's scenarios classed with it
   * (dpe-sim)
   */
  registryCoef: Type.Optional(Type.Number()),
});
export type RegistryPack = Type.Static<typeof RegistryPack>;

export const AutoSolution = Type.Object({
  result: Type.Object({ classe_bilan_dpe: ResultValue }),
  /** Target class letter */
  classe: Type.String(),
  editables: Type.Array(EditableChange),
  cout: Type.Number(),
  /** kWh/m²/yr of primary energy after works */
  consoApres: Type.Number(),
  /** kg CO2e/m²/yr after works */
  gesApres: Type.Number(),
  /** € per kWh/yr saved by the whole scenario */
  euroParKwh: NullableNumber,
  items: Type.Array(ScenarioItem),
  /** Year from which the dwelling may no longer be rented after these works (null: never banned) */
  interdictionLocation: Type.Union([Type.Integer(), Type.Null()]),
  sortInterdiction: Type.Boolean(),
  /**
   * true: no combination of the offered options is cheaper and reaches the class (the search
   * proved it; docs/scenario-search.md states the assumption); false: the search stopped at its
   * budget (dpe-sim)
   */
  exact: Type.Optional(Type.Boolean()),
  /**
   * € below which the search proved that no combination reaches the class: equal to `cout` when
   * exact, else the optimum lies between this and `cout` (dpe-sim)
   */
  lowerBound: Type.Optional(Type.Number()),
  /**
   * At most this many percent above the cheapest combination reaching the class: 0 when proved
   * the cheapest, else `cout` ÷ `lowerBound` − 1 rounded up; null when the bound is 0 € (dpe-sim)
   */
  maxAbovePercent: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  /**
   * `cout` per m² of the living area the DPE covers (the building's for a whole building), €/m²;
   * above the deep-renovation ceiling, the response's `warnings` carry `warning.cost-per-m2`
   * (dpe-sim)
   */
  coutParM2: Type.Optional(Type.Number()),
  /**
   * a whole building: `cout` divided by its dwellings (`dpe.scope.dwellings`), an average, €
   * (a co-ownership's split of works, by tantièmes or by lot, is not in the DPE) (dpe-sim)
   */
  coutParLogement: Type.Optional(Type.Number()),
  /**
   * heat pumps of one kind on two or more heating installations of one dwelling, priced as that
   * many appliances in `cout`: says so, and what one appliance would cost where the catalogue
   * prices it (the audit's `heatPumpsNote`, docs/works.md) (dpe-sim)
   */
  heatPumpsNote: Type.Optional(Type.String()),
  /**
   * new water heaters on two or more hot-water installations of one dwelling, priced and
   * simulated as that many appliances in `cout`: says so, with the area the DPE gives each
   * installation (the audit's `hotWaterNote`, docs/works.md) (dpe-sim)
   */
  waterHeatersNote: Type.Optional(Type.String()),
});
export type AutoSolution = Type.Static<typeof AutoSolution>;

export const EditableChanges = Type.Object({ editablesValues: Type.Array(EditableChange) });

const SimulationCommon = {
  simulation: SimulationMeta,
  calculation: Calculation,
  editableChanges: EditableChanges,
  namedCalculation: Type.String(),
  namedCalculationTitle: Type.String(),
};

export const InitialRequest = Type.Object(
  {
    ...Identity,
    dpeId: DpeId,
    query: Type.Optional(SimulationQuery),
    ...SimulationOptionFields,
  },
  STRICT,
);
export type InitialRequest = Type.Static<typeof InitialRequest>;

export const InitialResponse = Type.Object({
  dpe: DpeStructure,
  ...SimulationCommon,
  deltaCosts: DeltaCosts,
  autoSolutions: Type.Array(AutoSolution),
  registryPacks: Type.Array(RegistryPack),
  /** the DPE's alerts, the same ids as `pre` (dpe-sim) */
  warnings: Type.Optional(Type.Array(Warning)),
  /** 0 when free sharing is enabled, 1 otherwise */
  sharingCost: Type.Union([Type.Literal(0), Type.Literal(1)]),
  dpeSource: Type.Optional(DpeSourceInfo),
});
export type InitialResponse = Type.Static<typeof InitialResponse>;

export const CalcQuery = Type.Object(
  {
    ...SimulationOptionFields,
    includeDPE: Type.Optional(Type.Boolean()),
    includeUser: Type.Optional(Type.Boolean()),
  },
  STRICT,
);
export type CalcQuery = Type.Static<typeof CalcQuery>;

export const CalcRequest = Type.Object(
  {
    ...Identity,
    dpeId: DpeId,
    query: Type.Optional(CalcQuery),
    ...SimulationOptionFields,
    params: Type.Optional(
      Type.Object(
        {
          editablesChanges: Type.Optional(Type.Array(EditableChange, { maxItems: 500 })),
          namedCalculation: Type.Optional(
            Type.String({ minLength: 1, maxLength: 100, pattern: NO_CONTROL_PATTERN }),
          ),
        },
        STRICT,
      ),
    ),
  },
  STRICT,
);
export type CalcRequest = Type.Static<typeof CalcRequest>;

export const CalcResponse = Type.Object({
  ...SimulationCommon,
  /** the DPE's alerts, the same ids as `pre` (dpe-sim) */
  warnings: Type.Optional(Type.Array(Warning)),
  dpe: Type.Optional(DpeStructure),
  user: Type.Optional(PartnerIdentity),
  dpeSource: Type.Optional(DpeSourceInfo),
});
export type CalcResponse = Type.Static<typeof CalcResponse>;

// ---------------------------------------------------------------- tracking

/** An ISO 8601 date (2025-01-31) or date-time (2025-01-31T08:00:00Z, offsets allowed). */
export const ISO_TIME_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:[0-9]{2})?)?$';

export const HistoryRequest = Type.Object(
  {
    customerId: Type.Optional(
      Type.String({ minLength: 1, maxLength: IDENTITY_MAX_LENGTH, pattern: ID_PATTERN }),
    ),
    userId: Type.Optional(
      Type.String({ minLength: 1, maxLength: IDENTITY_MAX_LENGTH, pattern: ID_PATTERN }),
    ),
    dpeId: Type.Optional(DpeId),
    /** runs at or after this time (inclusive) */
    since: Type.Optional(Type.String({ pattern: ISO_TIME_PATTERN })),
    /** runs at or before this time (inclusive) */
    until: Type.Optional(Type.String({ pattern: ISO_TIME_PATTERN })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000 })),
  },
  STRICT,
);
export type HistoryRequest = Type.Static<typeof HistoryRequest>;

/**
 * The operations a run record can be: the partner spec's three and dpe-sim's energy audit (a
 * dpe-sim extension, recorded by `audit` like a `calc`: classes and consumption before and
 * after its path, the path's works and cost).
 */
export type RunOperation = 'pre' | 'initial' | 'calc' | 'audit';

export const HistoryRecord = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  customerId: Type.String(),
  userId: Type.String(),
  dpeId: Type.String(),
  /** `audit`: the energy audit (a dpe-sim extension), its path in one step */
  operation: Type.Union([
    Type.Literal('pre'),
    Type.Literal('initial'),
    Type.Literal('calc'),
    Type.Literal('audit'),
  ]),
  scenario: Type.Union([Type.String(), Type.Null()]),
  works: Type.Array(EditableChange),
  classBefore: Type.Union([Type.String(), Type.Null()]),
  classAfter: Type.Union([Type.String(), Type.Null()]),
  consoBefore: NullableNumber,
  consoAfter: NullableNumber,
  coutTravaux: NullableNumber,
  coefMode: Coef2026,
  normalized: Type.Boolean(),
  blocked: Type.Boolean(),
});
export type HistoryRecord = Type.Static<typeof HistoryRecord>;

export const HistoryResponse = Type.Object({ records: Type.Array(HistoryRecord) });
export type HistoryResponse = Type.Static<typeof HistoryResponse>;

// ---------------------------------------------------------------- server-side extras (issue 5)

/** Path parameter of GET /partners/token/{partnerToken} and /partners/tokenLogin/{partnerToken}. */
export const TOKEN_MAX_LENGTH = 200;
export const TokenParams = Type.Object(
  { partnerToken: Type.String({ minLength: 1, maxLength: TOKEN_MAX_LENGTH }) },
  STRICT,
);
export type TokenParams = Type.Static<typeof TokenParams>;

/** POST /public/api/login: what the login page sends (no partner key: the token is the secret). */
export const PageLoginRequest = Type.Object(
  { partnerToken: Type.String({ minLength: 1, maxLength: TOKEN_MAX_LENGTH }) },
  STRICT,
);
export type PageLoginRequest = Type.Static<typeof PageLoginRequest>;

/** The DPE as the login page shows it: its classes before works (2026 coefficient). */
export const DpeSummary = Type.Object({
  dpeId: Type.String(),
  blocked: Type.Boolean(),
  alert: Type.Union([Warning, Type.Null()]),
  surface: NullableNumber,
  classes: Type.Union([
    Type.Object({ dpe: Type.String(), energy: Type.String(), ges: Type.String() }),
    Type.Null(),
  ]),
  /** kWh/m²/yr of primary energy */
  epM2: NullableNumber,
  /** kg CO2e/m²/yr */
  gesM2: NullableNumber,
});
export type DpeSummary = Type.Static<typeof DpeSummary>;

export const PageLoginResponse = Type.Object({
  user: PartnerIdentity,
  showInit: Type.Boolean(),
  dpe: Type.Union([DpeSummary, Type.Null()]),
  /** the user's newest pre / initial / calc record (on the token's DPE when it names one) */
  lastSimulation: Type.Union([HistoryRecord, Type.Null()]),
});
export type PageLoginResponse = Type.Static<typeof PageLoginResponse>;

export const HealthResponse = Type.Object({ status: Type.Literal('ok') });
export type HealthResponse = Type.Static<typeof HealthResponse>;

/** GET /ready: the server and what it depends on answer (a load balancer's probe). */
export const ReadyResponse = Type.Object({
  status: Type.Literal('ready'),
  checks: Type.Object({ store: Type.Literal('ok') }),
});
export type ReadyResponse = Type.Static<typeof ReadyResponse>;

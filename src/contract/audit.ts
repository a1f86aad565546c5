/**
 * The energy audit (`dpe-sim audit`, `POST /dpe-sim/audit`): a dpe-sim extension, not in the
 * partner spec. What the regulatory audit asks for (arrêté du 4 mai 2022 as amended by the
 * arrêté du 29 décembre 2023) computed from the DPE: the heat-loss breakdown, a path in steps
 * and a path in one step, each checked against the rules with its figures. See docs/audit.md.
 */
import Type from 'typebox';
import { CLASS_LETTERS } from './classes.js';
import { DpeSourceInfo, InitialRequest } from './schemas.js';

const Letter = Type.Enum(CLASS_LETTERS);

/** The request: the same body as `initial` (identity, dpeId, coef2026, forceNormalization). */
export const AuditRequest = InitialRequest;
export type AuditRequest = Type.Static<typeof AuditRequest>;

export const LOSS_KEYS = [
  'walls',
  'roof',
  'floor',
  'windows',
  'doors',
  'thermalBridges',
  'airRenewal',
] as const;
export type LossKey = (typeof LOSS_KEYS)[number];

export const LossItem = Type.Object({
  key: Type.Enum(LOSS_KEYS),
  label: Type.String(),
  /** W/K (the engine's `deperdition_*`) */
  wk: Type.Number(),
  /** percent of the total, 1 decimal */
  share: Type.Number(),
});
export type LossItem = Type.Static<typeof LossItem>;

export const LossBreakdown = Type.Object({
  /** W/K: the engine's `deperdition_enveloppe` (the items sum to it) */
  total: Type.Number(),
  items: Type.Array(LossItem),
});
export type LossBreakdown = Type.Static<typeof LossBreakdown>;

/** The six items of a "rénovation performante" (CCH L. 111-1, 17° bis). */
export const ITEM_KEYS = [
  'walls',
  'lowFloors',
  'roof',
  'windowsDoors',
  'ventilation',
  'heatingHotWater',
] as const;
export type ItemKey = (typeof ITEM_KEYS)[number];
const ItemKeySchema = Type.Enum(ITEM_KEYS);

/** An item as the DPE has it: whether it needs works, and if not, why (the criterion). */
export const ItemState = Type.Object({
  key: ItemKeySchema,
  label: Type.String(),
  needed: Type.Boolean(),
  /** why it needs no works (absent, no losses, already good with the figure...), or null */
  reason: Type.Union([Type.String(), Type.Null()]),
});
export type ItemState = Type.Static<typeof ItemState>;

/** Figures after a step (or before any works). */
export const AuditFigures = Type.Object({
  classe: Letter,
  /** primary energy, kWh/m²/yr */
  epM2: Type.Number(),
  /** emissions, kg CO2e/m²/yr */
  gesM2: Type.Number(),
  /** final energy, kWh/yr */
  ef: Type.Number(),
  /** final energy, kWh/m²/yr */
  efM2: Type.Number(),
  /** energy bill, €/yr (the engine's cout, 5 uses) */
  bill: Type.Number(),
});
export type AuditFigures = Type.Static<typeof AuditFigures>;

export const AuditWork = Type.Object({
  referenceId: Type.String(),
  editableKey: Type.String(),
  editableValue: Type.String(),
  item: ItemKeySchema,
  /** the element ("mur:0 — Mur Nord") */
  element: Type.String(),
  option: Type.String(),
  /** the recommended performance: "R = 3.7 m²·K/W", "Uw = 1.3 W/m²·K", "efficiency: ..." */
  performance: Type.String(),
  quantity: Type.Number(),
  unit: Type.String(),
  /** € incl. VAT */
  cost: Type.Number(),
  costDetail: Type.String(),
});
export type AuditWork = Type.Static<typeof AuditWork>;

export const AuditStep = Type.Object({
  n: Type.Integer({ minimum: 1 }),
  works: Type.Array(AuditWork),
  before: AuditFigures,
  after: AuditFigures,
  /** classes gained by this step */
  gain: Type.Integer(),
  /** € incl. VAT */
  cost: Type.Number(),
  cumulativeCost: Type.Number(),
});
export type AuditStep = Type.Static<typeof AuditStep>;

export const RULE_IDS = [
  'first-step-gain',
  'first-step-insulation',
  'ventilation',
  'final-class',
  'six-items',
] as const;
export type RuleId = (typeof RULE_IDS)[number];

export const AuditRule = Type.Object({
  id: Type.Enum(RULE_IDS),
  label: Type.String(),
  pass: Type.Boolean(),
  /** the figure the rule is judged on ("E → C: 2 classes") */
  figure: Type.String(),
  /** when it fails: why the catalogue cannot meet it */
  why: Type.Union([Type.String(), Type.Null()]),
});
export type AuditRule = Type.Static<typeof AuditRule>;

/** Each of the six items in a proposal: treated (at which step), not needed (why), or missing. */
export const ItemOutcome = Type.Object({
  key: ItemKeySchema,
  label: Type.String(),
  status: Type.Union([
    Type.Literal('treated'),
    Type.Literal('not-needed'),
    Type.Literal('missing'),
  ]),
  step: Type.Union([Type.Integer(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
});
export type ItemOutcome = Type.Static<typeof ItemOutcome>;

export const AuditProposal = Type.Object({
  kind: Type.Union([Type.Literal('steps'), Type.Literal('single')]),
  title: Type.String(),
  steps: Type.Array(AuditStep),
  /** € incl. VAT, every step */
  cost: Type.Number(),
  rules: Type.Array(AuditRule),
  items: Type.Array(ItemOutcome),
  /** every rule passes */
  ok: Type.Boolean(),
});
export type AuditProposal = Type.Static<typeof AuditProposal>;

export const CostSource = Type.Object({
  key: Type.String(),
  eur: Type.Number(),
  unit: Type.String(),
  source: Type.String(),
});

export const AuditResponse = Type.Object({
  dpeId: Type.String(),
  coverage: Type.Union([
    Type.Literal('maison'),
    Type.Literal('appartement'),
    Type.Literal('immeuble'),
  ]),
  /** m², the surface the engine divides by */
  surface: Type.Number(),
  coefMode: Type.Union([Type.Literal('activated'), Type.Literal('deactivated')]),
  /** figures scaled to the registry's (see `initial`) */
  normalized: Type.Boolean(),
  initial: AuditFigures,
  /** B, or C for a dwelling in F or G before works */
  targetClass: Letter,
  targetRule: Type.String(),
  /** whether the regulatory audit applies (class D to G) */
  auditApplies: Type.Boolean(),
  losses: LossBreakdown,
  items: Type.Array(ItemState),
  proposals: Type.Array(AuditProposal),
  /** both proposals meet every rule */
  ok: Type.Boolean(),
  /** the rules some proposal cannot meet */
  blockedBy: Type.Array(Type.Enum(RULE_IDS)),
  costs: Type.Object({
    source: Type.String(),
    margin: Type.Number(),
    delta: Type.Number(),
    figures: Type.Array(CostSource),
  }),
  versions: Type.Object({
    dpeSim: Type.String(),
    engine: Type.String(),
    /** a fingerprint of the works catalogue and the cost figures */
    catalogue: Type.String(),
  }),
  /** change sets the search ran through the engine (memo hits not counted) */
  changeSets: Type.Integer(),
  note: Type.String(),
  dpeSource: Type.Optional(DpeSourceInfo),
});
export type AuditResponse = Type.Static<typeof AuditResponse>;

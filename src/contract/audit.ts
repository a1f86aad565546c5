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
export const AuditRequest = Type.Object(
  {
    ...InitialRequest.properties,
    /** when the input gate fails: the engine's own figures under a banner, instead of a block (0.2) */
    engineFigures: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
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

/**
 * One element of an item as the audit judges it (0.2): whether it loses heat to the outside or
 * an unheated space, its performance, the aids' level for works on it, and whether it needs
 * works (below the level), is already at it, or cannot take works (and why).
 */
export const ElementNeed = Type.Object({
  referenceId: Type.String(),
  description: Type.String(),
  /** m² (the dwelling's share for a generated flat), 0 for a system */
  area: Type.Number(),
  /** the element's performance in the DPE ("U 2.50 W/(m²·K)", "gas boiler, standard, 1991–2000") */
  performance: Type.String(),
  /** the aids' level for works on it ("R ≥ 3.7 m²·K/W (BAR-EN-102)"), or null */
  level: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([
    Type.Literal('needs-works'),
    Type.Literal('at-level'),
    Type.Literal('no-losses'),
    Type.Literal('cannot'),
  ]),
  /** why it needs no works or cannot take any, or null */
  reason: Type.Union([Type.String(), Type.Null()]),
  /**
   * a wall, low floor or roof whose insulation the DPE files as unknown (3CL
   * `enum_type_isolation_id` 1 "inconnu" or 9 "isolé mais type d'isolation inconnu") with its U
   * from the 3CL's default table by period: that its U is the method's default, not a measure,
   * its bare U beside it, to be checked on site (0.2)
   */
  note: Type.Optional(Type.String()),
});
export type ElementNeed = Type.Static<typeof ElementNeed>;

/** An item as the DPE has it: whether it needs works, and if not, why (the criterion). */
export const ItemState = Type.Object({
  key: ItemKeySchema,
  label: Type.String(),
  needed: Type.Boolean(),
  /** why it needs no works (absent, no losses, already good with the figure...), or null */
  reason: Type.Union([Type.String(), Type.Null()]),
  /** its elements (0.2): the item is treated when those that need works get them */
  elements: Type.Optional(Type.Array(ElementNeed)),
  /**
   * its elements' notes (`elements[].note`: a U that is the 3CL's default for an unknown
   * insulation), each after the elements it concerns (0.2)
   */
  note: Type.Optional(Type.String()),
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
  /** energy bill, €/yr (the engine's cout, 5 uses) at the prices of `prices` */
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
  /**
   * what `quantity` counts: "m²" (an envelope element's area), "installation" (an individual
   * system's appliances, one a dwelling served, or 1: a collective plant), "dwelling" (works
   * priced per dwelling served: a collective network's pipe insulation, valves, radiators), "kW"
   * (a collective generator priced by its power: the plant's, or a flat's own heat loss where
   * the building's area is unknown); the count the price was multiplied by
   */
  unit: Type.String(),
  /** € incl. VAT */
  cost: Type.Number(),
  costDetail: Type.String(),
  /**
   * the doors a door line prices (doors are priced by the door, `quantity` is their area): 22
   * doors of 39.2 m² at 1 500 € are 33 000 €, not 842 €/m² (0.2)
   */
  doors: Type.Optional(Type.Number()),
  /** the windows a window line counts (`nb_baie`; the building's in a generated flat) */
  windows: Type.Optional(Type.Number()),
  /**
   * a window line priced at the least a window costs, € incl. VAT a window, when that is above
   * its area's price (a 0.3 m² window at 350 €, not 203 €; docs/works.md)
   */
  leastPerWindow: Type.Optional(Type.Number()),
  /**
   * an appliance priced by the area it heats (the air/air heat pump, € per m² heated): that
   * area, m² (the installation's `surface_chauffee`)
   */
  heatedArea: Type.Optional(Type.Number()),
  /**
   * such an appliance priced at the least one costs, € incl. VAT a dwelling, when that is above
   * its area's price (a 14 m² zone at a single split's 3 000 €, not 1 080 €; docs/works.md)
   */
  leastPerDwelling: Type.Optional(Type.Number()),
  /** the building's quantity when the DPE pays a share of collective or building works (0.2) */
  buildingQuantity: Type.Optional(Type.Number()),
  /** the building's amount, € incl. VAT, when `cost` is the DPE's share (0.2) */
  buildingCost: Type.Optional(Type.Number()),
  /** the aids' level these works are judged against, and whether they meet it (0.2) */
  aidLevel: Type.Optional(
    Type.Object({
      /** "BAR-EN-102: R ≥ 3.7 m²·K/W" */
      requirement: Type.String(),
      met: Type.Boolean(),
      /** what the works install, as judged ("R 3.7", "Uw 1.3, Sw 0.42") */
      installed: Type.String(),
    }),
  ),
  /** whether these works treat their element (false: they add to the item, as pipe lagging) (0.2) */
  treats: Type.Optional(Type.Boolean()),
});
export type AuditWork = Type.Static<typeof AuditWork>;

/** The 3CL summer-comfort indicator and the criteria it is made of (the engine's `confort_ete`). */
export const SummerComfort = Type.Object({
  /** "insufficient", "average", "good" */
  indicator: Type.String(),
  criteria: Type.Array(Type.Object({ label: Type.String(), met: Type.Boolean() })),
  /**
   * The DPE's own indicator ("insufficient", "average", "good"), as its XML states it: before
   * works only, when the XML carries one (the registry's software may judge its criteria
   * otherwise than the engine)
   */
  dpe: Type.Optional(Type.String()),
  /**
   * After a step: the criteria met before it that its works lose, and why ("heavy thermal mass
   * lost with these works: …"), as the engine computes them (0.2)
   */
  lost: Type.Optional(Type.String()),
});
export type SummerComfort = Type.Static<typeof SummerComfort>;

export const AidByCategory = Type.Object({
  /** 'very-modest', 'modest', 'intermediate', 'higher' (bleu, jaune, violet, rose) */
  category: Type.String(),
  label: Type.String(),
  /** € (0 when not eligible) */
  maPrimeRenov: Type.Number(),
  /** € incl. VAT left to pay after MaPrimeRénov' */
  netCost: Type.Number(),
  /**
   * € incl. VAT: the most all public and private aids together may reach for these works (the
   * écrêtement of MaPrimeRénov' rénovation d'ampleur: a share of the works' cost incl. VAT by
   * income category); MaPrimeRénov' is lowered when the aids together would pass it (0.2)
   */
  totalAidCap: Type.Optional(Type.Number()),
  /** the écrêtement's share of the works' cost, % (0.2) */
  totalAidCapPercent: Type.Optional(Type.Number()),
});

export const AuditAids = Type.Object({
  /** whether MaPrimeRénov' rénovation d'ampleur applies, and why (not) */
  eligible: Type.Boolean(),
  rule: Type.String(),
  /** the eligible expense, € excl. VAT (capped; a whole building's: every dwelling's together) */
  eligibleExpense: Type.Number(),
  /**
   * a whole building (0.2): the dwellings its cost is divided by, each taken at the average (the
   * aid's ceiling is per dwelling), and each one's eligible expense, € excl. VAT; `byCategory` is
   * then the building's, every dwelling's aid together
   */
  dwellings: Type.Optional(Type.Integer({ minimum: 2 })),
  eligibleExpensePerDwelling: Type.Optional(Type.Number()),
  byCategory: Type.Array(AidByCategory),
  /** the energy savings certificates (CEE): how they apply here */
  cee: Type.String(),
  /**
   * the works' CEE sheets, whether the works meet them, and, where the sheet does not pay for
   * all of them here, why (BAR-EN-104 pays only for replacing single glazing)
   */
  sheets: Type.Array(
    Type.Object({
      sheet: Type.String(),
      works: Type.String(),
      met: Type.Boolean(),
      note: Type.Optional(Type.String()),
    }),
  ),
  /** the texts, with their date */
  source: Type.String(),
  /** the date of the rules applied (YYYY-MM-DD) */
  asOf: Type.String(),
  note: Type.String(),
});
export type AuditAids = Type.Static<typeof AuditAids>;

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
  /** the energy bill saved by this step, €/yr, at the prices of `prices` (0.2) */
  billSaved: Type.Optional(Type.Number()),
  /**
   * why the bill rises where it does (`billSaved` < 0): the energies the works trade, their kWh
   * and average price at the 3CL method's latest prices (0.2)
   */
  billNote: Type.Optional(Type.String()),
  /**
   * a boiler that made heating and hot water and stays in service for the hot water alone after
   * this step's heating works (a heat pump that heats only), or for the heating alone after its
   * hot-water works (a water heater, a building's hot-water heat pump), named; and new water heaters on two
   * or more hot-water installations of one dwelling, priced as that many appliances, with the
   * area each installation serves (the step that fits the second); and a hot-water generator the
   * aids already accept that this step replaces, named with the works line (0.2)
   */
  hotWaterNote: Type.Optional(Type.String()),
  /**
   * a collective base + appoint installation (§9.8) whose base this step replaces: what the base
   * was, and that its individual appoint stays, named; an installation whose main generator this
   * step replaces while its back-up (a wood stove or insert, a bathroom's heater) stays: the
   * back-up by its 3CL label, and its share of the heating's final energy after the step; and a
   * heating generator the aids already accept that this step replaces, named with the works line
   * (0.2)
   */
  heatingNote: Type.Optional(Type.String()),
  /**
   * heat pumps of one kind on two or more heating installations of one dwelling, priced as an
   * appliance each: the step that fits the second says so, and what one appliance for them all
   * would cost where the catalogue prices it (0.2)
   */
  heatPumpsNote: Type.Optional(Type.String()),
  /**
   * interior wall insulation on walls the DPE says are already insulated from inside: the works
   * replace that lining, and its removal is not in the price; and insulation works on walls, low
   * floors or roofs whose insulation the DPE files as unknown, their U the 3CL's default by
   * period: said, the gain of the works depending on it (0.2)
   */
  insulationNote: Type.Optional(Type.String()),
  /**
   * the living area taken by interior wall insulation, this step's and the earlier steps' (the
   * same figure as `calc`'s `perte_surface_m2`): the 3CL figures per m² keep the DPE's area, so
   * the step's primary energy and emissions per m² on the smaller area and the class they give
   * with today's thresholds for it, and a sentence saying so (0.2)
   */
  livingArea: Type.Optional(
    Type.Object({
      /** m² taken by interior insulation up to this step (its works and the earlier steps') */
      lost: Type.Number(),
      /** of which this step's works, m² */
      lostByStep: Type.Number(),
      /** the living area left, m² */
      after: Type.Number(),
      /** primary energy, kWh/m²/yr, on the area left */
      epM2: Type.Number(),
      /** emissions, kg CO2e/m²/yr, on the area left */
      gesM2: Type.Number(),
      /** the class of those figures, with the thresholds for the area left */
      classe: Letter,
      note: Type.String(),
    }),
  ),
  /** summer comfort after the step (0.2) */
  summerComfort: Type.Optional(SummerComfort),
  /**
   * the energy most of the heating consumes after the step (the engine's `conso_ch` by energy):
   * its `enum_type_energie_id`, 3CL label and share of the heating's final energy (0.2)
   */
  heatingEnergy: Type.Optional(
    Type.Object({ id: Type.String(), label: Type.String(), share: Type.Number() }),
  ),
  /**
   * the aids this step's works may claim on their own (informative, the proposal's rules applied
   * to the step: its classes gained, its insulation items), with the caps on total aid (0.2)
   */
  aids: Type.Optional(AuditAids),
  /**
   * proved (proof.ts's cut search, under its assumption M0) the cheapest works meeting the step's
   * rules and reaching its class, the earlier steps' works kept (0.2)
   */
  exact: Type.Optional(Type.Boolean()),
  /** € below which no works meet the step's rules and class: `cost` when exact (0.2) */
  lowerBound: Type.Optional(Type.Number()),
  /** at most this many percent above the cheapest: 0 when exact, null when no bound (0.2) */
  maxAbovePercent: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
});
export type AuditStep = Type.Static<typeof AuditStep>;

export const RULE_IDS = [
  'first-step-gain',
  'first-step-insulation',
  'ventilation',
  'final-class',
  'six-items',
  // 0.2
  'each-step-gain',
  'aid-levels',
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
  /** `cannot` (0.2): elements need works the catalogue cannot do there, the reason says why */
  status: Type.Union([
    Type.Literal('treated'),
    Type.Literal('not-needed'),
    Type.Literal('missing'),
    Type.Literal('cannot'),
  ]),
  step: Type.Union([Type.Integer(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
});
export type ItemOutcome = Type.Static<typeof ItemOutcome>;

/** MaPrimeRénov' for one income category: the amount and the net cost left (informative). */

export const AuditProposal = Type.Object({
  kind: Type.Union([Type.Literal('steps'), Type.Literal('single')]),
  title: Type.String(),
  steps: Type.Array(AuditStep),
  /** € incl. VAT, every step */
  cost: Type.Number(),
  /**
   * a whole building (0.2): `cost` divided by its dwellings (`scope.dwellings`), an average, €
   * incl. VAT (a co-ownership's split of works, by tantièmes or by lot, is not in the DPE)
   */
  costPerDwelling: Type.Optional(Type.Number()),
  rules: Type.Array(AuditRule),
  items: Type.Array(ItemOutcome),
  /** every rule passes */
  ok: Type.Boolean(),
  /** the aids the owner may claim for this proposal, informative (0.2) */
  aids: Type.Optional(AuditAids),
  /** why the final class is out of reach, when it is (0.2) */
  justification: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** the path in steps, when it is one step with the path in one step's works: a sentence saying so */
  samePath: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /**
   * the path in steps, when it costs more than the path in one step and both reach the final
   * class: a sentence saying by how much and why (0.2)
   */
  dearerNote: Type.Optional(Type.String()),
  /**
   * a proposal whose cost per m² of living area (`surface`) is above the ceiling of a deep
   * renovation (`initial`'s `warning.cost-per-m2`): the figure, the ceiling and its source, and
   * the proposal's dearest lines (0.2)
   */
  costNote: Type.Optional(Type.String()),
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
  /**
   * The DPE's own label as its XML states it (`classe_bilan_dpe`, `ep_conso_5_usages_m2`,
   * `emission_ges_5_usages_m2`), under its own rules: the electricity coefficient it was computed
   * with (2.3 before 2026-01-01, 1.9 since) and the class limits of its date. `initial` is under
   * today's rules (`coefMode`'s coefficient, today's limits), so the two classes can differ.
   */
  dpeLabel: Type.Optional(
    Type.Object({
      classe: Letter,
      epM2: Type.Number(),
      gesM2: Type.Number(),
      coef: Type.Number(),
      /** the DPE's date (YYYY-MM-DD) */
      date: Type.Optional(Type.String()),
      /** the class of `initial`'s figures under the DPE's own rules */
      atItsRules: Letter,
      /** whether today's class limits differ from those of its date (small dwellings, 2024-07-01) */
      limitsChanged: Type.Boolean(),
    }),
  ),
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
  // ---- 0.2 (issue 34): all optional, so a 0.1 client reads a 0.2 answer
  /** the input gate: the checks made before any figure, and whether figures are the engine's own */
  gate: Type.Optional(
    Type.Object({
      passed: Type.Boolean(),
      checks: Type.Array(
        Type.Object({
          id: Type.String(),
          label: Type.String(),
          pass: Type.Boolean(),
          figure: Type.String(),
        }),
      ),
      /** the figures are the engine's own, not scaled to the registry (`engineFigures`) */
      engineFigures: Type.Boolean(),
      /** shown above every figure when the gate failed and the engine's figures are shown */
      banner: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  /** what the audit covers, said where people read (a flat's audit is not the regulatory case) */
  scope: Type.Optional(
    Type.Object({
      regulatory: Type.Boolean(),
      text: Type.String(),
      /**
       * the share of the building's collective works the dwelling pays (1: all); null for a flat
       * whose building's living area is unknown (collective works are then priced at the flat's own
       * size, and none sized by the building is proposed)
       */
      share: Type.Union([Type.Number(), Type.Null()]),
      /** a whole building: its dwellings, which its costs and aids are divided by (an average) */
      dwellings: Type.Optional(Type.Integer({ minimum: 1 })),
    }),
  ),
  /** the energy prices the bills use, with their date */
  prices: Type.Optional(
    Type.Object({
      date: Type.String(),
      source: Type.String(),
      /**
       * the DPE's own bill beside the engine's at the same prices, those in force at the DPE's
       * date, where the DPE states one: the audit's bills (at `date`'s prices) are checked
       * against the registry's through it (0.2)
       */
      dpe: Type.Optional(
        Type.Object({
          /** the price table in force at the DPE's date (its first day) */
          date: Type.String(),
          /** the DPE's cout_5_usages, €/yr */
          registry: Type.Number(),
          /** the engine's consumption before works at those prices, €/yr (unscaled) */
          engine: Type.Number(),
          /**
           * where the two bills are more than 5 % apart: each use the DPE prices (its cout_ch,
           * cout_ecs, cout_fr, cout_eclairage, cout_total_auxiliaire) beside the engine's at the
           * same prices, €/yr, to show where the gap is (0.2)
           */
          byUse: Type.Optional(
            Type.Array(
              Type.Object({
                use: Type.Union([
                  Type.Literal('ch'),
                  Type.Literal('ecs'),
                  Type.Literal('fr'),
                  Type.Literal('eclairage'),
                  Type.Literal('auxiliaire'),
                ]),
                registry: Type.Number(),
                engine: Type.Number(),
              }),
            ),
          ),
        }),
      ),
    }),
  ),
  /** the existing control devices (regulation, programming, metering), read from the DPE */
  controls: Type.Optional(Type.Array(Type.String())),
  /** summer comfort before works */
  summerComfort: Type.Optional(SummerComfort),
  /** both proposals side by side: per step class, kWh/m², CO2, bill, cost, aids */
  synthesis: Type.Optional(
    Type.Array(
      Type.Object({
        proposal: Type.Union([Type.Literal('steps'), Type.Literal('single')]),
        step: Type.Integer(),
        classe: Letter,
        epM2: Type.Number(),
        gesM2: Type.Number(),
        bill: Type.Number(),
        billSaved: Type.Number(),
        cost: Type.Number(),
        /**
         * MaPrimeRénov' range over the income categories, € (the step's own aids, as in its
         * detail: a path's step that is not eligible shows 0, never the whole path's)
         */
        aidsMin: Type.Number(),
        aidsMax: Type.Number(),
        /**
         * on the last row of a path in several steps, when the path as one application is eligible:
         * its MaPrimeRénov' range, € (its steps alone may claim none: a first step that keeps an
         * oil heating the second replaces) (0.2)
         */
        pathAidsMin: Type.Optional(Type.Number()),
        pathAidsMax: Type.Optional(Type.Number()),
      }),
    ),
  ),
});
export type AuditResponse = Type.Static<typeof AuditResponse>;

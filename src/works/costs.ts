/**
 * Cost figures of works, as data: each with its unit and its public source (named beside each
 * figure below; docs/works.md, "Costs"). A user overrides any figure with a JSON file
 * (`--costs FILE` or `dpe-sim config set costs FILE`): `{"<costKey>": <euros>, ...}` or
 * `{"<costKey>": {"eur": <euros>}, "margin": 0.25, "delta": 10}`; a window's figure also takes
 * `"minPerUnit": <euros>` (the least one window, or one air/air heat pump, costs; 0 for none).
 */
import { DpeSimError } from '../contract/errors.js';
import { numberText } from '../contract/number-text.js';
import { readInputFileSync } from '../contract/input-file.js';
import { jsonSyntaxReason } from '../contract/text.js';

/**
 * How a figure scales (README "Costs"):
 * - `m2`: per m² of the element (envelope) or of the area served (collective networks, the
 *   air/air heat pump per m² heated, at least `minPerUnit` a dwelling);
 * - `unit`: one appliance of one dwelling; in a whole-building DPE, × the dwellings it serves;
 * - `dwelling`: per dwelling served by a collective installation;
 * - `kw`: per kW of the building's heating power;
 * - `building`: once per building;
 * - `boiler-room`: a collective boiler room, stepped by power (`steps`), then × `factor`.
 * A flat's DPE pays its share (its area / the building's) of `kw`, `building`, `boiler-room` and
 * collective `m2` figures, and its own dwelling's of a `dwelling` figure.
 */
export type CostUnit = 'm2' | 'unit' | 'dwelling' | 'kw' | 'building' | 'boiler-room';

export interface CostFigure {
  /** euros incl. VAT (5.5% for energy renovation), per `unit` */
  eur: number;
  unit: CostUnit;
  source: string;
  /** boiler-room: [max kW, euros excl. VAT, equipment only] by increasing power */
  steps?: readonly (readonly [number, number])[];
  /** boiler-room: multiplier from the steps' euros to euros incl. fitting and VAT */
  factor?: number;
  /** how the price follows the option's performance (insulation R, window Uw); see `Perf` */
  perf?: Perf;
  /**
   * m² figures of elements that count units (windows, `nb_baie`): the least one unit costs,
   * euros incl. VAT, whatever its area (a 0.1 m² window is not fitted for a tenth of a 1 m² one);
   * m² figures of an individual appliance (the air/air heat pump, per m² heated): the least one
   * dwelling's appliance costs (a 14 m² zone still needs a whole single split)
   */
  minPerUnit?: number;
  /**
   * generators: the class the figure prices (the 3CL generator type the option installs); a
   * generator of another class would be another figure with its own source
   */
  classe?: string;
}

/**
 * A price that follows performance: `eur` is the price at `at` (the R or Uw the source's works
 * had), and each unit of R above `at` adds `slope` €/m² (insulation: the insulant's price grows
 * with its thickness), each W/m²·K of Uw below `at` adds `slope` €/m² (windows).
 */
export interface Perf {
  param: 'r' | 'uw';
  at: number;
  /** euros per m² per unit of `param` (m²·K/W of R, W/m²·K of Uw) */
  slope: number;
  source: string;
}

/** VAT on energy renovation works in dwellings over 2 years old (CGI art. 278-0 bis A). */
export const VAT_RENOVATION = 0.055;
/** FCU rules: fitting adds 30% to equipment prices. */
const FCU_FITTING = 0.3;
const FCU_TO_TTC = (1 + FCU_FITTING) * (1 + VAT_RENOVATION);

/**
 * INSEE's building cost index BT01 (all trades, base 100 in 2010), as published monthly
 * (tables quoted by cpga-asso.com, gesco-sa.fr and abak.ec, "Insee, base 100 en 2010").
 * Envelope works priced from invoices of 2015–2018 are brought to August 2024 with it: those
 * years' prices are 17–22% below the diagnosticians' 2021–2025 estimates for the same works.
 * Appliance prices (boilers, heat pumps, water heaters) are not indexed: recent sources (FCU
 * 2023–2024) confirm them as they are.
 */
export const BT01 = {
  /** January 2016: the earliest value at hand, for the 2015 invoice study */
  '2016-01': 103.3,
  /** 2018, mean of the twelve months (108.0–109.7) */
  '2018': 109.07,
  /** August 2024: the latest value at hand, the date prices are brought to */
  '2024-08': 131.7,
} as const;

/** `eur` of the index's `from` date in euros of August 2024 (BT01), rounded. */
function indexed(eur: number, from: keyof typeof BT01): number {
  return Math.round((eur * BT01['2024-08']) / BT01[from]);
}

/** The factor from `from` to August 2024, for the sources' text: "×1.21". */
function factor(from: keyof typeof BT01): string {
  return `×${(BT01['2024-08'] / BT01[from]).toFixed(2)}`;
}

const TO_2024_FROM_2015 = `indexed to Aug. 2024 with INSEE BT01 (Jan. 2016 ${BT01['2016-01']} → ${BT01['2024-08']}: ${factor('2016-01')})`;
/**
 * The insulant's price per m² and per m²·K/W of R (what more R costs beyond the reference point):
 * boards and rolls at a known thickness, from isolation-alternative.fr ("prix au m² de
 * l'isolation extérieure selon les matériaux", ~2024): rock wool 30–50 €/m² for 140 mm
 * (R 4), glass wool 25–40 €/m² for 160 mm (R 4.6 at λ 0.035).
 */
const ROCK_WOOL_PER_R = {
  slope: 10,
  text: 'rock wool 30–50 €/m² at R 4 (140 mm): 10 €/m² per m²·K/W',
};
const GLASS_WOOL_PER_R = {
  slope: 7,
  text: 'glass wool 25–40 €/m² at R 4.6 (160 mm, λ 0.035): 7 €/m² per m²·K/W',
};
const PER_R_SOURCE = 'isolation-alternative.fr (~2024, insulant prices by thickness)';

function perR(at: number, per: { slope: number; text: string }, why: string): Perf {
  return {
    param: 'r',
    at,
    slope: per.slope,
    source: `priced at R ${at} (${why}); ${per.text}, ${PER_R_SOURCE}`,
  };
}

/**
 * Windows: the Je Rénove BBC invoices give two points, 557 € HT/m² (double glazing) and
 * 624 € HT/m² (triple glazing), read as Uw 1.3 (the aids' double-glazing ceiling) and Uw 0.9:
 * 67 € HT per 0.4 W/m²·K, +5.5% VAT, indexed with BT01 2018 → Aug. 2024 (×1.21): 213 €/m² per
 * W/m²·K of Uw.
 */
const UW_SLOPE = Math.round(
  ((624 - 557) / 0.4) * (1 + VAT_RENOVATION) * (BT01['2024-08'] / BT01['2018']),
);
const UW_SOURCE = `Je Rénove BBC invoices via batiactu.com: double 557 / triple 624 € HT/m² read as Uw 1.3 / 0.9, +5.5% VAT, ×1.21 BT01: ${UW_SLOPE} €/m² per W/m²·K`;

function perUw(at: number): Perf {
  return { param: 'uw', at, slope: UW_SLOPE, source: `priced at Uw ${at}; ${UW_SOURCE}` };
}

/**
 * The least a window costs, fitted, whatever its area: the low end of the per-unit prices of a
 * standard window (2 leaves, 100 × 125 cm) in the cheapest material, PVC 350–850 € TTC
 * (prix-travaux.fr, 2026; docs/works.md). Priced per m², a small window (a 0.12 m² fixed light,
 * a 0.04 m² roof light) came to 81 € or 27 €, below any fitted window.
 */
export const WINDOW_MIN_EUR = 350;
const WINDOW_MIN = `at least ${WINDOW_MIN_EUR} € a window whatever its area (prix-travaux.fr, 2026: a fitted 2-leaf 100×125 PVC window 350–850 € TTC, its low end)`;

const TO_2024_FROM_2018 = `indexed to Aug. 2024 with INSEE BT01 (2018 ${BT01['2018']} → ${BT01['2024-08']}: ${factor('2018')})`;

/** a thermodynamic water heater on outdoor air, fitted (midpoint of travauxapart.fr's range) */
const CET_EXTERIEUR_EUR = 3400;

export const DEFAULT_COSTS = {
  ite: {
    eur: indexed(158, '2016-01'),
    unit: 'm2',
    source: `quelleenergie.fr invoice study (2015): ITE mean 158 € TTC/m² over 133 invoices, ${TO_2024_FROM_2015}`,
    perf: perR(3.7, ROCK_WOOL_PER_R, "the walls aids' minimum, CITE 2015 and CEE BAR-EN-102"),
  },
  iti: {
    eur: indexed(75, '2018'),
    unit: 'm2',
    source: `Je Rénove BBC invoices (120 houses, Effinergie/ADEME, via batiactu.com, before 2018): ITI 71 € HT/m² at BBC level, +5.5% VAT, ${TO_2024_FROM_2018}`,
    perf: perR(3.7, GLASS_WOOL_PER_R, "the walls aids' minimum, CEE BAR-EN-102, at BBC level"),
  },
  combles: {
    eur: indexed(42, '2018'),
    unit: 'm2',
    source: `hellio.com citing ADEME (2018): lost attic ~40 € HT/m² (median of 726 jobs), +5.5% VAT, ${TO_2024_FROM_2018}`,
    perf: perR(7, GLASS_WOOL_PER_R, "the lost-attic aids' minimum, CEE BAR-EN-101"),
  },
  rampants: {
    eur: indexed(83, '2018'),
    unit: 'm2',
    source: `Je Rénove BBC invoices via batiactu.com: sloped roof from inside 79 € HT/m², +5.5% VAT, ${TO_2024_FROM_2018}`,
    perf: perR(6, GLASS_WOOL_PER_R, "the sloped-roof aids' minimum, CEE BAR-EN-101"),
  },
  toiture_terrasse: {
    eur: indexed(204, '2018'),
    unit: 'm2',
    source: `Je Rénove BBC invoices via batiactu.com: roof from outside 193 € HT/m², +5.5% VAT, ${TO_2024_FROM_2018}`,
    perf: perR(4.5, ROCK_WOOL_PER_R, "the roof-terrace aids' minimum, CITE 2018"),
  },
  plafond: {
    eur: indexed(50, '2018'),
    unit: 'm2',
    source: `Je Rénove BBC invoices via batiactu.com: top floor (plancher haut) 47 € HT/m², +5.5% VAT, ${TO_2024_FROM_2018}`,
    perf: perR(6, GLASS_WOOL_PER_R, "the aids' minimum for attic ceilings, CEE BAR-EN-101"),
  },
  plancher_bas: {
    eur: indexed(45, '2018'),
    unit: 'm2',
    source: `Je Rénove BBC invoices via batiactu.com: floor from underneath 43 € HT/m², +5.5% VAT, ${TO_2024_FROM_2018}`,
    perf: perR(3, ROCK_WOOL_PER_R, "the floor aids' minimum, CEE BAR-EN-103"),
  },
  fenetre_pvc: {
    eur: indexed(560, '2018'),
    unit: 'm2',
    source: `Je Rénove BBC invoices via batiactu.com: 557 € HT/m² of opening (double glazing), PVC slightly cheaper than wood; +5.5% VAT, rounded, ${TO_2024_FROM_2018}; ${WINDOW_MIN}`,
    perf: perUw(1.3),
    minPerUnit: WINDOW_MIN_EUR,
  },
  fenetre_bois: {
    eur: indexed(640, '2018'),
    unit: 'm2',
    source: `Je Rénove BBC invoices via batiactu.com (557 € HT/m²) and prix-travaux.fr (2026): wood 750–1\u202f500 € per 2-leaf unit vs PVC 350–850 (about 1.15× PVC), ${TO_2024_FROM_2018}; ${WINDOW_MIN}`,
    perf: perUw(1.3),
    minPerUnit: WINDOW_MIN_EUR,
  },
  fenetre_alu: {
    eur: indexed(700, '2018'),
    unit: 'm2',
    source: `prix-travaux.fr (2026): aluminium 700–1\u202f700 € per 2-leaf unit, about 1.25× the PVC figure, ${TO_2024_FROM_2018}; ${WINDOW_MIN}`,
    perf: perUw(1.3),
    minPerUnit: WINDOW_MIN_EUR,
  },
  fenetre_triple: {
    eur: indexed(660, '2018'),
    unit: 'm2',
    source: `Je Rénove BBC invoices via batiactu.com: 624 € HT/m² of opening (triple glazing), +5.5% VAT, ${TO_2024_FROM_2018}; ${WINDOW_MIN}`,
    perf: perUw(0.9),
    minPerUnit: WINDOW_MIN_EUR,
  },
  porte: {
    eur: 1500,
    unit: 'unit',
    source: 'commercial pages (~2024): insulated entrance door 1\u202f000–2\u202f500 € fitted',
  },
  pac_air_eau: {
    eur: 12000,
    unit: 'unit',
    source:
      'commercial pages (2024): air/water heat pump 8\u202f000–16\u202f000 € fitted (midpoint)',
    classe: 'air/water heat pump installed after 2017 (3CL generator 7)',
  },
  pac_air_eau_ecs: {
    eur: 14000,
    unit: 'unit',
    source:
      'commercial pages (2024): air/water heat pump 8\u202f000–16\u202f000 € + integrated hot-water tank',
    classe: 'air/water heat pump after 2017 (3CL 7) with its hot-water tank',
  },
  chaudiere_gaz_condensation: {
    eur: 4770,
    unit: 'unit',
    source:
      'quelleenergie.fr invoice study (2015): condensing gas boiler mean 4\u202f770 € TTC over 299 invoices',
    classe: 'gas condensing boiler after 2015 (3CL 97)',
  },
  chaudiere_granules: {
    eur: 12000,
    unit: 'unit',
    source: 'commercial page: pellet boiler 9\u202f000–15\u202f000 € fitted (midpoint)',
    classe: 'pellet boiler after 2019 (3CL 74)',
  },
  pac_air_air: {
    eur: 75,
    unit: 'm2',
    source:
      'hellowatt.fr (prix d’une pompe à chaleur air-air, 2025): 60–90 € per m² heated, fitted (midpoint), 7\u202f200–10\u202f800 € for a 120 m² house; at least a single split (monosplit) per dwelling, 2\u202f000–4\u202f000 € fitted (midpoint; installpac.com the same for 6–10 kW)',
    minPerUnit: 3000,
    classe: 'air/air heat pump from 2015 (3CL 3)',
  },
  poele_granules: {
    eur: 4800,
    unit: 'unit',
    source:
      'commercial pages (2024): pellet stove 1\u202f000–7\u202f000 €, mean 3\u202f531 € (monequerre.fr), + its flue for pellets 500–2\u202f000 € (ootravaux.fr, midpoint 1\u202f250 €), rounded',
    classe: 'pellet stove, Flamme Verte label, from 2020 (3CL 46)',
  },
  radiateurs_performants: {
    eur: 2500,
    unit: 'unit',
    source:
      'commercial pages (~2024): 4–5 electric inertia radiators with programming, ~500–700 € each fitted',
    classe: 'electric radiators NFC, NF** and NF*** (3CL 100)',
  },
  cet: {
    eur: 2950,
    unit: 'unit',
    source:
      'travauxapart.fr (2019): thermodynamic water heater, ambient air, 1\u202f800–4\u202f100 € (midpoint)',
    classe: 'thermodynamic water heater on ambient air after 2014 (3CL 3), any volume',
  },
  cet_exterieur: {
    eur: CET_EXTERIEUR_EUR,
    unit: 'unit',
    source:
      'travauxapart.fr (2019): thermodynamic water heater, outdoor air, 2\u202f200–4\u202f600 € (midpoint)',
    classe: 'thermodynamic water heater on outdoor air after 2014 (3CL 6), any volume',
  },
  cesi: {
    eur: 5500,
    unit: 'unit',
    source:
      'commercial pages (~2024): individual solar water heater (CESI) 4\u202f000–7\u202f000 € fitted (midpoint)',
  },
  ballon_electrique: {
    eur: 1200,
    unit: 'unit',
    source:
      'commercial pages (~2024): vertical electric water heater 200 L, 800–1\u202f600 € fitted',
    classe: 'vertical electric tank, category C (3CL 71)',
  },
  vmc_hygro_b: {
    eur: 1000,
    unit: 'unit',
    source: 'commercial page: single-flow VMC 200–800 € new build, about double in renovation',
  },
  vmc_double_flux: {
    eur: 3710,
    unit: 'unit',
    source: 'commercial page: double-flow VMC mean 3\u202f710 €, 2\u202f000–7\u202f700 € installed',
  },
  // ------------------------------------------------------------------ collective installations
  chaufferie_gaz_condensation: {
    eur: 0,
    unit: 'boiler-room',
    steps: [
      [35, 4800],
      [120, 15000],
      [300, 37500],
      [500, 45000],
      [1000, 87225],
    ],
    factor: Math.round(FCU_TO_TTC * 1000) / 1000,
    source:
      'France Chaleur Urbaine rules (ratios-economiques; ELCIMAI, Atlantic 2024): collective gas condensing boiler room, equipment excl. VAT by power (≤ 35 kW 4\u202f800 €; ≤ 120 kW 15\u202f000 €; ≤ 300 kW 37\u202f500 €; ≤ 500 kW 45\u202f000 €; ≤ 1 MW 87\u202f225 €, pro rata above), +30% fitting, +5.5% VAT',
    classe: 'collective gas condensing boiler room after 2015 (3CL 97)',
  },
  pac_air_eau_collective: {
    eur: Math.round(1005 * FCU_TO_TTC),
    unit: 'kw',
    source:
      'France Chaleur Urbaine rules (ELCIMAI 2024): collective air/water heat pump 1\u202f005 €/kW equipment excl. VAT, +30% fitting (≈ 1\u202f307 €/kW), +5.5% VAT',
    classe: 'collective air/water heat pump after 2017 (3CL 7)',
  },
  pac_ecs_collective: {
    eur: CET_EXTERIEUR_EUR,
    unit: 'dwelling',
    source:
      'no citable figure for a collective hot-water heat pump was found: one thermodynamic water heater on outdoor air per dwelling served, travauxapart.fr (2019) 2\u202f200–4\u202f600 € (midpoint), the cet_exterieur figure',
    classe:
      'collective hot-water heat pump on outdoor air, priced and simulated as thermodynamic hot water on outdoor air after 2014 (3CL 6)',
  },
  sous_station: {
    eur: Math.round(((21500 + 37500) / 2) * (1 + VAT_RENOVATION)),
    unit: 'building',
    source:
      'France Chaleur Urbaine cost page (FEDENE data, 2024): district-heating substation 21\u202f500–37\u202f500 € excl. VAT per building (midpoint), +5.5% VAT',
  },
  robinets_thermostatiques: {
    eur: 550,
    unit: 'dwelling',
    source:
      'dpe-sim estimate (no citable per-dwelling figure found): 5 radiators per dwelling × ~100 € per thermostatic valve fitted (commercial pages ~2024: 50–150 €), + network balancing ~50 €, incl. VAT',
  },
  emetteurs_radiateurs: {
    eur: 3500,
    unit: 'dwelling',
    source:
      'dpe-sim estimate (no citable per-dwelling figure found): 5 low-temperature steel radiators with thermostatic valves per dwelling × ~700 € fitted (commercial pages ~2024: 300–1\u202f000 € each), incl. VAT',
  },
  calorifugeage_chauffage: {
    eur: 10,
    unit: 'm2',
    source:
      'dpe-sim estimate (no citable figure found): ~0.3 m of heating pipe in unheated spaces per m² heated × ~30 € per metre insulated (commercial pages ~2024: 15–50 €/m), incl. VAT',
  },
  calorifugeage_ecs: {
    eur: 300,
    unit: 'dwelling',
    source:
      'dpe-sim estimate (no citable figure found): ~10 m of hot-water distribution and loop pipe per dwelling × ~30 € per metre insulated (commercial pages ~2024: 15–50 €/m), incl. VAT',
  },
} as const satisfies Record<string, CostFigure>;

export type CostKey = keyof typeof DEFAULT_COSTS;

export interface CostTable {
  figures: Record<CostKey, CostFigure>;
  /** half-width of the cost range, fraction of the estimate */
  margin: number;
  /** adjustment applied to every figure, percent */
  delta: number;
  source: string;
}

export const DEFAULT_MARGIN = 0.3;
export const DEFAULT_COST_SOURCE =
  'dpe-sim default figures (ADEME, Effinergie, invoice studies, commercial pages; 2015–2018 envelope prices indexed to Aug. 2024 with INSEE BT01)';

export function defaultCosts(): CostTable {
  return {
    figures: { ...DEFAULT_COSTS },
    margin: DEFAULT_MARGIN,
    delta: 0,
    source: DEFAULT_COST_SOURCE,
  };
}

/**
 * The euros of a figure, with the table's delta applied; at `value` (the option's R or Uw) when
 * the figure follows performance (`perf`), else at the figure's own point.
 */
export function priceOf(table: CostTable, key: CostKey, value?: number): number {
  const f: CostFigure = table.figures[key];
  return (f.eur + perfDelta(f, value)) * (1 + table.delta / 100);
}

/** € per m² the option's performance adds to (or takes from) the figure's reference point. */
export function perfDelta(f: CostFigure, value: number | undefined): number {
  if (!f.perf || value === undefined) return 0;
  const d = f.perf.param === 'r' ? value - f.perf.at : f.perf.at - value;
  return Math.round(d * f.perf.slope * 100) / 100;
}

/** The euros (incl. VAT and delta) of a stepped figure at `kw`, and the step used. */
export function steppedPrice(
  table: CostTable,
  key: CostKey,
  kw: number,
): { eur: number; step: string } {
  const f: CostFigure = table.figures[key];
  const steps = f.steps ?? [];
  const k = (1 + table.delta / 100) * (f.factor ?? 1);
  const hit = steps.find(([max]) => kw <= max);
  if (hit) return { eur: hit[1] * k, step: `≤ ${hit[0]} kW` };
  const last = steps[steps.length - 1];
  if (!last) return { eur: f.eur * (1 + table.delta / 100), step: '' };
  return { eur: ((last[1] * kw) / last[0]) * k, step: `pro rata above ${numberText(last[0])} kW` };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Applies a user's overrides (parsed JSON) to the defaults; every bad entry is an error. */
export function withOverrides(base: CostTable, overrides: unknown, source: string): CostTable {
  if (!isObj(overrides))
    throw new DpeSimError('invalid-input', `${source}: the costs file must hold a JSON object`);
  const out: CostTable = {
    ...base,
    figures: { ...base.figures },
    source: `${base.source}; overrides from ${source}`,
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (k === 'margin' || k === 'delta') {
      if (typeof v !== 'number' || !Number.isFinite(v) || (k === 'margin' && (v < 0 || v >= 1))) {
        throw new DpeSimError(
          'invalid-input',
          `${source}: '${k}' must be a number${k === 'margin' ? ' in [0, 1)' : ''}`,
        );
      }
      out[k] = v;
      continue;
    }
    if (!(k in DEFAULT_COSTS)) {
      throw new DpeSimError(
        'invalid-input',
        `${source}: unknown cost '${k}'; known costs: ${Object.keys(DEFAULT_COSTS).join(', ')}, margin, delta`,
      );
    }
    const key = k as CostKey;
    const figure: CostFigure = out.figures[key];
    const eur = typeof v === 'number' ? v : isObj(v) ? v.eur : undefined;
    const euros = (x: unknown): x is number =>
      typeof x === 'number' && Number.isFinite(x) && x >= 0;
    const min = isObj(v) ? v.minPerUnit : undefined;
    if (min !== undefined && (figure.minPerUnit === undefined || !euros(min))) {
      throw new DpeSimError(
        'invalid-input',
        figure.minPerUnit === undefined
          ? `${source}: cost '${k}' has no minPerUnit (only the windows' and the air/air heat pump's figures do)`
          : `${source}: cost '${k}': minPerUnit must be a number of euros ≥ 0`,
      );
    }
    if (!euros(eur) && !(eur === undefined && min !== undefined)) {
      throw new DpeSimError(
        'invalid-input',
        `${source}: cost '${k}' must be a number of euros ≥ 0`,
      );
    }
    out.figures[key] = {
      ...figure,
      ...(eur !== undefined ? { eur } : {}),
      ...(min !== undefined ? { minPerUnit: min } : {}),
      source: `override (${source})`,
    };
  }
  return out;
}

export function loadCosts(file: string | undefined): CostTable {
  const base = defaultCosts();
  if (!file) return base;
  let text: string;
  try {
    text = readInputFileSync(file, { what: 'the costs file' }).text;
  } catch (err) {
    if (err instanceof DpeSimError) throw err;
    throw new DpeSimError(
      'invalid-input',
      `cannot read the costs file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new DpeSimError(
      'invalid-input',
      `the costs file ${file} is not valid JSON: ${jsonSyntaxReason(err)}`,
    );
  }
  return withOverrides(base, parsed, file);
}

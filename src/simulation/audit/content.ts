/**
 * What the regulation asks an audit to say besides the works (arrêté du 4 mai 2022 as amended):
 * the energy bill saved at dated prices, the aids the owner may claim (informative, dated), the
 * existing control devices, summer comfort, and the scope the audit covers. Rules as data.
 */
import type {
  AuditAids,
  AuditProposal,
  AuditStep,
  AuditResponse,
  AuditWork,
  SummerComfort,
} from '../../contract/audit.js';
import {
  classesOf,
  classIndex,
  thresholdsFor,
  today,
  type ClassLetter,
  type ClassSite,
} from '../../contract/classes.js';
import { ENERGY_PRICES_SINCE } from '../../contract/constants.js';
import { indexRanges, numberText, percentText } from '../../contract/number-text.js';
import { buildingAreaSetAside, isBaseAppoint, type Scope } from '../../dpe/building.js';
import { STANDARD_DOOR_M2 } from '../../dpe/doors.js';
import { elementsOf, parseReferenceId } from '../../dpe/elements.js';
import { num, str, type RawDpe, type RawElement, type RawGeneratorHolder } from '../../dpe/raw.js';
import { consumptionOf } from '../../engine/bills.js';
import type { Engine } from '../../engine/engine.js';
import { findOption } from '../../works/catalogue.js';
import { ecsGensOf, gensOf } from '../../works/context.js';
import { isWoodRoomAppliance } from '../../works/generators.js';
import { interiorInsulationAdds } from '../../works/recipes.js';
import { ceilingAreaText, COST_CEILING, costPerDwelling, costPerM2 } from '../cost-ceiling.js';
import { generatorLabel, generatorName, isBackUp, type Items } from './items.js';
import { ACCEPTED_GENERATORS, OPAQUE_LEVELS, WINDOW_LEVEL } from './levels.js';

/**
 * The prices the bills are at: dpe-sim's bills (src/engine/bills.ts), priced from the engine's
 * consumption per energy and use at the latest official table (`ENERGY_PRICES_SINCE`, see
 * docs/bills.md). Scaled to the registry (normalization), the bills are the engine's × the
 * registry's bill over the engine's at the DPE's date prices (`billFactor` in calc.ts).
 */
export const BILL_PRICES = {
  date: ENERGY_PRICES_SINCE,
  source: `the 3CL method's energy prices in force since ${ENERGY_PRICES_SINCE} (arrêté of 25 March 2024 updating the annual energy prices; figures read back from the registry's own bills, docs/bills.md), each energy priced on its total and shared by use as the registry does`,
  /** appended to `source` where the figures are scaled to the registry */
  scaled: `; the figures being scaled to the registry, each bill is the engine's × the DPE's cout_5_usages over the engine's bill at the prices in force at the DPE's date (the registry's consumption, priced at these prices)`,
};

/** MaPrimeRénov' rénovation d'ampleur (parcours accompagné) as in force on `asOf`. */
export const MPR = {
  asOf: '2026-01-01',
  source:
    'MaPrimeRénov’ parcours accompagné: décret n° 2025-956 du 8 septembre 2025 and its arrêté of the same date (amending the arrêté du 17 novembre 2020), as applied from 30 September 2025 and for 2026; Anah guide "Les aides financières"; the rates, ceilings, VAT, E–G and 15-year conditions, and the exclusion of a project that installs a heating running mainly on fossil fuel or keeps one running mainly on fuel oil, as in the State’s simulator Mes Aides Réno (beta.gouv.fr, its published rules of December 2025)',
  classesBefore: ['E', 'F', 'G'] as readonly ClassLetter[],
  /** a dwelling built at least this many years before `asOf` */
  minAgeYears: 15,
  minGain: 2,
  minInsulationItems: 2,
  /** eligible expense ceilings, € excl. VAT, by classes gained */
  ceilings: [
    { gain: 2, eur: 30_000 },
    { gain: 3, eur: 40_000 },
  ],
  rates: [
    { category: 'very-modest', label: 'very modest (bleu)', rate: 0.8 },
    { category: 'modest', label: 'modest (jaune)', rate: 0.6 },
    { category: 'intermediate', label: 'intermediate (violet)', rate: 0.45 },
    { category: 'higher', label: 'higher (rose)', rate: 0.1 },
  ],
  /**
   * The caps on total aid (écrêtement): all aids together (MaPrimeRénov', CEE, local and private
   * aids) at most this share of the works' cost incl. VAT, by income category; MaPrimeRénov' is
   * lowered when they would pass it. Modest households' cap raised from 80 % to 90 % in 2025
   * (announced by the Anah on 11 December 2024; Mes Aides Réno's rules, December 2025).
   */
  caps: {
    'very-modest': 1,
    modest: 0.9,
    intermediate: 0.8,
    higher: 0.5,
  } as Record<string, number>,
  capsSource:
    'écrêtement of MaPrimeRénov’ rénovation d’ampleur: arrêté du 17 novembre 2020 as amended (Anah règlement général); very modest 100 %, modest 90 % (was 80 % before 2025), intermediate 80 %, higher 50 % of the works’ cost incl. VAT; as in Mes Aides Réno’s published rules (beta.gouv.fr, December 2025, citing the Anah’s Panorama des aides 2025, p. 6)',
  /** reduced VAT on energy-renovation works (CGI art. 278-0 bis A) */
  vat: 0.055,
  cee: 'Energy savings certificates (CEE) are not cumulated with MaPrimeRénov’ rénovation d’ampleur (the Anah values them itself); outside it (a dwelling in D, or works by gesture), each works line’s CEE sheet applies where its conditions are met (said beside a sheet that does not pay here), for an amount the obligated party’s offer sets.',
  note: 'Informative: eligibility and amounts depend on the household’s income (reference tax income and size), on an Accompagnateur Rénov’, RGE contractors and the caps on total public aid; the Anah decides.',
} as const;

/** When the dwelling was built: the DPE's year, else its construction period (enum_periode_construction_id). */
export interface Built {
  year?: number;
  periodeId?: string;
}

export function builtOf(raw: RawDpe): Built {
  const cg = raw.logement?.caracteristique_generale;
  const year = num(cg?.annee_construction);
  const periodeId = str(cg?.enum_periode_construction_id);
  return {
    ...(year !== undefined && year > 1000 ? { year } : {}),
    ...(periodeId ? { periodeId } : {}),
  };
}

/**
 * MaPrimeRénov' rénovation d'ampleur is for dwellings built at least 15 years ago: why a dwelling
 * is not (`fails`), or what to check when its period straddles the limit (`check`).
 */
function ageOf(built: Built, what: 'dwelling' | 'building'): { fails?: string; check?: string } {
  const latest = Number(MPR.asOf.slice(0, 4)) - MPR.minAgeYears;
  if (built.year !== undefined)
    return built.year > latest
      ? {
          fails: `the ${what} was built in ${built.year} (the aid is for dwellings built by ${latest})`,
        }
      : {};
  // periods 9 (2013–2021) and 10 (after 2021) are all too recent; 8 (2006–2012) straddles
  if (built.periodeId === '9' || built.periodeId === '10')
    return {
      fails: `the ${what} was built ${built.periodeId === '9' ? 'in 2013–2021' : 'after 2021'} (the aid is for dwellings built by ${latest})`,
    };
  if (built.periodeId === '8')
    return { check: `built in 2006–2012: eligible only if built by ${latest}` };
  return {};
}

/** The CEE sheet of a works option (by its code), or undefined. */
export function ceeSheet(code: string, recipeKind: string, variant?: string): string | undefined {
  if (code in ACCEPTED_GENERATORS) return ACCEPTED_GENERATORS[code];
  if (recipeKind === 'wall') return OPAQUE_LEVELS.wall.sheet;
  if (recipeKind === 'roof') return OPAQUE_LEVELS[(variant ?? 'combles') as 'combles'].sheet;
  if (recipeKind === 'floor') return OPAQUE_LEVELS.floor.sheet;
  if (recipeKind === 'window') return WINDOW_LEVEL.sheet;
  // a humidity-controlled extract fan: BAR-TH-127 (VMC simple flux hygroréglable); BAR-TH-155 is
  // hybrid ventilation, for flats with natural ventilation or none, which the catalogue does not fit
  if (recipeKind === 'ventilation') return code === 'VMCDoubleFlux' ? 'BAR-TH-125' : 'BAR-TH-127';
  return undefined;
}

const round = (x: number) => Math.round(x);

/**
 * The energies of fossil fuels (`enum_type_energie_id`): natural gas, fuel oil, propane, butane,
 * coal, LPG, other fossil fuel. MaPrimeRénov' rénovation d'ampleur excludes a project that
 * installs a heating running mainly on one, or keeps one running mainly on fuel oil.
 */
export const FOSSIL_ENERGIES: ReadonlySet<string> = new Set([
  '2',
  '3',
  '9',
  '10',
  '11',
  '13',
  '14',
]);
export const FUEL_OIL = '3';

/** The energy most of the heating consumes in an engine output (`conso_ch` by energy). */
export function heatingEnergyOf(
  engine: Engine,
  output: RawDpe,
): { id: string; label: string; share: number } | undefined {
  // the bills' reading of the output (electricity as the rest of each use), summed by energy
  const ch = new Map<string, number>();
  for (const c of consumptionOf(output)) ch.set(c.energy, (ch.get(c.energy) ?? 0) + c.byUse.ch);
  let best: { id: string; kwh: number } | undefined;
  let total = 0;
  for (const [id, kwh] of ch) {
    if (!(kwh > 0)) continue;
    total += kwh;
    if (!best || kwh > best.kwh) best = { id, kwh };
  }
  if (!best) return undefined;
  return {
    id: best.id,
    label: engine.enumLabel('type_energie', best.id) ?? best.id,
    share: Math.round((best.kwh / total) * 1000) / 1000,
  };
}

/**
 * A boiler that made heating and hot water and, after a step whose new generator heats only,
 * keeps making the hot water (the recipe's `split`: `enum_usage_generateur_id` 3 → 2 on its
 * hot-water side), in one sentence; and one that, after a step whose new hot-water generator
 * takes its hot water (a water heater, a building's hot-water heat pump), keeps heating (3 → 1 on
 * its heating side); undefined when no step's works leave one so. `before` and
 * `after` are the works' inputs (the DPE with the earlier steps' works, and with this step's).
 */
export function hotWaterKeptOf(engine: Engine, before: RawDpe, after: RawDpe): string | undefined {
  const notes: string[] = [];
  const kept = unmixedOf(engine, before, after, 'installation_ecs', '2');
  if (kept.length)
    notes.push(
      `The generator that made the heating and hot water of ${kept.join(' and of ')} stays in service for the hot water alone: the new heating generator heats only.`,
    );
  // the other way: a new hot-water generator (a water heater, a building's hot-water heat pump)
  // takes the hot water off a boiler that made both, which stays for the heating alone
  const heatsOnly = unmixedOf(engine, before, after, 'installation_chauffage', '1');
  if (heatsOnly.length)
    notes.push(
      `The generator that made the heating and hot water of ${heatsOnly.join(' and of ')} stays in service for the heating alone: the new hot-water generator makes the hot water.`,
    );
  return notes.length ? notes.join(' ') : undefined;
}

/**
 * The generators of `category` that served heating and hot water before (usage 3) and serve one
 * use after (`to`: 1 heating, 2 hot water), the same appliance (a new generator in its place is
 * not the old one kept): "installation_ecs:0 (chaudière gaz à condensation 2001-2015)".
 */
function unmixedOf(
  engine: Engine,
  before: RawDpe,
  after: RawDpe,
  category: 'installation_ecs' | 'installation_chauffage',
  to: '1' | '2',
): string[] {
  const list = (raw: RawDpe) =>
    elementsOf(raw, category).map((inst) =>
      category === 'installation_ecs'
        ? ecsGensOf(inst as RawGeneratorHolder)
        : gensOf(inst as RawGeneratorHolder),
    );
  const type = (g: RawElement | undefined) =>
    str(
      category === 'installation_ecs'
        ? g?.donnee_entree.enum_type_generateur_ecs_id
        : g?.donnee_entree.enum_type_generateur_ch_id,
    );
  const was = list(before);
  const out: string[] = [];
  list(after).forEach((gens, i) =>
    gens.forEach((g, j) => {
      const old = was[i]?.[j];
      if (str(old?.donnee_entree.enum_usage_generateur_id) !== '3') return;
      if (str(g.donnee_entree.enum_usage_generateur_id) !== to) return;
      if (type(g) !== type(old)) return;
      out.push(`${category}:${i} (${generatorName(engine, category, g)})`);
    }),
  );
  return out;
}

/**
 * What a step that replaces a heating installation's main generator keeps beside it, named: a
 * collective base + appoint installation (§9.8) whose base the works replace, the base it was and
 * that its appoint stays; an installation whose back-up (items.ts `isBackUp`: a wood stove or
 * insert, a bathroom's electric heater, a boiler relieving a heat pump) stays beside the new main
 * generator, which back-up, by its 3CL label as the DPE files it, its share of the heat need
 * the 3CL method gives it (`needShareOf`) and its share of the heating's final energy after the
 * step where the engine's output gives it (`output`, the works' own run: 2287E0722622O's pre-1990
 * insert beside the air/water heat pump that replaces its oil boiler, 25 % of the need and 65 % of
 * the final energy: a wood appliance burns several times a heat pump's final energy per kWh of
 * heat). Undefined when there is none.
 */
export function appointKeptOf(
  engine: Engine,
  before: RawDpe,
  after: RawDpe,
  output?: RawDpe,
): string | undefined {
  const label = (g: RawElement) => generatorName(engine, 'installation_chauffage', g);
  const type = (g: RawElement | undefined) => str(g?.donnee_entree.enum_type_generateur_ch_id);
  const was = elementsOf(before, 'installation_chauffage');
  const computed = output ? elementsOf(output, 'installation_chauffage') : [];
  const total = num(output?.logement?.sortie?.ef_conso?.conso_ch);
  const notes: string[] = [];
  elementsOf(after, 'installation_chauffage').forEach((inst, i) => {
    const old = was[i];
    if (!old) return;
    if (isBaseAppoint(inst)) {
      const [base, ...appoint] = gensOf(inst as RawGeneratorHolder);
      const oldBase = gensOf(old as RawGeneratorHolder)[0];
      if (!base || !oldBase || type(base) === type(oldBase)) return;
      const kept = appoint.length ? appoint.map(label).join(' + ') : undefined;
      notes.push(
        `installation_chauffage:${i} is a collective base + appoint installation: its new generator replaces the base (${label(oldBase)}) at the base’s power${kept ? `; the appoint in each dwelling (${kept}) stays, for the share of the need the 3CL method gives it (§9.8)` : ''}.`,
      );
      return;
    }
    // the generators as the audit's items judge them: main, or back-up (by their 3CL label)
    const split = (holder: RawElement) =>
      gensOf(holder as RawGeneratorHolder).map((g) => ({
        g,
        backUp: isBackUp(
          'installation_chauffage',
          holder,
          g,
          generatorLabel(engine, 'installation_chauffage', g),
        ),
      }));
    const now = split(inst);
    const then = split(old);
    const mainThen = then.filter((x) => !x.backUp);
    const oldTypes = new Set(mainThen.map((x) => type(x.g)));
    // a new main generator, where the old one(s) were
    if (!mainThen.length || !now.some((x) => !x.backUp && !oldTypes.has(type(x.g)))) return;
    // the back-ups the works leave as they were (the same type, filed under the same reference)
    const same = (a: RawElement, b: RawElement) =>
      type(a) === type(b) && str(a.donnee_entree.reference) === str(b.donnee_entree.reference);
    const kept = now.filter((x) => x.backUp && then.some((y) => y.backUp && same(x.g, y.g)));
    if (!kept.length) return;
    const out = gensOf((computed[i] ?? {}) as RawGeneratorHolder);
    // its share of the heating's final energy after the step, where the engine's output gives it
    const shareOf = (g: RawElement): string | undefined => {
      const c = out.find((o) => same(o, g));
      const kwh = num(c?.donnee_intermediaire?.conso_ch);
      if (kwh === undefined || total === undefined || !(total > 0) || kwh < 0 || kwh > total)
        return undefined;
      const pct = (100 * kwh) / total;
      return pct > 0 && pct < 0.5 ? 'under 1\u00a0%' : percentText(pct);
    };
    const shares = kept.map((x) => shareOf(x.g));
    // its share of the heat need, as the engine splits it by the installation's configuration and
    // the generator's place in its list (in the engine's output, the works' own run)
    const cfg = str((computed[i] ?? inst).donnee_entree.enum_cfg_installation_ch_id);
    const needs = kept.map((x) => {
      const c = out.find((o) => same(o, x.g));
      const pct = c
        ? needShareOf(cfg, out.indexOf(c), num(c.donnee_entree.fch), type(c))
        : undefined;
      return pct === undefined ? undefined : percentText(pct, Number.isInteger(pct) ? 0 : 1);
    });
    const main = mainThen.map((x) => label(x.g)).join(' + ');
    const FE = 'of the heating’s final energy after this step';
    const stays =
      kept.length === 1
        ? `its back-up stays in service: ${label(kept[0]!.g)}${
            needs[0]
              ? `, for ${needs[0]} of the heat need (the 3CL’s share for a back-up in this configuration)${shares[0] ? ` and ${shares[0]} ${FE}` : ''}`
              : shares[0]
                ? `, for ${shares[0]} ${FE}`
                : ''
          }`
        : `its back-ups stay in service: ${kept
            .map((x, k) => {
              const parts = [
                needs[k] ? `${needs[k]} of the heat need` : undefined,
                shares[k] ? `${shares[k]} of the final energy` : undefined,
              ].filter(Boolean);
              return `${label(x.g)}${parts.length ? ` (${parts.join(', ')})` : ''}`;
            })
            .join(
              ' and ',
            )}${needs.some(Boolean) ? `: the 3CL’s shares of the heat need for back-ups in this configuration` : ''}${shares.some(Boolean) ? `${needs.some(Boolean) ? ', and their shares' : ', their shares'} ${FE}` : ''}`;
    notes.push(
      `On installation_chauffage:${i} the new generator replaces the main one (${main}); ${stays}.`,
    );
  });
  return notes.length ? notes.join(' ') : undefined;
}

/**
 * The share of an installation's heat need (in %) the 3CL method gives its generator at
 * `position` in an installation of configuration `cfg` (`enum_cfg_installation_ch_id`): the
 * configuration's fixed split of the need between the main generator and its back-ups, §9.1 of
 * the method (arrêté du 31 mars 2021, annexe 1: an insert or wood stove as back-up 0.75 / 0.25, a
 * bathroom's electric heater 0.9 / 0.1, both 0.75 × 0.9 / 0.25 × 0.9 / 0.1, a boiler relieving a
 * heat pump 0.8 / 0.2, solar heating taking its cover `fch` first), as the engine applies it
 * (`coef_ch` in @open3cl/engine's 9_conso_ch.js, by the generator's place in the installation's
 * list; checked on the 44 installations with a back-up of the corpus's 42 DPEs, 2026-12-07).
 * Undefined where the need is not split by a fixed share: a simple installation (its generators in
 * cascade share it by power), a collective base + appoint (§9.8: by degree-hours), bi-jonction
 * convectors, a hybrid heat pump's part (§9.1.4.3: by climate zone), a place past the table, or
 * solar heating without its cover.
 */
const NEED_SHARES: Record<string, (fch: number) => readonly number[]> = {
  2: (fch) => [1 - fch],
  3: () => [0.75, 0.25],
  4: () => [0.9, 0.1],
  5: () => [0.75 * 0.9, 0.25 * 0.9, 0.1],
  6: () => [0.75, 0.25],
  7: (fch) => [0.75 * (1 - fch), 0.25 * (1 - fch)],
  8: () => [0.8, 0.2],
  9: () => [0.8 * 0.75, 0.2 * 0.75, 0.25],
};
/** hybrid heat pumps (`enum_type_generateur_ch_id` 145–170): their split is the zone's */
const HYBRID_PAC_FIRST = 145;
const HYBRID_PAC_LAST = 170;

export function needShareOf(
  cfg: string | undefined,
  position: number,
  fch: number | undefined,
  generatorType: string | undefined,
): number | undefined {
  const t = Number(generatorType);
  if (t >= HYBRID_PAC_FIRST && t <= HYBRID_PAC_LAST) return undefined;
  const split = cfg === undefined ? undefined : NEED_SHARES[cfg];
  if (!split || ((cfg === '2' || cfg === '7') && fch === undefined)) return undefined;
  const coef = split(fch ?? 0)[position];
  return coef === undefined || !(coef > 0) ? undefined : Math.round(coef * 1000) / 10;
}

/**
 * A generator the 3CL tables place in their latest period, installed in 2012 or after ("chaudière
 * gaz standard après 2015", "pac air/eau installée après 2017", "poêle à granulés flamme verte
 * installé à partir de 2020"): at most a dozen years old, by the DPE's own type.
 */
const RECENT = /(après|à partir de|a partir de) (20(?:1[2-9]|[2-9]\d))\b/;

/**
 * A step's works that replace a heating or hot-water generator the aids already accept (its
 * element judged at the aids' level): the generator named, that the six items do not ask for its
 * replacement, and why the works are there: the search chose them for the step's class and rules
 * (2359E4024310N, 44 flats: step 1 replaces their condensing gas boilers of 2016 by air/water heat
 * pumps, 528 000 €; 2287E1308066Q: step 2 replaces a wood log boiler of 2013–2017 to gain the class
 * every step gains). A generator below the aids' level but recent (its 3CL type installed in 2012
 * or after: 2395E4480090X's "chaudière gaz standard après 2015", 24 flats) is named the same way,
 * with its period. A signer reads it before keeping or dropping those works. Undefined when none.
 */
export function acceptedReplacedOf(
  items: Items,
  works: readonly AuditWork[],
  category: 'installation_chauffage' | 'installation_ecs',
): string | undefined {
  const notes = works
    .filter((w) => w.editableKey === 'ReplaceGEN' && w.referenceId.startsWith(`${category}:`))
    .flatMap((w) => {
      const e = items.elements.find(
        (x) =>
          x.item === 'heatingHotWater' &&
          x.referenceId === w.referenceId &&
          x.status === 'at-level',
      );
      if (e)
        return [
          `${w.referenceId} (${e.performance}) already has a generator the aids accept: the six items do not ask for its replacement. This step replaces it (${w.option}, ${numberText(Math.round(w.cost))}\u00a0€) as part of the works the search chose for the step’s class and rules; keeping the generator means other works for that class.`,
        ];
      // (its main generator's 3CL type: a recent back-up stove beside an old one is not it)
      const main = items.mainGenerators.get(w.referenceId)?.[0] ?? '';
      const m = RECENT.exec(main);
      return m
        ? [
            `${w.referenceId} (${main}) is recent: its 3CL type is of a generator installed ${m[1] === 'après' ? 'after' : 'from'} ${m[2]}. This step replaces it (${w.option}, ${numberText(Math.round(w.cost))}\u00a0€) as part of the works the search chose for the step’s class and rules; keeping a generator that recent means other works for that class.`,
          ]
        : [];
    });
  return notes.length ? notes.join(' ') : undefined;
}

/** The heating a proposal (or a step) leaves: what its works install, and what heats most after. */
export interface AidHeating {
  /** the works' heating generators burning a fossil fuel (their option labels) */
  installsFossil: readonly string[];
  /** the energy most of the heating consumes after the works */
  after?: { id: string; label: string };
}

/** What the aids are judged on besides the works: when it was built, and how many dwellings. */
export interface AidScope {
  built: Built;
  /** a whole building's dwellings, its cost divided by them for the aid (the ceiling is per dwelling); else 1 */
  dwellings: number;
}

/**
 * Why the path in steps costs more than the path in one step, when it does and both reach the
 * final class: its steps are chosen one after the other for their own rules, the last adding what
 * the six items still ask to the earlier works, where the path in one step chooses all its works
 * together (2251E1368858K: 20 448 € to A against 12 513 € to B); and when step 1 alone reaches
 * the final class, for how much (a first payment within reach is what a path in steps is for:
 * it is not folded into the path in one step). On a whole building each figure also per
 * dwelling, the building's divided by its dwellings (an average) (2535E0426429Q, 28 dwellings: 103 880 € more,
 * 3 710 € for each dwelling). "Reaches" is the final-class rule the page shows for each path. Null
 * otherwise.
 */
export function dearerStepsNoteOf(
  steps: AuditProposal,
  single: AuditProposal,
  target: ClassLetter,
  dwellings: number,
): string | null {
  const reaches = (p: AuditProposal) => p.rules.some((r) => r.id === 'final-class' && r.pass);
  const first = steps.steps[0];
  const last = steps.steps[steps.steps.length - 1];
  const one = single.steps[0];
  if (steps.steps.length < 2 || !first || !last || !one || !reaches(steps) || !reaches(single))
    return null;
  const more = Math.round(steps.cost) - Math.round(single.cost);
  if (more <= 0) return null;
  // a whole building's figures divided by its dwellings, as the proposals' headings give them
  // (the difference of the two rounded shares, so the three figures agree; none when it is 0)
  const a = costPerDwelling(steps.cost, dwellings);
  const b = costPerDwelling(single.cost, dwellings);
  const each =
    a !== undefined && b !== undefined && a > b
      ? `; ${numberText(a - b)}\u00a0€ more for each of its ${dwellings} dwellings, ${numberText(a)}\u00a0€ against ${numberText(b)}\u00a0€`
      : '';
  const ends =
    last.after.classe === one.after.classe
      ? ''
      : ` and ends in class ${last.after.classe}, the path in one step in ${one.after.classe}`;
  const added = steps.items
    .filter((i) => i.status === 'treated' && i.step === last.n)
    .map((i) => i.label.toLowerCase());
  const completes = added.length
    ? `what the six items still ask (${added.join(', ')})`
    : 'what reaches the final class';
  const firstEach = costPerDwelling(first.cost, dwellings);
  return (
    `This path costs ${numberText(more)}\u00a0€ more than the path in one step ` +
    `(${numberText(Math.round(steps.cost))}\u00a0€ against ${numberText(Math.round(single.cost))}\u00a0€${each})${ends}: ` +
    `its steps are chosen one after the other, step 1 for a first step’s rules (two classes ` +
    `gained, insulation), step ${last.n} to add to the earlier works ${completes}, ` +
    `where the path in one step chooses all its works together.` +
    // a first payment that reaches the final class on its own: what the path in steps offers
    (classIndex(first.after.classe) <= classIndex(target)
      ? ` Step 1 alone reaches class ${first.after.classe} for ${numberText(Math.round(first.cost))}\u00a0€${
          firstEach === undefined ? '' : ` (${numberText(firstEach)}\u00a0€ a dwelling)`
        }.`
      : '')
  );
}

/**
 * A proposal above the cost per m² of a deep renovation (`COST_CEILING`, the figure `initial`'s
 * alert `warning.cost-per-m2` uses, on the same area): a sentence giving its cost per m², the
 * area, the ceiling with its source, and its dearest lines, so the signer checks them.
 */
export function costCeilingNoteOf(p: AuditProposal, scope: Scope): string | null {
  const m2 = costPerM2(p.cost, scope);
  if (m2 === undefined || m2 <= COST_CEILING.eurPerM2) return null;
  const lines = p.steps
    .flatMap((s) => s.works)
    .filter((w) => w.cost > 0)
    .sort((a, b) => b.cost - a.cost || a.referenceId.localeCompare(b.referenceId))
    .slice(0, 2);
  const share = Math.round((100 * lines.reduce((t, w) => t + w.cost, 0)) / p.cost);
  const named = lines
    .map((w) => `${w.option} on ${w.referenceId} (${numberText(Math.round(w.cost))}\u00a0€)`)
    .join(' and ');
  // an appliance, or works priced by the dwelling, cost the same on a small area
  const fixed = lines.some((w) => w.unit === 'installation' || w.unit === 'dwelling');
  return (
    `This path costs ${numberText(m2)}\u00a0€/m² of ${ceilingAreaText(scope)}, above ` +
    `${COST_CEILING.eurPerM2}\u00a0€/m², the ceiling of a deep renovation ` +
    `(${COST_CEILING.source}).` +
    (lines.length
      ? ` Its dearest line${lines.length > 1 ? 's are' : ' is'} ${named}, ${share}\u00a0% of its cost` +
        (fixed
          ? '; a line priced by the appliance or the dwelling costs as much on a small area'
          : '') +
        '.'
      : '') +
    ' Check the works and their quantities before relying on the figure.'
  );
}

/** A whole building's other aid, whose rules (an energy gain, not classes) are not computed here. */
const COPROPRIETE =
  'a co-owned building applies for MaPrimeRénov’ Copropriété instead (its rules, an energy gain of 35\u00a0% or more, are not computed here)';

export function aidsOf(
  p: Pick<AuditProposal, 'cost' | 'steps'>,
  initial: ClassLetter,
  insulationTreated: number,
  sheets: AuditAids['sheets'],
  at: AidScope,
  heating: AidHeating = { installsFossil: [] },
): AuditAids {
  const last = p.steps[p.steps.length - 1];
  const gain = last ? classIndex(initial) - classIndex(last.after.classe) : 0;
  const n = Math.max(1, Math.round(at.dwellings));
  const what = n > 1 ? 'building' : 'dwelling';
  const why: string[] = [];
  if (!MPR.classesBefore.includes(initial))
    why.push(`the ${what} is in ${initial} before works (the aid is for E, F or G)`);
  const age = ageOf(at.built, what);
  if (age.fails) why.push(age.fails);
  if (gain < MPR.minGain)
    why.push(`the works gain ${gain} class${gain === 1 ? '' : 'es'} (2 at least)`);
  if (insulationTreated < MPR.minInsulationItems)
    why.push(
      `${insulationTreated} insulation item${insulationTreated === 1 ? '' : 's'} treated (2 at least)`,
    );
  // the project may not install a heating running mainly on fossil fuel, nor keep one running
  // mainly on fuel oil (Mes Aides Réno's conditions of MaPrimeRénov' parcours accompagné)
  const fossil = heating.after && FOSSIL_ENERGIES.has(heating.after.id);
  if (heating.installsFossil.length && fossil)
    why.push(
      `the works install a heating running mainly on ${heating.after?.label ?? 'a fossil fuel'} (${heating.installsFossil.join(', ')}): the aid excludes fossil-fuel heating`,
    );
  else if (heating.after?.id === FUEL_OIL)
    why.push(
      `the heating stays mainly on ${heating.after.label}: the aid requires replacing an oil heating`,
    );
  const eligible = why.length === 0;
  const ceiling = [...MPR.ceilings].reverse().find((c) => gain >= c.gain)?.eur ?? 0;
  // the aid is a dwelling's: each dwelling taken at the average, a whole building's cost divided
  // by its dwellings (how a co-ownership shares its works is not in the DPE), capped at the
  // ceiling, and the building's aid is the sum (2561E0059504D: 9 dwellings, 160,860 €, was capped
  // at one dwelling's 40,000 €)
  const perDwelling = p.cost / n;
  const eligibleHt = eligible ? Math.min(perDwelling / (1 + MPR.vat), ceiling) : 0;
  const expense = round(eligibleHt);
  const ceilingText = `${numberText(ceiling)} €${n > 1 ? ' per dwelling' : ''} for ${gain >= 3 ? '3 classes or more' : '2 classes'}`;
  const expenseText =
    n > 1
      ? `eligible expense ${numberText(expense)} € excl. VAT per dwelling (ceiling ${ceilingText}; each dwelling at the average, the building’s ${numberText(round(p.cost))} € divided by its ${n} dwellings), ${numberText(expense * n)} € for the building; each dwelling’s owner applies (not a company such as an SCI), ${COPROPRIETE}`
      : `eligible expense ${numberText(expense)} € excl. VAT (ceiling ${ceilingText})`;
  return {
    eligible,
    rule: eligible
      ? `MaPrimeRénov’ rénovation d’ampleur: ${initial} → ${last?.after.classe ?? initial}, ${gain} classes gained, ${insulationTreated} insulation items; ${expenseText}${age.check ? `; ${age.check}` : ''}`
      : `MaPrimeRénov’ rénovation d’ampleur does not apply: ${why.join('; ')}${n > 1 ? `; ${COPROPRIETE}` : ''}`,
    eligibleExpense: expense * n,
    ...(n > 1 ? { dwellings: n, eligibleExpensePerDwelling: expense } : {}),
    byCategory: MPR.rates.map((r) => {
      const cap = MPR.caps[r.category] ?? 1;
      // (MaPrimeRénov' alone never passes the cap: its rate is on the cost excl. VAT); a
      // dwelling's aid, rounded, times the dwellings
      const amount = round(Math.min(eligibleHt * r.rate, perDwelling * cap)) * n;
      return {
        category: r.category,
        label: r.label,
        maPrimeRenov: amount,
        netCost: round(p.cost - amount),
        ...(eligible
          ? { totalAidCap: round(p.cost * cap), totalAidCapPercent: Math.round(cap * 100) }
          : {}),
      };
    }),
    cee: MPR.cee,
    sheets,
    source: eligible ? `${MPR.source}; ${MPR.capsSource}` : MPR.source,
    asOf: MPR.asOf,
    note: MPR.note,
  };
}

// ---------------------------------------------------------------- controls, summer comfort

/** enum_type_emission_distribution_id of a wood stove, insert, closed hearth or cooker: "poêle bois" */
const WOOD_EMITTER = '21';

/** The existing control devices of the heating (regulation, programming, metering), per installation. */
export function controlsOf(engine: Engine, raw: RawDpe): string[] {
  const out: string[] = [];
  const installations = elementsOf(raw, 'installation_chauffage');
  installations.forEach((inst, i) => {
    const h = inst as RawGeneratorHolder;
    const emitters = h.emetteur_chauffage_collection?.emetteur_chauffage ?? [];
    // "heating 2 (Radiateurs gaz thermo), emitter 1 of 2": the installation as the works tables
    // name it (its description), and which of its emitters
    const full = installations.length > 1 ? str(inst.donnee_entree.description)?.trim() : '';
    const desc = full && full.length > 40 ? `${full.slice(0, 39)}…` : full;
    emitters.forEach((em, k) => {
      const d = em.donnee_entree;
      const parts: string[] = [];
      const emission = engine.enumLabel(
        'type_emission_distribution',
        str(d.enum_type_emission_distribution_id),
      );
      const intermittence = engine.enumLabel(
        'equipement_intermittence',
        str(d.enum_equipement_intermittence_id),
      );
      const regulation = engine.enumLabel('type_regulation', str(d.enum_type_regulation_id));
      // a wood room appliance is its own emitter, which the 3CL files under one type for them all
      // ("poêle bois"): the appliance on its link named as the DPE files it (2287E1307980I's
      // insert)
      const wood =
        str(d.enum_type_emission_distribution_id) === WOOD_EMITTER
          ? gensOf(h).filter(
              (g) =>
                isWoodRoomAppliance(g) &&
                str(g.donnee_entree.enum_lien_generateur_emetteur_id) ===
                  str(d.enum_lien_generateur_emetteur_id),
            )
          : [];
      if (emission)
        parts.push(
          wood.length
            ? `emitters: ${wood.map((g) => generatorName(engine, 'installation_chauffage', g)).join(' + ')} (3CL emitter type: ${emission})`
            : `emitters: ${emission}`,
        );
      if (regulation) parts.push(`regulation: ${regulation}`);
      if (intermittence) parts.push(`programming (intermittence): ${intermittence}`);
      if (num(d.presence_comptage) !== undefined)
        parts.push(`individual metering: ${num(d.presence_comptage) ? 'yes' : 'no'}`);
      const which = `heating ${i + 1}${desc ? ` (${desc})` : ''}${emitters.length > 1 ? `, emitter ${k + 1} of ${emitters.length}` : ''}`;
      if (parts.length) out.push(`${which}: ${parts.join('; ')}`);
    });
  });
  elementsOf(raw, 'installation_ecs').forEach((inst, i) => {
    const d = inst.donnee_entree;
    const desc = d.description;
    if (desc) out.push(`hot water ${i + 1}: ${desc}`);
  });
  if (!out.length) out.push('the DPE describes no control device');
  return out;
}

const COMFORT_CRITERIA: [string, string][] = [
  ['isolation_toiture', 'roof insulated'],
  ['protection_solaire_exterieure', 'external solar protection'],
  ['aspect_traversant', 'through ventilation (dual aspect)'],
  ['brasseur_air', 'ceiling fans'],
  ['inertie_lourde', 'heavy thermal mass'],
];
const INDICATOR: Record<string, string> = { '1': 'insufficient', '2': 'average', '3': 'good' };
const ROOFLESS = 'roof insulated (no roof: a heated space above)';

/**
 * The 3CL summer-comfort indicator of an engine output (`logement.sortie.confort_ete`). Its roof
 * criterion is for the dwellings under a roof: with no heat-losing roof (a heated space above)
 * the engine counts it met, and the label says why; met with a bare part (the engine correction
 * confort-ete-toiture counts a roof insulated on at least half of its heat-losing area), the label
 * gives the bare m², which the same page's works may insulate. With `declared` (the DPE as read,
 * before works), the DPE's own indicator beside it.
 */
export function summerComfortOf(output: RawDpe, declared?: RawDpe): SummerComfort | undefined {
  const c = sortieOf(output)?.confort_ete as Record<string, unknown> | undefined;
  if (!c) return undefined;
  const roof = roofAreas(output);
  const own = declared
    ? (sortieOf(declared)?.confort_ete as Record<string, unknown> | undefined)
    : undefined;
  const dpe = own ? INDICATOR[str(own.enum_indicateur_confort_ete_id) ?? ''] : undefined;
  const roofLabel = (met: boolean) =>
    roof.area <= 0
      ? ROOFLESS
      : met && roof.bare > 0
        ? `roof insulated (${numberText(roof.bare, 1)} of ${numberText(roof.area, 1)}\u00a0m² bare)`
        : 'roof insulated';
  return {
    indicator: INDICATOR[str(c.enum_indicateur_confort_ete_id) ?? ''] ?? 'unknown',
    criteria: COMFORT_CRITERIA.map(([k, label]) => {
      const met = Number(c[k]) === 1;
      return { label: k === 'isolation_toiture' ? roofLabel(met) : label, met };
    }),
    ...(dpe ? { dpe } : {}),
  };
}

/** Why the works lose a criterion, where the 3CL says (the engine's 7_inertie.js). */
const LOST_WHY: Record<string, string> = {
  'heavy thermal mass':
    'the 3CL’s inertia counts a wall, a low floor or a ceiling as heavy only when it is uninsulated, insulated outside only or of an unknown insulation type, and after these works some are filed as insulated on their inside',
};

/**
 * The summer-comfort criteria met before a step and not after it (the criteria in
 * `COMFORT_CRITERIA`'s order), said with why where the 3CL says: "heavy thermal mass lost with
 * these works: …" (2238E0097309E: its walls lined inside, good → average). Undefined when none.
 */
export function comfortLostOf(
  before: SummerComfort | undefined,
  after: SummerComfort | undefined,
): string | undefined {
  if (!before || !after) return undefined;
  const lost = after.criteria
    .map((c, i) => ({ c, was: before.criteria[i]?.met === true, key: COMFORT_CRITERIA[i]?.[1] }))
    .filter(({ c, was }) => was && !c.met)
    .map(({ key, c }) => {
      const why = key ? LOST_WHY[key] : undefined;
      return `${key ?? c.label} lost with these works${why ? `: ${why}` : ''}`;
    });
  return lost.length ? lost.join('; ') : undefined;
}

/**
 * A dwelling's heat-losing roof area (b > 0) and its bare part, as the engine correction
 * confort-ete-toiture reads them: declared uninsulated, or of unknown insulation with a Uph above
 * 1 W/m².K.
 */
function roofAreas(output: RawDpe): { area: number; bare: number } {
  let area = 0;
  let bare = 0;
  for (const ph of elementsOf(output, 'plancher_haut')) {
    if (!((num(ph.donnee_intermediaire?.b) ?? 1) > 0)) continue;
    const s = num(ph.donnee_entree.surface_paroi_opaque) ?? 0;
    const type = str(ph.donnee_entree.enum_type_isolation_id);
    area += s;
    if (type === '2' || (type === '1' && (num(ph.donnee_intermediaire?.uph) ?? 0) > 1)) bare += s;
  }
  return { area, bare };
}

function sortieOf(d: RawDpe): Record<string, unknown> | undefined {
  return d.logement?.sortie as Record<string, unknown> | undefined;
}

/** Whether the DPE produces electricity (photovoltaics): primary may then be below final. */
export function producesElectricity(output: RawDpe): boolean {
  const p = (output.logement?.sortie as Record<string, unknown> | undefined)
    ?.production_electricite as Record<string, unknown> | undefined;
  return (num(p?.production_pv) ?? 0) > 0;
}

// ---------------------------------------------------------------- scope

/**
 * The audit's scope: what the DPE describes and how its works are priced; with a sentence when
 * its windows' numbers and areas cannot describe the same windows (consistency.ts
 * `windowShares`: 2251E1368858K's flat, 366 windows in 4.5 m²), since the windows' works are
 * priced on those areas.
 */
export function scopeText(
  scope: Scope,
  what: 'maison' | 'appartement' | 'immeuble',
  windows?: { count: number; area: number },
  doors: readonly { index: number; area: number; doors: number }[] = [],
): NonNullable<AuditResponse['scope']> {
  const s = scopeTextOf(scope, what);
  let text = s.text;
  if (windows) {
    const each = numberText(windows.area / windows.count, 3);
    text += ` Its windows are ${numberText(windows.count)} in ${numberText(windows.area, 1)} m² in the DPE (${each} m² each): numbers and areas that cannot describe the same windows (a building’s window counts with a flat’s share of their area); their works are priced on those areas, to be measured on site.`;
  }
  for (const d of doors)
    text += ` Its door element porte:${d.index} has ${numberText(d.area, 2)} m² for ${numberText(d.doors)} door${d.doors === 1 ? '' : 's'} in the DPE, where a standard door is ${numberText(STANDARD_DOOR_M2, 2)} m²: its works are priced for ${numberText(d.doors)} door${d.doors === 1 ? '' : 's'}, the doors to be counted on site.`;
  return text === s.text ? s : { ...s, text };
}

function scopeTextOf(
  scope: Scope,
  what: 'maison' | 'appartement' | 'immeuble',
): NonNullable<AuditResponse['scope']> {
  if (what === 'maison')
    return {
      regulatory: true,
      text: 'A house: the regulatory energy audit’s case (a house put up for sale in D to G).',
      share: 1,
    };
  if (what === 'immeuble')
    return {
      regulatory: true,
      text: `A whole building of ${scope.dwellings} dwelling${scope.dwellings > 1 ? 's' : ''} (${numberText(scope.surface, 1)} m²): the regulatory case when it has a single owner; individual systems are counted for the dwellings they serve${scope.dwellings > 1 ? `; costs are the building’s, and a cost per dwelling is an average, the building’s cost divided by its ${scope.dwellings} dwellings (how a co-ownership shares works, by tantièmes or each lot paying its own dwelling’s systems, is not in the DPE)` : ''}.`,
      share: 1,
      dwellings: scope.dwellings,
    };
  const notRegulatory = 'not the regulatory audit’s case (houses and single-owner buildings)';
  if (!scope.buildingSurfaceKnown) {
    const aside = buildingAreaSetAside(scope);
    const why = aside
      ? `the building’s living area it declares, ${numberText(aside.declared, 1)} m², is ${aside.why.replace(/'/g, '’')}, set aside`
      : 'the DPE does not give its building’s living area';
    return {
      regulatory: false,
      text: `A flat (${numberText(scope.surface, 1)} m²; ${why}): ${notRegulatory}; the flat’s own works are proposed${scope.collectiveInstallation ? ', and collective works where their price follows the flat’s own size (per m² served, per kW of its own heat loss, per dwelling), none sized by the building (a boiler room, a substation), since the flat’s share of them is unknown' : ' (its heating and hot water are its own)'}.`,
      share: null,
    };
  }
  const pct = Math.round(scope.share * 1000) / 10;
  return {
    regulatory: false,
    text: `A flat (${numberText(scope.surface, 1)} m² of a ${numberText(scope.buildingSurface, 1)} m² building): ${notRegulatory}; the flat’s own works are proposed, and collective or building works appear as the flat’s share (${pct} %), with the building’s quantity and amount beside it.`,
    share: scope.share,
  };
}

// enum_type_isolation_id of a wall with a lining or insulation an interior insulation takes down,
// and how the DPE says it is insulated (1 inconnu and 2 non isolé: not said; 5, distributed in
// the masonry, is the wall's material, kept in its U0: recipes.ts `interiorInsulationAdds`)
const INSULATED_HOW: Readonly<Record<string, string>> = {
  3: 'inside',
  7: 'inside',
  9: 'of unknown kind',
};

/**
 * A step's interior wall insulation on walls the DPE says are already insulated, where the works
 * replace that insulation rather than add to it (recipes.ts `interiorInsulationAdds`: simulated
 * from the bare wall to the new R), and the price is the catalogue's for new interior insulation,
 * without removing the old lining: said, with the walls and what the DPE gives of their insulation
 * (2542E0238063B: 9 walls "avec isolation intérieure (8 cm)", 118.5 m²). The same of roofs
 * insulated again from inside, a sloped roof's or a ceiling's from below (recipes.ts `roofApply`
 * replaces their insulation too: 2459E1831723H's two roofs insulated inside, 68 m²). Undefined
 * when none.
 */
export function liningReplacedOf(dpe: RawDpe, works: readonly AuditWork[]): string | undefined {
  const notes = (['mur', 'plancher_haut'] as const)
    .map((category) => replacedIn(dpe, works, category))
    .filter((x): x is string => x !== undefined);
  return notes.length ? notes.join(' ') : undefined;
}

/** What `liningReplacedOf` says of one category: walls, or roofs insulated again from inside. */
function replacedIn(
  dpe: RawDpe,
  works: readonly AuditWork[],
  category: 'mur' | 'plancher_haut',
): string | undefined {
  const elements = elementsOf(dpe, category);
  const hit = works.flatMap((w) => {
    const ref = parseReferenceId(w.referenceId);
    if (ref?.category !== category) return [];
    const row = findOption(category, w.editableKey, w.editableValue);
    // a wall's interior insulation, a sloped roof's from inside or a ceiling's from below
    // (recipes.ts roofApply); a lost attic's and a terrace's are added outside
    const inside =
      row?.recipe.kind === 'wall'
        ? row.recipe.position === 'ITI'
        : row?.recipe.kind === 'roof' &&
          (row.recipe.variant === 'rampants' || row.recipe.variant === 'plafond');
    if (!inside) return [];
    const d = elements[ref.index]?.donnee_entree;
    const type = str(d?.enum_type_isolation_id) ?? '';
    const how = INSULATED_HOW[type];
    if (!d || !how || interiorInsulationAdds(type)) return [];
    const cm = num(d.epaisseur_isolation);
    const r = num(d.resistance_isolation);
    const much =
      cm !== undefined && cm > 0
        ? `${numberText(cm)} cm`
        : r !== undefined && r > 0
          ? `R ${numberText(r, 1)} m²·K/W`
          : 'of unknown thickness';
    return [{ w, index: ref.index, how, much }];
  });
  if (!hit.length) return undefined;
  const area = hit.reduce((s, h) => s + h.w.quantity, 0);
  const kinds = [...new Set(hit.map((h) => h.how))].map(
    (how) =>
      `${how}, ${[...new Set(hit.filter((h) => h.how === how).map((h) => h.much))].join(', ')}`,
  );
  const refs = `${category}:${indexRanges(hit.map((h) => h.index))}`;
  const wall = category === 'mur';
  const them =
    hit.length > 1 ? (wall ? 'these walls' : 'these roofs') : wall ? 'this wall' : 'this roof';
  const old = wall ? 'the old lining' : 'the old insulation';
  return `${refs} (${numberText(area, 1)}\u00a0m²) ${hit.length > 1 ? 'are' : 'is'} already insulated in the DPE (${kinds.join('; ')}): the interior insulation of ${them} replaces that insulation, simulated from the bare ${wall ? 'wall' : 'roof'}; its price is the catalogue’s for new interior insulation and does not include removing ${old}, to be priced on site.`;
}

// ---------------------------------------------------------------- living area

/**
 * The living area interior wall insulation takes, up to a step (`lost`, m²: the works runs'
 * `perteSurface`, the figure `calc` gives as `perte_surface_m2`: works/apply.ts `perteSurfaceOf`,
 * the walls' length × the lining's thickness) and by the step's own works (`byStep`). The 3CL
 * figures after works keep the DPE's area (`surface`); the step's primary energy and emissions per
 * m² (`epM2`, `gesM2`, unrounded) are said on the area left, with the class they give under
 * today's thresholds for that area (a small dwelling's limits follow its area): 2287E1490206A's
 * walls lined inside take 4.43 m² of its 80, and its B at 107 kWh/m²/yr, 3 below the limit, is a
 * C at 113 on 75.57 m². Undefined when no interior insulation takes any.
 */
export function livingAreaOf(
  engine: Engine,
  site: ClassSite,
  step: {
    n: number;
    lost: number;
    byStep: number;
    epM2: number;
    gesM2: number;
    classe: ClassLetter;
  },
): AuditStep['livingArea'] {
  const { lost, byStep } = step;
  if (!(lost > 0) || !(site.surface > lost)) return undefined;
  const after = Math.round((site.surface - lost) * 100) / 100;
  const factor = site.surface / (site.surface - lost);
  const epM2 = step.epM2 * factor;
  const gesM2 = step.gesM2 * factor;
  const t = thresholdsFor(
    { ...site, surface: site.surface - lost },
    today(),
    engine.smallSurfaceLimits.bind(engine),
  );
  const classe = classesOf(epM2, gesM2, t).dpe;
  const m2 = (x: number) => `${numberText(x, 2)}\u00a0m²`;
  const earlier = step.n === 2 ? 'step 1’s' : 'the earlier steps’';
  const took =
    byStep >= lost
      ? `Interior insulation takes about ${m2(lost)} of living area`
      : byStep > 0
        ? `Interior insulation takes about ${m2(byStep)} of living area, ${m2(lost)} with ${earlier}`
        : `The interior insulation of ${earlier.replace(/’s$|’$/, '')} took about ${m2(lost)} of living area`;
  const figures = `the step’s ${numberText(step.epM2, 0)} kWh/m²/yr and ${numberText(step.gesM2, 0)} kg CO2e/m²/yr would be ${numberText(epM2, 0)} and ${numberText(gesM2, 0)}`;
  // (the limits of the step's class for the area left; G has none)
  const limit =
    step.classe === 'G' ? undefined : { ep: t.dpe[step.classe], ges: t.ges[step.classe] };
  const holds =
    classe === step.classe
      ? `class ${classe} holds`
      : `class ${classe}, not ${step.classe}${limit && classIndex(classe) > classIndex(step.classe) ? ` (${step.classe} is below ${numberText(limit.ep, 0)} kWh/m²/yr and ${numberText(limit.ges, 0)} kg CO2e/m²/yr)` : ''}`;
  return {
    lost,
    lostByStep: byStep,
    after,
    epM2: Math.round(epM2 * 100) / 100,
    gesM2: Math.round(gesM2 * 100) / 100,
    classe,
    note: `${took} (${numberText(site.surface, 2)} → ${m2(after)}); the figures per m² are on the DPE’s area (a DPE made after the works would be on the area left). On the ${m2(after)} left, ${figures}: ${holds}.`,
  };
}

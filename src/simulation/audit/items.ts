/**
 * The six items and their elements, as the audit judges them (rules as data): an element that
 * loses heat to the outside or an unheated space and is below the aids' level needs works at
 * that level, or the audit names why it cannot take any; an element already at the level needs
 * none. Heating and hot water need a generator the aids accept (or already have one);
 * distribution works add to the item, they do not treat it.
 */
import type { ElementNeed, ItemKey, ItemState } from '../../contract/audit.js';
import { elementLabel } from '../../contract/element-label.js';
import { indexRanges, numberText } from '../../contract/number-text.js';
import type { Category } from '../../contract/schemas.js';
import { scopeOf } from '../../dpe/building.js';
import { filedAsDefault } from '../../dpe/default-generators.js';
import { descriptionOf, elementsOf, referenceId } from '../../dpe/elements.js';
import { num, str, type RawDpe, type RawElement, type RawGeneratorHolder } from '../../dpe/raw.js';
import type { Engine } from '../../engine/engine.js';
import { areaOf, refusalsOn } from '../../works/apply.js';
import { findOption, type WorksOptionRow } from '../../works/catalogue.js';
import {
  isWoodRoomAppliance,
  registryDefaultWords,
  type GeneratorCategory,
} from '../../works/generators.js';
import { changeKey } from '../runs.js';
import type { PreparedDpe } from '../prepared.js';
import type { Candidate } from '../scenarios.js';
import {
  acceptedExisting,
  burnsOilOrCoal,
  isHeatPump,
  isRoofWindow,
  levelText,
  OPAQUE_LEVELS,
  optionAllowed,
  opaqueKind,
  optionTreats,
  ownResistance,
  ownU,
  rt2018Level,
  performanceOfElement,
  windowMeets,
  windowNeedsNoWorks,
  WINDOW_LEVEL,
  DOOR_LEVEL,
} from './levels.js';
import { leftOutReason, type LeftOutFrame } from './left-out.js';

export const ITEM_LABELS: Record<ItemKey, string> = {
  walls: 'Walls',
  lowFloors: 'Low floors',
  roof: 'Roof',
  windowsDoors: 'Windows and doors',
  ventilation: 'Ventilation',
  heatingHotWater: 'Heating and hot water',
};

export const ITEM_OF: Record<Category, ItemKey> = {
  mur: 'walls',
  plancher_bas: 'lowFloors',
  plancher_haut: 'roof',
  baie_vitree: 'windowsDoors',
  porte: 'windowsDoors',
  ventilation: 'ventilation',
  installation_chauffage: 'heatingHotWater',
  installation_ecs: 'heatingHotWater',
};

export const INSULATION_ITEMS: readonly ItemKey[] = ['walls', 'lowFloors', 'roof', 'windowsDoors'];
export const ITEM_ORDER: readonly ItemKey[] = [
  'walls',
  'lowFloors',
  'roof',
  'windowsDoors',
  'ventilation',
  'heatingHotWater',
];

/** An element that needs works: met when the combination holds one of `options` (change keys). */
export interface Requirement {
  item: ItemKey;
  ref: string;
  /** the groups (element|works key) whose options may meet it */
  groups: string[];
  /** the change keys that meet it (options at the aids' level, accepted generators) */
  options: ReadonlySet<string>;
}

export interface JudgedElement extends ElementNeed {
  item: ItemKey;
  /** its requirement when it needs works and the catalogue can do them */
  requirement?: Requirement;
  /**
   * a heating installation's appoints below the aids' level (a wood appliance, a bathroom's
   * heater), which works on its main generators leave in service (`backUpKeptText`)
   */
  backUpsBelow?: BackUpsBelow;
  /** its U the 3CL's default for an unknown insulation: what `unknownInsulationOf` says */
  unknown?: UnknownInsulation;
}

/** A heating installation's back-ups below the aids' level (`JudgedElement.backUpsBelow`). */
export interface BackUpsBelow {
  /** each back-up's name, and whether it is a wood room appliance (a pellet stove replaces those) */
  gens: { name: string; wood: boolean }[];
  /** the change keys of the catalogue's pellet stove on the installation (none when not offered) */
  pelletStove: ReadonlySet<string>;
  /** the change keys of works on the installation's generators (its requirement's, or any) */
  works: ReadonlySet<string>;
}

/**
 * What the items table says, after works, of the back-ups below the aids' level that the chosen
 * works on an installation's main generator leave in service, consistently with what it says
 * before works of a back-up beside a main generator at the level (`judgeItems`): "the back-up
 * kept on installation_chauffage:0 (insert installé avant 1990) is not at the aids’ level: the
 * catalogue offers a pellet stove for it only in place of the new generator, not beside it (one
 * generator’s works per installation), so replacing it is left to the auditor" (2287E0722622O's
 * heat pump; 2287E0914527N's, in place of a condensing LPG boiler the aids accept). A pellet
 * stove chosen for the installation replaces its wood back-ups too: those are not named.
 * Undefined when none stays (`keys`: the change keys the works chose).
 */
export function backUpKeptText(e: JudgedElement, keys: ReadonlySet<string>): string | undefined {
  const b = e.backUpsBelow;
  if (!b) return undefined;
  const chosen = [...b.works].filter((k) => keys.has(k));
  if (!chosen.length) return undefined;
  const stoveChosen = chosen.some((k) => b.pelletStove.has(k));
  const kept = stoveChosen ? b.gens.filter((g) => !g.wood) : b.gens;
  if (!kept.length) return undefined;
  const one = kept.length === 1;
  const what = `the back-up${one ? '' : 's'} kept on ${e.referenceId} (${kept.map((g) => g.name).join(', ')}) ${one ? 'is' : 'are'} not at the aids’ level`;
  const stove = !stoveChosen && b.pelletStove.size > 0 && kept.every((g) => g.wood);
  return stove
    ? `${what}: the catalogue offers a pellet stove for ${one ? 'it' : 'them'} only in place of the new generator, not beside it (one generator’s works per installation), so replacing ${one ? 'it' : 'them'} is left to the auditor`
    : `${what}, and replacing ${one ? 'it' : 'them'} is left to the auditor`;
}

export interface Items {
  states: ItemState[];
  elements: JudgedElement[];
  /** per item, its requirements (every element that needs works) */
  requirements: Map<ItemKey, Requirement[]>;
  /** ventilation natural or absent: envelope works bring ventilation works with them */
  ventilationWeak: boolean;
  ventilationLabel: string;
  /** per heating or hot-water installation (referenceId), its main generators' 3CL labels */
  mainGenerators: Map<string, string[]>;
}

/** The catalogue's basic ventilation works: a ventilation it applies to needs works. */
const BASIC_VENTILATION = 'VMCHygroB';

const ENVELOPE: readonly Category[] = [
  'mur',
  'plancher_bas',
  'plancher_haut',
  'baie_vitree',
  'porte',
];

const fmt = (x: number) => String(Math.round(x * 100) / 100);

function ventilationLabel(engine: Engine, el: RawElement): string {
  return (
    engine.enumLabel('type_ventilation', str(el.donnee_entree?.enum_type_ventilation_id)) ??
    'unknown ventilation'
  );
}

/** Natural ventilation (by opening windows, air inlets, natural ducts): no mechanical system. */
export function isWeakVentilation(label: string): boolean {
  return /naturelle|ouverture des fen|entr[ée]es d.air hautes et basses/i.test(label);
}

function generatorsOf(category: Category, el: RawElement): RawElement[] {
  const h = el as RawGeneratorHolder;
  return category === 'installation_chauffage'
    ? (h.generateur_chauffage_collection?.generateur_chauffage ?? [])
    : (h.generateur_ecs_collection?.generateur_ecs ?? []);
}

/**
 * Whether a heating generator backs up its installation's main one: an appoint (a wood stove or
 * insert, the bathroom's electric heater: `enum_lien_generateur_emetteur_id` 2 or 3), or the
 * boiler of an installation whose boiler takes over from a heat pump (`enum_cfg_installation_ch_id`
 * 8 and 9). The heating is at the aids' level when its main generators are.
 */
export function isBackUp(
  category: Category,
  el: RawElement,
  g: RawElement,
  label: string,
): boolean {
  if (category !== 'installation_chauffage') return false;
  const lien = str(g.donnee_entree.enum_lien_generateur_emetteur_id);
  if (lien === '2' || lien === '3') return true;
  const cfg = str(el.donnee_entree.enum_cfg_installation_ch_id);
  return (cfg === '8' || cfg === '9') && /chaudière/.test(label) && !isHeatPump(label);
}

/** A generator's name as the engine's enum gives it (else the DPE's description). */
export function generatorLabel(engine: Engine, category: GeneratorCategory, g: RawElement): string {
  const d = g.donnee_entree;
  const label =
    category === 'installation_chauffage'
      ? engine.enumLabel('type_generateur_ch', str(d.enum_type_generateur_ch_id))
      : engine.enumLabel('type_generateur_ecs', str(d.enum_type_generateur_ecs_id));
  return label ?? d.description ?? 'unknown generator';
}

/**
 * A generator's name for a reader: its 3CL label, except where the DPE files a generator it
 * describes under the registry's default type for an undescribed collective system and the
 * engine keeps that type: then its own words first, the type after ("Réseau de chaleur (the
 * DPE's words; its type there: système collectif par défaut …)", 2162E1023160S's hot water;
 * "Chauffe-eau vertical (…)", 2162E1017681Z); where prepare gave it the type of its own 3CL row
 * (dpe/default-generators.ts), its words and that row ("Radiateur électrique à accumulation (the
 * DPE's words; filed under the registry's default type …, computed as its own 3CL row:
 * Générateur à effet joule direct)", 2262E0004883G). The audit's judgements keep reading the type
 * (`generatorLabel`): it is what the engine simulates.
 */
export function generatorName(engine: Engine, category: GeneratorCategory, g: RawElement): string {
  const label = generatorLabel(engine, category, g);
  const resolved = filedAsDefault(g);
  if (resolved) {
    const own = descriptionOf(g);
    const filed = `filed under the registry’s default type for an undescribed collective system, computed as its own 3CL row: ${resolved.row}`;
    return own ? `${own} (the DPE’s words; ${filed})` : `${label} (${filed})`;
  }
  const words = registryDefaultWords(category, g);
  return words ? `${words} (the DPE’s words; its type there: ${label})` : label;
}

/** An option that replaces wood room appliances and nothing else (the pellet stove). */
const replacesWoodOnly = (row: WorksOptionRow): boolean =>
  row.recipe.kind === 'heating' && row.recipe.generator === 'poele-granules';

/**
 * The options of `ref` (all its groups) that treat it, as change keys, and their groups; without
 * `woodMain` (a heating whose main generators are not all wood room appliances), not the pellet
 * stove, which replaces only those.
 */
function treatingOptions(
  groups: Map<string, Candidate[]>,
  ref: string,
  category: Category,
  woodMain = true,
): { groups: string[]; options: Set<string> } {
  const options = new Set<string>();
  const gs: string[] = [];
  for (const [g, list] of groups) {
    if (!g.startsWith(`${ref}|`)) continue;
    let any = false;
    for (const c of list) {
      const row = findOption(category, c.change.editableKey, c.change.editableValue);
      // a pellet stove replaces wood appliances only: where they back up another main
      // generator (a boiler with a stove as appoint), the installation is not treated by it
      if (row && optionTreats(row) && (woodMain || !replacesWoodOnly(row))) {
        options.add(changeKey(c.change));
        any = true;
      }
    }
    if (any) gs.push(g);
  }
  return { groups: gs, options };
}

export function judgeItems(
  engine: Engine,
  prep: PreparedDpe,
  groups: Map<string, Candidate[]>,
  frame: LeftOutFrame,
): Items {
  const scope = scopeOf(prep.raw);
  const elements: JudgedElement[] = [];
  const mainGenerators = new Map<string, string[]>();
  const present = new Set<ItemKey>();
  const push = (e: JudgedElement) => {
    present.add(e.item);
    elements.push(e);
  };
  // ---- envelope
  for (const category of ENVELOPE) {
    const computed = elementsOf(prep.base.output, category);
    elementsOf(prep.raw, category).forEach((el, index) => {
      const ref = referenceId(category, index);
      const item = ITEM_OF[category];
      const comp = computed[index];
      const di = comp?.donnee_intermediaire ?? {};
      const base = {
        item,
        referenceId: ref,
        description: descriptionOf(el),
        area: Math.round(areaOf(category, el) * scope.envelopeShare * 100) / 100,
        performance: performanceOfElement(category, comp),
        level: levelText(category, el),
      };
      // (a U the 3CL's default for an unknown insulation: said beside an element that loses
      // heat, whatever its status)
      const unknown =
        num(di.b) === 0 ? undefined : unknownInsulationOf(engine, prep.raw, category, el, comp);
      if (unknown)
        Object.assign(base, {
          unknown,
          note: `${unknownText(unknown, unknown.bare === undefined ? [] : [unknown.bare])}; to be checked on site: the gain of insulating it depends on it`,
        });
      const b = num(di.b);
      if (b !== undefined && !(b > 0)) {
        push({
          ...base,
          status: 'no-losses',
          reason: 'no heat losses (b = 0: onto a heated space)',
        });
        return;
      }
      const at = atLevel(category, el, di, prep.site);
      if (at) {
        push({ ...base, status: 'at-level', reason: at });
        return;
      }
      const t = treatingOptions(groups, ref, category);
      if (t.options.size) {
        const requirement: Requirement = { item, ref, ...t };
        push({ ...base, status: 'needs-works', reason: null, requirement });
        return;
      }
      // the options at the aids' level the catalogue offers here and the 3CL makes worse (or
      // useless) alone, before the refusals of the others (an ITI that makes the circulation
      // colder, then "external insulation only on walls facing the outside")
      const harm = leftOutReason(
        engine,
        prep,
        category,
        index,
        el,
        (row) => optionAllowed(row, el) && optionTreats(row),
        frame,
      );
      const why = refusalsOn(prep, category, el);
      push({
        ...base,
        status: 'cannot',
        reason: harm
          ? [harm, ...why.slice(0, 1)].join(', and ')
          : why.length
            ? why.slice(0, 2).join('; ')
            : 'no option of the catalogue at the aids’ level saves energy here (3CL)',
      });
    });
  }
  // ---- heating and hot water
  for (const category of ['installation_chauffage', 'installation_ecs'] as const) {
    elementsOf(prep.raw, category).forEach((el, index) => {
      const ref = referenceId(category, index);
      const gens = generatorsOf(category, el).map((g) => {
        const label = generatorLabel(engine, category, g);
        return {
          label,
          name: generatorName(engine, category, g),
          backUp: isBackUp(category, el, g, label),
          // an appoint (a wood appliance, a bathroom's heater): works on the main generators
          // leave it; a boiler relieving a heat pump is merged with it by hydronic works
          appoint: ['2', '3'].includes(str(g.donnee_entree.enum_lien_generateur_emetteur_id) ?? ''),
          wood: category === 'installation_chauffage' && isWoodRoomAppliance(g),
        };
      });
      const labels = gens.map((g) => g.name);
      const main = gens.some((g) => !g.backUp) ? gens.filter((g) => !g.backUp) : gens;
      const backUps = gens.filter((g) => g.backUp && !main.includes(g));
      mainGenerators.set(
        ref,
        main.map((g) => g.label),
      );
      const base = {
        item: 'heatingHotWater' as const,
        referenceId: ref,
        description: descriptionOf(el),
        area: 0,
        performance: labels.join(' + ') || 'no generator',
        level: levelText(category, el),
      };
      // a fuel-oil or coal back-up (a boiler taking over from a heat pump) keeps the item open
      const fossilBackUp = backUps.some((g) => burnsOilOrCoal(g.label));
      const old = backUps.filter((g) => !acceptedExisting(g.label));
      // the catalogue's pellet stove on the installation (it replaces the wood appliances only)
      const pelletStove = new Set(
        (groups.get(`${ref}|ReplaceGEN`) ?? [])
          .filter((c) => {
            const row = findOption(category, c.change.editableKey, c.change.editableValue);
            return row !== undefined && replacesWoodOnly(row);
          })
          .map((c) => changeKey(c.change)),
      );
      // the appoints below the level, which works on the main generators leave in service, and
      // the works on the installation's generators that would (`backUpKeptText`)
      const keptBelow = (works: ReadonlySet<string>): { backUpsBelow?: BackUpsBelow } => {
        const gens = old.filter((g) => g.appoint).map((g) => ({ name: g.name, wood: g.wood }));
        return gens.length ? { backUpsBelow: { gens, pelletStove, works } } : {};
      };
      if (main.length && main.every((g) => acceptedExisting(g.label)) && !fossilBackUp) {
        const below = old.map((g) => g.name);
        // (a wood back-up the catalogue can replace: said, not asked)
        const stove = old.length > 0 && old.every((g) => g.wood) && pelletStove.size > 0;
        push({
          ...base,
          status: 'at-level',
          reason:
            `already a generator the aids accept (${main.map((g) => g.name).join(', ')})` +
            (below.length
              ? `; its back-up (${below.join(', ')}) is not at the aids’ level, ${stove ? 'and a pellet stove is offered for it, not required' : 'and replacing it is left to the auditor'}`
              : ''),
          // (works the path may choose anyway: a heat pump in place of the main generator)
          ...keptBelow(
            new Set((groups.get(`${ref}|ReplaceGEN`) ?? []).map((c) => changeKey(c.change))),
          ),
        });
        return;
      }
      const t = treatingOptions(
        groups,
        ref,
        category,
        main.every((g) => g.wood),
      );
      if (category === 'installation_ecs') {
        // a dual-service heat pump replaces the hot water too
        for (const [g, list] of groups)
          for (const c of list)
            if (
              c.change.editableValue === 'PACAirEauECS' &&
              g.startsWith('installation_chauffage:')
            ) {
              t.options.add(changeKey(c.change));
              if (!t.groups.includes(g)) t.groups.push(g);
            }
      }
      if (t.options.size) {
        push({
          ...base,
          status: 'needs-works',
          reason: null,
          requirement: { item: 'heatingHotWater', ref, ...t },
          ...keptBelow(t.options),
        });
        return;
      }
      // (why the generators the aids accept are not offered; emitters and lagging do not treat)
      const why = refusalsOn(prep, category, el, optionTreats);
      // (a heating installation names what it holds: a stove or a gas room heater is refused by
      // what it is not, central heating or electric heaters; a bathroom's heater is its back-up)
      const holds =
        category === 'installation_chauffage' && main.length
          ? ` for its ${main.length > 1 ? 'generators' : 'generator'} (${main.map((g) => g.name).join(' + ')}${backUps.length ? `; back-up: ${backUps.map((g) => g.name).join(' + ')}` : ''})`
          : '';
      push({
        ...base,
        status: 'cannot',
        reason: `no generator the aids accept can be offered here${holds}${why.length ? `: ${why.slice(0, 2).join('; ')}` : ''}`,
      });
    });
  }
  // ---- ventilation
  const vents = elementsOf(prep.raw, 'ventilation');
  const vlabels = vents.map((v) => ventilationLabel(engine, v));
  vents.forEach((el, index) => {
    const ref = referenceId('ventilation', index);
    const label = vlabels[index] ?? '';
    const mine = [...groups.keys()].filter((k) => k.startsWith(`${ref}|`));
    const basic =
      isWeakVentilation(label) ||
      mine.some((g) =>
        (groups.get(g) ?? []).some((c) => c.change.editableValue === BASIC_VENTILATION),
      );
    const base = {
      item: 'ventilation' as const,
      referenceId: ref,
      description: descriptionOf(el),
      area: 0,
      performance: label,
      level: 'a humidity-controlled (type B) or double-flow mechanical ventilation',
    };
    if (!basic) {
      push({
        ...base,
        status: 'at-level',
        reason: `a humidity-controlled (type B) or better ventilation is already installed (${label})`,
      });
      return;
    }
    const t = treatingOptions(groups, ref, 'ventilation');
    if (t.options.size) {
      push({
        ...base,
        status: 'needs-works',
        reason: null,
        requirement: { item: 'ventilation', ref, ...t },
      });
      return;
    }
    const why = refusalsOn(prep, 'ventilation', el);
    push({
      ...base,
      status: 'cannot',
      reason: why.join('; ') || 'no ventilation works in the catalogue apply',
    });
  });

  const requirements = new Map<ItemKey, Requirement[]>();
  for (const e of elements)
    if (e.requirement)
      requirements.set(e.item, [...(requirements.get(e.item) ?? []), e.requirement]);
  const states: ItemState[] = ITEM_ORDER.map((key) => {
    const mine = elements.filter((e) => e.item === key);
    const needed = mine.some((e) => e.status === 'needs-works' || e.status === 'cannot');
    let reason: string | null = null;
    if (!present.has(key)) reason = 'none in this DPE';
    else if (!mine.some((e) => e.status === 'needs-works')) reason = itemReason(mine);
    const note = unknownInsulationNote(mine, (n) => `insulating ${n > 1 ? 'them' : 'it'}`);
    return {
      key,
      label: ITEM_LABELS[key],
      needed,
      reason,
      elements: mine.map(
        ({ item: _item, requirement: _r, backUpsBelow: _b, unknown: _u, ...rest }) => rest,
      ),
      ...(note ? { note } : {}),
    };
  });
  return {
    states,
    elements,
    requirements,
    ventilationWeak: vents.length === 0 || vlabels.some(isWeakVentilation),
    ventilationLabel: vents.length ? vlabels.join(', ') : 'no ventilation',
    mainGenerators,
  };
}

// enum_methode_saisie_u_id of a U read from the 3CL's default table by period: 2 isolation
// inconnue, 7 année d'isolation différente de l'année de construction, 8 année de construction
const TABLE_METHODS = new Set(['2', '7', '8']);
const U0_KEYS: Partial<Record<Category, string>> = {
  mur: 'umur0',
  plancher_bas: 'upb0',
  plancher_haut: 'uph0',
};

/**
 * A wall, low floor or roof whose insulation the DPE files as unknown (`enum_type_isolation_id`
 * 1 "inconnu", or 9 "isolé mais type d'isolation inconnu") and whose U the engine reads from the
 * 3CL's default table by period (`enum_methode_saisie_u_id` 2, 7 or 8): how the DPE files it
 * with the period the table reads, its U and its bare U (U0), said "insulation unknown in the
 * DPE (3CL “inconnu”, insulated 1989–2000): U 0.5 W/(m²·K) is the 3CL’s default for that period,
 * not a measure (bare, U 2.5)" (2287E1490206A's walls), or "… computed bare, U 2.5 …" where the
 * table gives no lower U than the bare element's. The gain of insulating the element is computed
 * from that U. Undefined for any other element (a U computed from a thickness, a resistance or
 * entered).
 */
export function unknownInsulationOf(
  engine: Engine,
  dpe: RawDpe,
  category: Category,
  el: RawElement,
  computed: RawElement | undefined,
): UnknownInsulation | undefined {
  const u0Key = U0_KEYS[category];
  if (!u0Key) return undefined;
  const d = el.donnee_entree;
  const type = str(d.enum_type_isolation_id);
  if ((type !== '1' && type !== '9') || !TABLE_METHODS.has(str(d.enum_methode_saisie_u_id) ?? ''))
    return undefined;
  const di = computed?.donnee_intermediaire ?? {};
  const u = ownU(category, di);
  if (u === undefined) return undefined;
  const u0 = num(di[u0Key]);
  // the period the engine's table reads (3.2.1_mur.js, 3.2.2_plancher_bas.js,
  // 3.2.3_plancher_haut.js): a wall of unknown insulation (2) by its construction, else the
  // insulation's period when given; by construction year (8), a dwelling built before 1975 as
  // insulated 1975–1977
  const method = str(d.enum_methode_saisie_u_id);
  const built = str(dpe.logement?.caracteristique_generale?.enum_periode_construction_id) ?? '';
  const insulated =
    method === '2' && category === 'mur' ? undefined : str(d.enum_periode_isolation_id);
  const label = (table: string, id: string) =>
    engine.enumLabel(table, id)?.replace(/(\d)-(\d)/, '$1–$2');
  const builtText = label('periode_construction', built);
  const when = insulated
    ? `, insulated ${label('periode_isolation', insulated) ?? insulated}`
    : !builtText
      ? ''
      : method === '8' && (built === '1' || built === '2')
        ? `, built ${builtText}, read as insulated 1975–1977`
        : `, built ${builtText}`;
  const filed =
    type === '1'
      ? `insulation unknown in the DPE (3CL “inconnu”${when})`
      : `insulated, of unknown kind and thickness in the DPE (3CL “isolé mais type d’isolation inconnu”${when})`;
  return { filed, u, ...(u0 !== undefined && u0 > u + 0.005 ? { bare: u0 } : {}) };
}

/** An element's U read from the 3CL's default table for an unknown insulation. */
export interface UnknownInsulation {
  /** how the DPE files its insulation, and the period the table reads */
  filed: string;
  /** its U, W/(m²·K) */
  u: number;
  /** its bare U (U0), when above the table's: absent when the table gives it bare */
  bare?: number;
}

/** What `UnknownInsulation` says, the bare U of each element it is said of given. */
function unknownText(x: UnknownInsulation, bares: readonly number[]): string {
  const list = [...new Set(bares.map(fmt))].sort((a, b) => Number(a) - Number(b));
  if (!list.length)
    return `${x.filed}: computed bare, U ${fmt(x.u)} W/(m²·K) (the 3CL’s default for that period is no lower), not a measure`;
  const bare = list.length === 1 ? list[0] : `${list[0]} to ${list[list.length - 1]}`;
  return `${x.filed}: U ${fmt(x.u)} W/(m²·K) is the 3CL’s default for that period, not a measure (bare, U ${bare})`;
}

/**
 * Elements whose U is the 3CL's default for an unknown insulation (`unknownInsulationOf`), each
 * sentence after the elements it concerns and their area: "mur:0…4 (77.5 m²): insulation unknown
 * in the DPE (…): U 0.5 W/(m²·K) is the 3CL’s default for that period, not a measure (bare, U
 * 2.5); to be checked on site: the gain of insulating them depends on it". `what` names the
 * works the gain is of, for so many elements ("insulating them", "these works"). Undefined when
 * none.
 */
export function unknownInsulationNote(
  elements: readonly { referenceId: string; area: number; unknown?: UnknownInsulation }[],
  what: (elements: number) => string,
): string | undefined {
  // (elements filed alike at the same U together, their bare U beside it)
  const byKey = new Map<
    string,
    { x: UnknownInsulation; refs: string[]; area: number; bares: number[] }
  >();
  for (const e of elements) {
    const x = e.unknown;
    if (!x) continue;
    const key = `${x.filed}|${fmt(x.u)}|${x.bare === undefined ? 'bare' : 'default'}`;
    const entry = byKey.get(key) ?? { x, refs: [], area: 0, bares: [] };
    entry.refs.push(e.referenceId);
    entry.area += e.area;
    if (x.bare !== undefined) entry.bares.push(x.bare);
    byKey.set(key, entry);
  }
  if (!byKey.size) return undefined;
  return [...byKey.values()]
    .map(
      ({ x, refs, area, bares }) =>
        `${refsText(refs)} (${numberText(area, 1)}\u00a0m²): ${unknownText(x, bares)}; to be checked on site: the gain of ${what(refs.length)} depends on it`,
    )
    .join('. ');
}

/** "walls", "roof slopes"; "a low floor", "a lost attic", "a roof terrace" */
const withArticle = (label: string) => (label.endsWith('s') ? label : `a ${label}`);

/** Why an envelope element is already at the aids' level, or undefined. */
function atLevel(
  category: Category,
  el: RawElement,
  di: Record<string, unknown>,
  site: { zone: string; altitudeId: string },
): string | undefined {
  const kind = opaqueKind(category, el);
  if (kind) {
    const u = ownU(category, di);
    if (u === undefined) return undefined;
    const r = ownResistance(u, kind);
    const lv = OPAQUE_LEVELS[kind];
    if (r < lv.existingR) return undefined;
    const today = rt2018Level(kind, site);
    return r >= today
      ? `already insulated: U ${fmt(u)} W/(m²·K), R ${fmt(r)} (at least the R ${today} the RT for existing buildings has asked of insulation works on ${withArticle(lv.label)} since 2018)`
      : `already insulated: U ${fmt(u)} W/(m²·K), R ${fmt(r)} (at least the R ${lv.existingR} the RT for existing buildings asked of the insulation of ${withArticle(lv.label)} from 2007; works since 2018 must reach R ${today}: left to the auditor)`;
  }
  if (category === 'baie_vitree') {
    const uw = num(di.uw);
    if (uw === undefined) return undefined;
    const sw = num(di.sw);
    const roof = isRoofWindow(el);
    if (!windowNeedsNoWorks(uw, sw, roof)) return undefined;
    if (roof && !windowMeets(uw, sw, true))
      return `a recent roof window (Uw ${fmt(uw)} ≤ ${WINDOW_LEVEL.roofUw}; its Sw ${sw === undefined ? 'unknown' : fmt(sw)}, above ${WINDOW_LEVEL.sheet}'s ${WINDOW_LEVEL.roofSw}, is no reason to replace it)`;
    return `already at the level (Uw ${fmt(uw)}${sw !== undefined ? `, Sw ${fmt(sw)}` : ''}; ${WINDOW_LEVEL.sheet})`;
  }
  if (category === 'porte') {
    const u = num(di.uporte);
    if (u === undefined) return undefined;
    return u <= DOOR_LEVEL.ud ? `already at the level (U ${fmt(u)} ≤ ${DOOR_LEVEL.ud})` : undefined;
  }
  return undefined;
}

/**
 * Why an item needs no works, or none the catalogue can do: its elements' one reason, or, when
 * they part (a floor already insulated beside one that cannot be reached from below), each
 * reason after the elements it concerns, those that cannot be treated first, so that "works
 * needed: yes" is read beside the reason it is not done.
 */
function itemReason(
  mine: readonly {
    referenceId: string;
    description: string;
    status: string;
    reason: string | null;
  }[],
): string {
  const byReason = new Map<string, { refs: string[]; names: string[]; cannot: boolean }>();
  for (const e of mine) {
    if (!e.reason) continue;
    const entry = byReason.get(e.reason) ?? { refs: [], names: [], cannot: e.status === 'cannot' };
    entry.refs.push(e.referenceId);
    entry.names.push(elementLabel(e.referenceId, e.description));
    byReason.set(e.reason, entry);
  }
  if (byReason.size === 0) return 'no works needed';
  if (byReason.size === 1) return [...byReason.keys()][0] as string;
  return [...byReason]
    .sort(([, a], [, b]) => Number(b.cannot) - Number(a.cannot))
    .slice(0, 3)
    .map(
      // up to three elements by the diagnostician's names, more as id ranges (a building's 62
      // windows)
      ([why, { refs, names, cannot }]) =>
        `${refs.length <= 3 ? names.join(', ') : refsText(refs)}: ${cannot ? 'cannot be treated: ' : ''}${why}`,
    )
    .join('; ');
}

/**
 * Element references, short: by category, three or more consecutive indexes as a range
 * ("baie_vitree:0…4, baie_vitree:7, mur:0, mur:1"), so that a building's 62 windows do not fill
 * the reason.
 */
export function refsText(refs: readonly string[]): string {
  const byCategory = new Map<string, number[]>();
  const other: string[] = [];
  for (const r of refs) {
    const [category, index] = r.split(':');
    const i = Number(index);
    if (category === undefined || index === undefined || !Number.isInteger(i)) other.push(r);
    else byCategory.set(category, [...(byCategory.get(category) ?? []), i]);
  }
  const out = [...byCategory].flatMap(([category, list]) =>
    indexRanges(list)
      .split(', ')
      .map((part) => `${category}:${part}`),
  );
  return [...out, ...other].join(', ');
}

/**
 * The engine adapter: the only module that imports @open3cl/engine (GPL-3.0).
 *
 * - Loaded lazily (`loadEngine()`), so commands that do not compute never pay its import (0.3 s bundled, 0.65 s from the modules).
 * - Runs on a deep copy of the parsed DPE (the engine's sanitizer writes into its input).
 * - Captures everything the engine prints (console and its winston logger): nothing reaches
 *   the user's stdout; the messages are returned with the result.
 * - Turns `null`, exceptions and non-finite figures into `EngineFailure` with the reason.
 * - Returns the figures in both electricity-coefficient modes (2026: 1.9, 2025: 2.3).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { DpeSimError } from '../contract/errors.js';
import type { RawDpe, RawEnveloppe, Fields } from '../dpe/raw.js';
import { copyRaw, num, str } from '../dpe/raw.js';
import { sourcePatchHooks } from './source-patches.js';
import { billOf, consumptionOf, LATEST_PRICE_TABLE } from './bills.js';

/** The engine flag mode dpe-sim runs in (measured on the corpus; see README, "Engine"). */
export type EngineFlags = 'default' | 'bug-for-bug';
export const ENGINE_FLAGS: EngineFlags = 'bug-for-bug';

export interface EngineFigures {
  /** primary energy, kWh/yr */
  ep: number;
  /** primary energy per m² (floor of total / surface, as the registry does), kWh/m²/yr */
  epM2: number;
  /** greenhouse-gas emissions, kg CO2e/yr */
  ges: number;
  /** kg CO2e/m²/yr */
  gesM2: number;
  /**
   * annual energy cost, €/yr, at the latest official prices (bills.ts `LATEST_PRICE_TABLE`),
   * priced by dpe-sim from the engine's consumption per energy and use
   */
  cout: number;
  /** final energy, kWh/yr */
  ef: number;
  /**
   * the envelope's losses GV less the air permeability's, W/K (`deperdition_enveloppe − hperm`:
   * walls, floors, roofs, windows, doors, thermal bridges, ventilation), where the engine gave
   * finite ones; read by the scenario search's rows on the envelope's losses, never shown
   */
  gv?: number;
}

export interface EngineResult {
  /** coefficient 1.9 (DPEs from 2026-01-01, `coef2026: activated`) */
  mode2026: EngineFigures;
  /** coefficient 2.3 (before 2026, `coef2026: deactivated`) */
  mode2025: EngineFigures;
  /** the surface the engine divided by, m² */
  surface: number;
  /** the engine's output document (input + rebuilt `logement.sortie`) */
  output: RawDpe;
  /** what the engine printed while computing */
  messages: string[];
}

export class EngineFailure extends DpeSimError {
  constructor(
    message: string,
    readonly engineMessages: string[] = [],
  ) {
    super('blocked', message);
    this.name = 'EngineFailure';
  }
}

export interface ClassLimitsTable {
  dpe: Partial<Record<'A' | 'B' | 'C' | 'D' | 'E' | 'F', number>>;
  ges: Partial<Record<'A' | 'B' | 'C' | 'D' | 'E' | 'F', number>>;
}

/** An `enum_…_id` input the engine's table does not know (`Engine.unknownEnums`). */
export interface UnknownEnum {
  /** where: the element (`baie_vitree[3]`) or the block (`caracteristique_generale`) */
  where: string;
  key: string;
  value: string;
  /** the engine's table (`orientation`) */
  table: string;
}

export interface Engine {
  readonly version: string;
  readonly flags: EngineFlags;
  /** whether the engine's table lookups are memoised (see source-patches.ts) */
  readonly tableMemo: boolean;
  /** whether the engine was loaded from its one-file bundle (open3cl-modules.ts) */
  readonly bundled: boolean;
  /**
   * Runs the 3CL computation on a copy of `dpe` (the engine writes into its input), or on `dpe`
   * itself when the caller hands over a private copy (`owned`). Throws EngineFailure.
   */
  run(dpe: RawDpe, opts?: { owned?: boolean }): EngineResult;
  /** How many times `run` was called in this thread (tests prove the run cache with it). */
  readonly runs: number;
  /** The engine's small-surface class limits for a rounded surface in [3, 40], by altitude class id. */
  smallSurfaceLimits(surface: number, altitudeClassId: string): ClassLimitsTable | undefined;
  /** Label of an enum id in one of the engine's 80 tables (e.g. `type_generateur_ch`). */
  enumLabel(table: string, id: string | number | undefined): string | undefined;
  /**
   * The dwelling's inputs (`logement`) whose `enum_…_id` is not a value of the engine's table of
   * that name: the engine computes them as no value of the method, silently or with NaN.
   */
  unknownEnums(dpe: RawDpe): UnknownEnum[];
  /** The inertia the engine computes from the envelope's elements (`enum_classe_inertie_id`, ...). */
  inertiaOf(env: RawEnveloppe): Fields;
  /** The engine's Q4Pa,conv table (air permeability by period, kind, insulation, joints). */
  q4paConvRows(): readonly Fields[];
  /**
   * The 3CL table row a generator's inputs name (`tv_generateur_combustion_id`, else
   * `tv_rendement_generation_id`): the generator types it lists for `use` and its own name.
   */
  generatorRow(use: 'ch' | 'ecs', inputs: Fields): GeneratorRow | undefined;
}

/** A 3CL generator row: the types it lists ("92|134") and its name. */
export interface GeneratorRow {
  types: string[];
  name: string;
}

interface EngineModule {
  calcul_3cl(dpe: unknown, opts?: { sanitize: boolean }): unknown;
  getVersion(): string;
}
interface UtilsModule {
  set_bug_for_bug_compat(): void;
  /** present when the table-lookup memo below was installed */
  __dpeSimTvMemo?: true;
}
interface TvModule {
  default: {
    dpe_class_limit: Record<string, Record<string, ClassLimitsTable['dpe']>>;
    ges_class_limit: Record<string, Record<string, ClassLimitsTable['ges']>>;
    q4pa_conv: Fields[];
    generateur_combustion: Fields[];
    rendement_generation: Fields[];
  };
}
interface EnumsModule {
  default: Record<string, Record<string, string>>;
}
interface InertieModule {
  Inertie: new () => { calculateInertie(env: unknown): Fields };
}
interface LoggerModule {
  logger: { silent: boolean };
}

let loading: Promise<Engine> | undefined;

/**
 * The engine's two large dependencies (about 1,700 modules together). Once a hook is registered,
 * every module loaded after it makes a round trip to the hooks thread (+1.4 s on this import),
 * so these are loaded first, without the hook; the hook then sees the engine's ~50 own modules.
 * A dependency that does not resolve from here is simply loaded later by the engine itself.
 */
const ENGINE_HEAVY_DEPENDENCIES = ['mathjs', 'lodash-es'];

/**
 * The engine's table lookups are memoised by patches applied to its modules as they load
 * (source-patches.ts): results are unchanged, only repeated scans of constant tables go.
 * Called once per thread, from the engine's one import (`loadEngine`).
 */
async function registerTvMemo(): Promise<void> {
  await Promise.all(
    ENGINE_HEAVY_DEPENDENCIES.map((name) =>
      import(name).then(
        () => undefined,
        () => undefined,
      ),
    ),
  );
  register(`data:text/javascript,${encodeURIComponent(sourcePatchHooks())}`);
}

/**
 * V8's interrupt budget (how much bytecode a function runs between two looks at whether to
 * optimize it) while the engine runs: 4× Node 20's default (67 584). A works search runs the
 * engine's many functions a few hundred times each in a short-lived process; at the default, V8
 * optimizes them early, many before their feedback settles (deoptimized, optimized again), and
 * that compiling costs more than it saves. Measured cold, one process per DPE (`initial`,
 * bench/initial.mjs): 10 to 25% faster on the corpus's largest (2535E0426429Q, 2287E0914527N,
 * 2374E2700849T), faster or the same on small ones; 135 000 and 400 000 do less well. It changes
 * when code is optimized, never what it computes (the figures snapshot is the same). Set for
 * V8 11.3 (Node 20), where it was measured; later V8s (Node 21 on) tier through Maglev first, a
 * different trade-off, and are left at their default. Process-wide, before the engine loads (each
 * thread that loads it sets the same value).
 */
export const ENGINE_INTERRUPT_BUDGET = 270_000;
function tuneTiering(): void {
  if (process.versions.v8.startsWith('11.3.'))
    setFlagsFromString(`--interrupt-budget=${ENGINE_INTERRUPT_BUDGET}`);
}

/** Loads the engine once per thread (0.3 s from the bundle the first time). */
export function loadEngine(): Promise<Engine> {
  loading ??= importEngine();
  return loading;
}

/** The engine modules the adapter uses (open3cl-modules.ts). */
interface EngineModules {
  engine: EngineModule;
  utils: UtilsModule;
  tv: TvModule;
  enums: EnumsModule;
  inertie: InertieModule;
  log: LoggerModule;
  baie: { __dpeSimUgMemoOn?: true };
  sanitizer: { __dpeSimElementMemoKit?: { stats: ElementMemoStats } };
}

/** The element memo's counts (patches/memo/sanitizer.js): replays made and records kept. */
export interface ElementMemoStats {
  replays: number;
  records: number;
}

/** The modules this thread's engine was loaded from. */
let loadedModules: EngineModules | undefined;

/** This thread's element memo counts, once the engine is loaded (the tests ask). */
export function elementMemoStats(): ElementMemoStats | undefined {
  const stats = loadedModules?.sanitizer.__dpeSimElementMemoKit?.stats;
  return stats && { replays: stats.replays, records: stats.records };
}

/** The built bundle, next to this module in dist/ (absent beside the sources). */
const BUNDLE = new URL('./open3cl.bundle.js', import.meta.url);
/** The same bundle as a script (scripts/bundle-engine.mjs), and V8's code cache for it. */
const BUNDLE_SCRIPT = fileURLToPath(new URL('./open3cl.bundle.script.js', import.meta.url));
const CODE_CACHE = fileURLToPath(new URL('./open3cl.bundle.cache', import.meta.url));

/** The build's code cache, or undefined (absent or unreadable: the script compiles without it). */
function codeCache(): Buffer | undefined {
  try {
    return readFileSync(CODE_CACHE);
  } catch {
    return undefined;
  }
}

/** The script the engine was loaded from in this thread, with its code cache's fate. */
let loadedScript: { script: Script; cache: 'accepted' | 'rejected' | 'none' } | undefined;

/**
 * The bundle as a script, compiled with V8's code cache when the build made one: V8 then reads
 * the compiled code of the functions a run needed instead of compiling them again (an engine
 * thread's start: `dpe-sim pre` on the bundled house 227 → 206 ms). A cache V8 does not accept
 * (another Node, other V8 flags, another text) is ignored: the script is compiled as without it.
 * Strict, as the ES module it is made from (scripts/bundle-engine.mjs).
 */
function scriptModules(): EngineModules {
  const cachedData = codeCache();
  const script = new Script(readFileSync(BUNDLE_SCRIPT, 'utf8'), {
    filename: BUNDLE_SCRIPT,
    ...(cachedData ? { cachedData } : {}),
  });
  loadedScript = {
    script,
    cache: !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted',
  };
  const wrapper = script.runInThisContext() as (
    require: NodeJS.Require,
    url: string,
    resolve: (specifier: string) => string,
  ) => EngineModules;
  // the module's `import.meta.url` and `import.meta.resolve` are the ES bundle's
  return wrapper(createRequire(BUNDLE), BUNDLE.href, (specifier) => import.meta.resolve(specifier));
}

/**
 * How this thread compiled the engine: from its script with V8's code cache accepted, rejected
 * (made by another Node or under other flags: compiled as without it) or absent; undefined when
 * the engine was not loaded from the script (the tests ask).
 */
export function engineCodeCacheState(): 'accepted' | 'rejected' | 'none' | undefined {
  return loadedScript?.cache;
}

/**
 * V8's code cache for the engine script as this thread has compiled it so far (after runs, it
 * holds the functions they compiled), for the build to save (scripts/engine-code-cache.mjs);
 * undefined when the engine was not loaded from the script.
 */
export function engineCodeCache(): Buffer | undefined {
  return loadedScript?.script.createCachedData();
}

/**
 * The bundle when it was built (patched at build time: its script form, else the module), else
 * the modules, patched as they load.
 */
async function engineModules(): Promise<{ modules: EngineModules; bundled: boolean }> {
  if (existsSync(BUNDLE_SCRIPT)) return { modules: scriptModules(), bundled: true };
  if (existsSync(fileURLToPath(BUNDLE)))
    return { modules: (await import(BUNDLE.href)) as EngineModules, bundled: true };
  await registerTvMemo();
  return {
    modules: (await import('./open3cl-modules.js')) as unknown as EngineModules,
    bundled: false,
  };
}

async function importEngine(): Promise<Engine> {
  tuneTiering();
  const captured: string[] = [];
  const restore = captureConsole(captured);
  try {
    const { modules, bundled } = await engineModules();
    loadedModules = modules;
    const { engine, utils, tv, enums, inertie, log, baie } = modules;
    // the engine's winston logger writes to stdout: silence it (console output is captured)
    log.logger.silent = true;
    if (ENGINE_FLAGS === 'bug-for-bug') utils.set_bug_for_bug_compat();
    return new OpenEngine(
      engine,
      tv.default,
      enums.default,
      new inertie.Inertie(),
      utils.__dpeSimTvMemo === true && baie.__dpeSimUgMemoOn === true,
      bundled,
    );
  } finally {
    restore();
  }
}

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

function captureConsole(into: string[]): () => void {
  const saved = CONSOLE_METHODS.map((m) => [m, console[m]] as const);
  for (const m of CONSOLE_METHODS) {
    console[m] = (...args: unknown[]) => {
      if (into.length < 200)
        into.push(
          args
            .map((a) => String(a))
            .join(' ')
            .trim(),
        );
    };
  }
  return () => {
    for (const [m, fn] of saved) console[m] = fn;
  };
}

class OpenEngine implements Engine {
  readonly flags = ENGINE_FLAGS;
  readonly version: string;

  constructor(
    private readonly mod: EngineModule,
    private readonly tv: TvModule['default'],
    private readonly enums: EnumsModule['default'],
    private readonly inertia: { calculateInertie(env: unknown): Fields },
    readonly tableMemo: boolean,
    readonly bundled: boolean,
  ) {
    this.version = mod.getVersion();
  }

  runs = 0;

  run(dpe: RawDpe, opts: { owned?: boolean } = {}): EngineResult {
    this.runs++;
    const messages: string[] = [];
    const restore = captureConsole(messages);
    let out: unknown;
    try {
      out = this.mod.calcul_3cl(opts.owned ? dpe : copyRaw(dpe));
    } catch (err) {
      const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      throw new EngineFailure(`the engine failed on this DPE (${reason})`, messages);
    } finally {
      restore();
    }
    if (out === null || typeof out !== 'object') {
      const why = messages.find((m) => m.length > 0) ?? 'no result';
      throw new EngineFailure(`the engine cannot process this DPE: ${why}`, messages);
    }
    const output = out as RawDpe;
    const sortie = output.logement?.sortie;
    const cg = output.logement?.caracteristique_generale;
    const surface = this.surfaceOf(cg);
    const ep = sortie?.ep_conso ?? {};
    const ges = sortie?.emission_ges ?? {};
    const ef = sortie?.ef_conso ?? {};
    const common = {
      ges: ges.emission_ges_5_usages,
      gesM2: ges.emission_ges_5_usages_m2,
      cout: billOf(consumptionOf(output), LATEST_PRICE_TABLE).total,
      ef: ef.conso_5_usages,
    };
    const mode2026 = figures(
      { ep: ep.ep_conso_5_usages, epM2: ep.ep_conso_5_usages_m2, ...common },
      messages,
    );
    const mode2025 = figures(
      { ep: ep.coeff_2_3_ep_conso_5_usages, epM2: ep.coeff_2_3_ep_conso_5_usages_m2, ...common },
      messages,
    );
    if (surface === undefined || surface <= 0) {
      throw new EngineFailure('the DPE has no usable living surface', messages);
    }
    const dep = sortie?.deperdition as
      { deperdition_enveloppe?: unknown; hperm?: unknown } | undefined;
    const gv = Number(dep?.deperdition_enveloppe) - Number(dep?.hperm);
    if (Number.isFinite(gv)) mode2026.gv = mode2025.gv = gv;
    return { mode2026, mode2025, surface, output, messages };
  }

  smallSurfaceLimits(surface: number, altitudeClassId: string): ClassLimitsTable | undefined {
    const altitude = this.enums.classe_altitude?.[altitudeClassId];
    if (!altitude) return undefined;
    const key = String(Math.round(surface));
    const dpe = this.tv.dpe_class_limit[altitude]?.[key];
    const ges = this.tv.ges_class_limit[altitude]?.[key];
    if (!dpe || !ges) return undefined;
    return { dpe, ges };
  }

  enumLabel(table: string, id: string | number | undefined): string | undefined {
    if (id === undefined) return undefined;
    return this.enums[table]?.[String(id)];
  }

  unknownEnums(dpe: RawDpe): UnknownEnum[] {
    const out: UnknownEnum[] = [];
    // where an input is: its element (`installation_chauffage[0] generateur_chauffage[1]`) or its
    // block (`caracteristique_generale`); collections, `enveloppe` and the data blocks are passed
    const through = (key: string) =>
      key.endsWith('_collection') ||
      key === 'enveloppe' ||
      key === 'donnee_entree' ||
      key === 'donnee_intermediaire';
    const walk = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
        const m = /^enum_(.+)_id$/.exec(key);
        if (m && (typeof value === 'string' || typeof value === 'number')) {
          const table = this.enums[m[1] as string];
          // (an empty value is a missing one, not an unknown one; a table the engine lacks, as
          // `etat_composant`, is not its to judge)
          if (table && value !== '' && !(String(value) in table))
            out.push({ where, key, value: String(value), table: m[1] as string });
        } else if (Array.isArray(value))
          value.forEach((x, i) => walk(x, `${where ? `${where} ` : ''}${key}[${i}]`));
        else if (through(key)) walk(value, where);
        else walk(value, where || key);
      }
    };
    walk(dpe.logement, '');
    return out;
  }

  /** The surface the engine divides by: the building's for whole-building DPEs, else the dwelling's. */
  private surfaceOf(cg: Fields | undefined): number | undefined {
    if (!cg) return undefined;
    const method =
      this.enumLabel('methode_application_dpe_log', str(cg.enum_methode_application_dpe_log_id)) ??
      '';
    const building =
      !method.includes('maison') && !method.includes('appartement') && method.includes('immeuble');
    return num(building ? cg.surface_habitable_immeuble : cg.surface_habitable_logement);
  }

  q4paConvRows(): readonly Fields[] {
    return this.tv.q4pa_conv;
  }

  generatorRow(use: 'ch' | 'ecs', inputs: Fields): GeneratorRow | undefined {
    const field = `enum_type_generateur_${use}_id`;
    const row = (table: Fields[], key: string): Fields | undefined => {
      const id = str(inputs[key]);
      return id ? table.find((r) => str(r[key]) === id) : undefined;
    };
    const comb = row(this.tv.generateur_combustion, 'tv_generateur_combustion_id');
    const rend = comb ? undefined : row(this.tv.rendement_generation, 'tv_rendement_generation_id');
    const r = comb ?? rend;
    const types = str(r?.[field]);
    if (!r || !types) return undefined;
    const name = str(comb ? r.type_generateur : r.type_generateur_ch) ?? '';
    return { types: types.split('|'), name: name.replace(/\s+/g, ' ').trim() };
  }

  inertiaOf(env: RawEnveloppe): Fields {
    const restore = captureConsole([]);
    try {
      return this.inertia.calculateInertie(env);
    } finally {
      restore();
    }
  }
}

function figures(
  raw: Record<Exclude<keyof EngineFigures, 'gv'>, unknown>,
  messages: string[],
): EngineFigures {
  const out = {} as EngineFigures;
  for (const [k, v] of Object.entries(raw) as [Exclude<keyof EngineFigures, 'gv'>, unknown][]) {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new EngineFailure(
        `the engine produced a non-numeric ${k} (${String(v)}) for this DPE`,
        messages,
      );
    }
    out[k] = v;
  }
  return out;
}

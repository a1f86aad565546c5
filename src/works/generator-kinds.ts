/**
 * The names recipes and generators share: which generator a heating or hot-water option
 * installs, and whether a recipe applies. Apart from both so that neither imports the other.
 */
export type HeatingGenerator =
  | 'pac-air-eau'
  | 'pac-air-eau-ecs'
  | 'gaz-condensation'
  | 'granules'
  | 'pac-air-air'
  | 'pac-air-air-appareils'
  | 'poele-granules'
  | 'radiateurs-nf'
  | 'gaz-condensation-collective'
  | 'pac-air-eau-collective';
export type HotWaterGenerator =
  'cet' | 'cet-exterieur' | 'ballon-electrique' | 'cesi' | 'pac-ecs-collective';

/** `true` when the recipe makes sense on the element, else the reason it is not offered. */
export type Applicability = true | string;

/**
 * The reasons that say only that an option is for another kind of installation (individual or
 * collective): where an installation has a reason of its own, that one says why, and these are
 * noise (`refusalsOn`, what an audit's item says).
 */
export const OTHER_KIND = {
  boilerRoom:
    'a collective boiler room replaces a collective installation (not an individual one, nor a district network)',
  individualHeating: 'only individual heating installations can be replaced',
  // (a collective base + appoint installation, §9.8: its base is the building's)
  baseAppointIndividual:
    'a collective base + appoint installation: a collective option replaces its base, its individual appoint is kept',
  individualHotWater: 'only individual hot-water installations can be replaced',
  collectiveHotWater: 'a collective hot-water heat pump replaces a building’s hot-water production',
  collectiveNetwork:
    'offered on collective installations (a building’s boiler room or district heating)',
  // (the air/air heat pump for independent fossil heaters: said only of an installation with
  // nothing else to say, not beside an electric installation's own reason)
  roomHeaters: 'no independent gas, fuel-oil or coal heaters to replace',
  // (the pellet stove: the same, for wood stoves, inserts, closed hearths and cookers)
  woodStoves: 'no wood stove, insert or cooker to replace',
} as const;
export const OTHER_KIND_REFUSALS: ReadonlySet<string> = new Set(Object.values(OTHER_KIND));

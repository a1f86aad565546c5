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
  | 'radiateurs-nf'
  | 'gaz-condensation-collective'
  | 'pac-air-eau-collective';
export type HotWaterGenerator = 'cet' | 'cet-exterieur' | 'ballon-electrique' | 'cesi';

/** `true` when the recipe makes sense on the element, else the reason it is not offered. */
export type Applicability = true | string;

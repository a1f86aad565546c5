/**
 * The parts of `initial`'s screen (`--show`, `--all`), apart from the renderer so that the
 * command's flags (and `--help`) load no table code. The default ones fit a screen for a house.
 */
export const INITIAL_SECTIONS = [
  'label',
  'summary',
  'options',
  'scenarios',
  'packs',
  'alerts',
  'facts',
  'calculation',
  'elements',
] as const;
export type InitialSection = (typeof INITIAL_SECTIONS)[number];
/** ≤ 60 lines at 100 columns on a house, a flat, a building (the packs: one line, --show packs). */
export const DEFAULT_INITIAL_SECTIONS: readonly InitialSection[] = [
  'label',
  'summary',
  'options',
  'scenarios',
  'alerts',
];

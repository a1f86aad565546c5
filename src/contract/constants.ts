/**
 * The plain values of the contract (patterns, categories) that the CLI and the engine side use
 * at run time, apart from the schemas: importing them does not load TypeBox (about 200 ms of
 * module loading that a local `pre` or `calc` does not need). `schemas.ts` builds on them.
 */
export const DPE_ID_PATTERN = '^[0-9]{4}E[0-9]{7}[A-Z]$';
export const DPE_ID_REGEX = new RegExp(DPE_ID_PATTERN);
/** customerId / userId must not contain ':' */
export const NO_COLON_PATTERN = '^[^:]+$';

/** Login token validity: 1 minute to 24 hours (the spec leaves the maximum open). */
export const EXPIRE_MAX_MINUTES = 1440;

/** The longest identity field accepted (customerId, userId, userName, customerName). */
export const IDENTITY_MAX_LENGTH = 256;

export const COEF_MODES = ['activated', 'deactivated'] as const;

/**
 * The electricity primary-energy coefficient of the DPE method before 2026-01-01 (mode 2025,
 * `coef2026: deactivated`) and from then on (mode 2026, `activated`).
 */
export const COEF_2025 = 2.3;
export const COEF_2026 = 1.9;
export const COEF_2026_SINCE = '2026-01-01';

/** The electricity coefficient of a coefficient mode. */
export function coefOf(mode: (typeof COEF_MODES)[number]): number {
  return mode === 'activated' ? COEF_2026 : COEF_2025;
}

/**
 * The date of the energy prices the bills a user is shown are computed with (`cout_5_usages`,
 * `economieAnnuelle`, the return on investment): the latest official table of the DPE method
 * (src/engine/bills.ts `LATEST_PRICE_TABLE`, docs/bills.md). The comparison with the registry
 * prices at the table of the DPE's own date instead.
 */
export const ENERGY_PRICES_SINCE = '2024-07-01';

/** The element categories of the DPE structure, in the order of the partner API. */
export const CATEGORIES = [
  'mur',
  'baie_vitree',
  'plancher_bas',
  'plancher_haut',
  'installation_chauffage',
  'installation_ecs',
  'ventilation',
  'porte',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** A works reference: `<category>:<index>`, e.g. `mur:0`. */
export const REFERENCE_ID_REGEX = new RegExp(`^(${CATEGORIES.join('|')}):[0-9]+$`);

/**
 * The largest DPE XML dpe-sim reads (10 MiB; the corpus's largest is about 1 MB): a file, stdin,
 * a batch item or the registry's answer beyond it is refused before it is parsed (exit 2).
 */
export const MAX_DPE_XML_BYTES = 10 * 1024 * 1024;

/** Sizes as people read them: bytes, KiB or MiB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1).replace(/\.0$/, '')} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
}

/**
 * How an audit's per-dwelling cost and its synthesis's aids are written, the same in the terminal,
 * the report, the PDF and the workbench (pure text from the response; the caller's euro format).
 */

/** " (11 058 € per dwelling)": a whole building's path cost shared by its dwellings; else empty. */
export function perDwellingText(p: { costPerDwelling?: number }, euros: (x: number) => string) {
  return p.costPerDwelling === undefined ? '' : ` (${euros(p.costPerDwelling)} per dwelling)`;
}

/**
 * A synthesis row's MaPrimeRénov' cell, in parts: the step's own range, and on a path's last step
 * the path's as one application ("path 4 000 €–32 000 €") when its steps alone claim other.
 */
export function synthesisAids(
  r: { aidsMin: number; aidsMax: number; pathAidsMin?: number; pathAidsMax?: number },
  euros: (x: number) => string,
  dash = '–',
): string[] {
  const own = r.aidsMax > 0 ? `${euros(r.aidsMin)}${dash}${euros(r.aidsMax)}` : '';
  const path =
    r.pathAidsMax !== undefined && r.pathAidsMax > 0
      ? `${euros(r.pathAidsMin ?? 0)}${dash}${euros(r.pathAidsMax)}`
      : '';
  return [own, ...(path && path !== own ? [`path ${path}`] : [])].filter((x) => x !== '');
}

/**
 * A works line's quantity that is not an area: "1 unit", "3 units" (a whole building's water
 * heaters, one a dwelling), the same in the terminal, the report, the PDF and the workbench
 * (the response's `unit` says "installation": a count of appliances or installations).
 */
export function unitsText(quantity: number, num: (x: number) => string): string {
  return `${num(quantity)}\u00a0unit${quantity > 1 ? 's' : ''}`;
}

/**
 * The one way dpe-sim writes a number for people, in the terminal, in messages, in the texts of
 * a response (`coutDetail`) and on the login page: digits grouped by three with a narrow
 * no-break space (U+202F), a decimal point — "36 353", "1.28", "−2.3" — the convention of
 * ISO 80000-1 and of the SI brochure, read the same by French and English readers (the labels
 * are English). The grouping space never breaks, so a table never splits a figure.
 * `--json` numbers are raw numbers and never go through here.
 */

/** narrow no-break space, between groups of three digits */
export const GROUP = '\u202f';

const formats = new Map<string, Intl.NumberFormat>();
function nf(digits: number, signed: boolean): Intl.NumberFormat {
  const key = `${digits}:${signed}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      maximumFractionDigits: digits,
      minimumFractionDigits: 0,
      ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
    });
    formats.set(key, f);
  }
  return f;
}

/**
 * 36353 → "36 353"; 182.46 with 1 digit → "182.5"; signed: "+4.5", "−2.3" (a true minus sign);
 * −0 after rounding is "0".
 */
export function numberText(x: number, digits = 0, signed = false): string {
  const text = nf(digits, signed).format(x).replace(/,/g, GROUP).replace('-', '−');
  return text === '−0' ? '0' : text;
}

/**
 * A percentage for people, one way everywhere (tables, alert texts, messages): the number as
 * above and a no-break space (U+00A0) before `%` — "−7.6 %", "+4.5 %", "38 %".
 */
export function percentText(x: number, digits = 0, signed = false): string {
  return `${numberText(x, digits, signed)}\u00a0%`;
}

/**
 * A step's bill change, from what it saves: "−1 359 €/yr" when the bill falls, "+442 €/yr" when
 * it rises (a heat pump's electricity in place of coal, 2359E2800645M), "0 €/yr": one sign
 * everywhere, never a saving of "−442" printed after a minus. "–" when there is none.
 */
export function billChangeText(saved: number | null | undefined): string {
  if (saved === null || saved === undefined || !Number.isFinite(saved)) return '–';
  return `${numberText(-Math.round(saved), 0, true)}\u00a0€/yr`;
}

/**
 * The saving shown beside the bills before and after: when `economieAnnuelle` is their difference
 * (to rounding), the difference of the bills as shown, so the table adds up (3 711 − 1 752 =
 * 1 959, where 3 710.80 − 1 752.42 rounds to 1 958); a service's other figure as it is.
 */
export function billSavedShown(
  cout: { VInit: number | null; value: number | null } | undefined,
  economieAnnuelle: number,
): number {
  const before = cout?.VInit;
  const after = cout?.value;
  if (typeof before !== 'number' || typeof after !== 'number') return economieAnnuelle;
  if (!Number.isFinite(before) || !Number.isFinite(after)) return economieAnnuelle;
  return Math.abs(before - after - economieAnnuelle) < 0.5
    ? Math.round(before) - Math.round(after)
    : economieAnnuelle;
}

/**
 * Element indexes, three or more consecutive ones as a range: "0…2, 6…8, 10…13" (ten windows,
 * not "0…13", which would claim fourteen). The audit's reasons (`refsText`) and the terminal's
 * grouped works lines both write them so.
 */
export function indexRanges(indexes: readonly number[]): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let k = 0; k < sorted.length;) {
    let end = k;
    while (end + 1 < sorted.length && sorted[end + 1] === (sorted[end] as number) + 1) end++;
    if (end - k >= 2) out.push(`${sorted[k]}…${sorted[end]}`);
    else for (let j = k; j <= end; j++) out.push(String(sorted[j]));
    k = end + 1;
  }
  return out.join(', ');
}

/** "a", "a and b", "a, b and c" */
export function listText(xs: readonly string[]): string {
  return xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}` : (xs[0] ?? '');
}

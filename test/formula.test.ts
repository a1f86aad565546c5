/**
 * src/engine/formula.ts, the evaluator the engine bundle uses in place of mathjs, gives the
 * same value as mathjs (the engine's own dependency, loaded here as the engine loads it) for
 * every formula of the engine's boiler table, for a range of Pn and both flue kinds (E, F),
 * to the last bit; outside the real numbers it hands the call to mathjs itself.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { tvs } from '@open3cl/engine/tv.js';
import { evaluate, isCompiled } from '../src/engine/formula.js';

const mathjs = createRequire(import.meta.resolve('@open3cl/engine'))('mathjs') as {
  evaluate: (expr: string, scope: Map<string, unknown>) => unknown;
  compile: (expr: string) => { evaluate: (scope: Map<string, unknown>) => unknown };
};

/** The formulas as 13.2_generateur_combustion.js evaluates them: the columns that are not numbers. */
const rows = (tvs as unknown as Record<string, Record<string, string | undefined>[]>)
  .generateur_combustion!;
const FORMULAS = [
  ...new Set(
    rows.flatMap((row) =>
      ['rpn', 'rpint', 'qp0_perc']
        .map((k) => row[k])
        .filter((v): v is string => typeof v === 'string' && v !== '' && isNaN(Number(v))),
    ),
  ),
];

/** Pn in kW as the engine passes it (pn / ratio / 1000): round values, fractions, extremes. */
function pnRange(): number[] {
  const out = [0, -0, 1e-9, 0.001, 0.5, 1, 4, 24, 24.5, 70, 400, 1000, 5000, 1e6, Infinity];
  for (let kw = 1; kw <= 2000; kw += 1) out.push(kw, kw / 7);
  let seed = 42;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out.push((seed / 2 ** 31) * 3000);
  }
  // as the engine computes it: a W figure over a virtualisation ratio, then / 1000
  for (const pn of [18000, 24000, 35000, 123456])
    for (const r of [1, 0.37, 0.05]) out.push(pn / r / 1000);
  return out;
}

const FLUES: [number | undefined, number | undefined][] = [
  [2.5, -0.8],
  [1.75, -0.55],
];

const scope = (pn: number, E: unknown, F: unknown) =>
  new Map<string, unknown>([
    ['Pn', pn],
    ['E', E],
    ['F', F],
  ]);

function outcome(f: () => unknown): unknown {
  try {
    const v = f();
    return typeof v === 'number' ? v : String(v);
  } catch (err) {
    return `throws ${(err as Error).message}`;
  }
}

describe('the formula evaluator of the engine bundle', () => {
  it('reads every formula of the boiler table without mathjs', () => {
    // the table's formulas: log10 of Pn, percentages, powers of Pn, the flue terms E and F
    expect(FORMULAS.length).toBeGreaterThanOrEqual(30);
    expect(FORMULAS).toContain('Pn*(E+F*log10(Pn))/100');
    expect(FORMULAS).toContain('0.08*Pn*(Pn)^-0.27');
    expect(FORMULAS).toContain('1.50%');
    expect(FORMULAS.filter((f) => !isCompiled(f))).toEqual([]);
  });

  it('gives the same doubles as mathjs on every formula, for every Pn and flue', () => {
    const pns = pnRange();
    let compared = 0;
    const differ: string[] = [];
    for (const formula of FORMULAS) {
      // mathjs's evaluate() is parse, compile and evaluate: compiled once here, for speed
      const compiled = mathjs.compile(formula);
      for (const [E, F] of FLUES) {
        for (const pn of pns) {
          const ours = evaluate(formula, scope(pn, E, F));
          const theirs = compiled.evaluate(scope(pn, E, F));
          compared++;
          if (!Object.is(ours, theirs))
            differ.push(`${formula} Pn=${pn} E=${E}: ${ours} ≠ ${String(theirs)}`);
        }
      }
    }
    expect(differ.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(FORMULAS.length * 2 * 6000);
  });

  it('leaves to mathjs what is not real: a negative or NaN Pn, a flue that is not a number', () => {
    for (const formula of FORMULAS) {
      for (const pn of [-1, -0.5, -24, NaN, -Infinity]) {
        for (const [E, F] of [...FLUES, [undefined, undefined]]) {
          const ours = outcome(() => evaluate(formula, scope(pn, E, F)));
          const theirs = outcome(() => mathjs.evaluate(formula, scope(pn, E, F)));
          expect(ours, `${formula} Pn=${pn} E=${E}`).toEqual(theirs);
        }
      }
    }
    // e.g. mathjs's complex result, which the engine then divides: a string, not a number
    expect(outcome(() => evaluate('84+2*log10(Pn)', scope(-1, 2.5, -0.8)))).toMatch(/i$/);
    expect(
      outcome(() => evaluate('Pn*(E+F*log10(Pn))/100', scope(24, undefined, undefined))),
    ).toMatch(/^throws Unexpected type of argument/);
  });

  it('keeps mathjs precedence on what the table could add', () => {
    for (const formula of [
      '-2^2',
      '2^-1^2',
      '2^3^2',
      '8/4/2',
      '10-4-3',
      '+3%',
      '50% * 2',
      '(1+2)*3',
      ' 4 % ',
    ]) {
      expect(isCompiled(formula), formula).toBe(true);
      expect(evaluate(formula, new Map()), formula).toBe(mathjs.evaluate(formula, new Map()));
    }
    // outside the grammar (modulo, implicit multiplication, other functions): mathjs answers
    for (const formula of ['7 % 4', '2Pn', 'sqrt(Pn)', 'Pn == 2']) {
      expect(isCompiled(formula), formula).toBe(false);
      expect(outcome(() => evaluate(formula, scope(4, 2.5, -0.8)))).toEqual(
        outcome(() => mathjs.evaluate(formula, scope(4, 2.5, -0.8))),
      );
    }
  });
});

/**
 * The engine's one use of mathjs, without mathjs: `evaluate(formula, scope)` of the short
 * formulas of its boiler table (`generateur_combustion`: `84+2*log10(Pn)`, `4%`,
 * `Pn*(E+F*log10(Pn))/100`, `0.08*Pn*(Pn)^-0.27`, …), called by `13.2_generateur_combustion.js`.
 * The engine bundle (scripts/bundle-engine.mjs) maps the engine's `import … from 'mathjs'` to
 * this module: building mathjs's typed functions was most of the bundle's load time.
 *
 * The grammar is mathjs's own for what the table uses, with its precedence: `+ -` below
 * `* /` below postfix `%` (x / 100) below unary `- +` below `^` (right-associative, its right
 * side a unary: `Pn^-0.27`); numbers, the scope's variables, `log10(…)` and parentheses. The
 * arithmetic is mathjs's on plain numbers (`a + b`, `a * b`, `Math.pow`, `Math.log10`), in the
 * same order, so the results are the same doubles (test/formula.test.ts checks every formula
 * of the table against mathjs over a range of Pn).
 *
 * Where mathjs would leave real numbers (the log or a fractional power of a negative or NaN
 * value: a complex result), for a variable that is not a number, or a formula outside this
 * grammar, the call goes to mathjs itself, loaded then from the engine's own dependency; no
 * DPE of the table's domain (Pn ≥ 0) takes that road.
 */
import { createRequire } from 'node:module';

type Scope = ReadonlyMap<string, unknown>;
type Compiled = (scope: Scope) => number;

/** Thrown by a compiled formula when mathjs's result would not be a real number. */
class LeaveReals extends Error {}

const cache = new Map<string, Compiled | null>();

/** mathjs's `evaluate(expr, scope)` for the engine's table formulas. */
export function evaluate(expr: string, scope: Scope): unknown {
  let compiled = cache.get(expr);
  if (compiled === undefined) {
    compiled = compile(expr);
    cache.set(expr, compiled);
  }
  if (compiled) {
    try {
      return compiled(scope);
    } catch (err) {
      if (!(err instanceof LeaveReals)) throw err;
    }
  }
  return mathjs().evaluate(expr, scope);
}

/** The formula as a function of its scope, or null outside the grammar (mathjs then). */
export function compile(expr: string): Compiled | null {
  try {
    return new Parser(expr).parse();
  } catch {
    return null;
  }
}

/** Whether a formula is within the grammar here (the test's check that mathjs is never needed). */
export function isCompiled(expr: string): boolean {
  return compile(expr) !== null;
}

let loaded: { evaluate: (expr: string, scope: Scope) => unknown } | undefined;
/** mathjs, from where the engine finds it (the rare road above). */
function mathjs() {
  if (!loaded) {
    const require = createRequire(import.meta.resolve('@open3cl/engine'));
    loaded = require('mathjs') as typeof loaded;
  }
  return loaded!;
}

const TOKEN =
  /\s*(?:(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z_0-9]*)|([-+*/^%()]))/y;

class Parser {
  private readonly tokens: { num?: number; name?: string; op?: string }[] = [];
  private at = 0;

  constructor(expr: string) {
    const text = expr.trimEnd();
    TOKEN.lastIndex = 0;
    while (TOKEN.lastIndex < text.length) {
      const m = TOKEN.exec(text);
      if (!m) throw new Error('outside the grammar');
      if (m[1] !== undefined) this.tokens.push({ num: Number(m[1]) });
      else if (m[2] !== undefined) this.tokens.push({ name: m[2] });
      else this.tokens.push({ op: m[3] });
    }
  }

  parse(): Compiled {
    const f = this.addSubtract();
    if (this.at !== this.tokens.length) throw new Error('trailing tokens');
    return f;
  }

  private op(): string | undefined {
    return this.tokens[this.at]?.op;
  }

  private addSubtract(): Compiled {
    let left = this.multiplyDivide();
    for (let op = this.op(); op === '+' || op === '-'; op = this.op()) {
      this.at++;
      const a = left;
      const b = this.multiplyDivide();
      left = op === '+' ? (s) => a(s) + b(s) : (s) => a(s) - b(s);
    }
    return left;
  }

  private multiplyDivide(): Compiled {
    let left = this.percentage();
    for (let op = this.op(); op === '*' || op === '/'; op = this.op()) {
      this.at++;
      const a = left;
      const b = this.percentage();
      left = op === '*' ? (s) => a(s) * b(s) : (s) => a(s) / b(s);
    }
    return left;
  }

  /** Postfix `%` (x / 100) when nothing that could be a right operand follows (else modulo: unsupported). */
  private percentage(): Compiled {
    const node = this.unary();
    if (this.op() === '%') {
      const next = this.tokens[this.at + 1];
      if (
        next &&
        (next.num !== undefined ||
          next.name !== undefined ||
          next.op === '(' ||
          next.op === '-' ||
          next.op === '+')
      )
        throw new Error('modulo');
      this.at++;
      return (s) => node(s) / 100;
    }
    return node;
  }

  private unary(): Compiled {
    const op = this.op();
    if (op === '-') {
      this.at++;
      const a = this.unary();
      return (s) => -a(s);
    }
    if (op === '+') {
      this.at++;
      return this.unary();
    }
    return this.pow();
  }

  private pow(): Compiled {
    const base = this.primary();
    if (this.op() !== '^') return base;
    this.at++;
    const exponent = this.unary();
    return (s) => {
      const x = base(s);
      const y = exponent(s);
      // mathjs: a complex result for a negative (or NaN) base and a non-integer exponent
      if (!(Number.isFinite(y) && y === Math.round(y)) && !(x >= 0)) throw new LeaveReals();
      // mathjs's powNumber
      if ((x * x < 1 && y === Infinity) || (x * x > 1 && y === -Infinity)) return 0;
      return Math.pow(x, y);
    };
  }

  private primary(): Compiled {
    const t = this.tokens[this.at++];
    if (!t) throw new Error('end of formula');
    if (t.num !== undefined) {
      const v = t.num;
      return () => v;
    }
    if (t.op === '(') {
      const inner = this.addSubtract();
      if (this.tokens[this.at++]?.op !== ')') throw new Error('missing )');
      return inner;
    }
    if (t.name === 'log10' && this.op() === '(') {
      this.at++;
      const arg = this.addSubtract();
      if (this.tokens[this.at++]?.op !== ')') throw new Error('missing )');
      return (s) => {
        const x = arg(s);
        // mathjs: a complex result below 0 (and for NaN)
        if (!(x >= 0)) throw new LeaveReals();
        return Math.log10(x);
      };
    }
    if (t.name !== undefined && t.name !== 'log10') {
      const name = t.name;
      return (s) => {
        const v = s.get(name);
        if (typeof v !== 'number') throw new LeaveReals();
        return v;
      };
    }
    throw new Error('unexpected token');
  }
}

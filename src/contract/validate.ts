/**
 * Validation at the edges: one function turns an unknown value into a typed body or a
 * DpeSimError whose message says what is wrong, in terms a caller can act on.
 */
import type { TSchema, Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { DpeSimError } from './errors.js';
import { COEF_MODES, DPE_ID_PATTERN } from './schemas.js';

type Validator<T extends TSchema> = ReturnType<typeof Compile<T>>;
const cache = new WeakMap<TSchema, Validator<TSchema>>();

function validatorFor<T extends TSchema>(schema: T): Validator<T> {
  let v = cache.get(schema);
  if (!v) {
    v = Compile(schema);
    cache.set(schema, v);
  }
  return v as unknown as Validator<T>;
}

interface SchemaIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** Field path as a reader writes it: `query.coef2026`, `params.editablesChanges[0].referenceId`. */
function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('');
}

function describe(issue: SchemaIssue, where: string): string {
  const field = fieldName(issue.instancePath);
  const at = field ? `'${field}'` : where;
  switch (issue.keyword) {
    case 'required': {
      const props = (issue.params.requiredProperties as string[] | undefined) ?? [];
      const prefix = field ? `${field}.` : '';
      return `missing required field ${props.map((p) => `'${prefix}${p}'`).join(', ')}`;
    }
    case 'pattern': {
      const pattern = String(issue.params.pattern);
      if (pattern === DPE_ID_PATTERN)
        return `${at} must be a DPE number matching ${DPE_ID_PATTERN} (e.g. 2345E0123456A)`;
      if (pattern === '^[^:]+$') return `${at} must not contain ':'`;
      return `${at} must match ${pattern}`;
    }
    case 'anyOf':
    case 'const':
      if (field.endsWith('coef2026'))
        return `${at} must be one of ${COEF_MODES.map((m) => `'${m}'`).join(', ')}`;
      return `${at} has a value that is not allowed`;
    case 'additionalProperties':
      return `${at} has an unknown field '${String(issue.params.additionalProperties)}'`;
    default:
      return `${at} ${issue.message}`;
  }
}

/** Returns the value typed as the schema, or throws an `invalid-input` DpeSimError. */
export function parseBody<T extends TSchema>(schema: T, value: unknown, where = 'body'): Static<T> {
  const v = validatorFor(schema);
  if (v.Check(value)) return value as Static<T>;
  const issues = [...v.Errors(value)] as SchemaIssue[];
  // The most useful issue first: a required field, then the deepest path.
  const anyOfPaths = new Set(
    issues.filter((i) => i.keyword === 'anyOf').map((i) => i.instancePath),
  );
  const meaningful = issues.filter(
    (i) => !(i.keyword === 'const' && anyOfPaths.has(i.instancePath)),
  );
  const first = meaningful.find((i) => i.keyword === 'required') ?? meaningful[0] ?? issues[0];
  const message = first ? describe(first, where) : `${where} is not valid`;
  throw new DpeSimError('invalid-input', message, {
    issues: meaningful.map((i) => ({ field: fieldName(i.instancePath), problem: i.message })),
  });
}

export function isValid<T extends TSchema>(schema: T, value: unknown): value is Static<T> {
  return validatorFor(schema).Check(value);
}

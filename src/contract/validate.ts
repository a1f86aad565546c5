/**
 * Validation at the edges: one function turns an unknown value into a typed body or a
 * DpeSimError whose message says what is wrong, in terms a caller can act on.
 */
import type { TSchema, Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { didYouMean } from './did-you-mean.js';
import { DpeSimError } from './errors.js';
import {
  COEF_MODES,
  DPE_ID_PATTERN,
  ID_PATTERN,
  ISO_TIME_PATTERN,
  NO_CONTROL_PATTERN,
} from './schemas.js';

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
  schemaPath?: string;
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

/** The sub-schema a JSON pointer (`#/properties/params`) names inside `root`. */
function schemaAt(root: TSchema, pointer: string | undefined): Record<string, unknown> | undefined {
  let node: unknown = root;
  for (const part of (pointer ?? '#').replace(/^#\/?/, '').split('/').filter(Boolean)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node !== null && typeof node === 'object' ? (node as Record<string, unknown>) : undefined;
}

/** Keys that can reach an object's prototype: refused wherever they appear, and said so. */
export const POISON_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

interface Described {
  message: string;
  details?: Record<string, unknown>;
}

function describeUnknown(issue: SchemaIssue, root: TSchema, where: string): Described {
  const field = fieldName(issue.instancePath);
  const names = (issue.params.additionalProperties as string[] | undefined) ?? [];
  const name = names[0] ?? '?';
  const path = field ? `${field}.${name}` : name;
  const sub = schemaAt(root, issue.schemaPath);
  const known = Object.keys((sub?.properties as Record<string, unknown> | undefined) ?? {});
  if ((POISON_KEYS as readonly string[]).includes(name)) {
    return {
      message: `'${path}': a '${name}' key is refused (it could alter object prototypes)`,
      details: { field: path, value: name },
    };
  }
  const hint = didYouMean(name, known);
  const suffix = hint ? `; did you mean '${field ? `${field}.` : ''}${hint}'?` : '';
  return {
    message: `unknown field '${path}' in the ${where}${suffix} Known fields${field ? ` of '${field}'` : ''}: ${known.join(', ')}`,
    details: {
      field: path,
      allowed: known,
      ...(hint ? { didYouMean: `${field ? `${field}.` : ''}${hint}` } : {}),
    },
  };
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
      if (pattern === ID_PATTERN)
        return `${at} must not contain ':' or control characters (NUL, CR, LF, tab...)`;
      if (pattern === NO_CONTROL_PATTERN)
        return `${at} must not contain control characters (NUL, CR, LF, tab...)`;
      if (pattern === ISO_TIME_PATTERN)
        return `${at} must be an ISO 8601 date (2025-01-31) or date-time (2025-01-31T08:00:00Z)`;
      return `${at} must match ${pattern}`;
    }
    case 'anyOf':
    case 'const':
      if (field.endsWith('coef2026'))
        return `${at} must be one of ${COEF_MODES.map((m) => `'${m}'`).join(', ')}`;
      return `${at} has a value that is not allowed`;
    case 'maxLength':
      return `${at} is too long: at most ${String(issue.params.limit)} characters`;
    case 'minLength':
      return `${at} must not be empty`;
    case 'maximum':
    case 'minimum': {
      const range = field.endsWith('expireInMinutes') ? ' (an integer from 1 to 1440)' : '';
      return `${at} ${issue.message}${range}`;
    }
    case 'type':
      if (field.endsWith('expireInMinutes'))
        return `${at} must be an integer from 1 to 1440 (minutes)`;
      return `${at} ${issue.message}`;
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
    (i) =>
      !(i.keyword === 'const' && anyOfPaths.has(i.instancePath)) &&
      // "schema is false": the additionalProperties issue of the same object says it better
      !(i.keyword === 'boolean' && i.schemaPath?.endsWith('/additionalProperties')),
  );
  // An unknown field first (it may be a misspelt one whose absence causes the rest), then a
  // required field, then the deepest path.
  const first =
    meaningful.find((i) => i.keyword === 'additionalProperties') ??
    meaningful.find((i) => i.keyword === 'required') ??
    meaningful[0] ??
    issues[0];
  const described: Described =
    first?.keyword === 'additionalProperties'
      ? describeUnknown(first, schema, where)
      : { message: first ? describe(first, where) : `${where} is not valid` };
  throw new DpeSimError('invalid-input', described.message, {
    ...(first && first.keyword !== 'additionalProperties' && fieldName(first.instancePath)
      ? { field: fieldName(first.instancePath) }
      : {}),
    ...described.details,
    issues: meaningful.map((i) => ({ field: fieldName(i.instancePath), problem: i.message })),
  });
}

export function isValid<T extends TSchema>(schema: T, value: unknown): value is Static<T> {
  return validatorFor(schema).Check(value);
}

/**
 * Copies of their own of the frozen original's elements that a works copy shares
 * (works-copy.ts), for the works that write into them.
 */
import type { RawElement } from '../dpe/raw.js';
import { copyRaw } from '../dpe/raw.js';
import { entryOf } from './memo.js';

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

/**
 * A frozen element met again and again (the original's, shared by every works copy): from its
 * second copy on, a function that returns a new copy of it (a literal compiled once: about 4×
 * faster than rfdc), or null when it cannot be written as one; 1 after its first copy.
 */
const copiers = new WeakMap<object, 1 | (() => unknown) | null>();

/**
 * `v` as the text of a literal giving a copy equal to `copyRaw(v)`, when everything in it is
 * frozen plain data (objects of Object's prototype without a `__proto__` key, arrays without
 * holes or other keys, data properties; strings, numbers, booleans, null, undefined); else
 * undefined.
 */
function literalOf(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Object.is(v, -0) ? '-0' : String(v);
    case 'boolean':
      return String(v);
    case 'undefined':
      return 'void 0';
    case 'object': {
      if (v === null) return 'null';
      if (!Object.isFrozen(v)) return undefined;
      const proto: unknown = Object.getPrototypeOf(v);
      const keys = Object.keys(v);
      const parts: string[] = [];
      if (Array.isArray(v)) {
        if (proto !== Array.prototype || keys.length !== v.length) return undefined;
        for (let i = 0; i < v.length; i++) {
          const d = Object.getOwnPropertyDescriptor(v, i);
          const text = d && 'value' in d ? literalOf(d.value) : undefined;
          if (text === undefined) return undefined;
          parts.push(text);
        }
        return `[${parts.join(',')}]`;
      }
      if (proto !== Object.prototype) return undefined;
      for (const k of keys) {
        if (k === '__proto__') return undefined;
        const d = Object.getOwnPropertyDescriptor(v, k);
        const text = d && 'value' in d ? literalOf(d.value) : undefined;
        if (text === undefined) return undefined;
        parts.push(`${JSON.stringify(k)}:${text}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return undefined;
  }
}

/**
 * A deep copy of the frozen `v`, equal to `copyRaw(v)` (new objects at each call): by rfdc the
 * first two times, then from a literal of it when it has one (`literalOf`).
 */
export function copyOfFrozen<T>(v: T): T {
  if (!isObj(v) || !Object.isFrozen(v)) return copyRaw(v);
  const known = copiers.get(v);
  if (typeof known === 'function') return known() as T;
  if (known === undefined) copiers.set(v, 1);
  else if (known === 1) {
    const text = literalOf(v);
    // (the text is a literal of frozen data: strings written by JSON.stringify)
    copiers.set(v, text === undefined ? null : (new Function(`return ${text};`) as () => unknown));
  }
  return copyRaw(v);
}

/** Whether copies of the frozen `v` now come from a literal (the tests ask). */
export function copiedFromLiteral(v: object): boolean {
  return typeof copiers.get(v) === 'function';
}

/** Replaces the elements of `list` at `indexes` (all when undefined) by deep copies of their own. */
export function ownElements(list: unknown, indexes?: Iterable<number>): void {
  if (!Array.isArray(list)) return;
  const items = list as unknown[];
  for (const i of indexes ?? items.keys())
    if (isObj(items[i]) && Object.isFrozen(items[i])) items[i] = copyOfFrozen(items[i]);
}

/** Makes `list[i]` an element of its own (a deep copy when it is shared and frozen); returns it. */
export function ownElement(list: RawElement[], i: number): RawElement {
  ownElements(list, [i]);
  return list[i] as RawElement;
}

/** Freezes `v` and everything reachable from it. */
export function deepFreeze<T>(v: T): T {
  if (isObj(v) && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/** shared frozen element → its edited variants by key */
const variants = new WeakMap<object, Map<string, RawElement>>();

/** an edited variant (and the copy being edited) → the element it was first made from */
const origins = new WeakMap<object, RawElement>();

/**
 * The element `el` was made from by `editShared` (through any number of edits), or `el` itself:
 * what the works context knows of it (its counterpart in the engine's baseline output).
 */
export function originOf(el: RawElement): RawElement {
  return origins.get(el) ?? el;
}

/**
 * Edits `list[i]`: an element of its own in place; a shared frozen element is replaced by a
 * deep-frozen copy of it edited by `edit`, made once per element and `key` (the edit must depend
 * on nothing else), so that every run gets the same object, as for the elements it shares (the
 * engine's sanitizer and element memo then know it: src/engine/patches/memo/).
 */
export function editShared(
  list: RawElement[],
  i: number,
  key: string,
  edit: (el: RawElement) => void,
): void {
  const el = list[i];
  if (!isObj(el) || !Object.isFrozen(el)) {
    edit(el as RawElement);
    return;
  }
  list[i] = entryOf(
    entryOf(variants, el, () => new Map()),
    key,
    () => {
      const variant = copyRaw(el);
      origins.set(variant, originOf(el));
      edit(variant);
      return deepFreeze(variant);
    },
  );
}

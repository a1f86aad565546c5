/* global nodesToMap, structuredClone */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^__dpeSimSanitizeDoc$" }] */
/**
 * Appended to `dpe-sanitizer.service.js` (marker `__dpeSimSanitizer`): the sanitizer, and the
 * element memo's kit (below), which 3_deperdition.js reaches through this module's namespace.
 *
 * `execute` (every run, on the whole input): the engine's
 * `ObjectUtil.deepObjectTransform(dpe, key => key, valueFn)` copies the document through `reduce`
 * and two closures per object, the value function calling three private methods and
 * `Number(val)` twice per value (0.42 s of 1.93 s of engine time on `initial 2535E0426429Q`).
 * The anchor has it call `__dpeSimSanitize`: the same walk with plain loops, step for step: an
 * array is mapped, its elements recursed (not passed to the value function); an object becomes a
 * new `{}` given, in `Object.keys` order, each value as the value function makes it (an object
 * that is not an array under one of `nodesToMap` → `[val]`; an `enum_…`/`original_enum…` key →
 * `val?.toString()`; `''` and `null` → `''`; an empty array as it is; else `Number(val)` unless
 * NaN: booleans and one-element arrays too), recursed when it is a non-null object; anything else
 * is returned as it is. `Number(val)` is called once (the engine calls it twice: the same value
 * for data, whose conversion has no side effect). The collections `execute` creates on its input
 * when missing are still created (unchanged). test/sanitizer.test.ts compares it with the
 * engine's own `execute` on fixtures and corpus DPEs.
 *
 * Works runs give the engine a DPE that shares most of its elements with a deep-frozen copy of
 * the original (src/works/works-copy.ts): the sanitized copy of such a frozen subtree is the same
 * at every run (its content cannot change). From the second time a frozen object is met, its
 * sanitized copy is kept as the text of a literal, compiled once (`new Function`): each run then
 * gets a new copy from the literal (new objects each time: the engine writes into them) instead
 * of walking it again, about 5× faster. Only kept when the whole subtree is frozen plain data
 * (data properties, Object's or Array's prototype, no `__proto__` key) and its copy holds only
 * literal values (strings, numbers, booleans, null, undefined, bigints; arrays without holes);
 * else the walk is made each time, as for anything not frozen.
 */
/**
 * `execute`'s transform of a whole document: `__dpeSimSanitize`, and when the document's technical
 * sheets are a frozen object (a works copy shares the original's), their copy's source is noted:
 * fiche-technique.js keeps its answers per source (the same sheets at every run).
 */
function __dpeSimSanitizeDoc(dpe) {
  const out = __dpeSimSanitize(dpe);
  if (dpe !== null && typeof dpe === 'object' && out !== null && typeof out === 'object') {
    const sheets = dpe.fiche_technique_collection;
    const copy = out.fiche_technique_collection;
    if (
      sheets !== null &&
      typeof sheets === 'object' &&
      Object.isFrozen(sheets) &&
      copy !== null &&
      typeof copy === 'object'
    )
      __dpeSimSheetSources.set(copy, sheets);
  }
  return out;
}
/** a document's sanitized technical sheets → their frozen source */
const __dpeSimSheetSources = new WeakMap();
/** the frozen source of sanitized technical sheets (undefined: not a frozen object's copy) */
export function __dpeSimSheetSourceOf(copy) {
  return __dpeSimSheetSources.get(copy);
}
/** key.startsWith('enum_') || key.startsWith('original_enum') */
function __dpeSimIsEnum(key) {
  const c = key.charCodeAt(0);
  return (c === 101 && key.startsWith('enum_')) || (c === 111 && key.startsWith('original_enum'));
}
/** ObjectUtil.deepObjectTransform(obj, (key) => key, the value function of execute) */
function __dpeSimSanitize(obj) {
  if (obj !== null && typeof obj === 'object' && Object.isFrozen(obj))
    return __dpeSimSanitizeFrozen(obj);
  return __dpeSimSanitizeWalk(obj);
}

/**
 * The walk, in two settings: `__dpeSimSanitizeWalk` (a frozen object met inside goes to
 * `__dpeSimSanitizeFrozen` through `__dpeSimSanitize`, and an array's copy is noted by
 * `__dpeSimListCopy`) and `__dpeSimSanitizePlain` (the same walk inside a frozen subtree: no
 * lookups). Both read an object's keys with `__dpeSimSanitizeKeys`, which recurses through the
 * function it is given.
 */
function __dpeSimSanitizeWalk(obj) {
  if (Array.isArray(obj)) return __dpeSimListCopy(obj, obj.map(__dpeSimSanitizeItem));
  if (typeof obj !== 'object') return obj;
  return __dpeSimSanitizeKeys(obj, __dpeSimSanitize);
}
function __dpeSimSanitizeItem(val) {
  return __dpeSimSanitize(val);
}

function __dpeSimSanitizePlain(obj) {
  if (Array.isArray(obj)) return __dpeSimPlainList(obj, obj.map(__dpeSimSanitizePlainItem));
  if (typeof obj !== 'object') return obj;
  return __dpeSimSanitizeKeys(obj, __dpeSimSanitizePlain);
}
function __dpeSimSanitizePlainItem(val) {
  return __dpeSimSanitizePlain(val);
}

/** execute's value function on each key of `obj` (not an array), `recurse` on object values */
function __dpeSimSanitizeKeys(obj, recurse) {
  const keys = Object.keys(obj);
  const acc = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    let val = obj[key];
    if (typeof val === 'string') {
      // an enum's text is its own toString(), '' stays '': else Number(val) unless NaN
      if (val !== '' && !__dpeSimIsEnum(key)) {
        const n = Number(val);
        if (n === n) val = n;
      }
      acc[key] = val;
      continue;
    }
    if (typeof val === 'number') {
      // Number(val) is val (NaN kept as it is)
      acc[key] = __dpeSimIsEnum(key) ? val.toString() : val;
      continue;
    }
    if (typeof val === 'object' && !Array.isArray(val) && nodesToMap.includes(key)) val = [val];
    else if (__dpeSimIsEnum(key)) val = val?.toString();
    else if (val === '' || val === null) val = '';
    else if (!(Array.isArray(val) && val.length === 0)) {
      const n = Number(val);
      if (!Number.isNaN(n)) val = n;
    }
    acc[key] = val !== null && typeof val === 'object' ? recurse(val) : val;
  }
  return acc;
}

/** a copy of an array (not itself frozen): the element memo finds each element's frozen source */
function __dpeSimListCopy(list, out) {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (v !== null && typeof v === 'object' && Object.isFrozen(v)) {
      __dpeSimListSources.set(out, list);
      break;
    }
  }
  return out;
}
function __dpeSimPlainList(list, out) {
  return out;
}
/** frozen object → 1 (met once), its copy's builder, or null (not kept) */
const __dpeSimSanitized = new WeakMap();
function __dpeSimSanitizeFrozen(obj) {
  const known = __dpeSimSanitized.get(obj);
  let out;
  if (typeof known === 'function') out = known();
  else {
    out = __dpeSimSanitizePlain(obj);
    if (known === undefined) __dpeSimSanitized.set(obj, 1);
    else if (known === 1) __dpeSimSanitized.set(obj, __dpeSimBuilder(obj, out));
  }
  return out;
}
/** whether everything in v is frozen plain data (data properties, no __proto__ key) */
function __dpeSimFrozenData(v) {
  if (v === null || typeof v !== 'object') return typeof v !== 'function' && typeof v !== 'symbol';
  if (!Object.isFrozen(v)) return false;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== Array.prototype) return false;
  for (const k of Object.keys(v)) {
    if (k === '__proto__') return false;
    const d = Object.getOwnPropertyDescriptor(v, k);
    if (d === undefined || !('value' in d) || !__dpeSimFrozenData(d.value)) return false;
  }
  return true;
}
/**
 * v as the text of a literal, or undefined when it cannot be written as one. objectText, when
 * given, is asked first of each object met: a text to write instead, false to refuse it, or
 * undefined to write it as a literal.
 */
function __dpeSimLiteral(v, objectText) {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Object.is(v, -0) ? '-0' : String(v);
    case 'boolean':
      return String(v);
    case 'undefined':
      return 'void 0';
    case 'bigint':
      return String(v) + 'n';
    case 'object': {
      if (v === null) return 'null';
      if (objectText !== undefined) {
        const text = objectText(v);
        if (text === false) return undefined;
        if (text !== undefined) return text;
      }
      const proto = Object.getPrototypeOf(v);
      let text;
      if (Array.isArray(v)) {
        if (proto !== Array.prototype) return undefined;
        const parts = [];
        for (let i = 0; i < v.length; i++) {
          if (!(i in v)) return undefined;
          const p = __dpeSimLiteral(v[i], objectText);
          if (p === undefined) return undefined;
          parts.push(p);
        }
        text = '[' + parts.join(',') + ']';
        return Object.keys(v).length === v.length ? text : undefined;
      }
      if (proto !== Object.prototype) return undefined;
      const parts = [];
      for (const k of Object.keys(v)) {
        if (k === '__proto__') return undefined;
        const p = __dpeSimLiteral(v[k], objectText);
        if (p === undefined) return undefined;
        parts.push(JSON.stringify(k) + ':' + p);
      }
      return '{' + parts.join(',') + '}';
    }
    default:
      return undefined;
  }
}
/** a function returning a new copy of out (the sanitized copy of obj), or null */
function __dpeSimBuilder(obj, out) {
  if (!__dpeSimFrozenData(obj)) return null;
  const text = __dpeSimLiteral(out);
  if (text === undefined) return null;
  try {
    return __dpeSimCompile([], 'return ' + text + ';');
  } catch {
    return null;
  }
}
/** whether the sanitized copy of a frozen object is kept as a literal (the tests ask) */
export function __dpeSimSanitizedKept(obj) {
  return typeof __dpeSimSanitized.get(obj) === 'function';
}
export const __dpeSimSanitizer = true;

/*
 * The element memo's kit: the envelope elements a works copy shares with the original
 * (deep-frozen, src/works/works-copy.ts) reach the engine as the sanitizer's copies of the same
 * frozen objects at every run, so `calc_mur`, `calc_ph`, `calc_bv`, `calc_porte` and
 * `calc_pont_thermique` give them the same values at every run with the same arguments: 25% of
 * the engine's time on the 28-flat 2535E0426429Q (62 windows, 75 thermal bridges) went to
 * computing them again.
 *
 * A copy's state when the function is called is a function of its frozen source (the
 * sanitizer's copy), of what `calcul_3cl` writes into elements before `calc_deperdition`
 * (`add_references`: `reference`; the joint loop: a window's `presence_joint`, both in the key)
 * and nothing else. The second time a (source, key) pair is met, the call is made while
 * recording: every object of the element before the call (keys and values), the console calls
 * made, the return value; after it, the changes (keys set, replaced or deleted, in the order the
 * function left them) are written as the statements of one function, compiled once (`new
 * Function`, values as literals, new objects each time). Later calls with that pair run those
 * statements on the new copy and make the same console calls. Anything the statements cannot say
 * exactly (a change inside an array, an object shared between places or with the element's
 * earlier state, a `__proto__` key, an object returned, a console argument that is not a
 * primitive, keys left in another order) is not kept: the function is called each time, as
 * before. A thermal bridge also reads the walls, floors, windows and doors it joins (found by
 * reference) and writes their `donnee_utilisateur`: its key adds those elements' positions and
 * frozen sources (a bridge one of whose elements the run changed is computed; see
 * element-memo.js); writes anywhere else and the pair is not kept. `bug_for_bug_compat` is not
 * in the keys: engine.ts sets it once when the engine loads, before any run.
 */
/** the sanitizer's copy of an array holding frozen elements → that array (the same indexes) */
const __dpeSimListSources = new WeakMap();
const __dpeSimSourceIds = new WeakMap();
let __dpeSimNextId = 1;
function __dpeSimSourceId(src) {
  let id = __dpeSimSourceIds.get(src);
  if (id === undefined) {
    id = __dpeSimNextId++;
    __dpeSimSourceIds.set(src, id);
  }
  return id;
}
/** a primitive as key text (type and value: 1 and '1' differ) */
function __dpeSimKeyPart(v) {
  switch (typeof v) {
    case 'string':
      return 's' + v.length + ':' + v;
    case 'number':
      return Object.is(v, -0) ? 'n-0;' : 'n' + v + ';';
    case 'undefined':
      return 'u;';
    case 'boolean':
      return v ? 't;' : 'f;';
    default:
      return v === null ? 'l;' : undefined;
  }
}
/** every object reachable from v → its keys and values before the call */
function __dpeSimSnapshot(v, into) {
  if (v === null || typeof v !== 'object' || into.has(v)) return;
  const keys = Object.keys(v);
  const values = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) values[i] = v[keys[i]];
  into.set(v, { keys, values });
  for (let i = 0; i < values.length; i++) __dpeSimSnapshot(values[i], into);
}
/** the engine's arrays shared by every caller (enum id lists): a replay refers to the same one */
const __dpeSimShared = (globalThis[Symbol.for('dpe-sim.shared-values')] ??= new WeakSet());
/**
 * The text of v for a replay: a literal of new data (nothing of the earlier state when pre is
 * given, nothing met twice), V[n] for a shared array (pushed onto V); undefined when it cannot.
 */
function __dpeSimValueText(v, pre, V, seen) {
  return __dpeSimLiteral(v, (o) => {
    if (__dpeSimShared.has(o)) {
      V.push(o);
      return 'V[' + (V.length - 1) + ']';
    }
    if ((pre !== null && pre.has(o)) || seen.has(o)) return false;
    seen.add(o);
    return undefined;
  });
}
/**
 * Whether an array of primitives is as it was (the engine's enum id lists are one array shared
 * by every element that asked for them: met more than once, never written).
 */
function __dpeSimSameFlat(arr, keys, snap) {
  if (keys.length !== snap.keys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const v = arr[keys[i]];
    if (
      keys[i] !== snap.keys[i] ||
      !Object.is(v, snap.values[i]) ||
      (v !== null && typeof v === 'object')
    )
      return false;
  }
  return true;
}
/**
 * Pushes onto out the statements that turn obj's state before the call (pre) into its state
 * now, obj being reached by the expression expr; false when they cannot say it exactly.
 */
function __dpeSimDiff(obj, expr, pre, out, seen, V) {
  const snap = pre.get(obj);
  if (snap === undefined) return false;
  const keys = Object.keys(obj);
  if (Array.isArray(obj) && __dpeSimSameFlat(obj, keys, snap)) return true;
  if (seen.has(obj)) return false;
  seen.add(obj);
  if (Array.isArray(obj)) {
    if (keys.length !== snap.keys.length) return false;
    for (let i = 0; i < keys.length; i++) {
      const v = obj[keys[i]];
      if (keys[i] !== snap.keys[i] || v !== snap.values[i]) return false;
      if (
        v !== null &&
        typeof v === 'object' &&
        !__dpeSimDiff(v, expr + '[' + i + ']', pre, out, seen, V)
      )
        return false;
    }
    return true;
  }
  let j = 0;
  for (let i = 0; i < snap.keys.length; i++) {
    const k = snap.keys[i];
    if (k === '__proto__') return false;
    const at = expr + '[' + JSON.stringify(k) + ']';
    if (!Object.prototype.hasOwnProperty.call(obj, k)) {
      out.push('delete ' + at + ';');
      continue;
    }
    if (keys[j++] !== k) return false;
    const v = obj[k];
    const old = snap.values[i];
    if (v !== null && typeof v === 'object' && v === old) {
      if (!__dpeSimDiff(v, at, pre, out, seen, V)) return false;
    } else if (!Object.is(v, old)) {
      const text = __dpeSimValueText(v, pre, V, new Set());
      if (text === undefined) return false;
      out.push(at + ' = ' + text + ';');
    }
  }
  for (; j < keys.length; j++) {
    const k = keys[j];
    if (k === '__proto__' || pre.get(obj).keys.includes(k)) return false;
    const text = __dpeSimValueText(obj[k], pre, V, new Set());
    if (text === undefined) return false;
    out.push(expr + '[' + JSON.stringify(k) + '] = ' + text + ';');
  }
  return true;
}
/**
 * new Function(...params, body), compiled once per text: a memo record's replay and a frozen
 * object's builder are the same text for like elements (a building's flats), and compiling them
 * was most of a record's time (2535E0426429Q: 936 records, 296 texts). The functions hold no
 * state (what they work on is their arguments). Throws as new Function does. Bounded: a server
 * or a batch worker meets many DPEs. By the length of the texts too (each function keeps its
 * source beside the key): 85 corpus DPEs in one worker kept 5,600 of them, 13 MB of texts and
 * their code, while one DPE compiles a few hundred (2535E0426429Q: 296).
 */
const __dpeSimCompiled = new Map();
let __dpeSimCompiledChars = 0;
function __dpeSimCompile(params, body) {
  const key = params.join(',') + ')' + body;
  let fn = __dpeSimCompiled.get(key);
  if (fn === undefined) {
    fn = new Function(...params, body);
    if (__dpeSimCompiled.size >= 8192 || __dpeSimCompiledChars + key.length > 3_000_000) {
      __dpeSimCompiled.clear();
      __dpeSimCompiledChars = 0;
    }
    __dpeSimCompiled.set(key, fn);
    __dpeSimCompiledChars += key.length;
  }
  return fn;
}
/** a replay's arguments: the element, the lists by kind, the shared values */
const __dpeSimReplayParams = ['el', 'L', 'V'];
const __dpeSimConsole = ['log', 'info', 'warn', 'error', 'debug', 'trace'];
/**
 * Calls compute(...args) and says how to make its effect again: on el and, for a thermal
 * bridge, on the elements others (each [kind, index, element]; every list element's
 * donnee_utilisateur, watched); null when it cannot.
 */
function __dpeSimRecord(compute, args, el, others, watched) {
  const pre = new Map();
  __dpeSimSnapshot(el, pre);
  for (const o of others) __dpeSimSnapshot(o[2], pre);
  const watchedBefore = [];
  for (const w of watched) {
    const du = w.donnee_utilisateur;
    watchedBefore.push(du, du !== null && typeof du === 'object' ? Object.keys(du).length : -1);
  }
  // the writes into the others' donnee_utilisateur, as made (the same value written again too)
  const writes = [];
  const proxies = [];
  let unusual = false;
  others.forEach((o, n) => {
    const d = o[2].donnee_utilisateur;
    if (d === null || typeof d !== 'object' || Array.isArray(d)) return;
    const proxy = new Proxy(d, {
      set(target, k, v) {
        if (typeof k !== 'string') unusual = true;
        writes.push([n, k, v]);
        return Reflect.set(target, k, v);
      },
      defineProperty(target, k, desc) {
        unusual = true;
        return Reflect.defineProperty(target, k, desc);
      },
      deleteProperty(target, k) {
        unusual = true;
        return Reflect.deleteProperty(target, k);
      },
    });
    o[2].donnee_utilisateur = proxy;
    proxies.push([o[2], d, proxy]);
  });
  const calls = [];
  const saved = __dpeSimConsole.map((m) => console[m]);
  __dpeSimConsole.forEach((m, i) => {
    console[m] = (...a) => {
      calls.push([m, a]);
      return saved[i].apply(console, a);
    };
  });
  let ret;
  try {
    ret = compute(...args);
  } finally {
    __dpeSimConsole.forEach((m, i) => {
      console[m] = saved[i];
    });
    for (const [o, d, proxy] of proxies) {
      if (o.donnee_utilisateur === proxy) o.donnee_utilisateur = d;
      else unusual = true;
    }
  }
  const no = { rec: null, ret };
  if (unusual) return no;
  if (ret !== null && (typeof ret === 'object' || typeof ret === 'function')) return no;
  for (const [, a] of calls)
    for (const x of a)
      if (x !== null && (typeof x === 'object' || typeof x === 'function')) return no;
  const out = [];
  const seen = new Set();
  const V = [];
  if (!__dpeSimDiff(el, 'el', pre, out, seen, V)) return no;
  for (const [kind, index, o] of others) {
    // only its donnee_utilisateur may have changed: by the writes logged
    const at = 'L[' + JSON.stringify(kind) + '][' + index + ']';
    const changes = [];
    if (!__dpeSimDiff(o, at, pre, changes, seen, V)) return no;
    if (changes.some((c) => !c.startsWith(at + '["donnee_utilisateur"]['))) return no;
  }
  for (const [n, k, v] of writes) {
    const [kind, index] = others[n];
    const text = k === '__proto__' ? undefined : __dpeSimValueText(v, null, V, new Set());
    if (text === undefined) return no;
    out.push(
      'L[' +
        JSON.stringify(kind) +
        '][' +
        index +
        ']["donnee_utilisateur"][' +
        JSON.stringify(k) +
        '] = ' +
        text +
        ';',
    );
  }
  // an element that is not among the others: its donnee_utilisateur left as it was
  for (let i = 0; i < watched.length; i++) {
    const w = watched[i];
    if (seen.has(w)) continue;
    const du = w.donnee_utilisateur;
    const n = du !== null && typeof du === 'object' ? Object.keys(du).length : -1;
    if (du !== watchedBefore[2 * i] || n !== watchedBefore[2 * i + 1]) return no;
  }
  let fn;
  try {
    fn = __dpeSimCompile(__dpeSimReplayParams, out.join('\n'));
  } catch {
    return no;
  }
  return { rec: { fn, V, calls, ret }, ret };
}
/**
 * The first string made with k's text: a run's key is a new string, and every memo lookup and
 * comparison with it compared its characters; the same string object is found by its hash (kept
 * with it) and compared by identity.
 */
const __dpeSimKeyTexts = new Map();
function __dpeSimCanonicalKey(k) {
  const known = __dpeSimKeyTexts.get(k);
  if (known !== undefined) return known;
  if (__dpeSimKeyTexts.size < 4096) __dpeSimKeyTexts.set(k, k);
  return k;
}
/** at most this many keys kept per frozen element (a bridge's key holds its neighbours') */
const __dpeSimMemoKeys = 64;
/**
 * compute(el) for el, a copy of the frozen src, under key: made again from the record of an
 * earlier call when there is one (see above), if el's reference and presence_joint are those the
 * record was made on. others: [kind, index, element] of the other elements it reads and writes,
 * lists: those lists by kind, watched: every element it could write into.
 */
function __dpeSimMemoCall(memo, src, key, compute, el, others, lists, watched) {
  let byKey = memo.get(src);
  if (byKey === undefined) {
    byKey = new Map();
    memo.set(src, byKey);
  }
  const rec = byKey.get(key);
  const de = el.donnee_entree;
  if (rec !== undefined && rec !== null && rec !== 1) {
    if (de.reference !== rec.ref || de.presence_joint !== rec.joint) return compute(el);
    if (__dpeSimMemoCheck.on) return __dpeSimMemoChecked(rec, compute, el, others, lists);
    __dpeSimMemoStats.replays++;
    rec.fn(el, lists, rec.V);
    const calls = rec.calls;
    for (let i = 0; i < calls.length; i++) console[calls[i][0]](...calls[i][1]);
    return rec.ret;
  }
  if (rec === null) return compute(el);
  if (rec === undefined) {
    if (byKey.size < __dpeSimMemoKeys) byKey.set(key, 1);
    return compute(el);
  }
  const ref = de.reference;
  const joint = de.presence_joint;
  const r = __dpeSimRecord(compute, [el], el, others, watched);
  if (r.rec !== null) {
    __dpeSimMemoStats.records++;
    r.rec.ref = ref;
    r.rec.joint = joint;
  }
  byKey.set(key, r.rec);
  return r.ret;
}
/**
 * calc(el) for each element of list (as list.forEach), the sanitizer's copy of a works copy's
 * collection: an element copied from a frozen one through the element memo under key (the
 * run's arguments), the others computed.
 */
function __dpeSimEachElement(memo, list, key, calc) {
  const sources = __dpeSimListSources.get(list);
  if (sources === undefined || sources.length !== list.length || typeof key !== 'string')
    return list.forEach((el) => calc(el));
  for (let i = 0; i < list.length; i++) {
    if (!(i in list)) continue;
    const el = list[i];
    const src = sources[i];
    const de = el !== null && typeof el === 'object' ? el.donnee_entree : undefined;
    if (
      src === null ||
      typeof src !== 'object' ||
      !Object.isFrozen(src) ||
      de === null ||
      typeof de !== 'object'
    )
      calc(el);
    else __dpeSimMemoCall(memo, src, key, calc, el, [], undefined, []);
  }
}
const __dpeSimMemoStats = { replays: 0, records: 0 };
/** the tests' check: each replay against the call itself, on copies */
const __dpeSimMemoCheck = { on: false, replays: 0, differ: [] };
function __dpeSimMemoChecked(rec, compute, el, others, lists) {
  const copyOf = (v) => structuredClone(v);
  const replayed = copyOf(el);
  const replayedLists = {};
  for (const k of Object.keys(lists ?? {})) replayedLists[k] = lists[k].map(copyOf);
  rec.fn(replayed, replayedLists, rec.V);
  const ret = compute(el);
  __dpeSimMemoCheck.replays++;
  const same = (a, b) => __dpeSimLiteral(a) === __dpeSimLiteral(b);
  let ok = same(replayed, el) && Object.is(ret, rec.ret);
  for (const [kind, index] of others ?? [])
    ok = ok && same(replayedLists[kind][index], lists[kind][index]);
  if (!ok && __dpeSimMemoCheck.differ.length < 20)
    __dpeSimMemoCheck.differ.push(__dpeSimLiteral(el));
  return ret;
}
/** the element memo's kit, for 3_deperdition.js (its snippet imports this module's namespace) */
export const __dpeSimElementMemoKit = {
  sources: (list) => __dpeSimListSources.get(list),
  sourceId: __dpeSimSourceId,
  /** the key text of primitives, undefined when one is not */
  key(...vs) {
    let k = '';
    for (const v of vs) {
      const p = __dpeSimKeyPart(v);
      if (p === undefined) return undefined;
      k += p;
    }
    return __dpeSimCanonicalKey(k);
  },
  call: __dpeSimMemoCall,
  each: __dpeSimEachElement,
  check: __dpeSimMemoCheck,
  /** replays made and records kept (the tests ask) */
  stats: __dpeSimMemoStats,
};

import type { z } from 'zod';

/**
 * A plain-code check compiled from a zod schema: true only when the schema accepts the value
 * and its parse would return a value equal to the input, key order included (no default to
 * fill, no unknown key to strip). The stores read back documents they wrote as the output of
 * that parse; checking each of 20,000 records with zod was a third of `compare`'s time, where
 * this check walks each value once and copies nothing. A false answer decides nothing: the
 * caller then parses with zod, which fills defaults of older records or reports what is wrong.
 */
export type ExactCheck = (value: unknown) => boolean;

interface Compiled {
  readonly check: ExactCheck;
  /** False when the check can reject what zod accepts (a default to fill, a key to strip). */
  readonly sameVerdict: boolean;
}

/** Thrown while compiling at a schema part this compiler does not know: zod checks everything then. */
class Unsupported extends Error {}

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions are read generically
type Def = any;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function numberCheck(def: Def): ExactCheck {
  const tests: ((n: number) => boolean)[] = [Number.isFinite];
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'number_format' && d.format === 'safeint') tests.push(Number.isSafeInteger);
    else if (d.check === 'greater_than' && typeof d.value === 'number')
      tests.push(d.inclusive ? (n) => n >= d.value : (n) => n > d.value);
    else if (d.check === 'less_than' && typeof d.value === 'number')
      tests.push(d.inclusive ? (n) => n <= d.value : (n) => n < d.value);
    else throw new Unsupported(`number check ${d.check}`);
  }
  return (v) => typeof v === 'number' && tests.every((t) => t(v));
}

/** The length bounds of a string or array (zod's min_length / max_length). */
function lengthTest(def: Def): (length: number) => boolean {
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'min_length') min = Math.max(min, d.minimum);
    else if (d.check === 'max_length') max = Math.min(max, d.maximum);
    else throw new Unsupported(`length check ${d.check}`);
  }
  return (length) => length >= min && length <= max;
}

function objectCheck(def: Def): Compiled {
  const catchall = def.catchall?._zod.def.type;
  // Unknown keys: stripped by default (the output would differ), refused by strict objects;
  // kept by loose ones, but after the known keys, so their order could change.
  if (catchall !== undefined && catchall !== 'never') throw new Unsupported(`object catchall ${catchall}`);
  const keys = Object.keys(def.shape);
  const order = new Map(keys.map((k, i) => [k, i]));
  const fields = keys.map((k) => ({ key: k, ...compile(def.shape[k]) }));
  return {
    sameVerdict: catchall !== undefined && fields.every((f) => f.sameVerdict),
    check(v) {
      if (!isObject(v) || Object.hasOwn(v, '__proto__')) return false;
      // Known keys in the schema's order, as the parse writes them.
      let last = -1;
      for (const k in v) {
        const at = order.get(k);
        if (at === undefined || at < last) return false;
        last = at;
      }
      for (const f of fields) if (!f.check(v[f.key])) return false;
      return true;
    },
  };
}

const CHECKED_TYPES = new Set(['string', 'number', 'array']);

function compile(schema: z.ZodType): Compiled {
  const def: Def = schema._zod.def;
  const exact = (check: ExactCheck): Compiled => ({ check, sameVerdict: true });
  // A refinement (`.refine`, `.superRefine`) is a check this compiler cannot see into: strings,
  // numbers and arrays read their known checks below; anywhere else zod must decide.
  if (!CHECKED_TYPES.has(def.type) && (def.checks ?? []).length > 0)
    throw new Unsupported(`${def.type} with checks`);
  switch (def.type) {
    case 'string': {
      const length = lengthTest(def);
      return exact((v) => typeof v === 'string' && length(v.length));
    }
    case 'number':
      return exact(numberCheck(def));
    case 'boolean':
      return exact((v) => typeof v === 'boolean');
    case 'null':
      return exact((v) => v === null);
    case 'unknown':
    case 'any':
      return exact(() => true);
    case 'literal': {
      const values: readonly unknown[] = def.values;
      return exact((v) => values.includes(v));
    }
    case 'enum': {
      const values = new Set<unknown>(Object.values(def.entries));
      return exact((v) => values.has(v));
    }
    case 'optional': {
      const inner = compile(def.innerType);
      // An absent value of an optional default is filled all the same.
      const absentIsKept = def.innerType._zod.def.type !== 'default';
      return {
        check: (v) => (v === undefined ? absentIsKept : inner.check(v)),
        sameVerdict: inner.sameVerdict,
      };
    }
    case 'nullable': {
      const inner = compile(def.innerType);
      return { check: (v) => v === null || inner.check(v), sameVerdict: inner.sameVerdict };
    }
    case 'default': {
      // Absent: the parse would fill the default, so the output is not the input.
      const inner = compile(def.innerType);
      return { check: (v) => v !== undefined && inner.check(v), sameVerdict: false };
    }
    case 'array': {
      const length = lengthTest(def);
      const element = compile(def.element);
      return {
        sameVerdict: element.sameVerdict,
        check: (v) => Array.isArray(v) && length(v.length) && v.every((item) => element.check(item)),
      };
    }
    case 'record': {
      const key = def.keyType._zod.def;
      if (key.type !== 'string' || (key.checks ?? []).length > 0) throw new Unsupported('record key');
      const value = compile(def.valueType);
      return {
        sameVerdict: value.sameVerdict,
        check(v) {
          if (!isObject(v) || Object.hasOwn(v, '__proto__')) return false;
          for (const k in v) if (!value.check(v[k])) return false;
          return true;
        },
      };
    }
    case 'object':
      return objectCheck(def);
    case 'union': {
      const options: Compiled[] = def.options.map(compile);
      // zod takes the first option that accepts: an earlier option must not accept (with a
      // changed output) what this check gives to a later one.
      if (options.slice(0, -1).some((o) => !o.sameVerdict)) throw new Unsupported('union');
      return {
        sameVerdict: options.every((o) => o.sameVerdict),
        check: (v) => options.some((o) => o.check(v)),
      };
    }
    default:
      throw new Unsupported(def.type);
  }
}

/** The check for `schema`, or undefined when it uses a part this compiler does not know. */
export function compileExactCheck(schema: z.ZodType): ExactCheck | undefined {
  try {
    return compile(schema).check;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

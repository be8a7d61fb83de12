// A fast yes-or-no check compiled from a model schema's own definition, for
// the records read in bulk (a journal replayed on restart, a hub taking a
// station's records): zod's parse builds a copy and its issues, many times
// slower than a plain test of the shapes (bench/journal.ts). The schema
// stays the one definition: the check is made from it, not written beside
// it, and a schema it cannot compile (a kind of zod type or check it does
// not know) fails at once; when it says no, zod's parse says why.
// test/model/check.test.ts keeps the two in agreement on mutated records.

import * as z from 'zod/mini';

/** A predicate on a parsed JSON value. */
export type Fits = (v: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const no: Fits = () => false;

/** The inclusive bounds a number's, a string's or an array's checks set (zod/mini's gte/lte, minLength/maxLength), and whole numbers. */
interface Bounds {
  lo: number;
  hi: number;
  int: boolean;
}

function boundsOf(checks: readonly z.core.$ZodCheck[] | undefined): Bounds {
  const b: Bounds = { lo: -Infinity, hi: Infinity, int: false };
  for (const c of checks ?? []) {
    const d = c._zod.def as z.core.$ZodChecks['_zod']['def'];
    if (d.check === 'greater_than' && d.inclusive) b.lo = Math.max(b.lo, Number(d.value));
    else if (d.check === 'less_than' && d.inclusive) b.hi = Math.min(b.hi, Number(d.value));
    else if (d.check === 'number_format' && d.format === 'safeint') b.int = true;
    else if (d.check === 'min_length') b.lo = Math.max(b.lo, d.minimum);
    else if (d.check === 'max_length') b.hi = Math.min(b.hi, d.maximum);
    else throw new Error(`model check: a "${d.check}" check is not supported`);
  }
  return b;
}

function numberFits({ lo, hi, int }: Bounds): Fits {
  if (int) return (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= lo && v <= hi;
  return (v) => typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi;
}

function arrayFits(item: Fits, { lo, hi }: Bounds): Fits {
  return (v) => {
    if (!Array.isArray(v) || v.length < lo || v.length > hi) return false;
    for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
    return true;
  };
}

function recordFits(value: Fits): Fits {
  return (v) => {
    if (!isObject(v)) return false;
    for (const k in v) if (Object.hasOwn(v, k) && !value(v[k])) return false;
    return true;
  };
}

/** An object: every field of the shape fits (a field not in the shape is let through, as zod's object lets it, and left out of its copy). */
function objectFits(shape: z.core.$ZodShape): Fits {
  const keys = Object.keys(shape);
  const fits = keys.map((k) => compileCheck(shape[k]!));
  return (v) => {
    if (!isObject(v)) return false;
    for (let i = 0; i < keys.length; i++) if (!fits[i]!(v[keys[i]!])) return false;
    return true;
  };
}

/** A discriminated union: the option its key's value names. */
function unionFits(def: z.core.$ZodDiscriminatedUnionDef): Fits {
  const key = def.discriminator;
  if (!key) throw new Error('model check: only discriminated unions are supported');
  const byValue = new Map<unknown, Fits>();
  for (const option of def.options) {
    const values = (option._zod.def as z.core.$ZodObjectDef).shape?.[key]?._zod.values;
    if (!values) throw new Error(`model check: a union option has no literal "${key}"`);
    const fits = compileCheck(option);
    for (const value of values) byValue.set(value, fits);
  }
  return (v) => isObject(v) && (byValue.get(v[key]) ?? no)(v);
}

/** The predicate a schema's definition makes: true exactly when zod would accept the value. */
export function compileCheck(schema: z.core.$ZodType): Fits {
  const def = schema._zod.def as z.core.$ZodTypes['_zod']['def'];
  switch (def.type) {
    case 'number':
      return numberFits(boundsOf(def.checks));
    case 'string': {
      const { lo, hi } = boundsOf(def.checks);
      return (v) => typeof v === 'string' && v.length >= lo && v.length <= hi;
    }
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'literal': {
      const values = new Set<unknown>(def.values);
      return (v) => values.has(v);
    }
    case 'enum': {
      const values = new Set<unknown>(Object.values(def.entries));
      return (v) => values.has(v);
    }
    case 'nullable': {
      const inner = compileCheck(def.innerType);
      return (v) => v === null || inner(v);
    }
    case 'optional': {
      const inner = compileCheck(def.innerType);
      return (v) => v === undefined || inner(v);
    }
    case 'array':
      return arrayFits(compileCheck(def.element), boundsOf(def.checks));
    case 'record':
      if (def.keyType._zod.def.type !== 'string' || def.keyType._zod.def.checks?.length)
        throw new Error('model check: only records with plain text keys are supported');
      return recordFits(compileCheck(def.valueType));
    case 'object':
      return objectFits(def.shape);
    case 'union':
      return unionFits(def as z.core.$ZodDiscriminatedUnionDef);
    default:
      throw new Error(`model check: a zod ${def.type} is not supported`);
  }
}
